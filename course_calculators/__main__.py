"""``python -m course_calculators new <id>``: see :mod:`course_calculators.plugin.scaffold`."""

import sys

from course_calculators.plugin.scaffold import main

sys.exit(main())
