"""torchvision's suites: classification (22 families), segmentation and video, at small inputs."""
from .spec import InputSpec, ModelSpec

# One model per torchvision classification family at 64x64 (Inception v3 needs 75x75 at least):
# at 32x32 the last stages' batch norms see two or four values per channel, which amplifies
# float32 rounding until neither PyTorch's nor Fathom's result is near the float64 one. RegNetY
# at 96x96: at 64x64 its last batch norms see 8 values per channel (invstd 62), so the jit's
# rounding of their input, as near the float64 one as PyTorch's, flipped one ReLU mask element
# (relu_61) and aot_jit's gradients moved 0.5% - a model that sensitive, not a wrong kernel
# (every kernel matches alone: `fathom check --backend jit`). googlenet and inception_v3
# without their auxiliary heads (a tuple of two logits in training mode).
CLASSIFICATION = {
    "alexnet": (64, {}),
    "convnext_tiny": (64, {}),
    "densenet121": (64, {}),
    "efficientnet_b0": (64, {}),
    "efficientnet_v2_s": (64, {}),
    "googlenet": (64, {"aux_logits": False, "init_weights": True}),
    "inception_v3": (80, {"aux_logits": False, "init_weights": True}),
    "mnasnet0_5": (64, {}),
    "mobilenet_v2": (64, {}),
    "mobilenet_v3_large": (64, {}),
    "mobilenet_v3_small": (64, {}),
    "regnet_x_400mf": (64, {}),
    "regnet_y_400mf": (96, {}),
    "resnet18": (64, {}),
    "resnet50": (64, {}),
    "resnext50_32x4d": (64, {}),
    "shufflenet_v2_x0_5": (64, {}),
    "squeezenet1_0": (64, {}),
    "swin_t": (64, {}),
    "vgg11": (64, {}),
    "vit_b_16": (64, {"image_size": 64}),
    "wide_resnet50_2": (64, {}),
}
# Small heads keep the dumps small; the backbones are torchvision's own.
SEGMENTATION = {
    "fcn_resnet50": (64, {"num_classes": 5, "aux_loss": False}),
    "deeplabv3_mobilenet_v3_large": (64, {"num_classes": 5, "aux_loss": False}),
    "lraspp_mobilenet_v3_large": (64, {"num_classes": 5}),
}
# Video models take N x C x T x H x W.
VIDEO = {
    "r3d_18": ((4, 32), {"num_classes": 10}),
    "mc3_18": ((4, 32), {"num_classes": 10}),
    "r2plus1d_18": ((4, 32), {"num_classes": 10}),
    "s3d": ((16, 224), {"num_classes": 10}),  # its last pool is a fixed (2, 7, 7): 16 frames of 224x224 at least
}
BATCH = 2  # batch norm in training mode needs more than one value per channel


def _builder(name, kwargs):
    def build():
        import torch
        import torchvision
        torch.manual_seed(0)
        return torchvision.models.get_model(name, weights=None, **kwargs)
    return build


def classification():
    return [ModelSpec(n, _builder(n, kw), (InputSpec((BATCH, 3, s, s)),)) for n, (s, kw) in CLASSIFICATION.items()]


def segmentation():
    return [ModelSpec(n, _builder(n, dict(kw, weights_backbone=None)), (InputSpec((BATCH, 3, s, s)),))
            for n, (s, kw) in SEGMENTATION.items()]


def video():
    return [ModelSpec(n, _builder(n, kw), (InputSpec((BATCH, 3, t, s, s)),)) for n, ((t, s), kw) in VIDEO.items()]
