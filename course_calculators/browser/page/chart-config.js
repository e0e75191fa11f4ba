// Chart.js configurations made from Python's chart data and the theme's palette: which series,
// colours, axes and markers a line, bar or xy chart gets. Presentation only: Python chose every
// number (chart-loader.js loads Chart.js itself).

// The palette's colours, read once per palette: getComputedStyle forces a style recalculation,
// too slow to repeat for every step of a slider.
let colours = null;

/** The light/dark palette changed: read the colours again. */
export function resetPalette() {
  colours = null;
}

export function palette(root) {
  if (colours) return colours;
  const style = getComputedStyle(root);
  const v = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  colours = {
    fg: v("--md-default-fg-color--light", "#666"),
    grid: v("--md-default-fg-color--lightest", "#ddd"),
    series: [1, 2, 3, 4, 5].map((n) => v("--calc-series-" + n, "#448aff")),
    rule: v("--calc-rule", "#e53935"),
  };
  return colours;
}

function axis(title, log, fg, grid, extra) {
  return Object.assign({ type: log ? "logarithmic" : "linear", title: { display: true, text: title, color: fg },
    ticks: { color: fg }, grid: { color: grid } }, extra);
}

/** A series' colour: a rule's, or the series' own by its place; a pinned setting's series
 * (compare.py's overlay: `pinned`, `like`) takes the colour of the live series it pins. */
function seriesColour(s, i, colors, rule) {
  if (s.kind === "rule") return rule;
  const j = s.pinned && Number.isInteger(s.like) ? s.like : i;
  return colors[j % colors.length];
}

/** A pinned series is drawn dashed and paler, beside the live one. */
const PINNED_DASH = [3, 3];
function translucent(color) { // 45 % opaque, for the palette's #rrggbb and rgb() colours
  if (/^#[0-9a-f]{6}$/i.test(color)) return color + "73";
  const rgb = /^rgb\((\d+),\s*(\d+),\s*(\d+)\)$/.exec(color);
  return rgb ? `rgba(${rgb[1]}, ${rgb[2]}, ${rgb[3]}, 0.45)` : color;
}

/** The Chart.js configuration of an xy chart: numeric axes, lines, measured points, a marker. */
function xyConfig(chart, { fg, grid, series: colors, rule }) {
  const datasets = chart.series.map((s, i) => {
    const kind = s.kind || "line";
    const color = seriesColour(s, i, colors, rule);
    const lined = kind === "line" || kind === "rule";
    return {
      label: s.name, data: s.points.map(([x, y]) => ({ x, y })), borderColor: color,
      backgroundColor: s.pinned ? translucent(color) : color,
      showLine: lined, borderWidth: 2, borderDash: s.pinned ? PINNED_DASH : (kind === "rule" ? [6, 4] : []),
      pointRadius: lined ? 0 : (kind === "marker" ? 6 : 4), pointLabels: s.point_labels || [],
    };
  });
  return {
    type: "scatter",
    data: { datasets },
    options: {
      animation: false, responsive: true, maintainAspectRatio: false,
      plugins: {
        legend: { labels: { color: fg, boxWidth: 12 } },
        tooltip: { callbacks: { label: (item) => {
          const name = item.dataset.pointLabels[item.dataIndex];
          return `${item.dataset.label}: ${name ? name + " — " : ""}${item.parsed.y}`;
        } } },
      },
      scales: {
        x: axis(chart.x_label, chart.x_log, fg, grid),
        y: axis(chart.y_label, chart.y_log, fg, grid, { beginAtZero: !chart.y_log }),
      },
    },
  };
}

/** The Chart.js configuration of one chart, in these colours. */
export function chartConfig(chart, colours) {
  if (chart.kind === "xy") return xyConfig(chart, colours);
  const { fg, grid, series: colors, rule } = colours;
  const isBar = chart.kind === "bar";
  const datasets = chart.series.map((s, i) => {
    const color = seriesColour(s, i, colors, rule);
    const ds = {
      label: s.name, data: s.values, borderColor: color, backgroundColor: s.pinned ? translucent(color) : color,
      type: s.kind === "rule" ? "line" : (isBar ? "bar" : "line"),
      borderWidth: 2, pointRadius: 0, tension: 0,
    };
    if (s.kind === "rule") { ds.borderDash = [6, 4]; }
    if (s.pinned) { ds.borderDash = PINNED_DASH; }
    if (!isBar && s.kind !== "rule" && chart.marker !== null && chart.marker !== undefined) {
      ds.pointRadius = s.values.map((_, j) => (j === chart.marker ? 5 : 0));
    }
    return ds;
  });
  return {
    type: isBar ? "bar" : "line",
    data: { labels: chart.labels, datasets },
    options: {
      animation: false, responsive: true, maintainAspectRatio: false,
      interaction: { mode: "index", intersect: false },
      plugins: { legend: { labels: { color: fg, boxWidth: 12 } }, tooltip: { enabled: true } },
      scales: {
        x: { title: { display: true, text: chart.x_label, color: fg }, ticks: { color: fg }, grid: { color: grid } },
        y: {
          type: chart.y_log ? "logarithmic" : "linear", beginAtZero: !chart.y_log,
          title: { display: true, text: chart.y_label, color: fg }, ticks: { color: fg }, grid: { color: grid },
        },
      },
    },
  };
}
