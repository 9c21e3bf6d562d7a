"""Host overhead of a call from Python: cutlass_lib.linear, torch.ops.cutlass_lib.linear, a swapped
cutlass_lib.torch.Linear layer, a planned cutlass_lib.Gemm's execute(), F.linear and nn.Linear (cuBLAS) on the same tensors, the GPU idle (each call synchronized before the next is
timed, so the host time of the call alone is measured; the calls take turns in rounds), median of --calls calls, for 1 and 16
tokens. Issue 18's bar: cutlass_lib.linear at most F.linear's + 3 us, the swapped layer at most
nn.Linear's + 3 us.

    python python/examples/overhead.py [--calls 1000] [--hidden 4096]
"""
import argparse
import time

import torch
import torch.nn.functional as F

import cutlass_lib
import cutlass_lib.torch  # noqa: F401  (registers torch.ops.cutlass_lib.*)


def host_us(functions, calls, rounds=20):
    """Median host time (us) of one call of each function; the stream drained before each call.
    The functions take turns in rounds of calls // rounds, so a drift of the host's speed during
    the measurement (seen: 9 us between columns measured one after another) falls on all alike."""
    for function in functions:
        for _ in range(20):
            function()
    torch.cuda.synchronize()
    times = [[] for _ in functions]
    for _ in range(rounds):
        for function, samples in zip(functions, times):
            for _ in range(max(1, calls // rounds)):
                torch.cuda.synchronize()
                start = time.perf_counter_ns()
                function()
                samples.append(time.perf_counter_ns() - start)
    torch.cuda.synchronize()
    return [sorted(samples)[len(samples) // 2] / 1000 for samples in times]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--hidden", type=int, default=4096)
    args = parser.parse_args()
    w = torch.rand(args.hidden, args.hidden, device="cuda", dtype=torch.bfloat16) - 0.5
    print(f"{'tokens':>6} {'F.linear us':>12} {'nn.Linear us':>13} {'linear us':>10} {'op us':>8} {'Linear us':>10} "
          f"{'Gemm us':>8} {'extra us':>9}")
    worst = 0.0
    with torch.no_grad():
        for tokens in (1, 16):
            x = torch.rand(tokens, args.hidden, device="cuda", dtype=torch.bfloat16) - 0.5
            torch_layer = torch.nn.Linear(args.hidden, args.hidden, bias=False, device="cuda", dtype=torch.bfloat16)
            torch_layer.weight.data = w
            layer = cutlass_lib.torch.Linear(w)
            planned = cutlass_lib.Gemm(x, w.t())
            planned.plan()
            base, base_module, ours, op, module, execute = host_us(
                [lambda: F.linear(x, w), lambda: torch_layer(x), lambda: cutlass_lib.linear(x, w),
                 lambda: torch.ops.cutlass_lib.linear(x, w, None, ""), lambda: layer(x), planned.execute], args.calls)
            # the function against F.linear, the swapped layer against the nn.Linear it replaces
            extra = max(ours - base, module - base_module)
            worst = max(worst, extra)
            print(f"{tokens:>6} {base:>12.2f} {base_module:>13.2f} {ours:>10.2f} {op:>8.2f} {module:>10.2f} "
                  f"{execute:>8.2f} {extra:>9.2f}")
    print("cutlass_lib.linear within F.linear + 3 us and Linear within nn.Linear + 3 us" if worst <= 3
          else f"over the bar by {worst - 3:.2f} us")
    print("(torch.ops.cutlass_lib.linear: the dispatcher's boxing of a Python-registered operator on top; "
          "torch.compile and CUDA graphs take it off the per-call path)")


if __name__ == "__main__":
    main()
