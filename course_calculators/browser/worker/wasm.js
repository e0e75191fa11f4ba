// Pyodide's wasm, compiled as it downloads, side by side with the snapshot.
//
// Left to itself, Pyodide starts compiling only once it has the snapshot in hand; the wasm then
// waits, downloaded and idle. Here the worker's early download is compiled at once, and Pyodide's
// own call to WebAssembly.instantiateStreaming (which keeps its imports and its callbacks as they
// are) instantiates that compiled module. `withBaseFill` lets the snapshot take the pages it left
// to the base from the instance's memory before Pyodide restores it, and grows that memory to the
// snapshot's.

/** The size of a WebAssembly memory page. */
export const WASM_PAGE = 65536;

/** Start compiling `response` (a promise of the wasm's Response); the next instantiateStreaming
 * call of this worker uses the result. Returns the compiled module's promise. */
export function compileEarly(response) {
  const compiled = response.then((r) => WebAssembly.compileStreaming(r));
  compiled.catch(() => {});
  const original = WebAssembly.instantiateStreaming;
  WebAssembly.instantiateStreaming = async (source, imports) => {
    WebAssembly.instantiateStreaming = original;
    const module = await compiled;
    return { instance: await WebAssembly.instantiate(module, imports), module };
  };
  return compiled;
}

/** Grow `memory` (a WebAssembly.Memory) to at least `bytes`. False if it cannot (its maximum, or
 * the browser refuses the memory). */
export function growTo(memory, bytes) {
  const missing = Math.ceil((bytes - memory.buffer.byteLength) / WASM_PAGE);
  if (missing <= 0) return true;
  try {
    memory.grow(missing);
    return true;
  } catch {
    return false;
  }
}

/** createPyodideModule with `onMemory(Uint8Array)` called on the instance's memory as
 * instantiation left it, before any of its code runs; then that memory grown to `heapBytes` (the
 * snapshot's memory, snapshot.js's heapLength).
 *
 * Pyodide (314.0.7) restores a snapshot by copying its memory into the module's as it is
 * (`Module.HEAP8.set`, no growing first), and the size it asks for (`INITIAL_MEMORY`) never reaches
 * this module, whose memory is its own, 30 MiB at instantiation: a snapshot whose Python outgrew
 * that while it was made (its memory then grew by a fifth, to 36 MiB; how much Python allocates
 * varies with the build's random hash seed) failed every restore with "offset is out of bounds".
 * The growing happens before Emscripten makes its views of the memory. It never throws (Pyodide
 * would catch it and wait for the module for ever): if it fails, the restore fails as before and
 * the worker boots normally. */
export function withBaseFill(createModule, onMemory, heapBytes = 0) {
  return (settings) => {
    const instantiate = settings.instantiateWasm;
    settings.instantiateWasm = (imports, success) => instantiate(imports, (instance, module) => {
      const memory = instance.exports.memory;
      onMemory(new Uint8Array(memory.buffer));
      if (!growTo(memory, heapBytes)) {
        console.warn(`calculators: the wasm memory could not grow to the snapshot's ${heapBytes} bytes.`);
      }
      success(instance, module);
    });
    return createModule(settings);
  };
}
