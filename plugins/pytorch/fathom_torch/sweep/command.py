"""The `sweep` command of fathom-torch (cli.py hands it its subparser and its parsed arguments)."""
import importlib
import json
import os
import shutil
import signal
import sys

from . import stages
from .suites import NEEDS, SUITES


def add_parser(sub):
    s = sub.add_parser("sweep", help="model suites through torch 2.x and Fathom, one row per model",
                       description="Build each model of SUITE from code (random weights), capture it with capture_aot and "
                                   "torch.compile(dynamic=True), and run Fathom's stages on the dumps: load, forward and "
                                   "backward against PyTorch's recorded values, check --all, the training step (aot_eager), "
                                   "jit, aot_jit, and for the dynamic capture check, check --sizes at two other sizes and "
                                   "the batch range the guards accept (Z3). Exit 0 when every model passes every stage, 1 "
                                   "otherwise.")
    s.add_argument("suite", nargs="?", metavar="SUITE", help=f"one of {', '.join(SUITES)}, or all")
    s.add_argument("--model", metavar="EXPR", help="sweep one model given as a constructor expression, e.g. "
                                                   "\"torchvision.models.resnet18(num_classes=10)\" (with --inputs)")
    s.add_argument("--inputs", metavar="SHAPES", help="--model's inputs: [DTYPE:]DxD...[:HIGH][@SEQDIM], comma-separated, "
                                                      "e.g. 2x3x64x64 or int64:2x16:1000@1")
    s.add_argument("--models", metavar="A,B", help="only these models of the suite")
    s.add_argument("--quick", action="store_true", help="the small subset CI runs")
    s.add_argument("--fathom", metavar="PATH", help="the fathom binary (default: $FATHOM_BIN, else fathom on PATH, "
                                                    "else this checkout's build/app/fathom)")
    s.add_argument("--keep", metavar="DIR", help="write the dumps here and keep them")
    s.add_argument("--no-dynamic", action="store_true", help="skip the torch.compile(dynamic=True) capture and its stages")
    s.add_argument("--stages", metavar="A,B", help=f"static stages to run (default all: {','.join(stages.STATIC_STAGES)})")
    s.add_argument("--json", action="store_true", help="one JSON document: {models: [rows], ...summary}; the summary's "
                                                       "keys end it: suite, models, passed, percent, failures")
    return s


def find_fathom(given):
    if given:
        return given
    if os.environ.get("FATHOM_BIN"):
        return os.environ["FATHOM_BIN"]
    on_path = shutil.which("fathom")
    if on_path:
        return on_path
    checkout = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "build", "app", "fathom")
    return os.path.normpath(checkout)


def _specs(args, usage_error):
    from . import spec as spec_mod
    from .suites import models
    if args.model:
        if args.suite or args.models or args.quick:
            raise usage_error("--model goes alone: no SUITE, --models or --quick with it")
        if not args.inputs:
            raise usage_error("--model needs --inputs SHAPES (e.g. 2x3x64x64)")
        try:
            return [("model", [spec_mod.from_expression(args.model, args.inputs)])]
        except ValueError as e:
            raise usage_error(str(e))
    if not args.suite:
        raise usage_error(f"give a SUITE ({', '.join(SUITES)}, all) or --model EXPR --inputs SHAPES")
    if args.inputs:
        raise usage_error("--inputs goes with --model")
    names = args.suite.split(",") if args.suite != "all" else list(SUITES)
    unknown = [n for n in names if n not in SUITES]
    if unknown:
        raise usage_error(f"unknown suite {', '.join(unknown)}; known: {', '.join(SUITES)}, all")
    if args.models and len(names) != 1:
        raise usage_error("--models goes with one suite")
    out = []
    for name in names:
        try:
            importlib.import_module(NEEDS[name])
        except ImportError as e:
            raise usage_error(f"suite {name} needs {NEEDS[name]} ({e}); ./fathom setup-torch2 installs it")
        try:
            specs = models(name, args.models.split(",") if args.models else None, args.quick)
        except KeyError as e:
            raise usage_error(e.args[0])
        if specs:
            out.append((name, specs))
    return out


def run(args, usage_error):
    from .run import ALL_STAGES, summary, summary_line, sweep, table
    binary = find_fathom(args.fathom)
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        raise usage_error(f"no fathom binary at {binary} (build it with ./fathom build, or pass --fathom PATH)")
    static = tuple(args.stages.split(",")) if args.stages else stages.STATIC_STAGES
    bad = [s for s in static if s not in stages.STATIC_STAGES]
    if bad:
        raise usage_error(f"unknown stage {', '.join(bad)}; known: {', '.join(stages.STATIC_STAGES)}")
    suites = _specs(args, usage_error)
    import torch
    out = sys.stderr if args.json else sys.stdout
    print(f"sweep: torch {torch.__version__}, fathom {binary}", file=out, flush=True)

    def progress(row, i, n):
        verdict = "passes every stage" if row["passed"] else f"[{row['kind']}] {row['failure']}"
        print(f"[{i}/{n}] {row['model']}: {verdict} ({row['seconds']:.0f} s)", file=out, flush=True)

    docs, ok, interrupted = [], True, False
    # Ctrl-C or a kill (SIGTERM) ends the sweep after the rows finished so far, which are reported
    # as ever, marked "interrupted": an hour of models is not lost to a stop.
    signal.signal(signal.SIGTERM, _interrupt)
    for name, specs in suites:
        keep = os.path.join(args.keep, name) if args.keep else None
        rows = []
        try:
            sweep(binary, specs, keep=keep, progress=progress, rows=rows, static_stages=static,
                  dynamic_capture=not args.no_dynamic)
        except KeyboardInterrupt:
            interrupted = True
            print(f"sweep: interrupted during model {len(rows) + 1} of {len(specs)} of {name}; "
                  f"reporting the {len(rows)} finished", file=out, flush=True)
        s = summary(name, rows)
        if interrupted:
            s["interrupted"] = True
        ok = ok and s["passed"] == s["models"] and not interrupted
        docs.append(dict(models_rows=rows, **s))
        if not args.json:
            print(file=out)
            table(rows, out)
            print(summary_line(s), file=out, flush=True)
        if interrupted:
            break
    if args.json:
        if len(docs) == 1:
            d = docs[0]
            rows = d.pop("models_rows")
            print(json.dumps({"rows": rows, **d}, indent=1))
        else:
            suites_doc = []
            for d in docs:
                rows = d.pop("models_rows")
                suites_doc.append({"rows": rows, **d})
            total = sum(d["models"] for d in docs)
            passed = sum(d["passed"] for d in docs)
            doc = {"suites": suites_doc, "suite": "all", "models": total, "passed": passed,
                   "percent": round(100.0 * passed / total, 1) if total else 0.0}
            if interrupted:
                doc["interrupted"] = True
            print(json.dumps(doc, indent=1))
    elif len(docs) > 1:
        print("\n" + "\n".join(summary_line(d) for d in docs), file=out)
    return 130 if interrupted else 0 if ok else 1


def _interrupt(signum, frame):
    raise KeyboardInterrupt
