// One widget's charts. Summaries and data tables (the charts' text alternatives) always follow
// the latest result. Canvas charts are drawn at once while the widget is on (or near) the screen;
// out of view, a chart whose picture (the build's SVG, or the canvas's last drawing) no longer
// shows the latest result is marked `data-stale` and drawn in the background once its results
// stop changing: Chart.js is not loaded during the page's start-up (its first results are the
// build's), a slider's every step is not drawn out of view, and a printed page (with or without
// the print event, e.g. a headless PDF) never shows an old picture beside new numbers (the print
// style hides a stale picture: calc.css).

import { DOM } from "../shared/contract.js";
import { chartConfig, palette } from "./chart-config.js";
import { renderGrid, renderTable } from "./chart-table.js";
import { FramePlayer } from "./frame-player.js";

/** Out of view, a chart is drawn this long after its latest result (a burst draws once). */
const BACKGROUND_DRAW_MS = 300;

/** What a chart's picture shows: its series, categories, marker and axes (not its steps or text). */
function pictureKey(chart) {
  return JSON.stringify([chart.kind, chart.title, chart.x_label, chart.y_label, chart.labels, chart.series,
    chart.marker, chart.y_log, chart.x_log]);
}

export class ChartView {
  /** `withChart` from chart-loader.js's chartLoader. */
  constructor(root, withChart) {
    this.root = root;
    this.withChart = withChart;
    this.instances = []; // Chart.js objects, by figure
    this.players = []; // the players of charts with recorded steps, by figure
    try {
      this.data = JSON.parse((root.querySelector(DOM.chartData) || { dataset: {} }).dataset.charts || "[]");
    } catch (err) {
      this.data = [];
    }
    // What each chart's picture shows now: the build's SVG, drawn for the page's own data.
    this.pictured = this.data.map((chart) => (chart ? pictureKey(chart) : ""));
    this.pending = new Map(); // figure index → the chart to draw in the background
    this.backgroundTimer = 0;
    this.visible = !("IntersectionObserver" in window);
    this.stale = false;
    if (this.visible || !root.querySelector(DOM.chartCanvas)) { this.visible = true; return; }
    this.observer = new IntersectionObserver((entries) => {
      this.visible = entries[entries.length - 1].isIntersecting;
      if (this.visible && this.stale) this.draw(this.data);
    }, { rootMargin: "200px 0px" });
    this.observer.observe(root);
  }

  /** Show Python's chart data: text alternatives now, canvases when visible. A chart with
   * recorded steps goes to its player, which draws the step it shows. */
  draw(data) {
    this.data = data;
    this.root.querySelectorAll(DOM.chart).forEach((figure, i) => {
      const chart = data[i];
      if (!chart) return;
      if (chart.frames) { this.player(i, figure).load(chart); return; }
      this.drawOne(i, figure, chart);
    });
    if (this.visible) this.stale = false;
  }

  player(i, figure) {
    if (!this.players[i]) {
      this.players[i] = new FramePlayer(figure, this.root, {
        draw: (chart) => this.drawOne(i, figure, chart), withChart: this.withChart });
    }
    return this.players[i];
  }

  /** One chart: its text alternatives, and its picture (the grid at once, a canvas when visible). */
  drawOne(i, figure, chart) {
    const summary = figure.querySelector(DOM.chartSummary);
    if (summary) summary.textContent = chart.summary;
    renderTable(figure.querySelector(DOM.chartTable), chart);
    if (chart.kind === "grid") { renderGrid(figure.querySelector(DOM.chartBox), chart); return; }
    const canvas = figure.querySelector(DOM.chartCanvasOf);
    if (canvas) canvas.setAttribute("aria-label", chart.summary);
    if (this.visible) { this.pending.delete(i); this.withChart((Chart) => this.drawCanvas(Chart, i, canvas, chart)); return; }
    this.stale = true;
    if (pictureKey(chart) === this.pictured[i]) { this.pending.delete(i); delete figure.dataset.stale; return; }
    figure.dataset.stale = "";
    this.pending.set(i, { canvas, chart });
    clearTimeout(this.backgroundTimer);
    this.backgroundTimer = setTimeout(() => this.drawPending(), BACKGROUND_DRAW_MS);
  }

  /** The charts out of view whose pictures are behind their results, drawn now. */
  drawPending() {
    this.backgroundTimer = 0;
    const due = Array.from(this.pending.entries());
    this.pending.clear();
    if (due.length) this.withChart((Chart) => due.forEach(([i, { canvas, chart }]) => this.drawCanvas(Chart, i, canvas, chart)));
  }

  drawCanvas(Chart, i, canvas, chart) {
    if (!canvas || !canvas.isConnected) return;
    const config = chartConfig(chart, palette(this.root));
    const existing = this.instances[i];
    if (existing && existing.canvas === canvas && existing.config.type === config.type) {
      existing.data = config.data;
      existing.options = config.options;
      existing.update("none");
    } else {
      if (existing) existing.destroy();
      this.instances[i] = new Chart(canvas, config);
    }
    // The live chart is drawn: the build's SVG picture of it steps aside (on screen and in print).
    this.pictured[i] = pictureKey(chart);
    const figure = canvas.closest(DOM.chart);
    if (figure) { figure.dataset.drawn = ""; delete figure.dataset.stale; }
  }

  /** Printing: a chart out of view since its latest data is drawn now, so that the page prints
   * the latest result (the print style shows a canvas only once it holds that). */
  drawStale() {
    if (!this.stale) return;
    const visible = this.visible;
    this.visible = true;
    this.draw(this.data);
    this.visible = visible;
  }

  /** Draw every chart anew (the palette changed). */
  redraw() {
    this.destroyCharts();
    this.draw(this.data);
    this.players.forEach((p) => p && p.redraw());
  }

  destroyCharts() {
    // A destroyed chart's canvas is blank: it pictures nothing until drawn again.
    this.instances.forEach((c, i) => { if (c) this.pictured[i] = ""; });
    this.instances.forEach((c) => c && c.destroy());
    this.instances = [];
  }

  /** The widget left the page. */
  destroy() {
    clearTimeout(this.backgroundTimer);
    this.pending.clear();
    this.destroyCharts();
    this.players.forEach((p) => p && p.destroy());
    if (this.observer) this.observer.disconnect();
  }
}
