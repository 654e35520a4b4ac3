"""Writes tests/data/torch2-sdpa.fathom.json (+ .bin) on a machine with torch 2.x: the reference for
Fathom's _scaled_dot_product_flash_attention_for_cpu and its backward, which torch 1.13 does not
have (so tests/oracle cannot generate cases for them).

    torch2_sdpa.py OUT.fathom.json

One capture_aot of a function with one F.scaled_dot_product_attention per case (no mask, causal,
2-d and 4-d float masks, a value head size unlike the query's, a transposed query, an explicit
scale, float64 and bfloat16), so the dump's forward and backward graphs hold the flash-attention
ops with PyTorch's recorded outputs; `fathom run` and `fathom check` replay them (cli_test.sh).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def cases(torch):
    g = torch.Generator().manual_seed(0)

    def t(*shape, dtype=torch.float32):
        return torch.randn(*shape, generator=g).to(dtype).requires_grad_()

    B, H, L, S, E = 2, 3, 5, 7, 8
    return [
        ("plain", (t(B, H, L, E), t(B, H, S, E), t(B, H, S, E)), {}),
        ("causal", (t(B, H, 6, E), t(B, H, 6, E), t(B, H, 6, E)), {"is_causal": True}),
        ("mask 2-d", (t(B, H, L, E), t(B, H, S, E), t(B, H, S, E), torch.randn(L, S, generator=g)), {}),
        ("mask 4-d over heads", (t(B, H, L, E), t(B, H, S, E), t(B, H, S, E), torch.randn(B, 1, L, S, generator=g)), {}),
        ("value head size 4", (t(B, H, L, E), t(B, H, S, E), t(B, H, S, 4)), {}),
        ("transposed query", (t(B, L, H, E), t(B, H, S, E), t(B, H, S, E)), {"transpose_query": True}),
        ("scale 0.3", (t(B, H, L, E), t(B, H, S, E), t(B, H, S, E)), {"scale": 0.3}),
        ("float64", (t(B, H, L, E, dtype=torch.float64), t(B, H, S, E, dtype=torch.float64),
                     t(B, H, S, E, dtype=torch.float64)), {}),
        ("bfloat16", (t(B, H, L, E, dtype=torch.bfloat16), t(B, H, S, E, dtype=torch.bfloat16),
                      t(B, H, S, E, dtype=torch.bfloat16)), {}),
    ]


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    import torch
    import torch.nn.functional as F

    import fathom_torch
    all_cases = cases(torch)
    flat, spans = [], []
    for _, tensors, _ in all_cases:
        spans.append((len(flat), len(tensors)))
        flat.extend(tensors)

    def f(*xs):
        outs = []
        for (_, _, kw), (at, n) in zip(all_cases, spans):
            q, k, v, *mask = xs[at:at + n]
            kw = dict(kw)
            if kw.pop("transpose_query", False):
                q = q.transpose(1, 2)
            outs.append(F.scaled_dot_product_attention(q, k, v, attn_mask=mask[0] if mask else None, **kw))
        return tuple(outs)

    fathom_torch.capture_aot(f, tuple(flat), argv[1], tangents="randn")
    import json
    with open(argv[1]) as fh:
        doc = json.load(fh)
    for graph in ("forward", "backward"):
        ops = [n.get("op") for n in doc["graphs"][graph]["nodes"] if "scaled_dot_product" in str(n.get("op"))]
        print(graph, len(ops), sorted(set(ops)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
