"""cutlass_lib.torch: the custom operators' fake implementations (host, meta / fake tensors),
swap_linear's module surgery (host), and on a GPU the operators against PyTorch, under
torch.compile(fullgraph=True) and in a swapped model."""
import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed")
import cutlass_lib.torch as clt  # noqa: E402  (registers torch.ops.cutlass_lib.*)
from torch._subclasses.fake_tensor import FakeTensorMode  # noqa: E402


def test_fake_linear_gives_f_linear_shapes():
    with FakeTensorMode():
        x = torch.empty(2, 5, 64, dtype=torch.bfloat16, device="cuda")
        w = torch.empty(96, 64, dtype=torch.bfloat16, device="cuda")
        y = torch.ops.cutlass_lib.linear(x, w, None, "gelu")
    assert y.shape == (2, 5, 96) and y.dtype == torch.bfloat16 and y.device.type == "cuda"


@pytest.mark.parametrize("a_shape, b_shape, out_shape", [
    ((8, 16), (16, 4), (8, 4)),
    ((3, 8, 16), (16, 4), (3, 8, 4)),
    ((8, 16), (3, 16, 4), (3, 8, 4)),
    ((3, 8, 16), (3, 16, 4), (3, 8, 4)),
])
def test_fake_gemm_gives_matmul_shapes(a_shape, b_shape, out_shape):
    with FakeTensorMode():
        a = torch.empty(a_shape, dtype=torch.float16, device="cuda")
        b = torch.empty(b_shape, dtype=torch.float16, device="cuda")
        d = torch.ops.cutlass_lib.gemm(a, b, None, "", 1.0, torch.float32)
        d_default = torch.ops.cutlass_lib.gemm(a, b, None, "", 1.0, None)
    assert d.shape == out_shape == torch.matmul(torch.empty(a_shape), torch.empty(b_shape)).shape
    assert d.dtype == torch.float32 and d_default.dtype == torch.float16


def test_swap_linear_replaces_every_linear_and_shares_parameters():
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(),
                                torch.nn.Sequential(torch.nn.Linear(16, 4, bias=False)))
    weights = [model[0].weight, model[2][0].weight]
    swapped = clt.swap_linear(model)
    assert swapped is model
    assert isinstance(model[0], clt.Linear) and isinstance(model[2][0], clt.Linear)
    assert model[0].weight is weights[0] and model[2][0].weight is weights[1] and model[2][0].bias is None
    assert not any(isinstance(m, torch.nn.Linear) for m in model.modules())
    assert "in_features=16, out_features=4, bias=False" in repr(model[2][0])


def test_fakes_check_what_the_real_call_checks():
    with FakeTensorMode():
        x = torch.empty(5, 64, dtype=torch.bfloat16, device="cuda")
        with pytest.raises(RuntimeError, match="features"):
            torch.ops.cutlass_lib.linear(x, torch.empty(96, 32, dtype=torch.bfloat16, device="cuda"), None, "")
        with pytest.raises(RuntimeError, match="activation"):
            torch.ops.cutlass_lib.linear(x, torch.empty(96, 64, dtype=torch.bfloat16, device="cuda"), None, "tanh")
        with pytest.raises(RuntimeError, match="inner dimensions"):
            torch.ops.cutlass_lib.gemm(x, x, None, "", 1.0, None)
        with pytest.raises(RuntimeError, match="2-D or 3-D"):
            torch.ops.cutlass_lib.gemm(x[0], x.t(), None, "", 1.0, None)
        i8 = torch.empty(4, 64, dtype=torch.int8, device="cuda")
        assert torch.ops.cutlass_lib.gemm(i8, i8.t(), None, "", 1.0, None).dtype == torch.int32
        with pytest.raises(RuntimeError, match="operands are"):
            torch.ops.cutlass_lib.gemm(x, x.t().float(), None, "", 1.0, None)
        with pytest.raises(RuntimeError, match="takes no"):
            c64 = torch.empty(4, 64, dtype=torch.complex64, device="cuda")
            torch.ops.cutlass_lib.gemm(c64, c64.t(), None, "", 1.0, None)
        with pytest.raises(RuntimeError, match="bias is"):
            torch.ops.cutlass_lib.gemm(x, x.t(), torch.empty(7, dtype=torch.bfloat16, device="cuda"), "", 1.0, None)
        with pytest.raises(RuntimeError, match="bias is"):
            torch.ops.cutlass_lib.linear(x, torch.empty(96, 64, dtype=torch.bfloat16, device="cuda"),
                                         torch.empty(96, dtype=torch.float32, device="cuda"), "")
        experts = torch.empty(3, 64, 8, dtype=torch.bfloat16, device="cuda")
        with pytest.raises(RuntimeError, match="int32"):
            torch.ops.cutlass_lib.grouped_mm(x, experts, torch.empty(3, device="cuda"), None, None)
        one = torch.empty(1, 4, 64, dtype=torch.float16, device="cuda")
        many = torch.empty(3, 64, 8, dtype=torch.float16, device="cuda")
        assert torch.ops.cutlass_lib.gemm(one, many, None, "", 1.0, None).shape == (3, 4, 8)


def test_swap_linear_leaves_subclasses_and_swaps_shared_layers_once():
    class LoRALinear(torch.nn.Linear):
        pass

    shared = torch.nn.Linear(8, 8)
    model = torch.nn.Module()
    model.a, model.b, model.lora = shared, shared, LoRALinear(8, 8)
    clt.swap_linear(model)
    assert isinstance(model.a, clt.Linear) and model.a is model.b
    assert type(model.lora) is LoRALinear


def test_swap_linear_walks_a_module_graph_with_a_cycle_once():
    model = torch.nn.Sequential(torch.nn.Linear(8, 8))
    model.parent_ref = model   # registered inside itself
    assert clt.swap_linear(model) is model
    assert isinstance(model[0], clt.Linear)


def test_swap_linear_include_sees_qualified_names():
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.Sequential(torch.nn.Linear(8, 8)))
    seen = []
    clt.swap_linear(model, include=lambda name, layer: seen.append(name) or name == "1.0")
    assert sorted(seen) == ["0", "1.0"]
    assert isinstance(model[0], torch.nn.Linear) and isinstance(model[1][0], clt.Linear)
    assert isinstance(clt.swap_linear(torch.nn.Linear(4, 4)), clt.Linear)


def test_linear_forward_calls_directly_only_for_plain_cuda_tensors_in_eager_mode(monkeypatch):
    layer = clt.Linear.from_linear(torch.nn.Linear(8, 4))
    assert not clt._calls_directly(torch.zeros(2, 8)), "a CPU tensor goes through the operator (its message)"
    with FakeTensorMode():
        assert not clt._calls_directly(torch.empty(2, 8, device="cuda")), "FakeTensors see the operator"
    calls = []
    monkeypatch.setattr(clt, "_calls_directly", lambda x: True)
    monkeypatch.setattr(clt, "linear", lambda x, w, b, a: calls.append((x, w, b, a)) or "direct")
    x = torch.zeros(2, 8)
    assert layer(x) == "direct"
    assert calls == [(x, layer.weight, layer.bias, "")], "the operator's implementation, with the layer's arguments"


# --- GPU -------------------------------------------------------------------------------------------

def _tolerance(dtype, k):
    return dict(rtol=2e-2, atol=2e-2 * k ** 0.5) if dtype in (torch.float16, torch.bfloat16) else dict(rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("with_bias", [True, False])
@pytest.mark.parametrize("activation", ["", "relu", "gelu", "silu"])
def test_linear_op_matches_pytorch(torch_cuda, activation, with_bias):
    torch.manual_seed(0)
    x = torch.rand(3, 7, 256, device="cuda", dtype=torch.bfloat16) * 2 - 1
    w = torch.rand(384, 256, device="cuda", dtype=torch.bfloat16) * 2 - 1
    b = torch.rand(384, device="cuda", dtype=torch.bfloat16) * 2 - 1
    act = {"": lambda t: t, "relu": torch.relu, "gelu": lambda t: torch.nn.functional.gelu(t, approximate="tanh"),
           "silu": torch.nn.functional.silu}[activation]
    b = b if with_bias else None
    expected = act(torch.nn.functional.linear(x.float(), w.float(), b.float() if with_bias else None))
    y = torch.ops.cutlass_lib.linear(x, w, b, activation)   # fused, or plain + PyTorch's ops
    torch.testing.assert_close(y.float(), expected, **_tolerance(x.dtype, 256))


def test_opcheck_on_the_device(torch_cuda):
    x = torch.rand(16, 64, device="cuda", dtype=torch.float16) - 0.5
    w = torch.rand(32, 64, device="cuda", dtype=torch.float16) - 0.5
    torch.library.opcheck(torch.ops.cutlass_lib.linear.default, (x, w, None, ""),
                          test_utils=("test_schema", "test_faketensor", "test_aot_dispatch_static"))
    a = torch.rand(4, 16, 64, device="cuda", dtype=torch.float16) - 0.5
    b = torch.rand(64, 32, device="cuda", dtype=torch.float16) - 0.5
    torch.library.opcheck(torch.ops.cutlass_lib.gemm.default, (a, b, None, "", 1.0, torch.float32),
                          test_utils=("test_schema", "test_faketensor", "test_aot_dispatch_static"))


def test_compile_fullgraph_matches_eager(torch_cuda):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(256, 512), torch.nn.GELU(approximate="tanh"),
                                torch.nn.Linear(512, 128)).to("cuda", torch.bfloat16)
    x = torch.rand(8, 256, device="cuda", dtype=torch.bfloat16) * 2 - 1
    with torch.no_grad():
        expected = model(x).float()
        clt.swap_linear(model)
        compiled = torch.compile(model, fullgraph=True)
        y = compiled(x)
    torch.testing.assert_close(y.float(), expected, rtol=3e-2, atol=3e-2)


def test_gemm_op_int8_gives_exact_int32(torch_cuda):
    a = torch.randint(-128, 128, (64, 128), device="cuda", dtype=torch.int8)
    b = torch.randint(-128, 128, (96, 128), device="cuda", dtype=torch.int8).t()  # weight-like: TN call
    name_list = [n for n in clt._lib.kernels() if "s8" in n]
    if not name_list:
        pytest.skip("the library was built without int8 kernels")
    d = torch.ops.cutlass_lib.gemm(a, b, None, "", 1.0, torch.int32)
    assert d.dtype == torch.int32
    assert torch.equal(d.cpu(), a.cpu().int() @ b.cpu().int())


def test_decoder_block_example_matches_pytorch(torch_cuda):
    """python/examples/decoder_block.py: a Llama-style block with its linears swapped, eager,
    under torch.compile(fullgraph=True) and from a CUDA graph, against PyTorch's block."""
    import importlib.util
    import pathlib
    path = pathlib.Path(__file__).resolve().parents[1] / "examples" / "decoder_block.py"
    spec = importlib.util.spec_from_file_location("decoder_block", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    results = example.run(tokens=16, hidden=512, heads=8, kv_heads=2, intermediate=1408, timing=False)
    assert results["eager"] < 2e-2 and results["compiled"] < 2e-2 and results["graph"] < 2e-2, results


def test_fakes_trace_symbolic_batch_sizes():
    """torch.export with a dynamic batch (torch.compile's dynamic shapes give the fakes SymInts)."""
    class Batched(torch.nn.Module):
        def forward(self, a, b):
            return torch.ops.cutlass_lib.gemm(a, b, None, "", 1.0, None)

    a = torch.empty(3, 8, 16, device="meta", dtype=torch.float16)
    b = torch.empty(3, 16, 4, device="meta", dtype=torch.float16)
    batch = torch.export.Dim("batch")
    exported = torch.export.export(Batched(), (a, b), dynamic_shapes=({0: batch}, {0: batch}))
    (out,) = [n for n in exported.graph.nodes if n.op == "output"][0].args[0]
    assert tuple(out.meta["val"].shape)[1:] == (8, 4)


def test_fake_grouped_mm_gives_grouped_mm_shapes():
    with FakeTensorMode():
        a = torch.empty(100, 64, dtype=torch.bfloat16, device="cuda")
        b = torch.empty(8, 64, 32, dtype=torch.bfloat16, device="cuda")
        offs = torch.empty(8, dtype=torch.int32, device="cuda")
        y = torch.ops.cutlass_lib.grouped_mm(a, b, offs, None, None)
        batched = torch.ops.cutlass_lib.grouped_mm(torch.empty(8, 5, 64, dtype=torch.float16, device="cuda"),
                                                   b.to(torch.float16), None, None, torch.float32)
        with pytest.raises(Exception, match="offs"):
            torch.ops.cutlass_lib.grouped_mm(a, b, None, None, None)
        with pytest.raises(Exception, match="K"):
            torch.ops.cutlass_lib.grouped_mm(torch.empty(100, 48, dtype=torch.bfloat16, device="cuda"), b, offs,
                                             None, None)
    assert y.shape == (100, 32) and y.dtype == torch.bfloat16
    assert batched.shape == (8, 5, 32) and batched.dtype == torch.float32


def test_linear_module_and_swap_check_their_arguments():
    with pytest.raises(TypeError, match="nn.Module"):
        clt.swap_linear(None)
    with pytest.raises(ValueError, match="2-D weight"):
        clt.Linear(torch.nn.Parameter(torch.ones(8)))
    with pytest.raises(ValueError, match="activation"):
        clt.Linear(torch.nn.Parameter(torch.ones(2, 8)), activation="tanh")
