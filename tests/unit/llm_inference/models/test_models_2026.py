"""The open-weight models of 2026 (issue 34, items 4-5): the library against a derivation by hand.

fixtures_2026/ holds each model's published config.json (and hf_quant_config.json where the
checkpoint keeps it apart), sources.json with their URLs and the public vLLM startup logs found,
and by_hand.py: KV bytes a 128K sequence and weight bytes derived from each config by plain
arithmetic, written without the library, citing the vLLM model file behind each fact.

The library, given the same config pasted whole (the quantization file's content merged in as
``quantization_config``, the way the kv-cache calculator reads a pasted hf_quant_config.json), and
by name from the picker, must agree within 2 %. Where it cannot yet, the test is a strict xfail
naming what is missing, so it passes today and flips when the support lands.
"""

from __future__ import annotations

import json

import pytest

from .fixtures_2026.by_hand import (
    CONTEXT, FIXTURES, config, deepseek_v4_kv, deepseek_v4_weights, gemma4_kv, gemma4_weights, glm5_indexed_layers,
    glm5_weights, kimi_k2_kv, kimi_k2_weights, minimax_m2_kv, minimax_m2_weights, minimax_m3_kv, minimax_m3_weights,
    mimo_v2_kv, mimo_v2_weights,
    fp8_tensor, mla_kv, nemotron_h_kv, nemotron_h_weights, nvfp4, qwen35_kv, qwen35_weights, text,
)

GiB = 2**30
TOLERANCE = 0.02


# -- the table: each checkpoint with its figures -----------------------------------------------------

V4_FLASH, V4_PRO = config("deepseek-ai--DeepSeek-V4-Flash"), config("deepseek-ai--DeepSeek-V4-Pro")
GLM5, GLM51, GLM52 = config("zai-org--GLM-5"), config("zai-org--GLM-5.1"), config("zai-org--GLM-5.2")
KIMI_K25 = text(config("moonshotai--Kimi-K2.5"))
GLM5_NVFP4, GLM51_NVFP4 = config("nvidia--GLM-5-NVFP4"), config("nvidia--GLM-5.1-NVFP4")
GLM52_NVFP4 = config("nvidia--GLM-5.2-NVFP4")

#: fixture -> (KV bytes a 128K sequence, weight bytes), each derived in by_hand.py from that fixture.
#: The KV is at vLLM's default dtype even where an NVIDIA release carries an fp8 kv_cache_scheme
#: (vLLM caches fp8 only when --kv-cache-dtype asks; DeepSeek-V4 always does).
DERIVED: dict[str, tuple[int, int]] = {
    "deepseek-ai--DeepSeek-V4-Flash": (deepseek_v4_kv(V4_FLASH), deepseek_v4_weights(V4_FLASH)),
    "deepseek-ai--DeepSeek-V4-Pro": (deepseek_v4_kv(V4_PRO), deepseek_v4_weights(V4_PRO)),
    "nvidia--DeepSeek-V4-Flash-NVFP4": (deepseek_v4_kv(config("nvidia--DeepSeek-V4-Flash-NVFP4")),
                                        deepseek_v4_weights(config("nvidia--DeepSeek-V4-Flash-NVFP4"), "nvfp4")),
    "nvidia--DeepSeek-V4-Pro-NVFP4": (deepseek_v4_kv(config("nvidia--DeepSeek-V4-Pro-NVFP4")),
                                      deepseek_v4_weights(config("nvidia--DeepSeek-V4-Pro-NVFP4"), "nvfp4")),
    "zai-org--GLM-5": (mla_kv(GLM5, glm5_indexed_layers(GLM5)), glm5_weights(GLM5)),
    "zai-org--GLM-5-FP8": (mla_kv(GLM5, glm5_indexed_layers(GLM5)), glm5_weights(GLM5, "fp8")),
    "zai-org--GLM-5.1": (mla_kv(GLM51, glm5_indexed_layers(GLM51)), glm5_weights(GLM51)),
    "zai-org--GLM-5.1-FP8": (mla_kv(GLM51, glm5_indexed_layers(GLM51)), glm5_weights(GLM51, "fp8")),
    "zai-org--GLM-5.2": (mla_kv(GLM52, glm5_indexed_layers(GLM52)), glm5_weights(GLM52)),
    "zai-org--GLM-5.2-FP8": (mla_kv(GLM52, glm5_indexed_layers(GLM52)), glm5_weights(GLM52, "fp8")),
    "moonshotai--Kimi-K2.5": (kimi_k2_kv(KIMI_K25), kimi_k2_weights(KIMI_K25)),
    "nvidia--Gemma-4-31B-IT-NVFP4": (gemma4_kv(config("nvidia--Gemma-4-31B-IT-NVFP4")),
                                     gemma4_weights(config("nvidia--Gemma-4-31B-IT-NVFP4"), "nvfp4")),
    "google--gemma-4-26B-A4B": (gemma4_kv(config("google--gemma-4-26B-A4B")),
                                gemma4_weights(config("google--gemma-4-26B-A4B"))),
    "Qwen--Qwen3.5-27B": (qwen35_kv(config("Qwen--Qwen3.5-27B")), qwen35_weights(config("Qwen--Qwen3.5-27B"))),
    "Qwen--Qwen3.5-35B-A3B": (qwen35_kv(config("Qwen--Qwen3.5-35B-A3B")),
                              qwen35_weights(config("Qwen--Qwen3.5-35B-A3B"))),
    "Qwen--Qwen3.5-122B-A10B": (qwen35_kv(config("Qwen--Qwen3.5-122B-A10B")),
                                qwen35_weights(config("Qwen--Qwen3.5-122B-A10B"))),
    "Qwen--Qwen3.5-397B-A17B": (qwen35_kv(config("Qwen--Qwen3.5-397B-A17B")),
                                qwen35_weights(config("Qwen--Qwen3.5-397B-A17B"))),
    "MiniMaxAI--MiniMax-M2.7": (minimax_m2_kv(config("MiniMaxAI--MiniMax-M2.7")),
                                minimax_m2_weights(config("MiniMaxAI--MiniMax-M2.7"))),
    "XiaomiMiMo--MiMo-V2-Flash": (mimo_v2_kv(config("XiaomiMiMo--MiMo-V2-Flash")),
                                  mimo_v2_weights(config("XiaomiMiMo--MiMo-V2-Flash"))),
    "MiniMaxAI--MiniMax-M3": (minimax_m3_kv(config("MiniMaxAI--MiniMax-M3")),
                              minimax_m3_weights(config("MiniMaxAI--MiniMax-M3"))),
    "nvidia--GLM-5-NVFP4": (mla_kv(GLM5_NVFP4, glm5_indexed_layers(GLM5_NVFP4)),
                            glm5_weights(GLM5_NVFP4, nvfp4_parts=("dense", "experts", "shared"))),
    "nvidia--GLM-5.2-NVFP4": (mla_kv(GLM52_NVFP4, glm5_indexed_layers(GLM52_NVFP4)),
                              glm5_weights(GLM52_NVFP4, nvfp4_parts=("experts",))),
    "nvidia--Kimi-K2.5-NVFP4": (kimi_k2_kv(text(config("nvidia--Kimi-K2.5-NVFP4"))),
                                kimi_k2_weights(text(config("nvidia--Kimi-K2.5-NVFP4")), "nvfp4", ("dense", "shared"))),
    "nvidia--Kimi-K2.6-NVFP4": (kimi_k2_kv(text(config("nvidia--Kimi-K2.6-NVFP4"))),
                                kimi_k2_weights(text(config("nvidia--Kimi-K2.6-NVFP4")), "nvfp4")),
    "nvidia--Gemma-4-26B-A4B-NVFP4": (gemma4_kv(config("nvidia--Gemma-4-26B-A4B-NVFP4")),
                                      gemma4_weights(config("nvidia--Gemma-4-26B-A4B-NVFP4"), "nvfp4", "bf16")),
    "nvidia--Qwen3.5-122B-A10B-NVFP4": (qwen35_kv(config("nvidia--Qwen3.5-122B-A10B-NVFP4")),
                                        qwen35_weights(config("nvidia--Qwen3.5-122B-A10B-NVFP4"), "nvfp4")),
    "nvidia--Qwen3.5-397B-A17B-NVFP4": (qwen35_kv(config("nvidia--Qwen3.5-397B-A17B-NVFP4")),
                                        qwen35_weights(config("nvidia--Qwen3.5-397B-A17B-NVFP4"), "nvfp4")),
    "nvidia--MiniMax-M2.7-NVFP4": (minimax_m2_kv(config("nvidia--MiniMax-M2.7-NVFP4")),
                                   minimax_m2_weights(config("nvidia--MiniMax-M2.7-NVFP4"), "nvfp4")),
    "nvidia--NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16": (
        nemotron_h_kv(config("nvidia--NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16")),
        nemotron_h_weights(config("nvidia--NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16"))),
    "nvidia--NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4": (
        nemotron_h_kv(config("nvidia--NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4")),
        nemotron_h_weights(config("nvidia--NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4"),
                           {"mamba_proj": fp8_tensor, "experts": nvfp4, "shared": nvfp4, "lm_head": nvfp4})),
    "nvidia--GLM-5.1-NVFP4": (mla_kv(GLM51_NVFP4, glm5_indexed_layers(GLM51_NVFP4)),
                              glm5_weights(GLM51_NVFP4, nvfp4_parts=("experts",))),
}

#: The releases whose weights are not derived (their hf_quant_config.json names no excluded module
#: while NVIDIA describes a hybrid recipe): their KV only, the BF16 release's.
KV_ONLY: dict[str, int] = {
    "nvidia--NVIDIA-Nemotron-3-Ultra-550B-A55B-FP8": DERIVED["nvidia--NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16"][0],
    "nvidia--NVIDIA-Nemotron-3-Ultra-550B-A55B-NVFP4": DERIVED["nvidia--NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16"][0],
}


def test_the_derivations_give_the_issues_rough_figures():
    """Issue 34 quotes these from its own reckoning; the derivations refine them (GiB)."""
    gib = {name: (kv / GiB, w / GiB) for name, (kv, w) in DERIVED.items()}
    assert gib["deepseek-ai--DeepSeek-V4-Flash"] == pytest.approx((0.47, 145), rel=0.01)
    assert gib["deepseek-ai--DeepSeek-V4-Pro"] == pytest.approx((0.68, 792), rel=0.01)
    assert gib["moonshotai--Kimi-K2.5"][1] == pytest.approx(553, rel=0.002)
    assert gib["nvidia--Gemma-4-31B-IT-NVFP4"] == pytest.approx((10.8, 29.3), rel=0.002)
    # GLM-5.2 keeps the indexer on 21 of 78 layers: reading it on all 78 adds 8 %.
    assert config("zai-org--GLM-5.2")["indexer_types"].count("full") == 21
    assert gib["zai-org--GLM-5"][0] / gib["zai-org--GLM-5.2"][0] == pytest.approx(1.08, abs=0.005)


def test_the_pinned_figures():
    """The derivations' results written out, so a change to a derivation is seen (bytes)."""
    assert {name: figures for name, figures in DERIVED.items()} == PINNED


PINNED = {
    "deepseek-ai--DeepSeek-V4-Flash": (507874304, 156006400732),
    "deepseek-ai--DeepSeek-V4-Pro": (726955008, 850738912204),
    "nvidia--DeepSeek-V4-Flash-NVFP4": (507874304, 164663708380),
    "nvidia--DeepSeek-V4-Pro-NVFP4": (726955008, 899095605196),
    "zai-org--GLM-5": (13127122944, 1487822475264),
    "zai-org--GLM-5-FP8": (13127122944, 746130054912),
    "zai-org--GLM-5.1": (13127122944, 1487822475264),
    "zai-org--GLM-5.1-FP8": (13127122944, 746130054912),
    "zai-org--GLM-5.2": (12140937216, 1486754078208),
    "zai-org--GLM-5.2-FP8": (12140937216, 745584507456),
    "moonshotai--Kimi-K2.5": (9210691584, 594205904896),
    "nvidia--Gemma-4-31B-IT-NVFP4": (11576279040, 31481767960),
    "google--gemma-4-26B-A4B": (2894069760, 50466283580),
    "Qwen--Qwen3.5-27B": (8589934592, 53791996928),
    "Qwen--Qwen3.5-35B-A3B": (2684354560, 69321221376),
    "Qwen--Qwen3.5-122B-A10B": (3221225472, 244223053824),
    "Qwen--Qwen3.5-397B-A17B": (4026531840, 792692700672),
    "MiniMaxAI--MiniMax-M2.7": (33285996544, 230024113152),
    "XiaomiMiMo--MiMo-V2-Flash": (3045457920, 310153446528),
    "MiniMaxAI--MiniMax-M3": (18018729984, 852438813696),
    "nvidia--GLM-5-NVFP4": (13127122944, 440911290192),
    "nvidia--GLM-5.2-NVFP4": (12140937216, 444889425408),
    "nvidia--Kimi-K2.5-NVFP4": (9210691584, 589837669816),
    "nvidia--Kimi-K2.6-NVFP4": (9210691584, 594205904896),
    "nvidia--Gemma-4-26B-A4B-NVFP4": (2894069760, 17636771900),
    "nvidia--Qwen3.5-122B-A10B-NVFP4": (3221225472, 77524930560),
    "nvidia--Qwen3.5-397B-A17B-NVFP4": (4026531840, 237032044032),
    "nvidia--MiniMax-M2.7-NVFP4": (33285996544, 134401757184),
    "nvidia--NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16": (1610612736, 1098617987072),
    "nvidia--NVIDIA-Nemotron-3.5-Lightning-30B-A3B-NVFP4": (805306368, 18873128296),
    "nvidia--GLM-5.1-NVFP4": (13127122944, 445957822464),
}


# -- the library, given the same config ------------------------------------------------------------

def pasted(name: str) -> str:
    """The config as a reader pastes it, with its hf_quant_config.json merged in as
    ``quantization_config`` when the checkpoint keeps it apart."""
    cfg = config(name)
    quant = FIXTURES / f"{name}.hf_quant_config.json"
    if quant.exists() and "quantization_config" not in cfg and "quantization_config" not in text(cfg):
        cfg["quantization_config"] = json.loads(quant.read_text())
    return json.dumps(cfg)


#: The models whose cache vLLM keeps in fp8 only (DeepSeek-V4): the reader must ask for it.
FP8_ONLY = ("deepseek-ai--DeepSeek-V4-Flash", "deepseek-ai--DeepSeek-V4-Pro", "nvidia--DeepSeek-V4-Flash-NVFP4",
            "nvidia--DeepSeek-V4-Pro-NVFP4")


def kv_dtype(name: str) -> dict:
    return {"kv_dtype": "fp8"} if name in FP8_ONLY else {}


def library(name: str) -> dict:
    """kv-cache's values for the pasted config on 8 × H200 at 128K, text only (every multimodal
    limit at 0, so vLLM loads no vision tower)."""
    from llm_inference.kv_cache import SPEC
    r = SPEC.run({"config": pasted(name), "gpu": "h200", "gpus": 8, "context": CONTEXT,
                  "image_limit": 0, "video_limit": 0, **kv_dtype(name)})
    return dict(r.values)


def test_deepseek_v4_refuses_a_cache_dtype_vllm_refuses():
    """Left at bf16, nothing is computed and the note names the flag that works."""
    from llm_inference.kv_cache import SPEC
    r = SPEC.run({"config": pasted("deepseek-ai--DeepSeek-V4-Flash"), "gpu": "h200", "gpus": 8})
    assert all(v is None for v in r.values.values())
    assert any("fp8" in n and "Nothing is computed" in n for n in r.notes), r.notes


#: What the library cannot do yet, per fixture and figure: the reason a strict xfail names.
MISSING: dict[tuple[str, str], str] = {}


def _case(name: str, figure: str):
    reason = MISSING.get((name, figure))
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason else []
    return pytest.param(name, figure, id=f"{name}-{figure}", marks=marks)


CASES = ([_case(n, f) for n in DERIVED for f in ("kv", "weights")]
         + [_case(n, "kv") for n in KV_ONLY])


@pytest.mark.parametrize(("name", "figure"), CASES)
def test_the_library_agrees_with_the_derivation(name, figure):
    expected = (DERIVED[name][0] if figure == "kv" else DERIVED[name][1]) if name in DERIVED else KV_ONLY[name]
    got = library(name).get("kv_bytes_per_sequence" if figure == "kv" else "weight_bytes")
    assert got is not None, "no figure: refused"
    assert got == pytest.approx(expected, rel=TOLERANCE)


# -- the evidence: the fixtures are the published files, and what the logs printed --------------------

SOURCES = json.loads((FIXTURES / "sources.json").read_text())


def git_blob(data: bytes) -> str:
    import hashlib
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def test_every_fixture_is_the_published_file_byte_for_byte():
    saved = {p.name for p in FIXTURES.glob("*.json")} - {"sources.json"}
    assert saved == set(SOURCES["fixtures"])
    for name, source in SOURCES["fixtures"].items():
        assert git_blob((FIXTURES / name).read_bytes()) == source["git_blob"], name
        assert source["url"].startswith("https://github.com/ai-dynamo/aiconfigurator/blob/")


def test_a_logged_kv_requirement_matches_the_derivation():
    """vLLM prints the KV one max-length request needs on each GPU; with the KV heads split over the
    tensor-parallel ranks that is the derivation scaled to the length, divided by TP."""
    checks = [log["check"] for log in SOURCES["logs"] if "check" in log]
    assert checks
    derive = {"MiniMaxAI--MiniMax-M2.7.json": minimax_m2_kv}
    for check in checks:
        per_gpu = derive[check["fixture"]](config(check["fixture"][:-5])) * check["max_model_len"] / CONTEXT
        per_gpu /= check["tensor_parallel"]
        assert per_gpu / GiB == pytest.approx(check["kv_gib_needed"], abs=0.005)


# -- the same figures by name from the picker -------------------------------------------------------

def _hf_repo(name: str) -> str:
    return SOURCES["fixtures"][f"{name}.json"]["published_as"].split("huggingface.co/")[1].split("/blob/")[0]


def catalogue_id(name: str) -> str | None:
    """The catalogue entry that stands for this published checkpoint: the one whose source is its
    config.json on Hugging Face."""
    from llm_inference.models import CATALOGUE
    url = f"https://huggingface.co/{_hf_repo(name)}/blob/main/config.json"
    found = [model_id for model_id, entry in CATALOGUE.items() if entry.source.url == url]
    assert len(found) <= 1, found
    return found[0] if found else None


def _shipped_quantization(name: str) -> dict | None:
    """The checkpoint's quantization as vLLM reads it: config.json's quantization_config (at either
    level), else its hf_quant_config.json."""
    cfg = config(name)
    inner = cfg.get("quantization_config") or text(cfg).get("quantization_config")
    if inner is not None:
        return inner
    quant = FIXTURES / f"{name}.hf_quant_config.json"
    return json.loads(quant.read_text()) if quant.exists() else None


def _canonical(value):
    """Lists of module names compared as sets (their order means nothing to vLLM)."""
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        items = [_canonical(v) for v in value]
        return sorted(items) if all(isinstance(v, str) for v in items) else items
    return value


#: The checkpoints the picker does not hold by name yet (issue 34, item 4), each with its reason.
NOT_IN_CATALOGUE: dict[str, str] = {}


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=[pytest.mark.xfail(strict=True, reason=NOT_IN_CATALOGUE[n])] if n in NOT_IN_CATALOGUE
                 else []) for n in DERIVED])
def test_the_picker_gives_the_derived_figures_by_name(name):
    from llm_inference.kv_cache import SPEC
    from llm_inference.models import CATALOGUE
    model_id = catalogue_id(name)
    assert model_id is not None, "no catalogue entry holds this config"
    # The entry holds the published config (fields that change nothing may be left out) and the
    # quantization as shipped, name for name.
    entry, published = CATALOGUE[model_id].config, config(name)
    for key in set(entry) - {"quantization_config"}:
        if key == "text_config":
            assert {k: v for k, v in entry[key].items() if k != "quantization_config"} == {
                k: published[key][k] for k in entry[key] if k != "quantization_config"}
        else:
            assert entry[key] == published[key], key
    shipped = entry.get("quantization_config") or entry.get("text_config", {}).get("quantization_config")
    expected = _shipped_quantization(name)
    if expected is not None and "quant_method" not in expected:
        expected = {"quant_method": "modelopt", **expected}
    assert _canonical(shipped) == _canonical(expected)
    r = SPEC.run({"model": model_id, "gpu": "h200", "gpus": 8, "context": CONTEXT, "image_limit": 0, "video_limit": 0,
                  **kv_dtype(name)})
    assert r.values["kv_bytes_per_sequence"] == pytest.approx(DERIVED[name][0], rel=TOLERANCE)
    assert r.values["weight_bytes"] == pytest.approx(DERIVED[name][1], rel=TOLERANCE)


def test_the_catalogue_holds_the_published_configs():
    """The entries written by rule (per-layer lists, ignore patterns) hold the published files' values;
    GLM-5.2-FP8's modules_to_not_convert the same names in another order."""
    from llm_inference.models import CATALOGUE
    for model_id, name in (("glm-5.2", "zai-org--GLM-5.2"), ("glm-5.2-nvfp4", "nvidia--GLM-5.2-NVFP4"),
                           ("gemma-4-31b-nvfp4", "nvidia--Gemma-4-31B-IT-NVFP4")):
        assert CATALOGUE[model_id].config == config(name), model_id
    entry, published = CATALOGUE["glm-5.2-fp8"].config, config("zai-org--GLM-5.2-FP8")
    ours, theirs = dict(entry["quantization_config"]), dict(published["quantization_config"])
    assert sorted(ours.pop("modules_to_not_convert")) == sorted(theirs.pop("modules_to_not_convert"))
    assert ours == theirs
    assert {k: v for k, v in entry.items() if k != "quantization_config"} == {
        k: v for k, v in published.items() if k != "quantization_config"}


# -- what the 2 % hides: where the derivations and the library agree closely, they must ---------------

CLOSE = 0.005
HIDDEN_BY_TOLERANCE: dict[str, str] = {}  # none today: each gap the 2 % hid is read now


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=[pytest.mark.xfail(strict=True, reason=HIDDEN_BY_TOLERANCE[n])] if n in HIDDEN_BY_TOLERANCE
                 else [])
    for n in DERIVED if (n, "weights") not in MISSING])
def test_the_weights_agree_within_half_a_percent(name):
    """The derivations match the library's placement exactly where both read the config alike (GLM-5
    bf16 and NVFP4); a gap of a percent is a missed tensor, not rounding."""
    assert library(name)["weight_bytes"] == pytest.approx(DERIVED[name][1], rel=CLOSE)


@pytest.mark.parametrize("name, kind", [("nvidia--NVIDIA-Nemotron-3-Ultra-550B-A55B-FP8", "fp8"),
                                        ("nvidia--NVIDIA-Nemotron-3-Ultra-550B-A55B-NVFP4", "nvfp4")])
def test_nemotron_3_ultra_quantized_releases_load_as_vllm_reads_a_file_without_exclusions(name, kind):
    """Their hf_quant_config.json names no excluded module: vLLM's ModelOpt config then quantizes
    every Linear layer built with the quant_config, the LM head and the routed experts
    (ModelOptQuantConfigBase.get_quant_method, modelopt.py); nemotron_h.py builds the router with
    quant_config=None, and MambaMixer2's conv1d is built with quant_config=None (mamba_mixer2.py).
    The KV (attention layers only) is the BF16 release's, by name as pasted."""
    from llm_inference.kv_cache import SPEC
    from llm_inference.models import CATALOGUE, catalogue_shape
    from llm_inference.models.params import EMBEDDING, NORMS_BIASES, ROUTER
    model_id = catalogue_id(name)
    assert model_id == {"fp8": "nemotron-3-ultra-550b-a55b-fp8", "nvfp4": "nemotron-3-ultra-550b-a55b-nvfp4"}[kind]
    shape = catalogue_shape(model_id)
    kinds: dict[str, set] = {}
    for t in shape.tensors:
        kinds.setdefault(t.group, set()).add(shape.quantization.spec_for(t).kind
                                             if t.is_linear and not t.module.endswith("conv1d") else "-")
    for group, found in kinds.items():
        if group in (EMBEDDING, ROUTER, NORMS_BIASES):
            assert found <= {"dense", "-"}, group
        else:
            assert kind in found and "dense" not in found, (group, found)
    conv = [shape.quantization.spec_for(t).kind for t in shape.tensors if t.module.endswith("conv1d")]
    assert conv and set(conv) == {"dense"}
    r = SPEC.run({"model": model_id, "gpu": "h200", "gpus": 8, "context": CONTEXT})
    assert r.values["kv_bytes_per_sequence"] == pytest.approx(KV_ONLY[name], rel=TOLERANCE)
    assert CATALOGUE[model_id].notes.startswith("every Linear layer")


# -- NVIDIA's MiniMax-M3-NVFP4: its config (3.1 MB) is not saved; the entry writes it by rule ----------

def test_minimax_m3_nvfp4_entry_holds_the_published_values():
    """The entry's keys hold the published file's values (its 22,422 quantized_layers and 62 excluded
    modules written by rule): their canonical hash is the one sources.json records from the file
    (aiconfigurator @ 095f58a5, git blob 19e336f6)."""
    import hashlib

    from llm_inference.models import CATALOGUE
    entry = CATALOGUE[catalogue_id_of("nvidia/MiniMax-M3-NVFP4")].config
    assert len(entry["quantization_config"]["quantized_layers"]) == 22422
    assert len(entry["quantization_config"]["exclude_modules"]) == 62
    digest = hashlib.sha256(json.dumps(_canonical(entry), sort_keys=True).encode()).hexdigest()
    assert digest == SOURCES["not_saved"]["nvidia--MiniMax-M3-NVFP4"]["catalogue_keys_sha256"]


def catalogue_id_of(hf_repo: str) -> str:
    from llm_inference.models import CATALOGUE
    url = f"https://huggingface.co/{hf_repo}/blob/main/config.json"
    found = [model_id for model_id, entry in CATALOGUE.items() if entry.source.url == url]
    assert len(found) == 1, found
    return found[0]


def test_minimax_m3_nvfp4_by_name_gives_the_derivation_by_hand():
    """NVFP4 routed experts, MXFP8 (an e8m0 scale per 32) attention, index projections, shared experts
    and dense MLPs, as by_hand.minimax_m3_weights(..., "nvidia") derives them from the bf16 config's
    text fields (the same in both files but the MTP count); the KV is the bf16 release's."""
    from llm_inference.kv_cache import SPEC
    m3 = config("MiniMaxAI--MiniMax-M3")
    r = SPEC.run({"model": catalogue_id_of("nvidia/MiniMax-M3-NVFP4"), "gpu": "h200", "gpus": 8, "context": CONTEXT,
                  "image_limit": 0, "video_limit": 0})
    assert r.values["kv_bytes_per_sequence"] == pytest.approx(minimax_m3_kv(m3), rel=TOLERANCE)
    assert r.values["weight_bytes"] == pytest.approx(minimax_m3_weights(m3, "nvidia"), rel=CLOSE)
    assert minimax_m3_weights(m3, "nvidia") == 248_357_099_520  # 231.3 GiB
