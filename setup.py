"""The build's one step beyond pyproject.toml: the browser runtime's bundles go into the
distribution, so an author's site needs no esbuild (course_calculators/plugin/esbuild.py takes them
while the modules they were made from are unchanged).

The sdist carries them (made from this folder's ``node_modules``, where ``npm ci`` puts esbuild),
and so does every wheel built from it or from this folder. Without esbuild here the distribution is
built without them, and a site then bundles with its own esbuild; ``CALCULATORS_REQUIRE_BUNDLES=1``
(the release workflow) makes that an error instead.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = Path(__file__).resolve().parent


def _bundle_into(into: Path) -> None:
    """Write the runtime's bundles into ``into`` (the ``browser/bundled`` folder of a build tree)."""
    sys.path.insert(0, str(HERE))
    try:
        from course_calculators.plugin import esbuild, node
    finally:
        sys.path.remove(str(HERE))
    browser = HERE / "course_calculators" / "browser"
    if esbuild.prebuilt(browser) is not None:  # this tree carries them already (a wheel from an sdist)
        return
    try:
        esbuild.write_prebuilt(HERE / "node_modules", browser, into)
    except (esbuild.BundleError, node.NodeError, OSError) as exc:
        if os.environ.get("CALCULATORS_REQUIRE_BUNDLES") == "1":
            raise SystemExit(f"course-calculators: the browser runtime's bundles: {exc}") from None
        print(f"warning: no prebuilt browser runtime in this distribution ({exc}); sites will bundle it "
              "with their own esbuild", file=sys.stderr)


class BuildPy(build_py):
    def run(self) -> None:
        super().run()
        if not self.editable_mode:  # an editable install reads the sources; esbuild bundles them
            _bundle_into(Path(self.build_lib) / "course_calculators" / "browser" / "bundled")


class Sdist(sdist):
    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        _bundle_into(Path(base_dir) / "course_calculators" / "browser" / "bundled")


setup(cmdclass={"build_py": BuildPy, "sdist": Sdist})
