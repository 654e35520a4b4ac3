#!/usr/bin/python3
"""PyTorch 1.13's aot_module (functorch) on the BERT-base encoder of trace_bert_torch.py, for the
AOT bench: the time from the call to the forward compiler, i.e. joint graph trace + min-cut
partition (the compiler aborts the call there, so nothing runs on real data).

Prints `static_ms X` (fake tensors, static shapes, best of --repeat) and `symbolic_ms X` or
`symbolic_error WHY` (use_dynamic_shapes). Exit 77 when torch is missing.
"""
import argparse
import os
import sys
import time

try:
    import torch
    from functorch.compile import aot_module, min_cut_rematerialization_partition
    import functorch._src.config as aot_config
except ImportError:
    print("torch is not installed (apt-get install python3-torch)")
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from trace_bert_torch import Encoder  # noqa: E402


class Partitioned(Exception):
    pass


def stop(gm, example_inputs):
    raise Partitioned()


def time_once(encoder, x, mask):
    compiled = aot_module(encoder, fw_compiler=stop, bw_compiler=stop, partition_fn=min_cut_rematerialization_partition)
    start = time.perf_counter()
    try:
        compiled(x, mask)
    except Partitioned:
        return (time.perf_counter() - start) * 1000
    raise RuntimeError("the forward compiler was never called")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--no-symbolic", action="store_true")
    args = ap.parse_args()
    torch.manual_seed(0)
    encoder = Encoder(args.layers)
    x = torch.randn(args.batch, args.seq, 768)
    mask = torch.zeros(args.batch, 1, 1, args.seq)
    aot_config.use_fake_tensor = True
    print("static_ms %.1f" % min(time_once(encoder, x, mask) for _ in range(max(1, args.repeat))), flush=True)
    if args.no_symbolic:
        return
    aot_config.use_dynamic_shapes = True
    try:
        print("symbolic_ms %.1f" % time_once(encoder, x, mask), flush=True)
    except Exception as e:  # PyTorch 1.13's symbolic partitioning fails; report why
        print("symbolic_error %s: %s" % (type(e).__name__, str(e).splitlines()[0][:200] if str(e) else ""), flush=True)


if __name__ == "__main__":
    main()
