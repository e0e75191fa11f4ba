// The slider scale: a log slider's positions are the stops Python listed in data-stops
// (Number.stops), and the position of a value is the one Python's result gives (Number.stop_of);
// a linear slider is the native range input.
import { test } from "node:test";
import assert from "node:assert/strict";

import { sliderPosition, sliderValue, stopsOf } from "../../../course_calculators/browser/page/slider.js";

const logSlider = (stops, value = "0") => ({ dataset: { stops: JSON.stringify(stops) }, value });
const linearSlider = (value) => ({ dataset: {}, value });
const POWERS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072];

test("a log slider's position stands for its stop", () => {
  assert.equal(sliderValue(logSlider(POWERS, "10")), "1024");
  assert.equal(sliderValue(logSlider(POWERS, "0")), "1");
  assert.equal(sliderValue(logSlider([0.1, 0.107, 0.115], "2")), "0.115");
});

test("a value's position on a log slider is Python's; until it says, the slider stays", () => {
  assert.equal(sliderPosition(logSlider(POWERS), 131072, 17), "17");
  assert.equal(sliderPosition(logSlider(POWERS), 1400, 10), "10");
  assert.equal(sliderPosition(logSlider(POWERS), 1400, undefined), null); // the reader is typing
  assert.equal(sliderPosition(logSlider(POWERS), 1400, 1.5), null);
});

test("a linear slider is native: its position is the value", () => {
  assert.equal(stopsOf(linearSlider("3")), null);
  assert.equal(sliderValue(linearSlider("32")), "32");
  assert.equal(sliderPosition(linearSlider("0"), 0.25), "0.25");
});

test("the stops are read once per slider", () => {
  const slider = logSlider([1, 2]);
  const first = stopsOf(slider);
  slider.dataset.stops = "[5, 6]";
  assert.equal(stopsOf(slider), first);
});
