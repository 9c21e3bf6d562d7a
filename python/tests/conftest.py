"""Shared fixtures: the GPU tests need PyTorch with a CUDA device and skip with the reason otherwise."""
import pytest


def _torch_cuda():
    try:
        import torch
    except ImportError:
        return None, "PyTorch is not installed"
    if not torch.cuda.is_available():
        return None, "no CUDA device"
    return torch, ""


@pytest.fixture
def torch_cuda():
    torch, reason = _torch_cuda()
    if torch is None:
        pytest.skip(reason)
    return torch
