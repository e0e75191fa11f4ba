"""The authors' guide's reference tables (spec types, units, plugin options), regenerated from the
code into ``docs/authors.md`` between its ``<!-- reference:<name> -->`` markers: ``make reference``.

``--check`` changes nothing and exits 1 when the file is not current (the tests check the same).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from course_calculators.plugin import reference  # noqa: E402

GUIDE = ROOT / "docs" / "authors.md"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether the file is current")
    parser.add_argument("files", nargs="*", type=Path, default=[GUIDE])
    args = parser.parse_args(argv)
    stale = []
    for path in args.files:
        text = path.read_text(encoding="utf-8")
        if not reference.regions(text):
            print(f"{path}: no <!-- reference:<name> --> region", file=sys.stderr)
            return 2
        if reference.render_into(text) != text:
            stale.append(path)
            if not args.check:
                reference.update_file(path)
                print(f"updated {path}")
    if args.check and stale:
        print("not current (run `make reference`): " + ", ".join(map(str, stale)), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
