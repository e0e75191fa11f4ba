"""Weight formats, one class each: what a stored tensor takes, values and scales apart, and what
vLLM does with it on a GPU.

A format sizes a weight matrix of ``rows × cols`` (out × in, as the checkpoint and vLLM's
``weight`` parameter lay it out, or one tensor-parallel shard of it) and a vector. The scales
are what quantized checkpoints add to the values, and the part a "bits per weight" rule leaves
out. Each layout below is the one vLLM creates for the method (``create_weights`` in
vllm/model_executor/layers/quantization/, 0.33.0), which follows the checkpoint's tensors:

* bf16 / fp16 / fp32 (:class:`Dense`): 2, 2 or 4 bytes a number, nothing else.
* fp8 e4m3 or int8 W8A8 (:class:`Fp8`), one byte a number, with scales: one per tensor
  (``weight_scale``, plus an ``input_scale`` when activations are static), one per output row
  ("channel"), or one per ``block`` (DeepSeek's ``weight_block_size`` [128, 128]:
  ``weight_scale_inv`` of ⌈rows/128⌉ × ⌈cols/128⌉). The scales are fp32, 4 bytes, except in
  DeepSeek-V4's checkpoints with fp4 experts, which store the block scales as e8m0, 1 byte
  (``DeepseekV4FP8Config.is_scale_e8m0``, vllm/model_executor/models/deepseek_v4.py; vLLM
  creates them as ``torch.float8_e8m0fnu``). 128 × 128 blocks cost 4 / 16,384 byte a weight
  (0.02 %), or 1 / 16,384 in e8m0.
* Integer groups (:class:`IntGroup`: GPTQ, AWQ, compressed-tensors ``pack-quantized``): ``bits``
  per number packed in int32, one 16-bit scale per ``group`` input columns of each row, and, for
  asymmetric checkpoints, one packed ``bits``-wide zero point per group. At 4 bits and group 128:
  0.5 + 2/128 + 0.5/128 = 0.5195 byte a weight, 3.9 % over the bare 4 bits.
* MXFP4 (:class:`Mxfp4`, OCP microscaling): 4-bit e2m1 numbers, one e8m0 byte per 32: 4.25 bits.
  gpt-oss stores its routed experts so, and DeepSeek-V4 (``expert_dtype`` "fp4") its routed
  experts; vLLM loads both through ``Mxfp4MoEMethod`` and its kernel's padding.
* MXFP8 (:class:`Mxfp8`, OCP microscaling, a ModelOpt MIXED_PRECISION layer algorithm): fp8 e4m3
  numbers, one e8m0 byte per 32 along the input: 8.25 bits (``ModelOptMxFp8Config``,
  vllm/model_executor/layers/quantization/modelopt.py). NVIDIA's MiniMax-M3-NVFP4 stores its
  attention, index projections, shared experts and dense MLPs so.
* NVFP4 (:class:`Nvfp4`, ModelOpt and compressed-tensors ``nvfp4-pack-quantized``): 4-bit e2m1
  numbers, one fp8 e4m3 scale per 16 (``weight_scale``) and two fp32 per tensor
  (``weight_scale_2``, ``input_scale``): 4.5 bits.
* bitsandbytes nf4 (:class:`Nf4`, vLLM ≤ 0.27): 4-bit numbers, one absmax per 64; with double
  quantization (``bnb_4bit_use_double_quant``) each absmax is one byte, with an fp32 scale per 256.

Each class also owns what callers used to branch on its name for: its words (:attr:`Format.label`,
:attr:`Format.word`, :attr:`Format.scales`), what vLLM's MoE backend choice calls it
(:meth:`Format.moe_form`), how vLLM holds it on a given GPU after loading (:meth:`Format.held`,
:meth:`Format.notes_on`, with the kernels' rules in :mod:`llm_inference.engines.vllm_weights`),
and the quantization group a tensor-parallel split must respect (:attr:`Format.tp_group`). The
routed experts' own layout under vLLM's fused-MoE kernels is :mod:`.moe_formats`.

A checkpoint's ``quantization_config`` is read (:mod:`llm_inference.models.quantization`) into a
:class:`~llm_inference.models.quantization.WeightSpec` per tensor, whose ``kind`` names the class
here (:data:`FORMATS`); :func:`format_of` makes the format. :data:`METHOD_FORMATS` says which
classes each vLLM quantization method stores its tensors in.

Activations and the arithmetic: ``compute`` is the tensor-core format the matrix multiply runs
in ("bf16" for weight-only formats, which dequantize in the kernel).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from ..engines import vllm_weights as engine

FP32 = 4
E8M0 = 1
#: Bytes of the 16-bit scales of integer groups (checkpoints store them in fp16 or bf16).
GROUP_SCALE_BYTES = 2


@dataclass(frozen=True)
class Storage:
    """Bytes of one tensor (or shard): the numbers, and what quantization adds to them."""

    values: float
    scales: float = 0.0

    @property
    def total(self) -> float:
        return self.values + self.scales

    def __add__(self, other: "Storage") -> "Storage":
        return Storage(self.values + other.values, self.scales + other.scales)

    def times(self, n: float) -> "Storage":
        return Storage(self.values * n, self.scales * n)


ZERO = Storage(0.0)


@dataclass(frozen=True)
class Format:
    """A weight format. ``matrix`` sizes a weight of ``rows × cols``; vectors (norms, biases)
    stay in ``vector_bytes`` per number whatever the matrices are. ``label`` is the format in a
    few words, as the weights' breakdown lists it."""

    id: str
    label: str
    compute: str = "bf16"  # the matmul's operand format: "bf16", "fp8", "int8" or "fp4"
    vector_bytes: float = 2.0

    #: The :class:`WeightSpec` kind this class reads (its key in :data:`FORMATS`).
    kind: ClassVar[str] = ""

    @classmethod
    def from_spec(cls, spec) -> "Format":
        raise NotImplementedError

    # -- storage as the checkpoint keeps it ------------------------------------------------------

    def matrix(self, rows: int, cols: int) -> Storage:
        raise NotImplementedError

    def vector(self, n: int) -> Storage:
        return Storage(n * self.vector_bytes)

    def tensor(self, shape: tuple) -> Storage:
        """A stored tensor of ``shape``: quantized formats store matrices (out × in)."""
        return self.matrix(shape[0], shape[1])

    @property
    def quantized(self) -> bool:
        return True

    def describe(self) -> str:
        return self.label

    @property
    def word(self) -> str:
        """The format in the word published measurements use ("fp8", "int4", "nvfp4", ...)."""
        return self.id

    @property
    def scales(self) -> str:
        """The scales' layout, in words ("" when the format has none)."""
        return ""

    # -- what vLLM does with it ------------------------------------------------------------------

    def moe_form(self, method: str) -> str:
        """The routed experts' format as vLLM's MoE backend choice tells formats apart
        (engines.vllm_releases.MOE_FORMATS); ``method`` is the checkpoint's quantization method."""
        return self.id

    def held(self, rows: int, cols: int, arch: str) -> Storage:
        """A ``rows × cols`` matrix as vLLM holds it on ``arch`` after ``process_weights_after_loading``
        (the stored layout unless the kernel repacks it)."""
        return self.matrix(rows, cols)

    def notes_on(self, arch: str) -> tuple[str, ...]:
        """What the reader should know about this format on ``arch``."""
        return ()

    @property
    def tp_group(self) -> int:
        """Input columns a scale covers, which a row-parallel split must not cut (0: none)."""
        return 0

    def moe_layout(self, arch: str, version: str, dims: tuple[int, int]):
        """The routed experts' layout under vLLM's fused-MoE kernel on ``arch`` when it differs from
        the stored one (a :class:`~llm_inference.physics.moe_formats.PaddedExperts`), else None;
        ``dims`` is one expert's (hidden, intermediate)."""
        return None


@dataclass(frozen=True)
class Dense(Format):
    """bf16, fp16, fp32: the checkpoint's dtype, ``bytes`` a number."""

    bytes: float = 2.0
    kind: ClassVar[str] = "dense"

    @classmethod
    def from_spec(cls, spec) -> "Format":
        return DTYPES.get(spec.dtype, BF16)

    def matrix(self, rows: int, cols: int) -> Storage:
        return Storage(rows * cols * self.bytes)

    def vector(self, n: int) -> Storage:
        return Storage(n * self.bytes)

    def tensor(self, shape: tuple) -> Storage:
        return Storage(math.prod(shape) * self.bytes)

    @property
    def quantized(self) -> bool:
        return False

    def moe_form(self, method: str) -> str:
        return "bf16"  # vLLM's unquantized MoE, whatever the 16-bit dtype


_WHERE = {"block": "{0}×{1}-block", "channel": "per-channel", "tensor": "per-tensor"}


@dataclass(frozen=True)
class Fp8(Format):
    """One byte a number (``number`` "fp8" e4m3, or "int8" for W8A8 integers) with scales per
    ``strategy``: "tensor", "channel" or "block", of ``scale_bytes`` each (fp32; e8m0 in
    DeepSeek-V4's fp4-expert checkpoints)."""

    strategy: str = "tensor"
    block: tuple[int, int] = (128, 128)
    static_input: bool = False  # a stored per-tensor input_scale (activation_scheme "static"), fp32
    number: str = "fp8"
    scale_bytes: float = FP32
    kind: ClassVar[str] = "fp8"

    @classmethod
    def from_spec(cls, spec) -> "Format":
        number = "int8" if spec.dtype == "int8" else "fp8"
        scale_bytes = E8M0 if getattr(spec, "scale", "") == "e8m0" else FP32
        where = _WHERE.get(spec.strategy, _WHERE["tensor"]).format(*spec.block)
        label = f"{number}, {where} {'e8m0' if scale_bytes == E8M0 else 'fp32'} scales"
        return cls(number, label, compute=spec.activations or "bf16", strategy=spec.strategy, block=spec.block,
                   static_input=spec.static_input, number=number, scale_bytes=scale_bytes)

    def matrix(self, rows: int, cols: int) -> Storage:
        if self.strategy == "block":
            scales = math.ceil(rows / self.block[0]) * math.ceil(cols / self.block[1])
        elif self.strategy == "channel":
            scales = rows
        else:
            scales = 1
        return Storage(rows * cols, scales * self.scale_bytes + (FP32 if self.static_input else 0))

    @property
    def word(self) -> str:
        return self.number

    @property
    def scales(self) -> str:
        kind = "e8m0" if self.scale_bytes == E8M0 else "fp32"
        where = {"block": f"one {kind} per {self.block[0]}×{self.block[1]} block",
                 "channel": f"one {kind} per output row"}.get(self.strategy, f"one {kind} per tensor")
        return where + (", an fp32 input scale" if self.static_input else "")

    def moe_form(self, method: str) -> str:
        # int8 W8A8 experts are named as fp8 here, as before the formats became classes: the MoE
        # backend rules (vllm_releases) were written against this name.
        if self.strategy == "block":
            return "fp8-block"
        return "fp8-tensor" if self.strategy == "tensor" and self.static_input else "fp8"


@dataclass(frozen=True)
class IntGroup(Format):
    """``bits``-bit integers packed in int32, a 16-bit scale per ``group`` input columns of a row
    (``group`` -1: one per row), packed zero points when ``zero_point``, and GPTQ's per-column
    group index (``g_idx``, int32) when ``act_order`` (desc_act) reorders the columns."""

    bits: int = 4
    group: int = 128
    zero_point: bool = False
    act_order: bool = False
    kind: ClassVar[str] = "int"

    @classmethod
    def from_spec(cls, spec) -> "Format":
        group = "a scale per row" if spec.group == -1 else f"group {spec.group}"
        label = f"int{spec.bits}, {group}" + (" + zero points" if spec.zero_point else "")
        return cls(f"int{spec.bits}", label, compute=spec.activations or "bf16", bits=spec.bits, group=spec.group,
                   zero_point=spec.zero_point, act_order=spec.act_order)

    def groups(self, cols: int) -> int:
        return 1 if self.group <= 0 else math.ceil(cols / self.group)

    def matrix(self, rows: int, cols: int) -> Storage:
        groups = self.groups(cols)
        scales = rows * groups * GROUP_SCALE_BYTES
        if self.zero_point:
            scales += rows * groups * self.bits / 8
        if self.act_order:
            scales += cols * 4
        return Storage(rows * cols * self.bits / 8, scales)

    @property
    def scales(self) -> str:
        where = "one 16-bit scale per row" if self.group <= 0 else f"one 16-bit scale per {self.group} inputs"
        return where + (f", a {self.bits}-bit zero point each" if self.zero_point else "") + (
            ", an int32 group index per input" if self.act_order else "")

    def moe_form(self, method: str) -> str:
        if self.compute == "int8":
            return "w8a8-int8"
        return "awq" if method == "awq" else "int4"

    def held(self, rows: int, cols: int, arch: str) -> Storage:
        storage = self.matrix(rows, cols)
        if self.zero_point and engine.machete_zero_points(arch):
            storage = Storage(storage.values, storage.scales + rows * self.groups(cols) * (2 - self.bits / 8))
        return storage

    def notes_on(self, arch: str) -> tuple[str, ...]:
        if self.zero_point and engine.machete_zero_points(arch):
            return ("Integer weights with zero points on Hopper: vLLM's Machete kernel holds each zero point "
                    "as a 16-bit group zero (−zp × scale), counted with the scales.",)
        return ()

    @property
    def tp_group(self) -> int:
        return max(0, self.group)


@dataclass(frozen=True)
class Mxfp4(Format):
    """OCP MXFP4: e2m1 numbers two to a byte, an e8m0 scale byte per 32 along the input. vLLM
    loads it for routed experts only, through a fused-MoE kernel that pads them
    (:class:`llm_inference.physics.moe_formats.PaddedExperts`)."""

    kind: ClassVar[str] = "mxfp4"

    @classmethod
    def from_spec(cls, spec) -> "Format":
        return cls("mxfp4", "mxfp4 (e8m0 scale per 32)", compute=spec.activations or "bf16")

    def matrix(self, rows: int, cols: int) -> Storage:
        return Storage(rows * cols / 2, rows * math.ceil(cols / 32))

    @property
    def scales(self) -> str:
        return "one e8m0 byte per 32 inputs"

    def moe_layout(self, arch: str, version: str, dims: tuple[int, int]):
        from .moe_formats import PaddedExperts  # it sizes with this module's Storage

        return PaddedExperts(engine.mxfp4_backend(arch, version), *dims)


@dataclass(frozen=True)
class Mxfp8(Format):
    """OCP MXFP8: fp8 e4m3 numbers, an e8m0 scale byte per 32 along the input (vLLM's ModelOpt
    MXFP8 linear layers keep the checkpoint's ``weight`` and ``weight_scale``). Read for Linear
    layers; routed experts in MXFP8 are refused by the reader."""

    kind: ClassVar[str] = "mxfp8"

    @classmethod
    def from_spec(cls, spec) -> "Format":
        return cls("mxfp8", "mxfp8 (e8m0 scale per 32)", compute=spec.activations or "bf16")

    def matrix(self, rows: int, cols: int) -> Storage:
        return Storage(rows * cols, rows * math.ceil(cols / 32) * E8M0)

    @property
    def scales(self) -> str:
        return "one e8m0 byte per 32 inputs"

    @property
    def tp_group(self) -> int:
        return 32


@dataclass(frozen=True)
class Nvfp4(Format):
    """NVFP4: e2m1 numbers two to a byte, an fp8 e4m3 scale per 16 along the input, and fp32
    ``weight_scale_2`` and ``input_scale`` per tensor. On Blackwell vLLM swizzles the block scales
    for its FP4 kernels, padding them."""

    kind: ClassVar[str] = "nvfp4"

    @classmethod
    def from_spec(cls, spec) -> "Format":
        return cls("nvfp4", "nvfp4 (fp8 scale per 16)", compute=spec.activations or "bf16")

    def matrix(self, rows: int, cols: int) -> Storage:
        return Storage(rows * cols / 2, rows * math.ceil(cols / 16) + 2 * FP32)

    @property
    def scales(self) -> str:
        return "one fp8 e4m3 per 16 inputs, two fp32 per tensor"

    def held(self, rows: int, cols: int, arch: str) -> Storage:
        if engine.nvfp4_swizzles(arch):
            return Storage(rows * cols / 2, engine.nvfp4_scale_bytes(rows, cols) + 8)
        return self.matrix(rows, cols)


@dataclass(frozen=True)
class Nf4(Format):
    """bitsandbytes 4-bit (nf4 or fp4): two numbers a byte, an absmax per ``blocksize``; with
    ``double_quant`` the absmax values are bytes with an fp32 scale per 256 of them."""

    blocksize: int = 64
    double_quant: bool = True
    kind: ClassVar[str] = "nf4"

    @classmethod
    def from_spec(cls, spec) -> "Format":
        return cls("nf4", "nf4 (absmax per 64)", blocksize=spec.group if spec.group > 0 else 64,
                   double_quant=spec.double_quant)

    def matrix(self, rows: int, cols: int) -> Storage:
        blocks = math.ceil(rows * cols / self.blocksize)
        absmax = blocks + math.ceil(blocks / 256) * FP32 if self.double_quant else blocks * FP32
        return Storage(rows * cols / 2, absmax)

    @property
    def scales(self) -> str:
        return (f"one absmax per {self.blocksize}" + (" (a byte, an fp32 per 256 of them)" if self.double_quant
                                                      else " (fp32)"))

    @property
    def tp_group(self) -> int:
        return self.blocksize


BF16 = Dense("bf16", "bf16", bytes=2.0)
FP16 = Dense("fp16", "fp16", bytes=2.0)
FLOAT32 = Dense("fp32", "fp32", bytes=4.0, vector_bytes=4.0)
#: Integer tables a model keeps beside its weights (DeepSeek-V4's token → experts hash table).
INT32 = Dense("int32", "int32", bytes=4.0, vector_bytes=4.0)
#: The checkpoints' unquantized dtypes by their config.json name (``torch_dtype`` / ``dtype``).
DTYPES = {"bfloat16": BF16, "float16": FP16, "half": FP16, "float32": FLOAT32, "float": FLOAT32,
          "bf16": BF16, "fp16": FP16, "fp32": FLOAT32, "int32": INT32}

#: The format classes by the :class:`WeightSpec` kind that names them: the registry a
#: ``quantization_config`` reader names formats by. A new format is a class above and a line here.
FORMATS: dict[str, type[Format]] = {cls.kind: cls for cls in (Dense, Fp8, IntGroup, Mxfp4, Mxfp8, Nvfp4, Nf4)}

#: The classes each vLLM quantization method (its ``get_name()``) stores a checkpoint's tensors in,
#: beside the unquantized ones (:class:`Dense`), as the readers of
#: :mod:`llm_inference.models.quantization` produce them.
METHOD_FORMATS: dict[str, tuple[type[Format], ...]] = {
    "none": (),
    "fp8": (Fp8,),
    "compressed-tensors": (Fp8, IntGroup, Nvfp4),
    "awq": (IntGroup,),
    "gptq": (IntGroup,),
    "mxfp4": (Mxfp4,),
    "modelopt": (Fp8, Nvfp4, Mxfp8),
    "bitsandbytes": (Nf4, Fp8),
    # DeepSeek-V4: fp8 block-scaled Linear layers, routed experts in MXFP4 (expert_dtype "fp4"),
    # fp8 blocks (expert_dtype "fp8") or NVFP4 (moe_quant_algo "NVFP4")
    "deepseek_v4_fp8": (Fp8, Mxfp4, Nvfp4),
}


@lru_cache(maxsize=None)
def format_of(spec) -> Format:
    """The format class instance of a :class:`WeightSpec` (by its ``kind``)."""
    cls = FORMATS.get(spec.kind)
    if cls is None:
        raise ValueError(f"no weight format class for kind {spec.kind!r}; known: {', '.join(FORMATS)}")
    return cls.from_spec(spec)


def bits_per_weight(fmt: Format, rows: int = 4096, cols: int = 4096) -> float:
    """Bits a weight of a ``rows × cols`` matrix takes in ``fmt``, scales included."""
    return fmt.matrix(rows, cols).total * 8 / (rows * cols)
