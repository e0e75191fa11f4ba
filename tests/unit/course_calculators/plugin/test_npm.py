"""The npm advice of a build that misses its front-end packages (``plugin/npm.py``): ``npm ci`` only
where a lock exists; an ``init`` site, which has none, gets the exact ``npm install`` line."""

from __future__ import annotations

from course_calculators import cli
from course_calculators.plugin import npm


def test_a_site_with_a_lock_is_told_npm_ci(tmp_path):
    (tmp_path / "package-lock.json").write_text("{}")
    assert "`npm ci`" in npm.advice(tmp_path)


def test_a_site_without_a_lock_gets_the_exact_install_line(tmp_path):
    cli.init(tmp_path / "course")  # init writes package.json, no lock
    advice = npm.advice(tmp_path / "course")
    assert "npm ci" not in advice
    assert f"`npm install --save-exact pyodide@{cli.FRONTEND['pyodide']} chart.js@{cli.FRONTEND['chart.js']}" in advice


def test_the_install_line_pins_every_front_end_package():
    assert npm.install_line().split()[3:] == [f"{k}@{v}" for k, v in cli.FRONTEND.items()]


def _node_modules_error(site) -> str:
    from course_calculators.plugin.config import CalculatorsConfig

    config = CalculatorsConfig(config_file_path=str(site / "mkdocs.yml"))
    config.load_dict({})
    errors, _ = config.validate()
    return " ".join(str(e) for key, e in errors if key == "node_modules")


def test_the_missing_node_modules_message_fits_the_site(tmp_path):
    cli.init(tmp_path / "course")
    message = _node_modules_error(tmp_path / "course")
    assert npm.install_line() in message and "npm ci" not in message
    (tmp_path / "course" / "package-lock.json").write_text("{}")
    assert "`npm ci`" in _node_modules_error(tmp_path / "course")
