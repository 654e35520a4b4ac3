"""The PyTorch side of fathom_export_bench: exporting the 12-layer BERT-base forward + backward
with fathom_torch.capture_aot against PyTorch's own AOT tracing of it.

  aot_ms     aot_module with compilers that return the graph as is, then one forward and one
             backward: what PyTorch itself spends tracing (joint graph, partition) and running
  export_ms  fathom_torch.capture_aot on the same model and inputs: the same tracing and run, plus
             writing the dump (forward, backward, joint, with real inputs and outputs)
Each is the best of --repeat runs, alternating. Prints "key value" lines; the dump stays in --out.
"""
import argparse
import os
import sys
import time

import bench_torch  # noqa: E402  (fathom_torch and the test models on the path)

try:
    import torch
    from functorch.compile import aot_module, make_boxed_func
except ImportError as e:
    print(f"error {e}")
    sys.exit(0)

import fathom_torch  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    bench_torch.add_bert_options(ap, seq=128)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    model, inputs = bench_torch.bert_base(a)

    def as_is(gm, _):
        return make_boxed_func(gm)

    def pytorch_aot():
        compiled = aot_module(model, fw_compiler=as_is, bw_compiler=as_is)
        out = compiled(*inputs)
        out.backward(torch.ones_like(out))
        model.zero_grad(set_to_none=True)

    path = os.path.join(a.out, "bert12.fathom.json")

    def export():
        fathom_torch.capture_aot(model, inputs, path)
        model.zero_grad(set_to_none=True)

    best = {"aot_ms": float("inf"), "export_ms": float("inf")}
    for _ in range(a.repeat):
        for key, fn in (("aot_ms", pytorch_aot), ("export_ms", export)):
            t = time.perf_counter()
            fn()
            best[key] = min(best[key], (time.perf_counter() - t) * 1e3)
    for k, v in best.items():
        print(f"{k} {v:.0f}")
    print(f"dump {path}")
    side = fathom_torch.side_file_path(path)
    print(f"side_file_mb {os.path.getsize(side) / 1e6:.0f}" if os.path.exists(side) else "side_file_mb 0")
    print(f"dump_mb {os.path.getsize(path) / 1e6:.1f}")


if __name__ == "__main__":
    main()
