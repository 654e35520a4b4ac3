"""The PyTorch side of fathom_minify_bench: PyTorch 1.13's own minifier (functorch.compile.minifier)
on the 12-layer BERT-base forward and backward AOT graphs, each with one injected culprit.

The culprit of a graph is a call node chosen deterministically (the first tensor-producing,
non-view ATen call from 60% of the way through the graph's calls). A candidate fails when it
still executes the culprit: `module_fails` runs it under an fx.Interpreter that raises there.
Fathom's bench asks the same question of its own minifier, on the same graphs and values: the
graphs are written as one Fathom dump with their real inputs (fathom_torch.DumpWriter; node
names are FX's).

Prints "key value" lines: dump PATH, and per graph G in (forward, backward): culprit_G, nodes_G
(FX nodes), calls_G (call_function nodes), torch_queries_G (module_fails calls), torch_nodes_G
and torch_calls_G (the minified graph's nodes and call_function nodes), torch_seconds_G.
"""
import argparse
import contextlib
import io
import os
import sys
import time

import bench_torch  # noqa: E402  (fathom_torch and the test models on the path)

try:
    import torch
    import torch.fx as fx
    from functorch.compile import aot_module, make_boxed_func, minifier
except ImportError as e:
    print(f"error {e}")
    sys.exit(0)

import fathom_torch  # noqa: E402

GRAPHS = ("forward", "backward")


class CulpritExecuted(Exception):
    pass


class CulpritInterpreter(fx.Interpreter):
    """Runs a graph and raises when it reaches the culprit call (as a failing kernel would)."""

    def __init__(self, gm, culprit):
        super().__init__(gm)
        self.culprit = culprit

    def run_node(self, n):
        if n.op == "call_function" and n.name == self.culprit:
            raise CulpritExecuted(n.name)
        return super().run_node(n)


def pick_culprit(gm, fraction=0.6):
    """The first call from `fraction` of the way through that returns one fresh tensor."""
    calls = [n for n in gm.graph.nodes if n.op == "call_function"]
    for n in calls[int(len(calls) * fraction):]:
        schema = getattr(n.target, "_schema", None)
        if schema is None or len(schema.returns) != 1:
            continue  # operator.getitem, multi-output ops
        ret = schema.returns[0]
        if str(ret.type) == "Tensor" and ret.alias_info is None:
            return n.name
    raise RuntimeError("no tensor-producing call after the 60% mark")


def capture(model, inputs):
    """AOT forward and backward graph modules, with the real inputs of their first run."""
    gms, args = {}, {}

    def keep(stage):
        def compiler(gm, _example_inputs):
            gms[stage] = gm

            def run(call_args):
                if stage not in args:
                    args[stage] = [a.detach().clone() if isinstance(a, torch.Tensor) else a for a in call_args]
                return gm(*call_args)
            run._boxed_call = True
            return run
        return compiler

    compiled = aot_module(model, fw_compiler=keep("forward"), bw_compiler=keep("backward"))
    out = compiled(*inputs)
    out.backward(torch.ones_like(out))
    model.zero_grad(set_to_none=True)
    return gms, args


def culprit_fails(culprit):
    """The failure: the candidate still executes the culprit call."""
    def module_fails(mod, inps):
        try:
            with torch.no_grad():
                CulpritInterpreter(mod, culprit).run(*inps)
        except CulpritExecuted:
            return True
        return False
    return module_fails


def torch_minify(gm, inputs, module_fails):
    """(queries, nodes, calls, seconds, call names) of functorch's minifier under
    `module_fails(mod, inps)`, its chatter discarded."""
    queries = [0]

    def counted(mod, inps):
        queries[0] += 1
        return module_fails(mod, inps)

    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        small, _ = minifier(gm, list(inputs), counted, dump_state=lambda *_: None)
    seconds = time.perf_counter() - start
    nodes = list(small.graph.nodes)
    calls = [n.name for n in nodes if n.op == "call_function"]
    return queries[0], len(nodes), len(calls), seconds, calls


def main():
    ap = argparse.ArgumentParser()
    bench_torch.add_bert_options(ap, seq=32)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    model, inputs = bench_torch.bert_base(a)
    gms, args = capture(model, inputs)

    path = os.path.join(a.out, "bert12_minify.fathom.json")
    writer = fathom_torch.DumpWriter(producer={"mode": "aot", "bench": "minify"})
    for g in GRAPHS:
        writer.add_graph(g, gms[g], args[g], None, stage=g, measure=True)
    writer.save(path)
    print(f"dump {path}")

    for g in GRAPHS:
        gm = gms[g]
        culprit = pick_culprit(gm)
        nodes = list(gm.graph.nodes)
        print(f"culprit_{g} {culprit}")
        print(f"nodes_{g} {len(nodes)}")
        print(f"calls_{g} {sum(n.op == 'call_function' for n in nodes)}")
        queries, small_nodes, small_calls, seconds, _ = torch_minify(gm, args[g], culprit_fails(culprit))
        print(f"torch_queries_{g} {queries}")
        print(f"torch_nodes_{g} {small_nodes}")
        print(f"torch_calls_{g} {small_calls}")
        print(f"torch_seconds_{g} {seconds:.2f}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
