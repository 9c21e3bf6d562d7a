"""cutlass_lib for Python: the library's GEMM kernels on PyTorch (and any DLPack) tensors.

    import torch, cutlass_lib
    y = cutlass_lib.linear(x, weight, bias)            # F.linear: y = x @ weight.T + bias
    d = cutlass_lib.gemm(a, b, activation="gelu")      # torch.matmul semantics, fused epilogue
    y = cutlass_lib.grouped_mm(tokens, w.transpose(-2, -1), offs)   # torch._grouped_mm (MoE experts)

Tensors are 2-D (rows x columns) or 3-D (batch x rows x columns) on a CUDA device, row- or
column-major in their last two dimensions (any leading dimension): they map onto the library's
column-major BLAS call without copies. The call runs on the tensors' device and, for PyTorch
tensors, on PyTorch's current stream (or the stream passed). Errors of the library's C API raise
CutlassLibError carrying the status's name (``e.status``) and a sentence; argument errors raise
TypeError / ValueError before anything runs.

dtypes: float16, bfloat16 (outputs of the input type or float32), float32, float64, int8 (int32
output). Bias and activation run fused into the GEMM's epilogue where the built library has that
kernel (``kernels()`` lists them; the default set has bias+ReLU and bias+GELU of the 16-bit
types), otherwise as the plain GEMM followed by PyTorch's add and activation.

PyTorch tensors get a workspace per (device, stream) from PyTorch's caching allocator (the
library then allocates nothing); it grows when a call needs more (during graph capture from the
graph's pool), and earlier ones stay alive, so CUDA graphs captured with them stay valid.
"""
import contextlib
import functools
import math
import sys
from typing import List, Optional

from . import _C

__all__ = ["CutlassLibError", "Gemm", "gemm", "grouped_mm", "linear", "scaled_mm", "select", "kernels", "version"]

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


_torch_types = {}   # type -> whether it is PyTorch's (a dict lookup per call instead of a string split)


def _is_torch(x) -> bool:
    """Whether x is a torch.Tensor (or a subclass's instance); no object is one while PyTorch is
    not imported."""
    kind = type(x)
    answer = _torch_types.get(kind)
    if answer is None:
        torch = sys.modules.get("torch")
        answer = torch is not None and issubclass(kind, torch.Tensor)
        if torch is not None:
            _torch_types[kind] = answer
    return answer


def _scalar(value, name: str) -> float:
    """alpha or beta as the double the library takes: TypeError for what is not a number,
    ValueError for a number past the double range."""
    if isinstance(value, (str, bytes)):
        raise TypeError(f"cutlass_lib: {name} must be a number, got {type(value).__name__}")
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"cutlass_lib: {name} = {value} is past the range of a double") from None
    except (TypeError, ValueError):
        raise TypeError(f"cutlass_lib: {name} must be a number, got {type(value).__name__}") from None


def _device_of(x) -> int:
    if _is_torch(x):
        if x.device.type != "cuda":
            raise ValueError(f"cutlass_lib: a tensor is on {x.device}; cutlass_lib runs on a CUDA GPU (tensor.cuda())")
        return x.device.index
    device_type, device_id = x.__dlpack_device__()
    if device_type != 2:   # kDLCUDA
        raise ValueError("cutlass_lib: a tensor is not on a CUDA device; cutlass_lib runs on the GPU")
    return device_id


def _stream_context(x, stream):
    """For PyTorch tensors and a given torch.cuda.Stream: that stream made current, so the output,
    the workspace and any copy are allocated and ordered on the stream the kernel runs on."""
    if stream is None or not _is_torch(x):
        return contextlib.nullcontext()
    import torch
    if not isinstance(stream, torch.cuda.Stream):
        raise TypeError("cutlass_lib: with PyTorch tensors, stream= takes a torch.cuda.Stream")
    return torch.cuda.stream(stream)


def _stream_handle(x, stream) -> int:
    if stream is not None:
        return int(getattr(stream, "cuda_stream", stream))
    if _is_torch(x):
        return _current_stream(x.device.index)
    return 0


def _current_stream(device: int) -> int:
    """PyTorch's current stream on `device` as a cudaStream_t: the raw handle PyTorch's own
    compiled code reads (no Stream object), or the public API where that is absent."""
    global _current_stream
    import torch
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    if raw is None:
        def public(device: int) -> int:
            return torch.cuda.current_stream(device).cuda_stream
        _current_stream = public
    else:
        _current_stream = raw
    return _current_stream(device)


def _epilogue(activation: Optional[str], has_bias: bool) -> int:
    if activation not in _EPILOGUES:
        raise ValueError(f"cutlass_lib: activation {activation!r} is not one of {sorted(k for k in _EPILOGUES if k)}")
    return _EPILOGUES[activation][1 if has_bias else 0]


def _check_ranks(a, b):
    for name, x in (("a", a), ("b", b)):
        if not hasattr(x, "ndim") or not hasattr(x, "__dlpack__"):
            raise TypeError(f"cutlass_lib: {name} must be a PyTorch tensor or another DLPack array on a CUDA device, "
                            f"got {type(x).__name__}")
    if a.ndim not in (2, 3) or b.ndim not in (2, 3):
        raise ValueError(f"cutlass_lib: a and b must be 2-D or 3-D (batched), got {a.ndim}-D and {b.ndim}-D")


def _out_shape(a, b):
    """torch.matmul's shape for 2-D / 3-D a and b (a batch of 1 broadcasts). No hashing or
    max() of the sizes, so symbolic sizes (torch.compile's dynamic shapes) pass through."""
    rows = (a.shape[-2], b.shape[-1])
    if a.ndim == 3 and b.ndim == 3:
        batch_a, batch_b = a.shape[0], b.shape[0]
        if not (batch_a == batch_b or batch_a == 1 or batch_b == 1):
            raise ValueError(f"cutlass_lib: the batch sizes of a ({batch_a}) and b ({batch_b}) differ")
        return (batch_b if batch_a == 1 else batch_a,) + rows
    if a.ndim == 3:
        return (a.shape[0],) + rows
    if b.ndim == 3:
        return (b.shape[0],) + rows
    return rows


def _default_out_dtype(a):
    """int8 -> int32 and float8 -> bfloat16 (a float8 output needs the D scale / amax epilogue,
    which matmul does not set); other dtypes their own."""
    import torch
    if a.dtype == torch.int8:
        return torch.int32
    if a.dtype in (torch.float8_e4m3fn, torch.float8_e5m2):
        return torch.bfloat16
    return a.dtype


def _new_out(a, b, out_dtype):
    """torch.empty for a @ b (row-major), for torch inputs."""
    if not _is_torch(a):
        raise ValueError("cutlass_lib: pass out= for tensors that are not PyTorch's")
    import torch
    return torch.empty(_out_shape(a, b), dtype=out_dtype or _default_out_dtype(a), device=a.device)


#: Bytes of the first workspace of a (device, stream); it doubles when a call needs more.
_FIRST_WORKSPACE_BYTES = 4 << 20
#: (device, stream) -> the workspaces handed to the library for that stream, the last one current.
#: Earlier ones stay alive: a CUDA graph captured while one was current keeps its address.
_workspaces = {}


def _workspace(out, device: int, stream: int, needed: int = 0):
    """The PyTorch-allocated workspace of (device, stream) with at least `needed` bytes, as
    (pointer, bytes); (0, 0) for tensors that are not PyTorch's (the handle's own workspace)."""
    if not _is_torch(out):
        return 0, 0
    import torch
    buffers = _workspaces.setdefault((device, stream), [])
    if not buffers or buffers[-1].numel() < needed:
        # during graph capture PyTorch's allocator serves this from the graph's private pool; the
        # list keeps it alive as long as the module, so replays find it
        size = max(needed, 2 * buffers[-1].numel() if buffers else _FIRST_WORKSPACE_BYTES)
        buffers.append(torch.empty(size, dtype=torch.uint8, device=out.device))
    current = buffers[-1]
    return current.data_ptr(), current.numel()


def _activate_(out, activation):
    import torch
    import torch.nn.functional as F
    if activation == "relu":
        out.relu_()
    elif activation == "gelu":
        out.copy_(F.gelu(out, approximate="tanh"))
    elif activation == "gelu_erf":
        out.copy_(F.gelu(out))
    elif activation == "silu":
        F.silu(out, inplace=True)
    elif activation == "sigmoid":
        torch.sigmoid_(out)


class _Planned:
    """One call described once (_C.Plan: the checks, the row-/column-major mapping, the scalars)
    for PyTorch operands of one signature (shapes, strides, dtypes, device), launched on the
    addresses of any operands of that signature. With a bias or activation it also holds the
    plain plan: a build without the fused kernel (NO_KERNEL) runs the plain GEMM followed by
    PyTorch's add and activation from then on."""

    __slots__ = ("handle", "fused", "plain", "has_bias", "activation", "use_plain")

    def __init__(self, handle, a, b, out, alpha, beta, bias, activation, scale_a=None, scale_b=None):
        self.handle, self.has_bias, self.activation = handle, bias is not None, activation
        self.fused = _C.Plan(handle, a, b, out, alpha, beta, bias, _epilogue(activation, bias is not None),
                             scale_a, scale_b)
        fused = bias is not None or activation is not None
        self.plain = (_C.Plan(handle, a, b, out, alpha, beta, None, _C.EPILOGUE_DEFAULT, scale_a, scale_b)
                      if fused else None)
        self.use_plain = False

    def run(self, a, b, out, bias, stream: int, select_only: bool = False, scale_a=None, scale_b=None):
        """Launches on these operands (a and b: tensors whose data_ptr() is the described
        operands'), with this stream's PyTorch workspace; raises CutlassLibError on a status."""
        plan = self.plain if self.use_plain else self.fused
        bias_address = bias.data_ptr() if bias is not None and not self.use_plain else 0
        pointers = (a.data_ptr(), b.data_ptr(), out.data_ptr(), bias_address)
        scales = (0 if scale_a is None else scale_a.data_ptr(), 0 if scale_b is None else scale_b.data_ptr())
        ws, ws_bytes = _workspace(out, self.handle.device, stream)
        result = plan.run(*pointers, stream, ws, ws_bytes, select_only, *scales)
        if result.status == 102:   # WORKSPACE_TOO_SMALL: grow this stream's workspace once
            ws, ws_bytes = _workspace(out, self.handle.device, stream, result.workspace_needed)
            result = plan.run(*pointers, stream, ws, ws_bytes, select_only, *scales)
        # NO_KERNEL: this build has no such fused kernel; NOT_SUPPORTED at K == 0: the C API fuses
        # no epilogue into the empty product (beta * C), PyTorch adds the bias and activation
        no_fused = result.status == 100 or (result.status == 15 and a.shape[-1] == 0)
        if no_fused and self.plain is not None and not self.use_plain:
            self.use_plain = True
            return self.run(a, b, out, bias, stream, select_only, scale_a, scale_b)
        if result.status != 0:
            raise CutlassLibError(result.status, f"gemm of {tuple(a.shape)} and {tuple(b.shape)} into "
                                                 f"{tuple(out.shape)}")
        if self.use_plain and not select_only:
            if bias is not None:
                out.add_(bias)
            _activate_(out, self.activation)
        return result


#: signature -> _Planned, for PyTorch tensors: a call of a known signature skips the DLPack
#: import and the checks. Cleared when it holds _MAX_PLANS (a workload has few signatures).
_plans = {}
_MAX_PLANS = 4096


def _signature(kind, a, b, out, alpha, beta, bias, activation):
    return (kind, a.shape, a.stride(), a.dtype, a.device, b.shape, b.stride(), b.dtype, b.device, out.shape,
            out.stride(), out.dtype, out.device, alpha, beta, _bias_signature(bias), activation)


def _bias_signature(bias):
    return None if bias is None else (bias.shape, bias.stride(), bias.dtype, bias.device)


def _cached(key, make):
    """_plans[key], made by make() on a miss (errors raised before anything is cached)."""
    entry = _plans.get(key)
    if entry is None:
        entry = make()
        if len(_plans) >= _MAX_PLANS:
            _plans.clear()
        _plans[key] = entry
    return entry


def _check_empty_call(a, b, out, bias, activation):
    """The checks an empty output's call still gets (the C API's describe is not reached): what
    torch.matmul raises for, and the library's own arguments (for PyTorch tensors also the dtypes
    and devices a non-empty call's describe would refuse)."""
    arrays = (a, b, out) if bias is None else (a, b, out, bias)
    if not all(_is_torch(t) or hasattr(t, "__dlpack_device__") for t in arrays):
        raise TypeError("cutlass_lib: a, b, out and bias must be PyTorch tensors or DLPack arrays")
    if len({_device_of(t) for t in arrays}) > 1:
        raise ValueError("cutlass_lib: every tensor must be on one CUDA device")
    if all(_is_torch(t) for t in arrays):
        import torch
        _check_operand_dtype(a)
        if out.dtype not in _taken_dtypes() + (torch.int32,):
            raise TypeError(f"cutlass_lib: the library writes no {out.dtype} outputs")
        if bias is not None and bias.dtype != out.dtype:
            raise TypeError(f"cutlass_lib: bias is {bias.dtype}, out {out.dtype}: bias must have out's dtype")
    if a.shape[-1] != b.shape[-2]:
        raise ValueError(f"cutlass_lib: a is {tuple(a.shape)} and b {tuple(b.shape)}: their K differ")
    if tuple(out.shape) != tuple(_out_shape(a, b)):
        raise ValueError(f"cutlass_lib: out is {tuple(out.shape)}, the product is {tuple(_out_shape(a, b))}")
    if a.dtype != b.dtype:
        raise ValueError(f"cutlass_lib: a is {a.dtype} and b {b.dtype}")
    _epilogue(activation, bias is not None)
    if bias is not None and tuple(bias.shape) != (out.shape[-1],):
        raise ValueError(f"cutlass_lib: bias is {tuple(bias.shape)}, out has {out.shape[-1]} columns")


@functools.lru_cache(maxsize=None)
def _taken_dtypes():
    """The torch dtypes of the operands the library takes (module.cpp's cuda_type); built once."""
    import torch
    return (torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.int8, torch.float8_e4m3fn,
            torch.float8_e5m2)


def _check_operand_dtype(t):
    """TypeError for a PyTorch operand of a dtype the library takes no operands of."""
    if t.dtype not in _taken_dtypes():
        raise TypeError(f"cutlass_lib: the library takes no operands of dtype {t.dtype}")


def _gemm_into(a, b, out, alpha, beta, bias, activation, stream):
    if 0 in tuple(out.shape):
        _check_empty_call(a, b, out, bias, activation)
        return out   # an empty output (M, N or the batch 0): nothing to compute, as torch.matmul
    if _is_torch(a) and _is_torch(b) and _is_torch(out) and (bias is None or _is_torch(bias)):
        key = _signature("gemm", a, b, out, alpha, beta, bias, activation)
        planned = _cached(key, lambda: _Planned(_handle(_device_of(a)), a, b, out, _scalar(alpha, "alpha"),
                                                _scalar(beta, "beta"), bias, activation))
        planned.run(a, b, out, bias, stream)
        return out
    # other DLPack arrays: describe and launch in one call (no fallback for a missing fused kernel)
    handle = _handle(_device_of(a))
    epilogue = _epilogue(activation, bias is not None)
    result = handle.gemm(a, b, out, _scalar(alpha, "alpha"), _scalar(beta, "beta"), bias, epilogue, stream, 0, 0,
                         False)
    if result.status != 0:
        raise CutlassLibError(result.status, f"gemm of {tuple(a.shape)} and {tuple(b.shape)} into {tuple(out.shape)}")
    return out


def gemm(a, b, *, out=None, c=None, alpha: float = 1.0, beta: float = 0.0, bias=None,
         activation: Optional[str] = None, out_dtype=None, stream=None):
    """out = activation(alpha * (a @ b) + beta * c + bias), with torch.matmul's shapes: a is
    (M, K) or (batch, M, K), b is (K, N) or (batch, K, N), out (M, N) or (batch, M, N); a 2-D
    operand (or a batch of 1) beside 3-D ones is shared by every batch. ``c`` defaults to out's
    previous contents when out is given; a given c is broadcast to out's shape and converted to its
    dtype (torch.addmm's input; ValueError when it does not broadcast); beta != 0 needs c or out. ``bias`` has N entries (one per
    output column, as F.linear's) of out's dtype. ``out_dtype`` (torch inputs, out not given):
    e.g. torch.float32 for 16-bit inputs; int8 inputs give int32 (and take integer alpha, beta).
    A bias or activation the built library has no fused kernel for runs as the plain GEMM
    followed by PyTorch's add and activation (PyTorch tensors). ``stream``: a torch.cuda.Stream
    (PyTorch tensors; the output is allocated on it) or a cudaStream_t as an integer.
    Returns out."""
    _check_ranks(a, b)
    if out is None and beta != 0 and c is None:
        raise ValueError("cutlass_lib: beta != 0 needs c or out (the values beta scales)")
    if out is not None and out_dtype is not None and out.dtype != out_dtype:
        raise ValueError(f"cutlass_lib: out is {out.dtype} but out_dtype is {out_dtype}")
    copy_c = c is not None and c is not out
    if copy_c and beta == 0:
        raise ValueError("cutlass_lib: c is given but beta is 0")
    if copy_c and out is not None and not _is_torch(out):
        raise ValueError("cutlass_lib: c= needs PyTorch tensors; with other arrays copy c into out")
    if copy_c and not _is_torch(c):
        raise TypeError("cutlass_lib: c must be a PyTorch tensor")
    _device_of(a)
    with _stream_context(a, stream):
        if out is None:
            out = _new_out(a, b, out_dtype)
        if copy_c:
            _check_c(c, out)
            out.copy_(c)
        return _gemm_into(a, b, out, alpha, beta, bias, activation, _stream_handle(a, stream))


def _check_c(c, out):
    """ValueError for a c that does not broadcast to out's shape (torch.addmm's input rule: each of
    c's trailing dimensions 1 or out's)."""
    c_shape, out_shape = tuple(c.shape), tuple(out.shape)
    fits = len(c_shape) <= len(out_shape) and all(
        cd == 1 or cd == od for cd, od in zip(reversed(c_shape), reversed(out_shape)))
    if not fits:
        raise ValueError(f"cutlass_lib: c is {tuple(c.shape)}, which does not broadcast to out's {tuple(out.shape)}")


def linear(x, weight, bias=None, activation: Optional[str] = None, *, stream=None):
    """torch.nn.functional.linear (then the activation, fused where the library has the kernel):
    y = x @ weight.T + bias for x of shape (*, in_features), weight (out_features, in_features),
    bias (out_features,). Leading dimensions of x are flattened into the token dimension (a view
    when x allows it)."""
    if not (_is_torch(x) and _is_torch(weight) and (bias is None or _is_torch(bias))):
        raise TypeError("cutlass_lib.linear takes PyTorch tensors (cutlass_lib.gemm with out= takes other DLPack "
                        "arrays)")
    if x.ndim < 1 or weight.ndim != 2:
        raise ValueError(f"cutlass_lib: linear takes x of shape (*, in_features) and a 2-D weight, got "
                         f"{tuple(x.shape)} and {tuple(weight.shape)}")
    if x.ndim != 2:
        _device_of(x)            # a CPU x is refused before reshape may copy it
        leading = x.shape[:-1]   # flattened by their product, not -1 (ambiguous for 0 elements)
        y = linear(x.reshape(math.prod(leading), x.shape[-1]), weight, bias, activation, stream=stream)
        return y.reshape(*leading, weight.shape[0])
    if stream is not None:
        return gemm(x, weight.t(), bias=bias, activation=activation, stream=stream)
    # the current stream: the plan of this signature (with out's dtype), launched on the addresses
    # (weight.t() is a view of weight: the same address)
    import torch
    shape = (x.shape[0], weight.shape[0])
    key = ("linear", x.shape, x.stride(), x.dtype, x.device, weight.shape, weight.stride(), weight.dtype,
           weight.device, _bias_signature(bias), activation)

    def make():
        handle = _handle(_device_of(x))   # a CPU x is refused before anything is allocated
        dtype = _default_out_dtype(x)
        described = torch.empty(shape, dtype=dtype, device=x.device)
        return _Planned(handle, x, weight.t(), described, 1.0, 0.0, bias, activation), dtype

    planned, dtype = _cached(key, make)
    out = torch.empty(shape, dtype=dtype, device=x.device)
    planned.run(x, weight, out, bias, _current_stream(x.device.index))
    return out


def scaled_mm(a, b, scale_a, scale_b, *, bias=None, out_dtype=None, out=None, stream=None):
    """torch._scaled_mm on the library's float8 kernels: out = (scale_a * scale_b) * (a @ b) [+ bias]
    for a (M, K) row-major and b (K, N) column-major (b = weight.t() of a row-major (N, K) weight),
    torch.float8_e4m3fn both, or one e4m3fn and one float8_e5m2 (the library's fp8 pairings).
    ``out_dtype`` torch.bfloat16 (the default), torch.float16 or
    torch.float32; ``bias`` (N,) of out's dtype. Scales are float32 on a's device, read by the
    kernel (cuBLASLt's A/B scale pointers and modes):

    - per tensor: 1 element each;
    - row-wise: ``scale_a`` (M, 1), ``scale_b`` (1, N) (OUTER_VEC_32F, applied in the epilogue);
    - block-wise over K blocks of 128 (KB = ceil(K / 128); DeepSeek-V3's recipe is 1x128 for the
      activations and 128x128 for the weights), each k-block's partial product scaled in f32:
      ``scale_a`` (M, KB) with strides (1, M) ("outer-dim-major": ``s.t().contiguous().t()``) for
      1x128, or (ceil(M / 128), KB) with strides (KBp, 1) for 128x128; ``scale_b`` (KB, N)
      row-major for 1x128, or (KB, ceil(N / 128)) with strides (1, KBp) for 128x128 (the ``.t()``
      of a weight's (ceil(N / 128), KB) scale). KBp is KB rounded up to a multiple of 4: cuBLASLt
      (and torch._scaled_mm) pad each 128x128 block's row of K blocks to 16 bytes, so such a scale
      is a row-major (.., KBp) array sliced to KB columns (or plain row-major when KB % 4 == 0).
      Any pairing of the two block modes; the block-scaled kernels are opt-in (a build with
      ``CUTLASS_LIBRARY_KERNELS='default,*blockscale*'``).

    PyTorch tensors only; M, N and K multiples of 16 run the TMA kernels directly, others on
    aligned copies. Returns out."""
    if not (_is_torch(a) and _is_torch(b) and _is_torch(scale_a) and _is_torch(scale_b) and
            (bias is None or _is_torch(bias)) and (out is None or _is_torch(out))):
        raise TypeError("cutlass_lib.scaled_mm takes PyTorch tensors")
    if a.ndim != 2 or b.ndim != 2:
        raise ValueError(f"cutlass_lib: scaled_mm takes 2-D a and b, got {a.ndim}-D and {b.ndim}-D")
    if out is not None and out_dtype is not None and out.dtype != out_dtype:
        raise ValueError(f"cutlass_lib: out is {out.dtype} but out_dtype is {out_dtype}")
    _device_of(a)
    with _stream_context(a, stream):
        if out is None:
            out = _new_out(a, b, out_dtype)
        if out.numel() == 0:
            return out   # M or N == 0: nothing to compute (the scales of an empty operand have no address)
        if a.shape[1] == 0 and (scale_a.numel() == 0 or scale_b.numel() == 0):
            # K == 0 with block scales (no K blocks, so no scale has an address): the empty sum
            out.zero_()
            return out.add_(bias) if bias is not None else out
        key = _signature("scaled_mm", a, b, out, 1.0, 0.0, bias, None) + (
            scale_a.shape, scale_a.stride(), scale_a.dtype, scale_a.device,
            scale_b.shape, scale_b.stride(), scale_b.dtype, scale_b.device)
        planned = _cached(key, lambda: _Planned(_handle(_device_of(a)), a, b, out, 1.0, 0.0, bias, None, scale_a,
                                                scale_b))
        try:
            planned.run(a, b, out, bias, _stream_handle(a, stream), False, scale_a, scale_b)
        except CutlassLibError as error:
            if error.status == "CUTLASS_LIB_STATUS_NO_KERNEL" and (_block_scale(scale_a, a.shape[0], 0) or
                                                                 _block_scale(scale_b, b.shape[1], 1)):
                raise CutlassLibError(error.code, "no block-scaled kernel of this build takes the call: they take "
                                                  "float8 a (row-major) and b (column-major), e4m3 x e4m3, "
                                                  "e4m3 x e5m2 or e5m2 x e4m3, and are "
                                                  "opt-in (CUTLASS_LIBRARY_KERNELS='default,*blockscale*')") from error
            raise
    return out


def _block_scale(scale, extent: int, axis: int) -> bool:
    """Whether a's (axis 0, `extent` = M) or b's (axis 1, `extent` = N) scale is a block scale: not
    one element (per tensor) and not row-wise ((M,), (M, 1) / (N,), (1, N)), as module.cpp's
    scale_mode tells them apart."""
    if scale.numel() == 1:
        return False
    row_wise = scale.ndim == 1 or (scale.ndim == 2 and scale.shape[1 - axis] == 1)
    return not (row_wise and scale.numel() == extent)


def _group_ends(offs, experts: int, total_rows: int) -> List[int]:
    """The row ends of grouped_mm's offs as host integers, checked: `experts` of them, each >= the
    one before (>= 0 for the first) and <= total_rows. A CUDA offs is copied to the host (that
    waits for the current stream's work)."""
    import torch
    if not isinstance(offs, torch.Tensor):
        raise TypeError(f"cutlass_lib: offs must be a torch.Tensor of int32, got {type(offs).__name__}")
    if offs.dtype != torch.int32:
        raise ValueError(f"cutlass_lib: offs must be int32 (as torch._grouped_mm's), got {offs.dtype}")
    if offs.ndim != 1:
        raise ValueError(f"cutlass_lib: offs must be 1-D (one row end per expert), got shape {tuple(offs.shape)}")
    if offs.shape[0] != experts:
        raise ValueError(f"cutlass_lib: offs has {offs.shape[0]} entries but mat_b has {experts} experts "
                         "(one cumulative row end per expert)")
    ends = offs.tolist()   # a CUDA tensor: device-to-host copy and synchronization
    previous = 0
    for expert, end in enumerate(ends):
        if end < previous:
            raise ValueError(f"cutlass_lib: offs must be non-decreasing cumulative row ends starting at >= 0; "
                             f"offs[{expert}] = {end} follows {previous}")
        previous = end
    if ends and ends[-1] > total_rows:
        raise ValueError(f"cutlass_lib: offs[-1] = {ends[-1]} is past mat_a's {total_rows} rows")
    return ends


def _run_grouped(call, out, device, stream_handle, bias):
    """Runs ``call(workspace, workspace_bytes, bias)``, a grouped call of the binding: with the
    caller's bias fused where a kernel takes it (expert g's row added by the GEMM's epilogue; a
    NOT_SUPPORTED / NO_KERNEL answer comes before anything runs, and the call is made again
    without it), the stream's workspace grown once to the plan's need. Returns (result, whether
    the bias was fused)."""
    ws, ws_bytes = _workspace(out, device, stream_handle)
    fused = bias is not None
    result = call(ws, ws_bytes, bias)
    if fused and result.status in (15, 100):   # NOT_SUPPORTED, NO_KERNEL: no kernel fuses the bias
        fused = False
        result = call(ws, ws_bytes, None)
    if result.status == 102:   # WORKSPACE_TOO_SMALL: grow this stream's workspace once
        ws, ws_bytes = _workspace(out, device, stream_handle, result.workspace_needed)
        result = call(ws, ws_bytes, bias if fused else None)
    return result, fused


def _fusable_bias(bias, experts, n):
    """The bias when the grouped calls can take it in their epilogue (each expert's row contiguous,
    rows apart by at least N), else None (it is then added after the GEMMs)."""
    if bias is None or (n > 1 and bias.stride(1) != 1) or (experts > 1 and bias.stride(0) < n):
        return None
    return bias


def _grouped_mm_device_ends(mat_a, mat_b, offs, bias, dtype, stream):
    """grouped_mm's 2-D case with a CUDA offs through the library's call that reads the row ends
    on the device (cutlassLibGemmGroupedContiguousEx: no host synchronization, capturable): the
    output, or None where that call does not take the problem (offs on the CPU, a 3-D mat_a, a
    mat_a whose rows are not contiguous, other dtypes, an empty problem, or a NOT_SUPPORTED /
    NO_KERNEL answer: a build without the grouped kernels, a device other than sm_90, N or K not
    a multiple of 8), which grouped_mm then runs with the ends read on the host."""
    import torch
    if offs is None or offs.device.type != "cuda" or mat_a.ndim != 2 or mat_a.stride(1) != 1:
        return None
    if mat_a.dtype not in (torch.bfloat16, torch.float16) or dtype != mat_a.dtype:
        return None
    experts, k, n = mat_b.shape
    if offs.dtype != torch.int32 or offs.ndim != 1 or offs.shape[0] != experts:
        return None   # grouped_mm's host path names the problem
    if k == 0 or n == 0 or mat_a.shape[0] == 0 or experts == 0:
        return None
    out = torch.empty((mat_a.shape[0], n), dtype=dtype, device=mat_a.device)
    device = _device_of(mat_a)
    handle = _handle(device)
    stream_handle = _stream_handle(mat_a, stream)
    offs_c = offs.contiguous()
    result, fused = _run_grouped(
        lambda ws, ws_bytes, b: handle.grouped_mm_device_ends(mat_a, mat_b, out, offs_c, stream_handle, ws, ws_bytes, b),
        out, device, stream_handle, _fusable_bias(bias, experts, n))
    if result.status in (7, 8, 15, 100):   # INVALID_VALUE, ARCH_MISMATCH, NOT_SUPPORTED, NO_KERNEL:
        return None                         # the host-ends path (which names an argument error)
    if result.status != 0:
        raise CutlassLibError(result.status, f"grouped_mm of {tuple(mat_a.shape)} and {tuple(mat_b.shape)} "
                                             f"over {experts} experts (row ends on the device)")
    if bias is not None and not fused:
        # each row's expert, found on the device: the ends as the GEMM reads them (a running
        # maximum: an end below an earlier one gives its expert no rows), then the first end past
        # the row. Rows no expert owns are not written by the GEMM (undefined, as torch's): those
        # past the last end get a zero row, those of experts skipped for an end past total_tokens
        # some expert's row.
        ends = torch.cummax(offs_c, 0).values
        rows = torch.arange(mat_a.shape[0], device=mat_a.device, dtype=torch.int32)
        expert = torch.searchsorted(ends, rows, right=True)
        out.add_(torch.cat([bias, bias.new_zeros(1, n)]).index_select(0, expert))
    return out


def grouped_mm(mat_a, mat_b, offs=None, bias=None, out_dtype=None, *, stream=None):
    """Grouped GEMM for mixture-of-experts layers, shaped like ``torch._grouped_mm``: one matrix
    product per expert, all in one call of the library's grouped API
    (cutlassLibGemmGroupedBatchedEx, one group per expert; with a CUDA ``offs``,
    cutlassLibGemmGroupedContiguousEx: see below).

    Shapes (E experts):

    - ``mat_a`` 2-D ``(total_tokens, K)`` with every expert's tokens packed in expert order,
      ``mat_b`` 3-D ``(E, K, N)``, ``offs`` int32 1-D ``(E,)``: the cumulative end row of each
      expert's tokens (expert g takes rows ``offs[g-1]:offs[g]``, ``offs[-1]`` read as 0; an expert
      may have none). Returns ``(total_tokens, N)``: rows of expert g are ``mat_a[rows] @ mat_b[g]``;
      rows past ``offs[E-1]`` are zeros (with a CUDA ``offs`` on the device path below: unwritten).
    - ``mat_a`` 3-D ``(E, M, K)``, ``mat_b`` 3-D ``(E, K, N)``, ``offs`` None: returns ``(E, M, N)``,
      ``out[g] = mat_a[g] @ mat_b[g]`` (``cutlass_lib.gemm`` does this case as one strided-batched
      launch; here it goes through the grouped call, as the 2-D case).

    Layouts: row- or column-major in the last two dimensions, any leading dimension, without
    copies. The usual ``mat_b`` is ``w.transpose(-2, -1)`` of a contiguous ``(E, N, K)`` expert
    weight (column-major ``(K, N)`` per expert: the TN kernels the default build has). The output
    is row-major and computed per expert as ``out_g^T = mat_b[g]^T @ a_g^T`` in the column-major
    BLAS call.

    dtypes: mat_a and mat_b of one dtype (bfloat16 and float16 for MoE; any the library takes);
    ``out_dtype`` None gives mat_a's (int8: int32, float8: bfloat16), torch.float32 for 16-bit
    inputs where the build has those kernels. ``bias`` (optional): ``(E, N)`` of the output's dtype,
    expert g's row added to its rows: fused into the grouped GEMM's epilogue where the build has a
    kernel for it (the default build: bfloat16 / float16 with ``mat_b`` as ``w.transpose(-2, -1)``
    and a row-major output, each bias row contiguous), else one PyTorch add after the GEMMs.

    A CUDA ``offs`` with bfloat16 / float16 operands, ``mat_a`` row-major (each token's K values
    contiguous) and the output in mat_a's dtype stays on the device: one call of the C API's
    cutlassLibGemmGroupedContiguousEx (a prologue kernel turns offs into the experts' tiles, then
    one grouped GEMM launch), no host synchronization, so the call can be captured in a CUDA graph
    and replayed with new routing; as torch._grouped_mm, rows past ``offs[E-1]`` are then left
    unwritten (not zeroed), and an expert whose entry is smaller than an earlier one's, or past
    ``total_tokens``, is skipped rather than raising ValueError (offs is not read on the host).
    Every other ``offs`` (on the CPU, or where that call does not take the problem: another dtype
    or layout, a build without the grouped kernels, a device other than sm_90, N or K not a
    multiple of 8) is read on the host: a CUDA one then costs a device-to-host copy and a
    synchronization with the current stream. Runs on PyTorch's current stream (or ``stream``, a
    torch.cuda.Stream: the output is allocated and offs read on it); on sm_90 the experts run
    there in one launch of a grouped kernel (bf16 / f16: the default build has them, 128x128
    and, for weights K-major, 256x128 tiles for prefill and a 64x32 tile for a few tokens per
    expert), elsewhere one after another,
    each its own kernel launch.

    Raises TypeError for arguments that are not PyTorch tensors (or an offs that is not one) and
    for a dtype the library does not take; ValueError for mismatched shapes (K, the expert
    counts), mat_a and mat_b of different dtypes, offs not int32 / not 1-D / not one entry per
    expert, offs decreasing or past total_tokens (where it is read on the host), offs given with a
    3-D mat_a or missing with a 2-D one, a bias of the wrong shape or dtype, tensors not on one
    CUDA device, and strides no BLAS call can express; RuntimeError for a CUDA offs that would have
    to be read on the host while the stream is being captured into a CUDA graph; CutlassLibError for a status of the library (e.g. NO_KERNEL where the build has no
    kernel for the dtypes and layouts), raised before any expert's GEMM runs."""
    import torch
    for name, x in (("mat_a", mat_a), ("mat_b", mat_b), ("offs", offs), ("bias", bias)):
        if (x is not None or name.startswith("mat")) and not isinstance(x, torch.Tensor):
            raise TypeError(f"cutlass_lib.grouped_mm takes PyTorch tensors; {name} is {type(x).__name__}")
    if mat_b.ndim != 3:
        raise ValueError(f"cutlass_lib: grouped_mm takes a 3-D mat_b (experts, K, N), got shape {tuple(mat_b.shape)}")
    if mat_a.ndim not in (2, 3):
        raise ValueError(f"cutlass_lib: grouped_mm takes mat_a 2-D (total_tokens, K) with offs or 3-D "
                         f"(experts, M, K) without, got shape {tuple(mat_a.shape)}")
    if mat_a.dtype != mat_b.dtype:
        raise ValueError(f"cutlass_lib: mat_a is {mat_a.dtype} but mat_b is {mat_b.dtype}; they must have one dtype")
    _check_operand_dtype(mat_a)   # also where nothing is computed (K == 0, no rows), as the fake
    experts, k, n = mat_b.shape
    if mat_a.shape[-1] != k:
        raise ValueError(f"cutlass_lib: mat_a has K = {mat_a.shape[-1]} (shape {tuple(mat_a.shape)}) but mat_b has "
                         f"K = {k} (shape {tuple(mat_b.shape)})")
    if mat_a.ndim == 2 and offs is None:
        raise ValueError("cutlass_lib: a 2-D mat_a (total_tokens, K) needs offs, the cumulative row end of each "
                         "expert's tokens")
    if mat_a.ndim == 3:
        if offs is not None:
            raise ValueError("cutlass_lib: offs is for a 2-D mat_a; a 3-D mat_a (experts, M, K) has M rows per expert")
        if mat_a.shape[0] != experts:
            raise ValueError(f"cutlass_lib: mat_a has {mat_a.shape[0]} experts and mat_b {experts}")
    dtype = out_dtype if out_dtype is not None else _default_out_dtype(mat_a)
    if not isinstance(dtype, torch.dtype):
        raise TypeError(f"cutlass_lib: out_dtype must be a torch.dtype, got {type(out_dtype).__name__}")
    if bias is not None:
        if tuple(bias.shape) != (experts, n):
            raise ValueError(f"cutlass_lib: bias must be (experts, N) = {(experts, n)}, got {tuple(bias.shape)}")
        if bias.dtype != dtype:
            raise ValueError(f"cutlass_lib: bias is {bias.dtype}; it must have the output's dtype {dtype}")
    if offs is not None and offs.device.type != "cpu" and offs.device != mat_a.device:
        raise ValueError(f"cutlass_lib: offs is on {offs.device} and mat_a on {mat_a.device}; offs must be on mat_a's "
                         "device or on the CPU")
    for name, x in (("mat_b", mat_b), ("bias", bias)):
        if x is not None and x.device != mat_a.device:
            raise ValueError(f"cutlass_lib: {name} is on {x.device} and mat_a on {mat_a.device}; they must be on "
                             "one CUDA device")
    with _stream_context(mat_a, stream):
        routed = _grouped_mm_device_ends(mat_a, mat_b, offs, bias, dtype, stream)
        if routed is not None:
            return routed
        if offs is not None and offs.device.type == "cuda" and torch.cuda.is_current_stream_capturing():
            raise RuntimeError("cutlass_lib: grouped_mm would read offs on the host, which a CUDA graph capture "
                               "forbids; only bfloat16 / float16 operands with a row-major mat_a and the output in "
                               "mat_a's dtype keep a CUDA offs on the device (on a build with the grouped kernels, "
                               "sm_90, N and K multiples of 8)")
        ends = _group_ends(offs, experts, mat_a.shape[0]) if offs is not None else []
        device = _device_of(mat_a)
        shape = (mat_a.shape[0], n) if mat_a.ndim == 2 else (experts, mat_a.shape[1], n)
        out = torch.empty(shape, dtype=dtype, device=mat_a.device)
        if out.numel() == 0:
            return out
        # rows of out the experts write: all of a 3-D out, rows up to offs[E-1] of a 2-D one
        covered = out.shape[0] if mat_a.ndim == 3 else (ends[-1] if ends else 0)
        if k == 0:
            out.zero_()               # empty products: zeros, as torch.matmul's
        elif covered < out.shape[0]:
            out[covered:].zero_()     # rows no expert owns
        fused = False
        if k > 0 and covered > 0:
            handle = _handle(device)
            stream_handle = _stream_handle(mat_a, stream)
            result, fused = _run_grouped(
                lambda ws, ws_bytes, b: handle.grouped_mm(mat_a, mat_b, out, ends, stream_handle, ws, ws_bytes, b),
                out, device, stream_handle, _fusable_bias(bias, experts, n))
            if result.status != 0:
                raise CutlassLibError(result.status, f"grouped_mm of {tuple(mat_a.shape)} and {tuple(mat_b.shape)} "
                                                     f"over {experts} experts")
        if bias is not None and not fused:
            if mat_a.ndim == 3:
                out.add_(bias.unsqueeze(1))
            elif covered > 0:
                sizes = torch.tensor([end - begin for begin, end in zip([0] + ends[:-1], ends)], device=out.device)
                out[:covered].add_(bias.repeat_interleave(sizes, dim=0, output_size=covered))
    return out


def select(a, b, *, out=None, bias=None, activation: Optional[str] = None, out_dtype=None) -> str:
    """The kernel gemm(a, b, ...) would run (on the current stream), without running anything:
    where the build has no fused kernel for the bias / activation, the plain kernel that runs
    before PyTorch's add and activation. For 3-D operands: the kernel for one batch entry (the C
    API's select query takes no batch; a batched call may rank kernels differently)."""
    _check_ranks(a, b)
    handle = _handle(_device_of(a))
    if out is None:
        out = _new_out(a, b, out_dtype)
    stream = _stream_handle(a, None)
    if _is_torch(a) and _is_torch(b) and _is_torch(out) and (bias is None or _is_torch(bias)):
        return _Planned(handle, a, b, out, 1.0, 0.0, bias, activation).run(a, b, out, bias, stream, True).kernel
    result = handle.gemm(a, b, out, 1.0, 0.0, bias, _epilogue(activation, bias is not None), stream, 0, 0, True)
    if result.status != 0:
        raise CutlassLibError(result.status, f"select for {tuple(a.shape)} x {tuple(b.shape)}")
    return result.kernel


def _layout_of(t):
    """What a Plan fixes of a tensor: shape, strides, dtype, device."""
    return (tuple(t.shape), t.stride(), t.dtype, t.device)


class Gemm:
    """A GEMM described once and executed many times, with the least host work per call
    (nvmath-python's stateful Matmul): the checks, the row-/column-major mapping and the scalars
    are done at construction; ``plan()`` selects the kernel; ``execute()`` launches it on the
    current operands (``reset_operands`` swaps in others of the same shapes, strides, dtypes and
    device). PyTorch tensors only. Arguments as :func:`gemm`'s; ``c`` is copied into out before
    each execute.

        g = cutlass_lib.Gemm(x, w.t(), bias=b, activation="gelu")
        g.plan()                          # the kernel's name
        y = g.execute()                   # then: x.copy_(next_x); g.execute()
    """

    def __init__(self, a, b, *, out=None, c=None, alpha: float = 1.0, beta: float = 0.0, bias=None,
                 activation: Optional[str] = None, out_dtype=None):
        _check_ranks(a, b)
        if not all(_is_torch(t) for t in (a, b, out, c, bias) if t is not None):
            raise TypeError("cutlass_lib.Gemm takes PyTorch tensors (cutlass_lib.gemm takes any DLPack array)")
        if out is None and beta != 0 and c is None:
            raise ValueError("cutlass_lib: beta != 0 needs c or out (the values beta scales)")
        if c is not None and beta == 0:
            raise ValueError("cutlass_lib: c is given but beta is 0")
        if out is not None and out_dtype is not None and out.dtype != out_dtype:
            raise ValueError(f"cutlass_lib: out is {out.dtype} but out_dtype is {out_dtype}")
        self._handle = _handle(_device_of(a))
        self.a, self.b, self.c, self.bias = a, b, c, bias
        self.out = out if out is not None else _new_out(a, b, out_dtype)
        self.alpha, self.beta, self.activation = _scalar(alpha, "alpha"), _scalar(beta, "beta"), activation
        if c is not None and c is not self.out:
            _check_c(c, self.out)
        self._planned = _Planned(self._handle, a, b, self.out, self.alpha, self.beta, bias, activation)
        self._layouts = {name: _layout_of(t) for name, t in (("a", a), ("b", b), ("out", self.out), ("c", c),
                                                             ("bias", bias)) if t is not None}

    def reset_operands(self, a=None, b=None, *, out=None, c=None, bias=None):
        """Replaces operands by tensors of the same shapes, strides, dtypes and device (ValueError
        otherwise); those not given stay."""
        for name, t in (("a", a), ("b", b), ("out", out), ("c", c), ("bias", bias)):
            if t is None:
                continue
            if not _is_torch(t):
                raise TypeError(f"cutlass_lib.Gemm: the new {name} is not a PyTorch tensor")
            if name not in self._layouts or _layout_of(t) != self._layouts[name]:
                raise ValueError(f"cutlass_lib.Gemm: the new {name} differs from the planned one in shape, strides, "
                                 "dtype or device (or the plan has none); make a new Gemm")
            setattr(self, name, t)

    def plan(self) -> str:
        """Selects the kernel for the current operands and returns its name (nothing runs)."""
        return self._planned.run(self.a, self.b, self.out, self.bias, _stream_handle(self.out, None), True).kernel

    def execute(self, *, stream=None):
        """Runs the GEMM on the current operands (on `stream`, a torch.cuda.Stream, or the current
        one) and returns out."""
        with _stream_context(self.out, stream):
            if self.c is not None and self.c is not self.out:
                self.out.copy_(self.c)   # checked at construction; reset_operands keeps its shape
            self._planned.run(self.a, self.b, self.out, self.bias, _stream_handle(self.out, stream))
        return self.out


def kernels() -> List[str]:
    """The kernels of the loaded libcutlass_lib (CUTLASS procedural names)."""
    return _C.kernels()


def version() -> str:
    """The loaded libcutlass_lib's version, "major.minor.patch"."""
    v = _C.version()
    return f"{v // 10000}.{v // 100 % 100}.{v % 100}"
