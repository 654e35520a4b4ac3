"""Names as Fathom spells them: op names, dtypes, memory formats.

Fathom resolves ops by ATen's registry name ("aten.add.Tensor"), so every FX target is turned
into that spelling here; targets Fathom does not know keep a readable qualified name, which Fathom refuses by name at load
(or, with --keep-unknown-ops, keeps as opaque nodes); so op_name() never raises.
"""
import operator

import torch

from .errors import UnsupportedGraph

# torch.dtype -> the dump's dtype name (the first spelling the C++ reader accepts).
DTYPE_NAMES = {
    torch.float32: "float32",
    torch.float64: "float64",
    torch.float16: "float16",
    torch.bfloat16: "bfloat16",
    torch.int64: "int64",
    torch.int32: "int32",
    torch.int16: "int16",
    torch.int8: "int8",
    torch.uint8: "uint8",
    torch.bool: "bool",
}

MEMORY_FORMAT_NAMES = {
    torch.contiguous_format: "contiguous_format",
    torch.channels_last: "channels_last",
    torch.preserve_format: "preserve_format",
}

_OPERATOR_FUNCTIONS = {id(f) for f in vars(operator).values() if callable(f)}
_OpOverload = getattr(torch._ops, "OpOverload", None)
_OpOverloadPacket = getattr(torch._ops, "OpOverloadPacket", None)


def dtype_name(dtype, where):
    """The dump's name for `dtype`; `where` (e.g. "%add") says what to blame when it has none."""
    try:
        return DTYPE_NAMES[dtype]
    except KeyError:
        raise UnsupportedGraph(f"{where}: dtype {dtype} has no Fathom equivalent "
                               f"(supported: {', '.join(DTYPE_NAMES.values())})") from None


def op_name(target):
    """ATen's registry name for an FX call_function target; never raises."""
    if _OpOverload is not None and isinstance(target, _OpOverload):
        return str(target)  # "aten.add.Tensor"
    if _OpOverloadPacket is not None and isinstance(target, _OpOverloadPacket):
        # torch 1.13 records torch.ops.aten.sym_size as the packet; its only overload is .default.
        return str(target) + ".default"
    if target is operator.getitem:
        return "getitem"
    if id(target) in _OPERATOR_FUNCTIONS:
        return "operator." + getattr(target, "__name__", str(target))
    if isinstance(target, str):
        return target
    # Custom ops, torch functions, higher-order operators: a stable qualified name.
    module = getattr(target, "__module__", None)
    name = getattr(target, "__qualname__", None) or getattr(target, "__name__", None)
    if name is None and hasattr(target, "name") and callable(target.name):
        try:
            name = target.name()
        except Exception:  # a name is only cosmetic: never let it fail the export
            name = None
    if name is None:
        name = type(target).__qualname__
    if module == "_operator":
        module = "operator"
    return f"{module}.{name}" if module else name
