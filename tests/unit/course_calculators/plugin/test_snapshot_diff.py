"""What the snapshot and its standard-library zips ship: pages that differ from the module's
initial memory, and only the modules Python has not imported yet (or, for a normal boot, the ones
it imports)."""

from __future__ import annotations

import io
import zipfile

import pytest

from course_calculators.plugin import offline, snapshot, stdlib
from course_calculators.plugin.manifest import OFFLINE_BYTES

PAGE = snapshot.PAGE


def test_pages_equal_to_the_base_stay_out_and_come_back_from_it():
    header = b"\0snp" + (40).to_bytes(4, "little") + bytes(32)
    memory = bytearray(PAGE * 6 + 10)
    base = bytearray(PAGE * 4)  # the initial memory is shorter than the image
    for i in (0, 2, 3):
        memory[i * PAGE:(i + 1) * PAGE] = bytes([i + 1]) * PAGE
        base[i * PAGE:(i + 1) * PAGE] = bytes([i + 1]) * PAGE
    memory[PAGE * 5 + 3] = 7  # beyond the base: differs from zero
    image = header + bytes(memory)
    assert snapshot.header_length(image) == 40
    packed = snapshot.pack(image, base=bytes(base), offset=40)
    assert packed[:8] == snapshot.MAGIC_DIFF
    shipped = packed[20 + 40]
    assert shipped == 0b100000  # page 5 alone; 0, 2, 3 as the base, 1 and 4 zero like it
    assert len(packed) == 20 + 40 + 1 + PAGE
    assert snapshot.unpack(packed, base=bytes(base)) == image
    assert snapshot.unpack(packed) != image  # without the base, its pages are missing


def test_an_unknown_pyodide_header_is_refused():
    with pytest.raises(snapshot.SnapshotError):
        snapshot.header_length(b"PYSNAP1\0....")


def _zip(files: dict[str, str]) -> zipfile.ZipFile:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
    return zipfile.ZipFile(io.BytesIO(buf.getvalue()))


def test_lazy_files_follow_imports_not_yet_done_and_stop_at_imported_ones():
    std = _zip({
        "json/__init__.py": "from .decoder import x\n",
        "json/decoder.py": "import re\n",
        "re/__init__.py": "",
        "difflib.py": "import heapq\n",
        "heapq.py": "",
        "inspect.py": "import dis\n",
        "dis.py": "",
        "new.py": "def f(:\n",  # a syntax this Python does not read: shipped, not followed
    })
    sources = [(b"import json\ndef f():\n    import difflib\nimport importlib\nimportlib.import_module('new')\n", "calcs"),
               (b"from . import inspect\n", "calcs")]  # relative: the package's own, not the stdlib's
    found = stdlib.lazy_files(std, sources, imported={"json/__init__.py", "json/decoder.py", "re/__init__.py"})
    assert found == {"difflib.py", "heapq.py", "new.py"}


def test_the_offline_size_reaches_every_page(tmp_path):
    (tmp_path / "index.html").write_text(f'<meta content="{{&quot;offlineBytes&quot;: &quot;{OFFLINE_BYTES}&quot;}}">')
    (tmp_path / "a.bin").write_bytes(b"\0" * 1000)
    (tmp_path / "b.js").write_text("x" * 10_000)
    files = offline.precache_files(tmp_path)
    size = offline.transfer_bytes(files)
    assert 1000 < size < 1000 + 10_000 // 10  # the script counts compressed, the binary as it is
    offline.write_service_worker(tmp_path)
    text = (tmp_path / "index.html").read_text()
    assert OFFLINE_BYTES not in text and "&quot;offlineBytes&quot;: &quot;" in text
