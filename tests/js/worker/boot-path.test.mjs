// Which start the worker makes after measuring its first file: the snapshot on a fast link only.
import { test, mock } from "node:test";
import assert from "node:assert/strict";

import { FAST_BYTES_PER_S, RateMeter, WINDOW_MS, choosePath } from "../../../course_calculators/browser/worker/boot-path.js";

test("the rate is measured over the first window, or the whole file when it ends sooner", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    let now = 0;
    const fast = new RateMeter(() => now);
    fast.onBytes(1e6, false);
    now = 10;
    fast.onBytes(9e6, true); // the whole wasm in 10 ms
    assert.equal(await fast.rate, 1e9);
    now = 0;
    const slow = new RateMeter(() => now);
    slow.onBytes(1e5, false);
    now = 100;
    slow.onBytes(1e5, false);
    now = WINDOW_MS;
    mock.timers.tick(WINDOW_MS); // no chunk at the window's end: the timer settles it
    assert.equal(await slow.rate, 2e5 / (WINDOW_MS / 1000));
  } finally {
    mock.timers.reset();
  }
});

test("the snapshot is taken on a fast link only, and never under Save-Data or without one", async () => {
  const meter = (rate) => ({ rate: Promise.resolve(rate) });
  assert.equal((await choosePath({ hasSnapshot: true, hint: "", meter: meter(FAST_BYTES_PER_S * 4) })).path, "snapshot");
  assert.equal((await choosePath({ hasSnapshot: true, hint: "", meter: meter(FAST_BYTES_PER_S / 2) })).path, "boot");
  assert.equal((await choosePath({ hasSnapshot: true, hint: "slow", meter: meter(1e12) })).path, "boot");
  assert.equal((await choosePath({ hasSnapshot: false, hint: "", meter: meter(1e12) })).path, "boot");
  assert.match((await choosePath({ hasSnapshot: true, hint: "", meter: meter(5e5) })).why, /slow link \(0\.5 MB\/s\)/);
});
