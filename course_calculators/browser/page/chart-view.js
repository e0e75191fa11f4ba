// One widget's charts. Summaries and data tables (the charts' text alternatives) always follow
// the latest result. Canvas charts are drawn only while the widget is on (or near) the screen:
// Chart.js is loaded, and a chart redrawn, when a reader can see it, not during the page's
// start-up or for every step of a slider on a widget scrolled out of view.

import { DOM } from "../shared/contract.js";
import { chartConfig, palette } from "./chart-config.js";
import { renderGrid, renderTable } from "./chart-table.js";
import { FramePlayer } from "./frame-player.js";

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
    if (!this.visible) { this.stale = true; return; }
    this.withChart((Chart) => this.drawCanvas(Chart, i, canvas, chart));
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
    // The live chart is drawn: the build's SVG picture of it steps aside (it stays for print).
    const figure = canvas.closest(DOM.chart);
    if (figure) figure.dataset.drawn = "";
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
    this.instances.forEach((c) => c && c.destroy());
    this.instances = [];
  }

  /** The widget left the page. */
  destroy() {
    this.destroyCharts();
    this.players.forEach((p) => p && p.destroy());
    if (this.observer) this.observer.disconnect();
  }
}
