// A widget's buttons: its presets, Reset, Copy link and Copy snippet. Each moves values into
// the form (or a link out of it) and asks the widget for a run; none computes anything.

import { DOM } from "../shared/contract.js";
import { copyText } from "./copy-button.js";

/** A preset's inputs (its data-values: every input it gives, as Python made them from the
 * calculator's defaults and the preset) replace the form's. */
export function applyPreset(w, btn) {
  let values = {};
  try { values = JSON.parse(btn.dataset.values || "{}"); } catch (err) { values = {}; }
  w.form.setValues(values);
  w.root.querySelectorAll(DOM.presets).forEach((b) => b.setAttribute("aria-pressed", String(b === btn)));
  w.showNotice(btn.dataset.notice || "");
  w.finalize = true;
  w.request();
}

/** Bind the buttons of widget `w` (page/widget.js). */
export function bindButtons(w) {
  const root = w.root;
  root.querySelectorAll(DOM.presets).forEach((btn) => {
    btn.addEventListener("click", () => applyPreset(w, btn));
    // On a narrow widget the presets are one row that scrolls sideways: keyboard focus scrolls a
    // button only until part of it shows, so bring the whole button into the row's view.
    btn.addEventListener("focus", () => btn.scrollIntoView({ block: "nearest", inline: "nearest" }));
  });
  const reset = root.querySelector(DOM.reset);
  if (reset) {
    reset.addEventListener("click", () => {
      w.form.setValues(w.initial);
      w.showNotice("");
      if (w.session.resetScenario && !w.embed) w.session.resetScenario(w);
      w.request();
    });
  }
  const copy = root.querySelector(DOM.copyLink);
  if (copy) copy.addEventListener("click", () => copyText(copy, w.linkFor().href, "Link copied"));
  if (!w.snippet) return;
  w.showSnippet(w.snippet.dataset.setting || ""); // the build's pin of the fence's inputs
  const button = root.querySelector(DOM.copySnippet);
  if (button) button.addEventListener("click", () => copyText(button, w.snippet.textContent, "Snippet copied"));
  const iframe = root.querySelector(DOM.copyIframe);
  if (iframe && w.iframeSnippet) iframe.addEventListener("click", () => copyText(iframe, w.iframeSnippet.textContent, "Snippet copied"));
}
