"""A Llama-style decoder block (RMSNorm, grouped-query attention with q/k/v/o projections, SiLU-gated
MLP) whose nn.Linear layers are swapped for cutlass_lib's, run eagerly, under
torch.compile(fullgraph=True) and replayed from a CUDA graph, each checked against PyTorch's own
block (bf16 tolerance) and timed against it: eagerly and as CUDA-graph replays (the GEMMs' own time,
without the host's launches), PyTorch's and ours interleaved.

    python python/examples/decoder_block.py [--tokens 16] [--hidden 4096]
"""
import argparse
import copy

import torch
import torch.nn.functional as F

import cutlass_lib.torch as clt


class RMSNorm(torch.nn.Module):
    def __init__(self, dim: int, eps: float = 1e-5):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + self.eps).to(x.dtype) * self.weight


class DecoderBlock(torch.nn.Module):
    def __init__(self, hidden: int, heads: int, kv_heads: int, intermediate: int):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, hidden // heads
        self.attention_norm, self.mlp_norm = RMSNorm(hidden), RMSNorm(hidden)
        self.q_proj = torch.nn.Linear(hidden, heads * self.head_dim, bias=False)
        self.k_proj = torch.nn.Linear(hidden, kv_heads * self.head_dim, bias=False)
        self.v_proj = torch.nn.Linear(hidden, kv_heads * self.head_dim, bias=False)
        self.o_proj = torch.nn.Linear(heads * self.head_dim, hidden, bias=False)
        self.gate_proj = torch.nn.Linear(hidden, intermediate, bias=False)
        self.up_proj = torch.nn.Linear(hidden, intermediate, bias=False)
        self.down_proj = torch.nn.Linear(intermediate, hidden, bias=False)

    def forward(self, x):   # x: (batch, tokens, hidden)
        batch, tokens, _ = x.shape
        h = self.attention_norm(x)
        q = self.q_proj(h).view(batch, tokens, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(h).view(batch, tokens, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(h).view(batch, tokens, self.kv_heads, self.head_dim).transpose(1, 2)
        attention = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        x = x + self.o_proj(attention.transpose(1, 2).reshape(batch, tokens, -1))
        h = self.mlp_norm(x)
        return x + self.down_proj(F.silu(self.gate_proj(h)) * self.up_proj(h))


def relative_error(y, reference):
    return ((y.double() - reference.double()).norm() / reference.double().norm()).item()


def time_ms(functions, repeats=50):
    """Median GPU time (ms) of each of `functions` (no arguments), the calls interleaved so the
    H200's clock sags alike for all; CUDA events, a long sleep kernel enqueued first so the events
    time the GPU and not the host's launches."""
    for f in functions:
        for _ in range(3):
            f()
    times = [[] for _ in functions]
    for _ in range(repeats):
        for f, t in zip(functions, times):
            torch.cuda._sleep(5_000_000)
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            f()
            end.record()
            end.synchronize()
            t.append(start.elapsed_time(end))
    return [sorted(t)[len(t) // 2] for t in times]


def capture(module, x):
    """A CUDA graph of module(x) (warmed up on a side stream first) and its output buffer."""
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.stream(stream):
        module(x)                           # handle and workspace exist before capture
        with torch.cuda.graph(graph, stream=stream):
            y = module(x)
    torch.cuda.current_stream().wait_stream(stream)
    return graph, y


def run(tokens=16, hidden=1024, heads=8, kv_heads=2, intermediate=2816, seed=0, timing=True):
    """Returns {"eager": error, "compiled": error, "graph": error} against PyTorch's block, and
    the times (ms) when timing."""
    torch.manual_seed(seed)
    reference = DecoderBlock(hidden, heads, kv_heads, intermediate).to("cuda", torch.bfloat16).eval()
    for p in reference.parameters():
        torch.nn.init.uniform_(p, -hidden ** -0.5, hidden ** -0.5)
    ours = clt.swap_linear(copy.deepcopy(reference))
    x = torch.rand(1, tokens, hidden, device="cuda", dtype=torch.bfloat16) * 2 - 1
    results = {}
    with torch.no_grad():
        expected = reference(x)
        results["eager"] = relative_error(ours(x), expected)
        compiled = torch.compile(ours, fullgraph=True)
        results["compiled"] = relative_error(compiled(x), expected)
        static_x = x.clone()
        graph, static_y = capture(ours, static_x)
        static_x.copy_(torch.rand_like(x) * 2 - 1)   # new inputs in the captured buffer
        graph.replay()
        results["graph"] = relative_error(static_y, reference(static_x))
        if timing:
            reference_graph, _ = capture(reference, static_x)
            eager = time_ms([lambda: reference(x), lambda: ours(x)])
            replay = time_ms([reference_graph.replay, graph.replay])
            results["ms_pytorch_eager"], results["ms_cutlass_lib_eager"] = eager
            results["ms_pytorch_graph"], results["ms_cutlass_lib_graph"] = replay
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=16)
    parser.add_argument("--hidden", type=int, default=4096)
    parser.add_argument("--heads", type=int, default=32)
    parser.add_argument("--kv-heads", type=int, default=8)
    parser.add_argument("--intermediate", type=int, default=14336)
    args = parser.parse_args()
    results = run(args.tokens, args.hidden, args.heads, args.kv_heads, args.intermediate)
    for key, value in results.items():
        print(f"{key:16s} {value:.4g}")
    ok = all(results[k] < 2e-2 for k in ("eager", "compiled", "graph"))
    print("matches PyTorch within bf16 tolerance" if ok else "MISMATCH")
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
