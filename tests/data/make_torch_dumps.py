"""Regenerates the PyTorch-made dumps in tests/data (needs python3-torch):
    /usr/bin/python3 tests/data/make_torch_dumps.py
torch-mlp-aot.fathom.json (+ .bin): AOT autograd of a small MLP with PyTorch's real inputs/outputs.
torch-fake-meta-lies.fathom.json: fake-mode make_fx of two ops whose 1.13 fake strides are wrong.
"""
import os
import sys
import warnings

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "plugins", "pytorch"))
import fathom_torch  # noqa: E402

HERE = os.path.join("tests", "data")
PRODUCER = {"command": "tests/data/make_torch_dumps.py"}


def lies(x, c, y, z):
    return torch.nn.functional.layer_norm(x.t(), [4]), torch.where(c.t() > 0, y, z)


def main():
    os.chdir(ROOT)
    warnings.simplefilter("ignore")
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.LayerNorm(16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
    fathom_torch.capture_aot(model, (torch.randn(4, 8),), os.path.join(HERE, "torch-mlp-aot.fathom.json"), producer=PRODUCER)
    torch.manual_seed(1)
    args = (torch.randn(4, 6), torch.randn(3, 4), torch.randn(4, 3), torch.randn(4, 1))
    fathom_torch.capture_make_fx(lies, args, os.path.join(HERE, "torch-fake-meta-lies.fathom.json"), "fake", producer=PRODUCER)


if __name__ == "__main__":
    main()
