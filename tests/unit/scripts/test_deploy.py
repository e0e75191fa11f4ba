"""Publishing: the GitHub Pages workflow (``.github/workflows/pages.yml``); ``make deploy`` is in
``tests/integration/scripts/test_deploy.py``.

The workflow cannot run here; these tests read it as data and check the parts that matter: it
builds for the address Pages gives it, and it has the permissions a Pages deployment needs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[3]
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"


@pytest.fixture(scope="module")
def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text())


def steps(job: dict) -> list[dict]:
    return job["steps"]


def uses(job: dict) -> list[str]:
    return [s["uses"].partition("@")[0] for s in steps(job) if "uses" in s]


def test_the_workflow_runs_on_main_and_may_deploy_to_pages(workflow):
    trigger = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
    assert trigger["push"]["branches"] == ["main"] and "workflow_dispatch" in trigger
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    assert workflow["concurrency"]["group"] and workflow["concurrency"]["cancel-in-progress"] is False
    assert set(workflow["jobs"]) == {"test", "build", "deploy"}


def test_every_action_is_pinned_to_a_version(workflow):
    for job in workflow["jobs"].values():
        for step in steps(job):
            if "uses" in step:
                name, _, version = step["uses"].partition("@")
                assert version, f"{name} has no version"


def test_the_tests_gate_the_build(workflow):
    test = workflow["jobs"]["test"]
    assert {"actions/checkout", "actions/setup-node"} <= set(uses(test))
    assert any(s.get("run") == "make test" for s in steps(test))
    assert workflow["jobs"]["build"]["needs"] == "test"


def test_the_tests_run_in_debian_with_every_engine(workflow):
    """Debian packages all three engines (Ubuntu has no firefox-esr); the image brings Python 3.12,
    for which setup-python has no Debian build. The job runs the README's test command alone, as a
    fresh machine does: it installs the browsers (find_browsers.py --install), as .ci/run relies on."""
    test = workflow["jobs"]["test"]
    image = test["container"]["image"]
    assert image.startswith("python:3.12-") and image.endswith("bookworm")
    assert [s["run"] for s in steps(test) if "run" in s] == ["make test"]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = makefile[makefile.index("\ntest: setup"):].split("\n\n")[0]
    assert "scripts/find_browsers.py --install" in recipe
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip().endswith("make test") and "apt-get" not in ci


def test_the_build_is_for_the_pages_url_and_is_uploaded(workflow):
    build = workflow["jobs"]["build"]
    assert uses(build) == ["actions/checkout", "actions/setup-python", "actions/setup-node",
                           "actions/configure-pages", "actions/upload-pages-artifact"]
    setup_python = next(s for s in steps(build) if s.get("uses", "").startswith("actions/setup-python"))
    assert setup_python["with"]["python-version"] == "3.12"
    configure = next(s for s in steps(build) if s.get("uses", "").startswith("actions/configure-pages"))
    make = next(s for s in steps(build) if "make site" in s.get("run", ""))
    assert make["env"]["BASE_URL"] == "${{ steps.%s.outputs.base_url }}" % configure["id"]
    assert 'SITE_URL="${BASE_URL%/}/"' in make["run"]  # exactly one trailing slash
    upload = steps(build)[-1]
    assert upload["with"]["path"] == "site"


def test_the_deploy_job_publishes_the_artifact(workflow):
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert deploy["environment"]["name"] == "github-pages"
    assert uses(deploy) == ["actions/deploy-pages"]
