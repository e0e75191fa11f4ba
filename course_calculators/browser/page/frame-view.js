// One recorded step of a simulation, shown: its extra pictures (a grid of cells, a row of
// tokens) and its figures, built as DOM nodes from Python's frame (never markup). The same
// structure as the build's HTML of the step it shows first (plugin/templates/widget.html).

/** The cell of a grid panel: an owner's id holds tokens, −(id + 1) is reserved for it but empty. */
function cell(value) {
  const c = document.createElement("span");
  c.className = "calc__cell";
  if (value === null) { c.classList.add("calc__cell--free"); return c; }
  const owner = value < 0 ? -value - 1 : value;
  if (value < 0) c.classList.add("calc__cell--reserved");
  c.style.setProperty("--owner-hue", String((owner * 47) % 360));
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
      row.values.forEach((v) => line.appendChild(cell(v)));
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
