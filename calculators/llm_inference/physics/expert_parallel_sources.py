"""Where :mod:`.expert_parallel`'s rules come from: vLLM's source, file by file, with what it says.

Read through the public GitHub index of vllm-project/vllm (stored snapshots of the main branch, each
named by its commit; not a tagged release's archive) and the pull request that changed the rule.
The rules are the same in every snapshot read from the 0.10.1 change on; the calculators apply them
to every release from 0.10.1 (``expert_parallel.BALANCED_SINCE``) and the old map before it.

EPLB and the all-to-all backends were read in the wheels on PyPI (``pip download vllm==X --no-deps
--only-binary :all:``) of 0.17.0, 0.23.0, 0.28.0 and 0.33.0 (commit 4ba787ec9); their URLs name the
0.33.0 tag.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Source:
    rule: str  # what the calculators take from it
    file: str  # path in vllm-project/vllm
    where: str  # the function or field
    release: str  # the releases it holds for
    url: str
    says: str  # the lines it rests on, shortened


_BLOB = "https://github.com/vllm-project/vllm/blob/"
_TAG = _BLOB + "v0.33.0/vllm/"

SOURCES: tuple[Source, ...] = (
    Source("EP size = TP × DP (× PCP); the MoE layer's own TP becomes 1",
           "vllm/model_executor/layers/fused_moe/config.py", "FusedMoEParallelConfig.make", "0.10.1 on (snapshot read)",
           _BLOB + "002d6073aa034d4f5545d45021b0e56d1f3c3593/vllm/model_executor/layers/fused_moe/config.py",
           "use_ep = (dp_size_ * pcp_size_ * tp_size_ > 1 and vllm_parallel_config.enable_expert_parallel); "
           "tp_size, tp_rank = flatten_tp_across_dp_and_pcp(...); ep_size = tp_size; ... tp_size=1. Docstring: "
           "'When, TP = 2, DP(PCP) = 1 and EP = True ... The experts are split between the 2 devices.'"),
    Source("under EP each expert keeps its full width (intermediate_size ÷ the MoE layer's tp_size of 1)",
           "vllm/model_executor/layers/fused_moe/config.py", "FusedMoEConfig.__post_init__", "0.10.1 on (snapshot read)",
           _BLOB + "002d6073aa034d4f5545d45021b0e56d1f3c3593/vllm/model_executor/layers/fused_moe/config.py",
           "tp_size = self.moe_parallel_config.tp_size; "
           "self.intermediate_size_per_partition = self.intermediate_size // tp_size"),
    Source("experts per rank: base = E // EP, the first E mod EP ranks one more (linear placement)",
           "vllm/model_executor/layers/fused_moe/expert_map_manager.py (earlier in layer.py)", "determine_expert_map",
           "0.10.1 on",
           _BLOB + "04d26335ddf7fb894244a56de9dc3b841323b0ae/vllm/model_executor/layers/fused_moe/expert_map_manager.py",
           "base_experts = global_num_experts // ep_size; remainder = global_num_experts % ep_size; "
           "local_num_experts = base_experts + 1 if ep_rank < remainder else base_experts. (Its docstring still "
           "says 'Any remaining are assigned to the last rank': the code is what runs.)"),
    Source("before: every rank E // EP, the last rank the rest",
           "vllm/model_executor/layers/fused_moe/layer.py", "determine_expert_map", "up to 0.10.0",
           "https://github.com/vllm-project/vllm/pull/21497",
           "PR #21497 '[MoE] More balanced expert sharding' (merged 2025-07-24): '30 experts and an ep_size of 8 ... "
           "[3, 3, 3, 3, 3, 3, 3, 9], assigning all remainder experts to the last rank ... After applying this fix "
           "... [4, 4, 4, 4, 4, 4, 3, 3]'; the removed lines: 'All remaining experts are assigned to the last rank.'"),
    Source("weights are created for the local experts only",
           "vllm/model_executor/layers/fused_moe/layer.py", "FusedMoE.__init__", "every release read",
           _BLOB + "0014ec6c58e1b74e660a1e6d059b5689716183ff/vllm/model_executor/layers/fused_moe/layer.py",
           "self.quant_method.create_weights(layer=self, num_experts=self.local_num_experts, ...); "
           "UnquantizedFusedMoEMethod.create_weights: w13 (num_experts, 2 × intermediate_size_per_partition, "
           "hidden_size), w2 (num_experts, hidden_size, intermediate_size_per_partition)"),
    Source("physical experts: E + R on the EP group, (E + R) / EP per rank, only with EPLB and an even split",
           "vllm/model_executor/layers/fused_moe/layer.py", "determine_expert_counts; FusedMoEFactory",
           "0.33.0 (the same check in FusedMoE.__init__ of 0.17.0-0.28.0)",
           _TAG + "model_executor/layers/fused_moe/layer.py",
           "global_num_experts = num_experts + num_redundant_experts; if enable_eplb: if use_ep and "
           "global_num_experts % ep_size != 0: raise ValueError('EPLB currently only supports even distribution "
           "of experts across ranks.'); else: assert num_redundant_experts == 0, 'Redundant experts are only "
           "supported with EPLB.'"),
    Source("EPLB needs EP over more than one GPU; redundant experts without EPLB are refused",
           "vllm/config/parallel.py", "ParallelConfig.__post_init__ / EPLBConfig", "0.33.0",
           _TAG + "config/parallel.py",
           "window_size: int = Field(default=1000, gt=0); num_redundant_experts: int = Field(default=0, ge=0); "
           "'enable_expert_parallel must be True to use EPLB.'; 'EPLB requires tensor, prefill-context, or data "
           "parallelism'; 'num_redundant_experts is set to ... but EPLB is not enabled.'"),
    Source("EPLB's state: one MoE layer's local experts as a receive buffer, and its tables",
           "vllm/distributed/eplb/eplb_state.py", "EplbState.add_model", "0.23.0, 0.28.0, 0.33.0",
           _TAG + "distributed/eplb/eplb_state.py",
           "MAX_EXPERT_REDUNDANCY = 1023; logical_to_physical_map = torch.full((num_logical_experts, "
           "MAX_EXPERT_REDUNDANCY + 1), -1) expanded to num_moe_layers; physical_to_logical_map (num_moe_layers, "
           "num_physical_experts); logical_replica_count dtype=torch.long; expert_load_pass int32 (num_moe_layers, "
           "num_physical_experts); expert_load_window int32 (window_size, num_moe_layers, num_physical_experts); "
           "0.33.0: last_expert_load=torch.ones((num_moe_layers, num_logical_experts), dtype=torch.int64); "
           "expert_buffer = [torch.empty_like(w) for w in model.expert_weights[0]]"),
    Source("EPLB's state is built inside the load's memory measurement (0.23.0 on; 0.17.0: after it)",
           "vllm/v1/worker/gpu_model_runner.py", "GPUModelRunner.load_model", "0.23.0, 0.28.0, 0.33.0",
           _TAG + "v1/worker/gpu_model_runner.py",
           "with DeviceMemoryProfiler() as m: ... self.eplb_state.add_model(self._moe_model, ...) ... "
           "self.model_memory_usage = m.consumed_memory (0.17.0: the main model's add_model after it)"),
    Source("EPLB's weight communicator allocates no GPU tensor of its own",
           "vllm/distributed/eplb/eplb_communicator.py; vllm/config/parallel.py",
           "NixlEplbCommunicator; TorchDistGlooStagedEplbCommunicator; communicator default", "0.33.0",
           _TAG + "distributed/eplb/eplb_communicator.py",
           "communicator: 'nixl' when available, else 'pynccl' for elastic EP, else 'torch_gloo'; NIXL "
           "register_memory(all expert weights + expert_buffer); Gloo stages through cpu_tensor = torch.empty_like"
           "(..., device='cpu')"),
    Source("the default all-to-all keeps no buffer: all-gather to dispatch, reduce-scatter to combine",
           "vllm/distributed/device_communicators/all2all.py; cuda_communicator.py; vllm/config/parallel.py",
           "AgRsAll2AllManager; all2all_backend", "0.15.0-0.33.0 (default); 0.33.0 (classes)",
           _TAG + "distributed/device_communicators/all2all.py",
           "all2all_backend: All2AllBackend = 'allgather_reducescatter'; 'naive' and 'pplx' fall back to it; "
           "AgRsAll2AllManager.__init__ keeps only use_ep; DeepEP high-throughput / low-latency, NIXL-EP, Mori, "
           "DeepEP v2, MoonEP and FlashInfer NVLink managers (other backends) build buffers of their own, not "
           "modelled"),
    Source("redundant experts: default 0, only with EPLB, which needs an even split",
           "vllm/config/parallel.py; vllm/model_executor/layers/fused_moe/layer.py",
           "EPLBConfig.num_redundant_experts; FusedMoE.__init__", "snapshot read",
           _BLOB + "00193b82b0e2d4faea5d3b4ea4f6c4c2bd9d057a/vllm/config/parallel.py",
           "num_redundant_experts: int = Field(default=0, ge=0); enable_expert_parallel: bool = False 'Use expert "
           "parallelism instead of tensor parallelism for MoE layers.'; FusedMoE: 'assert num_redundant_experts "
           "== 0, \"Redundant experts are only supported with EPLB.\"', 'EPLB currently only supports even "
           "distribution of experts across ranks.'"),
    Source("the workspace: M × top_k rows of the rank's expert width, whatever the number of local experts",
           "vllm/model_executor/layers/fused_moe/experts/triton_moe.py", "TritonExperts.workspace_shapes",
           "0.14 on (engines.vllm.moe_workspace_bytes)",
           _BLOB + "00033579451df00406deb3c50ffdeb6911051cd4/vllm/model_executor/layers/fused_moe/experts/triton_moe.py",
           "workspace_shapes(M, N, K, topk, global_num_experts, local_num_experts, ...): workspace1 = (M, topk, "
           "max(activation_out_dim, K)), workspace2 = (M, topk, max(N, K)): local_num_experts is not used; N is "
           "w13's rows, 2 × the width on this rank; tokens sent to another rank's experts are masked through the "
           "expert_map (_prepare_expert_assignment), not dropped from M"),
)
