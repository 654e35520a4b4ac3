"""fathom-torch sweep: model suites through torch 2.x and Fathom, one row per model.

Each model is built from code (random weights, nothing downloaded), captured twice on the
installed torch - `capture_aot` (static: forward, backward and joint with PyTorch's recorded
values) and `torch.compile(dynamic=True)` with Fathom's backend - and the fathom CLI runs every
stage on the dumps (stages.py, dynamic.py). A row holds each stage's verdict and the first
failure's one line with its class: missing op, meta mismatch, value mismatch, guard
specialization, exporter error or fathom error.
"""
import os
import shutil
import sys
import tempfile
import time
import traceback

from . import dynamic, stages
from .wrap import flat_module

ALL_STAGES = ("export",) + stages.STATIC_STAGES + ("dyn_export", "dyn_load", "dyn_check", "sizes", "batch")


def _exception_line(e):
    text = " ".join(str(e).split())
    text = f"{type(e).__name__}: {text}" if text else type(e).__name__
    return text if len(text) <= 160 else text[:157] + "..."


def _exporter_failure(e):
    """An exception while building or capturing: an UnsupportedGraph or a missing-op message is
    still the exporter's error, with the frame it came from for the JSON."""
    return {"verdict": _exception_line(e), "kind": stages.EXPORTER,
            "where": traceback.format_exc().strip().splitlines()[-3].strip()[:200]}


def sweep_model(binary, spec, folder, static_stages=stages.STATIC_STAGES, dynamic_capture=True):
    """One row: {model, input, stages: {stage: verdict dict}, seconds, passed, failure, kind}."""
    import torch

    from ..capture import capture_aot
    row = {"model": spec.name, "input": spec.input_text(), "stages": {}}
    start = time.monotonic()
    dump = os.path.join(folder, f"{spec.name}.fathom.json")
    t = time.monotonic()
    try:
        module = flat_module(spec.build())
        row["stages"]["export"] = {"verdict": "ok"}
        try:
            capture_aot(module, spec.example(), dump)
        except Exception as e:
            if "DataDependent" not in type(e).__name__ or not hasattr(torch, "compile"):
                raise
            # Model code that branches on data where it knows it is traced (transformers' masks
            # under Dynamo) cannot go through AOT autograd alone: the same graphs through Dynamo.
            dynamic.capture(spec, dump, dynamic_shapes=False)
            row["stages"]["export"]["via"] = f"torch.compile (capture_aot: {_exception_line(e)})"
        row["stages"]["export"]["seconds"] = round(time.monotonic() - t, 1)
    except Exception as e:  # one model's failure says nothing of the others
        row["stages"]["export"] = _exporter_failure(e)
    if row["stages"]["export"]["verdict"] == "ok":
        got, info = stages.static_stages(binary, dump, spec.tol, static_stages)
        row["stages"].update(got)
        if info is not None:
            row["nodes"] = {k: info["graphs"].get(g, {}).get("nodes") for k, g in stages.graph_names(info).items()}
    if dynamic_capture and hasattr(torch, "compile"):  # torch 1.13 has no torch.compile: static stages only
        dyn = os.path.join(folder, f"{spec.name}.dynamic.fathom.json")
        t = time.monotonic()
        try:
            dynamic.capture(spec, dyn)
            row["stages"]["dyn_export"] = {"verdict": "ok", "seconds": round(time.monotonic() - t, 1)}
            row["stages"].update(dynamic.dynamic_stages(binary, dyn, spec))
        except Exception as e:
            row["stages"]["dyn_export"] = _exporter_failure(e)
        finally:
            torch._dynamo.reset()
    row["seconds"] = round(time.monotonic() - start, 1)
    return finish(row)


def passed(stage):
    return stage.get("verdict") == "ok" or stage.get("verdict", "").startswith("ok ")


def finish(row):
    """`row` with passed, and for a failed row its first failure's line and class."""
    failed = [(name, s) for name, s in row["stages"].items() if not passed(s)]
    row["passed"] = not failed
    if failed:
        name, s = failed[0]
        row["failure"] = f"{name}: {s['verdict']}"
        row["kind"] = s.get("kind", stages.FATHOM)
    return row


def sweep(binary, specs, *, keep=None, progress=None, rows=None, **kwargs):
    """The rows of `specs`, appended to `rows` as each model ends (given a list, the caller still
    has the finished rows when the sweep is interrupted)."""
    folder = keep or tempfile.mkdtemp(prefix="fathom-sweep-")
    os.makedirs(folder, exist_ok=True)
    rows = [] if rows is None else rows
    try:
        for spec in specs:
            rows.append(sweep_model(binary, spec, folder, **kwargs))
            if progress:
                progress(rows[-1], len(rows), len(specs))
            if not keep:  # dumps of big models add up: keep only what was asked for
                for f in os.listdir(folder):
                    os.remove(os.path.join(folder, f))
    finally:
        if not keep:
            shutil.rmtree(folder, ignore_errors=True)
    return rows


def summary(suite, rows):
    passed = sum(r["passed"] for r in rows)
    kinds = {}
    for r in rows:
        if not r["passed"]:
            kinds[r["kind"]] = kinds.get(r["kind"], 0) + 1
    batch = [r["stages"]["batch"] for r in rows if r["stages"].get("batch", {}).get("accepted") is not None]
    return {"suite": suite, "models": len(rows), "passed": passed,
            "percent": round(100.0 * passed / len(rows), 1) if rows else 0.0,
            "failures": kinds,
            "dynamic_captures": len(batch),
            "dynamic_no_recompile": sum(b["accepted"] for b in batch),
            "dynamic_no_recompile_from_2": sum(b["beyond_zero_one"] for b in batch)}


def summary_line(s):
    line = f"{s['suite']}: {s['passed']} of {s['models']} pass every stage"
    if s["failures"]:
        line += " (" + ", ".join(f"{n} {k}" for k, n in sorted(s["failures"].items())) + ")"
    if s["dynamic_captures"]:
        line += (f"; dynamic batch: {s['dynamic_no_recompile_from_2']} of {s['dynamic_captures']} take every size from 2 "
                 f"without a recompile ({s['dynamic_no_recompile']} from 1)")
    if s.get("interrupted"):
        line += "; interrupted: the models finished before the stop only"
    return line


def table(rows, file=sys.stdout):
    cols = ["model", "input", "s"] + [c for c in ALL_STAGES if any(c in r["stages"] for r in rows)] + ["first failure"]
    lines = []
    for r in rows:
        line = [r["model"], r["input"], f"{r['seconds']:.0f}"]
        for c in cols[3:-1]:
            s = r["stages"].get(c)
            line.append("-" if s is None else ("ok" if passed(s) else "FAIL"))
        line.append("" if r["passed"] else f"[{r['kind']}] {r['failure']}")
        lines.append(line)
    widths = [max(len(c), *(len(l[i]) for l in lines)) if lines else len(c) for i, c in enumerate(cols)]
    print("  ".join(c.ljust(w) for c, w in zip(cols, widths)).rstrip(), file=file)
    for l in lines:
        print("  ".join(v.ljust(w) for v, w in zip(l, widths)).rstrip(), file=file)
    batch = [(r["model"], r["stages"]["batch"].get("text") or r["stages"]["batch"]["verdict"])
             for r in rows if "batch" in r["stages"]]
    if batch:
        print("\ndynamic batch (torch.compile dynamic=True, Z3 over the dump's guards):", file=file)
        for name, verdict in batch:
            print(f"  {name}: {verdict}", file=file)
