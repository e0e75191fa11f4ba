"""Weight formats as classes (llm_inference.physics.formats): each owns its storage with scales, its
words, its MoE form and how vLLM holds it; the registry names a class for every kind a reader emits;
and the contributor's recipe for a new format matches the code."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest

from llm_inference.models import catalogue_shape
from llm_inference.models.catalogue import CATALOGUE
from llm_inference.models.quantization import FORMAT_IDS, SHIPPED, WeightSpec, format_scheme
from llm_inference.physics import formats
from llm_inference.physics.formats import (FORMATS, METHOD_FORMATS, Dense, Format, Fp8, IntGroup, Mxfp4, Nf4,
                                           Nvfp4, Storage, bits_per_weight, format_of)
from llm_inference.physics.moe_formats import PaddedExperts
from llm_inference.physics.weights import WeightPlan

ROOT = Path(__file__).resolve().parents[4]


def _schemes():
    """Every scheme the catalogue ships and every format a reader may choose."""
    for model_id in CATALOGUE:
        yield catalogue_shape(model_id).quantization
    for fid in FORMAT_IDS:
        if fid != SHIPPED:
            yield format_scheme(fid)
    from llm_inference.models.quantization import read_quantization

    yield read_quantization(V4_FLASH)
    yield read_quantization({**V4_FLASH, "quantization_config": {**V4_FLASH["quantization_config"],
                                                                 "moe_quant_algo": "NVFP4"}})


def _specs(scheme):
    yield from (s for s in (scheme.linear, scheme.experts) if s is not None)
    yield from (s for _, s in scheme.groups)
    yield from (s for _, s in scheme.layers)


# -- the registry -----------------------------------------------------------------------------------

def test_every_kind_a_reader_emits_names_a_registered_class():
    seen = set()
    for scheme in _schemes():
        if scheme.unsupported:
            continue
        assert scheme.method in METHOD_FORMATS, scheme.method
        allowed = {cls.kind for cls in METHOD_FORMATS[scheme.method]}
        for spec in _specs(scheme):
            fmt = format_of(spec)
            assert type(fmt) is FORMATS[spec.kind] and fmt.kind == spec.kind
            assert spec.kind in allowed, (scheme.method, spec.kind)
            seen.add(spec.kind)
    assert seen == set(FORMATS) - {"dense"}  # every quantized class is used by some scheme


def test_format_of_refuses_an_unknown_kind():
    with pytest.raises(ValueError, match="no weight format class for kind 'mxfp6'"):
        format_of(WeightSpec("mxfp6"))


def test_dense_dtypes_are_the_checkpoints_own():
    assert format_of(WeightSpec("dense", dtype="float16")).label == "fp16"
    fp32 = format_of(WeightSpec("dense", dtype="float32"))
    assert fp32.tensor((3, 5)).total == 60 and not fp32.quantized and fp32.moe_form("none") == "bf16"


# -- each class's bytes, by hand ----------------------------------------------------------------------

@pytest.mark.parametrize("spec, bits", [
    # one fp32 per 128 × 128 block: 32 bits over 16,384 weights
    (WeightSpec("fp8", strategy="block", activations="fp8"), 8 + 32 / 16384),
    # DeepSeek-V4's ue8m0 block scales: one byte per block
    (WeightSpec("fp8", strategy="block", activations="fp8", scale="e8m0"), 8 + 8 / 16384),
    # one fp32 per output row of 4096 inputs
    (WeightSpec("fp8", strategy="channel"), 8 + 32 / 4096),
    # int4, a 16-bit scale and a 4-bit zero point per 128 inputs
    (WeightSpec("int", bits=4, group=128, zero_point=True), 4 + 20 / 128),
    (WeightSpec("mxfp4", bits=4, group=32), 4.25),
    # e4m3 and an e8m0 byte per 32
    (WeightSpec("mxfp8", bits=8, group=32), 8.25),
    # an fp8 scale per 16, two fp32 per 4096 × 4096 tensor
    (WeightSpec("nvfp4", bits=4, group=16), 4.5 + 64 / 4096 ** 2),
    # a byte absmax per 64 and an fp32 per 256 of them: 8/64 + 32/16384
    (WeightSpec("nf4", bits=4, group=64), 4 + 8 / 64 + 32 / 16384),
])
def test_bits_per_weight_with_scales(spec, bits):
    assert bits_per_weight(format_of(spec)) == pytest.approx(bits, rel=1e-12)


def test_each_class_owns_its_words_and_moe_form():
    expect = {
        WeightSpec("fp8", strategy="block", activations="fp8"):
            ("fp8", "fp8, 128×128-block fp32 scales", "fp8-block", "one fp32 per 128×128 block"),
        WeightSpec("fp8", strategy="block", activations="fp8", scale="e8m0"):
            ("fp8", "fp8, 128×128-block e8m0 scales", "fp8-block", "one e8m0 per 128×128 block"),
        WeightSpec("fp8", strategy="tensor", static_input=True, activations="fp8"):
            ("fp8", "fp8, per-tensor fp32 scales", "fp8-tensor", "one fp32 per tensor, an fp32 input scale"),
        WeightSpec("fp8", dtype="int8", strategy="channel", activations="int8"):
            ("int8", "int8, per-channel fp32 scales", "fp8", "one fp32 per output row"),
        WeightSpec("int", bits=4, group=128, zero_point=True):
            ("int4", "int4, group 128 + zero points", "int4", "one 16-bit scale per 128 inputs, a 4-bit zero point each"),
        WeightSpec("mxfp4", bits=4, group=32): ("mxfp4", "mxfp4 (e8m0 scale per 32)", "mxfp4", "one e8m0 byte per 32 inputs"),
        WeightSpec("nvfp4", bits=4, group=16, activations="fp4"):
            ("nvfp4", "nvfp4 (fp8 scale per 16)", "nvfp4", "one fp8 e4m3 per 16 inputs, two fp32 per tensor"),
        WeightSpec("mxfp8", bits=8, group=32): ("mxfp8", "mxfp8 (e8m0 scale per 32)", "mxfp8", "one e8m0 byte per 32 inputs"),
        WeightSpec("nf4", bits=4, group=64): ("nf4", "nf4 (absmax per 64)", "nf4", "one absmax per 64 (a byte, an fp32 per 256 of them)"),
    }
    for spec, (word, label, moe, scales) in expect.items():
        fmt = format_of(spec)
        assert (fmt.word, fmt.label, fmt.moe_form("x"), fmt.scales) == (word, label, moe, scales), spec
    assert format_of(WeightSpec("int", bits=4, group=128, zero_point=True)).moe_form("awq") == "awq"
    assert format_of(WeightSpec("int", bits=4, group=128, activations="int8")).moe_form("x") == "w8a8-int8"


def test_the_group_a_tensor_parallel_split_must_respect():
    assert format_of(WeightSpec("int", bits=4, group=128)).tp_group == 128
    assert format_of(WeightSpec("int", bits=8, group=-1)).tp_group == 0  # one scale per row: any split
    assert format_of(WeightSpec("nf4", bits=4, group=64)).tp_group == 64
    assert format_of(WeightSpec("mxfp8", bits=8, group=32)).tp_group == 32
    assert format_of(WeightSpec("fp8", strategy="block")).tp_group == 0  # vLLM pads fp8 blocks


# -- what vLLM holds on a GPU ---------------------------------------------------------------------------

def test_machete_holds_zero_points_as_16_bit_group_zeros_on_hopper():
    fmt = format_of(WeightSpec("int", bits=4, group=128, zero_point=True))
    rows, cols = 4096, 1024
    groups = cols // 128
    stored = rows * groups * 2 + rows * groups * 0.5
    assert fmt.held(rows, cols, "sm100").scales == stored
    assert fmt.held(rows, cols, "sm90").scales == rows * groups * 2 * 2  # scale + 16-bit zero
    assert fmt.notes_on("sm90") and not fmt.notes_on("sm100")


def test_nvfp4_scales_are_swizzled_and_padded_on_blackwell():
    fmt = format_of(WeightSpec("nvfp4", bits=4, group=16))
    rows, cols = 100, 80  # 5 scales a row: rows to 128, scale columns to 8
    assert fmt.held(rows, cols, "sm90") == Storage(4000, 500 + 8)
    assert fmt.held(rows, cols, "sm100") == Storage(4000, 128 * 8 + 8)


def test_only_mxfp4_experts_have_a_kernel_layout_of_their_own():
    for spec in (WeightSpec("fp8", strategy="block"), WeightSpec("nvfp4", group=16), WeightSpec("int", group=128)):
        assert format_of(spec).moe_layout("sm100", "0.33.0", (2880, 2880)) is None
    layout = format_of(WeightSpec("mxfp4", group=32)).moe_layout("sm100", "0.33.0", (2880, 2880))
    assert layout == PaddedExperts("flashinfer-trtllm", 2880, 2880)


def test_gpt_oss_experts_on_blackwell_are_padded_to_the_kernels_sizes():
    # FlashInfer TRT-LLM: hidden 2880 → 3072 (a multiple of 256), intermediate 2880 → 2944 (of 128)
    layout = PaddedExperts("flashinfer-trtllm", 2880, 2880)
    w13 = layout.matrix("mlp.experts.gate_proj", 1)
    assert w13 == Storage(2 * 2944 * 3072 / 2, 2 * 2944 * (3072 // 32))
    assert layout.matrix("mlp.experts.up_proj", 1) == Storage(0.0)  # fused into w13
    assert layout.matrix("mlp.experts.down_proj", 1) == Storage(3072 * 2944 / 2, 3072 * 2944 // 32)
    assert layout.bias("mlp.experts.down_proj", 1) == Storage(3072 * 2)


# -- DeepSeek-V4: fp8 blocks with e8m0 scales, MXFP4 routed experts ---------------------------------------

#: deepseek-ai/DeepSeek-V4-Flash config.json (as collected in ai-dynamo/aiconfigurator,
#: aic-core/src/aiconfigurator_core/model_configs/deepseek-ai--DeepSeek-V4-Flash_config.json): the fields
#: that choose the weights' formats.
V4_FLASH = {
    "model_type": "deepseek_v4", "expert_dtype": "fp4", "torch_dtype": "bfloat16",
    "hidden_size": 4096, "moe_intermediate_size": 2048, "n_routed_experts": 256, "num_hidden_layers": 43,
    "quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8",
                            "scale_fmt": "ue8m0", "weight_block_size": [128, 128]},
}


def _v4_layer():
    """One DeepSeek-V4-Flash MoE layer's matrices that tell the formats apart: a query up-projection
    (attention, fp8), the shared expert (fp8), the router (never quantized) and the 256 routed experts."""
    from llm_inference.models import params as mp

    h, inter, e = V4_FLASH["hidden_size"], V4_FLASH["moe_intermediate_size"], V4_FLASH["n_routed_experts"]
    return mp.join(mp.linear(1024, 64 * 512, module="attn.wq_b", split=mp.COLUMN),
                   mp.gated_mlp(h, inter, prefix="mlp.shared_experts", group=mp.SHARED_EXPERTS),
                   mp.router(h, e),
                   mp.repeat(mp.routed_expert(h, inter), e)).tensors


def test_deepseek_v4_flash_reads_as_vllms_deepseek_v4_fp8():
    from llm_inference.models.quantization import read_quantization

    scheme = read_quantization(V4_FLASH)
    assert scheme.method == "deepseek_v4_fp8" and not scheme.unsupported
    assert format_of(scheme.linear) == Fp8("fp8", "fp8, 128×128-block e8m0 scales", compute="fp8",
                                          strategy="block", scale_bytes=1)
    assert isinstance(format_of(scheme.experts), Mxfp4)
    fp8_experts = read_quantization({**V4_FLASH, "expert_dtype": "fp8"})  # Flash-Base: fp32 scales, fp8 experts
    assert fp8_experts.experts is None and format_of(fp8_experts.linear).scale_bytes == 4
    nvfp4 = read_quantization({**V4_FLASH, "quantization_config": {**V4_FLASH["quantization_config"],
                                                                   "moe_quant_algo": "NVFP4"}})
    assert isinstance(format_of(nvfp4.experts), Nvfp4)
    bad = read_quantization({**V4_FLASH, "expert_dtype": "fp6"})
    assert "expert_dtype 'fp6'" in bad.unsupported


def test_deepseek_v4_flash_per_group_format_map_and_bytes_by_hand():
    from llm_inference.hardware import GPUS
    from llm_inference.models.params import ATTENTION, ROUTED_EXPERTS, ROUTER, SHARED_EXPERTS
    from llm_inference.models.quantization import read_quantization

    plan = WeightPlan(_v4_layer(), read_quantization(V4_FLASH))
    kinds = {g: tuple(f.kind for f in fs) for g, fs in plan.format_map.items()}
    assert kinds == {ATTENTION: ("fp8",), SHARED_EXPERTS: ("fp8",), ROUTER: ("dense",), ROUTED_EXPERTS: ("mxfp4",)}
    assert plan.experts_format == "mxfp4"
    h, inter, e = 4096, 2048, 256
    # one routed expert: gate, up, down = 3 × 4096 × 2048 numbers at ½ byte, an e8m0 byte per 32 inputs
    expert = 3 * h * inter / 2 + (2 * inter * (h // 32) + h * (inter // 32))
    # fp8 matrices: a byte a number, an e8m0 byte per 128 × 128 block
    wq_b = 32768 * 1024 + (32768 // 128) * (1024 // 128)
    shared = 3 * h * inter + 3 * (inter // 128) * (h // 128)
    router = h * e * 2
    for gpu in ("h200", "b200", "a100-80g"):  # V4's widths are already multiples of every kernel's padding
        groups = {g.group: g.bytes for g in plan.on(GPUS[gpu]).groups()}
        assert groups == {ATTENTION: wq_b, SHARED_EXPERTS: shared, ROUTER: router, ROUTED_EXPERTS: e * expert}
    # the routed experts of the whole model (43 MoE layers): 137.1 GiB in MXFP4, where fp8 blocks
    # (how they were read before vLLM's deepseek_v4_fp8 was modelled) would hold 258.1 GiB
    assert 43 * e * expert / 2**30 == pytest.approx(137.1, abs=0.05)
    fp8_block = 3 * h * inter + 3 * (inter // 128) * (h // 128) * 4
    assert 43 * e * fp8_block / 2**30 == pytest.approx(258.1, abs=0.05)


def test_deepseek_v4_pro_routed_experts_by_hand():
    # nvidia/DeepSeek-V4-Pro-NVFP4 config.json (ai-dynamo/aiconfigurator, model_configs/): hidden 7,168,
    # moe_intermediate_size 3,072, 384 routed experts on each of 61 layers
    h, inter, e, layers = 7168, 3072, 384, 61
    mx = format_of(WeightSpec("mxfp4", bits=4, group=32))
    expert = 2 * mx.matrix(inter, h).total + mx.matrix(h, inter).total
    assert expert == 3 * h * inter * (0.5 + 1 / 32)
    assert layers * e * expert / 2**30 == pytest.approx(765.6, abs=0.05)
    # on Blackwell at TP 16 the kernel pads each rank's 192 intermediate rows to 256 (FlashInfer TRT-LLM)
    layout = format_of(WeightSpec("mxfp4", group=32)).moe_layout("sm100", "0.33.0", (h, inter))
    down = layout.matrix("mlp.experts.down_proj", 16)
    assert down == Storage(h * 256 / 2, h * (256 // 32))


# -- callers ask the class ------------------------------------------------------------------------------

def test_weights_does_not_branch_on_format_names():
    for module in ("weights.py", "moe_formats.py"):
        source = (ROOT / "calculators/llm_inference/physics" / module).read_text(encoding="utf-8")
        for name in ('"mxfp4"', '"nvfp4"', '"nf4"', '"int"', '"fp8"', "spec.kind", "s.kind", "isinstance(fmt"):
            assert name not in source, (module, name)


# -- the recipe in CONTRIBUTING.md ---------------------------------------------------------------------

def _recipe() -> str:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    match = re.search(r"^## Add a weight format\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert match, "CONTRIBUTING.md has no 'Add a weight format' section"
    return match.group(1)


def test_the_recipe_names_files_that_exist():
    recipe = _recipe()
    paths = set(re.findall(r"`((?:calculators|tests)/[A-Za-z0-9_./-]+\.py)`", recipe))
    assert len(paths) >= 3
    for path in paths:
        assert (ROOT / path).is_file(), path
    for name in ("FORMATS", "METHOD_FORMATS", "format_of", "from_spec"):
        assert f"`{name}`" in recipe, name
        assert hasattr(formats, name) or hasattr(Format, name), name


def test_the_recipes_worked_example_runs():
    code = re.search(r"```python\n(.*?)```", _recipe(), re.S).group(1)
    namespace = {"dataclass": dataclass, "ClassVar": ClassVar, "math": math, "Format": Format, "Storage": Storage}
    exec(code, namespace)
    cls = namespace["Mxfp8"]
    spec = WeightSpec(cls.kind, bits=8, group=32)
    fmt, registered = cls.from_spec(spec), format_of(spec)
    assert type(registered).__name__ == cls.__name__ and FORMATS[cls.kind] is type(registered)
    assert (fmt.label, fmt.scales, fmt.tp_group) == (registered.label, registered.scales, registered.tp_group)
    assert fmt.matrix(6144, 3072) == registered.matrix(6144, 3072)
    assert bits_per_weight(fmt) == bits_per_weight(registered) == 8.25
