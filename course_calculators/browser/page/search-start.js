// When the reader first focuses mkdocs-material's search box (a click, a tap on the search icon,
// or the theme's keyboard shortcut all focus it), ask the deferred search worker to build its
// index now: Material sends no query before the index is built, so the worker cannot learn of the
// reader's first search from Material's own messages.

import { SEARCH_START, SEARCH_START_CHANNEL } from "../shared/search-start.js";

/** mkdocs-material's search box. */
export const SEARCH_INPUT = "input.md-search__input";

/** Listen on `doc` for the first focus on the search box, then post the start on the channel
 * (`Channel`: BroadcastChannel, injected for tests). Returns a function that stops listening. */
export function startSearchOnFocus(doc, Channel = globalThis.BroadcastChannel) {
  if (typeof Channel !== "function") return () => {};
  let channel = null;
  const onFocus = (event) => {
    if (!event.target || typeof event.target.matches !== "function" || !event.target.matches(SEARCH_INPUT)) return;
    doc.removeEventListener("focusin", onFocus, true);
    channel = new Channel(SEARCH_START_CHANNEL); // kept open: a message posted on a closed channel may be dropped
    channel.postMessage(SEARCH_START);
  };
  doc.addEventListener("focusin", onFocus, true);
  return () => doc.removeEventListener("focusin", onFocus, true);
}
