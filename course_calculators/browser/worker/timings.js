// The worker's boot milestones, as epoch milliseconds: the page copies them into
// window.calculatorsRuntime.timings, where the tests and the benchmark read them.

export const timings = {};

export function mark(name) {
  timings[name] = performance.timeOrigin + performance.now();
}
