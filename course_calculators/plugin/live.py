"""``mkdocs serve``'s edit loop: a broken calculator is shown, not fatal, and a save that changed
only the calculators' Python reaches the open page's running worker, not a page reload (the second
half of this module).

A build stops at the first broken calculator (``mkdocs build`` must fail). Under ``mkdocs serve``
that would leave the open page silently on its old numbers: MkDocs' live reload waits for a
successful build. So while serving, every calculator problem (a package that does not import, a
spec that does not validate, a compute that raises for a fence's or a figure's inputs) is
recorded here instead of raised: the build goes on, the widget or figure it concerns becomes a
placeholder, every page gets a banner at the top of its body naming the file and line, and the
terminal says the same on every rebuild, until the module is fixed (the next rebuild has no
problem and the banner is gone).

The message names the author's file and the line that raised: the innermost frame of the
exception's traceback (or its cause's) that lies in one of the site's package folders.

Serve computes only each control's nearest stops before a page is written (a save must reach the
page fast); :class:`StopCheck` then runs the rest of the build's check of the stops in a thread,
after the rebuild, and a stop that raises becomes a problem of the next rebuild, which it asks for.
"""

from __future__ import annotations

import dataclasses
import hashlib
import html
import json
import re
import sys
import threading
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator

import jinja2
import jinja2.bccache

from course_calculators import contract
from course_calculators.calculator import Calculator
from course_calculators.setting import Setting

from . import neighbourhood

#: The banner's element: ``data-calc-live-error`` holds the first problem's ``file:line``.
BANNER_ATTR = "data-calc-live-error"
_BODY = re.compile(r"<body\b[^>]*>", re.IGNORECASE)


def where(exc: BaseException, folders: Iterable[Path]) -> str:
    """``path:line`` of the innermost frame of ``exc`` (or of the exception it was raised from)
    inside one of ``folders``, the path relative to the folder's parent; "" when none is."""
    roots = [Path(f).resolve() for f in folders]
    seen: set[int] = set()
    chain: BaseException | None = exc
    while chain is not None and id(chain) not in seen:
        seen.add(id(chain))
        if isinstance(chain, SyntaxError) and chain.filename:
            found = _inside(Path(chain.filename), roots)
            if found:
                return f"{found}:{chain.lineno}"
        for frame in reversed(traceback.extract_tb(chain.__traceback__)):
            found = _inside(Path(frame.filename), roots)
            if found:
                return f"{found}:{frame.lineno}"
        chain = chain.__cause__ or chain.__context__
    return ""


def _inside(path: Path, roots: list[Path]) -> str:
    try:
        resolved = path.resolve()
    except OSError:
        return ""
    for root in roots:
        if resolved.is_relative_to(root):
            return resolved.relative_to(root.parent).as_posix()
    return ""


@dataclass
class LiveErrors:
    """The problems of the current ``mkdocs serve`` build, each one line with its file and line."""

    folders: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def reset(self, folders: Iterable[Path] = ()) -> None:
        self.folders = list(folders)
        self.problems = []

    def add(self, exc: BaseException, context: str = "") -> str:
        """Record ``exc`` (its message, with the author's file and line put first when the
        message does not name them yet) and say it in the terminal; return the line."""
        message = str(exc).removeprefix("calculators: ").strip()
        at = where(exc, self.folders)
        if at and not message.startswith(at):
            message = f"{at}: {message}"
        if context and context not in message:
            message = f"{message} ({context})"
        if message not in self.problems:
            self.problems.append(message)
            # Not through MkDocs' logger: under --strict a warning would abort the build, and the
            # page could not show the problem. The terminal still says it on every rebuild.
            print(f"ERROR   -  calculators (serve): {message}", file=sys.stderr, flush=True)
        return message

    def banner(self) -> str:
        if not self.problems:
            return ""
        first = self.problems[0].split(": ", 1)[0]
        items = "".join(f"<li><code>{html.escape(p)}</code></li>" for p in self.problems)
        return (f'<div {BANNER_ATTR}="{html.escape(first, quote=True)}" role="alert" style="position:sticky;top:0;'
                'z-index:1000;margin:0;padding:.75rem 1rem;background:#b00020;color:#fff;font:14px/1.4 system-ui,'
                'sans-serif"><strong>A calculator is broken; the page shows it until the file is fixed:</strong>'
                f'<ul style="margin:.25rem 0 0 1.2rem;padding:0">{items}</ul></div>')

    def insert_banner(self, page_html: str) -> str:
        banner = self.banner()
        if not banner:
            return page_html
        m = _BODY.search(page_html)
        return page_html[:m.end()] + banner + page_html[m.end():] if m else banner + page_html

    @staticmethod
    def placeholder(message: str, *, inline: bool = False) -> str:
        """What stands where a broken widget (or inline figure) would be."""
        tag = "span" if inline else "div"
        return (f'<{tag} class="calc-live-error" role="alert" style="color:#b00020">'
                f'⚠ {html.escape(message)}</{tag}>')


def check_stops(calc: Calculator, shown: frozenset[str], cancelled: threading.Event | None = None) -> bool:
    """The build's check of ``calc``'s control stops around its defaults, with the build's budget
    (not serve's): CheckError at the first stop that fails. False when ``cancelled`` stopped it."""
    budget = calc.neighbours if calc.neighbours is not None else neighbourhood.BUDGET
    runs = neighbourhood.Runs()  # its own: the build's runs are the build thread's
    result = runs.run(calc, Setting(), (), "at the defaults")
    todo, first = neighbourhood.moves(calc, result.inputs, set(shown))
    for move in todo[: first + budget]:
        if cancelled is not None and cancelled.is_set():
            return False
        runs.run(calc, Setting(), ((move.name, move.value),), f"with {move.name}={move.value}")
    return True


class StopCheck:
    """Under ``mkdocs serve``: every calculator's stops checked as ``mkdocs build`` checks them,
    in a thread started after a rebuild (:meth:`start`), so that the save → number loop does not
    wait for it. A stop that fails is kept for those sources (their digest) and asks the server
    for a rebuild, whose pages show it (:meth:`problems`); a new build cancels a check under way
    (:meth:`cancel`) and starts its own after it."""

    def __init__(self) -> None:
        self._server: Any = None  # MkDocs' live-reload server (:meth:`attach`)
        self._unshown = False  # a failure found before the server was there to rebuild
        self._pending: list[tuple[Calculator, frozenset[str]]] = []
        self._checked = ""  # the digest of the sources last checked whole
        self._found: list[BaseException] = []  # what that check found
        self._cancelled = threading.Event()
        self._thread: threading.Thread | None = None

    def attach(self, server: Any) -> None:
        """The server to ask for rebuilds (``on_serve`` comes after the first build, whose check may
        have found a failure already)."""
        self._server = server
        if self._unshown:
            self._rebuild()

    def add(self, calc: Calculator, shown: set[str]) -> None:
        """A calculator of this build, with the controls its widgets show first."""
        self._pending.append((calc, frozenset(shown)))

    def problems(self, digest: str) -> list[BaseException]:
        """The stops found failing for the sources of ``digest`` (none while they are unchecked)."""
        return list(self._found) if digest == self._checked else []

    def start(self, digest: str) -> None:
        """Check this build's calculators in a thread, unless these sources were checked already."""
        pending = self._pending
        self.cancel()
        if digest == self._checked:
            return
        self._thread = threading.Thread(target=self._run, args=(digest, pending), name="calculators-stops",
                                        daemon=True)
        self._thread.start()

    def wait(self, timeout: float | None = None) -> None:
        thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def cancel(self) -> None:
        """Stop a check under way (a new build needs the interpreter; it starts its own check), and
        forget what a build that never finished added."""
        self._pending = []
        self._cancelled.set()
        self.wait()
        self._thread = None
        self._cancelled.clear()

    def _run(self, digest: str, pending: list[tuple[Calculator, frozenset[str]]]) -> None:
        found: list[BaseException] = []
        for calc, shown in pending:
            try:
                if not check_stops(calc, shown, self._cancelled):
                    return  # cancelled: not checked; the next build checks again
            except neighbourhood.CheckError as exc:
                found.append(exc)
        self._checked, self._found = digest, found
        for exc in found:
            print(f"ERROR   -  calculators (serve): {exc}", file=sys.stderr, flush=True)
        if found:
            self._rebuild()

    def _rebuild(self) -> None:
        """Ask MkDocs' live-reload server for a rebuild, as a changed file does (nothing with a
        server that does not work that way: the terminal has said it)."""
        server = self._server
        condition = getattr(server, "_rebuild_cond", None)
        self._unshown = server is None
        if condition is None or not hasattr(server, "_want_rebuild"):
            return
        with condition:
            server._want_rebuild = True
            condition.notify_all()


class TemplateBytecode(jinja2.BytecodeCache):
    """Compiled theme templates kept across ``mkdocs serve``'s rebuilds, in memory.

    MkDocs makes a new Jinja environment for every rebuild, so every template of the theme
    (mkdocs-material has dozens) is parsed and compiled again: about half of a small site's
    rebuild. Jinja checks each cached template against its source's checksum, so an edited
    template is compiled again."""

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


#: How often serve looks at the calculator packages' files (MkDocs polls its own every 0.5 s).
WATCH_INTERVAL = 0.1


@contextmanager
def polled_often(server: Any) -> Iterator[None]:
    """Folders watched inside this block are polled every :data:`WATCH_INTERVAL` seconds.

    MkDocs' live-reload server polls (watchdog's PollingObserver) every half second; each watch
    gets the observer's timeout when it is scheduled. Where the observer does not have one (another
    watchdog or MkDocs), the folders are watched as MkDocs watches its own."""
    observer = getattr(server, "observer", None)
    before = getattr(observer, "_timeout", None)
    if isinstance(before, (int, float)):
        observer._timeout = min(before, WATCH_INTERVAL)
    try:
        yield
    finally:
        if isinstance(before, (int, float)):
            observer._timeout = before


#: How long serve waits after a change for more before rebuilding (MkDocs waits 0.1 s). One save
#: reaches the polling observer as one batch of events, so a short wait still makes one rebuild.
BUILD_DELAY = 0.02


def rebuild_soon(server: Any) -> None:
    """Start a rebuild :data:`BUILD_DELAY` after the last change, not MkDocs' 0.1 s; a server
    without that setting (another MkDocs) is left as it is."""
    before = getattr(server, "build_delay", None)
    if isinstance(before, (int, float)):
        server.build_delay = min(before, BUILD_DELAY)


# -- a saved calculator reaches the open page's worker, not a new page -----------------------------
#
# MkDocs' live reload reloads every open page after every rebuild, so a save of a calculator module
# would cost the page and a new boot of Python in its worker. Under serve, every page instead gets
# a digest of what a new result cannot change (its HTML with each widget replaced by its shape, and
# the banner's problems), the build writes each page's digest and the lock file's checksum into a
# state file, and an inline script (``livereload-poll.js``) lets the page decide after a rebuild
# (``browser/page/live-reload.js``): a page whose digest is unchanged and whose lock file is new
# takes the new wheel into its running worker. Nothing of this is in a ``mkdocs build``.

#: The state file of the build, beside the runtime's scripts.
STATE_FILE = "assets/calc/live.json"
POLL_SCRIPT = Path(__file__).with_name("livereload-poll.js")


def shape(value: Any) -> Any:
    """What of a calculator's spec its widget's HTML shows, as plain data: every field of its
    dataclasses, nested, with each function by its name only (its body is what a new result
    shows: no reload for it)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__qualname__,
                tuple((f.name, shape(getattr(value, f.name))) for f in dataclasses.fields(value)))
    if isinstance(value, dict):
        return tuple(sorted((repr(k), shape(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return tuple(shape(v) for v in value)
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(repr(shape(v)) for v in value))
    if callable(value):
        return f"{getattr(value, '__module__', '')}.{getattr(value, '__qualname__', type(value).__qualname__)}"
    return repr(value)


def widget_token(*parts: Any) -> str:
    """What stands for a widget in its page's digest: its fence's own text and the shape of
    what it shows (:func:`shape`), never its numbers."""
    return "<!--calc-widget " + hashlib.sha256(repr(shape(parts)).encode()).hexdigest() + "-->"


def page_digest(page_html: str, widgets: Iterable[tuple[str, str]], problems: Iterable[str]) -> str:
    """The digest of what a new result cannot change on a page: its HTML with each widget's
    (``(html, token)``, as the fence rendered it) replaced by its token, and the build's problems
    (the banner). A widget whose HTML is not found as rendered stays in, numbers and all: the page
    then reloads on every save, as without this."""
    for widget_html, token in widgets:
        page_html = page_html.replace(widget_html, token, 1)
    digest = hashlib.sha256(page_html.encode())
    for problem in problems:
        digest.update(b"\0" + problem.encode())
    return digest.hexdigest()[:20]


def head_tags(page_key: str, digest: str, state_url: str) -> str:
    """The page's live meta tag and the poll that lets the page decide after a rebuild; before
    MkDocs' own script (end of <body>) and the page's deferred runtime."""
    meta = html.escape(json.dumps({"state": state_url, "page": page_key, "digest": digest}), quote=True)
    poll = POLL_SCRIPT.read_text(encoding="utf-8").strip()
    return (f'<meta name="{contract.LIVE_META}" content="{meta}">\n'
            f"<script>{poll}(window, {json.dumps(contract.LIVE_EVENT)});</script>")


def write_state(site_dir: Path, lock: str, lock_sha256: str, pages: dict[str, str]) -> Path:
    """The build's state file: the lock file (site path, with its ``?v=``), its checksum, and each
    page's digest by its key (MkDocs' ``page.url``)."""
    path = Path(site_dir) / STATE_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"lock": lock, "lock_sha256": lock_sha256, "pages": pages}, sort_keys=True))
    return path
