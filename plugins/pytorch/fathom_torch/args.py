"""FX node arguments as the dump's argument encoding (engine/dump/README.md, "argument").

Plain JSON for None/bool/int/float/str, lists for lists and tuples, and one-key tagged objects
for what JSON cannot say: {"node": name}, {"dtype": ...}, {"memory_format": ...},
{"layout": "strided"}, {"device": "cpu"}, {"float": "inf"} and {"sym": "2*s0"}. Anything else is
refused with UnsupportedGraph naming the node and the Python type, never silently dropped.
"""
import math

import torch
import torch.fx

from .errors import UnsupportedGraph
from .names import MEMORY_FORMAT_NAMES, dtype_name
from .symbolic import sym_info

_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1
_Node = torch.fx.Node


def encode_arg(value, where, table):
    """The dump's encoding of one argument; `where` ("%add") names the node in errors."""
    t = type(value)
    if t is _Node:
        return {"node": value.name}
    if t is int:
        if not _INT64_MIN <= value <= _INT64_MAX:
            raise UnsupportedGraph(f"{where}: integer argument {value} does not fit in 64 bits")
        return value
    if t is bool or value is None or t is str:
        return value
    if t is float:
        if math.isfinite(value):
            return value
        return {"float": "nan" if math.isnan(value) else ("inf" if value > 0 else "-inf")}
    if isinstance(value, (list, tuple)):  # also torch.Size and FX's immutable_list
        return [encode_arg(v, where, table) for v in value]
    if isinstance(value, torch.dtype):
        return {"dtype": dtype_name(value, where)}
    if isinstance(value, torch.memory_format):
        name = MEMORY_FORMAT_NAMES.get(value)
        if name is None:
            raise UnsupportedGraph(f"{where}: memory format {value} has no Fathom equivalent")
        return {"memory_format": name}
    if isinstance(value, torch.layout):
        if value != torch.strided:
            raise UnsupportedGraph(f"{where}: layout {value} is not supported (only torch.strided)")
        return {"layout": "strided"}
    if isinstance(value, torch.device):
        return {"device": str(value)}
    if isinstance(value, _Node):  # a Node subclass
        return {"node": value.name}
    if isinstance(value, int):  # other int subclasses (bool handled above)
        return encode_arg(int(value), where, table)
    if sym_info(value) is not None:
        v = table.int_or_text(value)
        return v if type(v) is int else {"sym": v}
    raise UnsupportedGraph(f"{where}: argument of type {t.__module__}.{t.__qualname__} "
                           f"({value!r:.60}) has no Fathom encoding")
