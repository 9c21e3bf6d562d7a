"""Host-only tests of the package (no GPU needed): import, the kernel list, and the errors raised
before anything runs."""
import re

import numpy as np
import pytest

import cutlass_lib
from cutlass_lib import _C


def test_version_and_kernel_names():
    assert re.fullmatch(r"\d+\.\d+\.\d+", cutlass_lib.version())
    names = cutlass_lib.kernels()
    assert names, "the loaded library holds kernels"
    assert all(n.startswith(("cutlass_", "cutlass3x_")) for n in names)
    assert len(names) == len(set(names))


def test_status_names_reach_python():
    error = cutlass_lib.CutlassLibError(100, "a test")
    assert error.status == "CUTLASS_LIB_STATUS_NO_KERNEL"
    assert error.code == 100
    assert "CUTLASS_LIB_STATUS_NO_KERNEL" in str(error) and "a test" in str(error)
    assert cutlass_lib.CutlassLibError(102, "").status == "CUTLASS_LIB_STATUS_WORKSPACE_TOO_SMALL"


def test_cpu_arrays_are_refused_with_a_reason():
    a = np.ones((4, 8), dtype=np.float32)
    out = np.empty((4, 4), dtype=np.float32)
    with pytest.raises(ValueError, match="CUDA device"):
        cutlass_lib.gemm(a, a.T, out=out)
    # the binding itself names the operand
    with pytest.raises(ValueError, match="'a' is not on a CUDA device"):
        _C.Handle(0).gemm(a, a.T, out, 1.0, 0.0, None, _C.EPILOGUE_DEFAULT, 0, 0, 0, False)


def test_unknown_activation_is_a_value_error():
    with pytest.raises(ValueError, match="activation"):
        cutlass_lib._epilogue("tanh", False)
    assert cutlass_lib._epilogue("gelu", True) == _C.EPILOGUE_GELU_BIAS
    assert cutlass_lib._epilogue(None, False) == _C.EPILOGUE_DEFAULT


def test_out_is_needed_for_other_than_torch_tensors():
    a = np.ones((4, 8), dtype=np.float32)
    with pytest.raises(ValueError, match="out="):
        cutlass_lib._new_out(a, a.T, None)


def test_ranks_and_batches_are_checked_before_anything_runs():
    a = np.ones((4, 8), dtype=np.float32)
    with pytest.raises(ValueError, match="2-D or 3-D"):
        cutlass_lib.gemm(a[0], a.T)
    with pytest.raises(ValueError, match="batch sizes"):
        cutlass_lib._out_shape(np.ones((2, 4, 8)), np.ones((3, 8, 4)))
    # torch.matmul's shapes, a batch of 1 broadcasting
    assert cutlass_lib._out_shape(np.ones((1, 4, 8)), np.ones((3, 8, 5))) == (3, 4, 5)
    assert cutlass_lib._out_shape(np.ones((3, 4, 8)), np.ones((8, 5))) == (3, 4, 5)
    assert cutlass_lib._out_shape(np.ones((4, 8)), np.ones((8, 5))) == (4, 5)


def test_pytorch_argument_errors_without_a_gpu():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    a, b = torch.ones(4, 8), torch.ones(8, 2)
    with pytest.raises(ValueError, match="beta != 0 needs c or out"):
        cutlass_lib.gemm(a, b, beta=1.0)
    with pytest.raises(ValueError, match="out_dtype"):
        cutlass_lib.gemm(a, b, out=torch.empty(4, 2), out_dtype=torch.float16)
    with pytest.raises(TypeError, match="torch.cuda.Stream"):
        cutlass_lib._stream_context(a, 7)
    with pytest.raises(ValueError, match="CUDA GPU"):
        cutlass_lib.gemm(a, b)
    with pytest.raises(ValueError, match="2-D weight"):
        cutlass_lib.linear(a, torch.ones(8))
    assert cutlass_lib._default_out_dtype(torch.ones(1, dtype=torch.int8)) == torch.int32
    assert cutlass_lib._default_out_dtype(torch.ones(1, dtype=torch.bfloat16)) == torch.bfloat16


def test_gemm_object_takes_pytorch_tensors_only():
    a = np.ones((4, 8), dtype=np.float32)
    with pytest.raises(TypeError, match="PyTorch tensors"):
        cutlass_lib.Gemm(a, a.T)


def test_gemm_object_argument_errors_without_a_gpu():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    with pytest.raises(ValueError, match="CUDA GPU"):
        cutlass_lib.Gemm(torch.ones(4, 8), torch.ones(8, 2))
    with pytest.raises(ValueError, match="beta != 0"):
        cutlass_lib.Gemm(torch.ones(4, 8), torch.ones(8, 2), beta=1.0)


def test_scaled_mm_takes_pytorch_tensors_only():
    import numpy as np
    a = np.zeros((4, 4), dtype=np.float32)
    with pytest.raises(TypeError, match="PyTorch"):
        cutlass_lib.scaled_mm(a, a, a, a)


def test_non_arrays_and_non_torch_linear_are_type_errors():
    with pytest.raises(TypeError, match="DLPack"):
        cutlass_lib.gemm([[1.0]], [[1.0]])
    with pytest.raises(TypeError, match="DLPack"):
        cutlass_lib.gemm(None, np.ones((2, 2), dtype=np.float32))
    a = np.ones((4, 8), dtype=np.float32)
    with pytest.raises(TypeError, match="PyTorch"):
        cutlass_lib.linear(a, a)


def test_only_tensors_are_pytorch_tensors():
    # torch.Size, dtypes and modules come from torch's modules but are not tensors: TypeError, not
    # AttributeError; a Tensor subclass defined elsewhere is one (reaching the device check)
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    w = torch.ones(2, 8)
    for not_a_tensor in (torch.Size([4, 8]), torch.float32, torch.nn.Linear(8, 2)):
        with pytest.raises(TypeError, match="PyTorch tensors"):
            cutlass_lib.linear(not_a_tensor, w)

    class Subclass(torch.Tensor):
        pass

    with pytest.raises(ValueError, match="CUDA GPU"):
        cutlass_lib.linear(torch.ones(4, 8).as_subclass(Subclass), w)


def test_every_tensor_argument_is_type_checked():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    a, b, s = torch.ones(4, 8), torch.ones(8, 2), torch.ones(1)
    for bias, out in ((np.ones(2), None), (5, None), (None, np.ones((4, 2)))):
        with pytest.raises(TypeError, match="PyTorch tensors"):
            cutlass_lib.scaled_mm(a, b, s, s, bias=bias, out=out)
    for extra in ({"bias": np.ones(2)}, {"c": np.ones((4, 2)), "beta": 1.0}):
        with pytest.raises(TypeError, match="PyTorch tensors"):
            cutlass_lib.Gemm(a, b, **extra)
    with pytest.raises(TypeError, match="PyTorch tensor"):
        cutlass_lib.gemm(a, b, c=np.ones((4, 2)), beta=1.0)


def test_scalars_past_a_double_are_value_errors():
    with pytest.raises(ValueError, match="range of a double"):
        cutlass_lib._scalar(2 ** 1024, "alpha")
    with pytest.raises(TypeError, match="must be a number"):
        cutlass_lib._scalar("one", "beta")
    assert cutlass_lib._scalar(-2 ** 31, "alpha") == -2147483648.0
