"""The browser restores a memory snapshot made after every calculator ran once on its defaults, and
loads no module file after that: a module a calculation imports lazily, on a path the defaults do
not take, is missing there ("No module named ..."). So every module of the book is imported by
then, but the evidence tables that only the build and the tests read."""

from __future__ import annotations

import subprocess
import sys

#: Read by the build (the Accuracy page) and the tests, never by a calculation in the browser.
EVIDENCE = {"llm_inference.accuracy", "llm_inference.accuracy_sglang", "llm_inference.engines.hybrid_logs", "llm_inference.engines.sglang",
            "llm_inference.engines.sglang_logs", "llm_inference.engines.startup_log_table",
            "llm_inference.engines.startup_log_record", "llm_inference.engines.startup_log_table_speculation",
            "llm_inference.engines.startup_log_table_parallel",
            "llm_inference.engines.startup_log_table_lora",
            "llm_inference.engines.startup_log_table_tensor_parallel",
            "llm_inference.engines.startup_logs", "llm_inference.engines.weight_logs",
            "llm_inference.engines.vllm_measured", "llm_inference.physics.expert_parallel_sources"}

PROBE = """
import json, pathlib, sys
import course_calculators, llm_inference
course_calculators.register_package("llm_inference")
for calc_id in list(course_calculators.CALCULATORS):
    course_calculators.run_json(calc_id, "{}")
root = pathlib.Path(llm_inference.__file__).parent
names = {".".join(("llm_inference",) + p.relative_to(root).with_suffix("").parts[:-1]
                  + (() if p.name == "__init__.py" else (p.stem,))) for p in root.rglob("*.py")}
print(json.dumps(sorted(n for n in names if n not in sys.modules)))
"""


def test_every_module_a_calculation_may_import_is_imported_by_the_defaults_runs():
    import json

    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout
    assert set(json.loads(out)) <= EVIDENCE
