// The embed ↔ host protocol: messages between an embed page (embed/<id>/, in an iframe) and the
// page that frames it, usually through embed.js. Every message is a plain object with
// source: "calculators":
//   embed → host  {type: "ready", id, version}                    Python computed the first result
//                 {type: "resize", height}                        the content's height (CSS px), on change
//                 {type: "values", id, inputs, outputs, text}     after each result
//                 {type: "error", id, message}                    the widget failed (values stay)
//   host → embed  {type: "set", inputs: {<param>: string|number}} known parameters only
//                 {type: "get"}                                   answered with "values"
// The functions below say which messages have these shapes. Which window and origin may send
// them is each side's own rule (page/embed-page.js, embed.js).

import { ID } from "./contract.js";
import { isPlainObject, isFlatRecord } from "./plain-data.js";

export const SOURCE = "calculators";

export const EMBED_MSG = Object.freeze({
  READY: "ready", RESIZE: "resize", VALUES: "values", ERROR: "error", SET: "set", GET: "get",
});

/** Characters of one string value in a "set" message. */
export const VALUE_MAX = 64;
/** The tallest height (CSS px) a "resize" may ask for. */
export const HEIGHT_MAX = 100000;
/** Characters of an "error" message a host passes on. */
export const ERROR_MAX = 500;

/** A message of this protocol, ready to post. */
export function embedMessage(type, fields) {
  return Object.assign({ source: SOURCE, type }, fields);
}

/** A host → embed message the embed may act on, or null: a "get", or a "set" whose every key is a
 * parameter (`isParam(name)`) and every value a finite number or a short string. */
export function readHostMessage(msg, isParam) {
  if (!isPlainObject(msg) || msg.source !== SOURCE) return null;
  if (msg.type === EMBED_MSG.GET) return { type: EMBED_MSG.GET };
  if (msg.type !== EMBED_MSG.SET || !isPlainObject(msg.inputs)) return null;
  const names = Object.keys(msg.inputs);
  const ok = names.length > 0 && names.every((name) => {
    const v = msg.inputs[name];
    return isParam(name) &&
      ((typeof v === "number" && Number.isFinite(v)) || (typeof v === "string" && v.length <= VALUE_MAX));
  });
  return ok ? { type: EMBED_MSG.SET, inputs: msg.inputs } : null;
}

const isId = (v) => typeof v === "string" && ID.test(v);

/** An embed → host message as {type, detail} (the detail a host's event carries: copies, cut to
 * size), or null when it has not its documented shape. */
export function readEmbedMessage(msg) {
  if (!isPlainObject(msg) || msg.source !== SOURCE) return null;
  switch (msg.type) {
    case EMBED_MSG.RESIZE: {
      const h = msg.height;
      if (typeof h !== "number" || !Number.isFinite(h) || h < 0 || h > HEIGHT_MAX) return null;
      return { type: msg.type, detail: { height: Math.ceil(h) } };
    }
    case EMBED_MSG.READY:
      if (!isId(msg.id)) return null;
      return { type: msg.type, detail: { id: msg.id, version: typeof msg.version === "string" ? msg.version : "" } };
    case EMBED_MSG.ERROR:
      if (!isId(msg.id) || typeof msg.message !== "string") return null;
      return { type: msg.type, detail: { id: msg.id, message: msg.message.slice(0, ERROR_MAX) } };
    case EMBED_MSG.VALUES:
      if (!isId(msg.id) || !isFlatRecord(msg.inputs) || !isFlatRecord(msg.outputs)) return null;
      return {
        type: msg.type,
        detail: {
          id: msg.id, inputs: Object.assign({}, msg.inputs), outputs: Object.assign({}, msg.outputs),
          text: isFlatRecord(msg.text) ? Object.assign({}, msg.text) : {},
        },
      };
    default:
      return null;
  }
}
