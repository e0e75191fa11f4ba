"""Speculative decoding: tokens per target pass, wall-clock speedup, and a check that it is lossless.

A draft model proposes ``k`` tokens; the target model scores all of them in one forward pass. Each
drafted token ``x`` is accepted with probability ``min(1, p(x) / q(x))`` (``p`` the target's
distribution, ``q`` the draft's); at the first rejection a token is drawn from the residual
``norm(max(0, p − q))`` and the pass ends; if all ``k`` are accepted, the same pass yields one bonus
token from ``p``. With the acceptance rate ``α`` (the chance a drafted token is accepted, which is
``Σ_x min(p(x), q(x))``), treated as independent from token to token (Leviathan et al., 2023,
"Fast Inference from Transformers via Speculative Decoding"; Chen et al., 2023, "Accelerating Large
Language Model Decoding with Speculative Sampling"):

    tokens per target pass = 1 + α + α² + … + α^k = (1 − α^(k+1)) / (1 − α)     (k + 1 at α = 1)
    speedup                = tokens per pass / (k·c + 1)

where ``c`` is the cost of one draft step relative to one target pass. The sum form is used: it is
exact at α = 1 and never divides by zero.

The Monte Carlo runs the accept/resample rule on a six-token vocabulary (the next word after "The
cat sat on the"). The target ``p`` is fixed; the draft ``q`` is built so that its acceptance rate is
exactly the ``α`` of the slider: from ``q = p`` (α = 1) it moves linearly towards a fixed, over-
confident draft ``r`` (α = 1 − TV(p, r) = 0.78), then towards a draft that always proposes "moon", a
word the target never says (α = 0). Whatever ``α``, the emitted tokens follow ``p``: the empirical
distribution's distance from ``p`` is sampling noise only, while simply trusting the draft would be
off by TV(p, q) = 1 − α.
"""

from __future__ import annotations

import bisect
import random
from typing import Any, Mapping, Sequence

from course_calculators.spec import Calculator, Chart, Computed, Number, Output, Preset
from course_calculators.units import format_count, format_fraction, format_ratio

from . import answers
from .physics.speculative_speed import speedup, tokens_per_pass  # the formulas, once (decode_roofline too)


#: The context and its next-token vocabulary.
CONTEXT = "The cat sat on the"
VOCAB = ("mat", "floor", "sofa", "bed", "roof", "moon")
#: The target model's next-token distribution (it never says "moon").
TARGET = (0.40, 0.25, 0.15, 0.12, 0.08, 0.0)
#: A plausible but over-confident draft: acceptance 1 − TV(TARGET, DRAFT_MID) = 0.78.
DRAFT_MID = (0.55, 0.10, 0.12, 0.08, 0.10, 0.05)
#: The token a hopeless draft always proposes.
JUNK = VOCAB.index("moon")
K_MAX = 16
#: The Monte Carlo run a reader can step through: its first passes one by one, then the pass at
#: which the emitted tokens first reach CHECKPOINT, and each pass that brings them CHECKPOINT_GROWTH
#: times further (four frames per doubling: the distribution's convergence at an even pace on a
#: log scale), and the last pass. The default run (5,000 tokens) keeps 48 of its 1,484 passes.
FIRST_PASSES = 24
CHECKPOINT = 50
CHECKPOINT_GROWTH = 2 ** 0.25

PARAMS = (
    Number("acceptance", "Acceptance rate α", 0.8, 0, 1, step=0.01, integer=False,
           help="Chance that the target accepts a drafted token: Σ min(p, q) over the vocabulary."),
    Number("draft_tokens", "Draft length k", 4, 1, K_MAX, unit="tokens",
           help="Tokens the draft proposes per target pass."),
    Number("draft_cost", "Draft cost c", 0.05, 0, 1, step=0.01, integer=False,
           help="Time of one draft step as a fraction of one target pass (a 1B draft for a 70B target: "
                "about 0.02–0.05)."),
    Number("samples", "Simulated tokens", 5000, 100, 10000, step=100,
           help="Tokens emitted by the Monte Carlo run of the accept/resample rule."),
    Number("seed", "Random seed", 1, 0, 9999),
)

OUTPUTS = (
    Output("tokens_per_pass", "Tokens per target pass", "count", primary=True,
           help="(1 − α^(k+1)) / (1 − α): accepted drafts plus the one token every pass yields."),
    Output("speedup", "Speedup over plain decoding", "ratio", primary=True,
           help="Tokens per pass ÷ (k·c + 1), the time of a pass including k draft steps."),
    Output("tv_distance", "Output vs target: total variation distance", "fraction", primary=True,
           help="½ Σ |empirical − p| over the vocabulary; sampling noise only (about 1% at 5,000 tokens)."),
    Output("max_abs_deviation", "Output vs target: largest probability gap", "fraction"),
    Output("draft_tv", "Draft vs target: total variation distance", "fraction",
           help="What trusting the draft would cost: 1 − α."),
    Output("empirical_acceptance", "Acceptance rate in the simulation", "fraction"),
    Output("tokens_per_pass_mc", "Tokens per target pass in the simulation", "count"),
    Output("best_k", "Best draft length at this α and c", "count"),
    Output("best_speedup", "Speedup at the best draft length", "ratio"),
    Output("passes", "Target passes in the simulation", "count"),
)
OUTPUTS = answers.grouped(OUTPUTS, answers.SPECULATIVE_DECODING_GROUPS)


def _preset(acceptance: float, k: int = 4, cost: float = 0.05) -> dict[str, Any]:
    return {"acceptance": acceptance, "draft_tokens": k, "draft_cost": cost, "samples": 5000, "seed": 1}


PRESETS = (
    Preset("code", "Code (α 0.9)", _preset(0.9),
           "Code is predictable: 4.1 tokens per target pass and a 3.4× speedup; a longer draft (k 8) "
           "pushes it to about 4.4×."),
    Preset("chat", "Chat (α 0.7)", _preset(0.7),
           "Open-ended chat: 2.8 tokens per pass, a 2.3× speedup — the typical 2–3× of production systems."),
    Preset("bad-draft", "Bad draft (α 0.3)", _preset(0.3),
           "A poorly matched draft: 1.4 tokens per pass and a 1.2× speedup; the output is still exactly the "
           "target's distribution — only speed is lost."),
    Preset("expensive-draft", "Expensive draft (c 0.5)", _preset(0.8, cost=0.5),
           "A draft half as slow as the target: 3.4 tokens per pass buy only 1.1×; here the best draft length "
           "is 2."),
)


def acceptance_of(p: Sequence[float], q: Sequence[float]) -> float:
    """Probability that a token drafted from ``q`` is accepted against ``p``: Σ min(p, q) = 1 − TV."""
    return sum(min(a, b) for a, b in zip(p, q))


def total_variation(p: Sequence[float], q: Sequence[float]) -> float:
    return 0.5 * sum(abs(a - b) for a, b in zip(p, q))


def _mix(a: Sequence[float], b: Sequence[float], t: float) -> list[float]:
    return [(1 - t) * x + t * y for x, y in zip(a, b)]


def draft_for(alpha: float) -> list[float]:
    """A draft distribution whose acceptance against TARGET is exactly ``alpha`` (bisection below 0.78)."""
    alpha = min(1.0, max(0.0, alpha))
    mid = acceptance_of(TARGET, DRAFT_MID)
    if alpha >= mid:  # acceptance falls linearly from 1 at p to `mid` at DRAFT_MID
        return _mix(TARGET, DRAFT_MID, (1 - alpha) / (1 - mid))
    junk = [1.0 if i == JUNK else 0.0 for i in range(len(VOCAB))]
    lo, hi = 0.0, 1.0  # acceptance falls monotonically from `mid` to 0 along DRAFT_MID → junk
    for _ in range(60):
        t = (lo + hi) / 2
        if acceptance_of(TARGET, _mix(DRAFT_MID, junk, t)) > alpha:
            lo = t
        else:
            hi = t
    return _mix(DRAFT_MID, junk, (lo + hi) / 2)


def residual(p: Sequence[float], q: Sequence[float]) -> list[float]:
    """norm(max(0, p − q)): where a rejected token is redrawn from; p itself if p == q."""
    r = [max(0.0, a - b) for a, b in zip(p, q)]
    total = sum(r)
    if total <= 1e-12:
        return list(p)
    return [x / total for x in r]


def _cumulative(weights: Sequence[float]) -> list[float]:
    out, acc = [], 0.0
    for w in weights:
        acc += w
        out.append(acc)
    return out


def simulate(p: Sequence[float], q: Sequence[float], k: int, tokens: int, seed: int) -> dict[str, Any]:
    """Run speculative sampling until ``tokens`` tokens are emitted; count them per vocabulary entry."""
    rng = random.Random(seed)
    rand = rng.random
    n = len(p)
    cum_q, cum_p, cum_r = _cumulative(q), _cumulative(p), _cumulative(residual(p, q))

    def draw(cum: list[float]) -> int:
        return min(bisect.bisect_right(cum, rand() * cum[-1]), n - 1)

    accept = [min(1.0, p[i] / q[i]) if q[i] > 0 else 0.0 for i in range(n)]
    counts = [0] * n
    emitted = passes = drafted = accepted = 0
    frames: list[dict[str, Any]] = []
    checkpoint = CHECKPOINT
    while emitted < tokens:
        passes += 1
        shown: list[tuple[int, str]] = []  # this pass's tokens, recorded as they are drawn
        for _ in range(k):
            x = draw(cum_q)
            drafted += 1
            if rand() < accept[x]:
                accepted += 1
                counts[x] += 1
                emitted += 1
                shown.append((x, "accepted"))
            else:
                y = draw(cum_r)
                counts[y] += 1
                emitted += 1
                shown += [(x, "rejected"), (y, "resampled")]
                break
        else:  # every draft accepted: the target's pass yields one more token from p
            y = draw(cum_p)
            counts[y] += 1
            emitted += 1
            shown.append((y, "bonus"))
        last = emitted >= tokens
        if passes <= FIRST_PASSES or emitted >= checkpoint or last:
            while checkpoint <= emitted:
                checkpoint *= CHECKPOINT_GROWTH
            frames.append({"pass": passes, "tokens": shown, "counts": list(counts), "emitted": emitted,
                           "drafted": drafted, "accepted": accepted})
    return {
        "counts": counts,
        "emitted": emitted,
        "passes": passes,
        "acceptance": accepted / drafted if drafted else 0.0,
        "frames": frames,
    }


def compute(p: Mapping[str, Any]) -> Computed:
    notes: list[str] = []
    alpha, k, cost = p["acceptance"], p["draft_tokens"], p["draft_cost"]
    tpp = tokens_per_pass(alpha, k)
    gain = speedup(alpha, k, cost)
    curve = [speedup(alpha, j, cost) for j in range(1, K_MAX + 1)]
    best = max(range(K_MAX), key=lambda i: (curve[i], -i))
    q = draft_for(alpha)
    sim = simulate(TARGET, q, k, p["samples"], p["seed"])
    emitted = sim["emitted"]
    empirical = [c / emitted for c in sim["counts"]]
    gaps = [abs(e - t) for e, t in zip(empirical, TARGET)]
    if gain < 1:
        notes.append(f"At α = {alpha:g} and c = {cost:g} speculative decoding is slower than plain decoding "
                     f"({format_ratio(gain)}): the draft costs more than its accepted tokens save.")
    values = {
        "tokens_per_pass": tpp,
        "speedup": gain,
        "tv_distance": 0.5 * sum(gaps),
        "max_abs_deviation": max(gaps),
        "draft_tv": total_variation(TARGET, q),
        "empirical_acceptance": sim["acceptance"],
        "tokens_per_pass_mc": emitted / sim["passes"] if sim["passes"] else 0.0,
        "best_k": best + 1,
        "best_speedup": curve[best],
        "passes": sim["passes"],
    }
    return Computed(values, notes, details={"curve": curve, "draft": q, "empirical": empirical, "emitted": emitted,
                                            "frames": sim["frames"]})


def _plural(n: int, one: str, many: str = "") -> str:
    return f"{format_count(n)} {one if n == 1 else many or one + 's'}"


def _frames(p: Mapping[str, Any], v: Mapping[str, Any], details: Mapping[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The Monte Carlo run pass by pass: each pass's drafted, accepted, rejected and resampled
    tokens, and the output's distribution so far against the target's."""
    q, k = details["draft"], p["draft_tokens"]
    expected = tokens_per_pass(p["acceptance"], k)
    frames, per_pass, distance = [], [], []
    for f in details["frames"]:
        empirical = [c / f["emitted"] for c in f["counts"]]
        tv = total_variation(empirical, TARGET)
        rate = f["accepted"] / f["drafted"] if f["drafted"] else 0.0
        tpp = f["emitted"] / f["pass"]
        words = {"accepted": "accepted", "rejected": "rejected", "resampled": "drawn from the residual instead",
                 "bonus": "a bonus token from the target"}
        told = "; ".join(f"{VOCAB[x]} {words[state]}" for x, state in f["tokens"])
        frames.append({
            "label": f"Pass {format_count(f['pass'])}",
            "summary": (f"Pass {format_count(f['pass'])} of the simulation (k = {k}): {told}. "
                        f"{_plural(f['emitted'], 'token')} after {_plural(f['pass'], 'pass', 'passes')}, "
                        f"{format_count(tpp)} per pass (the formula says {format_count(expected)}); "
                        f"acceptance so far {format_fraction(rate)}; the output is within "
                        f"{format_fraction(tv)} total variation of the target."),
            "series": [
                {"name": "target p", "values": [round(x * 100, 2) for x in TARGET], "kind": "bar"},
                {"name": "draft q", "values": [round(x * 100, 2) for x in q], "kind": "bar"},
                {"name": "empirical (spec. decoding)", "values": [round(x * 100, 2) for x in empirical], "kind": "bar"},
            ],
            "stats": [
                ["Tokens emitted", format_count(f["emitted"])],
                ["Tokens per target pass so far", f"{format_count(tpp)} (formula {format_count(expected)})"],
                ["Acceptance so far", format_fraction(rate)],
                ["Output vs target (TV distance)", format_fraction(tv)],
            ],
            "panels": [{"kind": "tokens", "title": f"Pass {format_count(f['pass'])}: the draft's {k} guesses, checked "
                                                    "left to right",
                        "tokens": [{"text": VOCAB[x], "state": state} for x, state in f["tokens"]]}],
        })
        per_pass.append(round(tpp, 4))
        distance.append(round(tv * 100, 2))
    timeline = {"title": "Over the run", "y_label": "tokens per pass; TV distance (%)", "series": [
        {"name": "Tokens per target pass so far", "values": per_pass},
        {"name": "Formula", "values": [round(expected, 4)] * len(frames), "kind": "rule"},
        {"name": "Output vs target, TV distance (%)", "values": distance},
    ]}
    return frames, timeline


def chart(p: Mapping[str, Any], v: Mapping[str, Any], details: Mapping[str, Any]) -> list[Chart]:
    k, alpha, cost = p["draft_tokens"], p["acceptance"], p["draft_cost"]
    curve = details["curve"]
    line = Chart(
        kind="line",
        title="Speedup against draft length",
        x_label="Draft length k (tokens per pass)",
        y_label="Speedup (×)",
        labels=[str(j) for j in range(1, K_MAX + 1)],
        series=[
            {"name": f"Speedup at α = {alpha:g}, c = {cost:g}", "values": [round(s, 4) for s in curve]},
            {"name": "Plain decoding (1×)", "values": [1.0] * K_MAX, "kind": "rule"},
        ],
        marker=k - 1,
        summary=(f"At acceptance α = {alpha:g} and draft cost c = {cost:g}, the speedup is "
                 f"{format_ratio(curve[0])} at k = 1, {format_ratio(curve[k - 1])} at the chosen k = {k} and "
                 f"{format_ratio(curve[-1])} at k = {K_MAX}; the best draft length is {v['best_k']} "
                 f"({format_ratio(v['best_speedup'])})."),
    )
    q, empirical = details["draft"], details["empirical"]
    frames, timeline = _frames(p, v, details)
    frames[-1]["summary"] = (
        f"Over {format_count(details['emitted'])} simulated tokens the speculative output matches the target "
        f"within {format_fraction(v['tv_distance'])} total variation (largest gap "
        f"{format_fraction(v['max_abs_deviation'])}), although the draft differs from the target by "
        f"{format_fraction(v['draft_tv'])}. "
        + "; ".join(f"{w}: target {format_fraction(t)}, draft {format_fraction(d)}, "
                    f"output {format_fraction(e)}" for w, t, d, e in zip(VOCAB, TARGET, q, empirical))
        + ". " + frames[-1]["summary"])
    bars = Chart(
        kind="bar",
        title=f"Next word after “{CONTEXT}”: target, draft and speculative output",
        x_label="Token",
        y_label="Probability (%)",
        labels=list(VOCAB),
        series=frames[0]["series"],
        summary=frames[0]["summary"],
        frames=frames,
        frame=0,  # the chart shows the run's first pass, where the player opens (and plays from)
        timeline=timeline,
    )
    return [line, bars]


SPEC = Calculator(
    id="speculative-decoding",
    title="Speculative decoding",
    summary="Expected tokens per target pass and wall-clock speedup from acceptance rate, draft length and "
            "draft cost, with a Monte Carlo run of the accept/resample rule showing the output is unchanged.",
    params=PARAMS,
    outputs=OUTPUTS,
    presets=PRESETS,
    compute=compute,
    chart=chart,
    answer=answers.speculative_decoding,
    answers=answers.SPECULATIVE_DECODING,
)
