"""The developer docs at the root (``ARCHITECTURE.md``, ``CONTRIBUTING.md``) name only paths that
exist: a module moved or renamed shows up here, not as a map that silently went wrong."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ["ARCHITECTURE.md", "CONTRIBUTING.md"]
#: Folders a path in the docs may be written relative to (as the text around it says).
BASES = [ROOT, ROOT / "course_calculators", ROOT / "course_calculators" / "browser",
         ROOT / "calculators", ROOT / "calculators" / "llm_inference",
         ROOT / "calculators" / "llm_inference" / "physics",
         ROOT / "calculators" / "llm_inference" / "models" / "data"]
SUFFIXES = (".py", ".md", ".js", ".mjs", ".html", ".json", ".toml", ".yml", ".css")
#: A code span that names a file or folder: no spaces or placeholders, a slash or a file suffix.
PATHLIKE = re.compile(r"^[A-Za-z0-9_./-]+$")
#: File names the docs use as words for a kind of file, not as a path in this repository.
KINDS_OF_FILE = {"config.json"}


def named_paths(text: str) -> list[str]:
    spans = re.findall(r"`([^`\n]+)`", text)
    return sorted({s for s in spans if PATHLIKE.match(s) and ("/" in s or s.endswith(SUFFIXES))
                   and not s.startswith(("http", "-", ".")) and s not in KINDS_OF_FILE})


@pytest.mark.parametrize("doc", DOCS)
def test_the_doc_exists_and_names_paths(doc):
    assert (ROOT / doc).is_file()
    assert len(named_paths((ROOT / doc).read_text(encoding="utf-8"))) > 10


@pytest.mark.parametrize("doc", DOCS)
def test_every_path_a_doc_names_exists(doc):
    missing = [p for p in named_paths((ROOT / doc).read_text(encoding="utf-8"))
               if not any((base / p.rstrip("/")).exists() for base in BASES)]
    assert not missing, f"{doc} names paths that do not exist: {missing}"
