"""Runs the exporter's tests for ctest: exit 77 (ctest's skip code here) when torch is absent.

    run.py unit                      the exporter's own tests (no Fathom binary needed)
    run.py round-trip FATHOM_BINARY  export -> load -> run -> check against the fathom CLI
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


def main(argv):
    if len(argv) < 2 or argv[1] not in ("unit", "round-trip"):
        print(__doc__, file=sys.stderr)
        return 2
    try:
        import torch  # noqa: F401
    except ImportError:
        print("skipped: python3-torch is not installed (./fathom test installs it)")
        return 77
    if argv[1] == "round-trip":
        if len(argv) != 3:
            print(__doc__, file=sys.stderr)
            return 2
        os.environ["FATHOM_BIN"] = os.path.abspath(argv[2])
        patterns = ["test_round_trip.py", "test_fathom_bin.py", "test_model_ops.py"]
    else:
        os.environ.pop("FATHOM_BIN", None)  # those tests belong to the round-trip run
        patterns = ["test_[!r]*.py"]
    sys.path.insert(0, os.path.dirname(HERE))  # the package, fathom_torch
    sys.path.insert(0, HERE)                   # models.py and helpers
    suite = unittest.TestSuite()
    for pattern in patterns:
        suite.addTests(unittest.defaultTestLoader.discover(HERE, pattern=pattern, top_level_dir=HERE))
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    if not result.wasSuccessful():
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
