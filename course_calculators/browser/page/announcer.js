// Screen readers hear a short summary of a widget's main outputs through its polite live region
// ([data-announce]) once the reader's input has settled: no result for SETTLE_MS after the last
// one. Dragging a slider or holding an arrow key thus yields one announcement, not one per step.
// Only results that follow the reader's own input are announced (not the first Python result
// after boot, nor values from the URL). Notes and errors stay in [data-message].

import { DOM } from "../shared/contract.js";

const SETTLE_MS = 750;

export class Announcer {
  constructor(root) {
    this.root = root;
    this.region = root.querySelector(DOM.announce);
    this.armed = false;
    this.timer = 0;
    this.last = "";
    if (!this.region) return;
    const arm = () => { this.armed = true; clearTimeout(this.timer); this.timer = 0; };
    root.addEventListener("input", arm);
    root.addEventListener("change", arm);
    root.addEventListener("click", (e) => {
      if (e.target.closest && e.target.closest(`${DOM.presets}, ${DOM.reset}`)) arm();
    });
  }

  get pending() { return Boolean(this.timer); }

  /** A result is on the screen. */
  rendered() {
    if (!this.region || !this.armed) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.speak(), SETTLE_MS);
  }

  speak() {
    this.timer = 0;
    this.armed = false;
    const text = this.summary();
    if (!text || text === this.last) return;
    this.last = text;
    this.region.textContent = text;
  }

  /** The answer sentence, with "Label: text" of each answer output ("Label: text; …" over the
   * primary outputs, or all of them, for a calculator without an answer). */
  summary() {
    const answer = this.root.querySelector(DOM.answer);
    if (answer) {
      const outs = this.root.querySelectorAll(`${DOM.results} ${DOM.output}`);
      const items = Array.from(outs).map((out) => {
        const dt = out.querySelector("dt");
        const value = out.querySelector("output");
        return (dt ? dt.textContent.trim() + ": " : "") + (value ? value.textContent.trim() : "");
      });
      return `${answer.textContent.trim()} ${items.join("; ")}`.trim();
    }
    let outs = this.root.querySelectorAll(DOM.primaryOutput);
    if (!outs.length) outs = this.root.querySelectorAll(DOM.output);
    return Array.from(outs).map((out) => {
      const dt = out.querySelector("dt");
      const value = out.querySelector("output");
      return (dt ? dt.textContent.trim() + ": " : "") + (value ? value.textContent.trim() : "");
    }).join("; ");
  }
}
