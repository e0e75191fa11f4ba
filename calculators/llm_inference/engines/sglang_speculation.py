"""SGLang's speculative decoding flags as server_args.py settles them (0.4.8–0.5.6), and the tokens the
pool gains for them.

The automatic fraction of :mod:`.sglang` keeps 2 GiB more for an EAGLE-type draft (6 for STANDALONE);
the target's profile runs before the draft is loaded, and ``init_memory_pool`` then adds requests ×
(steps × topk + draft tokens) + 100 tokens to the count, which the draft worker's own pool
(``draft_runner_cache_size``) takes too: the draft's weights and that pool come out of the T × (1 − f)
reserve, unprofiled (:mod:`.sglang_token_pool`).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import sglang  # the module object: physics imports these while sglang is loading

__all__ = ["SPECULATIVE_MAX_RUNNING_REQUESTS", "SpeculativeParams", "speculative_params", "speculative_headroom"]

#: ``--max-running-requests`` when a speculative algorithm leaves it unset (server_args.py, 0.4.8–0.5.6:
#: "Max running requests is reset to 48 for speculative decoding").
SPECULATIVE_MAX_RUNNING_REQUESTS = 48
#: Algorithms by release (server_args.py ``--speculative-algorithm`` choices): 0.4.8–0.4.10 EAGLE, EAGLE3 and
#: NEXTN (mapped to EAGLE); 0.5.3–0.5.6 also STANDALONE (a draft model) and NGRAM (no draft model).
#: The newest release whose speculative flags were read (0.5.23's speculative_hook.py was not).
_SPECULATIVE_TO = (0, 5, 6)
_SPEC_ALGORITHMS = {(0, 4, 8): ("EAGLE", "EAGLE3", "NEXTN"),
                    (0, 5, 3): ("EAGLE", "EAGLE3", "NEXTN", "STANDALONE", "NGRAM")}
#: ``auto_choose_speculative_params`` (server_args.py): (steps, topk, draft tokens) when none is given —
#: (3, 1, 4) for DeepSeek V2/V3 (0.5.3 on also V3.2, gpt-oss and Bailing) and for STANDALONE, else (5, 4, 8).
_SPEC_SMALL = {(0, 4, 8): ("deepseek_v2", "deepseek_v3"),
               (0, 5, 3): ("deepseek_v2", "deepseek_v3", "deepseek_v32", "gpt_oss", "bailing_moe")}


@dataclass(frozen=True)
class SpeculativeParams:
    """``--speculative-algorithm`` and its three numbers as ``_handle_speculative_decoding`` leaves them."""

    algorithm: str  # EAGLE (NEXTN is mapped to it), EAGLE3, STANDALONE or NGRAM
    num_steps: int
    eagle_topk: int
    num_draft_tokens: int
    max_running_requests: int


def speculative_params(algorithm: str, release: str, model_type: str = "", *, num_steps: int | None = None,
                       eagle_topk: int | None = None, num_draft_tokens: int | None = None,
                       max_running_requests: int | None = None) -> SpeculativeParams:
    """What server_args.py makes of the speculative flags (0.4.8–0.5.6): NEXTN becomes EAGLE; without
    ``--speculative-num-steps`` the three numbers are ``auto_choose_speculative_params``'s; with topk 1 the
    draft tokens are steps + 1; ``--max-running-requests`` defaults to 48. NGRAM's numbers do not size the
    pool (0.5.3–0.5.6) and are kept as given."""
    version = sglang.parse_release(release)
    if not (0, 4, 8) <= version <= _SPECULATIVE_TO:
        raise ValueError(f"SGLang {release}'s speculative decoding was not read (0.4.8–0.5.6)")
    read = max(v for v in _SPEC_ALGORITHMS if v <= version)
    algorithm = algorithm.upper()
    if algorithm not in _SPEC_ALGORITHMS[read]:
        raise ValueError(f"SGLang {release} has no --speculative-algorithm {algorithm} "
                         f"({', '.join(_SPEC_ALGORITHMS[read])})")
    if algorithm == "NEXTN":
        algorithm = "EAGLE"
    reqs = SPECULATIVE_MAX_RUNNING_REQUESTS if max_running_requests is None else max_running_requests
    if algorithm == "NGRAM":
        return SpeculativeParams(algorithm, num_steps or 0, eagle_topk or 0, num_draft_tokens or 0, reqs)
    if num_steps is None:
        small = algorithm == "STANDALONE" or model_type in _SPEC_SMALL[read]
        num_steps, eagle_topk, num_draft_tokens = (3, 1, 4) if small else (5, 4, 8)
    if eagle_topk is None or num_draft_tokens is None:
        raise ValueError("give --speculative-eagle-topk and --speculative-num-draft-tokens with "
                         "--speculative-num-steps")
    if eagle_topk == 1:
        num_draft_tokens = num_steps + 1
    return SpeculativeParams(algorithm, num_steps, eagle_topk, num_draft_tokens, reqs)


def speculative_headroom(params: SpeculativeParams) -> int:
    """Tokens ``init_memory_pool`` adds to the profiled count when a draft model shares the token indices
    (model_runner.py, 0.4.8–0.5.6, EAGLE/EAGLE3/STANDALONE; the draft's own pool, ``draft_runner_cache_size``,
    is then the same count): reqs × steps × topk (draft) + reqs × draft tokens (verify) + 100. NGRAM: 0."""
    if params.algorithm == "NGRAM":
        return 0
    reqs = params.max_running_requests
    return reqs * params.num_steps * params.eagle_topk + reqs * params.num_draft_tokens + 100
