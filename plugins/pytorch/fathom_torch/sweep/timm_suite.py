"""timm models of distinct families at 64x64 (random weights, 10 classes, drop rates 0)."""
from .spec import InputSpec, ModelSpec

# name: (input size, extra create_model arguments). One model per family, the smallest variant;
# transformer-style models are told the image size (their position tables depend on it).
MODELS = {
    "resnet10t": (64, {}),
    "efficientnet_b0": (64, {}),
    "mobilenetv3_small_050": (64, {}),
    "convnext_atto": (64, {}),
    "vit_tiny_patch16_224": (64, {"img_size": 64}),
    "deit_tiny_patch16_224": (64, {"img_size": 64}),
    "regnetx_002": (64, {}),
    "densenet121": (64, {}),
    "mixer_s16_224": (64, {"img_size": 64}),
    "resmlp_12_224": (64, {"img_size": 64}),
    "poolformer_s12": (64, {}),
    "ghostnet_050": (64, {}),
    "repvgg_a0": (64, {}),
    "cspresnet50": (64, {}),
    "rexnet_100": (64, {}),
    "dla34": (64, {}),
    "edgenext_xx_small": (64, {}),
    "levit_128s": (64, {"img_size": 64}),
}
BATCH = 2


def _builder(name, kwargs):
    def build():
        import timm
        import torch
        torch.manual_seed(0)
        return timm.create_model(name, pretrained=False, num_classes=10, drop_rate=0.0, **kwargs)
    return build


def models():
    return [ModelSpec(n, _builder(n, kw), (InputSpec((BATCH, 3, s, s)),)) for n, (s, kw) in MODELS.items()]
