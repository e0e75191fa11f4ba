// Under `mkdocs serve` only (the page sends `reload`, shared/protocol.js): a save changed the
// calculators' Python and nothing else of the page, so the worker keeps its interpreter (no new
// boot) and takes the new wheel in place. The new lock file is fetched and checked against the
// sha256 the page read from the build (as at boot), the wheel it lists is fetched with its own
// sha256 checked, and Python replaces, in site-packages and in sys.modules, those of the wheel's
// packages (the lock entry's top-level `imports`) whose files changed, then registers the
// calculators again (REINSTALL below; tests/unit/course_calculators/test_worker_reload.py runs it).

import { WHEEL } from "./lock-file.js";
import { checkSha256 } from "./sha256.js";

const WHEEL_PATH = "/tmp/calculators-reload.whl";

// Run in a namespace of its own: `path` (the new wheel) and `names` (its top-level packages) are
// set by reinstall(). Only the packages a file of which differs between the installed wheel's
// RECORD and the new one's (PEP 427: each file's sha256) are replaced: their folders are removed
// (their stale bytecode with them, and a module the save deleted), their files unpacked, their
// modules dropped from sys.modules. When the framework itself changed, every package is imported
// afresh with it; otherwise the framework registers its packages again, the changed ones
// re-imported and the others as they are.
const REINSTALL = `
import csv, importlib, io, shutil, sys, zipfile
from pathlib import Path
import course_calculators
site = Path(course_calculators.__file__).resolve().parent.parent
def record(text):
    return {row[0]: row[1] for row in csv.reader(io.StringIO(text)) if row}
installed = {}
for found in site.glob(course_calculators.__name__ + "-*.dist-info/RECORD"):
    installed.update(record(found.read_text()))
with zipfile.ZipFile(path) as wheel:
    listed = [n for n in wheel.namelist() if n.endswith(".dist-info/RECORD")]
    shipped = record(wheel.read(listed[0]).decode()) if listed else {}
    changed = {p.split("/")[0] for p in set(installed) | set(shipped) if installed.get(p) != shipped.get(p)}
    framework = course_calculators.__name__
    replaced = set(names) if framework in changed or not installed else changed & set(names)
    for name in replaced:
        shutil.rmtree(site / name, ignore_errors=True)
        (site / f"{name}.py").unlink(missing_ok=True)
    wheel.extractall(site, [n for n in wheel.namelist() if n.split("/")[0] in replaced or ".dist-info/" in n])
for key in [k for k in sys.modules if k.split(".")[0] in replaced]:
    del sys.modules[key]
importlib.invalidate_caches()
if framework not in replaced:
    course_calculators.unregister_all()
    course_calculators._register_shipped_packages()
`;

async function fetchChecked(url, sha256, what) {
  const response = await fetch(url, { cache: "no-store" });
  if (!response.ok) throw new Error(`${what}: HTTP ${response.status}`);
  const bytes = new Uint8Array(await response.arrayBuffer());
  await checkSha256(bytes, sha256, () => `${what} does not match the build's`);
  return bytes;
}

/** The lock file's wheel entry: its URL (beside the lock file) and what the wheel holds. */
export function wheelEntry(lockText, lockURL) {
  const entry = JSON.parse(lockText).packages[WHEEL];
  if (!entry) throw new Error(`the lock file lists no ${WHEEL}`);
  return { url: new URL(entry.file_name, new URL(".", lockURL)).href, sha256: entry.sha256, imports: entry.imports || [] };
}

/** Install the wheel of the `reload` message's lock file into `pyodide` and import the calculators
 * again; resolves to the new course_calculators.run_json. */
export async function reloadPython(pyodide, { lock, lock_sha256 }) {
  const lockURL = new URL(lock, self.location.href).href;
  const lockText = new TextDecoder().decode(await fetchChecked(lockURL, lock_sha256, "the lock file"));
  const wheel = wheelEntry(lockText, lockURL);
  const bytes = await fetchChecked(wheel.url, wheel.sha256, wheel.url.split("/").pop());
  pyodide.FS.writeFile(WHEEL_PATH, bytes);
  const namespace = pyodide.toPy({ path: WHEEL_PATH, names: wheel.imports });
  try {
    pyodide.runPython(REINSTALL, { globals: namespace });
  } finally {
    namespace.destroy();
  }
  return pyodide.pyimport("course_calculators").run_json;
}
