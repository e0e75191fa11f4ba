"""Google's Gemma 2 and Gemma 3: published configs and parameter counts.

Gemma 3's published configs are sparse: the text_config omits ``vocab_size`` (transformers'
Gemma3TextConfig default 262208), ``sliding_window_pattern`` (6), ``tie_word_embeddings`` (true)
and, for 4B and 12B, ``head_dim`` (256) and the head counts. The derivation fills in those
defaults and says so; the independent numpy check in the tests does the same from its own table.
"""

from __future__ import annotations

from ..entry import CatalogueEntry, Source
from .sources import mlc_preset, tt_metal

# Parameter counts: the technical reports split embedding and non-embedding parameters.
_GEMMA2_REPORT = ("Gemma Team, 'Gemma 2: Improving Open Language Models at a Practical Size' (2024), "
                  "table of parameter counts")
_GEMMA3_REPORT = ("Gemma Team, 'Gemma 3 Technical Report' (2025), Table 1 (vision encoder, embedding "
                  "and non-embedding parameters)")
_GEMMA3_TEXT_ONLY = ("The published total here is the report's embedding + non-embedding parameters (the "
                     "text decoder); its 417M SigLIP vision encoder is left out, as the text-only count does.")

# The vision tower every Gemma 3 4B/12B/27B config lists (SigLIP, 27 layers), trimmed.
_SIGLIP = {
    "hidden_size": 1152,
    "image_size": 896,
    "intermediate_size": 4304,
    "model_type": "siglip_vision_model",
    "num_attention_heads": 16,
    "num_hidden_layers": 27,
    "patch_size": 14,
}

ENTRIES = (
    CatalogueEntry(
        id="gemma-2-9b", name="Gemma 2 9B",
        config={
            "architectures": ["Gemma2ForCausalLM"],
            "attention_bias": False,
            "head_dim": 256,
            "hidden_size": 3584,
            "intermediate_size": 14336,
            "max_position_embeddings": 8192,
            "model_type": "gemma2",
            "num_attention_heads": 16,
            "num_hidden_layers": 42,
            "num_key_value_heads": 8,
            "sliding_window": 4096,
            "sliding_window_size": 4096,
            "vocab_size": 256000,
        },
        source=mlc_preset("gemma2_9b", "google/gemma-2-9b",
                          note="added with the commit '[Preset] Add gemma2 preset' (39069f7f49f6)"),
        published_total=917_962_752 + 8_324_201_984,
        count_source=_GEMMA2_REPORT + ": 9B, 917,962,752 embedding + 8,324,201,984 non-embedding",
    ),
    CatalogueEntry(
        id="gemma-2-27b", name="Gemma 2 27B",
        config={
            "architectures": ["Gemma2ForCausalLM"],
            "attention_bias": False,
            "head_dim": 128,
            "hidden_size": 4608,
            "intermediate_size": 36864,
            "max_position_embeddings": 8192,
            "model_type": "gemma2",
            "num_attention_heads": 32,
            "num_hidden_layers": 46,
            "num_key_value_heads": 16,
            "sliding_window": 4096,
            "sliding_window_size": 4096,
            "vocab_size": 256000,
        },
        source=mlc_preset("gemma2_27b", "google/gemma-2-27b"),
        published_total=1_180_237_824 + 26_047_480_320,
        count_source=_GEMMA2_REPORT + ": 27B, 1,180,237,824 embedding + 26,047,480,320 non-embedding",
    ),
    CatalogueEntry(
        id="gemma-3-4b", name="Gemma 3 4B",
        config={
            "architectures": ["Gemma3ForConditionalGeneration"],
            "model_type": "gemma3",
            "text_config": {
                "hidden_size": 2560,
                "intermediate_size": 10240,
                "model_type": "gemma3_text",
                "num_hidden_layers": 34,
                "sliding_window": 1024,
            },
            "vision_config": dict(_SIGLIP),
        },
        source=tt_metal("models/demos/gemma3/model_params/gemma-3-4b-it/config.json",
                        "b28d9f79f6d1ebdf1cc048552ed96d16edadf11b", "google/gemma-3-4b-it"),
        published_total=675_000_000 + 3_209_000_000,
        count_source=_GEMMA3_REPORT + ": 4B, 675M embedding + 3,209M non-embedding",
        counts_note=_GEMMA3_TEXT_ONLY,
    ),
    CatalogueEntry(
        id="gemma-3-12b", name="Gemma 3 12B",
        config={
            "architectures": ["Gemma3ForConditionalGeneration"],
            "model_type": "gemma3",
            "text_config": {
                "hidden_size": 3840,
                "intermediate_size": 15360,
                "model_type": "gemma3_text",
                "num_attention_heads": 16,
                "num_hidden_layers": 48,
                "num_key_value_heads": 8,
                "sliding_window": 1024,
            },
            "vision_config": dict(_SIGLIP),
        },
        source=Source(
            repo="huggingface/transformers",
            path="src/transformers/models/gemma3/convert_gemma3_weights.py (_VARIANTS[_VARIANT_GEMMA_3_12B])",
            commit="0d7e95d96b4e187c651e2b2406ed98ed40d74963",
            url="https://huggingface.co/google/gemma-3-12b-it/blob/main/config.json",
            note="no stored copy of the published config.json was found; the values are those of "
                 "the script that converted the checkpoint (hidden_size 30*128, intermediate_size "
                 "30*128*8//2, 16 heads, 8 KV heads, head_dim 256, 48 layers, sliding_window 1024), "
                 "laid out with the keys of the published 4B and 27B configs. The same text_config "
                 "keys and values are quoted from the published 12B config in two files of the "
                 "GitHub code index whose repositories the index does not name",
        ),
        published_total=1_012_000_000 + 10_759_000_000,
        count_source=_GEMMA3_REPORT + ": 12B, 1,012M embedding + 10,759M non-embedding",
        counts_note=_GEMMA3_TEXT_ONLY,
    ),
    CatalogueEntry(
        id="gemma-3-27b", name="Gemma 3 27B",
        config={
            "architectures": ["Gemma3ForConditionalGeneration"],
            "model_type": "gemma3",
            "text_config": {
                "head_dim": 128,
                "hidden_size": 5376,
                "intermediate_size": 21504,
                "model_type": "gemma3_text",
                "num_attention_heads": 32,
                "num_hidden_layers": 62,
                "num_key_value_heads": 16,
                "sliding_window": 1024,
            },
            "vision_config": dict(_SIGLIP),
        },
        source=tt_metal("models/demos/gemma3/model_params/gemma-3-27b-it/config.json",
                        "b28d9f79f6d1ebdf1cc048552ed96d16edadf11b", "google/gemma-3-27b-it"),
        published_total=1_416_000_000 + 25_600_000_000,
        count_source=_GEMMA3_REPORT + ": 27B, 1,416M embedding + 25,600M non-embedding",
        counts_note=_GEMMA3_TEXT_ONLY,
    ),
)
