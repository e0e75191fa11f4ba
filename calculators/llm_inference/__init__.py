"""The calculators of Chapter 9, "LLM inference": this site's content package.

Each module listed in :data:`MODULES` defines ``SPEC``, a :class:`course_calculators.spec.Calculator`
with a pure ``compute()``: the Python behind every number on the chapter's pages. The site lists
this package in ``mkdocs.yml`` (``packages: [llm_inference]``) like any author lists theirs; the
framework that renders and runs it is :mod:`course_calculators`. Standard library only: the
package ships to the reader's browser as it is.
"""

from . import units  # noqa: F401  (registers the chapter's units before any calculator names them)

#: The calculator modules, in the order the catalogue lists them.
MODULES = (
    "kv_cache",
    "decode_roofline",
    "unit_economics",
    "paged_attention",
    "speculative_decoding",
    "sampling",
)
