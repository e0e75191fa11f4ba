// What a caught value says, in one string: an Error's message, or the value itself (a rejected
// promise may carry anything). Every message the page or the worker builds from a failure uses it.

/** The text of a caught `err`: its message, else the value as a string. */
export function errorText(err) {
  return String(err && err.message ? err.message : err);
}
