// The charts' text alternatives and the block grid, built from Python's chart data as DOM nodes
// (never markup): each chart's data table, and the grid chart's picture, which is drawn with
// elements, not Chart.js.

/** The chart's data as a table, in place of the container's content. */
export function renderTable(container, chart) {
  if (!container) return;
  const table = document.createElement("table");
  const header = (row, text, scope) => {
    const th = document.createElement("th");
    th.scope = scope;
    th.textContent = text;
    row.appendChild(th);
  };
  if (chart.kind === "grid") {
    const body = table.createTBody();
    chart.series.forEach((line) => {
      const tr = body.insertRow();
      header(tr, line.name, "row");
      line.values.forEach((cell) => { tr.insertCell().textContent = cell === null ? "·" : String(cell); });
    });
  } else {
    const head = table.createTHead().insertRow();
    [chart.x_label].concat(chart.series.map((s) => s.name + " (" + chart.y_label + ")"))
      .forEach((text) => header(head, text, "col"));
    const body = table.createTBody();
    chart.labels.forEach((label, i) => {
      const tr = body.insertRow();
      header(tr, label, "row");
      chart.series.forEach((s) => { tr.insertCell().textContent = String(s.values[i]); });
    });
  }
  container.replaceChildren(table);
  if (chart.timeline) container.appendChild(timelineTable(chart.timeline, header));
}

/** A simulation's timeline as a table: one row per recorded step, one column per series. */
function timelineTable(timeline, header) {
  const table = document.createElement("table");
  table.createCaption().textContent = `${timeline.title} (${timeline.y_label})`;
  const head = table.createTHead().insertRow();
  ["Step"].concat(timeline.series.map((s) => s.name)).forEach((text) => header(head, text, "col"));
  const body = table.createTBody();
  timeline.labels.forEach((label, i) => {
    const tr = body.insertRow();
    header(tr, label, "row");
    timeline.series.forEach((s) => { tr.insertCell().textContent = String(s.values[i]); });
  });
  return table;
}

/** A grid chart (rows of cells: `values` the owners, `states` and `hues` per cell) as its picture
 * in `box`. Rows wider than the box scroll sideways, and say so (a cue under the grid, a fading
 * edge until the reader reaches the end); the next step keeps the reader's scroll position. */
export function renderGrid(box, chart) {
  if (!box) return;
  const before = box.querySelector ? box.querySelector(".calc__grid") : null;
  const scrolled = before ? before.scrollLeft || 0 : 0;
  const grid = document.createElement("div");
  grid.className = "calc__grid";
  grid.setAttribute("role", "img");
  grid.setAttribute("aria-label", chart.summary);
  chart.series.forEach((row) => {
    const line = document.createElement("div");
    line.className = "calc__grid-row";
    const label = document.createElement("span");
    label.className = "calc__grid-label";
    label.textContent = row.name;
    line.appendChild(label);
    row.values.forEach((owner, i) => { // each cell as Python describes it (charts.grid_row)
      const c = document.createElement("span");
      c.className = `calc__grid-cell calc__grid-cell--${row.states[i]}`;
      if (row.hues[i] !== null) c.style.setProperty("--owner-hue", String(row.hues[i]));
      if (owner !== null) c.textContent = String(owner);
      line.appendChild(c);
    });
    grid.appendChild(line);
  });
  const cue = document.createElement("p");
  cue.className = "calc__grid-cue";
  cue.setAttribute("aria-hidden", "true"); // the picture's label and the data table hold every cell
  cue.textContent = "Scroll sideways for the rest of each row →";
  box.replaceChildren(grid, cue);
  grid.scrollLeft = scrolled;
  const atEnd = () => grid.toggleAttribute("data-scrolled-end", grid.scrollLeft + grid.clientWidth >= grid.scrollWidth - 1);
  const over = grid.scrollWidth > grid.clientWidth + 1;
  grid.toggleAttribute("data-overflow", over);
  cue.hidden = !over;
  if (over) { atEnd(); grid.addEventListener("scroll", atEnd, { passive: true }); }
}
