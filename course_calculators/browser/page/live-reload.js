// Under `mkdocs serve` only: what one rebuild means for the open page. The plugin (plugin/live.py)
// gives each served page a meta tag (its key, its digest, the build's state file) and an inline
// script that stands in for MkDocs' live-reload poll: after each rebuild it fires LIVE_EVENT on
// `document`, and reloads the page unless a listener cancels the event. runtime.js cancels it
// and asks this module, which reads the rebuilt site's state file:
// - the page's digest changed (its Markdown, the theme, a calculator's parameters or outputs, an
//   inline figure's number, a broken calculator's banner: what a new result cannot show) → the
//   page reloads, as MkDocs' own script would;
// - only the Python did (a new lock file, the same digest) → the running worker takes the new
//   wheel in place and every widget runs again (page/session.js, reloadPython): no new page, no
//   new boot;
// - neither → nothing to do.
// A production build has neither the meta tag nor the script: none of this runs there.

import { LIVE_META } from "../shared/contract.js";
import { isPlainObject } from "../shared/plain-data.js";
import { metaJson } from "../shared/meta-tag.js";

export const ACTION = Object.freeze({ NONE: "none", PYTHON: "python", PAGE: "page" });

const text = (v) => typeof v === "string";

/** The page's live meta tag: `{ state, page, digest }` (`state` made absolute against the page),
 * or null when the page has none (a production build) or it does not parse. */
export function readLive(doc) {
  const raw = metaJson(doc, LIVE_META);
  if (raw === undefined) return null;
  if (!isPlainObject(raw) || ![raw.state, raw.page, raw.digest].every(text) || !raw.state) {
    console.error("calculators: the live meta tag is not the plugin's", raw);
    return null;
  }
  return Object.freeze({ state: new URL(raw.state, doc.baseURI).href, page: raw.page, digest: raw.digest });
}

/**
 * What a rebuild asks of the page.
 * @param live the page's meta tag, as it loaded (readLive)
 * @param lockSha256 the lock file checksum of the Python the page runs now
 * @param state the rebuilt site's state file (`{ lock, lock_sha256, pages: { key: digest } }`),
 *   or null when it could not be read
 * @param moved the reader left the loaded page by instant navigation: this document's digest is
 *   not the one of the page shown
 */
export function decide(live, lockSha256, state, moved = false) {
  const readable = isPlainObject(state) && isPlainObject(state.pages) && text(state.lock) && text(state.lock_sha256);
  if (!readable || moved || state.pages[live.page] !== live.digest) return ACTION.PAGE;
  return state.lock_sha256 === lockSha256 ? ACTION.NONE : ACTION.PYTHON;
}

export class LiveReload {
  /**
   * @param options.live the page's meta tag (readLive)
   * @param options.runtime the page's runtime manifest (shared/runtime-manifest.js)
   * @param options.session the page session: reloadPython(runtime) → false when it cannot
   * @param options.fetchState (url) => a promise of the state file's JSON, or null
   * @param options.reloadPage () => reload the page, as MkDocs' live reload does
   * @param options.moved () => whether instant navigation left the page that loaded
   */
  constructor({ live, runtime, session, fetchState, reloadPage, moved = () => false }) {
    this.live = live;
    this.runtime = runtime;
    this.session = session;
    this.fetchState = fetchState;
    this.reloadPage = reloadPage;
    this.moved = moved;
    this.pending = Promise.resolve();
  }

  /** A rebuild finished: one after the other, each decided on the state file it finds. Resolves
   * to the action taken; whatever goes wrong reloads the page (never a page left on old numbers). */
  rebuilt() {
    this.pending = this.pending.then(() => this.apply()).catch((err) => {
      console.error("calculators: the rebuild could not be taken in place; reloading the page", err);
      this.reloadPage();
      return ACTION.PAGE;
    });
    return this.pending;
  }

  async apply() {
    let state = null;
    try {
      state = await this.fetchState(this.live.state);
    } catch (err) {
      state = null;
    }
    const action = decide(this.live, this.runtime.lock_sha256, state, this.moved());
    if (action === ACTION.PYTHON) {
      const runtime = Object.freeze({
        ...this.runtime, lock: new URL(state.lock, this.runtime.root).href, lock_sha256: state.lock_sha256,
      });
      if (this.session.reloadPython(runtime)) {
        this.runtime = runtime;
        return action;
      }
    }
    if (action !== ACTION.NONE) {
      this.reloadPage();
      return ACTION.PAGE;
    }
    return action;
  }
}
