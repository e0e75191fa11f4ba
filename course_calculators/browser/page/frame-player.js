// The player of a chart's recorded simulation steps: play, pause, step back and forward, and a
// scrubber, all by keyboard too. It shows frame i of Python's frames (frames.js), nothing more.
//
// Motion: a player whose steps have all arrived plays once, from the first step, the first time
// half of it is on screen, unless the reader prefers reduced motion; then it stays on the step
// the chart shows until the reader steps or presses Play. While it plays its text summary is not
// a live region (a step every FRAME_MS would drown a screen reader); paused, each step is read.

import { chartConfig, palette } from "./chart-config.js";
import { showFrame } from "./frame-view.js";
import { clampFrame, frameChart, hasAllFrames, timelineChart } from "./frames.js";

const FRAME_MS = 700;

function reducedMotion() {
  return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

export class FramePlayer {
  /** `draw(chart)`: draw the chart's main picture as it stands at a step (chart-view.js);
   * `withChart`: chart-loader.js, for the timeline. */
  constructor(figure, root, { draw, withChart }) {
    this.figure = figure;
    this.root = root;
    this.draw = draw;
    this.withChart = withChart;
    this.chart = null;
    this.index = 0;
    this.timer = 0;
    this.autoplayed = false;
    this.onScreen = false;
    this.timeline = null; // its Chart.js object
    const q = (sel) => figure.querySelector(sel);
    this.buttons = { play: q('[data-frame-action="play"]'), back: q('[data-frame-action="back"]'),
      next: q('[data-frame-action="next"]') };
    this.scrub = q("[data-frame-scrub]");
    this.label = q("[data-frame-label]");
    this.panels = q("[data-frame-panels]");
    this.stats = q("[data-frame-stats]");
    this.summary = q("[data-chart-summary]");
    this.timelineBox = q("[data-timeline]");
    if (this.buttons.play) this.buttons.play.addEventListener("click", () => (this.timer ? this.pause() : this.play()));
    if (this.buttons.back) this.buttons.back.addEventListener("click", () => { this.pause(); this.show(this.index - 1); });
    if (this.buttons.next) this.buttons.next.addEventListener("click", () => { this.pause(); this.show(this.index + 1); });
    if (this.scrub) this.scrub.addEventListener("input", () => { this.pause(); this.show(Number(this.scrub.value)); });
    if (this.summary) this.summary.setAttribute("aria-live", "polite");
    if ("IntersectionObserver" in window) {
      this.observer = new IntersectionObserver((entries) => {
        this.onScreen = entries[entries.length - 1].isIntersecting;
        if (this.onScreen) this.autoplay();
      }, { threshold: 0.5 });
      this.observer.observe(figure);
    }
  }

  get count() {
    return this.chart ? this.chart.frames.length : 0;
  }

  /** Python's chart (with every step, or, from the page's HTML, the one it shows). */
  load(chart) {
    const same = chart === this.chart;
    this.chart = chart;
    const ready = hasAllFrames(chart);
    Object.values(this.buttons).concat([this.scrub]).forEach((el) => { if (el) el.disabled = !ready; });
    if (!ready) { this.draw(frameChart(chart, 0)); return; }
    if (this.scrub) this.scrub.max = String(this.count - 1);
    if (!same) { this.pause(); this.index = clampFrame(chart.frame, this.count); }
    this.show(this.index);
    if (this.onScreen) this.autoplay();
  }

  /** Show frame `i` (brought into range). */
  show(i) {
    if (!hasAllFrames(this.chart)) return;
    this.index = clampFrame(i, this.count);
    const frame = this.chart.frames[this.index];
    this.draw(frameChart(this.chart, this.index));
    showFrame(frame, this.panels, this.stats);
    if (this.label) this.label.textContent = frame.label;
    if (this.scrub) {
      this.scrub.value = String(this.index);
      this.scrub.setAttribute("aria-valuetext", frame.label);
    }
    if (this.buttons.back) this.buttons.back.disabled = this.index === 0;
    if (this.buttons.next) this.buttons.next.disabled = this.index === this.count - 1;
    this.drawTimeline();
  }

  drawTimeline() {
    const canvas = this.timelineBox && this.timelineBox.querySelector("canvas");
    if (!canvas || !this.chart.timeline) return;
    this.withChart((Chart) => {
      if (!canvas.isConnected) return;
      const config = chartConfig(timelineChart(this.chart, this.index), palette(this.root));
      if (this.timeline && this.timeline.canvas === canvas) {
        this.timeline.data = config.data;
        this.timeline.options = config.options;
        this.timeline.update("none");
      } else {
        if (this.timeline) this.timeline.destroy();
        this.timeline = new Chart(canvas, config);
      }
      this.timelineBox.dataset.drawn = "";
    });
  }

  play() {
    if (!hasAllFrames(this.chart) || this.timer) return;
    if (this.index >= this.count - 1) this.show(0);
    this.figure.dataset.playing = "";
    if (this.summary) this.summary.setAttribute("aria-live", "off");
    if (this.buttons.play) { this.buttons.play.setAttribute("aria-pressed", "true"); this.buttons.play.textContent = "Pause"; }
    this.timer = setInterval(() => {
      if (this.index >= this.count - 1) this.pause();
      else this.show(this.index + 1);
    }, FRAME_MS);
  }

  pause() {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = 0;
    delete this.figure.dataset.playing;
    if (this.summary) this.summary.setAttribute("aria-live", "polite");
    if (this.buttons.play) { this.buttons.play.setAttribute("aria-pressed", "false"); this.buttons.play.textContent = "Play"; }
  }

  /** The first time the player is on screen with all its steps: play once, motion allowing. */
  autoplay() {
    if (this.autoplayed || !hasAllFrames(this.chart) || reducedMotion()) return;
    this.autoplayed = true;
    this.show(0);
    this.play();
  }

  /** The palette changed: the timeline is drawn anew. */
  redraw() {
    if (this.timeline) { this.timeline.destroy(); this.timeline = null; }
    if (this.chart) this.show(this.index);
  }

  destroy() {
    this.pause();
    if (this.timeline) this.timeline.destroy();
    if (this.observer) this.observer.disconnect();
  }
}
