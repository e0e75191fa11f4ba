// Checksums of the files the worker fetches itself (the lock file, the snapshot): the page's
// meta tag names their sha256, so a damaged or substituted file is refused before Python uses it.

export function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Throws `mismatch(actual)` unless `bytes` has this sha256. crypto.subtle exists only in secure
 * contexts (https, localhost); elsewhere the files are same-origin and their URLs carry their
 * version, and nothing is checked. */
export async function checkSha256(bytes, sha256, mismatch) {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!sha256 || !subtle) return;
  const actual = hex(await subtle.digest("SHA-256", bytes));
  if (actual !== sha256) throw new Error(mismatch(actual));
}
