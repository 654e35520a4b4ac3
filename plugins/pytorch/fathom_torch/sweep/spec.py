"""What the sweep needs to know of one model: how to build it, its inputs, its dynamic dims.

A ModelSpec builds its module from code (random weights, seeded, nothing downloaded) and its
example inputs for a given batch size (and sequence length, for models that have one). The
module is wrapped so that it returns a flat tuple of tensors (torchvision's segmentation models
return a dict, Hugging Face's a ModelOutput), which is what the exporter and `fathom run` compare.
"""
import dataclasses
import re
from typing import Callable, Optional, Tuple

# Batch sizes a dynamic capture must accept without a recompile (the symbolic-shapes effort's
# "no recompilation with variable batch size").
BATCH_RANGE = (1, 64)


@dataclasses.dataclass
class InputSpec:
    """One input tensor: dtype, sizes with the batch at dim 0 (and maybe a sequence dim), and for
    integer inputs the exclusive upper bound of their values (token ids below the vocabulary)."""
    sizes: Tuple[int, ...]
    dtype: str = "float32"
    high: Optional[int] = None
    seq_dim: Optional[int] = None  # the dim that is a sequence length, when the model has one

    def make(self, gen, batch=None, seq=None):
        import torch
        sizes = list(self.sizes)
        if batch is not None:
            sizes[0] = batch
        if seq is not None and self.seq_dim is not None:
            sizes[self.seq_dim] = seq
        dtype = getattr(torch, self.dtype)
        if dtype.is_floating_point:
            return torch.randn(sizes, generator=gen, dtype=dtype)
        return torch.randint(0, self.high or 2, sizes, generator=gen, dtype=dtype)

    def text(self):
        dims = "x".join(str(s) for s in self.sizes)
        if self.dtype == "float32":
            return dims
        return f"{self.dtype}:{dims}" + (f":{self.high}" if self.high is not None else "")


@dataclasses.dataclass
class ModelSpec:
    name: str
    build: Callable[[], object]          # -> nn.Module (train mode, random weights)
    inputs: Tuple[InputSpec, ...]
    seq_range: Optional[Tuple[int, int]] = None  # sequence lengths the model takes, when it has one
    batch_range: Tuple[int, int] = BATCH_RANGE
    tol: Optional[float] = None          # a wider accuracy-rule tolerance, with the reason in the table
    note: str = ""

    def example(self, batch=None, seq=None, seed=0):
        import torch
        gen = torch.Generator().manual_seed(seed)
        return tuple(i.make(gen, batch, seq) for i in self.inputs)

    def input_text(self):
        return ",".join(i.text() for i in self.inputs)


_INPUT = re.compile(r"^(?:(?P<dtype>[a-z0-9]+):)?(?P<dims>\d+(?:x\d+)*)(?::(?P<high>\d+))?(?:@(?P<seq>\d+))?$")


def parse_inputs(text):
    """`--inputs` as InputSpecs: comma-separated tensors, each [DTYPE:]DxDx...[:HIGH][@SEQDIM], e.g.
    `2x3x64x64` (float32 randn) or `int64:2x16:1000@1,int64:2x16:2@1` (token ids below 1000 and a
    mask, dim 1 a sequence). Raises ValueError naming the bad item."""
    import torch
    specs = []
    for item in text.split(","):
        m = _INPUT.match(item.strip())
        if not m:
            raise ValueError(f"bad input '{item}': expected [DTYPE:]DxD...[:HIGH][@SEQDIM], e.g. 2x3x64x64 or int64:2x16:1000@1")
        dtype = m["dtype"] or "float32"
        if not isinstance(getattr(torch, dtype, None), torch.dtype):
            raise ValueError(f"bad input '{item}': '{dtype}' is not a torch dtype")
        sizes = tuple(int(d) for d in m["dims"].split("x"))
        seq = int(m["seq"]) if m["seq"] else None
        if seq is not None and not 0 < seq < len(sizes):
            raise ValueError(f"bad input '{item}': the sequence dim {seq} must be between 1 and {len(sizes) - 1}")
        specs.append(InputSpec(sizes, dtype, int(m["high"]) if m["high"] else None, seq))
    return tuple(specs)


def namespace():
    """What a --model expression may name: torch, nn, and whichever of torchvision, transformers and
    timm are installed."""
    import importlib
    import torch
    ns = {"torch": torch, "nn": torch.nn}
    for mod in ("torchvision", "transformers", "timm"):
        try:
            ns[mod] = importlib.import_module(mod)
        except ImportError:
            pass
    return ns


def from_expression(expr, inputs_text, name=None):
    """A ModelSpec for `--model EXPR --inputs SHAPES`."""
    inputs = parse_inputs(inputs_text)
    seq = next((i.sizes[i.seq_dim] for i in inputs if i.seq_dim is not None), None)

    def build():
        return eval(expr, namespace())  # the user's own expression, as the zoo test's table holds them

    return ModelSpec(name or expr, build, inputs, seq_range=(1, max(seq * 4, 64)) if seq else None)
