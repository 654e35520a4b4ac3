"""What the bench scripts next to this file share: fathom_torch (plugins/pytorch) and its test
models (plugins/pytorch/tests/models.py) on the import path, and the 12-layer BERT-base they
measure, with its command-line options."""
import os
import sys

_PLUGIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plugins", "pytorch")
sys.path.insert(0, _PLUGIN)
sys.path.insert(0, os.path.join(_PLUGIN, "tests"))


def add_bert_options(parser, seq):
    parser.add_argument("--layers", type=int, default=12)
    parser.add_argument("--batch", type=int, default=2)
    parser.add_argument("--seq", type=int, default=seq)


def bert_base(args):
    """BERT-base (hidden 768, 12 heads) with args.layers layers, in training mode, and its inputs;
    torch uses every core."""
    import torch
    import models
    torch.set_num_threads(max(1, os.cpu_count() or 1))
    model, inputs = models.bert(layers=args.layers, batch=args.batch, seq=args.seq, hidden=768, heads=12, inner=3072,
                                vocab=30522)
    model.train()
    return model, inputs
