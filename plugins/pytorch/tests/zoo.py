"""torchvision's classification models through Fathom under the torch at hand: `fathom-torch sweep
vision` (fathom_torch/sweep/), kept as the script ctest pytorch_zoo_quick runs under Debian's
python3 (torch 1.13, where there is no torch.compile: the static stages only).

    zoo.py FATHOM_BINARY [--models a,b,...] [--quick] [--keep DIR] [--json]
    zoo.py FATHOM_BINARY --dumps DIR [--json]     the static stages on dumps exported elsewhere

Exit 0 when every stage of every model passed, 1 when one did not, 2 on bad usage, 77 without
torch or torchvision (ctest's skip code here).
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from fathom_torch.sweep import stages  # noqa: E402
from fathom_torch.sweep.vision import CLASSIFICATION as MODELS  # noqa: E402,F401  (torch2_export.py reads it)


def build(name, **overrides):
    """The model (random weights, train mode without random draws, flat outputs) and its input."""
    from fathom_torch.sweep import vision
    from fathom_torch.sweep.wrap import no_random_draws
    spec = next(s for s in vision.classification() if s.name == name)
    model = spec.build()
    if overrides:
        import torch
        import torchvision
        torch.manual_seed(0)
        model = torchvision.models.get_model(name, weights=None, **dict(MODELS[name][1], **overrides))
    return no_random_draws(model), spec.example()[0]


def dumps_rows(binary, folder):
    rows = []
    for name in sorted(f for f in os.listdir(folder) if f.endswith(".fathom.json")):
        from fathom_torch.sweep.run import finish
        got, _ = stages.static_stages(binary, os.path.join(folder, name))
        rows.append(finish({"model": name[:-len(".fathom.json")], "input": "-", "stages": got, "seconds": 0}))
    return rows


def main(argv):
    args = argv[1:]
    if not args or args[0].startswith("-"):
        print(__doc__, file=sys.stderr)
        return 2
    binary, rest = args[0], args[1:]
    if "--dumps" in rest:
        from fathom_torch.sweep.run import table
        i = rest.index("--dumps")
        rows = dumps_rows(binary, rest[i + 1])
        if "--json" in rest:
            print(json.dumps({"models": rows}, indent=1))
        else:
            table(rows)
        return 0 if rows and all(r["passed"] for r in rows) else 1
    try:
        import torch  # noqa: F401
        import torchvision  # noqa: F401
    except ImportError as e:
        print(f"skipped: the zoo needs torch and torchvision ({e})")
        return 77
    from fathom_torch.cli import main as fathom_torch
    return fathom_torch(["sweep", "vision", "--fathom", binary, *rest])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
