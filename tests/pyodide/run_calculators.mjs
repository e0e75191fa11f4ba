// Runs every calculator (defaults and presets) under real Pyodide in Node, loading the site's
// wheel exactly as the browser does: by name, from the built site's pyodide-lock.json.
// Usage: node run_calculators.mjs <site_dir>   → prints one JSON object on stdout.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const site = path.resolve(process.argv[2] || path.join(root, "site"));
const { loadPyodide } = await import(pathToFileURL(path.join(root, "node_modules", "pyodide", "pyodide.mjs")).href);

const assets = path.join(site, "assets", "pyodide") + path.sep;
const pyodide = await loadPyodide({
  indexURL: path.join(root, "node_modules", "pyodide") + path.sep,
  lockFileURL: path.join(assets, "pyodide-lock.json"),
  packageBaseUrl: assets,
  stdout: () => {},
});
await pyodide.loadPackage("course-calculators", { messageCallback: () => {} });
const out = pyodide.runPython(`
import json, sys, course_calculators as registry
cases = {}
for calc in registry.CALCULATORS.values():
    cases[f"{calc.id}:defaults"] = registry.run(calc.id, {})
    for preset in calc.presets:
        cases[f"{calc.id}:{preset.id}"] = registry.run(calc.id, dict(preset.values))
    bad = {p.name: "<b>nan</b>" for p in calc.params}
    cases[f"{calc.id}:garbage"] = registry.run(calc.id, bad)
json.dumps({"python": sys.version.split()[0], "platform": sys.platform, "cases": cases}, allow_nan=False)
`);
process.stdout.write(out);
