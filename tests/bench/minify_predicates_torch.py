"""The PyTorch side of fathom_minify_predicates_bench: PyTorch 1.13's own minifier
(functorch.compile.minifier) on the BERT-base forward AOT graph (12 layers, batch 2, seq 32 by
default) under several predicates, each of which Fathom's bench asks of its own minifier on the
same graph and values (written here as one Fathom dump with its real inputs by
fathom_torch.DumpWriter; node names are FX's):

  one        one culprit: the candidate fails when it executes a call 60% of the way in
             (minify_bert_torch.pick_culprit, as fathom_minify_bench)
  two-nodes  two distant culprits, both needed: it executes the _softmax a quarter of the way
             in and the gelu three quarters of the way in
  two-ops    two ops, both needed: it executes any aten._softmax and any aten.gelu call
  shape      a shape-dependent culprit: it executes an aten.addmm whose mat1 has >= 3072
             columns (the feed-forward down projections; the other addmms have 768)
  accuracy   a wrong result: the addmm 40% of the way in is computed wrongly (its first element
             + 1.0) and the candidate fails when any floating output then differs from the same
             candidate run correctly beyond allclose(rtol = atol = 1e-3); both runs seeded alike

A candidate that raises anything else does not fail. The predicates' parameters are printed for
the C++ side to read, so both sides use one definition. Prints "key value" lines: dump PATH,
nodes, calls; per predicate P: P.culprits (comma-separated node names), P.ops, P.shape
(op,arg,dim,min), P.accuracy (node,delta,tol) - whichever applies -, and torch_queries.P,
torch_nodes.P, torch_calls.P (the minified graph's nodes and call_function nodes),
torch_seconds.P, torch_result.P (its call_function nodes' names).
"""
import argparse
import os
import sys

import bench_torch  # noqa: E402  (fathom_torch and the test models on the path)

try:
    import torch
    import torch.fx as fx
    from torch.utils._pytree import tree_flatten
    import minify_bert_torch as mb
except ImportError as e:
    print(f"error {e}")
    sys.exit(0)

import fathom_torch  # noqa: E402

PREDICATES = ("one", "two-nodes", "two-ops", "shape", "accuracy")
SHAPE = ("aten.addmm.default", 1, 1, 3072)  # op, argument, dim, minimum size
ACCURACY_DELTA, ACCURACY_TOL = 1.0, 1e-3


class Failure(Exception):
    pass


class Recorder(fx.Interpreter):
    """Runs a candidate, remembering the call nodes and ops it executed; raises Failure at an
    `shape` op whose argument is large enough; adds `delta` to the first element of `perturb`'s
    result."""

    def __init__(self, gm, shape=None, perturb=None):
        super().__init__(gm)
        self.names, self.ops = set(), set()
        self.shape, self.perturb = shape, perturb

    def run_node(self, n):
        if n.op != "call_function":
            return super().run_node(n)
        self.names.add(n.name)
        self.ops.add(str(n.target))
        if self.shape and str(n.target) == self.shape[0]:
            args, _ = self.fetch_args_kwargs_from_env(n)
            _, arg, dim, least = self.shape
            if isinstance(args[arg], torch.Tensor) and args[arg].dim() > dim and args[arg].shape[dim] >= least:
                raise Failure(n.name)
        out = super().run_node(n)
        if n.name == self.perturb and isinstance(out, torch.Tensor) and out.numel() > 0:
            out = out.clone()
            out[(0,) * out.dim()] += ACCURACY_DELTA
        return out


def run(mod, inps, **kwargs):
    """The recorder after a run (seeded, so random ops draw alike), or None when it raised."""
    r = Recorder(mod, **kwargs)
    torch.manual_seed(0)
    try:
        with torch.no_grad():
            r.outputs = tree_flatten(r.run(*inps))[0]
    except Failure:
        r.failed = True
        return r
    except Exception:  # noqa: BLE001  (a candidate that breaks otherwise does not fail)
        return None
    r.failed = False
    return r


def differs(got, want, tol):
    for a, b in zip(got, want):
        if isinstance(a, torch.Tensor) and a.is_floating_point() and not torch.allclose(a, b, rtol=tol, atol=tol,
                                                                                         equal_nan=True):
            return True
    return False


def predicates(gm):
    """{key: (module_fails, {parameter key: value})} over `gm`'s nodes."""
    calls = [n for n in gm.graph.nodes if n.op == "call_function"]

    def named(op, fraction):
        of_op = [n.name for n in calls if str(n.target) == op]
        return of_op[int(len(of_op) * fraction)]

    one = mb.pick_culprit(gm)
    two = [named("aten._softmax.default", 0.25), named("aten.gelu.default", 0.75)]
    ops = ["aten._softmax.default", "aten.gelu.default"]
    wrong = named("aten.addmm.default", 0.4)

    def executes_all(names=(), of_ops=()):
        def fails(mod, inps):
            r = run(mod, inps)
            return r is not None and set(names) <= r.names and set(of_ops) <= r.ops
        return fails

    def shape_fails(mod, inps):
        r = run(mod, inps, shape=SHAPE)
        return r is not None and r.failed

    def accuracy_fails(mod, inps):
        ref, got = run(mod, inps), run(mod, inps, perturb=wrong)
        return ref is not None and got is not None and differs(got.outputs, ref.outputs, ACCURACY_TOL)

    return {
        "one": (mb.culprit_fails(one), {"culprits": one}),
        "two-nodes": (executes_all(names=two), {"culprits": ",".join(two)}),
        "two-ops": (executes_all(of_ops=ops), {"ops": ",".join(ops)}),
        "shape": (shape_fails, {"shape": ",".join(str(x) for x in SHAPE)}),
        "accuracy": (accuracy_fails, {"accuracy": f"{wrong},{ACCURACY_DELTA},{ACCURACY_TOL}"}),
    }


def main():
    ap = argparse.ArgumentParser()
    bench_torch.add_bert_options(ap, seq=32)
    ap.add_argument("--out", required=True)
    ap.add_argument("--predicates", default=",".join(PREDICATES))
    a = ap.parse_args()
    model, inputs = bench_torch.bert_base(a)
    gms, args = mb.capture(model, inputs)
    gm, inps = gms["forward"], args["forward"]

    path = os.path.join(a.out, f"bert{a.layers}_forward.fathom.json")
    writer = fathom_torch.DumpWriter(producer={"mode": "aot", "bench": "minify-predicates"})
    writer.add_graph("forward", gm, inps, None, stage="forward", measure=True)
    writer.save(path)
    nodes = list(gm.graph.nodes)
    print(f"dump {path}")
    print(f"nodes {len(nodes)}")
    print(f"calls {sum(n.op == 'call_function' for n in nodes)}")
    sys.stdout.flush()

    table = predicates(gm)
    for key in a.predicates.split(","):
        fails, params = table[key]
        for k, v in params.items():
            print(f"{key}.{k} {v}")
        queries, small_nodes, small_calls, seconds, names = mb.torch_minify(gm, inps, fails)
        print(f"torch_queries.{key} {queries}")
        print(f"torch_nodes.{key} {small_nodes}")
        print(f"torch_calls.{key} {small_calls}")
        print(f"torch_seconds.{key} {seconds:.2f}")
        print(f"torch_result.{key} {','.join(names)}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
