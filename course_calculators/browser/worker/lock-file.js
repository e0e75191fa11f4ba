// The site's lock file (it lists the calculators' wheel alone, with the wheel's sha256): fetched and
// checked against the sha256 the page gives, and read for the wheel's URL, so that the worker can
// start the wheel's download before Pyodide's loadPackage asks for it.

import { checkSha256 } from "./sha256.js";

/** The lock file's text, checked against its sha256 (it holds the wheel's sha256 in turn). */
export async function fetchLock(downloads, url, sha256) {
  const response = await downloads.fetch(url);
  const text = await response.text();
  await checkSha256(new TextEncoder().encode(text), sha256, () => "the lock file does not match this page's version");
  return text;
}

/** The package the lock file lists: the calculators' wheel. */
export const WHEEL = "course-calculators";

/** A sha256 in hex as a Subresource Integrity value (what Pyodide passes to its own fetch). */
export function sriOfHex(hex) {
  const bytes = hex.match(/../g).map((h) => parseInt(h, 16));
  return `sha256-${btoa(String.fromCharCode(...bytes))}`;
}

/** The wheel's URL and integrity from the lock file's text, as Pyodide's loadPackage asks for it. */
export function wheelOf(lockText, packageBaseUrl) {
  const entry = JSON.parse(lockText).packages[WHEEL];
  return entry ? { url: new URL(entry.file_name, packageBaseUrl).href, integrity: sriOfHex(entry.sha256) } : null;
}

