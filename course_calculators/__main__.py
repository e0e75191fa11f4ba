"""``python -m course_calculators new <id>``: see :mod:`course_calculators.build.scaffold`."""

import sys

from course_calculators.build.scaffold import main

sys.exit(main())
