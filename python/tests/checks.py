"""What the GPU tests share: tolerances per dtype, the relative error against a reference, and a
call that skips (with the status) where the built library has no kernel for it."""
import pytest

import cutlass_lib

TOLERANCE = {"float16": 2e-2, "bfloat16": 3e-2, "float32": 1e-4, "float64": 1e-10}


def relative_error(x, reference):
    return ((x.double() - reference.double()).norm() / reference.double().norm().clamp_min(1e-30)).item()


def call_or_skip(function, *args, **kwargs):
    try:
        return function(*args, **kwargs)
    except cutlass_lib.CutlassLibError as e:
        if e.status in ("CUTLASS_LIB_STATUS_NO_KERNEL", "CUTLASS_LIB_STATUS_NOT_SUPPORTED"):
            pytest.skip(f"this build has no kernel for the call: {e}")
        raise
