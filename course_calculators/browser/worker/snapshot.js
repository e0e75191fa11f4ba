// The Pyodide memory snapshot made at build time (build/snapshot.py): fetched, checked against
// its sha256, inflated (it ships gzip-compressed) and expanded from its sparse form.

import { checkSha256 } from "./sha256.js";
import { mark } from "./timings.js";

/** The sparse format (snapshot.py's `pack`): MAGIC, the image's length and the page size
 * (little-endian u32 each), a bitmap with one bit per page (bit i & 7 of byte i >> 3: page i
 * holds something), then those pages in order, the last one possibly short. */
export const MAGIC = "PYSNAP1\0";
const HEADER = 16;

/** The memory image from its sparse form; every byte of a page the bitmap leaves out is zero. */
export function expandSnapshot(sparse) {
  if (sparse.length < HEADER) throw new Error("snapshot: truncated");
  for (let i = 0; i < MAGIC.length; i++) {
    if (sparse[i] !== MAGIC.charCodeAt(i)) throw new Error("snapshot: unknown format");
  }
  const view = new DataView(sparse.buffer, sparse.byteOffset, sparse.byteLength);
  const total = view.getUint32(8, true);
  const page = view.getUint32(12, true);
  if (page === 0) throw new Error("snapshot: unknown format");
  const count = Math.ceil(total / page);
  const bitmapEnd = HEADER + Math.ceil(count / 8);
  if (bitmapEnd > sparse.length) throw new Error("snapshot: truncated");
  const bitmap = sparse.subarray(HEADER, bitmapEnd);
  const image = new Uint8Array(total);
  let src = bitmapEnd;
  for (let i = 0; i < count; i++) {
    if (!(bitmap[i >> 3] & (1 << (i & 7)))) continue;
    const start = i * page;
    const size = Math.min(page, total - start);
    if (src + size > sparse.length) throw new Error("snapshot: truncated");
    image.set(sparse.subarray(src, src + size), start);
    src += size;
  }
  if (src !== sparse.length) throw new Error("snapshot: trailing bytes");
  return image;
}

/** The image, from `url`. Inflating runs while the bytes arrive, and the checksum of the
 * compressed bytes while the inflating finishes; the image goes to Pyodide once both are done. */
export async function fetchSnapshot(url, sha256) {
  const response = await fetch(url);
  if (!response.ok || !response.body) throw new Error(`snapshot: HTTP ${response.status}`);
  const [forHash, forImage] = response.body.tee();
  const checked = new Response(forHash).arrayBuffer().then((packed) =>
    checkSha256(packed, sha256, (actual) => `snapshot: sha256 mismatch (${actual.slice(0, 12)}…)`));
  const inflated = new Response(forImage.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer()
    .then((sparse) => { mark("snapshotInflated"); return sparse; });
  const [, sparse] = await Promise.all([checked, inflated]);
  mark("snapshotChecked");
  return expandSnapshot(new Uint8Array(sparse));
}
