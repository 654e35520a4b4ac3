"""One FX GraphModule as the dump's node list.

Fathom's graphs are: placeholders first, then calls, then exactly one output node. FX graphs
get there with two rewrites, both recorded on the GraphExport:
  * get_attr nodes (parameters, buffers and constants that make_fx of an nn.Module lifts as
    attributes) become placeholders named after the node, placed after the graph's own
    placeholders in their original relative order; their example input is the attribute's
    tensor. `attributes` maps each such placeholder to the attribute (or, with `attr_names`,
    the module's qualified parameter name), and that name's module path becomes meta.module;
    placeholders the caller names as parameters (`param_names`, e.g. capture_make_fx of an
    nn.Module) are listed and annotated the same way.
  * the output node's returned structure is flattened fully (nested tuples/lists and dict
    values, in order) into one flat list, because Fathom's output node takes a flat list of
    values; recorded outputs are flattened the same way so the two line up.
call_module / call_method nodes (plain symbolic_trace graphs) are not ATen ops: refused.
"""
import json

import torch

from .args import encode_arg
from .errors import UnsupportedGraph
from .names import op_name
from .sources import node_source
from .tensors import _OMIT, val_meta

_dumps = json.JSONEncoder(separators=(",", ":"), allow_nan=False, ensure_ascii=False).encode


def flatten(value):
    """Lists, tuples and dict values flattened fully, in order; anything else is one item."""
    if isinstance(value, (list, tuple)):
        out = []
        for v in value:
            if isinstance(v, (list, tuple, dict)):
                out.extend(flatten(v))
            else:
                out.append(v)
        return out
    if isinstance(value, dict):
        return flatten(list(value.values()))
    return [value]


def _fetch_attr(gm, target, where):
    obj = gm
    for part in target.split("."):
        if not hasattr(obj, part):
            raise UnsupportedGraph(f"{where}: get_attr target '{target}' does not exist on the module")
        obj = getattr(obj, part)
    if not isinstance(obj, torch.Tensor):
        raise UnsupportedGraph(f"{where}: get_attr of a {type(obj).__name__} (only tensors can become inputs)")
    return obj


def _meta_val(node):
    meta = node.meta
    v = meta.get("val")
    if v is None:
        v = meta.get("tensor_meta")  # torch 1.13 real-mode make_fx and aot graphs
    return v


def needs_real_val(node):
    """True when the trace left no fake value: only tensor_meta (which has no storage offset),
    or nothing at all (torch 1.13's multi-output ops). A real run then supplies the offset, or
    the whole layout where nothing was recorded."""
    return node.meta.get("val") is None


def _with_real_offsets(traced, real):
    """`traced` (tensor_meta's dtype, sizes and strides) completed with the real run's storage
    offsets, so `fathom check` still compares PyTorch's traced layout with the real one; `real`
    where nothing was traced (torch 1.13's multi-output ops)."""
    if traced is None:
        return real
    if isinstance(traced, dict) and isinstance(real, dict):
        if "offset" not in traced and "offset" in real and len(real.get("sizes", ())) == len(traced["sizes"]):
            traced = dict(traced, offset=real["offset"])
        return traced
    if isinstance(traced, list) and isinstance(real, list) and len(traced) == len(real):
        return [_with_real_offsets(t, r) for t, r in zip(traced, real)]
    return traced


def _without_offsets(val):
    """A tensor val (or a list of them) without its storage offset."""
    if isinstance(val, dict):
        return {k: v for k, v in val.items() if k != "offset"}
    if isinstance(val, list):
        return [_without_offsets(v) for v in val]
    return val


def _module_path(node):
    stack = node.meta.get("nn_module_stack")  # torch 2.x only
    if not stack:
        return None
    last = list(stack.values())[-1]
    path = last[0] if isinstance(last, tuple) else last
    path = str(path)
    for prefix in ("L['self'].", "self."):
        if path.startswith(prefix):
            path = path[len(prefix):]
    return path or None


class GraphExport:
    """The dump's view of one GraphModule: node order, inputs to supply, node lines."""

    def __init__(self, gm, name, stage=None, attr_names=None, param_names=None):
        self.gm, self.name, self.stage = gm, name, stage
        # Node name -> (target, val) measured on a real run; used only where the trace left no
        # fake value, and never in a symbolic graph (a concrete layout would be wrong there).
        self.real_vals = {}
        self.real_offsets = False  # a trace on real tensors: storage offsets from the real run
        self.symbolic = False
        self.vals = {}  # node name -> the val written for it (filled by lines())
        self.placeholders, self.attrs, self.calls, self.output = [], [], [], None
        for n in gm.graph.nodes:
            op = n.op
            if op == "call_function":
                self.calls.append(n)
            elif op == "placeholder":
                self.placeholders.append(n)
            elif op == "get_attr":
                self.attrs.append(n)
            elif op == "output":
                self.output = n
            elif op in ("call_module", "call_method"):
                raise UnsupportedGraph(f"%{n.name}: {op} nodes are not ATen; trace with make_fx or aot_function")
            else:
                raise UnsupportedGraph(f"%{n.name}: FX node kind '{op}' is not supported")
        if self.output is None:
            raise UnsupportedGraph(f"graph '{name}' has no output node")
        self.attr_tensors = [_fetch_attr(gm, n.target, f"%{n.name}") for n in self.attrs]
        attr_names = attr_names or {}
        # placeholder name -> the module attribute it stands for (the parameter's qualified name
        # if known): moved get_attr nodes, and placeholders the caller says are parameters
        self.attributes = {n.name: q for n in self.placeholders if (q := (param_names or {}).get(n.name))}
        self.attributes.update({n.name: attr_names.get(n.target, n.target) for n in self.attrs})

    @property
    def input_names(self):
        return [n.name for n in self.placeholders] + [n.name for n in self.attrs]

    def output_values(self):
        return flatten(self.output.args[0]) if self.output.args else []

    def scan(self, table):
        """Name the symbols of the placeholders' sizes and strides, in order."""
        for n in self.placeholders:
            v = _meta_val(n)
            if isinstance(v, torch.Tensor):
                sizes, strides = list(v.shape), list(v.stride())
            elif v is not None and hasattr(v, "shape") and hasattr(v, "stride"):
                sizes, strides = list(v.shape), list(v.stride)
            else:
                continue
            if any(type(d) is not int for d in sizes + strides):
                self.symbolic = True
                table.note_placeholder(self.name, n.name, sizes, strides)

    def lines(self, table):
        """The nodes as compact JSON texts, placeholders (get_attr ones last) first."""
        out = []
        stage = self.stage
        op_names = {}
        for n in self.placeholders:
            out.append(self._line(n, "placeholder", table, stage, op_names, self.attributes.get(n.name)))
        for n, tensor in zip(self.attrs, self.attr_tensors):
            d = {"name": n.name, "kind": "placeholder"}
            meta = {}
            v = _meta_val(n)
            meta["val"] = self.vals[n.name] = val_meta(v if v is not None else tensor, table, f"%{n.name}")
            qualified = self.attributes[n.name]
            if "." in qualified:
                meta["module"] = qualified.rsplit(".", 1)[0]
            if stage:
                meta["stage"] = stage
            d["meta"] = meta
            out.append(_dumps(d))
        for n in self.calls:
            out.append(self._line(n, "call", table, stage, op_names))
        n = self.output
        where = f"%{n.name}"
        d = {"name": n.name, "kind": "output",
             "args": [[encode_arg(v, where, table) for v in self.output_values()]]}
        if stage:
            d["meta"] = {"stage": stage}
        out.append(_dumps(d))
        return out

    def _line(self, n, kind, table, stage, op_names, attribute=None):
        where = f"%{n.name}"
        d = {"name": n.name, "kind": kind}
        if kind == "call":
            target = n.target
            try:
                name = op_names.get(target)
                if name is None:
                    name = op_names[target] = op_name(target)
            except TypeError:  # an unhashable target
                name = op_name(target)
            d["op"] = name
            if n.args:
                d["args"] = [encode_arg(a, where, table) for a in n.args]
            if n.kwargs:
                d["kwargs"] = {k: encode_arg(v, where, table) for k, v in n.kwargs.items()}
        meta = {}
        v = _meta_val(n)
        if v is not None:
            v = val_meta(v, table, where)
            if v is _OMIT:
                v = None
        real = self.real_vals.get(n.name) if not self.symbolic else None
        if real is not None and real[0] == n.target and self.real_offsets:
            v = _with_real_offsets(_without_offsets(v), real[1])
        elif real is not None and real[0] == n.target and n.meta.get("val") is None:
            # No fake value: keep what the trace recorded (tensor_meta) and take from the real
            # run only what it lacks - the storage offset, or everything when nothing was recorded.
            v = _with_real_offsets(v, real[1])
        if v is not None:
            meta["val"] = self.vals[n.name] = v
        meta_in = n.meta
        source = node_source(meta_in.get("stack_trace"))
        if source:
            meta["source"] = source
        module = _module_path(n)
        if attribute is not None and "." in attribute:
            module = attribute.rsplit(".", 1)[0]
        if module:
            meta["module"] = module
        if stage:
            meta["stage"] = stage
        if meta:
            d["meta"] = meta
        return _dumps(d)
