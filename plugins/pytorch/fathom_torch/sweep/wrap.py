"""Modules as the exporter wants them: train mode without random draws, one flat tuple out."""


def flat_tensors(out):
    """The tensors of a model's output in a stable order: a tensor, a tuple/list, a dict (torchvision's
    segmentation models) or a Hugging Face ModelOutput (its to_tuple order)."""
    import torch
    if isinstance(out, torch.Tensor):
        return [out]
    if hasattr(out, "to_tuple"):
        out = out.to_tuple()
    if isinstance(out, dict):
        out = list(out.values())
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in flat_tensors(o)]
    return []  # None, ints, caches of other kinds: nothing to compare


def no_random_draws(model):
    """Train mode with dropout and stochastic depth off: random draws are Fathom's own, not
    PyTorch's, and every output must be comparable by value."""
    import torch
    model.train()
    for m in model.modules():
        kind = type(m).__name__
        if isinstance(m, (torch.nn.Dropout, torch.nn.Dropout2d, torch.nn.Dropout3d)) or kind in ("StochasticDepth", "DropPath"):
            m.eval()
    return model


def flat_module(model):
    """`model` behind a forward that returns a tuple of tensors."""
    import torch

    class Flat(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, *args):
            return tuple(flat_tensors(self.inner(*args)))

    return Flat(no_random_draws(model))
