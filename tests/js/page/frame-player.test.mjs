// The player of a simulation's recorded steps: it shows frame i of Python's frames and nothing
// else; steps by button, scrubber and timer, at Python's frame_ms ÷ the reader's speed; jumps to
// the end; opens on the chart's first step; plays once when first on screen unless the reader
// prefers reduced motion; its summary is a live region only while paused.
import { test, mock, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";

import { FakeElement, fakeDocument } from "../fake-dom.mjs";

const observers = [];
globalThis.window = globalThis;
globalThis.IntersectionObserver = class {
  constructor(callback) { this.callback = callback; observers.push(this); }
  observe() {}
  disconnect() {}
  /** The figure comes on (or leaves) the screen. */
  show(visible) { this.callback([{ isIntersecting: visible }]); }
};
let reduced = false;
globalThis.matchMedia = (query) => ({ matches: reduced && query.includes("reduce") });
fakeDocument();
const { FramePlayer } = await import("../../../course_calculators/browser/page/frame-player.js");

const FRAME_MS = 700; // Python's frame_ms of these charts (charts.py: the run in play_seconds)

function chart(count = 4, { frame = 1, total = count, frameMs = FRAME_MS } = {}) {
  const frames = Array.from({ length: count }, (_, i) => ({
    label: `Step ${i * 10}`, summary: `${i} blocks used`, series: [{ name: "used", values: [i] }], marker: i,
    stats: [["Blocks", String(i)]],
  }));
  return { kind: "grid", title: "Blocks", series: frames[frame].series, summary: frames[frame].summary, frames, frame,
    frames_total: total, frame_ms: frameMs };
}

function player({ withChart = () => {}, timeline = null } = {}) {
  const el = (tag, attrs = {}) => new FakeElement(tag, { attrs });
  const parts = {
    play: el("button"), back: el("button"), next: el("button"), end: el("button"), scrub: el("input"),
    speed: el("select", { value: "1" }), label: el("span"), stats: el("dl"), summary: el("p"),
  };
  const figure = new FakeElement("figure").answer({
    '[data-frame-action="play"]': [parts.play], '[data-frame-action="back"]': [parts.back],
    '[data-frame-action="next"]': [parts.next], '[data-frame-action="end"]': [parts.end],
    "[data-frame-speed]": [parts.speed], "[data-frame-scrub]": [parts.scrub], "[data-frame-label]": [parts.label],
    "[data-frame-stats]": [parts.stats], "[data-chart-summary]": [parts.summary],
    "[data-timeline]": timeline ? [timeline] : [],
  });
  const drawn = [];
  const p = new FramePlayer(figure, new FakeElement("div"), { draw: (c) => drawn.push(c), withChart });
  return { p, parts, drawn, figure, observer: observers.at(-1) };
}

beforeEach(() => { mock.timers.enable({ apis: ["setInterval"] }); reduced = false; });
afterEach(() => mock.timers.reset());

test("the page's one step: drawn, the controls off until every step has arrived", () => {
  const { p, parts, drawn } = player();
  p.load(chart(1, { frame: 0, total: 40 })); // the HTML carries the step it shows of 40
  assert.equal(drawn.length, 1);
  assert.equal(drawn[0].summary, "0 blocks used");
  assert.ok(parts.play.disabled && parts.next.disabled && parts.scrub.disabled && parts.end.disabled && parts.speed.disabled);
});

test("every step: the chart's own step is shown, with its label, figures and scrubber", () => {
  const { p, parts, drawn } = player();
  p.load(chart(4, { frame: 2 }));
  assert.equal(p.index, 2);
  assert.equal(parts.label.textContent, "Step 20");
  assert.equal(parts.scrub.max, "3");
  assert.equal(parts.scrub.value, "2");
  assert.equal(parts.scrub.getAttribute("aria-valuetext"), "Step 20");
  assert.deepEqual(drawn.at(-1).series, [{ name: "used", values: [2] }]);
  assert.equal(drawn.at(-1).marker, 2);
  const [row] = parts.stats.children;
  assert.deepEqual(row.children.map((c) => c.textContent), ["Blocks", "2"]);
  assert.ok(!parts.play.disabled && !parts.back.disabled && !parts.next.disabled);
});

test("back and next step one frame, and stop at the ends", () => {
  const { p, parts } = player();
  p.load(chart(3, { frame: 0 }));
  assert.ok(parts.back.disabled);
  parts.next.dispatch("click");
  parts.next.dispatch("click");
  assert.equal(p.index, 2);
  assert.ok(parts.next.disabled);
  parts.next.dispatch("click");
  assert.equal(p.index, 2);
  parts.back.dispatch("click");
  assert.equal(p.index, 1);
  parts.scrub.value = "0";
  parts.scrub.dispatch("input");
  assert.equal(p.index, 0);
});

test("play steps every frame until the last, then pauses; the summary is live only while paused", () => {
  const { p, parts, figure } = player();
  p.load(chart(3, { frame: 2 }));
  assert.equal(parts.summary.getAttribute("aria-live"), "polite");
  parts.play.dispatch("click"); // at the last step: plays from the first
  assert.equal(p.index, 0);
  assert.equal(parts.play.textContent, "Pause");
  assert.equal(parts.summary.getAttribute("aria-live"), "off");
  assert.ok("playing" in figure.dataset);
  mock.timers.tick(FRAME_MS);
  assert.equal(p.index, 1);
  mock.timers.tick(FRAME_MS * 2);
  assert.equal(p.index, 2);
  assert.equal(parts.play.textContent, "Play");
  assert.equal(parts.play.getAttribute("aria-pressed"), "false");
  assert.equal(parts.summary.getAttribute("aria-live"), "polite");
  assert.ok(!("playing" in figure.dataset));
});

test("a step by hand pauses the play", () => {
  const { p, parts } = player();
  p.load(chart(5, { frame: 0 }));
  parts.play.dispatch("click");
  mock.timers.tick(FRAME_MS);
  parts.next.dispatch("click");
  assert.equal(p.index, 2);
  mock.timers.tick(FRAME_MS * 5);
  assert.equal(p.index, 2);
});

test("on screen for the first time it plays once, from the first step", () => {
  const { p, observer } = player();
  p.load(chart(3, { frame: 2 }));
  observer.show(true);
  assert.equal(p.index, 0);
  mock.timers.tick(FRAME_MS * 3);
  assert.equal(p.index, 2);
  observer.show(false);
  observer.show(true); // once only
  assert.equal(p.index, 2);
});

test("under reduced motion it stays on the chart's step until the reader moves", () => {
  reduced = true;
  const { p, observer } = player();
  p.load(chart(3, { frame: 1 }));
  observer.show(true);
  mock.timers.tick(FRAME_MS * 3);
  assert.equal(p.index, 1);
});

test("new data for the same simulation keeps the step shown; a new simulation starts at its own", () => {
  const { p } = player();
  const first = chart(4, { frame: 1 });
  p.load(first);
  p.show(3);
  p.load(first); // the same chart object again (a redraw)
  assert.equal(p.index, 3);
  p.load(chart(4, { frame: 0 }));
  assert.equal(p.index, 0);
});

test("it opens on the chart's own step: the first, as the build drew it", () => {
  const { p, parts, drawn } = player();
  p.load(chart(6, { frame: 0 }));
  assert.equal(p.index, 0);
  assert.equal(parts.label.textContent, "Step 0");
  assert.equal(drawn.at(-1).summary, "0 blocks used");
  assert.ok(parts.back.disabled && !parts.next.disabled && !parts.end.disabled && !parts.speed.disabled);
});

test("jump to end shows the last step and pauses a play", () => {
  const { p, parts } = player();
  p.load(chart(6, { frame: 0 }));
  parts.play.dispatch("click");
  mock.timers.tick(FRAME_MS);
  parts.end.dispatch("click");
  assert.equal(p.index, 5);
  assert.equal(parts.play.textContent, "Play");
  assert.ok(parts.end.disabled && parts.next.disabled && !parts.back.disabled);
  mock.timers.tick(FRAME_MS * 3);
  assert.equal(p.index, 5);
  parts.back.dispatch("click"); // one frame back from the end
  assert.equal(p.index, 4);
});

test("each step shows for Python's frame_ms at 1×, half as long at 2×, twice at ½×", () => {
  const { p, parts } = player();
  p.load(chart(40, { frame: 0, frameMs: 250 }));
  assert.equal(p.interval, 250);
  parts.play.dispatch("click");
  mock.timers.tick(250 * 4);
  assert.equal(p.index, 4);
  parts.speed.value = "2";
  parts.speed.dispatch("change"); // while playing: goes on at the new speed
  assert.equal(p.interval, 125);
  mock.timers.tick(125 * 4);
  assert.equal(p.index, 8);
  parts.speed.value = "0.5";
  parts.speed.dispatch("change");
  mock.timers.tick(499);
  assert.equal(p.index, 8);
  mock.timers.tick(1);
  assert.equal(p.index, 9);
  parts.speed.value = "4";
  parts.speed.dispatch("change");
  mock.timers.tick(62.5 * 10);
  assert.equal(p.index, 19);
});

test("the whole run at the default speed lasts (frames − 1) × frame_ms, then it stops on the last step", () => {
  const { p, parts, figure } = player();
  const run = chart(113, { frame: 0, frameMs: 268 }); // paged-attention's default run, as Python records it
  p.load(run);
  parts.play.dispatch("click");
  mock.timers.tick(268 * 111);
  assert.equal(p.index, 111);
  assert.ok("playing" in figure.dataset);
  mock.timers.tick(268);
  assert.equal(p.index, 112);
  assert.ok(!("playing" in figure.dataset));
  assert.equal(parts.play.textContent, "Play");
  mock.timers.tick(268 * 10);
  assert.equal(p.index, 112);
});

test("the timeline is left to the build's picture while it shows the chart's own step: Chart.js is not loaded", () => {
  const loads = [];
  const canvas = new FakeElement("canvas");
  const timeline = new FakeElement("div").answer({ canvas: [canvas] });
  const { p, parts } = player({ withChart: (fn) => loads.push(fn), timeline });
  const run = Object.assign(chart(4, { frame: 2 }), {
    timeline: { title: "Blocks used", y_label: "Blocks", labels: ["0", "10", "20", "30"],
      series: [{ name: "used", values: [0, 1, 2, 3] }] },
  });
  reduced = true; // no autoplay: the player stays on the step the build drew
  p.load(run);
  p.load(run); // Python's first result: the same simulation
  assert.equal(loads.length, 0);
  parts.next.dispatch("click"); // another step: the build's picture no longer shows it
  assert.equal(loads.length, 1);
});
