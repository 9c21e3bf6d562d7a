"""manifest.json: every emitted kernel and its description, in registration order.

Each field is what the C++ GemmUniversalOperation derives from the kernel type, so the host
tests can compare this file with the runtime manifest field by field.
"""
import json
from typing import Dict, Mapping, Sequence

from .architectures import Arch, max_device_cc
from .config import KernelConfig, Operand

GENERATOR_VERSION = 1

def operand_entry(operand: Operand) -> Dict[str, object]:
    """{element, layout, alignment} of one operand."""
    return {
        "element": operand.element.manifest_name,
        "layout": operand.layout.manifest_name,
        "alignment": operand.alignment,
    }


def kernel_entry(cfg: KernelConfig, source_file: str, archs: Sequence[Arch]) -> Dict[str, object]:
    """The manifest record of one kernel; ``source_file`` is its .cu name inside generated/;
    max_cc is the highest device its SASS for ``archs`` runs on (max_device_cc)."""
    return {
        "name": cfg.name,
        "family": cfg.family.name,
        "operation": "gemm",
        "opcode_class": cfg.family.opcode_class,
        "math_operation": cfg.math_operation,
        "A": operand_entry(cfg.a),
        "B": operand_entry(cfg.b),
        "C": operand_entry(cfg.c),
        "D": operand_entry(cfg.d),
        "element_accumulator": cfg.accumulator.manifest_name,
        "element_epilogue": cfg.compute.manifest_name,
        "threadblock_shape": cfg.tile.threadblock.as_list(),
        "warp_count": cfg.warp_count.as_list(),
        "instruction_shape": cfg.instruction.as_list(),
        "stages": cfg.tile.stages,
        "cluster_shape": cfg.tile.cluster.as_list(),
        "tile_scheduler": cfg.tile_scheduler,
        "min_cc": cfg.family.min_cc,
        "max_cc": max_device_cc(cfg.family, archs),
        "epilogue": epilogue_entry(cfg),
        "source_file": source_file,
    }


def epilogue_entry(cfg: KernelConfig) -> Dict[str, object]:
    """The fused pieces (epilogues.py); the plain epilogue is identity with no pieces."""
    e = cfg.epilogue
    return {
        "activation": e.activation,
        "bias": cfg.element_bias.manifest_name if cfg.element_bias else "",
        "alpha_vector": e.alpha_vector,
        "aux": cfg.element_aux.manifest_name if cfg.element_aux else "",
        "scale_amax": e.scale_amax,
    }


def manifest_text(kernels: Sequence[KernelConfig], archs: Sequence[Arch],
                  source_files: Mapping[str, str]) -> str:
    """The manifest.json document; ``source_files`` maps kernel name to its .cu file name."""
    document = {
        "generator_version": GENERATOR_VERSION,
        "architectures": [arch.text for arch in archs],
        "kernels": [kernel_entry(cfg, source_files[cfg.name], archs) for cfg in kernels],
    }
    return json.dumps(document, indent=2) + "\n"
