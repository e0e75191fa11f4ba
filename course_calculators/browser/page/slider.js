// The sliders beside number fields. A linear slider is the native range input: its position is
// the value. A log slider's positions are the values Python listed in its data-stops (params.py's
// Number.stops): position i stands for stops[i]. Which position a value takes is Python's too
// (each result's `slider`, Number.stop_of): this only reads what the markup and the result say.

const parsed = new WeakMap();

/** A log slider's values (its data-stops, parsed once), or null for a linear slider. */
export function stopsOf(slider) {
  if (!slider.dataset.stops) return null;
  if (!parsed.has(slider)) parsed.set(slider, JSON.parse(slider.dataset.stops));
  return parsed.get(slider);
}

/** The value (a string, for the number field) the slider's position stands for. */
export function sliderValue(slider) {
  const stops = stopsOf(slider);
  return stops ? String(stops[Number(slider.value)]) : slider.value;
}

/** The position (a string, for slider.value) of a finite number: the number itself on a linear
 * slider; on a log slider Python's `position` for it, or null when Python has not said yet. */
export function sliderPosition(slider, value, position) {
  if (!stopsOf(slider)) return String(value);
  return Number.isInteger(position) ? String(position) : null;
}
