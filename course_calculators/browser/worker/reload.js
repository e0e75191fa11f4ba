// Under `mkdocs serve` only (the page sends `reload`, shared/protocol.js): a save changed the
// calculators' Python and nothing else of the page, so the worker keeps its interpreter (no new
// boot) and takes the new wheel in place. The new lock file is fetched and checked against the
// sha256 the page read from the build (as at boot), the wheel it lists is fetched with its own
// sha256 checked, and Python removes the wheel's packages (the lock entry's top-level `imports`)
// from site-packages and from sys.modules, unpacks the new wheel there and imports
// course_calculators afresh, which registers the calculators again from the new sources.

import { WHEEL } from "./lock-file.js";
import { checkSha256 } from "./sha256.js";

const WHEEL_PATH = "/tmp/calculators-reload.whl";

// Run in a namespace of its own: `path` (the new wheel) and `names` (its top-level packages) are
// set by reinstall(). The packages' folders (their stale bytecode with them) are removed before
// the new files are unpacked, so a module deleted by the save does not stay importable.
const REINSTALL = `
import importlib, shutil, sys, zipfile
from pathlib import Path
import course_calculators
site = Path(course_calculators.__file__).resolve().parent.parent
for name in names:
    shutil.rmtree(site / name, ignore_errors=True)
    (site / f"{name}.py").unlink(missing_ok=True)
with zipfile.ZipFile(path) as wheel:
    wheel.extractall(site)
for key in [k for k in sys.modules if k.split(".")[0] in names]:
    del sys.modules[key]
importlib.invalidate_caches()
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
