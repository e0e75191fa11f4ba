// One recorded step of a simulation, shown: its extra pictures (a grid of cells, a row of
// tokens) and its figures, built as DOM nodes from Python's frame (never markup). The same
// structure as the build's HTML of the step it shows first (plugin/templates/widget.html).

/** One cell of a grid panel, as Python describes it (charts.grid_row): its state (held, reserved
 * or free: the class calc__cell--<state>) and its hue (null when free). */
function cell(state, hue) {
  const c = document.createElement("span");
  c.className = `calc__cell calc__cell--${state}`;
  if (hue !== null) c.style.setProperty("--owner-hue", String(hue));
  return c;
}

function panel(data) {
  const box = document.createElement("div");
  box.className = "calc__panel";
  const title = document.createElement("p");
  title.className = "calc__panel-title";
  title.textContent = data.title;
  box.appendChild(title);
  if (data.kind === "grid") {
    const cells = document.createElement("div");
    cells.className = "calc__cells";
    cells.setAttribute("role", "img");
    cells.setAttribute("aria-label", data.title);
    data.rows.forEach((row) => {
      const line = document.createElement("div");
      line.className = "calc__cells-row";
      row.states.forEach((state, i) => line.appendChild(cell(state, row.hues[i])));
      cells.appendChild(line);
    });
    box.appendChild(cells);
  } else {
    const list = document.createElement("ol");
    list.className = "calc__tokens";
    data.tokens.forEach((t) => {
      const li = document.createElement("li");
      li.className = `calc__token calc__token--${t.state}`;
      const state = document.createElement("small");
      state.textContent = t.state;
      li.append(t.text + " ", state);
      list.appendChild(li);
    });
    box.appendChild(list);
  }
  return box;
}

/** Show `frame`'s panels in `panels` and its figures in `stats` (either may be null). */
export function showFrame(frame, panels, stats) {
  if (panels) panels.replaceChildren(...(frame.panels || []).map(panel));
  if (!stats) return;
  stats.replaceChildren(...(frame.stats || []).map(([label, text]) => {
    const row = document.createElement("div");
    const dt = document.createElement("dt");
    const dd = document.createElement("dd");
    dt.textContent = label;
    dd.textContent = text;
    row.append(dt, dd);
    return row;
  }));
}
