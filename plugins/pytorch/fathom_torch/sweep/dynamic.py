"""Dynamic batch without recompiles: torch.compile(dynamic=True) through Fathom's backend, then
what the dump's guards accept.

The capture runs at batch DYN_BATCH (and sequence length DYN_SEQ) - sizes no other dim of the
suites has, so duck sizing gives the batch a symbol of its own. Then, on the dump:

    dyn_check   fathom check --all                        the symbolic graphs' meta against real results
    sizes       fathom check --sizes B=..,S=.. (twice)    the same graphs rebound to two other sizes
    batch       fathom guards --accepts B=1..64[,S=..]     Z3: every size in the range passes every
                                                          guard (no recompile), else the guard that
                                                          stops it, with its source line
"""
import json
import os
import re

from . import stages

DYN_BATCH, DYN_SEQ = 5, 11
OTHER_SIZES = ((3, 7), (9, 13))  # (batch, seq) for `check --sizes`


def capture(spec, path, dynamic_shapes=True):
    """torch.compile(dynamic=True) of the spec's module with fathom_torch.backend, one forward and
    backward at DYN_BATCH (and DYN_SEQ); with dynamic_shapes=False a static capture at the spec's
    own sizes."""
    import torch

    from ..capture import backend
    from .wrap import flat_module
    torch._dynamo.reset()
    module = flat_module(spec.build())
    if dynamic_shapes:
        inputs = spec.example(batch=DYN_BATCH, seq=DYN_SEQ if spec.seq_range else None)
    else:
        inputs = spec.example()
    compiled = torch.compile(module, backend=backend(path), dynamic=dynamic_shapes)
    outs = [o for o in compiled(*inputs) if o.requires_grad]
    if outs:
        torch.autograd.backward(outs, [torch.ones_like(o) for o in outs])
    torch._dynamo.reset()
    if not os.path.exists(path):
        raise RuntimeError("the backend wrote no dump (Dynamo handed it no graph)")


def batch_symbols(info):
    """(batch symbol, sequence symbol) of a dynamic dump: the symbols whose sources are dim 0 (batch)
    and the sequence dim of an input, recognised by their hints."""
    batch = seq = None
    for s in info.get("symbols", []):
        sources = " ".join(s.get("sources") or [])
        if s.get("hint") == DYN_BATCH and re.search(r"size\(0\)|\.size\(\)\[0\]", sources):
            batch = batch or s["name"]
        elif s.get("hint") == DYN_SEQ:
            seq = seq or s["name"]
    return batch, seq


def _symbols(binary, dump):
    p, _ = stages.fathom(binary, "guards", dump, "--json")
    if p.returncode != 0:
        return None
    return json.loads(p.stdout)


def accepts(binary, dump, ranges):
    """`fathom guards --accepts` for {symbol: (lo, hi)}. The stage passes when Fathom could answer;
    what it answered is a measurement, not a verdict on Fathom: `accepted` (Z3 proved every size
    passes every check), `beyond_zero_one` (every size from 2 up passes: only PyTorch's 0/1
    specialization recompiles, which dynamic=True always does) and `text`, the widest passing
    range with what stops it at each end (a guard with its source line, or a symbol's range)."""
    spec = ",".join(f"{name}={lo}..{hi}" for name, (lo, hi) in ranges.items())
    p, secs = stages.fathom(binary, "guards", dump, "--accepts", spec, "--json")
    row = {"exit": p.returncode, "seconds": round(secs, 2), "ranges": spec}
    if p.returncode not in (0, 1) or not p.stdout.strip():
        row.update(verdict=stages.first_line(p), kind=stages.FATHOM)
        return row
    doc = json.loads(p.stdout)
    if doc.get("status") not in ("sat", "unsat"):
        row.update(verdict=f"undecided ({doc.get('status')}: {doc.get('reason')})", kind=stages.FATHOM)
        return row
    widest = doc.get("widest") or {}
    row.update(verdict="ok", accepted=bool(doc.get("accepted")), widest=widest, stops=doc.get("stops", []))
    row["beyond_zero_one"] = all(w is not None and w[0] <= max(2, ranges[k][0]) and w[1] >= ranges[k][1]
                                 for k, w in widest.items())
    if row["accepted"]:
        row["text"] = f"{spec}: no recompile (proved)"
        return row
    text = ", ".join(f"{k}={v[0]}..{v[1]}" if v else f"{k}: none" for k, v in widest.items()) + " without a recompile"
    stops = [f"{stop['symbol']}={stop['value']}: {_check_text(stop['failed'])}" for stop in row["stops"]]
    if not stops:  # not even the traced size passes: the counterexample's checks
        point = ", ".join(f"{k}={v}" for k, v in doc.get("counterexample", {}).items())
        stops = [f"{point}: {_check_text(doc.get('failed') or [])}"]
    row["text"] = text + "; " + "; ".join(stops)
    return row


def _check_text(failed):
    """The most telling failed check: a guard (it has a source line) before a symbol's range."""
    if not failed:
        return "?"
    f = next((f for f in failed if f.get("kind") == "guard"), failed[0])
    text = f"{f.get('expr', '?')}"
    if f.get("source"):
        text += f" at {f['source']}"
    elif f.get("kind") == "range":
        text += " (the symbol's range)"
    return text


def dynamic_stages(binary, dump, spec):
    out = {}
    out["dyn_load"], info = stages.load(binary, dump)
    if info is None:
        return out
    out["dyn_check"] = stages.check(binary, dump, "--all")
    env = _symbols(binary, dump)
    batch, seq = batch_symbols(env or {})
    if batch is None:
        out["batch"] = {"verdict": f"no symbol for the batch (hint {DYN_BATCH}): Dynamo specialized it",
                        "kind": stages.GUARD}
        return out
    verdicts = []
    for b, s in OTHER_SIZES:
        sizes = f"{batch}={b}" + (f",{seq}={s}" if seq and spec.seq_range else "")
        r = stages.check(binary, dump, "--all", "--sizes", sizes)
        if r["verdict"] != "ok":
            r["verdict"] = f"at {sizes}: {r['verdict']}"
            verdicts.append(r)
    out["sizes"] = verdicts[0] if verdicts else {"verdict": "ok", "exit": 0}
    ranges = {batch: spec.batch_range}
    if seq and spec.seq_range:
        ranges[seq] = spec.seq_range
    out["batch"] = accepts(binary, dump, ranges)
    return out
