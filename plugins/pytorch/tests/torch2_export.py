"""Exports on a machine with torch 2.x (the device machine: torch 2.x, torchvision, transformers),
for checking with a Fathom built elsewhere: the dumps come back and `fathom info|run|check` runs
on them here.

    torch2_export.py OUT_DIR [--zoo]

Writes OUT_DIR/NAME.fathom.json (+ .bin) for:
- small torchvision models through capture_aot, as zoo.py builds them but with 10 classes, so
  the dumps (weights, recorded activations and gradients) are small enough to carry back;
- one of them, shufflenet_v2_x0_5, through torch.compile with fathom_torch.backend;
- HuggingFace BERT and GPT-2 built from small configs (no downloads) through capture_aot and
  through torch.compile, static and dynamic=True.
--zoo also exports every zoo.py model (1000 classes, as zoo.py) into a scratch folder, keeping
only whether and how fast each export worked. OUT_DIR/summary.json holds the torch, torchvision
and transformers versions and, per export, its time or its error in one line. Exit 0 when every
export worked, 1 otherwise.
"""
import json
import os
import shutil
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)

VISION = ["squeezenet1_0", "shufflenet_v2_x0_5", "mnasnet0_5"]
COMPILED_VISION = "shufflenet_v2_x0_5"
SMALL_HEAD = {"num_classes": 10}


def hf_models():
    import torch
    import transformers

    bert_config = transformers.BertConfig(vocab_size=512, hidden_size=64, num_hidden_layers=2, num_attention_heads=2,
                                          intermediate_size=128, max_position_embeddings=64, hidden_dropout_prob=0.0,
                                          attention_probs_dropout_prob=0.0)
    gpt2_config = transformers.GPT2Config(vocab_size=512, n_embd=64, n_layer=2, n_head=2, n_positions=64,
                                          resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)
    torch.manual_seed(0)
    ids = torch.randint(0, 512, (2, 16))

    class Logits(torch.nn.Module):
        """The model with a plain tensor out (HF returns a dict-like output), its parameters AOT primals."""

        def __init__(self, model, field):
            super().__init__()
            self.model, self.field = model, field

        def forward(self, x):
            return getattr(self.model(input_ids=x), self.field)

    return {"bert": (Logits(transformers.BertModel(bert_config).train(), "last_hidden_state"), ids),
            "gpt2": (Logits(transformers.GPT2LMHeadModel(gpt2_config).train(), "logits"), ids)}


def export(name, fn, results):
    start = time.monotonic()
    try:
        fn()
        results[name] = {"ok": True, "seconds": round(time.monotonic() - start, 1)}
    except Exception as e:  # report and go on: one model's failure says nothing of the others
        results[name] = {"ok": False, "error": f"{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}",
                         "where": traceback.format_exc().splitlines()[-3][:200]}
    print(name, results[name], flush=True)


def compiled_export(module, inputs, path, dynamic=None):
    """torch.compile(module, backend=fathom_torch.backend(path)), one forward and backward."""
    import torch

    import fathom_torch
    torch._dynamo.reset()
    f = torch.compile(module, backend=fathom_torch.backend(path), dynamic=dynamic)
    f(*inputs).sum().backward()
    if not os.path.exists(path):
        raise RuntimeError("the backend wrote no dump")


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) != 1 or any(a not in ("--zoo",) for a in argv[1:] if a.startswith("--")):
        print(__doc__, file=sys.stderr)
        return 2
    out = args[0]
    os.makedirs(out, exist_ok=True)
    import torch

    import fathom_torch
    import zoo

    versions = {"torch": torch.__version__}
    for mod in ("torchvision", "transformers"):
        try:
            versions[mod] = __import__(mod).__version__
        except ImportError as e:
            versions[mod] = f"missing ({e})"
    results = {}
    for name in VISION:
        def vision(name=name):
            model, x = zoo.build(name, **SMALL_HEAD)
            fathom_torch.capture_aot(model, (x,), os.path.join(out, f"{name}.fathom.json"))
        export(name, vision, results)

    def vision_compiled():
        model, x = zoo.build(COMPILED_VISION, **SMALL_HEAD)
        compiled_export(model, (x,), os.path.join(out, f"{COMPILED_VISION}_compile.fathom.json"))
    export(f"{COMPILED_VISION}_compile", vision_compiled, results)
    try:
        models = hf_models()
    except ImportError as e:
        models = {}
        results["huggingface"] = {"ok": False, "error": f"ImportError: {e}"}
    for name, (module, ids) in models.items():
        export(f"{name}_aot", lambda: fathom_torch.capture_aot(module, (ids,), os.path.join(out, f"{name}_aot.fathom.json")),
               results)
        export(f"{name}_compile", lambda: compiled_export(module, (ids,), os.path.join(out, f"{name}_compile.fathom.json")),
               results)
        # dynamic=True: symbolic sizes, and a backward that takes saved SymInts first
        export(f"{name}_dynamic", lambda: compiled_export(module, (ids,), os.path.join(out, f"{name}_dynamic.fathom.json"),
                                                          dynamic=True), results)
    if "--zoo" in argv:
        scratch = tempfile.mkdtemp(prefix="fathom-zoo2-")
        try:
            for name in zoo.MODELS:
                def whole(name=name):
                    model, x = zoo.build(name)
                    fathom_torch.capture_aot(model, (x,), os.path.join(scratch, f"{name}.fathom.json"))
                export(f"zoo/{name}", whole, results)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump({"versions": versions, "exports": results}, f, indent=1)
    print(json.dumps(versions))
    return 0 if all(r["ok"] for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
