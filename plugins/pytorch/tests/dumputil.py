"""Shared test helpers: import fathom_torch from this checkout, read dumps and side files back."""
import json
import os
import sys
import unittest

PLUGIN_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if PLUGIN_DIR not in sys.path:
    sys.path.insert(0, PLUGIN_DIR)

try:
    import numpy as np
    import torch
except ImportError as e:  # every test module imports this first: skip them all, saying why
    raise unittest.SkipTest(f"fathom_torch tests need torch and numpy ({e})")

TORCH2 = not torch.__version__.startswith("1.")


_NUMPY = {"float32": np.float32, "float64": np.float64, "float16": np.float16, "bfloat16": np.int16,
          "int64": np.int64, "int32": np.int32, "int16": np.int16, "int8": np.int8, "uint8": np.uint8,
          "bool": np.bool_}
_TORCH = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16,
          "bfloat16": torch.bfloat16, "int64": torch.int64, "int32": torch.int32, "int16": torch.int16,
          "int8": torch.int8, "uint8": torch.uint8, "bool": torch.bool}


def load(path):
    with open(path) as f:
        return json.load(f)


def nodes(doc, graph="forward"):
    return {n["name"]: n for n in doc["graphs"][graph]["nodes"]}


def read_entry(dump_path, e):
    """The logical tensor an example-input / output entry holds (inline or in the side file)."""
    if e is None:
        return None
    sizes, dtype = e["sizes"], e["dtype"]
    if "data" in e:
        return torch.tensor(e["data"], dtype=_TORCH[dtype]).reshape(sizes)
    path = os.path.join(os.path.dirname(os.path.abspath(dump_path)), e["file"])
    count = 1
    for s in sizes:
        count *= s
    arr = np.fromfile(path, dtype=np.dtype(_NUMPY[dtype]).newbyteorder("<"), count=count, offset=e["file_offset"])
    t = torch.from_numpy(arr.astype(arr.dtype.newbyteorder("=")).copy())
    if dtype == "bfloat16":
        t = t.view(torch.bfloat16)
    return t.reshape(sizes)


def read_inputs(dump_path, doc, graph="forward"):
    return [read_entry(dump_path, e) for e in doc["inputs"][graph]]


def read_outputs(dump_path, doc, graph="forward"):
    return [read_entry(dump_path, e) for e in doc["outputs"][graph]]
