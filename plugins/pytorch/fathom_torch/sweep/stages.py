"""The fathom CLI's stages on one dump, each a verdict a table cell can hold.

    load      fathom info                     every op known, the dump reads
    forward   fathom run --graph forward      Fathom against PyTorch's recorded outputs (its accuracy rule)
    backward  fathom run --graph backward     the same for the backward graph
    check     fathom check --all              the debug interpreter: recorded meta against real results
    step      fathom run --backend aot_eager  the training step through the partition section
    jit       fathom run --graph forward --backend jit      compiled, against the recorded outputs
    aot_jit   fathom run --backend aot_jit    the training step compiled

A stage's dict: verdict ("ok" or what failed, in a few words), kind (the failure's class: see
classify), exit, seconds, and what the CLI said that the table shows (rules, saved values).
"""
import json
import re
import subprocess
import time

STATIC_STAGES = ("load", "forward", "backward", "check", "step", "jit", "aot_jit")

# The classes a failure falls in, for the sweep's summary (issue 33: "a failure is classified").
MISSING_OP, META, VALUE, GUARD, EXPORTER, FATHOM = (
    "missing op", "meta mismatch", "value mismatch", "guard specialization", "exporter error", "fathom error")


def fathom(binary, *args, timeout=900):
    start = time.monotonic()
    try:
        p = subprocess.run([binary, *args], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        p = subprocess.CompletedProcess([binary, *args], 124, "", f"timed out after {timeout} s")
    return p, time.monotonic() - start


def first_line(p):
    """The first line of what fathom said, without its "fathom: PATH: " prefix, cut to fit a table."""
    text = (p.stderr.strip() or p.stdout.strip()).splitlines()
    if not text:
        return f"exit {p.returncode}" + (" (killed by a signal)" if p.returncode < 0 else "")
    line = re.sub(r"^fathom: \S+\.fathom\.json: ", "", text[0])
    return line if len(line) <= 140 else line[:137] + "..."


def _error_stage(p, secs):
    line = first_line(p)
    kind = MISSING_OP if re.search(r"unknown op|not a known op|unsupported op", line, re.I) else FATHOM
    return {"exit": p.returncode, "seconds": round(secs, 2), "verdict": line, "kind": kind}


def load(binary, dump):
    """(stage, info) where info is `fathom info --json`'s document when it loaded."""
    p, secs = fathom(binary, "info", dump, "--json")
    if p.returncode != 0:
        return _error_stage(p, secs), None
    return {"exit": 0, "seconds": round(secs, 2), "verdict": "ok"}, json.loads(p.stdout)


def _compare(p, secs):
    """A `fathom run --json` against a dump's recorded outputs."""
    if p.returncode == 2 or not p.stdout.strip():
        return _error_stage(p, secs)
    row = {"exit": p.returncode, "seconds": round(secs, 2)}
    recorded = json.loads(p.stdout).get("recorded") or {}
    if not recorded:
        row.update(verdict="no recorded outputs", kind=FATHOM)
    elif recorded.get("mismatches", 0) == 0:
        rules = {}
        for o in recorded.get("outputs", []):
            rules[o.get("rule", "?")] = rules.get(o.get("rule", "?"), 0) + 1
        row.update(verdict="ok", rules=rules)  # outputs per rule: allclose, fp64, exact, max-index, random
    else:
        bad = [o for o in recorded.get("outputs", []) if not o.get("ok")]
        worst = max(bad, key=lambda o: o.get("max_abs_diff", 0) / (o.get("scale") or 1), default=None)
        verdict = f"{recorded['mismatches']} of {recorded.get('compared')} outputs differ"
        if worst is not None:
            verdict += f", worst #{worst.get('index')} {worst.get('max_abs_diff', 0):.3g} of scale {worst.get('scale', 0):.3g}"
        row.update(verdict=verdict, kind=VALUE)
    return row


def run_graph(binary, dump, graph, backend="eager", tol=None):
    extra = ["--tol", str(tol)] if tol else []
    p, secs = fathom(binary, "run", dump, "--graph", graph, "--backend", backend, "--json", *extra)
    return _compare(p, secs)


def step(binary, dump, backend="aot_eager"):
    p, secs = fathom(binary, "run", dump, "--backend", backend, "--json")
    if p.returncode == 2 or not p.stdout.strip():
        return _error_stage(p, secs)
    doc = json.loads(p.stdout)
    row = {"exit": p.returncode, "seconds": round(secs, 2), "saved": doc.get("saved"), "saved_bytes": doc.get("saved_bytes")}
    if doc.get("match"):
        row["verdict"] = "ok"
    else:
        row.update(verdict=f"{doc.get('mismatches')} of {len(doc.get('compared', []))} step outputs differ", kind=VALUE)
    return row


def check(binary, dump, *extra):
    p, secs = fathom(binary, "check", dump, *extra, "--json")
    row = {"exit": p.returncode, "seconds": round(secs, 2)}
    if p.returncode == 0:
        row["verdict"] = "ok"
    elif p.returncode == 1 and p.stdout.strip():
        doc = json.loads(p.stdout)
        origins = [m for m in doc.get("mismatches", []) if m.get("origin")]
        verdict = f"{doc.get('origins', len(origins))} origin(s)"
        if origins:
            o = origins[0]
            verdict += f", first %{o.get('node')} ({o.get('op')}: {o.get('field')} {o.get('expected')} traced, {o.get('actual')} real)"
        row.update(verdict=verdict, kind=META)
    else:
        return _error_stage(p, secs)
    return row


def graph_names(info):
    """{"forward": name, "backward": name}: AOT dumps name them forward/backward; a torch.compile
    dump's first graph with a backward may be forward_1/backward_1."""
    graphs = list(info.get("graphs", {}))
    partition = info.get("partition") or {}
    return {kind: partition.get(kind) or next((g for g in graphs if g == kind or g.startswith(kind + "_")), kind)
            for kind in ("forward", "backward")}


def static_stages(binary, dump, tol=None, stages=STATIC_STAGES):
    """{stage: verdict dict} for `stages` on an AOT dump; a failed load ends the row."""
    out = {}
    out["load"], info = load(binary, dump)
    if info is None:
        return out, None
    names = graph_names(info)
    runs = {
        "forward": lambda: run_graph(binary, dump, names["forward"], tol=tol),
        "backward": lambda: run_graph(binary, dump, names["backward"], tol=tol),
        "check": lambda: check(binary, dump, "--all"),
        "step": lambda: step(binary, dump, "aot_eager"),
        "jit": lambda: run_graph(binary, dump, names["forward"], "jit", tol=tol),
        "aot_jit": lambda: step(binary, dump, "aot_jit"),
    }
    for s in stages:
        if s in runs:
            out[s] = runs[s]()
    return out, info


def cell(stage):
    """A table cell: "ok", "ok 120 allclose 40 fp64", or what failed."""
    if not stage:
        return "-"
    rules = stage.get("rules")
    if stage.get("verdict") != "ok" or not rules:
        return stage.get("verdict", "-")
    return "ok " + " ".join(f"{n} {rule}" for rule, n in sorted(rules.items(), key=lambda kv: -kv[1]))
