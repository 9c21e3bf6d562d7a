"""cutlass_lib.grouped_mm (torch._grouped_mm's mixture-of-experts shapes on the library's grouped
API): the argument checks, which raise before anything touches a GPU (they run on a host with
PyTorch and no GPU), and on a CUDA device the results against a float64 loop of torch.matmul
per expert. The GPU tests skip without PyTorch or a CUDA device; a call the built library has
no kernel for skips with the status (a kernel subset)."""
import random

import numpy as np
import pytest

import cutlass_lib
from cutlass_lib import _C

from checks import TOLERANCE, call_or_skip, relative_error  # noqa: E402  (python/tests/checks.py)


def offsets_of(torch, sizes, device):
    """torch._grouped_mm's offs for these group sizes: the cumulative row ends, int32."""
    return torch.tensor(np.cumsum([0] + list(sizes))[1:].tolist(), dtype=torch.int32, device=device)


def reference(mat_a, mat_b, sizes):
    """The float64 loop: rows of expert g times mat_b[g]; rows past the last group zero."""
    out = mat_a.new_zeros((mat_a.shape[0], mat_b.shape[-1])).double()
    begin = 0
    for g, size in enumerate(sizes):
        out[begin:begin + size] = mat_a[begin:begin + size].double() @ mat_b[g].double()
        begin += size
    return out


# ---- argument checks (no GPU needed) -------------------------------------------------------------

@pytest.fixture
def torch_cpu():
    return pytest.importorskip("torch", reason="PyTorch is not installed")


def test_grouped_mm_takes_pytorch_tensors_only(torch_cpu):
    torch = torch_cpu
    a, b = torch.ones(6, 8), torch.ones(2, 8, 4)
    offs = torch.tensor([3, 6], dtype=torch.int32)
    with pytest.raises(TypeError, match="mat_a is ndarray"):
        cutlass_lib.grouped_mm(np.ones((6, 8), dtype=np.float32), b, offs)
    with pytest.raises(TypeError, match="mat_b is NoneType"):
        cutlass_lib.grouped_mm(a, None, offs)
    with pytest.raises(TypeError, match="offs is list"):
        cutlass_lib.grouped_mm(a, b, [3, 6])
    with pytest.raises(TypeError, match="bias is ndarray"):
        cutlass_lib.grouped_mm(a, b, offs, bias=np.zeros((2, 4), dtype=np.float32))
    with pytest.raises(TypeError, match="out_dtype"):
        cutlass_lib.grouped_mm(a, b, offs, out_dtype="float32")


@pytest.mark.parametrize("a_shape, b_shape, with_offs, match", [
    ((6, 8), (8, 4), True, "3-D mat_b"),
    ((6, 8), (2, 3, 8, 4), True, "3-D mat_b"),
    ((8,), (2, 8, 4), True, "mat_a 2-D"),
    ((6, 8), (2, 7, 4), True, r"K = 8 .* K = 7"),
    ((2, 3, 8), (2, 7, 4), False, r"K = 8 .* K = 7"),
    ((6, 8), (2, 8, 4), False, "needs offs"),
    ((2, 3, 8), (2, 8, 4), True, "offs is for a 2-D mat_a"),
    ((3, 3, 8), (2, 8, 4), False, "mat_a has 3 experts and mat_b 2"),
])
def test_grouped_mm_shape_errors(torch_cpu, a_shape, b_shape, with_offs, match):
    torch = torch_cpu
    offs = torch.tensor([3, 6], dtype=torch.int32) if with_offs else None
    with pytest.raises(ValueError, match=match):
        cutlass_lib.grouped_mm(torch.ones(a_shape), torch.ones(b_shape), offs)


def test_grouped_mm_dtype_errors(torch_cpu):
    torch = torch_cpu
    a, b = torch.ones(6, 8, dtype=torch.bfloat16), torch.ones(2, 8, 4, dtype=torch.bfloat16)
    offs = torch.tensor([3, 6], dtype=torch.int32)
    with pytest.raises(ValueError, match="mat_a is torch.bfloat16 but mat_b is torch.float16"):
        cutlass_lib.grouped_mm(a, b.half(), offs)
    with pytest.raises(ValueError, match="int32"):
        cutlass_lib.grouped_mm(a, b, offs.long())
    with pytest.raises(ValueError, match=r"bias must be \(experts, N\)"):
        cutlass_lib.grouped_mm(a, b, offs, bias=torch.zeros(4, dtype=torch.bfloat16))
    with pytest.raises(ValueError, match="output's dtype torch.bfloat16"):
        cutlass_lib.grouped_mm(a, b, offs, bias=torch.zeros(2, 4))
    # out_dtype sets the dtype the bias must have
    with pytest.raises(ValueError, match="output's dtype torch.float32"):
        cutlass_lib.grouped_mm(a, b, offs, bias=torch.zeros(2, 4, dtype=torch.bfloat16), out_dtype=torch.float32)


@pytest.mark.parametrize("offs, match", [
    ([3], "offs has 1 entries but mat_b has 2 experts"),
    ([1, 3, 6], "offs has 3 entries but mat_b has 2 experts"),
    ([4, 3], r"non-decreasing .* offs\[1\] = 3 follows 4"),
    ([-1, 3], r"offs\[0\] = -1 follows 0"),
    ([3, 7], r"offs\[-1\] = 7 is past mat_a's 6 rows"),
])
def test_grouped_mm_offs_errors(torch_cpu, offs, match):
    torch = torch_cpu
    a, b = torch.ones(6, 8), torch.ones(2, 8, 4)
    with pytest.raises(ValueError, match=match):
        cutlass_lib.grouped_mm(a, b, torch.tensor(offs, dtype=torch.int32))
    with pytest.raises(ValueError, match="1-D"):
        cutlass_lib.grouped_mm(a, b, torch.tensor([[3, 6]], dtype=torch.int32))


def test_grouped_mm_valid_arguments_on_the_cpu_name_the_device(torch_cpu):
    torch = torch_cpu
    a, b = torch.ones(6, 8), torch.ones(2, 8, 4)
    with pytest.raises(ValueError, match="CUDA GPU"):
        cutlass_lib.grouped_mm(a, b, torch.tensor([2, 6], dtype=torch.int32))
    with pytest.raises(ValueError, match="CUDA GPU"):
        cutlass_lib.grouped_mm(torch.ones(2, 3, 8), b)
    # offs may end before the last row, and experts may have no rows
    with pytest.raises(ValueError, match="CUDA GPU"):
        cutlass_lib.grouped_mm(a, b, torch.tensor([0, 0], dtype=torch.int32))


def test_grouped_binding_refuses_host_arrays():
    a = np.ones((6, 8), dtype=np.float32)
    b = np.ones((2, 8, 4), dtype=np.float32)
    out = np.empty((6, 4), dtype=np.float32)
    with pytest.raises(ValueError, match="'mat_a' is not on a CUDA device"):
        _C.Handle(0).grouped_mm(a, b, out, [3, 6], 0, 0, 0)


# ---- results on a CUDA device --------------------------------------------------------------------

def moe_operands(torch, sizes, k, n, dtype, device="cuda", seed=0):
    """Packed tokens (sum(sizes), k) and expert weights (E, n, k) as an MoE layer holds them;
    mat_b is the weights' transpose (E, k, n), column-major per expert."""
    generator = torch.Generator(device=device).manual_seed(seed)
    tokens = torch.rand(sum(sizes), k, device=device, generator=generator).to(dtype) * 2 - 1
    weights = torch.rand(len(sizes), n, k, device=device, generator=generator).to(dtype) * 2 - 1
    return tokens, weights


def skewed_sizes(groups, seed):
    """Group sizes with a long tail and empty groups (about a quarter), as routers give."""
    rng = random.Random(seed)
    return [0 if rng.random() < 0.25 else int(rng.paretovariate(1.2) * 8) for _ in range(groups)]


SIZES = {
    "skewed": [0, 37, 1, 0, 200, 5, 0, 64],
    "one_group": [130],
    "64_groups": skewed_sizes(64, seed=1),
    "all_empty_but_one": [0, 0, 0, 17],
}


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("case", sorted(SIZES))
def test_grouped_mm_matches_a_matmul_loop(torch_cuda, dtype, case):
    torch = torch_cuda
    t = getattr(torch, dtype)
    sizes = SIZES[case]
    tokens, weights = moe_operands(torch, sizes, k=128, n=96, dtype=t)
    offs = offsets_of(torch, sizes, "cuda")
    out = call_or_skip(cutlass_lib.grouped_mm, tokens, weights.transpose(-2, -1), offs)
    torch.cuda.synchronize()
    assert out.shape == (sum(sizes), 96) and out.dtype == t
    assert relative_error(out, reference(tokens, weights.transpose(-2, -1), sizes)) < TOLERANCE[dtype]


def test_grouped_mm_offs_on_the_host_and_rows_past_the_last_group(torch_cuda):
    torch = torch_cuda
    sizes = [5, 0, 40, 19]
    tokens, weights = moe_operands(torch, sizes + [11], k=64, n=48, dtype=torch.bfloat16, seed=3)
    weights = weights[:len(sizes)]          # 11 trailing rows no expert owns
    mat_b = weights.transpose(-2, -1)
    out = call_or_skip(cutlass_lib.grouped_mm, tokens, mat_b, offsets_of(torch, sizes, "cpu"))
    on_device = cutlass_lib.grouped_mm(tokens, mat_b, offsets_of(torch, sizes, "cuda"))
    torch.cuda.synchronize()
    assert out.shape == (75, 48) and on_device.shape == (75, 48)
    assert torch.count_nonzero(out[64:]) == 0
    expected = reference(tokens, mat_b, sizes)
    assert relative_error(out, expected) < TOLERANCE["bfloat16"]
    # a CUDA offs leaves rows past its end unwritten (and may take another tile: compared with the
    # reference, not bitwise with the host-offs result)
    assert relative_error(on_device[:64], expected[:64]) < TOLERANCE["bfloat16"]


def test_grouped_mm_batched_3d(torch_cuda):
    torch = torch_cuda
    experts, m, k, n = 6, 33, 64, 80
    a = torch.rand(experts, m, k, device="cuda").bfloat16() * 2 - 1
    w = torch.rand(experts, n, k, device="cuda").bfloat16() * 2 - 1
    out = call_or_skip(cutlass_lib.grouped_mm, a, w.transpose(-2, -1))
    torch.cuda.synchronize()
    assert out.shape == (experts, m, n) and out.dtype == torch.bfloat16
    assert relative_error(out, a.double() @ w.double().transpose(-2, -1)) < TOLERANCE["bfloat16"]


@pytest.mark.parametrize("packed", [True, False])
def test_grouped_mm_bias_and_float32_output(torch_cuda, packed):
    torch = torch_cuda
    sizes = [12, 0, 31, 8]
    tokens, weights = moe_operands(torch, sizes, k=64, n=40, dtype=torch.bfloat16, seed=5)
    mat_b = weights.transpose(-2, -1)
    bias = torch.rand(len(sizes), 40, device="cuda") * 2 - 1
    if packed:
        out = call_or_skip(cutlass_lib.grouped_mm, tokens, mat_b, offsets_of(torch, sizes, "cuda"), bias=bias,
                           out_dtype=torch.float32)
        expected = reference(tokens, mat_b, sizes) + torch.repeat_interleave(
            bias.double(), torch.tensor(sizes, device="cuda"), dim=0)
    else:
        a = tokens[:48].reshape(4, 12, 64)
        out = call_or_skip(cutlass_lib.grouped_mm, a, mat_b, bias=bias, out_dtype=torch.float32)
        expected = a.double() @ mat_b.double() + bias.double().unsqueeze(1)
    torch.cuda.synchronize()
    assert out.dtype == torch.float32
    assert relative_error(out, expected) < 1e-3


@pytest.mark.parametrize("offs_on", ["cpu", "cuda", None])
def test_grouped_mm_bias_per_expert_fused(torch_cuda, offs_on):
    """A bfloat16 bias per expert (fused into the grouped GEMM where the build has the kernel): rows
    of a wider tensor (row stride 56 > N), and a bias whose rows are not contiguous (added after
    the GEMMs); every layout of the call (host ends, device ends, 3-D)."""
    torch = torch_cuda
    sizes = [12, 0, 31, 8, 130]
    experts, k, n = len(sizes), 64, 40
    tokens, weights = moe_operands(torch, sizes, k=k, n=n, dtype=torch.bfloat16, seed=11)
    mat_b = weights.transpose(-2, -1)
    wide = (torch.rand(experts, 56, device="cuda") * 2 - 1).bfloat16()
    columns = (torch.rand(n, experts, device="cuda") * 2 - 1).bfloat16()
    for bias in (wide[:, :n], columns.t()):
        if offs_on is None:
            a = tokens[:experts * 12].reshape(experts, 12, k)
            out = call_or_skip(cutlass_lib.grouped_mm, a, mat_b, bias=bias)
            expected = a.double() @ mat_b.double() + bias.double().unsqueeze(1)
        else:
            out = call_or_skip(cutlass_lib.grouped_mm, tokens, mat_b, offsets_of(torch, sizes, offs_on), bias=bias)
            expected = reference(tokens, mat_b, sizes) + torch.repeat_interleave(
                bias.double(), torch.tensor(sizes, device="cuda"), dim=0)
        torch.cuda.synchronize()
        assert relative_error(out, expected) < TOLERANCE["bfloat16"], bias.stride()


def test_grouped_mm_row_major_weights_and_strided_tokens(torch_cuda):
    torch = torch_cuda
    sizes = [9, 0, 24]
    wide = torch.rand(33, 96, device="cuda").half() * 2 - 1
    tokens = wide[:, :64]                    # leading dimension 96 > K = 64: no copy
    mat_b = torch.rand(3, 64, 32, device="cuda").half() * 2 - 1    # row-major (K, N) per expert
    out = call_or_skip(cutlass_lib.grouped_mm, tokens, mat_b, offsets_of(torch, sizes, "cuda"))
    torch.cuda.synchronize()
    assert relative_error(out, reference(tokens, mat_b, sizes)) < TOLERANCE["float16"]


def test_grouped_mm_empty_cases(torch_cuda):
    torch = torch_cuda
    b = torch.rand(3, 16, 8, device="cuda").bfloat16()
    out = cutlass_lib.grouped_mm(torch.rand(0, 16, device="cuda").bfloat16(), b,
                                 torch.zeros(3, dtype=torch.int32, device="cuda"))
    assert out.shape == (0, 8)
    # K == 0: zeros, as torch.matmul gives
    out = cutlass_lib.grouped_mm(torch.rand(5, 0, device="cuda").bfloat16(), torch.rand(2, 0, 8, device="cuda").bfloat16(),
                                 torch.tensor([2, 5], dtype=torch.int32, device="cuda"))
    assert out.shape == (5, 8) and torch.count_nonzero(out) == 0
    # every group empty, offs on the host: zeros (a CUDA offs leaves such rows unwritten)
    out = cutlass_lib.grouped_mm(torch.rand(4, 16, device="cuda").bfloat16(), b, torch.zeros(3, dtype=torch.int32))
    assert out.shape == (4, 8) and torch.count_nonzero(out) == 0


def test_grouped_mm_device_offs_in_a_cuda_graph_with_new_routing(torch_cuda):
    """A CUDA offs stays on the device (the C API's contiguous call): the call is captured in a
    CUDA graph once and replayed after the routing (offs, in place) and the tokens change; every
    replay matches the loop on the rows the experts own, bias included."""
    torch = torch_cuda
    experts, k, n, total = 6, 128, 64, 200
    tokens, weights = moe_operands(torch, [total // experts] * experts, k=k, n=n, dtype=torch.bfloat16, seed=7)
    tokens = torch.cat([tokens, tokens[:total - tokens.shape[0]]])      # total rows
    mat_b = weights.transpose(-2, -1)
    bias = (torch.rand(experts, n, device="cuda") * 2 - 1).bfloat16()
    offs = offsets_of(torch, [40, 0, 60, 30, 50, 20], "cuda")
    # warm-up (the handle, the workspace) through the device path itself: without it (a build
    # without the grouped kernels) the call would read offs on the host, which a capture forbids
    if cutlass_lib._grouped_mm_device_ends(tokens, mat_b, offs, bias, torch.bfloat16, None) is None:
        pytest.skip("this build or device has no grouped kernel for the device-ends call")
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        out = cutlass_lib.grouped_mm(tokens, mat_b, offs, bias=bias)
    for sizes in ([40, 0, 60, 30, 50, 20], [0, 0, 0, 200, 0, 0], [7, 93, 0, 1, 0, 64], [0] * 6):
        offs.copy_(offsets_of(torch, sizes, "cuda"))
        tokens.copy_(torch.rand_like(tokens, dtype=torch.float32).bfloat16() * 2 - 1)
        out.fill_(float("nan"))
        graph.replay()
        torch.cuda.synchronize()
        covered = sum(sizes)
        expected = reference(tokens, mat_b, sizes)[:covered] + torch.repeat_interleave(
            bias.double(), torch.tensor(sizes, device="cuda"), dim=0)
        if covered:
            assert relative_error(out[:covered], expected) < TOLERANCE["bfloat16"], sizes
        assert torch.isnan(out[covered:]).all(), "rows past the last end are not written"


def test_grouped_mm_on_a_side_stream_after_a_rowwise_scaled_mm(torch_cuda):
    """The handle serves every call on its device: the grouped call clears what an earlier call
    set (a row-wise operand scale would make the grouped API answer NOT_SUPPORTED)."""
    torch = torch_cuda
    a8 = torch.zeros(32, 64, device="cuda").to(torch.float8_e4m3fn)
    w8 = torch.zeros(48, 64, device="cuda").to(torch.float8_e4m3fn)
    try:
        cutlass_lib.scaled_mm(a8, w8.t(), torch.ones(32, 1, device="cuda"), torch.ones(1, 48, device="cuda"))
    except cutlass_lib.CutlassLibError:
        pass   # a build without float8 kernels: the state it leaves is the question, not the result
    sizes = [17, 0, 40]
    tokens, weights = moe_operands(torch, sizes, k=64, n=48, dtype=torch.bfloat16, seed=7)
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        offs = offsets_of(torch, sizes, "cuda")
    out = call_or_skip(cutlass_lib.grouped_mm, tokens, weights.transpose(-2, -1), offs, stream=stream)
    stream.synchronize()
    assert relative_error(out, reference(tokens, weights.transpose(-2, -1), sizes)) < TOLERANCE["bfloat16"]


def test_grouped_mm_device_errors(torch_cuda):
    torch = torch_cuda
    a = torch.rand(6, 16, device="cuda").bfloat16()
    b = torch.rand(2, 16, 8, device="cuda").bfloat16()
    offs = torch.tensor([3, 6], dtype=torch.int32, device="cuda")
    with pytest.raises(ValueError, match="mat_b is on cpu"):
        cutlass_lib.grouped_mm(a, b.cpu(), offs)
    with pytest.raises(ValueError, match="offs is on cuda"):
        cutlass_lib.grouped_mm(a.cpu(), b.cpu(), offs)
    with pytest.raises(ValueError, match="contiguous"):
        cutlass_lib.grouped_mm(torch.rand(6, 32, device="cuda").bfloat16()[:, ::2], b, offs)
    with pytest.raises(TypeError, match="dtype"):
        cutlass_lib.grouped_mm(a.to(torch.int16), b.to(torch.int16), offs)
