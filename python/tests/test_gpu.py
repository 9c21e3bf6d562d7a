"""GPU tests with PyTorch: cutlass_lib.gemm / linear against torch.matmul / F.linear over dtypes,
layouts, strides, batches, bias and activations, and inside a CUDA graph. They skip without
PyTorch or a CUDA device; a kind of call the built library has no kernel for skips with the
status (a kernel subset)."""
import pytest

import cutlass_lib

from checks import TOLERANCE, call_or_skip, relative_error  # noqa: E402  (python/tests/checks.py)


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
@pytest.mark.parametrize("layout", ["rr", "rc", "cr", "cc"])
def test_gemm_matches_matmul(torch_cuda, dtype, layout):
    torch = torch_cuda
    t = getattr(torch, dtype)
    m, n, k = 200, 136, 96
    a = torch.rand(m, k, device="cuda", dtype=t) * 2 - 1
    b = torch.rand(k, n, device="cuda", dtype=t) * 2 - 1
    if layout[0] == "c":
        a = a.t().contiguous().t()   # column-major view of the same values
    if layout[1] == "c":
        b = b.t().contiguous().t()
    out = call_or_skip(cutlass_lib.gemm, a, b)
    torch.cuda.synchronize()
    assert out.shape == (m, n) and out.dtype == t
    assert relative_error(out, a.double() @ b.double()) < TOLERANCE[dtype]


def test_gemm_strided_leading_dimension_and_batch(torch_cuda):
    torch = torch_cuda
    big = torch.rand(3, 64, 160, device="cuda", dtype=torch.bfloat16) * 2 - 1
    a = big[:, :, :96]          # leading dimension 160 > 96: no copy
    b = torch.rand(96, 48, device="cuda", dtype=torch.bfloat16) * 2 - 1   # shared by every batch
    out = call_or_skip(cutlass_lib.gemm, a, b, out_dtype=torch.float32)
    torch.cuda.synchronize()
    assert out.shape == (3, 64, 48) and out.dtype == torch.float32
    assert relative_error(out, a.double() @ b.double()) < 1e-2


@pytest.mark.parametrize("a_shape, b_shape", [((0, 8, 16), (0, 16, 4)), ((3, 0, 16), (16, 4)),
                                              ((8, 16), (16, 0)), ((2, 8, 16), (1, 16, 0))])
def test_gemm_empty_output_matches_matmul(torch_cuda, a_shape, b_shape):
    torch = torch_cuda
    a = torch.rand(a_shape, device="cuda", dtype=torch.float16)
    b = torch.rand(b_shape, device="cuda", dtype=torch.float16)
    out = cutlass_lib.gemm(a, b)
    assert out.shape == torch.matmul(a, b).shape and out.numel() == 0


def test_gemm_empty_output_still_checks_its_arguments(torch_cuda):
    torch = torch_cuda
    a = torch.rand(0, 8, 16, device="cuda", dtype=torch.float16)
    b = torch.rand(0, 16, 4, device="cuda", dtype=torch.float16)
    with pytest.raises(ValueError, match="K differ"):
        cutlass_lib.gemm(a, torch.rand(0, 12, 4, device="cuda", dtype=torch.float16))
    with pytest.raises(ValueError, match="out is"):
        cutlass_lib.gemm(a, b, out=torch.empty(0, 8, 5, device="cuda", dtype=torch.float16))
    with pytest.raises(ValueError):
        cutlass_lib.gemm(a, b.to(torch.bfloat16))
    with pytest.raises(ValueError):
        cutlass_lib.gemm(a, b, activation="tanh")


def test_gemm_alpha_beta_and_c(torch_cuda):
    torch = torch_cuda
    a = torch.rand(64, 32, device="cuda") * 2 - 1
    b = torch.rand(32, 48, device="cuda") * 2 - 1
    c = torch.rand(64, 48, device="cuda") * 2 - 1
    out = call_or_skip(cutlass_lib.gemm, a, b, c=c, alpha=0.5, beta=-2.0)
    torch.cuda.synchronize()
    assert relative_error(out, 0.5 * (a.double() @ b.double()) - 2.0 * c.double()) < 1e-4


@pytest.mark.parametrize("activation", [None, "relu", "gelu"])
@pytest.mark.parametrize("tokens", [1, 5, 16, 130])
def test_linear_matches_f_linear(torch_cuda, activation, tokens):
    torch = torch_cuda
    import torch.nn.functional as F
    x = torch.rand(tokens, 256, device="cuda", dtype=torch.bfloat16) * 2 - 1
    w = torch.rand(384, 256, device="cuda", dtype=torch.bfloat16) * 2 - 1
    bias = torch.rand(384, device="cuda", dtype=torch.bfloat16) * 2 - 1
    y = call_or_skip(cutlass_lib.linear, x, w, bias, activation=activation)
    reference = F.linear(x.double(), w.double(), bias.double())
    if activation == "relu":
        reference = F.relu(reference)
    elif activation == "gelu":
        reference = F.gelu(reference, approximate="tanh")
    torch.cuda.synchronize()
    assert y.shape == (tokens, 384)
    assert relative_error(y, reference) < 3e-2


def test_linear_flattens_leading_dimensions(torch_cuda):
    torch = torch_cuda
    import torch.nn.functional as F
    x = torch.rand(2, 3, 64, device="cuda", dtype=torch.float16) * 2 - 1
    w = torch.rand(32, 64, device="cuda", dtype=torch.float16) * 2 - 1
    y = call_or_skip(cutlass_lib.linear, x, w)
    torch.cuda.synchronize()
    assert y.shape == (2, 3, 32)
    assert relative_error(y, F.linear(x.double(), w.double())) < 2e-2


def test_errors_carry_reasons(torch_cuda):
    torch = torch_cuda
    a = torch.rand(8, 16, device="cuda")
    with pytest.raises(ValueError, match="inner dimensions"):
        cutlass_lib.gemm(a, torch.rand(8, 4, device="cuda"))
    with pytest.raises(ValueError, match="CUDA"):
        cutlass_lib.gemm(a.cpu(), torch.rand(16, 4))
    with pytest.raises(ValueError, match="contiguous"):
        cutlass_lib.gemm(torch.rand(8, 32, device="cuda")[:, ::2], torch.rand(16, 4, device="cuda"))
    with pytest.raises(TypeError, match="dtype"):
        cutlass_lib.gemm(a.to(torch.int16), torch.rand(16, 4, device="cuda").to(torch.int16),
                         out=torch.empty(8, 4, device="cuda", dtype=torch.int16))


def test_runs_inside_a_cuda_graph(torch_cuda):
    torch = torch_cuda
    x = torch.rand(16, 128, device="cuda", dtype=torch.bfloat16) * 2 - 1
    w = torch.rand(256, 128, device="cuda", dtype=torch.bfloat16) * 2 - 1
    call_or_skip(cutlass_lib.linear, x, w)   # warm-up: handle and workspace exist before capture
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.stream(stream):
        cutlass_lib.linear(x, w)
        with torch.cuda.graph(graph, stream=stream):
            y = cutlass_lib.linear(x, w)
    torch.cuda.current_stream().wait_stream(stream)
    x.copy_(torch.rand_like(x) * 2 - 1)   # new inputs, same buffers
    graph.replay()
    torch.cuda.synchronize()
    assert relative_error(y, x.double() @ w.double().t()) < 3e-2


@pytest.mark.parametrize("bias, activation", [(False, None), (True, None), (True, "gelu"), (False, "silu")])
def test_gemm_object_plans_once_and_runs_on_reset_operands(torch_cuda, bias, activation):
    torch = torch_cuda
    import torch.nn.functional as F
    x = torch.rand(16, 512, device="cuda", dtype=torch.bfloat16) * 2 - 1
    w = torch.rand(768, 512, device="cuda", dtype=torch.bfloat16) * 2 - 1
    b = torch.rand(768, device="cuda", dtype=torch.bfloat16) * 2 - 1 if bias else None
    g = cutlass_lib.Gemm(x, w.t(), bias=b, activation=activation)
    assert g.plan()   # the kernel's name (the plain one where the build lacks the fused variant)
    act = {None: lambda t: t, "gelu": lambda t: F.gelu(t, approximate="tanh"), "silu": F.silu}[activation]
    for _ in range(2):
        y = g.execute()
        torch.cuda.synchronize()
        assert relative_error(y, act(F.linear(x.double(), w.double(), b.double() if bias else None))) < 3e-2
        x2 = torch.rand_like(x) * 2 - 1
        g.reset_operands(a=x2)
        x = x2
    with pytest.raises(ValueError, match="differs"):
        g.reset_operands(a=torch.rand(8, 512, device="cuda", dtype=torch.bfloat16))


def test_gemm_object_replays_in_a_cuda_graph(torch_cuda):
    torch = torch_cuda
    x = torch.rand(4, 256, device="cuda", dtype=torch.float16) * 2 - 1
    w = torch.rand(256, 320, device="cuda", dtype=torch.float16) * 2 - 1
    g = cutlass_lib.Gemm(x, w)
    g.execute()   # warm-up: workspace and kernel choice before capture
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.stream(stream):
        with torch.cuda.graph(graph, stream=stream):
            y = g.execute()
    torch.cuda.current_stream().wait_stream(stream)
    x.copy_(torch.rand_like(x) * 2 - 1)
    graph.replay()
    torch.cuda.synchronize()
    assert relative_error(y, x.double() @ w.double()) < 2e-2


@pytest.mark.parametrize("rowwise", [False, True])
@pytest.mark.parametrize("out_dtype", ["bfloat16", "float32"])
def test_scaled_mm_matches_the_scaled_product(torch_cuda, rowwise, out_dtype):
    torch = torch_cuda
    m, n, k = 200, 144, 512
    a = ((torch.rand(m, k, device="cuda") * 2 - 1) * 4).to(torch.float8_e4m3fn)
    w = ((torch.rand(n, k, device="cuda") * 2 - 1) * 4).to(torch.float8_e4m3fn)
    if rowwise:
        scale_a = torch.rand(m, 1, device="cuda") + 0.25
        scale_b = torch.rand(1, n, device="cuda") + 0.25
    else:
        scale_a = torch.tensor(0.5, device="cuda")
        scale_b = torch.tensor(1.75, device="cuda")
    t = getattr(torch, out_dtype)
    out = call_or_skip(cutlass_lib.scaled_mm, a, w.t(), scale_a, scale_b, out_dtype=t)
    torch.cuda.synchronize()
    assert out.shape == (m, n) and out.dtype == t
    reference = (a.double() @ w.double().t()) * scale_a.double() * scale_b.double()
    assert relative_error(out, reference) < (1e-2 if out_dtype == "bfloat16" else 2e-3)
    # the same call again with other scales of the same shapes (the cached plan, new addresses)
    out2 = cutlass_lib.scaled_mm(a, w.t(), scale_a * 2, scale_b, out_dtype=t)
    torch.cuda.synchronize()
    assert relative_error(out2, reference * 2) < (1e-2 if out_dtype == "bfloat16" else 2e-3)
    # and the plain float8 call: no scales
    plain = cutlass_lib.gemm(a, w.t(), out_dtype=t)
    assert relative_error(plain, a.double() @ w.double().t()) < (1e-2 if out_dtype == "bfloat16" else 2e-3)


def _expand_block_scale(scale, mode, rows, columns, k_along_rows):
    """A block scale expanded to the (rows, columns) operand it scales: 1x128 scales one row (a) or
    column (b) per K block of 128, 128x128 one 128 x 128 block; K runs along the columns of a
    (k_along_rows False) and the rows of b (True)."""
    scale = scale.double()
    if mode == "1x128":
        expanded = scale.repeat_interleave(128, dim=0 if k_along_rows else 1)
    else:
        expanded = scale.repeat_interleave(128, dim=0).repeat_interleave(128, dim=1)
    return expanded[:rows, :columns]


@pytest.mark.parametrize("mode_a", ["1x128", "128x128"])
@pytest.mark.parametrize("mode_b", ["1x128", "128x128"])
def test_scaled_mm_block_scales(torch_cuda, mode_a, mode_b):
    """DeepSeek-V3-style block scales in torch._scaled_mm's shapes (a's 1x128 outer-dim-major,
    b's 128x128 the transpose of a weight's row-major scale), against the product of the
    dequantized operands; M, N off the tile sizes, K with a partial last block."""
    torch = torch_cuda
    m, n, k = 200, 144, 592
    kb, mb, nb = (k + 127) // 128, (m + 127) // 128, (n + 127) // 128
    kbp = (kb + 3) // 4 * 4   # 128x128 scales: rows of K blocks padded to 4 (cuBLASLt's layout)
    a = ((torch.rand(m, k, device="cuda") * 2 - 1) * 4).to(torch.float8_e4m3fn)
    w = ((torch.rand(n, k, device="cuda") * 2 - 1) * 4).to(torch.float8_e4m3fn)
    if mode_a == "1x128":
        scale_a = (torch.rand(kb, m, device="cuda") + 0.25).t()      # (M, KB), strides (1, M)
    else:
        scale_a = (torch.rand(mb, kbp, device="cuda") + 0.25)[:, :kb]  # (MB, KB), strides (KBp, 1)
    if mode_b == "1x128":
        scale_b = torch.rand(kb, n, device="cuda") + 0.25             # (KB, N) row-major
    else:
        scale_b = (torch.rand(nb, kbp, device="cuda") + 0.25)[:, :kb].t()   # the weight's (NB, KB) scale, transposed
    out = call_or_skip(cutlass_lib.scaled_mm, a, w.t(), scale_a, scale_b)
    torch.cuda.synchronize()
    assert out.shape == (m, n) and out.dtype == torch.bfloat16
    a_scaled = a.double() * _expand_block_scale(scale_a, mode_a, m, k, False)
    b_scaled = w.t().double() * _expand_block_scale(scale_b, mode_b, k, n, True)
    assert relative_error(out, a_scaled @ b_scaled) < 1e-2


def test_scaled_mm_block_scales_into_a_column_major_out(torch_cuda):
    """The unswapped BLAS call (out column-major: a is the C API's A): the same scales mean the
    same product; and K == 0 with block scales (no K blocks) is the empty sum plus bias."""
    torch = torch_cuda
    m, n, k = 200, 144, 592
    kb, nb = (k + 127) // 128, (n + 127) // 128
    kbp = (kb + 3) // 4 * 4
    a = ((torch.rand(m, k, device="cuda") * 2 - 1) * 4).to(torch.float8_e4m3fn)
    w = ((torch.rand(n, k, device="cuda") * 2 - 1) * 4).to(torch.float8_e4m3fn)
    scale_a = (torch.rand(kb, m, device="cuda") + 0.25).t()                 # 1x128
    scale_b = (torch.rand(nb, kbp, device="cuda") + 0.25)[:, :kb].t()       # 128x128, rows padded
    out = torch.empty(n, m, device="cuda", dtype=torch.bfloat16).t()
    call_or_skip(cutlass_lib.scaled_mm, a, w.t(), scale_a, scale_b, out=out)
    torch.cuda.synchronize()
    a_scaled = a.double() * _expand_block_scale(scale_a, "1x128", m, k, False)
    b_scaled = w.t().double() * _expand_block_scale(scale_b, "128x128", k, n, True)
    assert relative_error(out, a_scaled @ b_scaled) < 1e-2
    empty_a = torch.zeros(m, 0, device="cuda").to(torch.float8_e4m3fn)
    empty_w = torch.zeros(n, 0, device="cuda").to(torch.float8_e4m3fn)
    bias = torch.rand(n, device="cuda").to(torch.bfloat16)
    y = cutlass_lib.scaled_mm(empty_a, empty_w.t(), torch.ones(0, m, device="cuda").t(),
                              torch.ones(0, n, device="cuda"), bias=bias)
    assert torch.equal(y, bias.expand(m, n))


def test_scaled_mm_names_the_block_scale_layouts(torch_cuda):
    torch = torch_cuda
    a = torch.zeros(200, 592, device="cuda").to(torch.float8_e4m3fn)
    w = torch.zeros(144, 592, device="cuda").to(torch.float8_e4m3fn)
    one = torch.ones(1, device="cuda")
    with pytest.raises(ValueError, match=r"\(200, 5\) with strides \(1, 200\)"):
        cutlass_lib.scaled_mm(a, w.t(), torch.ones(200, 5, device="cuda"), one)   # 1x128 must be outer-dim-major
    with pytest.raises(ValueError, match=r"\(5, 2\) with strides \(1, 8\)"):
        cutlass_lib.scaled_mm(a, w.t(), one, torch.ones(5, 2, device="cuda"))     # 128x128 of b: K fastest
    with pytest.raises(ValueError, match=r"\(2, 5\) with strides \(8, 1\)"):
        # 128x128 of a: K fastest, but each row padded to 8 K blocks (cuBLASLt's layout)
        cutlass_lib.scaled_mm(a, w.t(), torch.ones(2, 5, device="cuda"), one)


def test_scaled_mm_checks_scale_shapes(torch_cuda):
    torch = torch_cuda
    a = torch.zeros(32, 64, device="cuda").to(torch.float8_e4m3fn)
    w = torch.zeros(48, 64, device="cuda").to(torch.float8_e4m3fn)
    one = torch.ones(1, device="cuda")
    with pytest.raises(ValueError, match="scale_a"):
        cutlass_lib.scaled_mm(a, w.t(), torch.ones(31, 1, device="cuda"), one)
    with pytest.raises(ValueError, match="scale_b"):
        cutlass_lib.scaled_mm(a, w.t(), one, torch.ones(48, 2, device="cuda"))
    with pytest.raises(TypeError, match="float32"):
        cutlass_lib.scaled_mm(a, w.t(), one.half(), one)
    with pytest.raises(TypeError, match="float8"):
        cutlass_lib.scaled_mm(a.half(), w.t().half(), one, one)


def test_linear_over_zero_input_features_is_the_bias(torch_cuda):
    """From a host fuzz of the package (s25): linear over zero input features with a 3-D x is
    F.linear's zeros plus the bias (the C API fuses no bias into an empty product: PyTorch adds it)."""
    torch = torch_cuda
    x = torch.empty(2, 3, 0, device="cuda", dtype=torch.float16)
    w = torch.empty(5, 0, device="cuda", dtype=torch.float16)
    bias = torch.rand(5, device="cuda", dtype=torch.float16)
    for b in (None, bias):
        y = call_or_skip(cutlass_lib.linear, x, w, b)
        torch.cuda.synchronize()
        assert y.shape == (2, 3, 5) and torch.equal(y, torch.nn.functional.linear(x, w, b))


def test_edge_arguments_found_by_fuzzing(torch_cuda):
    """From the same fuzz: an out whose batches share elements (expanded) is a ValueError, as
    torch.matmul's; a c that does not broadcast to out is a ValueError; int8 takes alpha = -2^31;
    an empty output still checks its bias."""
    torch = torch_cuda
    a = torch.rand(3, 4, 8, device="cuda", dtype=torch.float16)
    b = torch.rand(8, 2, device="cuda", dtype=torch.float16)
    with pytest.raises(ValueError, match="share elements"):
        cutlass_lib.gemm(a, b, out=torch.empty(4, 2, device="cuda", dtype=torch.float16).expand(3, 4, 2))
    with pytest.raises(ValueError, match="does not broadcast"):
        cutlass_lib.gemm(a, b, c=torch.rand(3, 3, device="cuda", dtype=torch.float16), beta=1.0)
    empty = torch.rand(0, 8, device="cuda", dtype=torch.float16)
    with pytest.raises(TypeError, match="bias"):
        cutlass_lib.gemm(empty, b, bias=5)
    s8 = torch.ones(16, 16, device="cuda", dtype=torch.int8)
    out = call_or_skip(cutlass_lib.gemm, s8, s8, alpha=-2 ** 31)
    torch.cuda.synchronize()
    assert out.dtype == torch.int32
