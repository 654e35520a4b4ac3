"""ctest pytorch2_sweep_quick: `fathom-torch sweep all --quick` with the fathom binary given.

    sweep_quick.py FATHOM_BINARY

Every suite's quick subset (fathom_torch/sweep/suites.py QUICK) through every stage, the dynamic
capture and its batch range included; exit 0 only when every model passes every stage.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    from fathom_torch.cli import main as fathom_torch
    return fathom_torch(["sweep", "all", "--quick", "--fathom", argv[1]])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
