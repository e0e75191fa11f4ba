// The plugin hands a page its data in `<meta name="…" content="JSON">` tags (the runtime
// manifest; under `mkdocs serve`, the live-reload key): one reader for them all.

/** What the page's `<meta name="<name>">` carries, parsed: `undefined` when the page has no such
 * tag, `null` when its content is not JSON. */
export function metaJson(doc, name) {
  const meta = doc.querySelector(`meta[name="${name}"]`);
  if (!meta) return undefined;
  try {
    return JSON.parse(meta.getAttribute("content"));
  } catch (err) {
    return null;
  }
}
