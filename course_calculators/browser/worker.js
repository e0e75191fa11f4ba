// The calculators' Web Worker: one Pyodide for every widget of a page session.
//
// It answers the messages of shared/protocol.js (worker/message-handler.js): `init` starts Python
// (worker/start-python.js), each `run` computes one widget; under `mkdocs serve`, `reload` takes a
// new wheel into the running Python (worker/reload.js). No formula lives here: the worker
// passes JSON to course_calculators.run_json and back.

import { mark } from "./worker/timings.js";
import { createMessageHandler } from "./worker/message-handler.js";
import { reloadPython } from "./worker/reload.js";
import { startPython } from "./worker/start-python.js";

mark("workerStarted");
const handle = createMessageHandler({ post: (msg) => self.postMessage(msg), startPython, reloadPython });
self.addEventListener("message", (event) => handle(event.data));
