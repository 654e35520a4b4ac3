"""The gated activations of MobileNetV3 and EfficientNet: hardswish, hardsigmoid, silu, their
backward helpers and in-place forms. Layouts sweep STANDARD for input and gradient, dtypes
float32/float64/bfloat16 (PyTorch 1.13 has no Half or integer kernel: those cases drop), inputs
reach past the kinks at -3 and 3, and long runs put x == 3 both in ATen's vector loop (16
floats, 8 doubles, 32 bfloat16s per iteration) and in its scalar tail, where hardswish_backward
differs."""
import torch

from oracle import STANDARD

FORWARD = ("aten.hardswish.default", "aten.hardsigmoid.default", "aten.silu.default")
BACKWARD = ("aten.hardswish_backward.default", "aten.hardsigmoid_backward.default", "aten.silu_backward.default")
DTYPES = (torch.float64, torch.bfloat16, torch.float16, torch.int64)
# -3 and 3 exactly, and values either side of them.
KINKS = [-4.0, -3.0, -2.875, -0.5, 0.0, 0.5, 2.875, 3.0, 3.125, 5.0, -0.0, 1.0]


def forward_cases(c, name):
    for shape, layout in STANDARD:
        c.op(name, c.t(shape, layout=layout, lo=-5, hi=5))
    for dtype in DTYPES:
        c.op(name, c.t((3, 4), dtype=dtype, lo=-5, hi=5))
    c.op(name, c.t((3, 4), values=KINKS))
    c.op(name, c.t((2, 40), lo=-5, hi=5))  # vector loop and tail
    c.op(name, c.t((70,), dtype=torch.bfloat16, lo=-5, hi=5))


def backward_cases(c, name):
    for shape, layout in STANDARD:
        c.op(name, c.t(shape), c.t(shape, layout=layout, lo=-5, hi=5))
        c.op(name, c.t(shape, layout=layout), c.t(shape, lo=-5, hi=5))
    for dtype in DTYPES:
        c.op(name, c.t((3, 4), dtype=dtype), c.t((3, 4), dtype=dtype, lo=-5, hi=5))
    c.op(name, c.t((3, 4)), c.t((3, 4), values=KINKS))
    c.op(name, c.t((3, 4)), c.t((3, 4), dtype=torch.float64, lo=-5, hi=5))  # promotes
    c.op(name, c.t((3, 1)), c.t((4,), lo=-5, hi=5))  # broadcasts
    c.op(name, c.t((3, 4)), c.t((4, 3)))  # error: shapes
    # x == 3 at every position of runs whose length is and is not a multiple of ATen's vector block
    for n, dtype in ((16, torch.float32), (24, torch.float32), (40, torch.float32), (8, torch.float64),
                     (15, torch.float64), (32, torch.bfloat16), (40, torch.bfloat16)):
        c.op(name, c.t((n,), dtype=dtype), c.t((n,), dtype=dtype, values=[3.0] * n))
        c.op(name, c.t((n,), dtype=dtype), c.t((n,), dtype=dtype, values=[-3.0] * n))
    c.op(name, c.t((2, 24)), c.t((2, 24), values=[3.0, -3.0, 2.875] * 16))  # rows: one run each
    c.op(name, c.t((24, 2), layout="transposed"), c.t((24, 2), layout="transposed", values=[3.0] * 48))


def inplace_cases(c):
    for name in FORWARD:
        inplace = name.replace(".default", "_.default")
        for shape, layout in ((3, 4), "contiguous"), ((3, 4), "transposed"), ((2, 3, 2, 3), "channels_last"):
            c.op(inplace, c.t(shape, layout=layout, lo=-5, hi=5), mutates=(0,))
        c.op(inplace, c.t((3, 4), dtype=torch.float64, lo=-5, hi=5), mutates=(0,))


def cases(c):
    for name in FORWARD:
        forward_cases(c, name)
    for name in BACKWARD:
        backward_cases(c, name)
    inplace_cases(c)
