"""Tensors in the dump: recorded meta ("val"), and example inputs / recorded outputs with data.

An example input or recorded output is tensor meta (the real tensor's sizes, strides and
storage offset, so non-contiguous inputs keep their layout) plus its values in row-major
logical order, either inline ("data", small and finite tensors) or as raw little-endian bytes
in the dump's one side file ("file" + "file_offset", 64-byte aligned). Big tensors go to the
side file because JSON text of a few hundred MB of floats is slow to write and to read.
"""
import sys

import numpy as np
import torch

from .errors import UnsupportedGraph
from .names import dtype_name
from .symbolic import sym_info

try:
    from torch._subclasses.fake_tensor import FakeTensor as _FakeTensor
except ImportError:  # pragma: no cover - very old torch
    _FakeTensor = ()

_ALIGN = 64
_CHUNK = 16 << 20
_OMIT = object()  # a val the dump cannot hold: leave "val" out rather than guess


def _is_tensor_metadata(v):
    # torch.fx.passes.shape_prop.TensorMetadata is a NamedTuple: test before the tuple case.
    fields = getattr(type(v), "_fields", None)
    return fields is not None and "shape" in fields and "stride" in fields and "dtype" in fields


def val_meta(value, table, where):
    """The dump's val for a node's meta["val"] / meta["tensor_meta"], or _OMIT."""
    if value is None:
        return None
    if isinstance(value, torch.Tensor):
        if value.layout != torch.strided:
            raise UnsupportedGraph(f"{where}: {value.layout} tensors are not supported")
        out = {"dtype": dtype_name(value.dtype, where),
               "sizes": [table.int_or_text(s) for s in value.shape],
               "strides": [table.int_or_text(s) for s in value.stride()],
               "offset": table.int_or_text(value.storage_offset())}
        device = str(value.device)
        if device != "cpu":
            out["device"] = device
        return out
    if _is_tensor_metadata(value):
        # ShapeProp / torch 1.13 real-mode make_fx and AOT: no storage offset is recorded, so
        # none is written here (the reader assumes 0) rather than a guess; when the graph runs
        # on real inputs, GraphExport adds the real run's offset (graph._with_real_offsets).
        return {"dtype": dtype_name(value.dtype, where),
                "sizes": [table.int_or_text(s) for s in value.shape],
                "strides": [table.int_or_text(s) for s in value.stride]}
    t = type(value)
    if t is int:
        return value
    if t is bool or t is float:
        return _OMIT
    if isinstance(value, (list, tuple)):
        items = [val_meta(v, table, where) for v in value]
        return [None if v is _OMIT else v for v in items]
    if sym_info(value) is not None:
        return table.int_or_text(value)
    return _OMIT


class TensorRecord:
    """A real tensor captured as an example input or output: its layout and its data.

    The record keeps the detached tensor itself and makes the contiguous CPU copy of its
    logical values only when the dump is written, one tensor at a time. With snapshot=True
    (inputs, which a graph may mutate in place, e.g. BatchNorm running stats) it keeps a copy
    instead, except for leaf tensors requiring grad (parameters): they are by far the largest
    inputs and nothing changes them before the dump is written.

    `key` identifies the bytes: the same view (data pointer, dtype, sizes, strides, device) at
    the same version counter has the same logical values, so the side file stores it once even
    when it was recorded several times (a parameter is a forward input, a saved value, a
    backward input and a joint input; a saved transposed weight is a forward output and a
    backward input).
    """
    __slots__ = ("dtype", "sizes", "strides", "offset", "tensor", "key", "numel")

    def __init__(self, tensor, where, snapshot=False):
        if isinstance(tensor, _FakeTensor) or tensor.device.type == "meta":
            raise ValueError(f"{where}: example inputs must be real tensors, not fake or meta ones")
        if tensor.layout != torch.strided:
            raise UnsupportedGraph(f"{where}: {tensor.layout} tensors are not supported")
        self.dtype = dtype_name(tensor.dtype, where)
        self.sizes = list(tensor.shape)
        self.strides = list(tensor.stride())
        self.offset = tensor.storage_offset()
        self.numel = tensor.numel()
        t = tensor.detach()
        if snapshot and self.numel and not (tensor.is_leaf and tensor.requires_grad):
            t = t.clone(memory_format=torch.contiguous_format)
        self.tensor = t
        self.key = tensor_key(t)

    @property
    def data(self):
        """The logical values: a contiguous CPU tensor (a copy only when needed)."""
        t = self.tensor
        if t.device.type != "cpu":
            t = t.cpu()
        return t.contiguous()


def tensor_key(t):
    """Identifies a tensor's logical values while it is alive: the same view of the same memory
    at the same version counter (bumped by every in-place write through any view)."""
    return (t.data_ptr(), t.dtype, tuple(t.shape), tuple(t.stride()), str(t.device), t._version)


def record(value, where, snapshot=False):
    """A TensorRecord for a tensor, None for anything else (None, SymInt outputs, ...)."""
    if isinstance(value, torch.Tensor):
        return TensorRecord(value, where, snapshot)
    return None


def _finite(data):
    if not data.is_floating_point() or data.numel() == 0:
        return True
    return bool(torch.isfinite(data).all())


def _as_bytes_array(data):
    """A 1-D uint8 numpy view of the tensor's bytes, little-endian."""
    if data.dtype == torch.bfloat16:  # numpy has no bfloat16: same 2 bytes as an int16
        data = data.view(torch.int16)
    arr = data.numpy().reshape(-1)
    if sys.byteorder != "little" and arr.dtype.itemsize > 1:  # pragma: no cover
        arr = arr.astype(arr.dtype.newbyteorder("<"))
    return arr.view(np.uint8)


class SideFile:
    """The dump's one binary side file: tensors laid out at 64-byte aligned offsets.

    Records are only referenced until write_to(), which makes each contiguous copy in turn; a
    tensor recorded several times is stored once (TensorRecord.key; all recorded tensors stay
    alive meanwhile, so equal keys mean equal bytes).
    """

    def __init__(self, path, basename):
        self.path, self.basename = path, basename
        self.size = 0
        self._chunks = []  # (offset, tensor, uint8 array)
        self._index = {}

    def add(self, rec):
        found = self._index.get(rec.key)
        if found is not None:
            return found
        offset = -(-self.size // _ALIGN) * _ALIGN
        self._chunks.append((offset, rec))
        self.size = offset + rec.numel * rec.tensor.element_size()
        self._index[rec.key] = offset
        return offset

    def __bool__(self):
        return bool(self._chunks)

    def write_to(self, f):
        pos = 0
        for offset, rec in self._chunks:
            if offset > pos:
                f.write(b"\0" * (offset - pos))
            arr = _as_bytes_array(rec.data)
            # Chunked writes: one multi-hundred-MB write() is slower on some kernels/filesystems.
            view = memoryview(arr)
            for start in range(0, arr.nbytes, _CHUNK):
                f.write(view[start:start + _CHUNK])
            pos = offset + arr.nbytes


def entry(name, rec, inline_limit, side):
    """The dump's example-input / recorded-output object for one TensorRecord (or, for a SymInt
    placeholder's input, an int)."""
    if type(rec) is int:
        return {"name": name, "int": rec}
    out = {"name": name, "dtype": rec.dtype, "sizes": rec.sizes, "strides": rec.strides, "offset": rec.offset}
    if rec.numel <= inline_limit:
        data = rec.data
        if _finite(data):
            out["data"] = data.reshape(-1).tolist()
            return out
    out["file"] = side.basename
    out["file_offset"] = side.add(rec)
    return out
