"""Mixture-of-experts layers through cutlass_lib.grouped_mm (a CUDA offs: the device-ends call)
without a bias, with a fused per-expert bias, and with a bias PyTorch adds after the GEMMs (a
bias whose rows are not contiguous takes that path), against torch._grouped_mm without a bias,
on the same tensors. GPU time: CUDA events around each call after a sleep kernel (so the events
measure the GPU, not the host's launch latency), median of 30 after 5 warm-up calls; tokens split
over the experts at random shares (seed 1). On an H200 (s22, docs/NOTES.md): the fused bias cost
0.5-1.0% over no bias, the add after the GEMMs 9-21%.

    python python/examples/grouped_mm_bench.py
"""
import statistics

import torch

import cutlass_lib


def timed(fn, reps=30):
    """Median GPU time (us) of fn()."""
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda._sleep(2000000)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) * 1000)
    return statistics.median(times)


def main():
    for experts, n, k, tokens in ((8, 14336, 4096, 8192), (64, 2048, 7168, 4096), (8, 4096, 4096, 64)):
        g = torch.Generator(device="cuda").manual_seed(1)
        share = torch.rand(experts, generator=g, device="cuda") + 0.2
        sizes = (share / share.sum() * tokens).floor().int().tolist()
        sizes[0] += tokens - sum(sizes)
        a = (torch.rand(tokens, k, device="cuda") * 2 - 1).bfloat16()
        w = (torch.rand(experts, n, k, device="cuda") * 2 - 1).bfloat16()
        offs = torch.tensor(sizes, device="cuda").cumsum(0).int()
        bias = (torch.rand(experts, n, device="cuda") * 2 - 1).bfloat16()
        bias_columns = bias.t().contiguous().t()   # rows not contiguous: added after the GEMMs
        expected = torch._grouped_mm(a, w.transpose(-2, -1), offs=offs) + torch.repeat_interleave(
            bias, torch.tensor(sizes, device="cuda"), 0)
        out = cutlass_lib.grouped_mm(a, w.transpose(-2, -1), offs, bias=bias)
        error = ((out.float() - expected.float()).norm() / expected.float().norm()).item()
        none = timed(lambda: cutlass_lib.grouped_mm(a, w.transpose(-2, -1), offs))
        fused = timed(lambda: cutlass_lib.grouped_mm(a, w.transpose(-2, -1), offs, bias=bias))
        added = timed(lambda: cutlass_lib.grouped_mm(a, w.transpose(-2, -1), offs, bias=bias_columns))
        torch_none = timed(lambda: torch._grouped_mm(a, w.transpose(-2, -1), offs=offs))
        print(f"{experts}x{n}x{k} {tokens} tokens: no bias {none:.1f} us, fused bias {fused:.1f} us "
              f"({fused / none:.3f}), bias added after {added:.1f} us ({added / none:.3f}); "
              f"torch._grouped_mm no bias {torch_none:.1f} us; relative error vs torch {error:.2e}")


if __name__ == "__main__":
    main()
