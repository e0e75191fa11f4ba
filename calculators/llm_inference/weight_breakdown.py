"""The weights breakdown the calculators show: a bar per tensor group, and the same as a list.

Both come from :meth:`llm_inference.physics.weights.Weights.groups`, so the bars add up to the
"Weights" output exactly. A scheme the calculator cannot size draws no bars and says why.
"""

from __future__ import annotations

from course_calculators.spec import Chart
from course_calculators.units import GiB, format_bytes

from .physics.weights import Weights


def breakdown_text(weights: Weights) -> str:
    """'Embeddings 1.08 GiB (bf16); Routed experts 60.1 GiB (mxfp4 …, scales 3.5 GiB); …'."""
    if weights.refused:
        return f"not computed: {weights.refused}"
    parts = []
    for g in weights.groups():
        if g.bytes <= 0:
            continue
        formats = ", ".join(g.formats)
        scales = f", scales {format_bytes(g.storage.scales)}" if g.storage.scales >= 1 else ""
        parts.append(f"{g.label} {format_bytes(g.bytes)}" + (f" ({formats}{scales})" if formats or scales else ""))
    return "; ".join(parts)


def breakdown_chart(weights: Weights, title: str = "Weights by tensor group, as vLLM holds them") -> Chart:
    """A bar chart: one bar per group (values and scales stacked), GiB on one GPU at TP 1."""
    if weights.refused:
        return Chart(kind="bar", title=title, x_label="Tensor group", y_label="GiB", labels=["not computed"],
                     series=[{"name": "Weights", "values": [0], "kind": "bar"}],
                     summary=f"No breakdown: the checkpoint's {weights.refused}.")
    groups = [g for g in weights.groups() if g.bytes > 0]
    values = [round(g.storage.values / GiB, 4) for g in groups]
    scales = [round(g.storage.scales / GiB, 4) for g in groups]
    total = weights.total_bytes
    summary = (f"The weights take {format_bytes(total)} ({weights.plan.scheme.label}): "
               + "; ".join(f"{g.label} {format_bytes(g.bytes)} ({g.bytes / total:.1%})" for g in groups) + ".")
    series = [{"name": "Numbers", "values": values, "kind": "bar"}]
    if any(scales):
        series.append({"name": "Scales and zero points", "values": scales, "kind": "bar"})
    return Chart(kind="bar", title=title, x_label="Tensor group", y_label="GiB (one GPU, no parallelism)",
                 labels=[g.label for g in groups], series=series, summary=summary)
