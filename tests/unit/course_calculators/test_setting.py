"""One setting, every path: the grammar of :class:`Setting` (text and query forms, pairs), and the
same numbers for one setting whichever Python path it takes — a fence, a fence's ``pin:`` line, a
pin in a link (compare), an inline figure, a link's keys over the widget's base, an embed's
``set`` message over the form — for a filled field, a preset with overrides and a pin."""

from __future__ import annotations

import html
import re

import markdown
import pytest

import course_calculators
from course_calculators import compare
from course_calculators.plugin import fence, figures
from course_calculators.setting import DEFAULT, Setting
from course_calculators.spec import SpecError

KV = course_calculators.get("kv-cache")
OUTPUTS = ("kv_bytes_per_token", "kv_bytes_total", "weight_bytes", "max_sequences", "fits")


# -- the grammar ---------------------------------------------------------------------------------

def test_the_text_and_query_forms_are_one_setting():
    s = Setting.from_text("preset=llama3-8b-128k context=4096 kv_dtype=fp8")
    assert s == Setting("llama3-8b-128k", (("context", "4096"), ("kv_dtype", "fp8")))
    assert s.text() == "preset=llama3-8b-128k context=4096 kv_dtype=fp8"
    assert s.query() == "preset=llama3-8b-128k&context=4096&kv_dtype=fp8"
    assert Setting.from_query(s.query()) == s
    assert Setting.from_text(DEFAULT) == Setting.from_query(DEFAULT) == Setting.from_query("") == Setting()
    assert Setting().text() == Setting().query() == DEFAULT


def test_a_value_with_spaces_round_trips_in_both_forms():
    s = Setting(None, (("config", '{"a": 1, "b": "x&y%"}'),))
    assert " " not in s.text() and Setting.from_text(s.text()) == s
    assert Setting.from_query(s.query()) == s


@pytest.mark.parametrize("text", ["context", "context=", "=4096", "preset=x context", ""])
def test_the_text_form_is_strict(text):
    with pytest.raises(SpecError, match="expected 'preset=<id>'"):
        Setting.from_text(text)


def test_the_query_form_is_lenient():
    assert Setting.from_query("context=4096&junk&=x") == Setting(None, (("context", "4096"), ("junk", ""), ("", "x")))


def test_a_settings_inputs_are_the_presets_then_its_overrides_in_order():
    pairs, notes = Setting.from_text("preset=llama3-70b context=4096").inputs(KV)
    assert pairs == [*KV.preset("llama3-70b").values.items(), ("context", "4096")] and notes == []
    pairs, notes = Setting.from_query("preset=nope&context=4096").inputs(KV)
    assert pairs == [("context", "4096")] and "no preset 'nope'" in notes[0]
    with pytest.raises(SpecError, match="unknown preset 'nope'"):
        Setting.from_query("preset=nope").strict_inputs(KV)


def test_the_canonical_setting_is_what_differs_in_spec_order_without_what_a_model_fills():
    inputs = KV.run({"concurrency": 4, "model": "llama-3.1-70b", "context": 131072}).inputs
    assert Setting.of(KV, inputs).query() == "model=llama-3.1-70b&context=131072&concurrency=4"
    custom = KV.run({"model": "custom", "layers": 40}).inputs
    assert Setting.of(KV, custom).text() == "model=custom layers=40"
    assert Setting.of(KV, KV.defaults()) == Setting()
    base = KV.run({"model": "llama-3.1-70b"}).inputs
    assert Setting.of(KV, KV.run([("model", "llama-3.1-70b"), ("layers", 40)]).inputs, base).text() == \
        "model=custom layers=40"


# -- the filled-field rule -----------------------------------------------------------------------

def test_a_field_set_beside_its_model_makes_the_model_custom_with_a_note():
    out = course_calculators.run("kv-cache", {"model": "llama-3.1-8b", "layers": "40"})
    assert out["inputs"]["model"] == "custom" and out["inputs"]["layers"] == 40
    assert any("Layers: 40 layers set beside Model “Llama 3.1 8B”" in n for n in out["notes"]), out["notes"]
    assert out["raw"]["kv_bytes_per_token"] == str(2 * 40 * 8 * 128 * 2)


def test_a_pasted_config_is_emptied_by_a_field_set_after_it():
    from llm_inference.models import CATALOGUE
    import json

    config = json.dumps(CATALOGUE["llama-3.1-70b"].config)
    r = KV.run([("config", config), ("layers", "40")])
    assert r.inputs["config"] == "" and r.inputs["model"] == "custom" and r.inputs["layers"] == 40
    assert r.inputs["heads"] == 64  # the rest of the 70B's shape stays
    assert any("that text is now empty" in n for n in r.notes)


def test_what_each_shared_field_carries_to_the_other_calculators():
    """A run's ``scenario``: a model that fills carries itself and its shape nothing; a model
    turned custom carries nothing and each field of the reader's shape itself; a pasted config
    carries itself and the model and shape nothing; an empty text nothing."""
    from llm_inference.models import CATALOGUE
    import json

    picked = KV.run([("model", "llama-3.1-70b"), ("context", "65536")]).scenario
    assert picked["model"] == "llama-3.1-70b" and picked["context"] == "65536"
    assert picked["layers"] is None and picked["heads"] is None and picked["config"] is None
    custom = KV.run([("model", "llama-3.1-70b"), ("layers", "40")]).scenario
    assert custom["model"] is None and custom["layers"] == "40" and custom["heads"] == "64"
    config = json.dumps(CATALOGUE["llama-3.1-70b"].config)
    pasted = KV.run([("config", config)]).scenario
    assert pasted["config"] == config and pasted["model"] is None and pasted["layers"] is None
    # every shared field is there, by its scenario name, and nothing else
    assert set(picked) == {p.scenario for p in KV.params if p.scenario}
    assert course_calculators.run("kv-cache", {"layers": "40"})["scenario"]["layers"] == "40"


# -- one setting, every path ---------------------------------------------------------------------

def _markdown(text: str) -> str:
    fences = fence.PageFences()
    fences.start("page.md")
    state = figures.PageFigures()
    state.start("page.md", text)
    md = markdown.Markdown(extensions=["pymdownx.superfences", figures.FiguresExtension(lambda: state)],
                           extension_configs={"pymdownx.superfences": {"custom_fences": [
                               {"name": "calculator", "class": "calculator", "format": fences.formatter,
                                "validator": fences.validator}]}})
    return md.convert(fence.expand_headers(text))


def _outputs(html_text: str, attribute: str = "data-output") -> dict[str, str]:
    return {m[1]: html.unescape(m[2]) for m in re.finditer(rf'{attribute}="([a-z_]+)" data-value="([^"]*)"', html_text)}


def by_fence(setting: Setting) -> dict[str, str]:
    body = "\n".join(f"{name}: {value}" for name, value in setting.pairs())
    return _outputs(_markdown(f"```calculator kv-cache\n{body}\n```\n"))


def by_fence_pin(setting: Setting) -> dict[str, str]:
    return _outputs(_markdown(f"```calculator kv-cache\npin: {setting.text()}\n```\n"), "data-pinned")


def by_figure(setting: Setting) -> dict[str, str]:
    words = "" if setting.is_default else " " + setting.text()
    text = " ".join(f"{{calc kv-cache {name}{words}}}" for name in OUTPUTS)
    return {m[1]: m[2] for m in re.finditer(r'data-output="([a-z_]+)" data-value="([^"]*)"', _markdown(text))}


def by_pin(setting: Setting) -> dict[str, str]:
    live = KV.run({})
    return {name: out["raw"] for name, out in compare.compare(KV, live, setting.query())["outputs"].items()}


def by_link(setting: Setting, base: Setting) -> dict[str, str]:
    """The chapter widget whose fence is ``base``, opened from its address: the keys the address
    bar carries (the result's ``changed``) over the widget's base."""
    state = KV.run(setting.strict_inputs(KV)).inputs  # what the reader set up on the page
    changed = KV.run(state, base=base).changed
    return course_calculators.run("kv-cache", {"base": base.query(), **changed})["raw"]


def by_embed_set(setting: Setting) -> dict[str, str]:
    """An embed page's widget (no fence): every field as its form holds it, then a ``set``
    message's values (the pin's pairs), which the form sends last."""
    form = {name: KV.param_map[name].encode(value) for name, value in KV.defaults().items()}
    values = dict(Setting.from_query(KV.run(setting.strict_inputs(KV)).pin).values)
    return course_calculators.run("kv-cache", {**{k: v for k, v in form.items() if k not in values}, **values})["raw"]


SETTINGS = {
    "a filled field": "layers=40",
    "a filled field with its model custom": "model=custom layers=40 kv_heads=4",
    "a preset with overrides": "preset=llama3-70b context=131072 concurrency=4",
    "a preset and a model": "preset=llama3-8b-128k model=llama-3.1-405b",
}


@pytest.mark.parametrize("text", SETTINGS.values(), ids=SETTINGS.keys())
def test_one_setting_gives_the_same_numbers_by_every_path(text):
    setting = Setting.from_text(text)
    expected = KV.run(setting.strict_inputs(KV)).raw
    want = {name: expected[name] for name in OUTPUTS}
    fence_base = Setting.from_text("preset=deepseek-v3-mla")  # a widget whose fence set something else
    paths = {
        "fence": by_fence(setting),
        "fence pin: line": by_fence_pin(setting),
        "inline figure": by_figure(setting),
        "pin in a link": by_pin(setting),
        "link over the fence's base": by_link(setting, fence_base),
        "link over no fence": by_link(setting, Setting()),
        "embed set": by_embed_set(setting),
    }
    for path, got in paths.items():
        assert {name: got[name] for name in OUTPUTS} == want, path


def test_a_pin_gives_the_numbers_it_was_pinned_at_by_every_path():
    """The Pin button pins a result's ``pin``: read back by every path, the numbers it was pinned at
    (a shape the reader made from the 70B: the pin carries every field that differs from the defaults)."""
    live = KV.run([("model", "llama-3.1-70b"), ("layers", "40"), ("context", "65536")])
    assert live.pin.startswith("model=custom&layers=40&") and "heads=64" in live.pin
    pin = Setting.from_query(live.pin)
    want = {name: live.raw[name] for name in OUTPUTS}
    paths = {"fence": by_fence(pin), "fence pin: line": by_fence_pin(pin), "inline figure": by_figure(pin),
             "pin in a link": by_pin(pin), "embed set": by_embed_set(pin), "link": by_link(pin, Setting()),
             "link over a fence": by_link(pin, Setting.from_text("preset=gpt3-mha"))}
    for path, got in paths.items():
        assert {name: got[name] for name in OUTPUTS} == want, path


def test_a_fence_that_sets_a_field_beside_its_model_fails_naming_both_lines():
    with pytest.raises(fence.FenceError) as caught:
        _markdown("intro\n\n```calculator kv-cache\nmodel: llama-3.1-8b\ncontext: 4096\nlayers: 40\n```\n")
    message = str(caught.value)
    assert message.startswith("page.md:6: calculator 'kv-cache': layers: 40 is set beside model: llama-3.1-8b")
    assert "which fills it with 32" in message and "model is set on line 4" in message


def test_a_fence_whose_preset_sets_the_model_fails_on_a_field_beside_it():
    with pytest.raises(fence.FenceError, match=r"page.md:3: .*kv_heads: 4 is set beside model: llama-3.1-70b.*"
                                               r"model is set by preset 'llama3-70b'"):
        _markdown("```calculator kv-cache\npreset: llama3-70b\nkv_heads: 4\n```\n")


def test_a_figure_that_sets_a_field_beside_its_model_fails_the_build():
    with pytest.raises(figures.FigureError, match="layers: 40 is set beside model: llama-3.1-70b"):
        _markdown("{calc kv-cache kv_bytes_per_token model=llama-3.1-70b layers=40}")


# -- what a run returns: its pin, and what changed against its base -------------------------------

def test_a_run_applies_its_inputs_over_its_base_and_says_what_changed():
    base = "preset=llama3-8b-128k"
    out = course_calculators.run("kv-cache", {"base": base, "concurrency": "2"})
    assert out["inputs"]["context"] == 131072 and out["inputs"]["concurrency"] == 2
    assert out["changed"] == {"concurrency": "2"}
    assert out["pin"] == "context=131072&concurrency=2"  # against the defaults
    # Back to the calculator's default context on a page whose fence set 128K: the address says so.
    out = course_calculators.run("kv-cache", {"base": base, "context": "8192"})
    assert out["changed"] == {"context": "8192"} and out["pin"] == DEFAULT
    assert course_calculators.run("kv-cache", {"base": base})["changed"] == {}
    assert course_calculators.run("kv-cache", {"base": "default"})["changed"] == {}


def test_a_full_form_reproduces_its_base_and_changes_nothing():
    base = Setting.from_text("preset=deepseek-v3-mla")
    form = {k: KV.param_map[k].encode(v) for k, v in KV.run(base=base).inputs.items()}
    out = course_calculators.run("kv-cache", {"base": base.query(), **form})
    assert out["changed"] == {} and not [n for n in out["notes"] if "set beside" in n]


def test_a_model_set_after_a_pasted_config_empties_it():
    from llm_inference.models import CATALOGUE
    import json

    config = json.dumps(CATALOGUE["llama-3.1-70b"].config)
    r = KV.run([("config", config), ("model", "qwen2.5-7b")])
    assert r.inputs["config"] == "" and r.inputs["model"] == "qwen2.5-7b"
    assert r.inputs["layers"] == KV.run({"model": "qwen2.5-7b"}).inputs["layers"]
    assert any("that text is now empty" in n for n in r.notes)
    with pytest.raises(SpecError, match="model: llama-3.1-8b is set before config"):
        KV.check_overrides([("model", "llama-3.1-8b"), ("config", config)])
