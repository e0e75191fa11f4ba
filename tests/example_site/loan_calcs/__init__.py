"""The example site's calculators: one stdlib-only module per calculator, each defining ``SPEC``."""
