#!/usr/bin/python3
"""Records PyTorch's results for every oracle case into tests/oracle/fixtures/FAMILY.jsonl.

Run with Debian's system python3 (the one python3-torch installs into):
  /usr/bin/python3 tests/oracle/generate.py              # rewrite every fixture
  /usr/bin/python3 tests/oracle/generate.py elementwise  # just these families
  /usr/bin/python3 tests/oracle/generate.py --check      # exit 1 if a fixture is stale
                                                         # (within CPU-dependent rounding: fixture_compare.py)
Exit 77 when torch cannot be imported (ctest counts that as skipped).
"""
import argparse
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("families", nargs="*", help="case files to run (default: all in cases/)")
    parser.add_argument("--check", action="store_true", help="compare with the committed fixtures, write nothing")
    parser.add_argument("--out", default=os.path.join(HERE, "fixtures"), help="fixture directory")
    opts = parser.parse_args()
    try:
        import torch
    except ImportError as e:
        print("skipped: PyTorch is not importable (%s); install python3-torch" % e)
        return 77
    sys.path.insert(0, HERE)
    import oracle
    from fixture_compare import fixture_current

    torch.set_num_threads(1)
    families = [f for f in opts.families if f != "samples"] if opts.families else sorted(f[:-3] for f in os.listdir(os.path.join(HERE, "cases"))
                                       if f.endswith(".py") and not f.startswith("_"))
    stale = []
    total = 0
    for family in families:
        path = os.path.join(HERE, "cases", family + ".py")
        spec = importlib.util.spec_from_file_location("cases_" + family, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        c = oracle.Cases(family)
        module.cases(c)
        text = "\n".join(c.lines) + "\n"
        total += len(c.lines)
        out = os.path.join(opts.out, family + ".jsonl")
        if opts.check:
            old = open(out).read() if os.path.exists(out) else None
            if not fixture_current(old, text):
                stale.append(out)
        else:
            tmp = out + ".tmp"
            with open(tmp, "w") as f:
                f.write(text)
            os.replace(tmp, out)
        print("%-12s %5d cases%s%s" % (family, len(c.lines), "" if opts.check else " -> " + os.path.relpath(out),
                                       " (%d dropped: no PyTorch CPU kernel for the dtype)" % c.unsupported
                                       if c.unsupported else ""))
    import sample_refs
    if not opts.families or "samples" in opts.families:
        for name in sorted(sample_refs.MODELS):
            if not os.path.exists(os.path.join(sample_refs.ROOT, "samples", name + ".fathom.json")):
                continue
            text = sample_refs.reference_text(name)
            out = os.path.join(HERE, "samples", name + ".json")
            if opts.check:
                old = open(out).read() if os.path.exists(out) else None
                if not fixture_current(old, text, jsonl=False):
                    stale.append(out)
            else:
                os.makedirs(os.path.dirname(out), exist_ok=True)
                with open(out, "w") as f:
                    f.write(text)
            print("sample %-6s -> %s" % (name, os.path.relpath(out)))
    if stale:
        print("stale fixtures (regenerate with /usr/bin/python3 tests/oracle/generate.py):")
        for s in stale:
            print("  " + s)
        return 1
    print("%d cases from PyTorch %s%s" % (total, torch.__version__, ", fixtures current" if opts.check else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
