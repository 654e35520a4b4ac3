"""PyTorch's outputs for the bundled samples (samples/NAME.fathom.json) on the inputs Fathom draws
from the dump's seeds, computed with PyTorch's own nn.functional modules, not from Fathom's graph.
Written to tests/oracle/samples/NAME.json; SampleOracleTest compares Fathom's run with them."""
import json
import os

import torch
import torch.nn.functional as F

import fathom_inputs
from oracle import _values_text

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_inputs(name):
    with open(os.path.join(ROOT, "samples", name + ".fathom.json")) as f:
        dump = json.load(f)
    specs = dump["inputs"]["forward"]
    out = {}
    for spec in specs:
        values = torch.from_numpy(fathom_inputs.materialize(spec))
        out[spec["name"]] = values.to(getattr(torch, spec["dtype"]))
    return out


def mlp(p):
    h = p["x"]
    for i in range(3):
        h = F.linear(h, p["w%d" % i], p["b%d" % i])
        if i < 2:
            h = F.relu(h)
    return [h]


def bert(p):
    """A HuggingFace BertLayer forward in eval mode (dropout off)."""
    x, mask = p["hidden_states"], p["attention_mask"]
    batch, seq, hidden = x.shape
    heads = 12
    head_dim = hidden // heads

    def lin(t, name):
        return F.linear(t, p[name + ".weight"], p[name + ".bias"])

    def split(t):
        return t.view(batch, seq, heads, head_dim).permute(0, 2, 1, 3)

    ext = (1.0 - mask[:, None, None, :].to(torch.float32)) * -10000.0
    q, k, v = (split(lin(x, "attention.self." + n)) for n in ("query", "key", "value"))
    scores = torch.matmul(q, k.transpose(-1, -2)) / (head_dim ** 0.5) + ext
    ctx = torch.matmul(F.softmax(scores, dim=-1), v).permute(0, 2, 1, 3).reshape(batch, seq, hidden)
    attn = F.layer_norm(lin(ctx, "attention.output.dense") + x, [hidden], p["attention.output.LayerNorm.weight"],
                        p["attention.output.LayerNorm.bias"], 1e-12)
    h = F.gelu(lin(attn, "intermediate.dense"))
    out = F.layer_norm(lin(h, "output.dense") + attn, [hidden], p["output.LayerNorm.weight"],
                       p["output.LayerNorm.bias"], 1e-12)
    return [out]


MODELS = {"mlp": mlp, "bert": bert}


def reference_text(name):
    with torch.no_grad():
        outs = MODELS[name](load_inputs(name))
    parts = ['{"dtype":"float32","sizes":%s,"data":%s}' % (json.dumps(list(o.shape)), _values_text(o)) for o in outs]
    return '{"sample":"%s","torch":"%s","outputs":[\n%s\n]}\n' % (name, torch.__version__, ",\n".join(parts))
