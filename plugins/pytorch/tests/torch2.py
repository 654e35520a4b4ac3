"""Runs a script under the pinned PyTorch 2.x environment, for ctest:

    torch2.py SCRIPT.py ARGS...

exec's the environment's python (plugins/pytorch/torch2_env.py says where it is) on SCRIPT.py, or
prints one "skipped: ..." line and exits 77 (ctest's skip code here) when the environment is
absent or not at today's pins. Plain Python: no torch needed to decide.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import torch2_env  # noqa: E402


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    reason = torch2_env.missing_reason()
    if reason is not None:
        print(f"skipped: {reason}")
        return 77
    python = torch2_env.python_path()
    os.execv(python, [python, *argv[1:]])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
