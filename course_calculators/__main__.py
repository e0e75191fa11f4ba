"""``python -m course_calculators init|new``: see :mod:`course_calculators.cli`."""

import sys

from course_calculators.cli import main

sys.exit(main())
