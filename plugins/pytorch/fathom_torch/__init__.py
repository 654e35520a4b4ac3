"""fathom_torch: export PyTorch FX graphs as Fathom dumps (*.fathom.json + *.fathom.bin).

    import fathom_torch
    fathom_torch.capture_aot(model, (x,), "model.fathom.json")       # forward + backward + joint
    fathom_torch.capture_make_fx(fn, (x,), "fn.fathom.json", "symbolic")
    fathom_torch.export_graph_module(gm, "gm.fathom.json", (x,))     # any FX graph with meta
    torch.compile(model, backend=fathom_torch.backend("model.fathom.json"))  # torch 2.x

CLI: python3 -m fathom_torch capture SCRIPT.py:FUNC [-o OUT.fathom.json] [--mode aot|real|fake|symbolic]

The public names are imported on first use (PEP 562), so the CLI can report a mistyped command
line without waiting seconds for torch to import.
"""
import importlib

__version__ = "0.1.0"

from .errors import UnsupportedGraph  # noqa: E402  (no torch import)

_LAZY = {
    "DumpWriter": "writer", "ExportResult": "writer", "export_graph_module": "writer",
    "run_graph": "writer", "side_file_path": "writer",
    "AotRecorder": "capture", "backend": "capture", "capture_aot": "capture", "capture_make_fx": "capture",
    "SymbolTable": "symbolic",
}

__all__ = ["UnsupportedGraph", "__version__", *_LAZY]


def __getattr__(name):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'fathom_torch' has no attribute '{name}'")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(list(globals()) + list(_LAZY))
