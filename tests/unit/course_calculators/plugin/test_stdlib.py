"""The standard-library zips: each module as the bytecode snapshot.mjs compiled, where there is one."""

import zipfile

from course_calculators.plugin import stdlib


def _zip(path, files):
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files.items():
            z.writestr(name, data)
    return path


def test_a_compiled_module_ships_as_its_bytecode_and_the_rest_as_source(tmp_path):
    source = _zip(tmp_path / "python_stdlib.zip", {
        "json/__init__.py": b"import json.decoder\n", "json/decoder.py": b"x = 1\n", "lazy.py": b"y = 2\n",
        "unused.py": b"z = 3\n",
    })
    compiled = _zip(tmp_path / "pyc.zip", {"json/__init__.pyc": b"BYTECODE", "lazy.pyc": b"LAZY"})
    wheel = _zip(tmp_path / "pkg.whl", {"pkg/__init__.py": b"import lazy\n"})
    out = tmp_path / "out"
    out.mkdir()
    zips = stdlib.write_zips(source, wheel, ["json/__init__.py", "json/decoder.py"], [], out, compiled_zip=compiled)
    with zipfile.ZipFile(zips.boot) as boot:
        assert sorted(boot.namelist()) == ["json/__init__.pyc", "json/decoder.py", "lazy.pyc"]
        assert boot.read("json/__init__.pyc") == b"BYTECODE"
        assert boot.read("json/decoder.py") == b"x = 1\n"
    with zipfile.ZipFile(zips.snapshot) as snap:
        assert snap.namelist() == ["lazy.pyc"]


def test_without_bytecode_every_module_ships_as_source(tmp_path):
    source = _zip(tmp_path / "python_stdlib.zip", {"a.py": b"a = 1\n"})
    wheel = _zip(tmp_path / "pkg.whl", {"pkg/__init__.py": b""})
    zips = stdlib.write_zips(source, wheel, ["a.py"], [], tmp_path)
    with zipfile.ZipFile(zips.boot) as boot:
        assert boot.namelist() == ["a.py"]
