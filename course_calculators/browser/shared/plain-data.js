// What a message may carry: plain objects and flat records. postMessage clones any object, so
// each side checks that what arrived is data of the expected kind before it reads a field.

/** An object made by a literal or JSON (not an array, a class instance, a DOM node). */
export function isPlainObject(value) {
  if (value === null || typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A plain object of strings, numbers, booleans and nulls (inputs, outputs, text). */
export function isFlatRecord(value) {
  return isPlainObject(value) && Object.keys(value).every((k) => {
    const v = value[k];
    return v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean";
  });
}
