"""fathom-torch (python3 -m fathom_torch): `capture SCRIPT.py:FUNC` runs a user's model builder and
dumps it; `sweep SUITE` takes model suites through torch 2.x and Fathom (sweep/).

FUNC() must return (callable_or_module, example_inputs). Errors the user can fix (a bad
SCRIPT:FUNC, a missing file or function, a wrong return value, an existing output, a graph the
dump cannot represent) print one line "fathom_torch: ..." on stderr and exit with 2; an
unexpected failure while tracing exits with 1 (--traceback shows where).
"""
import argparse
import importlib.util
import json
import os
import shlex
import sys
import time
import traceback
import warnings

MODES = ("aot", "real", "fake", "symbolic")


class UsageError(Exception):
    """A mistake in the command or in what FUNC returned: exit code 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, like every other usage error here
        raise UsageError(f"{message} (see --help)")


def _parser():
    p = _Parser(prog=os.path.basename(sys.argv[0]) if sys.argv[0].endswith("fathom-torch") else "python3 -m fathom_torch",
                description="Export PyTorch graphs as Fathom dumps (*.fathom.json, with a .fathom.bin side file).")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    c = sub.add_parser("capture", help="trace SCRIPT.py:FUNC and write a dump",
                       description="Import SCRIPT.py, call FUNC() -> (callable_or_module, example_inputs), trace "
                                   "it and write one dump with the example inputs and PyTorch's outputs.")
    c.add_argument("target", metavar="SCRIPT.py:FUNC", help="the script and its builder function")
    c.add_argument("-o", "--output", metavar="OUT.fathom.json", help="dump path (default: FUNC.fathom.json)")
    c.add_argument("--mode", choices=MODES, default="aot",
                   help="aot: AOT autograd forward/backward/joint (default); real/fake/symbolic: make_fx")
    c.add_argument("--inline-limit", type=int, default=64, metavar="N",
                   help="tensors of at most N elements are written inline, larger ones to the side file")
    c.add_argument("--no-outputs", action="store_true", help="do not record PyTorch's outputs")
    c.add_argument("--json", action="store_true", help="print the summary as JSON")
    c.add_argument("--force", action="store_true", help="overwrite an existing output file")
    c.add_argument("--traceback", action="store_true", help="print the traceback of an unexpected failure")
    from .sweep.command import add_parser as add_sweep
    add_sweep(sub)
    return p


def _one_line(e):
    text = " ".join(str(e).split())
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def _split(target):
    """(script, func) from SCRIPT.py:FUNC, checked before anything slow is imported."""
    script, sep, func = target.rpartition(":")
    if not sep or not script or not func:
        raise UsageError(f"expected SCRIPT.py:FUNC, got '{target}'")
    if not func.isidentifier():
        raise UsageError(f"'{func}' in '{target}' is not a function name")
    if not os.path.isfile(script):
        raise UsageError(f"{script}: no such file")
    return script, func


def _load(script, func):
    """(the model, the example inputs) from calling FUNC in SCRIPT.py."""
    name = "_fathom_capture_" + "".join(c if c.isalnum() else "_" for c in os.path.basename(script))
    spec = importlib.util.spec_from_file_location(name, script)
    if spec is None or spec.loader is None:
        raise UsageError(f"{script}: cannot be imported as a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))  # so the script can import its neighbours
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        raise UsageError(f"importing {script} failed: {_one_line(e)}") from e
    fn = getattr(module, func, None)
    if fn is None or not callable(fn):
        raise UsageError(f"{script} has no function '{func}'")
    try:
        result = fn()
    except Exception as e:
        raise UsageError(f"{func}() raised {_one_line(e)}") from e
    shape = "(callable_or_module, example_inputs_tuple)"
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise UsageError(f"{func}() must return {shape}, not {type(result).__name__}")
    model, inputs = result
    if not callable(model):
        raise UsageError(f"{func}() must return {shape}; its first item is a {type(model).__name__}")
    import torch  # only now: the mistakes above are reported without waiting for it
    if isinstance(inputs, torch.Tensor):
        inputs = (inputs,)
    if not isinstance(inputs, (tuple, list)) or not all(isinstance(t, torch.Tensor) for t in inputs):
        raise UsageError(f"{func}() must return {shape}; its example inputs must be a tuple of tensors")
    return model, tuple(inputs)


def _capture(args, argv):
    if args.inline_limit < 0:
        raise UsageError("--inline-limit must be >= 0")
    script, func = _split(args.target)
    out = args.output or f"{func}.fathom.json"
    if os.path.exists(out) and not args.force:
        raise UsageError(f"{out} exists; pass --force to overwrite it")
    model, inputs = _load(script, func)
    import fathom_torch
    producer = {"command": "python3 -m fathom_torch " + " ".join(shlex.quote(a) for a in argv)}
    start = time.perf_counter()
    common = dict(outputs=not args.no_outputs, inline_limit=args.inline_limit, producer=producer)
    if args.mode == "aot":
        result = fathom_torch.capture_aot(model, inputs, out, **common)
    else:
        result = fathom_torch.capture_make_fx(model, inputs, out, args.mode, **common)
    seconds = time.perf_counter() - start
    s = result.summary
    if args.json:
        doc = {"path": s["path"], "graphs": s["graphs"], "side_file": s["side_file"],
               "side_file_bytes": s["side_file_bytes"], "seconds": round(seconds, 3)}
        if args.mode == "aot":
            doc["partition"] = s["partition"]
        print(json.dumps(doc))
    else:
        graphs = ", ".join(f"{name} {n} nodes" for name, n in s["graphs"].items())
        side = f"side file {s['side_file']} ({s['side_file_bytes']} bytes)" if s["side_file"] else "no side file"
        part = ""
        if s["partition"] is not None:
            part = f"; partition: {s['partition']['saved']} saved values ({s['partition']['saved_bytes']} bytes)"
        print(f"{s['path']}: {graphs}; {side}{part}; {seconds:.2f} s")
    return 0


def _warning_line(message, category, filename, lineno, line=None, _default=warnings.formatwarning):
    """The exporter's own warnings as the one line they already are; others as Python writes them."""
    text = str(message)
    if text.startswith("fathom_torch: "):
        return f"{text}\n"
    return _default(message, category, filename, lineno, line)


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    warnings.formatwarning = _warning_line
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help(sys.stderr)
            return 2
        if args.command == "sweep":
            from .sweep.command import run as sweep
            return sweep(args, UsageError)
        return _capture(args, argv)
    except UsageError as e:
        print(f"fathom_torch: {e}", file=sys.stderr)
        return 2
    except Exception as e:
        from .errors import UnsupportedGraph
        if isinstance(e, UnsupportedGraph):
            print(f"fathom_torch: unsupported graph: {' '.join(str(e).split())}", file=sys.stderr)
            return 2
        if "args" in locals() and getattr(args, "traceback", False):
            traceback.print_exc()
        print(f"fathom_torch: capture failed: {_one_line(e)}", file=sys.stderr)
        return 1
