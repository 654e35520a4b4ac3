"""torchvision's classification models through Fathom, as a new user would take them.

Each model (random weights, training mode with dropout and stochastic depth off, batch 2, a
small input) is exported by fathom_torch in AOT mode, then the fathom CLI runs on the dump:

  info                     the dump loads (every op known)
  run --graph forward      Fathom's forward against PyTorch's recorded outputs
  run --graph backward     the same for the backward graph
  check --all              the debug interpreter: recorded meta against real results
  run --backend aot_eager  the training step through the dump's partition section (Fathom's
                           forward + backward against its own eager autograd on the joint)

    zoo.py FATHOM_BINARY [--models a,b,...] [--quick] [--keep DIR] [--json]
    zoo.py FATHOM_BINARY --dumps DIR [--json]     the stages on dumps exported elsewhere

--quick takes the small set ctest runs (pytorch_zoo_quick). The table has one row per model: the
export's time, Fathom's time over all stages, node counts, then each stage's verdict (ok, or what
failed, in a few words).
Exit 0 when every stage of every model passed, 1 when one did not, 2 on bad usage, 77 without
torch or torchvision (ctest's skip code here).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

# name: (input height and width, constructor arguments). One model per torchvision family, at
# 64x64 (Inception v3 needs 75x75 at least): at 32x32 the last stages' batch norms see two or
# four values per channel, which amplifies float32 rounding until neither PyTorch's nor Fathom's
# result is near the float64 one (measured on ResNet-18: 2 of 163 forward outputs then fail
# PyTorch's rule by a factor 3; at 64x64 none does). googlenet and inception_v3 without their
# auxiliary heads, whose training-mode output is a tuple of two logits.
MODELS = {
    "alexnet": (64, {}),
    "convnext_tiny": (64, {}),
    "densenet121": (64, {}),
    "efficientnet_b0": (64, {}),
    "efficientnet_v2_s": (64, {}),
    "googlenet": (64, {"aux_logits": False, "init_weights": True}),
    "inception_v3": (80, {"aux_logits": False, "init_weights": True}),
    "mnasnet0_5": (64, {}),
    "mobilenet_v2": (64, {}),
    "mobilenet_v3_large": (64, {}),
    "mobilenet_v3_small": (64, {}),
    "regnet_x_400mf": (64, {}),
    "regnet_y_400mf": (64, {}),
    "resnet18": (64, {}),
    "resnet50": (64, {}),
    "resnext50_32x4d": (64, {}),
    "shufflenet_v2_x0_5": (64, {}),
    "squeezenet1_0": (64, {}),
    "swin_t": (64, {}),
    "vgg11": (64, {}),
    "vit_b_16": (64, {"image_size": 64}),
    "wide_resnet50_2": (64, {}),
}
QUICK = ["resnet18", "mobilenet_v2", "squeezenet1_0"]
STAGES = ("forward", "backward", "check", "step")
BATCH = 2  # batch norm in training mode needs more than one value per channel


def build(name, **overrides):
    """The model (its MODELS arguments, then `overrides`, e.g. num_classes) and its input."""
    import torch
    import torchvision

    size, kwargs = MODELS[name]
    torch.manual_seed(0)
    model = torchvision.models.get_model(name, weights=None, **dict(kwargs, **overrides))
    model.train()
    # Random draws are Fathom's own, not PyTorch's: switch off what draws (dropout, stochastic
    # depth), so every output can be compared by value.
    for m in model.modules():
        if isinstance(m, torch.nn.Dropout) or type(m).__name__ == "StochasticDepth":
            m.eval()
    x = torch.randn(BATCH, 3, size, size)
    return model, x


def fathom(binary, *args, timeout=900):
    start = time.monotonic()
    p = subprocess.run([binary, *args], capture_output=True, text=True, timeout=timeout)
    return p, time.monotonic() - start


def first_line(p):
    """The first line of what fathom said, without its "fathom: PATH: " prefix, cut to fit a table."""
    text = (p.stderr.strip() or p.stdout.strip()).splitlines()
    if not text:
        return f"exit {p.returncode}"
    line = re.sub(r"^fathom: \S+\.fathom\.json: ", "", text[0])
    return line if len(line) <= 100 else line[:97] + "..."


def run_stage(binary, dump, graph):
    p, secs = fathom(binary, "run", dump, "--graph", graph, "--json")
    row = {"exit": p.returncode, "seconds": round(secs, 2)}
    if p.returncode == 2 or not p.stdout.strip():
        row["verdict"] = first_line(p)
        return row
    recorded = json.loads(p.stdout).get("recorded") or {}
    row["recorded"] = recorded
    if not recorded:
        row["verdict"] = "no recorded outputs"
    elif recorded.get("mismatches", 0) == 0:
        rules = {}
        for o in recorded.get("outputs", []):
            rules[o.get("rule", "?")] = rules.get(o.get("rule", "?"), 0) + 1
        row["verdict"] = "ok"
        row["rules"] = rules  # how many outputs each rule decided: allclose, fp64, exact, max-index, random
    else:
        bad = [o for o in recorded.get("outputs", []) if not o.get("ok")]
        worst = max(bad, key=lambda o: o.get("max_abs_diff", 0) / (o.get("scale") or 1), default=None)
        row["verdict"] = f"{recorded['mismatches']} of {recorded.get('compared')} differ"
        if worst is not None:
            row["verdict"] += f", worst #{worst.get('index')} {worst.get('max_abs_diff', 0):.3g} of scale {worst.get('scale', 0):.3g}"
    return row


def step_stage(binary, dump):
    p, secs = fathom(binary, "run", dump, "--backend", "aot_eager", "--json")
    row = {"exit": p.returncode, "seconds": round(secs, 2)}
    if p.returncode == 2 or not p.stdout.strip():
        row["verdict"] = first_line(p)
        return row
    doc = json.loads(p.stdout)
    row["saved"], row["saved_bytes"] = doc.get("saved"), doc.get("saved_bytes")
    row["verdict"] = "ok" if doc.get("match") else f"{doc.get('mismatches')} of {len(doc.get('compared', []))} differ"
    return row


def check_stage(binary, dump):
    p, secs = fathom(binary, "check", dump, "--all", "--json")
    row = {"exit": p.returncode, "seconds": round(secs, 2)}
    if p.returncode == 0:
        row["verdict"] = "ok"
    elif p.returncode == 1 and p.stdout.strip():
        doc = json.loads(p.stdout)
        origins = [m for m in doc.get("mismatches", []) if m.get("origin")]
        row["verdict"] = f"{doc.get('origins', 0)} origin(s)" + (f", first %{origins[0].get('node')}" if origins else "")
    else:
        row["verdict"] = first_line(p)
    return row


def zoo_row(binary, name, folder):
    import fathom_torch

    row = {"model": name, "input": f"{BATCH}x3x{MODELS[name][0]}x{MODELS[name][0]}"}
    dump = os.path.join(folder, f"{name}.fathom.json")
    start = time.monotonic()
    try:
        model, x = build(name)
        fathom_torch.capture_aot(model, (x,), dump)
    except Exception as e:  # a model this torch cannot export: say so, go on with the rest
        row["export"] = f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"
        return row
    row["export"] = "ok"
    row["export_seconds"] = round(time.monotonic() - start, 1)
    return stages_row(binary, dump, row)


def stages_row(binary, dump, row):
    """`row` with the fathom stages run on `dump`."""
    p, _ = fathom(binary, "info", dump, "--json")
    if p.returncode != 0:
        row["load"] = first_line(p)
        return row
    info = json.loads(p.stdout)
    row["load"] = "ok"
    graphs = list(info.get("graphs", {}))
    # AOT dumps name them forward/backward; a torch.compile dump's first graph with a backward
    # may be forward_1/backward_1 (its partition section names them).
    named = {kind: next((g for g in graphs if g == kind or g.startswith(kind + "_")), kind)
             for kind in ("forward", "backward")}
    row["nodes"] = {kind: info["graphs"].get(name, {}).get("nodes") for kind, name in named.items()}
    row["forward"] = run_stage(binary, dump, named["forward"])
    row["backward"] = run_stage(binary, dump, named["backward"])
    row["check"] = check_stage(binary, dump)
    row["step"] = step_stage(binary, dump)
    return row


def passed(row):
    return (row.get("export") == "ok" and row.get("load") == "ok" and
            all(row.get(s, {}).get("verdict") == "ok" for s in STAGES))


def stage_text(stage):
    """"ok 120 allclose 40 fp64 3 max-index", or what failed."""
    if not stage:
        return "-"
    rules = stage.get("rules")
    if stage.get("verdict") != "ok" or not rules:
        return stage.get("verdict", "-")
    return "ok " + " ".join(f"{n} {rule}" for rule, n in sorted(rules.items(), key=lambda kv: -kv[1]))


def print_table(rows):
    cols = ["model", "input", "export s", "fathom s", "fwd/bwd nodes", "load", "forward", "backward", "check", "step"]
    lines = []
    for r in rows:
        nodes = r.get("nodes") or {}
        fathom_s = sum(r[s].get("seconds", 0) for s in STAGES if s in r)
        step = r.get("step", {})
        lines.append([r["model"], r["input"], str(r.get("export_seconds", "-")), f"{fathom_s:.1f}" if fathom_s else "-",
                      f"{nodes.get('forward', '-')}/{nodes.get('backward', '-')}",
                      r.get("load", r.get("export", "-")) if r.get("export") == "ok" else "export: " + r["export"],
                      stage_text(r.get("forward")), stage_text(r.get("backward")),
                      r.get("check", {}).get("verdict", "-"),
                      f"ok {step['saved']} saved" if step.get("verdict") == "ok" else step.get("verdict", "-")])
    widths = [max(len(c), *(len(l[i]) for l in lines)) for i, c in enumerate(cols)]
    print("  ".join(c.ljust(w) for c, w in zip(cols, widths)))
    for l in lines:
        print("  ".join(v.ljust(w) for v, w in zip(l, widths)))
    print(f"{sum(passed(r) for r in rows)} of {len(rows)} models pass every stage")


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("fathom", help="the fathom binary")
    ap.add_argument("--models", help="comma-separated names (default: all)")
    ap.add_argument("--quick", action="store_true", help="the small set ctest runs")
    ap.add_argument("--keep", help="write the dumps here and keep them")
    ap.add_argument("--json", action="store_true", help="one JSON document instead of the table")
    ap.add_argument("--dumps", help="run the stages on the AOT dumps in this folder (exported elsewhere, e.g. by "
                                    "torch2_export.py under torch 2.x) instead of exporting")
    a = ap.parse_args(argv[1:])
    if a.dumps:
        rows = []
        for name in sorted(f for f in os.listdir(a.dumps) if f.endswith(".fathom.json")):
            rows.append(stages_row(a.fathom, os.path.join(a.dumps, name),
                                   {"model": name[:-len(".fathom.json")], "input": "-", "export": "ok"}))
        if a.json:
            print(json.dumps({"models": rows}, indent=1))
        else:
            print_table(rows)
        return 0 if rows and all(passed(r) for r in rows) else 1
    try:
        import torch  # noqa: F401
        import torchvision  # noqa: F401
    except ImportError as e:
        print(f"skipped: the zoo needs python3-torch and python3-torchvision ({e})")
        return 77
    names = QUICK if a.quick else (a.models.split(",") if a.models else list(MODELS))
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        print(f"zoo.py: unknown model(s) {', '.join(unknown)}; known: {', '.join(MODELS)}", file=sys.stderr)
        return 2
    folder = a.keep or tempfile.mkdtemp(prefix="fathom-zoo-")
    os.makedirs(folder, exist_ok=True)
    rows = []
    try:
        for name in names:
            rows.append(zoo_row(a.fathom, name, folder))
            if not a.json:
                r = rows[-1]
                print(f"{name}: export {r.get('export')}, load {r.get('load', '-')}, "
                      f"forward {r.get('forward', {}).get('verdict', '-')}, backward {r.get('backward', {}).get('verdict', '-')}, "
                      f"check {r.get('check', {}).get('verdict', '-')}, step {r.get('step', {}).get('verdict', '-')}", flush=True)
    finally:
        if not a.keep:
            shutil.rmtree(folder, ignore_errors=True)
    if a.json:
        print(json.dumps({"models": rows}, indent=1))
    else:
        print()
        print_table(rows)
    return 0 if all(passed(r) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
