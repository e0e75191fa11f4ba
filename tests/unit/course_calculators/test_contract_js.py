"""The browser's copy of the contract (``browser/shared/contract.js``) agrees with ``contract.py``.

The id and name grammars, the meta tag's name, the folders the browser builds URLs from and the
shared choices' keys are written in both languages; this reads the JavaScript source and compares
(``tests/js/shared/contract.test.mjs`` runs the JavaScript functions on the cases below).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from course_calculators import contract, setting
from course_calculators.plugin import assets

CONTRACT_JS = Path(contract.__file__).parent / "browser" / "shared" / "contract.js"


def js_string(name: str) -> str:
    """The value of ``export const <name> = "<literal>";`` in contract.js."""
    m = re.search(rf'^export const {name} = ("(?:[^"\\]|\\.)*");$', CONTRACT_JS.read_text(), re.M)
    assert m, f"contract.js has no string constant {name}"
    return json.loads(m.group(1))


@pytest.mark.parametrize("name", ["ID_PATTERN", "NAME_PATTERN", "RUNTIME_META", "EMBED_DIR", "SCENARIO_STORE", "PIN_KEY",
                                  "BASE_KEY", "NEIGHBOURHOOD_ATTR", "PENDING_ATTR", "FAILED_ATTR", "FAILED_TEXT",
                                  "INSTANCE_KEY", "INSTANCE_SEPARATOR", "LIVE_META", "LIVE_EVENT"])
def test_the_same_constant_in_both_languages(name):
    assert js_string(name) == getattr(contract, name)


def test_the_browser_spells_the_default_setting_as_python_does():
    assert js_string("SETTING_DEFAULT") == setting.DEFAULT


def test_the_browser_finds_embed_js_where_the_plugin_puts_it():
    assert js_string("EMBED_SCRIPT") == f"{assets.RUNTIME_DIR}/embed.js"


def test_the_browser_builds_its_regular_expressions_from_the_patterns():
    text = CONTRACT_JS.read_text()
    assert "export const ID = new RegExp(`^${ID_PATTERN}$`);" in text
    assert "export const NAME = new RegExp(`^${NAME_PATTERN}$`);" in text
    assert contract.ID.pattern == f"^{contract.ID_PATTERN}$" and contract.NAME.pattern == f"^{contract.NAME_PATTERN}$"


#: A query key of a chapter page → the shared choice it names (None: a widget's key, or no name).
#: contract.test.mjs holds the same table for the browser's scenarioOfKey.
SCENARIO_KEYS = {"gpu": "gpu", "kv_dtype": "kv_dtype", "kv-cache.context": None, "kv-cache.pin": None, "": None,
                 "GPU": None, "utm-source": None}


@pytest.mark.parametrize("key, scenario", SCENARIO_KEYS.items())
def test_a_shared_choice_travels_under_its_own_name(key, scenario):
    assert contract.scenario_of_key(key) == scenario
    if scenario:
        assert contract.scenario_key(scenario) == key


def test_the_browser_reads_the_shared_choices_with_the_same_rule():
    text = CONTRACT_JS.read_text()
    assert "export function scenarioKey(scenario) {\n  return scenario;\n}" in text
    assert "export function scenarioOfKey(key) {\n  return NAME.test(key) ? key : null;\n}" in text
    js_table = (Path(__file__).resolve().parents[2] / "js" / "shared" / "contract.test.mjs").read_text()
    for key, scenario in SCENARIO_KEYS.items():
        assert f"[{json.dumps(key)}, {json.dumps(scenario)}]" in js_table, key


#: (calculator, instance, parameter) → its chapter page's URL key; contract.test.mjs holds the same
#: table for the browser's urlName and urlKey.
INSTANCE_KEYS = [("kv-cache", "", "context", "kv-cache.context"),
                 ("kv-cache", "second", "context", "kv-cache~second.context"),
                 ("kv-cache", "second", "pin", "kv-cache~second.pin")]


@pytest.mark.parametrize("calc, instance, param, key", INSTANCE_KEYS)
def test_an_instance_has_keys_of_its_own_and_the_default_keeps_todays(calc, instance, param, key):
    assert contract.url_key(calc, param, instance=instance) == key
    assert contract.url_key(calc, param, embed=True, instance=instance) == param
    assert contract.scenario_of_key(key) is None


def test_the_browser_table_of_instance_keys_is_this_one():
    js = (Path(__file__).parents[2] / "js" / "shared" / "contract.test.mjs").read_text()
    for calc, instance, param, key in INSTANCE_KEYS:
        assert f'urlKey(urlName("{calc}", "{instance}"), "{param}", false), "{key}"' in js


def test_an_instance_name_is_reserved_and_its_dom_id_meets_no_other():
    assert contract.INSTANCE_KEY in contract.RESERVED_NAMES
    assert contract.dom_id("kv-cache", 1, "second") == "calc-kv-cache--second"
    assert not contract.is_id("kv-cache--second".removeprefix("calc-"))


def test_the_scenario_origins_are_the_same_words_in_both_languages():
    text = CONTRACT_JS.read_text()
    m = re.search(r"export const ORIGIN = Object\.freeze\(\{ LINK: \"(\w+)\", PAGE: \"(\w+)\"", text)
    assert m and m.groups() == contract.SCENARIO_ORIGINS


@pytest.mark.parametrize("name, attr", [("answer", contract.ANSWER_ATTR), ("bar", contract.BAR_ATTR),
                                        ("group", contract.GROUP_ATTR), ("scenarioLine", contract.SCENARIO_LINE_ATTR)])
def test_the_answer_and_scenario_elements_have_the_same_names(name, attr):
    assert f'  {name}: "[{attr}]",' in CONTRACT_JS.read_text()


def test_the_scenario_buttons_have_the_same_actions():
    text = CONTRACT_JS.read_text()
    for action in contract.SCENARIO_ACTIONS:
        assert f"[data-action=\"{action}\"]" in text, action
