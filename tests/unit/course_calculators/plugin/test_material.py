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


def test_a_material_page_starts_as_the_bundle_leaves_it():
    from course_calculators.plugin import material

    page = ('<html lang="en" class="no-js"><head><meta charset="utf-8"></head>'
            '<body dir="ltr" data-md-color-scheme="default"><form data-md-component="palette"></form></body></html>')
    html, script = material.as_the_bundle_leaves_it(page)
    assert '<body data-md-color-switching dir="ltr"' in html
    assert script == '<script>document.documentElement.className="js js-focus-visible"</script>'
    # Without the palette toggle nothing would ever unflag the body.
    html, script = material.as_the_bundle_leaves_it(page.replace('data-md-component="palette"', ""))
    assert "data-md-color-switching" not in html and script
    # Another theme's page is left alone.
    other = "<html><head></head><body></body></html>"
    assert material.as_the_bundle_leaves_it(other) == (other, "")
