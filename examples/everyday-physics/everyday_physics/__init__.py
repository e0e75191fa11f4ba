"""Everyday physics, by example: a short course whose numbers are computed.

A second book for the course-calculators framework, on another subject than the first: a thrown
ball, a kettle, a pendulum. Each module listed in :data:`MODULES` defines ``SPEC`` with a pure
``compute()``; the units are the framework's own (metres, seconds, joules, kilowatt-hours, watts,
degrees Celsius, hertz, euros), so nothing here registers a unit. Standard library only: the
package ships to the reader's browser as it is.
"""

#: The calculator modules, in the order the course uses them.
MODULES = (
    "projectile",
    "kettle",
    "pendulum",
)
