// Pyodide's wasm, compiled as it downloads, side by side with the snapshot.
//
// Left to itself, Pyodide starts compiling only once it has the snapshot in hand; the wasm then
// waits, downloaded and idle. Here the worker's early download is compiled at once, and Pyodide's
// own call to WebAssembly.instantiateStreaming (which keeps its imports and its callbacks as they
// are) instantiates that compiled module. `withBaseFill` lets the snapshot take the pages it left
// to the base from the instance's memory before Pyodide restores it.

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

/** createPyodideModule with `onMemory(Uint8Array)` called on the instance's memory as
 * instantiation left it, before any of its code runs. */
export function withBaseFill(createModule, onMemory) {
  return (settings) => {
    const instantiate = settings.instantiateWasm;
    settings.instantiateWasm = (imports, success) => instantiate(imports, (instance, module) => {
      onMemory(new Uint8Array(instance.exports.memory.buffer));
      success(instance, module);
    });
    return createModule(settings);
  };
}
