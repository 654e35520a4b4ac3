#!/usr/bin/python3
"""PyTorch 1.13 eager reference for BertLayerBench: times one BERT-base encoder layer forward
(tests/oracle/sample_refs.bert, nn.functional in eval mode, no grad) and prints
"ms_per_iter MS threads N". Run by fathom_bert_layer_bench; usable alone."""
import argparse
import os
import sys
import time


def _threads_from_argv():
    for i, a in enumerate(sys.argv):
        if a == "--threads" and i + 1 < len(sys.argv):
            return sys.argv[i + 1]
        if a.startswith("--threads="):
            return a.split("=", 1)[1]
    return None


# torch.set_num_threads does not reach the OpenBLAS that Debian's torch calls for GEMM: its thread
# count is read from the environment when the library loads, so it is set before importing torch.
if _threads_from_argv():
    os.environ["OPENBLAS_NUM_THREADS"] = os.environ["OMP_NUM_THREADS"] = _threads_from_argv()

import torch  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "oracle"))
import sample_refs  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--threads", type=int, default=torch.get_num_threads())
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--seconds", type=float, default=5.0)
    opts = ap.parse_args()
    torch.set_num_threads(opts.threads)
    torch.manual_seed(0)
    hidden, ff = 768, 3072
    p = {"hidden_states": torch.randn(opts.batch, opts.seq, hidden),
         "attention_mask": torch.randint(0, 2, (opts.batch, opts.seq))}
    shapes = {"attention.self.query": (hidden, hidden), "attention.self.key": (hidden, hidden),
              "attention.self.value": (hidden, hidden), "attention.output.dense": (hidden, hidden),
              "intermediate.dense": (ff, hidden), "output.dense": (hidden, ff)}
    for name, (out_f, in_f) in shapes.items():
        bound = in_f ** -0.5
        p[name + ".weight"] = torch.empty(out_f, in_f).uniform_(-bound, bound)
        p[name + ".bias"] = torch.empty(out_f).uniform_(-bound, bound)
    for name in ("attention.output.LayerNorm", "output.LayerNorm"):
        p[name + ".weight"] = torch.ones(hidden)
        p[name + ".bias"] = torch.zeros(hidden)
    with torch.no_grad():
        for _ in range(3):
            sample_refs.bert(p)
        n, start = 0, time.perf_counter()
        while time.perf_counter() - start < opts.seconds or n < 5:
            sample_refs.bert(p)
            n += 1
        ms = (time.perf_counter() - start) * 1e3 / n
    print("ms_per_iter %.3f threads %d iters %d" % (ms, torch.get_num_threads(), n))


if __name__ == "__main__":
    main()
