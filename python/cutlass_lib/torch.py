"""PyTorch integration: the library's calls as ``torch.library`` custom operators, so
``torch.compile(fullgraph=True)`` traces them (their fake implementations give the output's shape
and dtype without running anything) and CUDA graphs capture them, and a helper that swaps a
model's ``nn.Linear`` layers for the library's linear.

    import cutlass_lib.torch
    y = torch.ops.cutlass_lib.linear(x, weight, bias, "gelu")   # F.gelu(F.linear(x, weight, bias))
    model = cutlass_lib.torch.swap_linear(model)                # every nn.Linear -> cutlass_lib.torch.Linear

Importing this module registers the operators ``cutlass_lib::linear(Tensor x, Tensor weight,
Tensor? bias, str activation) -> Tensor``, ``cutlass_lib::gemm(Tensor a, Tensor b, Tensor? bias,
str activation, float alpha, ScalarType? out_dtype) -> Tensor`` (activation "" for none; see
cutlass_lib.gemm for shapes, dtypes and activations) and ``cutlass_lib::grouped_mm(Tensor mat_a,
Tensor mat_b, Tensor? offs, Tensor? bias, ScalarType? out_dtype) -> Tensor`` (torch._grouped_mm's
shapes: cutlass_lib.grouped_mm; a CUDA offs with bf16 / f16 operands stays on the device and
the call can be captured, other offs are read on the host). They are functional (they allocate their
output) and have no autograd formula: they are for inference, under ``torch.no_grad()`` or
``torch.inference_mode()`` (outside those their outputs carry no gradient). They are defined
through ``torch.library.Library`` rather than ``torch.library.custom_op``, whose Python wrapper
cost about 3x the dispatch time (measured: 16.7 us against 6.3 us per call of an empty operator,
docs/NOTES.md).
"""
from typing import Callable, Optional

import torch

import cutlass_lib as _lib

__all__ = ["linear", "gemm", "grouped_mm", "Linear", "swap_linear"]


_library = torch.library.Library("cutlass_lib", "DEF")
_library.define("linear(Tensor x, Tensor weight, Tensor? bias=None, str activation='') -> Tensor")
_library.define("gemm(Tensor a, Tensor b, Tensor? bias=None, str activation='', float alpha=1.0, "
                "ScalarType? out_dtype=None) -> Tensor")
_library.define("grouped_mm(Tensor mat_a, Tensor mat_b, Tensor? offs=None, Tensor? bias=None, "
                "ScalarType? out_dtype=None) -> Tensor")


def linear(x: torch.Tensor, weight: torch.Tensor, bias: Optional[torch.Tensor] = None,
           activation: str = "") -> torch.Tensor:
    """F.linear (then the activation, fused) through cutlass_lib.linear."""
    return _lib.linear(x, weight, bias, activation or None)


def gemm(a: torch.Tensor, b: torch.Tensor, bias: Optional[torch.Tensor] = None, activation: str = "",
         alpha: float = 1.0, out_dtype: Optional[torch.dtype] = None) -> torch.Tensor:
    """activation(alpha * (a @ b) + bias) through cutlass_lib.gemm (torch.matmul's 2-D / 3-D shapes;
    out_dtype e.g. torch.float32 for 16-bit inputs, torch.int32 for int8)."""
    return _lib.gemm(a, b, bias=bias, activation=activation or None, alpha=alpha, out_dtype=out_dtype)


def grouped_mm(mat_a: torch.Tensor, mat_b: torch.Tensor, offs: Optional[torch.Tensor] = None,
               bias: Optional[torch.Tensor] = None, out_dtype: Optional[torch.dtype] = None) -> torch.Tensor:
    """torch._grouped_mm's MoE product through cutlass_lib.grouped_mm (2-D packed tokens with int32
    offs, or 3-D batched)."""
    return _lib.grouped_mm(mat_a, mat_b, offs, bias, out_dtype)


# Registered on the backend keys, not CompositeExplicitAutograd: a call then dispatches straight to
# the kernel (an empty operator: ~4.5 us against ~8 us per call on a CPU host, docs/NOTES.md s10).
# CPU tensors reach the Python call too, which names what is wrong (a CPU tensor, a dtype).
for _key in ("CUDA", "CPU"):
    _library.impl("linear", linear, _key)
    _library.impl("gemm", gemm, _key)
    _library.impl("grouped_mm", grouped_mm, _key)


def _check_activation(activation):
    torch._check(activation in _ACTIVATIONS, lambda: f"cutlass_lib: activation {activation!r} is not one of "
                                                     f"{sorted(a for a in _ACTIVATIONS if a)}")


_ACTIVATIONS = ("", "relu", "gelu", "gelu_erf", "silu", "sigmoid")


def _check_operands(a, b, out_dtype, bias, bias_shape):
    """The dtype and bias checks the real call makes (a and b of one dtype the library takes, a
    bias of bias_shape in the output's dtype), so a traced graph fails where eager mode would."""
    torch._check(a.dtype == b.dtype, lambda: f"cutlass_lib: the operands are {a.dtype} and {b.dtype}")
    torch._check(a.dtype in _lib._taken_dtypes(), lambda: f"cutlass_lib: the library takes no operands of dtype {a.dtype}")
    if bias is not None:
        torch._check(tuple(bias.shape) == tuple(bias_shape),
                     lambda: f"cutlass_lib: bias is {tuple(bias.shape)}, the output takes {tuple(bias_shape)}")
        torch._check(bias.dtype == out_dtype, lambda: f"cutlass_lib: bias is {bias.dtype}, the output {out_dtype}")


@torch.library.register_fake("cutlass_lib::linear", lib=_library)
def _linear_fake(x, weight, bias=None, activation=""):
    torch._check(x.dim() >= 1 and weight.dim() == 2, lambda: "cutlass_lib: linear takes x (*, in) and weight (out, in)")
    torch._check(x.shape[-1] == weight.shape[1],
                 lambda: f"cutlass_lib: x has {x.shape[-1]} features, weight takes {weight.shape[1]}")
    out_dtype = _lib._default_out_dtype(x)
    _check_operands(x, weight, out_dtype, bias, (weight.shape[0],))
    _check_activation(activation)
    return x.new_empty((*x.shape[:-1], weight.shape[0]), dtype=out_dtype)


@torch.library.register_fake("cutlass_lib::gemm", lib=_library)
def _gemm_fake(a, b, bias=None, activation="", alpha=1.0, out_dtype=None):
    torch._check(a.dim() in (2, 3) and b.dim() in (2, 3), lambda: "cutlass_lib: a and b must be 2-D or 3-D")
    torch._check(a.shape[-1] == b.shape[-2],
                 lambda: f"cutlass_lib: a is {tuple(a.shape)} and b is {tuple(b.shape)}: the inner dimensions differ")
    if a.dim() == 3 and b.dim() == 3:
        torch._check(a.shape[0] == b.shape[0] or a.shape[0] == 1 or b.shape[0] == 1,
                     lambda: "cutlass_lib: the batch sizes of a and b differ")
    out_dtype = out_dtype or _lib._default_out_dtype(a)
    _check_operands(a, b, out_dtype, bias, (b.shape[-1],))
    _check_activation(activation)
    return a.new_empty(_lib._out_shape(a, b), dtype=out_dtype)


@torch.library.register_fake("cutlass_lib::grouped_mm", lib=_library)
def _grouped_mm_fake(mat_a, mat_b, offs=None, bias=None, out_dtype=None):
    torch._check(mat_b.dim() == 3, lambda: "cutlass_lib: grouped_mm takes a 3-D mat_b (experts, K, N)")
    torch._check(mat_a.dim() in (2, 3), lambda: "cutlass_lib: grouped_mm takes a 2-D or 3-D mat_a")
    torch._check(mat_a.shape[-1] == mat_b.shape[1],
                 lambda: f"cutlass_lib: mat_a has K = {mat_a.shape[-1]}, mat_b {mat_b.shape[1]}")
    torch._check((offs is not None) == (mat_a.dim() == 2),
                 lambda: "cutlass_lib: offs goes with a 2-D mat_a (packed tokens), not with a 3-D one")
    if offs is not None:
        torch._check(offs.dim() == 1 and offs.shape[0] == mat_b.shape[0],
                     lambda: "cutlass_lib: offs has one entry per expert")
        torch._check(offs.dtype == torch.int32, lambda: f"cutlass_lib: offs must be int32, got {offs.dtype}")
        shape = (mat_a.shape[0], mat_b.shape[2])
    else:
        torch._check(mat_a.shape[0] == mat_b.shape[0], lambda: "cutlass_lib: mat_a and mat_b have other expert counts")
        shape = (mat_a.shape[0], mat_a.shape[1], mat_b.shape[2])
    out_dtype = out_dtype or _lib._default_out_dtype(mat_a)
    _check_operands(mat_a, mat_b, out_dtype, bias, (mat_b.shape[0], mat_b.shape[2]))
    return mat_a.new_empty(shape, dtype=out_dtype)


def _calls_directly(x: torch.Tensor) -> bool:
    """Whether Linear.forward may call the operator's implementation without the dispatcher: a
    plain CUDA tensor in eager mode, with no torch function / dispatch mode active (those, FakeTensors
    and torch.compile's tracing see the registered operator). The dispatcher's Python boxing costs
    ~5 us per call (docs/NOTES.md s12, 1 / 16 tokens: torch.ops.cutlass_lib.linear +7.6 / +6.9 us
    over F.linear, cutlass_lib.linear -0.8 / +1.2)."""
    return (type(x) is torch.Tensor and x.is_cuda and not torch.compiler.is_compiling()
            and not torch._C._is_torch_function_mode_enabled() and torch._C._len_torch_dispatch_stack() == 0)


class Linear(torch.nn.Module):
    """An nn.Linear whose forward runs torch.ops.cutlass_lib.linear (with an optional fused
    activation); it shares the weight and bias Parameters of the layer it was made from. In eager
    mode on plain CUDA tensors it calls the operator's implementation directly (the same function
    on the same stream, so CUDA graphs capture it alike, without the dispatcher's ~5 us);
    torch.compile, FakeTensors and torch function / dispatch modes see the operator."""

    def __init__(self, weight: torch.nn.Parameter, bias: Optional[torch.nn.Parameter] = None, activation: str = ""):
        super().__init__()
        if not isinstance(weight, torch.Tensor):
            raise TypeError(f"cutlass_lib.torch.Linear takes a tensor weight, got {type(weight).__name__}")
        if weight.ndim != 2:
            raise ValueError("cutlass_lib.torch.Linear takes a 2-D weight (out_features, in_features)")
        _lib._epilogue(activation or None, bias is not None)   # ValueError for an unknown activation
        self.weight = weight
        self.bias = bias
        self.activation = activation
        self.in_features = weight.shape[1]
        self.out_features = weight.shape[0]

    @classmethod
    def from_linear(cls, layer: torch.nn.Linear, activation: str = "") -> "Linear":
        return cls(layer.weight, layer.bias, activation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if _calls_directly(x):
            return linear(x, self.weight, self.bias, self.activation)
        return torch.ops.cutlass_lib.linear(x, self.weight, self.bias, self.activation)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"
                + (f", activation={self.activation}" if self.activation else ""))


def swap_linear(model: torch.nn.Module,
                include: Optional[Callable[[str, torch.nn.Linear], bool]] = None) -> torch.nn.Module:
    """Replaces, in place, every plain ``nn.Linear`` of ``model`` by a :class:`Linear` sharing its
    parameters, and returns the model (a bare nn.Linear comes back swapped). Subclasses of
    nn.Linear (their own forward: LoRA layers, MultiheadAttention's out_proj) are left alone.
    ``include(name, layer)``, when given, picks the layers (``name``: the qualified name of that
    registration, as in ``model.named_modules()``; a submodule shared by several parents is
    walked once, under its first name). A layer registered under several names becomes one
    Linear under all of them. A module graph with cycles (a module registered inside itself) is
    walked once per module."""
    if not isinstance(model, torch.nn.Module):
        raise TypeError(f"cutlass_lib.torch.swap_linear takes an nn.Module, got {type(model).__name__}")
    if type(model) is torch.nn.Linear:
        return Linear.from_linear(model) if include is None or include("", model) else model
    swapped = {}   # id(nn.Linear) -> its Linear
    walked = set()   # id(module) of the modules whose children were walked

    def walk(module: torch.nn.Module, prefix: str):
        walked.add(id(module))
        # every registration (named_children() yields a module registered twice once)
        for attr, child in list(module._modules.items()):
            name = prefix + attr
            if child is None:
                continue
            if type(child) is torch.nn.Linear:
                if include is None or include(name, child):
                    if id(child) not in swapped:
                        swapped[id(child)] = Linear.from_linear(child)
                    setattr(module, attr, swapped[id(child)])
            elif id(child) not in walked:
                walk(child, name + ".")

    walk(model, "")
    return model
