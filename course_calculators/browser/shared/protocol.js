// The page ↔ worker protocol: the message names, the widget states, and the shape of every
// message. The page (page/worker-client.js) sends `init` and `run` (and, under `mkdocs serve`
// only, `reload`) and reads the replies; the worker (worker/message-handler.js) reads them. Each side checks what it receives
// against SHAPES and drops what does not fit, with a console warning: a sender and a receiver
// that disagree about a shape show as that warning (and in tests/js/shared/protocol.test.mjs),
// not as a field read as undefined.

import { ID } from "./contract.js";
import { isPlainObject } from "./plain-data.js";

export const MSG = Object.freeze({
  INIT: "init", RUN: "run", PROGRESS: "progress", READY: "ready", RESULT: "result", ERROR: "error",
  RELOAD: "reload", RELOADED: "reloaded",
});

/** A widget's data-state: static (the build's numbers) → loading → ready, or error. */
export const STATE = Object.freeze({ STATIC: "static", LOADING: "loading", READY: "ready", ERROR: "error" });

/** How the worker's Python started: from the build's memory snapshot, or by a normal boot. */
export const BOOT_MODE = Object.freeze({ SNAPSHOT: "snapshot", BOOT: "boot" });

const record = (check) => (v) => isPlainObject(v) && Object.values(v).every(check);
const text = (v) => typeof v === "string";
const number = (v) => typeof v === "number" && Number.isFinite(v);

/** What each field kind accepts. */
const KINDS = {
  text,
  url: (v) => text(v) && v !== "",
  id: (v) => text(v) && ID.test(v),
  seq: (v) => Number.isSafeInteger(v) && v > 0,
  number,
  mode: (v) => Object.values(BOOT_MODE).includes(v),
  strings: record(text), // a run's inputs: raw strings, as a field or a link holds them
  numbers: record(number), // boot milestones, epoch milliseconds
  result: (v) => isPlainObject(v) && [v.inputs, v.raw, v.text].every(isPlainObject) &&
    Array.isArray(v.notes) && Array.isArray(v.charts), // course_calculators.run_json's answer
};

/** Every message's fields (besides `type`): field → kind; a kind ending in "?" may be absent. */
export const SHAPES = Object.freeze({
  toWorker: {
    // Boot Python and import the calculators. Every field but `hint` is the runtime manifest's
    // own, under its name (plugin/manifest.py; runtime-manifest.js's initMessage copies them):
    // pyodide, the folder of Pyodide's files; lock, the site's lock file, and its sha256; the
    // snapshot and its sha256 ("" when there is none); stdlib, the standard-library zip beside the
    // snapshot; boot_stdlib, a normal boot's ("": Pyodide's whole one). hint: "slow" when the
    // page's connection asks to spare it (Save-Data, a slow effective type), which the worker's
    // own navigator may not say.
    [MSG.INIT]: {
      pyodide: "url", lock: "url", lock_sha256: "text?", snapshot: "text?", snapshot_sha256: "text?",
      stdlib: "text?", boot_stdlib: "text?", hint: "text?",
    },
    // Compute one widget: `widget` is its element id, `seq` its run number. `inputs` apply in
    // their order (a field set last wins over what its model fills); two are reserved: `base`,
    // the widget's data-setting (the fence's setting the inputs apply over), and `pin`.
    [MSG.RUN]: { widget: "text", calc: "id", seq: "seq", inputs: "strings" },
    // Under `mkdocs serve` only (page/live-reload.js): the calculators' Python changed and nothing
    // else of the page did. The worker keeps its interpreter, installs the wheel of this new lock
    // file (its sha256 checked, as at boot) and imports the calculators afresh.
    [MSG.RELOAD]: { lock: "url", lock_sha256: "text?" },
  },
  fromWorker: {
    [MSG.PROGRESS]: { stage: "text" }, // boot progress, for the widgets' status line
    // why: what chose the mode (the measured link, the reader's Save-Data, no snapshot).
    [MSG.READY]: { bootMs: "number", python: "text", mode: "mode", timings: "numbers", why: "text?" },
    // course_calculators.run's answer: inputs, inputs_text, raw, text, notes, charts, and `pin` (the
    // canonical setting the Pin button pins) and `changed` (the inputs that differ from `base`,
    // what the address carries); `compare` with a pin.
    [MSG.RESULT]: { widget: "text", seq: "seq", result: "result" },
    // One widget's failure (its message names the author's file and line; `trace`: Python's
    // traceback, for the console), or the boot's.
    [MSG.ERROR]: { message: "text", widget: "text?", seq: "seq?", trace: "text?" },
    // The new wheel is imported (`ms`: the reload's time, in the worker); the page runs every
    // widget again. A reload that failed answers `error` instead (no widget: as a boot's).
    [MSG.RELOADED]: { ms: "number" },
  },
});

function fits(msg, shapes) {
  if (!isPlainObject(msg) || !Object.prototype.hasOwnProperty.call(shapes, msg.type)) return false;
  const shape = shapes[msg.type];
  const known = Object.keys(msg).every((key) => key === "type" || Object.prototype.hasOwnProperty.call(shape, key));
  return known && Object.entries(shape).every(([field, kind]) => {
    const optional = kind.endsWith("?");
    if (optional && msg[field] === undefined) return true;
    return KINDS[optional ? kind.slice(0, -1) : kind](msg[field]);
  });
}

/** Whether a message to the worker (`init`, `run`, `reload`) has its documented shape. */
export function isToWorker(msg) {
  return fits(msg, SHAPES.toWorker);
}

/** Whether a message from the worker (`progress`, `ready`, `result`, `error`, `reloaded`) has its documented shape. */
export function isFromWorker(msg) {
  return fits(msg, SHAPES.fromWorker);
}
