// Bundles the browser runtime with esbuild (course_calculators/plugin/esbuild.py runs this).
//
//   node esbuild.mjs <esbuild package folder>   < request.json   > result.json
//
// The request: {root, outdir, target, entries: [{name, format}]} — each entry a file of `root`
// (course_calculators/browser/) bundled with everything it imports, in the format its page loads
// it as ("iife": a classic script; "esm": the module worker). `outdir` only names where the files
// would be (nothing is written: esbuild hands them back), so the source maps' paths are made
// relative to `root`, the same on every machine. The result: {files: {name: text}, inputs: [path
// relative to root]}; esbuild's errors go to stderr, one line each, and the exit status is 1.

import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const esbuildDir = process.argv[2];
const request = JSON.parse(readFileSync(0, "utf8"));
const esbuild = (await import(pathToFileURL(path.join(esbuildDir, "lib", "main.js")).href)).default;

function where(message) {
  const loc = message.location;
  return loc ? `${loc.file}:${loc.line}:${loc.column + 1}: ` : "";
}

async function build(format, names) {
  return esbuild.build({
    absWorkingDir: request.root,
    entryPoints: names,
    outdir: request.outdir,
    entryNames: "[dir]/[name]",
    bundle: true,
    format,
    platform: "browser",
    target: request.target,
    minify: true,
    sourcemap: "linked",
    sourcesContent: true,
    legalComments: "none",
    metafile: true,
    write: false,
    logLevel: "silent",
  });
}

/** A source map whose sources are named by their path under `root` (`page/widget.js`). */
function relativeMap(text) {
  const map = JSON.parse(text);
  map.sources = map.sources.map((s) => path.relative(request.root, path.resolve(request.outdir, s)).split(path.sep).join("/"));
  map.sourceRoot = "";
  return JSON.stringify(map);
}

const formats = new Map();
for (const { name, format } of request.entries) formats.set(format, [...(formats.get(format) || []), name]);

const files = {};
const inputs = new Set();
const warnings = [];
try {
  // The formats' builds run at once; their results (and a failure) are read in the request's order.
  const settled = await Promise.allSettled([...formats].map(([format, names]) => build(format, names)));
  for (const outcome of settled) {
    if (outcome.status === "rejected") throw outcome.reason;
    const result = outcome.value;
    for (const file of result.outputFiles) {
      const name = path.relative(request.outdir, file.path).split(path.sep).join("/");
      files[name] = name.endsWith(".map") ? relativeMap(file.text) : file.text;
    }
    Object.keys(result.metafile.inputs).forEach((input) => inputs.add(input));
    result.warnings.forEach((w) => warnings.push(where(w) + w.text));
  }
} catch (err) {
  const errors = err && Array.isArray(err.errors) ? err.errors : [];
  if (!errors.length) throw err;
  errors.forEach((e) => process.stderr.write(where(e) + e.text + "\n"));
  process.exit(1);
}
process.stdout.write(JSON.stringify({ files, inputs: [...inputs].sort(), warnings }));
