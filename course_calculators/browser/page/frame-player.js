// The player of a chart's recorded simulation steps: play, pause, step back and forward one step,
// jump to the end, a scrubber and a speed, all by keyboard too. It shows frame i of Python's
// frames (frames.js), nothing more.
//
// Time: each step shows for Python's `frame_ms` (the whole run in the chart's play_seconds at
// 1×) divided by the speed the reader chose (the template's options: ½×, 1×, 2×, 4×).
//
// Motion: a player whose steps have all arrived plays once, from the first step, the first time
// half of it is on screen, unless the reader prefers reduced motion; then it stays on the step
// the chart shows (its first) until the reader steps or presses Play. While it plays its text
// summary is not a live region (a step every few hundred ms would drown a screen reader);
// paused, each step is read.

import { chartConfig, palette } from "./chart-config.js";
import { showFrame } from "./frame-view.js";
import { clampFrame, frameChart, hasAllFrames, stepInterval, timelineChart } from "./frames.js";

/** What the timeline pictures with its marker at step `i`: equal keys, the same picture. */
function timelineKey(chart, i) {
  const t = chart.timeline;
  return JSON.stringify([t.labels, t.series, t.y_label, Number(i)]);
}

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
    // What the timeline's picture shows while no Chart.js object is drawn over it: the build's SVG,
    // drawn for the step the page's own chart shows (set by the first load).
    this.pictured = null;
    const q = (sel) => figure.querySelector(sel);
    this.buttons = { play: q('[data-frame-action="play"]'), back: q('[data-frame-action="back"]'),
      next: q('[data-frame-action="next"]'), end: q('[data-frame-action="end"]') };
    this.speedControl = q("[data-frame-speed]");
    this.scrub = q("[data-frame-scrub]");
    this.label = q("[data-frame-label]");
    this.panels = q("[data-frame-panels]");
    this.stats = q("[data-frame-stats]");
    this.summary = q("[data-chart-summary]");
    this.timelineBox = q("[data-timeline]");
    if (this.buttons.play) this.buttons.play.addEventListener("click", () => (this.timer ? this.pause() : this.play()));
    if (this.buttons.back) this.buttons.back.addEventListener("click", () => { this.pause(); this.show(this.index - 1); });
    if (this.buttons.next) this.buttons.next.addEventListener("click", () => { this.pause(); this.show(this.index + 1); });
    if (this.buttons.end) {
      this.buttons.end.addEventListener("click", () => {
        this.pause();
        this.show(this.count - 1);
        // At the end the button is disabled: keyboard focus moves to the step back, not to the page.
        if (document.activeElement === this.buttons.end && this.buttons.back) this.buttons.back.focus();
      });
    }
    if (this.speedControl) this.speedControl.addEventListener("change", () => this.setSpeed(this.speedControl.value));
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

  /** The speed the reader chose (1 unless the control says otherwise). */
  get speed() {
    const value = this.speedControl ? Number(this.speedControl.value) : 1;
    return value > 0 ? value : 1;
  }

  /** The time each step shows now: Python's frame_ms at the reader's speed. */
  get interval() {
    return stepInterval(this.chart, this.speed);
  }

  /** A new speed (the control's value); a play under way goes on at it. */
  setSpeed(value) {
    if (this.speedControl && String(this.speedControl.value) !== String(value)) this.speedControl.value = String(value);
    if (this.timer) { this.stopTimer(); this.startTimer(); }
  }

  /** Python's chart (with every step, or, from the page's HTML, the one it shows). */
  load(chart) {
    const same = chart === this.chart;
    if (this.pictured === null && chart.timeline) this.pictured = timelineKey(chart, chart.frame);
    this.chart = chart;
    const ready = hasAllFrames(chart);
    Object.values(this.buttons).concat([this.scrub, this.speedControl]).forEach((el) => { if (el) el.disabled = !ready; });
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
    if (this.buttons.end) this.buttons.end.disabled = this.index === this.count - 1;
    this.drawTimeline();
  }

  /** The timeline at the step shown, drawn by Chart.js over the build's picture — unless that
   * picture already shows it: then Chart.js is not even loaded (a page's start, on a page whose
   * player opens on its own step, stays free of it until a step changes). */
  drawTimeline() {
    const canvas = this.timelineBox && this.timelineBox.querySelector("canvas");
    if (!canvas || !this.chart.timeline) return;
    if (!this.timeline && timelineKey(this.chart, this.index) === this.pictured) return;
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
    this.startTimer();
  }

  startTimer() {
    this.timer = setInterval(() => {
      this.show(this.index + 1);
      if (this.index >= this.count - 1) this.pause();
    }, this.interval);
  }

  stopTimer() {
    clearInterval(this.timer);
    this.timer = 0;
  }

  pause() {
    if (!this.timer) return;
    this.stopTimer();
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
    if (this.timeline) {
      this.timeline.destroy();
      this.timeline = null;
      this.pictured = ""; // the destroyed chart's blank canvas stands over the build's picture
    }
    if (this.chart) this.show(this.index);
  }

  destroy() {
    this.pause();
    if (this.timeline) this.timeline.destroy();
    if (this.observer) this.observer.disconnect();
  }
}
