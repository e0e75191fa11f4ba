// The worker's choices on the network: when Python may start, which path it takes after
// measuring the first file, when the offline copy may be made by itself; and the snapshot's diff
// form (pages left to the module's initial memory), against snapshot.py's own pack.
import { test, mock } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { POLICY, startPolicy } from "../../course_calculators/browser/shared/start-policy.js";
import { FAST_BYTES_PER_S, RateMeter, WINDOW_MS, choosePath, connectionHint } from "../../course_calculators/browser/worker/path.js";
import { MAGIC_DIFF, expandSnapshot, fillFromBase, readSnapshot } from "../../course_calculators/browser/worker/snapshot.js";

globalThis.navigator ??= {};
globalThis.window ??= globalThis;
const { unmetered } = await import("../../course_calculators/browser/page/offline.js");

test("Save-Data or a slow effective type waits for a touch; anything else starts after the first render", () => {
  assert.equal(startPolicy(undefined), POLICY.AFTER_RENDER); // no navigator.connection (Firefox, Safari)
  assert.equal(startPolicy({ effectiveType: "4g", saveData: false }), POLICY.AFTER_RENDER);
  for (const c of [{ saveData: true, effectiveType: "4g" }, { effectiveType: "3g" }, { effectiveType: "2g" }, { effectiveType: "slow-2g" }]) {
    assert.equal(startPolicy(c), POLICY.ON_TOUCH, JSON.stringify(c));
    assert.equal(connectionHint(c), "slow");
  }
  assert.equal(connectionHint({ effectiveType: "4g" }), "");
});

test("the offline copy is made by itself only on a fast connection that is not metered", () => {
  assert.equal(unmetered(undefined), false); // nothing known: ask
  assert.equal(unmetered({ effectiveType: "4g", saveData: false }), true); // a desktop browser tells no type
  assert.equal(unmetered({ effectiveType: "4g", type: "wifi" }), true);
  assert.equal(unmetered({ effectiveType: "4g", type: "ethernet" }), true);
  assert.equal(unmetered({ effectiveType: "4g", type: "cellular" }), false);
  assert.equal(unmetered({ effectiveType: "4g", saveData: true, type: "wifi" }), false);
  assert.equal(unmetered({ effectiveType: "3g", type: "wifi" }), false);
});

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

/** snapshot.py's pack with a base, in JavaScript. */
function packDiff(image, base, offset, page = 4096) {
  const body = image.subarray(offset);
  const count = Math.ceil(body.length / page);
  const bitmap = new Uint8Array(Math.ceil(count / 8));
  const pages = [];
  for (let i = 0; i < count; i++) {
    const chunk = body.subarray(i * page, (i + 1) * page);
    const same = chunk.every((b, j) => b === (base[i * page + j] || 0));
    if (!same) { bitmap[i >> 3] |= 1 << (i & 7); pages.push(chunk); }
  }
  const head = new Uint8Array(20);
  head.set(Array.from(MAGIC_DIFF, (c) => c.charCodeAt(0)));
  const view = new DataView(head.buffer);
  view.setUint32(8, image.length, true);
  view.setUint32(12, page, true);
  view.setUint32(16, offset, true);
  const parts = [head, image.subarray(0, offset), bitmap, ...pages];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) { out.set(part, at); at += part.length; }
  return out;
}

test("the diff form leaves the base's pages out and takes them back from the base", () => {
  const page = 16;
  const image = new Uint8Array(8 + page * 6 + 5).map((_, i) => (i * 7) % 251);
  const base = image.slice(8, 8 + page * 4); // the memory as instantiated: shorter than the image
  base[page + 3] ^= 0xff; // page 1 differs from it
  image.fill(0, 8 + page * 4, 8 + page * 5); // page 4, beyond the base, is zero
  const packed = packDiff(image, base, 8, page);
  const snap = readSnapshot(packed);
  assert.deepEqual(snap.fromBase, [0, 2, 3, 4]);
  assert.notDeepEqual(snap.image, image); // until the base fills it
  fillFromBase(snap, base);
  assert.deepEqual(snap.image, image);
  assert.deepEqual(expandSnapshot(packed).subarray(0, 8), image.subarray(0, 8)); // the prefix ships whole
  assert.throws(() => readSnapshot(packed.subarray(0, 22)), /snapshot: truncated/);
});

test("reads what snapshot.py's pack wrote with a base", { skip: !process.env.SNAPSHOT_FIXTURE && "run through pytest" }, () => {
  const dir = process.env.SNAPSHOT_FIXTURE;
  const expected = new Uint8Array(readFileSync(join(dir, "image.bin")));
  const snap = readSnapshot(new Uint8Array(readFileSync(join(dir, "packed-diff.bin"))));
  fillFromBase(snap, new Uint8Array(readFileSync(join(dir, "base.bin"))));
  assert.deepEqual(snap.image, expected);
});
