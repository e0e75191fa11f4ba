// Renders TeX to HTML with the vendored KaTeX, for katex.py (build time only).
// Protocol: one JSON request per line on stdin — [{tex, display}, …] — and one JSON reply per
// line on stdout — [html, …] in the same order. Errors render as KaTeX's red source text.
import { createInterface } from "node:readline";
import { createRequire } from "node:module";
import path from "node:path";

const nodeModules = process.argv[2];
const require = createRequire(path.join(path.resolve(nodeModules), "noop.js"));
const katex = require("katex");

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const items = JSON.parse(line);
  const html = items.map(({ tex, display }) =>
    katex.renderToString(tex, { displayMode: display, throwOnError: false, output: "htmlAndMathml" }));
  process.stdout.write(JSON.stringify(html) + "\n");
}
