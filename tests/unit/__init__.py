"""CPython unit tests of the calculators package (a package, so test file names may repeat in other suites)."""
