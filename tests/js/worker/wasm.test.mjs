// worker/wasm.js: withBaseFill hands the instance's memory to the base fill as instantiation left
// it, then grows it to the snapshot's memory before Emscripten (here a stand-in doing what
// Pyodide's restore does: views of the memory, then HEAP8.set of the snapshot's memory) sees it.
// Real WebAssembly.Memory objects, a few pages each; no Pyodide.
import { test } from "node:test";
import assert from "node:assert/strict";

import { WASM_PAGE, growTo, withBaseFill } from "../../../course_calculators/browser/worker/wasm.js";

/** A createPyodideModule stand-in: instantiates through settings.instantiateWasm an "instance" whose
 * memory is `memory`, then, as Pyodide 314's restoreSnapshot does, copies `heap` into the memory
 * without growing it. Resolves to what the restore saw. */
function fakeCreateModule(memory, heap) {
  return (settings) => new Promise((resolve, reject) => {
    settings.instantiateWasm({ env: {} }, (instance) => {
      const HEAP8 = new Int8Array(instance.exports.memory.buffer); // Emscripten's updateMemoryViews
      try {
        HEAP8.set(heap);
        resolve({ length: HEAP8.length, first: HEAP8[0], last: HEAP8[heap.length - 1] });
      } catch (err) {
        reject(err);
      }
    });
  });
}

/** Pyodide's instantiateWasm: instantiates, then calls back with the instance. */
const instantiateWith = (memory) => (imports, success) => {
  Promise.resolve().then(() => success({ exports: { memory } }, {}));
  return {};
};

function heapOf(pages) {
  const heap = new Int8Array(pages * WASM_PAGE);
  heap[0] = 7;
  heap[heap.length - 1] = 9;
  return heap;
}

test("growTo grows a memory to whole pages covering the size, and never shrinks it", () => {
  const memory = new WebAssembly.Memory({ initial: 2, maximum: 8 });
  assert.equal(growTo(memory, WASM_PAGE), true);
  assert.equal(memory.buffer.byteLength, 2 * WASM_PAGE);
  assert.equal(growTo(memory, 3 * WASM_PAGE + 1), true);
  assert.equal(memory.buffer.byteLength, 4 * WASM_PAGE);
  assert.equal(growTo(memory, 0), true);
  assert.equal(memory.buffer.byteLength, 4 * WASM_PAGE);
  assert.equal(growTo(memory, 9 * WASM_PAGE), false); // beyond its maximum: said, not thrown
  assert.equal(memory.buffer.byteLength, 4 * WASM_PAGE);
});

test("without growing, a snapshot's memory larger than the instance's does not restore", async () => {
  // The failure seen in Chromium: a 36 MiB snapshot into the 30 MiB the module starts with.
  const memory = new WebAssembly.Memory({ initial: 2, maximum: 16 });
  const heap = heapOf(3);
  await assert.rejects(
    withBaseFill(fakeCreateModule(memory, heap), () => {})({ instantiateWasm: instantiateWith(memory) }),
    RangeError);
});

test("withBaseFill fills from the memory as instantiated, then grows it to the snapshot's", async () => {
  const memory = new WebAssembly.Memory({ initial: 2, maximum: 16 });
  new Uint8Array(memory.buffer)[5] = 42; // a data segment
  const heap = heapOf(5);
  let seen = null;
  const restored = await withBaseFill(fakeCreateModule(memory, heap), (base) => {
    seen = { length: base.length, byte: base[5] };
  }, heap.length)({ instantiateWasm: instantiateWith(memory) });
  assert.deepEqual(seen, { length: 2 * WASM_PAGE, byte: 42 }); // the base: before growing
  assert.deepEqual(restored, { length: 5 * WASM_PAGE, first: 7, last: 9 });
  assert.equal(memory.buffer.byteLength, 5 * WASM_PAGE);
});

test("withBaseFill leaves a memory that already fits as it is", async () => {
  const memory = new WebAssembly.Memory({ initial: 4, maximum: 16 });
  const heap = heapOf(3);
  const restored = await withBaseFill(fakeCreateModule(memory, heap), () => {}, heap.length)(
    { instantiateWasm: instantiateWith(memory) });
  assert.equal(restored.length, 4 * WASM_PAGE);
});

test("a memory that cannot grow still instantiates: the restore fails, not the module", async () => {
  // Pyodide catches what its instantiateWasm callback throws and then waits for ever; the restore's
  // own error instead lets the worker boot normally.
  const memory = new WebAssembly.Memory({ initial: 2, maximum: 3 });
  const heap = heapOf(4);
  const warn = console.warn;
  const warnings = [];
  console.warn = (...args) => warnings.push(args.join(" "));
  try {
    await assert.rejects(
      withBaseFill(fakeCreateModule(memory, heap), () => {}, heap.length)({ instantiateWasm: instantiateWith(memory) }),
      RangeError);
  } finally {
    console.warn = warn;
  }
  assert.match(warnings.join("\n"), /could not grow to the snapshot's 262144 bytes/);
});
