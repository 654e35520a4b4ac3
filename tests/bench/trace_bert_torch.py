#!/usr/bin/python3
"""PyTorch 1.13's make_fx(tracing_mode="symbolic") on a BERT-base encoder, for the trace bench.

Prints `ms_per_trace X` (the best of --repeat traces) and `guards N`. The encoder is written with
torch.nn like HuggingFace's BertLayer (the transformers package is not in Debian): self-attention
with an additive mask, output projection + residual + LayerNorm, GELU feed-forward + residual +
LayerNorm; eval mode. Exit 77 when torch is missing.
"""
import argparse
import sys
import time

try:
    import torch
    from torch import nn
    from torch.fx.experimental.proxy_tensor import make_fx
except ImportError:
    print("torch is not installed (apt-get install python3-torch)")
    sys.exit(77)


class Layer(nn.Module):
    def __init__(self, hidden=768, heads=12, intermediate=3072):
        super().__init__()
        self.heads, self.head_dim = heads, hidden // heads
        self.query, self.key, self.value = nn.Linear(hidden, hidden), nn.Linear(hidden, hidden), nn.Linear(hidden, hidden)
        self.attn_out, self.norm1 = nn.Linear(hidden, hidden), nn.LayerNorm(hidden, eps=1e-12)
        self.inter, self.out, self.norm2 = nn.Linear(hidden, intermediate), nn.Linear(intermediate, hidden), nn.LayerNorm(hidden, eps=1e-12)

    def split(self, x):
        b, s = x.size(0), x.size(1)
        return x.view(b, s, self.heads, self.head_dim).permute(0, 2, 1, 3)

    def forward(self, x, mask):
        q, k, v = self.split(self.query(x)), self.split(self.key(x)), self.split(self.value(x))
        scores = torch.matmul(q, k.transpose(-1, -2)) / (self.head_dim ** 0.5) + mask
        ctx = torch.matmul(scores.softmax(-1), v).permute(0, 2, 1, 3).contiguous()
        ctx = ctx.view(x.size(0), x.size(1), self.heads * self.head_dim)
        h = self.norm1(self.attn_out(ctx) + x)
        return self.norm2(self.out(nn.functional.gelu(self.inter(h))) + h)


class Encoder(nn.Module):
    def __init__(self, layers):
        super().__init__()
        self.layer = nn.ModuleList([Layer() for _ in range(layers)])

    def forward(self, x, mask):
        for layer in self.layer:
            x = layer(x, mask)
        return x


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layers", type=int, default=12)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--seq", type=int, default=128)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    torch.manual_seed(0)
    model = Encoder(args.layers).eval()
    x = torch.randn(args.batch, args.seq, 768)
    # The additive mask [batch, 1, 1, seq], made outside: 1.13's symbolic mode cannot index with None.
    mask = torch.zeros(args.batch, 1, 1, args.seq)
    # Parameters are inputs, as AOTAutograd passes them (fake mode cannot read real parameters).
    params = dict(model.named_parameters())

    def forward(params, x, mask):
        return torch.nn.utils.stateless.functional_call(model, params, (x, mask))

    best, graph = float("inf"), None
    with torch.no_grad():
        for _ in range(args.repeat):
            start = time.perf_counter()
            graph = make_fx(forward, tracing_mode="symbolic")(params, x, mask)
            best = min(best, time.perf_counter() - start)
    env = getattr(graph, "shape_env", None)
    guards = len(env.guards) if env is not None and hasattr(env, "guards") else -1
    print(f"nodes {len(graph.graph.nodes)}")
    print(f"guards {guards}")
    print(f"ms_per_trace {best * 1000:.1f}")


if __name__ == "__main__":
    main()
