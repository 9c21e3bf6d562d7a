"""cutlass_lib for Python: the library's GEMM kernels on PyTorch (and any DLPack) tensors.

    import torch, cutlass_lib
    y = cutlass_lib.linear(x, weight, bias)            # F.linear: y = x @ weight.T + bias
    d = cutlass_lib.gemm(a, b, activation="gelu")      # torch.matmul semantics, fused epilogue

Tensors are 2-D (rows x columns) or 3-D (batch x rows x columns) on a CUDA device, row- or
column-major in their last two dimensions (any leading dimension): they map onto the library's
column-major BLAS call without copies. The call runs on the tensors' device and, for PyTorch
tensors, on PyTorch's current stream (or the stream passed). Errors of the library's C API raise
CutlassLibError carrying the status's name (``e.status``) and a sentence; argument errors raise
TypeError / ValueError before anything runs.

dtypes: float16, bfloat16 (outputs of the input type or float32), float32, float64, int8 (int32
output); the fused epilogues (bias, activation) exist for the 16-bit and float32 kernels the
library was built with (``kernels()`` lists them).
"""
from typing import List, Optional

from . import _C

__all__ = ["CutlassLibError", "gemm", "linear", "select", "kernels", "version"]

#: activation name -> (epilogue without bias, epilogue with bias) of the C API
_EPILOGUES = {
    None: (_C.EPILOGUE_DEFAULT, _C.EPILOGUE_BIAS),
    "relu": (_C.EPILOGUE_RELU, _C.EPILOGUE_RELU_BIAS),
    "gelu": (_C.EPILOGUE_GELU, _C.EPILOGUE_GELU_BIAS),
    "gelu_erf": (_C.EPILOGUE_GELU_ERF, _C.EPILOGUE_GELU_ERF_BIAS),
    "silu": (_C.EPILOGUE_SILU, _C.EPILOGUE_SILU_BIAS),
    "sigmoid": (_C.EPILOGUE_SIGMOID, _C.EPILOGUE_SIGMOID_BIAS),
}


class CutlassLibError(RuntimeError):
    """A status of the library's C API other than success: ``status`` is its name (e.g.
    "CUTLASS_LIB_STATUS_NO_KERNEL"), ``code`` its value."""

    def __init__(self, code: int, context: str):
        self.code = code
        self.status = _C.status_name(code)
        super().__init__(f"{self.status}: {_C.status_string(code)} ({context})")


_handles = {}


def _handle(device: int) -> "_C.Handle":
    handle = _handles.get(device)
    if handle is None:
        handle = _C.Handle(device)
        if handle.create_status != 0:
            raise CutlassLibError(handle.create_status, f"creating a handle on device {device}")
        _handles[device] = handle
    return handle


def _is_torch(x) -> bool:
    return type(x).__module__.split(".")[0] == "torch"


def _device_of(x) -> int:
    if _is_torch(x):
        if x.device.type != "cuda":
            raise ValueError(f"cutlass_lib: a tensor is on {x.device}; cutlass_lib runs on the GPU (tensor.cuda())")
        return x.device.index
    device_type, device_id = x.__dlpack_device__()
    if device_type != 2:   # kDLCUDA
        raise ValueError("cutlass_lib: a tensor is not on a CUDA device; cutlass_lib runs on the GPU")
    return device_id


def _stream_of(x, stream) -> int:
    if stream is not None:
        return int(getattr(stream, "cuda_stream", stream))
    if _is_torch(x):
        import torch
        return torch.cuda.current_stream(x.device).cuda_stream
    return 0


def _epilogue(activation: Optional[str], has_bias: bool) -> int:
    if activation not in _EPILOGUES:
        raise ValueError(f"cutlass_lib: activation {activation!r} is not one of {sorted(k for k in _EPILOGUES if k)}")
    return _EPILOGUES[activation][1 if has_bias else 0]


def _new_out(a, b, out_dtype):
    """torch.empty for a @ b (row-major), for torch inputs."""
    if not _is_torch(a):
        raise ValueError("cutlass_lib: pass out= for tensors that are not PyTorch's")
    import torch
    shape = (*a.shape[:-1], b.shape[-1]) if a.dim() >= b.dim() else (*b.shape[:-2], a.shape[-2], b.shape[-1])
    return torch.empty(shape, dtype=out_dtype or a.dtype, device=a.device)


def gemm(a, b, *, out=None, c=None, alpha: float = 1.0, beta: float = 0.0, bias=None,
         activation: Optional[str] = None, out_dtype=None, stream=None):
    """out = activation(alpha * (a @ b) + beta * c + bias), with torch.matmul's shapes: a is
    (M, K) or (batch, M, K), b is (K, N) or (batch, K, N), out (M, N) or (batch, M, N); a 2-D
    operand beside 3-D ones is shared by every batch. ``c`` defaults to out's previous contents
    when beta != 0 and out is given. ``bias`` has N entries (one per output column, as F.linear's).
    ``out_dtype`` (torch inputs, out not given): e.g. torch.float32 for 16-bit inputs.
    Returns out."""
    if out is None:
        out = _new_out(a, b, out_dtype)
    if c is not None and c is not out:
        if beta == 0:
            raise ValueError("cutlass_lib: c is given but beta is 0")
        out.copy_(c)
    device = _device_of(a)
    status, _ = _handle(device).gemm(a, b, out, float(alpha), float(beta), bias, _epilogue(activation, bias is not None),
                                     _stream_of(a, stream), False)
    if status != 0:
        raise CutlassLibError(status, f"gemm of {tuple(a.shape)} and {tuple(b.shape)} into {tuple(out.shape)}")
    return out


def linear(x, weight, bias=None, activation: Optional[str] = None, *, stream=None):
    """torch.nn.functional.linear (then the activation, fused): y = x @ weight.T + bias for x of
    shape (*, in_features), weight (out_features, in_features), bias (out_features,). Leading
    dimensions of x are flattened into the token dimension (a view when x allows it)."""
    leading = x.shape[:-1]
    x2 = x.reshape(-1, x.shape[-1])
    y = gemm(x2, weight.t(), bias=bias, activation=activation, stream=stream)
    return y.reshape(*leading, weight.shape[0])


def select(a, b, *, out=None, bias=None, activation: Optional[str] = None, out_dtype=None) -> str:
    """The kernel gemm(a, b, ...) would run (2-D operands), without running anything."""
    if out is None:
        out = _new_out(a, b, out_dtype)
    status, name = _handle(_device_of(a)).gemm(a, b, out, 1.0, 0.0, bias, _epilogue(activation, bias is not None), 0,
                                               True)
    if status != 0:
        raise CutlassLibError(status, f"select for {tuple(a.shape)} x {tuple(b.shape)}")
    return name


def kernels() -> List[str]:
    """The kernels of the loaded libcutlass_lib (CUTLASS procedural names)."""
    return _C.kernels()


def version() -> str:
    """The loaded libcutlass_lib's version, "major.minor.patch"."""
    v = _C.version()
    return f"{v // 10000}.{v // 100 % 100}.{v % 100}"
