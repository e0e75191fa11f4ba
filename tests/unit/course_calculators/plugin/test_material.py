"""What is specific to mkdocs-material (``course_calculators/plugin/material.py``): its search worker
deferred behind the site's own wrapper, relative to each page."""

from __future__ import annotations


def test_material_search_worker_is_wrapped_relative_to_each_page():
    from functools import partial

    from course_calculators.plugin import material

    defer_search_worker = partial(material.defer_search_worker, wrapper="assets/calc/search-deferred.js")

    deep = '{"search": "../../assets/javascripts/workers/search.a7633da7.min.js"}'
    assert defer_search_worker(deep, "inference/kv-cache/") == (
        '{"search": "../../assets/calc/search-deferred.js?worker=../javascripts/workers/search.a7633da7.min.js"}')
    top = '{"search": "assets/javascripts/workers/search.a7633da7.min.js"}'
    assert defer_search_worker(top, ".") == (
        '{"search": "assets/calc/search-deferred.js?worker=../javascripts/workers/search.a7633da7.min.js"}')
    assert defer_search_worker('{"search": null}', ".") == '{"search": null}'
