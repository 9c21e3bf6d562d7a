"""PyTorch integration: the library's calls as ``torch.library`` custom operators, so
``torch.compile(fullgraph=True)`` traces them (their fake implementations give the output's shape
and dtype without running anything) and CUDA graphs capture them, and a helper that swaps a
model's ``nn.Linear`` layers for the library's linear.

    import cutlass_lib.torch
    y = torch.ops.cutlass_lib.linear(x, weight, bias, "gelu")   # F.gelu(F.linear(x, weight, bias))
    model = cutlass_lib.torch.swap_linear(model)                # every nn.Linear -> cutlass_lib.torch.Linear

Importing this module registers the operators ``cutlass_lib::linear(Tensor x, Tensor weight,
Tensor? bias, str activation) -> Tensor`` and ``cutlass_lib::gemm(Tensor a, Tensor b, Tensor? bias,
str activation, float alpha, ScalarType? out_dtype) -> Tensor`` (activation "" for none; see
cutlass_lib.gemm for shapes, dtypes and activations). They are functional (they allocate their
output) and have no autograd formula: use them for inference.
"""
from typing import Callable, Optional

import torch

import cutlass_lib as _lib

__all__ = ["linear", "gemm", "Linear", "swap_linear"]


@torch.library.custom_op("cutlass_lib::linear", mutates_args=())
def linear(x: torch.Tensor, weight: torch.Tensor, bias: Optional[torch.Tensor] = None,
           activation: str = "") -> torch.Tensor:
    """F.linear (then the activation, fused) through cutlass_lib.linear."""
    return _lib.linear(x, weight, bias, activation or None)


@linear.register_fake
def _linear_fake(x, weight, bias=None, activation=""):
    return x.new_empty((*x.shape[:-1], weight.shape[0]))


@torch.library.custom_op("cutlass_lib::gemm", mutates_args=())
def gemm(a: torch.Tensor, b: torch.Tensor, bias: Optional[torch.Tensor] = None, activation: str = "",
         alpha: float = 1.0, out_dtype: Optional[torch.dtype] = None) -> torch.Tensor:
    """activation(alpha * (a @ b) + bias) through cutlass_lib.gemm (torch.matmul's 2-D / 3-D shapes;
    out_dtype e.g. torch.float32 for 16-bit inputs, torch.int32 for int8)."""
    return _lib.gemm(a, b, bias=bias, activation=activation or None, alpha=alpha, out_dtype=out_dtype)


@gemm.register_fake
def _gemm_fake(a, b, bias=None, activation="", alpha=1.0, out_dtype=None):
    batch = a.shape[:-2] if a.dim() >= b.dim() else b.shape[:-2]
    return a.new_empty((*batch, a.shape[-2], b.shape[-1]), dtype=out_dtype or a.dtype)


class Linear(torch.nn.Module):
    """An nn.Linear whose forward runs torch.ops.cutlass_lib.linear (with an optional fused
    activation); it shares the weight and bias Parameters of the layer it was made from."""

    def __init__(self, weight: torch.nn.Parameter, bias: Optional[torch.nn.Parameter] = None, activation: str = ""):
        super().__init__()
        self.weight = weight
        self.bias = bias
        self.activation = activation
        self.in_features = weight.shape[1]
        self.out_features = weight.shape[0]

    @classmethod
    def from_linear(cls, layer: torch.nn.Linear, activation: str = "") -> "Linear":
        return cls(layer.weight, layer.bias, activation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.ops.cutlass_lib.linear(x, self.weight, self.bias, self.activation)

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"
                + (f", activation={self.activation}" if self.activation else ""))


def swap_linear(model: torch.nn.Module,
                include: Optional[Callable[[str, torch.nn.Linear], bool]] = None) -> torch.nn.Module:
    """Replaces, in place, every ``nn.Linear`` of ``model`` (for which ``include(name, layer)`` is
    true, when given; ``name`` is the layer's qualified name, as in ``model.named_modules()``) by a
    :class:`Linear` sharing its parameters; returns the model (a bare nn.Linear is returned swapped)."""
    if isinstance(model, torch.nn.Linear):
        return Linear.from_linear(model) if include is None or include("", model) else model
    for name, layer in list(model.named_modules()):
        if not isinstance(layer, torch.nn.Linear) or (include is not None and not include(name, layer)):
            continue
        parent_name, _, attr = name.rpartition(".")
        setattr(model.get_submodule(parent_name), attr, Linear.from_linear(layer))
    return model
