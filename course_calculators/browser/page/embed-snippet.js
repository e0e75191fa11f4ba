// The "Embed this calculator" snippet of a chapter widget: the two lines a host page pastes, an
// element with the inputs that differ from the calculator's defaults and embed.js from this site.
// It is shown as text, so the escaping here is for the page it will be pasted into.

import { EMBED_SCRIPT } from "../shared/contract.js";

const attr = (s) => String(s).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** `changed`: parameter → string, from url-state.js's changedInputs; `siteRoot`: an absolute URL. */
export function embedSnippet(calc, changed, siteRoot) {
  const params = new URLSearchParams(changed).toString();
  const script = new URL(EMBED_SCRIPT, siteRoot).href;
  return `<div data-calculator-embed="${attr(calc)}"${params ? ` data-params="${attr(params)}"` : ""}></div>\n` +
    `<script src="${attr(script)}" async></script>`;
}
