// The snapshot's sparse formats (plugin/snapshot.py's pack), with and without a base: a buffer
// packed here is expanded to the image; damaged buffers are refused. The pytest wrapper also hands
// over buffers packed by snapshot.py itself (SNAPSHOT_FIXTURE), so the two sides cannot drift apart.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { MAGIC, MAGIC_DIFF, expandSnapshot, fillFromBase, heapLength, readSnapshot } from "../../../course_calculators/browser/worker/snapshot.js";
import { checkSha256, hex } from "../../../course_calculators/browser/worker/sha256.js";

/** snapshot.py's pack, in JavaScript. */
function pack(image, page = 4096) {
  const count = Math.ceil(image.length / page);
  const bitmap = new Uint8Array(Math.ceil(count / 8));
  const pages = [];
  for (let i = 0; i < count; i++) {
    const chunk = image.subarray(i * page, (i + 1) * page);
    if (chunk.some((b) => b !== 0)) { bitmap[i >> 3] |= 1 << (i & 7); pages.push(chunk); }
  }
  const header = new Uint8Array(16);
  header.set(Array.from(MAGIC, (c) => c.charCodeAt(0)));
  new DataView(header.buffer).setUint32(8, image.length, true);
  new DataView(header.buffer).setUint32(12, page, true);
  const out = new Uint8Array(16 + bitmap.length + pages.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of [header, bitmap, ...pages]) { out.set(part, at); at += part.length; }
  return out;
}

function image(length, marks) {
  const img = new Uint8Array(length);
  for (const [at, value] of marks) img[at] = value;
  return img;
}

test("expanding a packed image gives the image back", () => {
  const cases = [
    image(10 * 4096, [[0, 1], [4096 * 3 + 7, 255], [4096 * 9 + 4095, 9]]), // pages 1, 4 and 10 of 10
    image(3 * 4096 + 100, [[3 * 4096 + 99, 5]]), // the short last page
    image(9 * 4096, [[8 * 4096, 1]]), // a second bitmap byte
    image(5000, []), // all zero: only the header and the bitmap
    new Uint8Array(0),
  ];
  for (const img of cases) {
    const packed = pack(img);
    assert.deepEqual(expandSnapshot(packed), img);
  }
  const img = image(64, [[1, 2], [40, 3]]);
  assert.deepEqual(expandSnapshot(pack(img, 16)), img); // the page size is the header's
  assert.ok(pack(image(10 * 4096, [[0, 1]])).length < 4096 + 100); // sparse
});

test("an expanded image may sit anywhere in its buffer", () => {
  const img = image(8192, [[5000, 7]]);
  const packed = pack(img);
  const wider = new Uint8Array(packed.length + 10);
  wider.set(packed, 5);
  assert.deepEqual(expandSnapshot(wider.subarray(5, 5 + packed.length)), img);
});

test("damaged buffers are refused", () => {
  const packed = pack(image(3 * 4096, [[0, 1], [8192, 2]]));
  assert.throws(() => expandSnapshot(packed.subarray(0, packed.length - 1)), /snapshot: truncated/);
  assert.throws(() => expandSnapshot(packed.subarray(0, 10)), /snapshot: truncated/);
  const bitmapCut = pack(image(100 * 4096, []));
  assert.throws(() => expandSnapshot(bitmapCut.subarray(0, 18)), /snapshot: truncated/);
  const longer = new Uint8Array(packed.length + 1);
  longer.set(packed);
  assert.throws(() => expandSnapshot(longer), /snapshot: trailing bytes/);
  const other = packed.slice();
  other[6] = "2".charCodeAt(0); // PYSNAP2
  assert.throws(() => expandSnapshot(other), /snapshot: unknown format/);
  const noPage = packed.slice();
  new DataView(noPage.buffer).setUint32(12, 0, true);
  assert.throws(() => expandSnapshot(noPage), /snapshot: unknown format/);
  assert.throws(() => expandSnapshot(new TextEncoder().encode("\x1f\x8b gzip, not inflated")), /snapshot: /);
});

test("expands what snapshot.py's pack wrote", { skip: !process.env.SNAPSHOT_FIXTURE && "run through pytest" }, () => {
  const dir = process.env.SNAPSHOT_FIXTURE;
  const expected = new Uint8Array(readFileSync(join(dir, "image.bin")));
  assert.deepEqual(expandSnapshot(new Uint8Array(readFileSync(join(dir, "packed.bin")))), expected);
});

test("a file is checked against its sha256", async () => {
  const bytes = new TextEncoder().encode("abc");
  const sha = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  assert.equal(hex(new Uint8Array([0, 15, 255]).buffer), "000fff");
  await checkSha256(bytes, sha, () => "mismatch");
  await checkSha256(bytes, "", () => "mismatch"); // no checksum given: nothing to check
  await assert.rejects(checkSha256(bytes, "00" + sha.slice(2), (actual) => `got ${actual.slice(0, 4)}`), /got ba78/);
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

test("heapLength is the image less Pyodide's header (its length: the u32 at byte 4)", () => {
  const image = new Uint8Array(128 + 3 * 65536);
  new DataView(image.buffer).setUint32(4, 128, true);
  assert.equal(heapLength(image), 3 * 65536);
  const wider = new Uint8Array(image.length + 16);
  wider.set(image, 16);
  assert.equal(heapLength(wider.subarray(16)), 3 * 65536); // anywhere in its buffer
  assert.throws(() => heapLength(new Uint8Array(6)), /snapshot: truncated/);
});
