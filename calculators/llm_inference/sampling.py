"""Choosing the next token: repetition penalty, temperature, top-k and top-p on a tiny language model.

The model is a bigram table: twelve words, and for each previous word a row of logits for the
next one. After "I think", "I" is the likeliest next word and after "I" it is "think", so greedy
decoding loops: "I think I think I think…". The transforms are applied in this order, as Hugging
Face transformers' logits processors and warpers apply them:

1. **Repetition penalty** ``ρ`` (Keskar et al., 2019, CTRL): every word already in the text, prompt
   included, has its logit divided by ``ρ`` if positive and multiplied by ``ρ`` if negative — less
   likely either way. It applies once per word, however often the word occurred.
2. **Temperature** ``T``: logits divided by ``T`` before the softmax. ``T < 1`` sharpens the
   distribution, ``T > 1`` flattens it; ``T = 0`` is greedy decoding (the likeliest word, always).
3. **Top-k**: only the ``k`` likeliest words stay (0: off).
4. **Top-p** (nucleus sampling, Holtzman et al., 2020, "The Curious Case of Neural Text
   Degeneration"): only the smallest set of likeliest words whose probabilities add up to at least
   ``p`` stays (1: off; the likeliest word always stays).
5. **Renormalise** the survivors to sum to 1, and **sample** (seeded).

Ties are broken by vocabulary order, so every result is deterministic for a given seed.
"""

from __future__ import annotations

import math
import random
from typing import Any, Mapping, Sequence

from course_calculators.spec import Calculator, Chart, Computed, Number, Output, Preset
from course_calculators.units import format_count, format_fraction

from . import answers


VOCAB = ("I", "think", "that", "it", "is", "a", "good", "idea", ".", "we", "should", "try")
PROMPT = ("I", "think")
#: Logit of any pair the table does not list.
BASE_LOGIT = -1.0
#: Next-word logits after each word (a bigram model; unlisted words get BASE_LOGIT).
BIGRAMS: dict[str, dict[str, float]] = {
    "I": {"think": 4.0, "should": 1.5, "try": 1.0, "that": -0.5},
    "think": {"I": 3.0, "that": 2.6, "it": 1.2, "we": 1.0, ".": 0.6, "a": 0.2, "good": 0.0, "is": -0.5,
              "should": -0.8, "try": -1.2, "idea": -1.5, "think": -2.0},
    "that": {"it": 2.5, "I": 2.2, "we": 1.8, "is": 1.0, "a": 0.5, "good": 0.3},
    "it": {"is": 3.0, "should": 1.0, ".": 0.8},
    "is": {"a": 2.5, "good": 2.0, "that": 0.5, ".": 0.2, "it": -0.5},
    "a": {"good": 2.8, "idea": 2.0, "try": 0.5},
    "good": {"idea": 3.0, ".": 1.5, "that": 0.5, "try": 0.2},
    "idea": {".": 3.0, "that": 1.0, "I": 0.8, "we": 0.5},
    ".": {"I": 2.5, "we": 2.0, "it": 1.5, "that": 0.5, "a": -0.5},
    "we": {"should": 2.5, "think": 2.4, "try": 1.0, "is": -1.5},
    "should": {"try": 2.5, "think": 1.5, "I": -2.0},
    "try": {"it": 2.0, ".": 1.8, "that": 1.5, "a": 1.2},
}
#: The longest repeated phrase the loop check looks for, and how many back-to-back copies make a loop.
LOOP_PHRASE_MAX = 6
LOOP_COPIES = 3

PARAMS = (
    Number("temperature", "Temperature", 1.0, 0, 2, step=0.05, integer=False,
           help="0 is greedy decoding; below 1 sharpens the distribution, above 1 flattens it."),
    Number("top_k", "Top-k", 0, 0, len(VOCAB), help="Keep only the k likeliest words; 0 turns it off."),
    Number("top_p", "Top-p (nucleus)", 1.0, 0, 1, step=0.01, integer=False,
           help="Keep the fewest likeliest words whose probabilities reach p; 1 turns it off."),
    Number("repetition_penalty", "Repetition penalty", 1.0, 1, 2, step=0.05, integer=False,
           help="CTRL-style: logits of words already in the text are divided (if positive) or multiplied "
                "(if negative) by this; 1 turns it off."),
    Number("length", "Continuation length", 16, 1, 40, unit="words"),
    Number("seed", "Random seed", 1, 0, 9999),
)

OUTPUTS = (
    Output("top_prob", "Probability of the likeliest next word", "fraction", primary=True,
           help="After “I think”, once every setting has been applied."),
    Output("candidates", "Words that can be chosen", "count", primary=True,
           help="Words left with a non-zero probability after top-k and top-p."),
    Output("continuation", "Sampled continuation", "text", primary=True),
    Output("loops", "Repetition loop", "bool", words=("no loop", "loops"), primary=True,
           help=f"A phrase of 1–{LOOP_PHRASE_MAX} words repeated {LOOP_COPIES} times back to back."),
    Output("entropy", "Entropy of the next-word distribution (bits)", "count",
           help="0 when one word is certain; log2(12) ≈ 3.58 when all twelve are equally likely."),
    Output("top_token", "Likeliest next word", "text"),
    Output("distinct_words", "Distinct words in the continuation", "count"),
)
OUTPUTS = answers.grouped(OUTPUTS, answers.SAMPLING_GROUPS)

#: Length and seed, spelled out in every preset so that each notice holds whatever was set before.
_RUN = {"length": 16, "seed": 1}

PRESETS = (
    Preset("greedy", "Greedy (T = 0)",
           {"temperature": 0, "top_k": 0, "top_p": 1.0, "repetition_penalty": 1.0, **_RUN},
           "Always the likeliest word: “I” after “think”, “think” after “I” — the continuation loops "
           "forever."),
    Preset("creative", "Creative (T 1.0, top-p 0.95)",
           {"temperature": 1.0, "top_k": 0, "top_p": 0.95, "repetition_penalty": 1.0, **_RUN},
           "The model's own distribution with the unlikely tail cut off: 7 of 12 words stay possible and "
           "the text wanders."),
    Preset("focused", "Focused (T 0.7, top-k 3)",
           {"temperature": 0.7, "top_k": 3, "top_p": 1.0, "repetition_penalty": 1.0, **_RUN},
           "A sharper distribution over only three candidates: “I” gets 61% and the text stays close to the "
           "likeliest path — varied, but it can still slip into the loop."),
    Preset("penalty", "Repetition penalty 1.3",
           {"temperature": 0, "top_k": 0, "top_p": 1.0, "repetition_penalty": 1.3, **_RUN},
           "Still greedy, but words already used are penalised: “that” overtakes “I” and the text moves on "
           "(“that it is a good idea . we should try…”). Once every word has been used, the old loop returns."),
)


def logits_after(previous: str) -> list[float]:
    row = BIGRAMS.get(previous, {})
    return [row.get(word, BASE_LOGIT) for word in VOCAB]


def apply_penalty(logits: Sequence[float], seen: Sequence[int], penalty: float) -> list[float]:
    """CTRL repetition penalty: divide positive and multiply negative logits of seen words, once each."""
    out = list(logits)
    if penalty == 1:
        return out
    for i in set(seen):
        out[i] = out[i] / penalty if out[i] > 0 else out[i] * penalty
    return out


def softmax(logits: Sequence[float], temperature: float = 1.0) -> list[float]:
    """Softmax of logits / T, shifted by the maximum (no overflow at small T); T = 0: one-hot argmax."""
    if temperature <= 0:
        best = max(range(len(logits)), key=lambda i: (logits[i], -i))
        return [1.0 if i == best else 0.0 for i in range(len(logits))]
    top = max(logits)
    weights = [math.exp((x - top) / temperature) for x in logits]
    total = sum(weights)  # ≥ 1: the maximum contributes exp(0)
    return [w / total for w in weights]


def _ranked(probs: Sequence[float]) -> list[int]:
    return sorted(range(len(probs)), key=lambda i: (-probs[i], i))


def top_k_filter(probs: Sequence[float], k: int) -> list[float]:
    """Keep the ``k`` likeliest (0: all); the rest become 0. Not renormalised."""
    if k <= 0 or k >= len(probs):
        return list(probs)
    keep = set(_ranked(probs)[:k])
    return [p if i in keep else 0.0 for i, p in enumerate(probs)]


def top_p_filter(probs: Sequence[float], top_p: float) -> list[float]:
    """Keep the smallest set of likeliest words whose mass reaches ``top_p`` of the total (≥ 1 word)."""
    if top_p >= 1:
        return list(probs)
    total = sum(probs)
    keep, mass = set(), 0.0
    for i in _ranked(probs):
        if probs[i] <= 0:
            break
        keep.add(i)
        mass += probs[i]
        if mass >= top_p * total:
            break
    return [p if i in keep else 0.0 for i, p in enumerate(probs)]


def next_distribution(previous: str, seen: Sequence[int], temperature: float, top_k: int, top_p: float,
                      penalty: float) -> list[float]:
    """The next-word distribution: penalty → temperature → top-k → top-p → renormalise."""
    logits = apply_penalty(logits_after(previous), seen, penalty)
    probs = softmax(logits, temperature)
    if temperature > 0:
        probs = top_p_filter(top_k_filter(probs, top_k), top_p)
    total = sum(probs)
    return [x / total for x in probs] if total > 0 else softmax(logits, 0)


def loops(words: Sequence[str], max_phrase: int = LOOP_PHRASE_MAX, copies: int = LOOP_COPIES) -> bool:
    """Whether some phrase of 1…max_phrase words occurs ``copies`` times back to back."""
    n = len(words)
    for size in range(1, max_phrase + 1):
        span = size * copies
        for start in range(n - span + 1):
            phrase = words[start:start + size]
            if all(words[start + c * size:start + (c + 1) * size] == phrase for c in range(1, copies)):
                return True
    return False


def generate(p: Mapping[str, Any]) -> list[str]:
    """Sample ``length`` words after the prompt with the chosen settings (seeded)."""
    rng = random.Random(p["seed"])
    words = list(PROMPT)
    seen = [VOCAB.index(w) for w in words]
    for _ in range(p["length"]):
        probs = next_distribution(words[-1], seen, p["temperature"], p["top_k"], p["top_p"],
                                  p["repetition_penalty"])
        u, acc, choice = rng.random(), 0.0, None
        for i, prob in enumerate(probs):
            if prob <= 0:
                continue
            choice = i
            acc += prob
            if u < acc:
                break
        words.append(VOCAB[choice])
        seen.append(choice)
    return words[len(PROMPT):]


def entropy_bits(probs: Sequence[float]) -> float:
    return max(0.0, -sum(x * math.log2(x) for x in probs if x > 0))


def compute(p: Mapping[str, Any]) -> Computed:
    notes: list[str] = []
    seen = [VOCAB.index(w) for w in PROMPT]
    probs = next_distribution(PROMPT[-1], seen, p["temperature"], p["top_k"], p["top_p"],
                              p["repetition_penalty"])
    best = _ranked(probs)[0]
    continuation = generate(p)
    if p["temperature"] == 0 and (p["top_k"] or p["top_p"] < 1):
        notes.append("At temperature 0 decoding is greedy: top-k and top-p change nothing.")
    values = {
        "top_prob": probs[best],
        "candidates": sum(1 for x in probs if x > 0),
        "continuation": " ".join(continuation),
        "loops": loops(list(PROMPT) + continuation),
        "entropy": round(entropy_bits(probs), 3),
        "top_token": VOCAB[best],
        "distinct_words": len(set(continuation)),
    }
    return Computed(values, notes, details={"probs": probs})


def chart(p: Mapping[str, Any], v: Mapping[str, Any], details: Mapping[str, Any]) -> Chart:
    probs = details["probs"]
    raw = softmax(logits_after(PROMPT[-1]))
    kept = [w for w, x in zip(VOCAB, probs) if x > 0]
    return Chart(
        kind="bar",
        title="Next word after “I think”",
        x_label="Word",
        y_label="Probability (%)",
        labels=list(VOCAB),
        series=[
            {"name": "probability", "values": [round(x * 100, 2) for x in probs], "kind": "bar"},
            {"name": "model (T = 1, no filters)", "values": [round(x * 100, 2) for x in raw], "kind": "bar"},
        ],
        marker=VOCAB.index(v["top_token"]),
        summary=(f"After “I think”, with these settings {format_count(v['candidates'])} of {len(VOCAB)} words can "
                 f"be chosen ({', '.join(kept)}); the likeliest, “{v['top_token']}”, has "
                 f"{format_fraction(v['top_prob'])} (the model alone gives it "
                 f"{format_fraction(raw[VOCAB.index(v['top_token'])])}). Entropy {format_count(v['entropy'])} bits. "
                 f"Sampled continuation: “{v['continuation']}”"
                 + (" — a repetition loop." if v["loops"] else ".")),
    )


SPEC = Calculator(
    id="sampling",
    title="Sampling: temperature, top-k, top-p and repetition penalty",
    summary="A twelve-word bigram model after “I think”: how each setting reshapes the next-word distribution, "
            "and a sampled continuation that loops under greedy decoding.",
    params=PARAMS,
    outputs=OUTPUTS,
    presets=PRESETS,
    compute=compute,
    chart=chart,
    answer=answers.sampling,
    answers=answers.SAMPLING,
)
