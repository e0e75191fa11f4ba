"""CONTRIBUTING.md's "Add a layer kind" recipe matches the code: every path it names exists, it
names the three files a kind touches, and the methods and names it tells a new kind to provide
are those of the spec classes."""

from __future__ import annotations

import re
from pathlib import Path

from llm_inference.models import compressed_attention, layer_specs, layers

ROOT = Path(__file__).resolve().parents[2]


def recipe() -> str:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    match = re.search(r"^## Add a layer kind\n(.*?)(?=^## )", text, re.S | re.M)
    assert match, "CONTRIBUTING.md has no 'Add a layer kind' section"
    return match.group(1)


def test_every_path_the_recipe_names_exists():
    paths = sorted({s for s in re.findall(r"`([^`\n]+)`", recipe()) if "/" in s and not s.startswith("vllm/")})
    assert len(paths) >= 6
    missing = [p for p in paths if not (ROOT / p.rstrip("/")).exists()]
    assert not missing, f"the recipe names paths that do not exist: {missing}"


def test_the_three_files_a_kind_touches_are_named():
    text = recipe()
    for path in ("calculators/llm_inference/models/layer_specs.py", "calculators/llm_inference/models/layers.py",
                 "calculators/llm_inference/physics/cache_layout.py"):
        assert f"`{path}`" in text


def test_the_methods_and_names_it_cites_exist():
    text = recipe()
    for method in ("bytes_per_token", "bytes_per_sequence", "state_bytes", "page_bytes", "blocks_per_request",
                   "geometry", "legacy"):
        assert f"`{method}`" in text and hasattr(layer_specs.LayerSpec, method)
    assert "`LayerSpec`" in text and "`CompressedSparseAttention(" in text
    assert "`compressed_stack`" in text and hasattr(compressed_attention, "compressed_stack")
    assert hasattr(layers, "layer_specs")
    spec = compressed_attention.CompressedSparseAttention(compress_ratio=4, indexer_dim=128)
    # the worked example's figures
    assert spec.bytes_per_sequence(131072, "fp8") == 128 * 584 + 32768 * (584 + 132)
    assert spec.state_bytes() == 8 * 2 * 2 * (512 + 128) * 4
