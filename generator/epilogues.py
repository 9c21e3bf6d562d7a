"""Fused epilogues as data: each variant names the compile-time pieces of the output operator
(cutlass/epilogue/thread/linear_combination.h) and the suffix it adds to a kernel's name.

    x = alpha [* alpha_vector] * AB + beta * C [+ bias];  [aux = x];  D = act(x) [* scale_d];  [amax]

Name suffix: 2.x names gain ``_epi_<variant>`` (cutlass_tensorop_s16816gemm_bf16_128x256_32x3_tn_align8_epi_bias_gelu);
3.x names, which already end in ``_epi_tma``, gain ``_<variant>`` (..._warpspecialized_pingpong_epi_tma_bias_gelu).
Either way ``*bias_gelu`` selects the bias+GELU kernels; ``cutlass_*_epi_`` selects every fused 2.x kernel and
``_epi_tma_`` every fused 3.x kernel (plain 3.x names end in ``_epi_tma``).
The plain epilogue adds nothing, so existing names and filters are unchanged.
"""
from dataclasses import dataclass, replace
from typing import Optional, Tuple

from .datatypes import DataType

#: Activation name -> cutlass::epilogue::ActivationKind enumerator (and manifest.json's name).
ACTIVATIONS = {
    "identity": "kIdentity",
    "relu": "kReLU",
    "gelu": "kGELU",
    "gelu_erf": "kGELUErf",
    "silu": "kSiLU",
    "sigmoid": "kSigmoid",
    "clamp": "kClamp",
}


@dataclass(frozen=True)
class Epilogue:
    """The fused pieces of one epilogue variant (the default value is the plain epilogue).

    ``bias`` and ``aux`` are flags here; their element types are the kernel's output type for
    16-bit outputs and f32 otherwise (see ``EpilogueRow``), as cuBLASLt pairs them.
    """

    activation: str = "identity"
    bias: bool = False
    alpha_vector: bool = False
    aux: bool = False
    scale_amax: bool = False

    @property
    def fused(self) -> bool:
        return self != Epilogue()

    @property
    def suffix(self) -> str:
        """The variant's name: pieces joined by "_" in a fixed order, e.g. "alphavec_bias_gelu_aux_amax"."""
        parts = []
        if self.alpha_vector:
            parts.append("alphavec")
        if self.bias:
            parts.append("bias")
        if self.activation != "identity":
            parts.append(self.activation)
        if self.aux:
            parts.append("aux")
        if self.scale_amax:
            parts.append("amax")
        return "_".join(parts)


PLAIN = Epilogue()

#: The variants every float family offers (full set); bias+ReLU and bias+GELU are also in the
#: default set of the main 16-bit kernels (EpilogueRow.in_default_set).
STANDARD = (
    Epilogue(bias=True),
    Epilogue(activation="relu"),
    Epilogue(activation="relu", bias=True),
    Epilogue(activation="gelu"),
    Epilogue(activation="gelu", bias=True),
    Epilogue(activation="gelu", aux=True),
    Epilogue(activation="gelu", bias=True, aux=True),
    Epilogue(activation="gelu_erf"),
    Epilogue(activation="gelu_erf", bias=True),
    Epilogue(activation="silu"),
    Epilogue(activation="silu", bias=True),
    Epilogue(activation="sigmoid"),
    Epilogue(activation="sigmoid", bias=True),
    Epilogue(activation="clamp"),
    Epilogue(activation="clamp", bias=True),
    Epilogue(alpha_vector=True),
    Epilogue(activation="relu", bias=True, alpha_vector=True),
)

#: fp8 outputs always carry the D scale and amax.
FP8 = (
    Epilogue(scale_amax=True),
    Epilogue(bias=True, scale_amax=True),
    Epilogue(activation="relu", bias=True, scale_amax=True),
    Epilogue(activation="gelu", bias=True, scale_amax=True),
)

#: In the default set of the main 16-bit kernels.
DEFAULT_SET = (Epilogue(activation="relu", bias=True), Epilogue(activation="gelu", bias=True))

#: In the default set of the fp8-output kernels: the D scale and amax alone, and with the default
#: set's two fused activations.
FP8_DEFAULT_SET = (Epilogue(scale_amax=True),) + tuple(replace(e, scale_amax=True) for e in DEFAULT_SET)


@dataclass(frozen=True)
class EpilogueRow:
    """Which epilogues a MathRow instantiates, beside (or, with ``plain=False``, instead of) the
    plain one. Fused variants are built only for the row's default-set tiles at their largest
    alignment (the tiles selection uses most); ``in_default_set`` lists the variants that also
    join the default set there. ``bias_type`` / ``aux_type`` are the element types of the
    vector and the aux matrix (None: the output type)."""

    variants: Tuple[Epilogue, ...] = ()
    in_default_set: Tuple[Epilogue, ...] = ()
    plain: bool = True
    bias_type: Optional[DataType] = None
    aux_type: Optional[DataType] = None


NONE = EpilogueRow()
