"""Releasing: the PyPI workflow (``.github/workflows/release.yml``), read as data, as
``test_deploy.py`` reads the Pages one: a version tag builds, checks and publishes the framework
with trusted publishing, and only the publish job may ask for the identity token."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import course_calculators

ROOT = Path(__file__).resolve().parents[3]
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"


@pytest.fixture(scope="module")
def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text())


def runs(job: dict) -> str:
    return "\n".join(s.get("run", "") for s in job["steps"])


def uses(job: dict) -> list[str]:
    return [s["uses"] for s in job["steps"] if "uses" in s]


def test_a_version_tag_starts_it(workflow):
    trigger = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert trigger == {"push": {"tags": ["v*"]}}
    assert set(workflow["jobs"]) == {"build", "publish"}


def test_the_token_is_the_publish_jobs_alone(workflow):
    assert workflow["permissions"] == {"contents": "read"}
    assert "permissions" not in workflow["jobs"]["build"]
    publish = workflow["jobs"]["publish"]
    assert publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    assert publish["environment"]["url"] == "https://pypi.org/p/course-calculators"


def test_build_then_twine_check_then_publish_with_trusted_publishing(workflow):
    build, publish = workflow["jobs"]["build"], workflow["jobs"]["publish"]
    text = runs(build)
    assert text.index("make check") < text.index("python -m build") < text.index("twine check --strict dist/*")
    assert publish["needs"] == "build"
    assert uses(publish)[-1] == "pypa/gh-action-pypi-publish@release/v1"
    publish_step = publish["steps"][-1]
    assert "with" not in publish_step or not {"password", "user"} & set(publish_step["with"])  # no stored token
    upload = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-artifact@"))
    download = next(s for s in publish["steps"] if s.get("uses", "").startswith("actions/download-artifact@"))
    assert upload["with"]["name"] == download["with"]["name"] and download["with"]["path"] == "dist/"


def test_the_wheel_must_carry_the_bundled_runtime(workflow):
    build = workflow["jobs"]["build"]
    step = next(s for s in build["steps"] if "python -m build" in s.get("run", ""))
    assert step["env"]["CALCULATORS_REQUIRE_BUNDLES"] == "1"  # setup.py fails rather than ship without
    assert "browser/bundled/runtime.js" in runs(build)
    assert "CALCULATORS_REQUIRE_BUNDLES" in (ROOT / "setup.py").read_text()


def test_the_tag_must_be_the_version(workflow):
    text = runs(workflow["jobs"]["build"])
    assert 'test "${GITHUB_REF_NAME}" = "v${version}"' in text
    assert "course_calculators.__version__" in text and course_calculators.__version__


def test_every_action_is_pinned(workflow):
    for job in workflow["jobs"].values():
        for action in uses(job):
            assert "@" in action and action.partition("@")[2], action
