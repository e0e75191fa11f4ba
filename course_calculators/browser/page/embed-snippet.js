// The "Embed this calculator" snippet of a chapter widget: the two lines a host page pastes, an
// element with the inputs that differ from the calculator's defaults and embed.js from this site.
// It is shown as text, so the escaping here is for the page it will be pasted into.

import { EMBED_DIR, EMBED_SCRIPT, NAME, SETTING_DEFAULT } from "../shared/contract.js";

const attr = (s) => String(s).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** `setting`: what differs from the calculator's defaults, in query form (Python's `pin`:
 * `speed=20&world=moon`, or "default"); `siteRoot`: an absolute URL. */
export function embedSnippet(calc, setting, siteRoot) {
  const params = setting === SETTING_DEFAULT ? "" : setting;
  const script = new URL(EMBED_SCRIPT, siteRoot).href;
  return `<div data-calculator-embed="${attr(calc)}"${params ? ` data-params="${attr(params)}"` : ""}></div>\n` +
    `<script src="${attr(script)}" async></script>`;
}

/** The snippet for hosts that strip scripts (Canvas, Moodle, …): one plain iframe of the embed
 * page, `height` CSS px tall (the build's estimate of the embed page at its reference width, the
 * code element's data-height), with the same inputs as embedSnippet's. */
export function iframeSnippet(calc, setting, siteRoot, { height, title }) {
  const url = new URL(`${EMBED_DIR}/${calc}/`, siteRoot);
  new URLSearchParams(setting === SETTING_DEFAULT ? "" : setting).forEach((value, key) => {
    if (NAME.test(key) && key !== "theme") url.searchParams.append(key, value);
  });
  return `<iframe src="${attr(url.href)}" title="${attr(title || `Calculator: ${calc}`)}" loading="lazy" ` +
    `width="100%" height="${attr(height)}" style="border:0"></iframe>`;
}
