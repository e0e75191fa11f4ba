"""The distributions as an author gets them: built by ``python -m build``, put in a local package
index, installed into fresh virtual environments. Shared by tests/packaging and the e2e tests of
the installed wheel, and made once per test session (the first test that asks builds them).

- :func:`dists`: the sdist and wheel of the framework and of each book (``python -m build
  --no-isolation``: the build backend is this environment's setuptools, pinned in constraints.txt,
  so no build environment is downloaded per project);
- :func:`index`: a PEP 503 "simple" index of them, a folder an author could serve or point pip at
  (``--extra-index-url file://…/simple``);
- :func:`environment`: a virtual environment of a given Python with the framework installed from
  that index, and any other requirements, by the environment's own pip;
- :func:`newest`: the one the site-building tests share: the newest Python this machine has of
  those supported (3.13) with the newest allowed dependencies, the framework and the second book.

The matrix (tests/packaging/test_matrix.py) adds the oldest Python with the lowest allowed
dependencies. Each environment is made once per run; pip reuses its cache where the registry's
answers allow it.

Once per run, not once per process: under pytest-xdist the packaging tests and the e2e tests of
the installed wheel land on different workers, which would each build the same distributions and
install the same environments. ``tests/conftest.py`` names one folder for the whole run
(:data:`SHARED`, inherited by the workers); the first worker to ask for a distribution or an
environment makes it there under a file lock, the others wait for it and take it as made.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import functools
import hashlib
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROJECTS = {"course-calculators": ROOT, "llm-inference-chapter": ROOT / "calculators",
            "everyday-physics-course": ROOT / "examples" / "everyday-physics"}

#: The environment variable naming the run's shared folder (set by tests/conftest.py, which removes it).
SHARED = "CALCULATORS_INSTALLED_DIR"

if os.environ.get(SHARED):
    _WORK = Path(os.environ[SHARED])
else:  # imported outside a pytest run of this suite: a folder of this process's own
    _WORK = Path(tempfile.mkdtemp(prefix="calculators-installed-"))
    atexit.register(shutil.rmtree, _WORK, ignore_errors=True)


@contextlib.contextmanager
def _made_once(folder: Path):
    """Yield whether ``folder`` is still to be made, holding a lock on it across the workers; the
    folder is marked made when the block ends without an error (a failed attempt is started again
    from nothing by the next caller)."""
    _WORK.mkdir(parents=True, exist_ok=True)
    with open(folder.with_name(folder.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = folder.with_name(folder.name + ".done")
        if done.exists():
            yield False
            return
        shutil.rmtree(folder, ignore_errors=True)
        yield True
        done.touch()


def run(cmd, **kwargs) -> subprocess.CompletedProcess:
    """Run ``cmd`` (by default in a folder outside this repository, whose sources and egg-info would
    otherwise be found first from the current folder); a failure shows the command and the ends of
    its output."""
    kwargs.setdefault("cwd", _WORK)
    proc = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kwargs)
    if proc.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, cmd))} exited {proc.returncode}\n"
                             f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return proc


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without what points Python at this repository or its venv."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    return {**env, "NO_MKDOCS_2_WARNING": "1", **extra}


@functools.cache
def dists() -> dict[str, dict[str, Path]]:
    """``{project: {"sdist": path, "wheel": path}}`` for the framework and both books."""
    out = _WORK / "dist"
    built = {}
    with _made_once(out) as to_make:
        if to_make:
            for folder in PROJECTS.values():
                run([sys.executable, "-m", "build", "--no-isolation", "--outdir", out, folder])
    for name in PROJECTS:
        stem = name.replace("-", "_")
        built[name] = {"sdist": next(out.glob(f"{stem}-*.tar.gz")), "wheel": next(out.glob(f"{stem}-*-py3-none-any.whl"))}
    return built


@functools.cache
def index() -> Path:
    """A PEP 503 simple index of :func:`dists`: ``<index>/<project>/index.html`` links each file."""
    root = _WORK / "index" / "simple"
    with _made_once(root.parent) as to_make:
        if not to_make:
            return root
        for name, files in dists().items():
            folder = root / name
            folder.mkdir(parents=True)
            links = []
            for path in files.values():
                shutil.copy2(path, folder / path.name)
                links.append(f'<a href="{html.escape(path.name)}">{html.escape(path.name)}</a><br>')
            (folder / "index.html").write_text(f"<!DOCTYPE html><html><body>{''.join(links)}</body></html>\n")
        (root / "index.html").write_text("<!DOCTYPE html><html><body>"
                                         + "".join(f'<a href="{n}/">{n}</a><br>' for n in dists()) + "</body></html>\n")
    return root


def find_python(version: str) -> Path | None:
    """An interpreter of ``version`` ("3.11"): pyenv's, or one on PATH (pyenv's shims answer only
    for the versions a folder selects, so they are passed over)."""
    try:
        pyenv_root = subprocess.run(["pyenv", "root"], capture_output=True, text=True).stdout.strip()
    except OSError:
        pyenv_root = os.environ.get("PYENV_ROOT", str(Path.home() / ".pyenv"))
    candidates = sorted(Path(pyenv_root or "/nonexistent").glob(f"versions/{version}.*/bin/python{version}"),
                        key=lambda p: [int(x) for x in re.findall(r"\d+", p.parent.parent.name)])
    if candidates:
        return candidates[-1]
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        found = Path(folder) / f"python{version}"
        if "shims" not in found.parts and found.is_file() and os.access(found, os.X_OK):
            return found
    return None


@dataclass(frozen=True)
class Environment:
    path: Path

    @property
    def bin(self) -> Path:
        return self.path / "bin"

    @property
    def python(self) -> Path:
        return self.bin / "python"

    def env(self, **extra: str) -> dict[str, str]:
        """Environment variables for a command run "inside" this virtual environment."""
        base = clean_env(**extra)
        return {**base, "VIRTUAL_ENV": str(self.path), "PATH": f"{self.bin}:{base['PATH']}"}

    def version_of(self, project: str) -> str:
        return run([self.python, "-c", f"import importlib.metadata as m; print(m.version({project!r}))"],
                   env=self.env()).stdout.strip()

    @property
    def python_version(self) -> str:
        return run([self.python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"]).stdout.strip()

    def installed_from_the_index(self, project: str) -> bool:
        """Whether ``project`` here is the wheel :func:`dists` built (its RECORD, byte for byte)."""
        wheel = dists()[project]["wheel"]
        with zipfile.ZipFile(wheel) as zf:
            record = zf.read(next(n for n in zf.namelist() if n.endswith(".dist-info/RECORD")))
        code = (f"import importlib.metadata as m, sys; "
                f"sys.stdout.write(m.distribution({project!r}).read_text('RECORD'))")
        here = run([self.python, "-c", code], env=self.env()).stdout
        # pip rewrites RECORD (it adds INSTALLER and the byte-compiled files); the wheel's own lines stay
        ours = {line for line in record.decode().splitlines() if "/RECORD," not in line}
        return ours <= set(here.splitlines())


#: The Python versions the framework supports, oldest and newest (pyproject.toml's classifiers).
OLDEST_PYTHON, NEWEST_PYTHON = "3.11", "3.13"


def version(project: str) -> str:
    return dists()[project]["wheel"].name.split("-")[1]


@functools.cache
def newest() -> Environment:
    """Python 3.13 (or this interpreter, where there is none) with the newest allowed dependencies,
    the framework and the second book from the index, as an author would install them."""
    python = find_python(NEWEST_PYTHON) or Path(sys.executable)
    return environment(str(python), f"course-calculators=={version('course-calculators')}",
                       f"everyday-physics-course=={version('everyday-physics-course')}")


@functools.cache
def environment(python: str = sys.executable, *requirements: str) -> Environment:
    """A fresh virtual environment of ``python`` with ``requirements`` installed as an author would:
    pip, with this repository's distributions on an extra index beside the default one."""
    which = run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"]).stdout.strip()
    # named by what it holds, so that every worker asking for the same one finds it
    key = hashlib.sha256("\n".join([python, *requirements]).encode()).hexdigest()[:12]
    where = _WORK / f"venv-{which}-{key}"
    made = Environment(where)
    with _made_once(where) as to_make:
        if to_make:
            run([python, "-m", "venv", where])
            run([made.python, "-m", "pip", "install", "-q", "--extra-index-url", index().as_uri(), *requirements],
                env=made.env())
    return made
