// The "Embed this calculator" snippet of a chapter widget: the two lines a host page pastes, an
// element with the inputs that differ from the calculator's defaults and embed.js from this site.
// It is shown as text, so the escaping here is for the page it will be pasted into.

import { EMBED_SCRIPT, SETTING_DEFAULT } from "../shared/contract.js";

const attr = (s) => String(s).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** `setting`: what differs from the calculator's defaults, in query form (Python's `pin`:
 * `context=131072&gpu=h200`, or "default"); `siteRoot`: an absolute URL. */
export function embedSnippet(calc, setting, siteRoot) {
  const params = setting === SETTING_DEFAULT ? "" : setting;
  const script = new URL(EMBED_SCRIPT, siteRoot).href;
  return `<div data-calculator-embed="${attr(calc)}"${params ? ` data-params="${attr(params)}"` : ""}></div>\n` +
    `<script src="${attr(script)}" async></script>`;
}
