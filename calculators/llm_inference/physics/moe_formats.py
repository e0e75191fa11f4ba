"""Routed experts as vLLM's fused-MoE kernels hold them, where that differs from the checkpoint.

An MXFP4 checkpoint's experts (gpt-oss; DeepSeek-V4 with ``expert_dtype`` "fp4") are loaded by
``Mxfp4MoEMethod`` (vllm/model_executor/layers/quantization/mxfp4.py, 0.33.0), whose backend
depends on the GPU and the release (:func:`llm_inference.engines.vllm_weights.mxfp4_backend`):
it fuses each expert's gate and up projections into one ``w13`` matrix of 2 × intermediate rows,
rounds the hidden and intermediate sizes up for its kernel, may pad the values and scales again
for the Hopper layouts, and holds the expert biases in fp32 on the Triton backends. The rules are
read in :mod:`llm_inference.engines.vllm_weights`; this class applies them to one rank's share.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..engines import vllm_weights as engine
from .formats import ZERO, Storage


@dataclass(frozen=True)
class PaddedExperts:
    """One expert's matrices and biases as ``backend`` holds them ("": unknown here, so the
    experts are sized as stored). ``hidden`` × ``intermediate`` is one expert's down projection."""

    backend: str
    hidden: int
    intermediate: int

    def _padded(self, tp: int) -> tuple[int, int]:
        return engine.mxfp4_padded(self.backend, self.hidden, math.ceil(self.intermediate / tp))

    def matrix(self, module: str, tp: int) -> Storage:
        """One expert's ``module`` (gate_proj, up_proj or down_proj) on one of ``tp`` ranks; the
        fused w13 is counted on gate_proj, up_proj then holds nothing of its own."""
        ph, pi = self._padded(tp)
        leaf = module.rsplit(".", 1)[-1]
        if leaf == "gate_proj":
            values, scales = engine.mxfp4_expert_bytes(self.backend, 2 * pi, ph)
        elif leaf == "up_proj":
            return ZERO
        else:
            values, scales = engine.mxfp4_expert_bytes(self.backend, ph, pi)
        return Storage(values, scales)

    def bias(self, module: str, tp: int) -> Storage:
        """One expert's bias of ``module`` on one of ``tp`` ranks, at the backend's width."""
        ph, pi = self._padded(tp)
        width = ph if module.endswith("down_proj") else pi
        return Storage(width * engine.mxfp4_bias_bytes(self.backend))

    def note(self, gpu: str, arch: str, version: str, biases: bool = True) -> str:
        """What the reader should know of this layout on ``gpu`` (its name; "" when unnamed), for
        experts with ``biases`` (gpt-oss's) or without (DeepSeek-V4's)."""
        if not self.backend:
            return (f"vLLM's MXFP4 MoE backend on {gpu or 'this GPU'} is not known here: "
                    f"the experts are sized as stored, without the padding its kernel may add.")
        ph, pi = engine.mxfp4_padded(self.backend, self.hidden, self.intermediate)
        what = (f"pads the experts from {self.hidden} × {self.intermediate} to {ph} × {pi} per rank"
                if (ph, pi) != (self.hidden, self.intermediate) else "keeps the experts' width")
        if self.backend == "triton":
            what += " and Triton's Hopper layouts pad the values and scales" + (", with fp32 expert biases"
                                                                                 if biases else "")
        return (f"MXFP4 experts on {gpu or engine.ARCH_NAMES.get(arch, arch)}: vLLM {version} picks the "
                f"{engine.BACKEND_NAMES[self.backend]} MoE backend, which {what}.")
