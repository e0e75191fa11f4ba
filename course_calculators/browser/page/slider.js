// The sliders beside number fields. A linear slider is the native range input: its position is
// the value. A log slider's positions are the values Python listed in its data-stops
// (plugin/render.py's log_stops): position i stands for stops[i], and a value typed in the field
// puts the slider at the nearest stop. The scale is defined in Python only; this maps over it.

const parsed = new WeakMap();

/** A log slider's values (its data-stops, parsed once), or null for a linear slider. */
export function stopsOf(slider) {
  if (!slider.dataset.stops) return null;
  if (!parsed.has(slider)) parsed.set(slider, JSON.parse(slider.dataset.stops));
  return parsed.get(slider);
}

/** The index of the stop nearest to `value` on a log scale (the first one for value ≤ 0). */
export function nearestStop(stops, value) {
  if (!(value > 0)) return 0;
  let best = 0;
  stops.forEach((s, i) => {
    if (Math.abs(Math.log(s) - Math.log(value)) < Math.abs(Math.log(stops[best]) - Math.log(value))) best = i;
  });
  return best;
}

/** The value (a string, for the number field) the slider's position stands for. */
export function sliderValue(slider) {
  const stops = stopsOf(slider);
  return stops ? String(stops[Number(slider.value)]) : slider.value;
}

/** The position (a string, for slider.value) that stands for a finite number. */
export function sliderPosition(slider, value) {
  const stops = stopsOf(slider);
  return String(stops ? nearestStop(stops, value) : value);
}
