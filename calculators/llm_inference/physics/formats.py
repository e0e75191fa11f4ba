"""Weight formats: the bytes one stored tensor takes, values and scales apart.

A format sizes a weight matrix of ``rows × cols`` (out × in, as the checkpoint and vLLM's
``weight`` parameter lay it out, or one tensor-parallel shard of it) and a vector. The scales
are what quantized checkpoints add to the values, and the part a "bits per weight" rule leaves
out. Each layout below is the one vLLM creates for the method (``create_weights`` in
vllm/model_executor/layers/quantization/, 0.33.0), which follows the checkpoint's tensors:

* bf16 / fp16 / fp32: 2, 2 or 4 bytes a number, nothing else.
* fp8 (e4m3), one byte a number, with fp32 scales: one per tensor (``weight_scale``, plus an
  ``input_scale`` when activations are static), one per output row ("channel"), or one per
  ``block`` (DeepSeek's ``weight_block_size`` [128, 128]: ``weight_scale_inv`` of
  ⌈rows/128⌉ × ⌈cols/128⌉). 128 × 128 blocks cost 4 / 16,384 byte a weight: 0.02 %.
* Integer groups (GPTQ, AWQ, compressed-tensors ``pack-quantized``): ``bits`` per number packed
  in int32, one 16-bit scale per ``group`` input columns of each row, and, for asymmetric
  checkpoints, one packed ``bits``-wide zero point per group. At 4 bits and group 128:
  0.5 + 2/128 + 0.5/128 = 0.5195 byte a weight, 3.9 % over the bare 4 bits.
* MXFP4 (OCP microscaling): 4-bit e2m1 numbers, one e8m0 byte per 32: 4.25 bits.
* NVFP4: 4-bit e2m1 numbers, one fp8 e4m3 scale per 16 (``weight_scale``) and two fp32
  per tensor (``weight_scale_2``, ``input_scale``): 4.5 bits.
* bitsandbytes nf4 (vLLM ≤ 0.27): 4-bit numbers, one absmax per 64; with double quantization
  (``bnb_4bit_use_double_quant``) each absmax is one byte, with an fp32 scale per 256 of them.

Activations and the arithmetic: ``compute`` is the tensor-core format the matrix multiply runs
in ("bf16" for weight-only formats, which dequantize in the kernel).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

FP32 = 4
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
    stay in ``vector_bytes`` per number whatever the matrices are."""

    id: str
    label: str
    compute: str = "bf16"  # the matmul's operand format: "bf16", "fp8", "int8" or "fp4"
    vector_bytes: float = 2.0

    def matrix(self, rows: int, cols: int) -> Storage:
        raise NotImplementedError

    def vector(self, n: int) -> Storage:
        return Storage(n * self.vector_bytes)

    @property
    def quantized(self) -> bool:
        return True

    def describe(self) -> str:
        return self.label


@dataclass(frozen=True)
class Dense(Format):
    """bf16, fp16, fp32: the checkpoint's dtype, ``bytes`` a number."""

    bytes: float = 2.0

    def matrix(self, rows: int, cols: int) -> Storage:
        return Storage(rows * cols * self.bytes)

    def vector(self, n: int) -> Storage:
        return Storage(n * self.bytes)

    @property
    def quantized(self) -> bool:
        return False


@dataclass(frozen=True)
class Fp8(Format):
    """fp8 e4m3 numbers with fp32 scales per ``strategy``: "tensor", "channel" or "block"."""

    strategy: str = "tensor"
    block: tuple[int, int] = (128, 128)
    static_input: bool = False  # a stored per-tensor input_scale (activation_scheme "static")

    def matrix(self, rows: int, cols: int) -> Storage:
        if self.strategy == "block":
            scales = math.ceil(rows / self.block[0]) * math.ceil(cols / self.block[1])
        elif self.strategy == "channel":
            scales = rows
        else:
            scales = 1
        return Storage(rows * cols, (scales + (1 if self.static_input else 0)) * FP32)


@dataclass(frozen=True)
class IntGroup(Format):
    """``bits``-bit integers packed in int32, a 16-bit scale per ``group`` input columns of a row
    (``group`` -1: one per row), packed zero points when ``zero_point``, and GPTQ's per-column
    group index (``g_idx``, int32) when ``act_order`` (desc_act) reorders the columns."""

    bits: int = 4
    group: int = 128
    zero_point: bool = False
    act_order: bool = False

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


@dataclass(frozen=True)
class Mxfp4(Format):
    """OCP MXFP4: e2m1 numbers two to a byte, an e8m0 scale byte per 32 along the input."""

    def matrix(self, rows: int, cols: int) -> Storage:
        return Storage(rows * cols / 2, rows * math.ceil(cols / 32))


@dataclass(frozen=True)
class Nvfp4(Format):
    """NVFP4: e2m1 numbers two to a byte, an fp8 e4m3 scale per 16 along the input, and fp32
    ``weight_scale_2`` and ``input_scale`` per tensor."""

    def matrix(self, rows: int, cols: int) -> Storage:
        return Storage(rows * cols / 2, rows * math.ceil(cols / 16) + 2 * FP32)


@dataclass(frozen=True)
class Nf4(Format):
    """bitsandbytes 4-bit (nf4 or fp4): two numbers a byte, an absmax per ``blocksize``; with
    ``double_quant`` the absmax values are bytes with an fp32 scale per 256 of them."""

    blocksize: int = 64
    double_quant: bool = True

    def matrix(self, rows: int, cols: int) -> Storage:
        blocks = math.ceil(rows * cols / self.blocksize)
        absmax = blocks + math.ceil(blocks / 256) * FP32 if self.double_quant else blocks * FP32
        return Storage(rows * cols / 2, absmax)


BF16 = Dense("bf16", "bf16", bytes=2.0)
FP16 = Dense("fp16", "fp16", bytes=2.0)
FLOAT32 = Dense("fp32", "fp32", bytes=4.0, vector_bytes=4.0)
#: The checkpoints' unquantized dtypes by their config.json name (``torch_dtype`` / ``dtype``).
DTYPES = {"bfloat16": BF16, "float16": FP16, "half": FP16, "float32": FLOAT32, "float": FLOAT32,
          "bf16": BF16, "fp16": FP16, "fp32": FLOAT32}


def bits_per_weight(fmt: Format, rows: int = 4096, cols: int = 4096) -> float:
    """Bits a weight of a ``rows × cols`` matrix takes in ``fmt``, scales included."""
    return fmt.matrix(rows, cols).total * 8 / (rows * cols)
