// The Pyodide memory snapshot made at build time (plugin/snapshot.py): fetched, checked against
// its sha256, inflated (it ships gzip-compressed) and expanded from its sparse form; the pages it
// leaves to the base are filled from the module's own memory once it is instantiated.

import { checkSha256 } from "./sha256.js";
import { mark } from "./timings.js";

/** The sparse formats (snapshot.py's `pack`): MAGIC or MAGIC_DIFF, the image's length and the
 * page size (little-endian u32 each); MAGIC_DIFF adds a u32 prefix length and that many bytes of
 * the image in full. Then a bitmap with one bit per page of the rest (bit i & 7 of byte i >> 3:
 * page i ships), then those pages in order, the last one possibly short. A page that does not
 * ship is zero (MAGIC) or the base's, the memory of the freshly instantiated module (MAGIC_DIFF). */
export const MAGIC = "PYSNAP1\0";
export const MAGIC_DIFF = "PYSNAPD\0";
const HEADER = 16;

function magicOf(sparse) {
  const text = String.fromCharCode(...sparse.subarray(0, 8));
  if (text === MAGIC || text === MAGIC_DIFF) return text;
  throw new Error("snapshot: unknown format");
}

/** The image from its sparse form: `image`, and `fromBase`, the byte offsets (in the image) of the
 * pages to copy from the base, with `offset` (where the base's page 0 goes) and `page`. */
export function readSnapshot(sparse) {
  if (sparse.length < HEADER) throw new Error("snapshot: truncated");
  const magic = magicOf(sparse);
  const view = new DataView(sparse.buffer, sparse.byteOffset, sparse.byteLength);
  const total = view.getUint32(8, true);
  const page = view.getUint32(12, true);
  if (page === 0) throw new Error("snapshot: unknown format");
  let at = HEADER;
  let offset = 0;
  if (magic === MAGIC_DIFF) {
    if (sparse.length < HEADER + 4) throw new Error("snapshot: truncated");
    offset = view.getUint32(HEADER, true);
    at = HEADER + 4 + offset;
    if (offset > total || at > sparse.length) throw new Error("snapshot: truncated");
  }
  const count = Math.ceil((total - offset) / page);
  const bitmapEnd = at + Math.ceil(count / 8);
  if (bitmapEnd > sparse.length) throw new Error("snapshot: truncated");
  const bitmap = sparse.subarray(at, bitmapEnd);
  const image = new Uint8Array(total);
  if (offset) image.set(sparse.subarray(HEADER + 4, HEADER + 4 + offset));
  const fromBase = [];
  let src = bitmapEnd;
  for (let i = 0; i < count; i++) {
    const start = offset + i * page;
    if (!(bitmap[i >> 3] & (1 << (i & 7)))) {
      if (magic === MAGIC_DIFF) fromBase.push(i);
      continue;
    }
    const size = Math.min(page, total - start);
    if (src + size > sparse.length) throw new Error("snapshot: truncated");
    image.set(sparse.subarray(src, src + size), start);
    src += size;
  }
  if (src !== sparse.length) throw new Error("snapshot: trailing bytes");
  return { image, fromBase, offset, page };
}

/** The image alone (every page the base would fill left zero). */
export function expandSnapshot(sparse) {
  return readSnapshot(sparse).image;
}

/** The length of the memory in Pyodide's snapshot `image` (what its restore copies into the
 * module's memory): the image less its header, whose length is the u32 at byte 4. */
export function heapLength(image) {
  if (image.length < 8) throw new Error("snapshot: truncated");
  return image.length - new DataView(image.buffer, image.byteOffset, 8).getUint32(4, true);
}

/** Copy the base's pages into the image: `base` is the instantiated module's memory. */
export function fillFromBase({ image, fromBase, offset, page }, base) {
  for (const i of fromBase) {
    const from = i * page;
    if (from >= base.length) break; // beyond the initial memory: zero, as the image already is
    const size = Math.min(page, base.length - from, image.length - offset - from);
    image.set(base.subarray(from, from + size), offset + from);
  }
}

/** The snapshot, from `url` through `fetchFn` (the watched fetch). Inflating runs while the bytes
 * arrive, and the checksum of the compressed bytes while the inflating finishes. */
export async function fetchSnapshot(url, sha256, fetchFn = fetch) {
  const response = await fetchFn(url);
  if (!response.ok || !response.body) throw new Error(`snapshot: HTTP ${response.status}`);
  const [forHash, forImage] = response.body.tee();
  const checked = new Response(forHash).arrayBuffer().then((packed) =>
    checkSha256(packed, sha256, (actual) => `snapshot: sha256 mismatch (${actual.slice(0, 12)}…)`));
  const inflated = new Response(forImage.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer()
    .then((sparse) => { mark("snapshotInflated"); return sparse; });
  const [, sparse] = await Promise.all([checked, inflated]);
  mark("snapshotChecked");
  return readSnapshot(new Uint8Array(sparse));
}
