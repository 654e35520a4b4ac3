"""The dump document: graphs, shape_env, example inputs, recorded outputs, side file.

The document is built as text, one node (or input) per line in compact JSON, in the key order
the C++ writer uses: format, version, producer, shape_env, graphs, inputs, outputs, partition.
Both files are written atomically (temporary file + rename), the side file first, so a reader
never sees a half-written file or a new dump without its side file (a dump being replaced may,
for a moment, sit next to its successor's side file).
"""
import json
import os
import time
import warnings

import torch
import torch.fx

from . import __version__
from .errors import UnsupportedGraph
from .graph import GraphExport, flatten, needs_real_val
from .partition import PartitionUnavailable
from .symbolic import SymbolTable
from .tensors import _OMIT, SideFile, TensorRecord, entry, record, tensor_key, val_meta

_dumps = json.JSONEncoder(separators=(",", ":"), allow_nan=False, ensure_ascii=False).encode


class ExportResult(str):
    """The dump's path (a str), with `.summary`: {"path", "graphs": {name: nodes}, "side_file",
    "side_file_bytes", "seconds", "attributes", "skipped_guards", "partition": None or
    {"forward", "saved", "saved_bytes"}}, and `.graph_modules`: {graph name: the exported
    GraphModule}."""

    summary = None
    graph_modules = None


def side_file_path(path):
    """model.fathom.json -> model.fathom.bin; any other name: path + ".bin"."""
    if path.endswith(".fathom.json"):
        return path[: -len(".json")] + ".bin"
    return path + ".bin"


class _ConcreteTable:
    """A SymbolTable stand-in for real values, whose sizes are plain ints."""

    @staticmethod
    def int_or_text(value):
        return int(value)


class _RecordingInterpreter(torch.fx.Interpreter):
    """Runs a graph node by node, noting the real layout of the nodes in `want`."""

    def __init__(self, gm, want):
        super().__init__(gm)
        self.want, self.vals = want, {}

    def run_node(self, n):
        result = super().run_node(n)
        if n.name in self.want:
            try:
                v = val_meta(result, _ConcreteTable, f"%{n.name}")
            except (UnsupportedGraph, TypeError, ValueError):
                v = _OMIT
            if v is not _OMIT:
                self.vals[n.name] = (n.target, v)
        return result


def run_recording(gm, inputs, grad=False, every_node=False):
    """(output, flat outputs, {node: (target, val)}) of one real run of `gm` on flat `inputs`;
    `output` is the output node's value with its structure (plain lists, not FX's immutable
    ones, so AOT's runtime can use it as the graph's return value).

    The graph runs under an Interpreter, fed placeholder by placeholder (so pytree-codegen
    graphs such as AOT's joint work too), recording the real layout of every node the trace
    left without a fake value: torch 1.13's tensor_meta has no storage offset, and its
    multi-output ops have no meta at all. every_node: record every node (a trace on real
    tensors, whose storage offsets come from this run: DumpWriter.add_graph's real_offsets).
    """
    want = {n.name for n in gm.graph.nodes
            if n.op in ("placeholder", "call_function") and (every_node or needs_real_val(n))}
    interp = _RecordingInterpreter(gm, want)
    with torch.set_grad_enabled(grad):
        out = interp.run(*inputs, enable_io_processing=False)
    if isinstance(out, list):
        out = list(out)
    return out, flatten(out), interp.vals


def run_graph(gm, inputs):
    """PyTorch's real outputs of `gm` for `inputs` (under no_grad), flattened like the output
    node's values."""
    return run_recording(gm, inputs)[1]


def _atomic_write(path, write):
    tmp = f"{path}.tmp.{os.getpid()}"
    try:
        with open(tmp, "wb") as f:
            write(f)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


class _Graph:
    __slots__ = ("export", "inputs", "outputs")

    def __init__(self, export, inputs, outputs):
        self.export, self.inputs, self.outputs = export, inputs, outputs


class DumpWriter:
    """Collects graphs (with their example inputs and recorded outputs) and saves one dump.

    All graphs share one SymbolTable, i.e. one shape_env: symbols are named s0, s1, ... in order
    of first appearance over the graphs' placeholders in the order the graphs were added.
    """

    def __init__(self, *, producer=None, inline_limit=64, guard_stage=None):
        self.producer = {"tool": "fathom_torch", "version": __version__, "torch": str(torch.__version__)}
        for k, v in (producer or {}).items():
            if v is not None:
                self.producer[str(k)] = str(v)
        self.inline_limit = inline_limit
        self.guard_stage = guard_stage
        self._graphs = []
        self._partition = None  # the partition section (set_partition), saved values without meta
        self._records = {}  # tensor_key -> TensorRecord: one snapshot per tensor, however often given

    @property
    def graph_names(self):
        return [g.export.name for g in self._graphs]

    def add_graph(self, name, gm, inputs=None, outputs=None, *, stage=None, attr_names=None, param_names=None,
                  snapshot=True, real_vals=None, measure=False, real_offsets=False):
        """Add `gm` as graph `name`.

        inputs: real tensors (or TensorRecords), one per placeholder of `gm` in order; the
          tensors of get_attr nodes are appended automatically.
        outputs: None, True (run `gm` on the inputs under no_grad to record PyTorch's results),
          or the values to record (flattened like the output node). Ignored without inputs.
        stage: meta.stage of every node (default: the graph's name).
        attr_names: {get_attr target: qualified name}, for the attributes' meta.module.
        param_names: {placeholder name: qualified name} for placeholders that are parameters.
        snapshot: copy non-parameter input tensors now, so in-place updates made later (by
          running the graph, say) do not change what the dump records.
        real_vals: {node name: (target, val)} from a real run (run_recording), for nodes whose
          trace left no fake value; outputs=True gathers them itself.
        measure: run `gm` on the inputs for real_vals even when no outputs are recorded.
        real_offsets: the trace ran on real tensors, so its storage offsets are taken from the real
          run (torch 2.x's real-mode make_fx snapshots each value with empty_strided, offset 0).
        """
        if name in self.graph_names:
            raise ValueError(f"graph '{name}' was already added")
        ge = GraphExport(gm, name, name if stage is None else stage, attr_names, param_names)
        ge.real_offsets = real_offsets
        if real_vals:
            ge.real_vals.update(real_vals)
        recs = None
        if inputs is not None:
            inputs = list(inputs)
            if len(inputs) != len(ge.placeholders):
                raise ValueError(f"graph '{name}' has {len(ge.placeholders)} placeholders but "
                                 f"{len(inputs)} example inputs were given")
            recs = self._input_records(name, ge, inputs, snapshot)
        outs = None
        values = None
        if recs is not None and (outputs is True or (measure and not outputs)):
            _, values, vals = run_recording(gm, inputs, every_node=real_offsets)
            ge.real_vals.update(vals)
        if recs is not None and outputs is not None and outputs is not False:
            if outputs is not True:
                values = flatten(list(outputs))
            expected = len(ge.output_values())
            if len(values) != expected:
                warnings.warn(f"fathom_torch: graph '{name}' returns {expected} values but {len(values)} "
                              "outputs were recorded; writing no outputs for it", stacklevel=2)
            else:
                outs = [v if isinstance(v, TensorRecord) or v is None else record(v, f"{name} output {i}")
                        for i, v in enumerate(values)]
        self._graphs.append(_Graph(ge, recs, outs))
        return ge

    def set_partition(self, section):
        """Write `section` (fathom_torch.partition.derive) as the dump's "partition": how AOT
        autograd split the joint graph. Each saved value's dtype and sizes (a SymInt's value) are
        the forward graph's val for it, filled in by save(); when that is not possible the dump
        is written without the section, with a warning saying why. None removes it."""
        self._partition = section

    def _record(self, tensor, where, snapshot):
        key = tensor_key(tensor)
        rec = self._records.get(key)
        if rec is None:
            rec = self._records[key] = TensorRecord(tensor, where, snapshot)
        return rec

    def _input_records(self, name, ge, inputs, snapshot):
        recs = []
        for node, value in zip(ge.placeholders, inputs):
            if isinstance(value, TensorRecord):
                recs.append(value)
            elif isinstance(value, torch.Tensor):
                recs.append(self._record(value, f"{name} input '{node.name}'", snapshot))
            elif type(value) is int or type(value).__name__ == "SymInt":
                recs.append(int(value))  # a size input of a torch 2.x dynamic graph: {"name", "int"}
            else:
                warnings.warn(f"fathom_torch: graph '{name}' input '{node.name}' is a "
                              f"{type(value).__name__}, not a tensor; writing no inputs for this graph",
                              stacklevel=3)
                return None
        for node, tensor in zip(ge.attrs, ge.attr_tensors):
            recs.append(self._record(tensor, f"{name} attribute '{node.target}'", snapshot))
        return recs

    def save(self, path):
        """Write the dump (and its side file when needed); returns an ExportResult."""
        if not self._graphs:
            raise ValueError("no graphs to save")
        start = time.perf_counter()
        path = os.fspath(path)
        table = SymbolTable()
        for g in self._graphs:
            g.export.scan(table)
        graph_lines = [(g.export.name, g.export.lines(table)) for g in self._graphs]
        partition = None
        if self._partition is not None:
            try:
                partition = _partition_with_meta(self._partition, {g.export.name: g.export for g in self._graphs})
            except PartitionUnavailable as e:
                warnings.warn(f"fathom_torch: writing the dump without a partition section: {e}", stacklevel=2)

        side_path = side_file_path(path)
        side = SideFile(side_path, os.path.basename(side_path))
        inputs, outputs = [], []
        for g in self._graphs:
            if g.inputs is None:
                continue
            names = g.export.input_names
            inputs.append((g.export.name, [_dumps(entry(n, r, self.inline_limit, side))
                                           for n, r in zip(names, g.inputs)]))
            if g.outputs is not None:
                outputs.append((g.export.name, ["null" if r is None else
                                                _dumps(entry(f"out{i}", r, self.inline_limit, side))
                                                for i, r in enumerate(g.outputs)]))
        shape_env = table.section(self.guard_stage)

        parts = ['{\n  "format": "fathom-dump",\n  "version": 1,\n  "producer": ', _dumps(self.producer)]
        if shape_env is not None:
            parts.append(',\n  "shape_env": ')
            parts.append(_shape_env_text(shape_env))
        parts.append(',\n  "graphs": {\n')
        parts.append(",\n".join(f'    {_dumps(name)}: {{\n      "nodes": [\n        '
                                + ",\n        ".join(lines) + "\n      ]\n    }"
                                for name, lines in graph_lines))
        parts.append("\n  }")
        for key, section in (("inputs", inputs), ("outputs", outputs)):
            if section:
                parts.append(f',\n  "{key}": {{\n')
                parts.append(",\n".join(_list_text(name, items) for name, items in section))
                parts.append("\n  }")
        if partition is not None:
            parts.append(',\n  "partition": ')
            parts.append(_partition_text(partition))
        parts.append("\n}\n")
        text = "".join(parts).encode("utf-8")

        if side:
            _atomic_write(side_path, side.write_to)
        _atomic_write(path, lambda f: f.write(text))
        result = ExportResult(path)
        result.summary = {
            "path": path,
            "graphs": {name: len(lines) for name, lines in graph_lines},
            "side_file": side_path if side else None,
            "side_file_bytes": side.size if side else 0,
            "seconds": time.perf_counter() - start,
            "attributes": {g.export.name: dict(g.export.attributes) for g in self._graphs if g.export.attributes},
            "skipped_guards": len(table.skipped_guards),
            "partition": None if partition is None else {
                "forward": partition["forward"], "saved": len(partition["saved"]),
                "saved_bytes": partition["saved_bytes"]},
        }
        result.graph_modules = {g.export.name: g.export.gm for g in self._graphs}
        return result


def _list_text(name, items):
    if not items:
        return f"    {_dumps(name)}: []"
    return f"    {_dumps(name)}: [\n      " + ",\n      ".join(items) + "\n    ]"


def _partition_with_meta(section, exports):
    """`section` with saved_bytes and each saved value's kind and meta, from the forward graph's
    written vals (so sizes are in the dump's own symbols)."""
    for key in ("joint", "forward", "backward"):
        if section[key] not in exports:
            raise PartitionUnavailable(f"graph '{section[key]}' is not in the dump")
    vals = exports[section["forward"]].vals
    saved = []
    for s in section["saved"]:
        v = vals.get(s["name"])
        if isinstance(v, dict) and "dtype" in v and "sizes" in v:
            saved.append({"name": s["name"], "kind": "tensor", "dtype": v["dtype"], "sizes": v["sizes"],
                          "bytes": s["bytes"]})
        elif type(v) is int or isinstance(v, str):
            saved.append({"name": s["name"], "kind": "symint", "value": v, "bytes": s["bytes"]})
        else:
            raise PartitionUnavailable(f"saved value '{s['name']}' has no tensor or SymInt val in graph "
                                       f"'{section['forward']}'")
    out = {k: section[k] for k in ("partitioner", "joint", "forward", "backward", "mutated_inputs",
                                   "forward_outputs")}
    out["saved_bytes"] = sum(s["bytes"] for s in saved)
    out["grad_inputs"] = section["grad_inputs"]
    out["saved"] = saved
    return out


def _partition_text(p):
    """As the C++ writer lays it out (PartitionJson.cpp): the head on one line, then one saved
    value per line."""
    head = _dumps({k: v for k, v in p.items() if k != "saved"})[:-1]
    if not p["saved"]:
        return head + ',"saved":[]}'
    return head + ',"saved":[\n    ' + ",\n    ".join(_dumps(s) for s in p["saved"]) + "\n  ]}"


def _shape_env_text(se):
    parts = ['{\n    "options": ', _dumps(se["options"]), ',\n    "symbols": [']
    if se["symbols"]:
        parts.append("\n      " + ",\n      ".join(_dumps(s) for s in se["symbols"]) + "\n    ")
    parts.append("]")
    if se["replacements"]:
        parts.append(',\n    "replacements": ' + _dumps(se["replacements"]))
    if se["guards"]:
        parts.append(',\n    "guards": [\n      ' + ",\n      ".join(_dumps(g) for g in se["guards"]) + "\n    ]")
    parts.append("\n  }")
    return "".join(parts)


def export_graph_module(gm, path, example_inputs=None, *, graph_name="forward", outputs=True,
                        inline_limit=64, producer=None, stage=None, attr_names=None, param_names=None,
                        real_offsets=False):
    """Write `gm` (an FX GraphModule with meta["val"] or meta["tensor_meta"], e.g. from make_fx or
    ShapeProp) as a dump at `path`. With real `example_inputs` the dump carries them, and with
    outputs=True also PyTorch's results of gm(*example_inputs). Returns the path (ExportResult).
    attr_names / param_names name the module parameters behind get_attr targets / placeholders.
    real_offsets: as DumpWriter.add_graph's (a trace on real tensors).
    """
    prod = {"mode": "graph_module"}
    prod.update(producer or {})
    writer = DumpWriter(producer=prod, inline_limit=inline_limit, guard_stage="trace")
    inputs = None if example_inputs is None else _as_tuple(example_inputs)
    writer.add_graph(graph_name, gm, inputs, outputs=True if outputs and inputs is not None else None,
                     stage=stage, attr_names=attr_names, param_names=param_names, measure=True,
                     real_offsets=real_offsets)
    return writer.save(path)


def _as_tuple(example_inputs):
    if isinstance(example_inputs, torch.Tensor):
        return (example_inputs,)
    return tuple(example_inputs)
