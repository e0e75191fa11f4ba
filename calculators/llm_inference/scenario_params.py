"""The reader's scenario as parameters: the model, its dtypes, the deployment and the engine, shared by
kv-cache, decode-roofline and unit-economics under the same names, choices and ``scenario=`` keys.

A calculator builds its parameters here (:func:`model_params`, :func:`dtype_params`,
:func:`deployment_params`, :func:`engine_params`) and resolves them with :func:`.scenario.make_resolve`.
"""

from __future__ import annotations

from typing import Any, Mapping

from course_calculators.spec import Choice, Number, Text
from course_calculators.units import GiB

from . import deployment_inputs, engine_choice
from .engines import vllm_releases
from .engines.vllm_encoder import DEFAULT_LIMIT_PER_PROMPT as DEFAULT_LIMIT
from .engines.vllm_hybrid import MIXER_NAMES, MIXERS, NEMOTRON_H
from .hardware import GPU_CHOICES
from .models import CATALOGUE
from .models.parse import MAX_CONFIG_CHARS
from .models.quantization import FORMAT_CHOICES, SHIPPED
from .physics import CHUNKED, SLIDING
from .physics.budget import DEFAULT_OVERHEAD_BYTES
from .physics.placement import DP, MAX_GPUS, TP
from .physics.precision import KV_DTYPE_CHOICES
from .scenario import CUSTOM, MODEL_FILLS, NO_MIXER, catalogue_values

MIXER_CHOICES = ((NO_MIXER, "none (every layer attends)"), *((m, MIXER_NAMES[m]) for m in MIXERS))
SSM_DTYPE_CHOICES = (
    ("auto", "the model's dtype (vLLM's default)"), ("float32", "float32"), ("float16", "float16"),
    ("bfloat16", "bfloat16"),
    (NEMOTRON_H, "Nemotron-H's default: float32 from vLLM 0.20, float16 in 0.13–0.19"),
)
#: Shape parameters kept in view; the others sit under "More parameters".
_IN_VIEW = ("attention", "layers", "kv_heads", "head_dim", "params_b")

MODEL_CHOICES = tuple((model_id, entry.name) for model_id, entry in CATALOGUE.items()) + (
    (CUSTOM, "Custom shape (edit the fields)"),)


def model_params(default_model: str) -> tuple:
    """``model``, ``config`` and the shape parameters, their defaults those of ``default_model``."""
    d = dict(catalogue_values(default_model))
    fills = MODEL_FILLS

    def adv(name: str) -> bool:
        return name not in _IN_VIEW

    return (
        Choice("model", "Model", default_model, MODEL_CHOICES, scenario="model", fills=fills, custom=CUSTOM,
               help="A published model fills the shape below from its config.json; edit a field to make it custom."),
        # One character past parse's bound: a paste cut at max_length is longer than the bound, so it
        # is refused as too long, never misread as the cut JSON it became.
        Text("config", "Or paste a config.json", "", rows=3, max_length=MAX_CONFIG_CHARS + 1, fills=fills + ("model",),
             scenario="config",
             placeholder='{"num_hidden_layers": 32, "num_key_value_heads": 8, ...}',
             help="The same Python reads it: every trap in its fields is named below — hybrid layouts "
                  "(linear-attention, state-space, windowed layers), latent and sparse attention among "
                  "them — and a config that cannot be read, or holds a layer kind not modelled, is "
                  "named and nothing is computed from it."),
        Choice("attention", "Attention", d["attention"], (("gqa", "GQA / MHA / MQA"), ("mla", "MLA (latent)")),
               scenario="attention", help="MHA is GQA with KV heads = query heads; MQA is GQA with one KV head."),
        Number("layers", "Layers", d["layers"], 1, 256, unit="layers", scenario="layers"),
        Number("heads", "Query heads", d["heads"], 1, 1024, unit="heads", advanced=adv("heads"), scenario="heads",
               help="Attention (query) heads: they must split evenly over the tensor-parallel GPUs."),
        Number("kv_heads", "KV heads", d["kv_heads"], 1, 256, unit="heads", scenario="kv_heads",
               help="Key/value heads, not query heads: GQA shares each KV head among several query heads."),
        Number("head_dim", "Head dimension", d["head_dim"], 1, 1024, scenario="head_dim"),
        Number("latent_dim", "MLA latent rank", d["latent_dim"], 0, 8192, advanced=True, scenario="latent_dim",
               help="MLA only: the compressed KV latent per layer."),
        Number("rope_dim", "MLA RoPE key dim", d["rope_dim"], 0, 1024, advanced=True, scenario="rope_dim",
               help="MLA only: the decoupled positional key per layer."),
        Number("sliding_window", "Window", d["sliding_window"], 0, 1048576, unit="tokens", advanced=True,
               scenario="sliding_window",
               help="0 for full attention; otherwise windowed layers keep at most this many tokens."),
        Number("window_layers", "Windowed layers", d["window_layers"], 0, 256, unit="layers", advanced=True,
               scenario="window_layers",
               help="How many layers use the window (all for Mistral-7B v0.1, half for Gemma 2, five in six "
                    "for Gemma 3, three in four for Llama 4)."),
        Choice("window_kind", "Window kind", d["window_kind"],
               ((SLIDING, "sliding window"), (CHUNKED, "chunked local attention (Llama 4)")),
               advanced=True, scenario="window_kind",
               help="vLLM reserves a sliding window minus one token plus the batched tokens and one block; "
                    "a chunk plus the batched tokens (from 0.26 the tokens of both batches async scheduling "
                    "keeps in flight)."),
        Number("params_b", "Parameters", d["params_b"], 0.1, 2000, step=0.1, unit="B", integer=False,
               scenario="params_b",
               help="Total parameters in billions (for MoE, all experts: all of them sit in memory)."),
        Number("active_params_b", "Active parameters (MoE)", d["active_params_b"], 0, 2000, step=0.1, unit="B",
               integer=False, advanced=True, scenario="active_params_b",
               help="Parameters one token uses, in billions; 0 for a dense model."),
        Number("experts", "Routed experts per layer", d["experts"], 0, 1024, advanced=True, scenario="experts",
               help="MoE only (0 for dense): a batch touches more of them than one token does."),
        Number("experts_per_token", "Experts per token", d["experts_per_token"], 0, 64, advanced=True,
               scenario="experts_per_token"),
        Number("hidden_size", "Hidden size", d["hidden_size"], 1, 65536, advanced=True, scenario="hidden_size",
               help="The residual stream's width: activations, all-reduce messages."),
        Number("intermediate_size", "MLP width (one expert's for MoE)", d["intermediate_size"], 1, 262144,
               advanced=True, scenario="intermediate_size"),
        Number("vocab_size", "Vocabulary", d["vocab_size"], 1, 1048576, advanced=True, scenario="vocab_size",
               help="Sets the sampler's share of vLLM's activation peak (sequences × vocabulary logits)."),
        *state_params(d),
    )


def state_params(d: Mapping[str, Any]) -> tuple:
    """A hybrid model's recurrent layers and DeepSeek-V3.2's indexer, filled from the config."""
    return (
        Number("kv_free_layers", "Layers without a KV cache", d["kv_free_layers"], 0, 255, unit="layers",
               advanced=True, scenario="kv_free_layers",
               help="Linear-attention and state-space layers (and Nemotron-H's MLP blocks) keep no keys and "
                    "values: 36 of Qwen3-Next's 48 layers."),
        Choice("mixer", "Recurrent layers", d["mixer"], MIXER_CHOICES, advanced=True, scenario="mixer",
               help="The kind of linear-attention or state-space layer, which sets how vLLM shapes its state."),
        Number("state_layers", "Layers with a fixed state", d["state_layers"], 0, 256, unit="layers",
               advanced=True, scenario="state_layers",
               help="Layers keeping one state per sequence, whatever its length (Falcon-H1: all, beside "
                    "attention)."),
        Number("state_heads", "State heads", d["state_heads"], 0, 1 << 16, advanced=True, scenario="state_heads",
               help="Mamba-2 heads, Gated DeltaNet value heads, KDA/lightning heads (Mamba-1: its channels)."),
        Number("state_head_dim", "State head dim", d["state_head_dim"], 0, 4096, advanced=True,
               scenario="state_head_dim"),
        Number("state_dim", "State size per head row", d["state_dim"], 0, 4096, advanced=True, scenario="state_dim",
               help="Mamba's d_state N; Gated DeltaNet's key head dim; KDA's and lightning's head dim."),
        Number("conv_channels", "Convolution channels", d["conv_channels"], 0, 1 << 20, advanced=True,
               scenario="conv_channels",
               help="The short convolution's channels that split over GPUs (Mamba-2's groups apart)."),
        Number("conv_groups", "Mamba-2 groups", d["conv_groups"], 0, 1024, advanced=True, scenario="conv_groups",
               help="n_groups: 2 × state size channels each, whole on every GPU once TP exceeds them."),
        Number("conv_kernel", "Convolution width", d["conv_kernel"], 0, 64, advanced=True, scenario="conv_kernel",
               help="The state keeps width − 1 tokens of the convolution's input."),
        Choice("ssm_dtype", "State dtype", d["ssm_dtype"], SSM_DTYPE_CHOICES, advanced=True, scenario="ssm_dtype",
               help="The SSM state's dtype (mamba_ssm_cache_dtype); KDA's state is fp32 whatever it says."),
        Number("mamba_chunk", "Mamba-2 scan chunk", d["mamba_chunk"], 0, 65536, unit="tokens", advanced=True,
               scenario="mamba_chunk",
               help="vLLM aligns the block to it when it keeps a state per block (prefix caching in 'all' mode)."),
        Number("indexer_dim", "Sparse-attention indexer key", d["indexer_dim"], 0, 4096, advanced=True,
               scenario="indexer_dim",
               help="DeepSeek-V3.2: every layer also caches an fp8 indexer key of this size per token."),
    )


def dtype_params(weight_default: str = SHIPPED, kv_default: str = "bf16") -> tuple:
    return (
        Choice("weight_dtype", "Weight precision", weight_default, FORMAT_CHOICES, scenario="weight_dtype",
               help="As shipped: each tensor in the format its checkpoint stores it (the quantization_config of "
                    "its config.json), scales included. The others size a release in that format: its Linear "
                    "layers quantized, embeddings, LM head, routers and norms kept in 16 bits."),
        Choice("kv_dtype", "KV cache precision", kv_default, KV_DTYPE_CHOICES, scenario="kv_dtype",
               help="vLLM's --kv-cache-dtype: fp8 keeps one scale per layer; the per_token_head layouts a "
                    "fp32 scale per head and token (Triton backend); nvfp4 an fp8 scale per 16 values "
                    "(FlashInfer); fp8_ds_mla / nvfp4_ds_mla are DeepSeek-V3.2's sparse-MLA records."),
    )


def deployment_params(gpu_default: str = "h100-sxm", gpus_default: int = 1) -> tuple:
    return (
        Choice("gpu", "GPU", gpu_default, GPU_CHOICES, scenario="gpu"),
        Number("gpus", "GPUs", gpus_default, 1, MAX_GPUS, scenario="gpus",
               help="Only sizes vLLM accepts for the model: heads, KV heads, MLP width and vocabulary "
                    "must split evenly over the tensor-parallel GPUs."),
        Number("pipeline_stages", "Pipeline stages", 1, 1, MAX_GPUS, advanced=True,
               help="Pipeline parallelism: the layers split into this many stages of GPUs ÷ stages GPUs "
                    "each (tensor parallel within a stage)."),
        Choice("attention_parallel", "Attention layout", TP,
               ((TP, "tensor parallel"), (DP, "data-parallel attention + expert parallel")), advanced=True,
               help="Tensor parallel copies an MLA latent onto every GPU; data-parallel attention gives each "
                    "GPU its own KV pool (vLLM: --data-parallel-size N --enable-expert-parallel)."),
        deployment_inputs.expert_parallel_param(),
        deployment_inputs.redundant_experts_param(),
    )


def engine_params() -> tuple:
    newest = vllm_releases.NEWEST
    return (
        *engine_choice.params(),
        Choice("vllm_version", "vLLM release", newest, vllm_releases.VERSION_CHOICES, advanced=True,
               scenario="vllm_version",
               help=f"Each release whose memory rules differ, from 0.8.5 to {newest} (the newest read); a "
                    f"release not listed follows the newest listed one before it. It sets the default "
                    f"utilization, whether CUDA graphs are subtracted, the 'GPU KV cache size' line, the "
                    f"sampler's share of the activation peak and the default batch limits."),
        Number("gpu_memory_utilization", "vLLM gpu_memory_utilization", 0, 0, 1, step=0.01, integer=False,
               help="Share of the memory the driver shows that vLLM may use; 0: the release's default "
                    "(0.9 up to 0.19, 0.92 from 0.20.0, PR #38284, which also started subtracting CUDA graphs)."),
        Number("max_num_batched_tokens", "Batched tokens per step", 0, 0, 1048576, unit="tokens", advanced=True,
               help="0: vLLM serve's default for the GPU in this release (8,192 on H100/H200, 2,048 on "
                    "A100/L40S/RTX 4090, 16,384 from 160 GiB from 0.28.0). It sizes the profiling run's "
                    "activations and windowed layers."),
        Number("max_num_seqs", "Max sequences per step", 0, 0, 65536, advanced=True,
               help="0: vLLM's default (1,024 on H100-class GPUs, 256 below 70 GiB or on an A100). The "
                    "sampler's logits for this many sequences dominate the activation peak."),
        Choice("vllm_install", "vLLM installed from", "pip",
               (("pip", "pip wheel alone"), ("docker", "vllm-openai image, or FlashInfer installed")),
               advanced=True,
               help="Up to 0.11.0 the profile run samples with FlashInfer's kernel where FlashInfer is "
                    "installed (the image bundles it), with PyTorch's sort otherwise (a larger activation "
                    "peak). From 0.17 PyTorch's path runs a Triton kernel instead of the sort."),
        Choice("cuda_graphs", "CUDA graphs", "captured",
               (("captured", "captured (default)"), ("eager", "--enforce-eager")), advanced=True,
               help="From 0.20.0 vLLM subtracts its CUDA-graph estimate from the KV budget, unless eager."),
        Number("overhead_gib", "Extra memory per GPU", DEFAULT_OVERHEAD_BYTES / GiB, 0, 64, step=0.01,
               unit="GiB", integer=False, advanced=True,
               help="Memory beyond the release's own accounting of non-torch memory (CUDA context up to "
                    "0.9.0, cuBLAS and NCCL buffers) and CUDA graphs, which is always taken: another "
                    "process on the GPU, for instance."),
        Choice("prefix_caching", "Prefix caching", "default",
               (("default", "vLLM's default"), ("on", "on (--enable-prefix-caching)"),
                ("off", "off (--no-enable-prefix-caching)")), advanced=True,
               help="Hybrid models only: on by default from vLLM 0.26; with it, each request keeps two state "
                    "pages ('align' mode) or one per block ('all', Mamba models before 0.28) instead of one."),
        Number("image_limit", "Images per prompt (--limit-mm-per-prompt)", DEFAULT_LIMIT, 0, DEFAULT_LIMIT,
               advanced=True,
               help="Models with a vision tower (Qwen3.5, Qwen3.6): vLLM loads the tower and, before it sizes the "
                    "KV cache, encodes the largest image (a 4096 × 4096 one: 16,384 tokens) unless images and "
                    "videos are both 0, as --language-model-only sets them. 999 is vLLM's default."),
        Number("video_limit", "Videos per prompt (--limit-mm-per-prompt)", DEFAULT_LIMIT, 0, DEFAULT_LIMIT,
               advanced=True,
               help="As for images; the profiling run encodes the modality with the most tokens per item."),
        Number("dcp", "Decode context parallel size", 1, 1, 64, advanced=True,
               help="--decode-context-parallel-size (MLA models): the TP ranks that hold the same latent each "
                    "store every dcp-th token of a request, so the pool holds dcp times the tokens."),
        *deployment_inputs.engine_inputs(),
    )
