"""The suites by name, and the quick subsets CI runs."""
from . import hf, timm_suite, vision

SUITES = {
    "vision": vision.classification,
    "segmentation": vision.segmentation,
    "video": vision.video,
    "hf": hf.models,
    "timm": timm_suite.models,
}
# What CI sweeps every run (ctest pytorch2_sweep_quick): a model or two a suite, chosen for the ops
# they bring (convolution and batch norm, 3-d convolution, attention,
# RMS norm and rotary embeddings through torch.compile, patch embeddings) and kept few for CI's time.
QUICK = {
    "vision": ["resnet18"],
    "segmentation": [],  # lraspp's backward differs (see the issue 33 note); back here once it passes
    "video": ["mc3_18"],
    "hf": ["bert", "llama"],
    "timm": ["vit_tiny_patch16_224"],
}
# The modules each suite needs beyond torch.
NEEDS = {"vision": "torchvision", "segmentation": "torchvision", "video": "torchvision", "hf": "transformers",
         "timm": "timm"}


def models(suite, names=None, quick=False):
    """The suite's ModelSpecs, narrowed to `names` or the quick subset. Raises KeyError naming an
    unknown model."""
    specs = SUITES[suite]()
    wanted = QUICK[suite] if quick else names
    if quick:
        return [s for s in specs if s.name in wanted]
    if not wanted:
        return specs
    by_name = {s.name: s for s in specs}
    unknown = [n for n in wanted if n not in by_name]
    if unknown:
        raise KeyError(f"unknown model(s) in suite {suite}: {', '.join(unknown)}; known: {', '.join(by_name)}")
    return [by_name[n] for n in wanted]
