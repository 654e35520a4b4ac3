"""Writes tests/data/torch2-dynamic.fathom.json (+ .bin) on a machine with torch 2.x: a
torch.compile(dynamic=True) dump, whose graphs take sizes as inputs (SymInt placeholders, with
{"name", "int"} example inputs) and whose backward takes saved SymInts before the saved tensors.

    torch2_dynamic.py OUT.fathom.json

The model is small on purpose (a Linear, a LayerNorm, a reshape by the input's sizes, a Linear),
so the dump can live in the repository; cli_test.sh runs, checks and steps it, also at other sizes.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    import torch
    from torch import nn

    import fathom_torch

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.lin1, self.norm, self.lin2 = nn.Linear(6, 8), nn.LayerNorm(8), nn.Linear(8, 3)

        def forward(self, x):
            h = torch.relu(self.norm(self.lin1(x)))
            return self.lin2(h.reshape(x.shape[0] * x.shape[1], 8)).tanh()

    torch.manual_seed(0)
    torch._dynamo.reset()
    model = torch.compile(Model(), backend=fathom_torch.backend(argv[1]), dynamic=True)
    model(torch.randn(4, 5, 6)).sum().backward()
    import json
    with open(argv[1]) as f:
        doc = json.load(f)
    print(list(doc["graphs"]), "partition" in doc, doc["inputs"][list(doc["graphs"])[0]][:2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
