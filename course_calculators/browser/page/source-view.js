// "Show the Python": the calculator module's highlighted source is a file of this site (made at
// build time, most of a page's markup if inlined), loaded the first time the reader opens it.
// Until then, and if loading fails, the details hold a link to it.

import { DOM } from "../shared/contract.js";

export function bindSource(root) {
  const details = root.querySelector(DOM.source);
  if (!details) return;
  const load = async () => {
    if (!details.open || details.dataset.loaded) return;
    details.dataset.loaded = "1";
    try {
      const url = new URL(details.dataset.source, document.baseURI);
      if (url.origin !== location.origin) throw new Error("not this site's file");
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const doc = new DOMParser().parseFromString(await response.text(), "text/html");
      const code = doc.querySelector(".highlight");
      if (!code) return;
      const copy = document.importNode(code, true);
      // As mkdocs-material does for the code blocks it finds at load: a scrolling block must be
      // reachable by keyboard.
      copy.querySelectorAll("pre > code").forEach((el) => el.setAttribute("tabindex", "0"));
      details.querySelector(DOM.sourceCode).replaceChildren(copy);
    } catch (err) {
      delete details.dataset.loaded; // the link stays; opening again retries
    }
  };
  details.addEventListener("toggle", load);
  load();
}
