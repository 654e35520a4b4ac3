"""3-d convolution (Conv3d, ConvTranspose3d: torchvision's r3d_18, mc3_18, r2plus1d_18, s3d) through
aten.convolution and aten.convolution_backward: kernels like (3, 7, 7), (1, 3, 3), (3, 1, 1),
strides, padding, dilation, groups and depthwise, 1x1x1, every input and weight layout, dtypes,
output_mask, transposed, and errors.

What 1.13 does here that one might not expect, recorded so Fathom does it too: every non-empty
result and gradient is contiguous whatever the layouts (slow_conv3d, slow_conv_dilated3d and
slow_conv_transpose3d have no channels_last_3d path, and float32 convolutions that oneDNN takes
come back contiguous too); the dtypes differ by backend: the undilated one takes every integer
type but not float16 or bool ("compute_columns3d"), the dilated one only float, double, bfloat16
and int64 ("slow_conv_dilated<>"); the undilated backward refuses integers. Left out: an empty
batch in channels_last_3d (1.13 fails in a view), the dilated int64 backward (1.13 computes it,
Fathom refuses integer gradients) and bfloat16 transposed ones (1.13 refuses them with a wrong
channel count; Fathom refuses them with its own message)."""
import torch

A = torch.ops.aten

# PyTorch 1.13's slow bfloat16 convolution accumulates in bfloat16 (Fathom in float32): see nn.py.
BF16_CONV_TOL = (2e-2, 0.5)


def args(stride=(1, 1, 1), padding=(0, 0, 0), dilation=(1, 1, 1), transposed=False, output_padding=(0, 0, 0),
         groups=1):
    return [list(stride), list(padding), list(dilation), transposed, list(output_padding), groups]


def conv(c, x, w, b=None, **kw):
    tol = BF16_CONV_TOL if x.dtype == torch.bfloat16 else None
    c.op("aten.convolution.default", x, w, b, *args(**kw), tol=tol)


def conv_backward(c, x, w, grad_layout="contiguous", mask=(True, True, True), **kw):
    out = A.convolution.default(x, w, None, *args(**kw))
    go = c.t(tuple(out.shape), dtype=x.dtype, layout=grad_layout, lo=-2, hi=2)
    channels = w.shape[1] * kw.get("groups", 1) if kw.get("transposed") else w.shape[0]
    c.op("aten.convolution_backward.default", go, x, w, [channels], *args(**kw), list(mask),
         tol=BF16_CONV_TOL if x.dtype == torch.bfloat16 else None)


def forward_cases(c):
    conv(c, c.t((1, 2, 3, 4, 4)), c.t((3, 2, 2, 2, 2)), c.t((3,)))  # small first: it carries the gradient record
    for layout in ("contiguous", "channels_last_3d", "permuted", "sliced", "expanded", "transposed"):
        conv(c, c.t((2, 4, 3, 6, 6), layout=layout), c.t((6, 4, 3, 3, 3)), c.t((6,)), padding=(1, 1, 1))
    for layout in ("channels_last_3d", "permuted", "sliced"):
        conv(c, c.t((2, 4, 3, 6, 6)), c.t((6, 4, 3, 3, 3), layout=layout), None, padding=(1, 1, 1))
    conv(c, c.t((1, 3, 4, 16, 16)), c.t((8, 3, 3, 7, 7)), None, stride=(1, 2, 2), padding=(1, 3, 3))  # r3d stem
    conv(c, c.t((1, 3, 4, 16, 16), layout="channels_last_3d"), c.t((8, 3, 3, 7, 7)), None, stride=(1, 2, 2),
         padding=(1, 3, 3))
    conv(c, c.t((1, 3, 4, 16, 16)), c.t((6, 3, 1, 7, 7)), None, stride=(1, 2, 2), padding=(0, 3, 3))  # r2plus1d stem
    conv(c, c.t((2, 4, 4, 6, 6)), c.t((6, 4, 3, 1, 1)), None, stride=(2, 1, 1), padding=(1, 0, 0))  # (2+1)d temporal
    conv(c, c.t((2, 4, 4, 6, 6)), c.t((6, 4, 1, 3, 3)), c.t((6,)), stride=(1, 2, 2), padding=(0, 1, 1))
    conv(c, c.t((2, 4, 3, 5, 5)), c.t((6, 4, 1, 1, 1)), c.t((6,)))  # 1x1x1
    conv(c, c.t((2, 4, 4, 5, 5)), c.t((6, 4, 1, 1, 1)), None, stride=(2, 2, 2))  # downsample shortcut
    conv(c, c.t((2, 4, 3, 5, 5), layout="permuted"), c.t((6, 4, 1, 1, 1)), None)
    conv(c, c.t((2, 4, 3, 5, 5)), c.t((6, 2, 3, 3, 3)), c.t((6,)), padding=(1, 1, 1), groups=2)
    conv(c, c.t((2, 4, 3, 5, 5), layout="channels_last_3d"), c.t((6, 2, 3, 3, 3)), None, groups=2)
    conv(c, c.t((1, 4, 3, 5, 5)), c.t((4, 1, 3, 3, 3)), c.t((4,)), padding=(1, 1, 1), groups=4)  # depthwise
    conv(c, c.t((1, 4, 3, 5, 5)), c.t((8, 1, 1, 3, 3)), None, stride=(1, 2, 2), padding=(0, 1, 1), groups=4)
    conv(c, c.t((1, 4, 5, 6, 6)), c.t((6, 4, 3, 3, 3)), None, padding=(2, 1, 1), dilation=(2, 1, 1))
    conv(c, c.t((1, 4, 5, 7, 7), layout="channels_last_3d"), c.t((6, 4, 2, 3, 3)), c.t((6,)), stride=(1, 2, 1),
         dilation=(1, 2, 2))
    conv(c, c.t((1, 4, 5, 7, 7)), c.t((6, 2, 2, 3, 3)), None, dilation=(2, 2, 2), groups=2)
    conv(c, c.t((16, 2, 3, 4, 4)), c.t((3, 2, 2, 2, 2)), None)  # a batch of 16 (oneDNN in 1.13)
    conv(c, c.t((2, 4, 3, 5, 5)), c.t((6, 4, 3, 3, 3)), None, stride=[2], padding=[1])  # single values
    for dtype in (torch.float64, torch.bfloat16, torch.int64, torch.int32, torch.int8):
        conv(c, c.t((2, 4, 3, 5, 5), dtype=dtype), c.t((6, 4, 3, 3, 3), dtype=dtype), c.t((6,), dtype=dtype),
             padding=(1, 1, 1))
    for dtype in (torch.float64, torch.bfloat16, torch.int64):
        conv(c, c.t((1, 4, 5, 5, 5), dtype=dtype), c.t((6, 4, 2, 2, 2), dtype=dtype), None, dilation=(2, 2, 2))
    conv(c, c.t((0, 4, 3, 5, 5)), c.t((6, 4, 3, 3, 3)), None)  # empty batch
    conv(c, c.t((0, 4, 3, 5, 5), layout="permuted"), c.t((6, 4, 3, 3, 3)), None)
    conv(c, c.t((2, 0, 3, 5, 5)), c.t((6, 0, 3, 3, 3)), None)  # no channels
    # errors
    for dtype in (torch.float16, torch.bool):
        conv(c, c.t((1, 2, 3, 5, 5), dtype=dtype), c.t((3, 2, 2, 2, 2), dtype=dtype), None)
    for dtype in (torch.float16, torch.int32):
        conv(c, c.t((1, 2, 5, 5, 5), dtype=dtype), c.t((3, 2, 2, 2, 2), dtype=dtype), None, dilation=(2, 1, 1))
    conv(c, c.t((1, 2, 3, 5, 5)), c.t((3, 2, 4, 2, 2)), None)  # kernel deeper than the input
    conv(c, c.t((1, 2, 3, 5, 5)), c.t((3, 2, 2, 2, 2)), None, stride=(1, 1))  # two strides for three dims
    conv(c, c.t((1, 2, 3, 5, 5)), c.t((3, 2, 2, 2, 2)), c.t((4,)))  # bias size
    conv(c, c.t((1, 4, 3, 5, 5)), c.t((3, 2, 2, 2, 2)), None, groups=2)  # groups do not divide the output
    conv(c, c.t((1, 2, 3, 5, 5)), c.t((3, 2, 2, 2)), None)  # rank mismatch
    conv(c, c.t((1, 2, 3, 5, 5)), c.t((3, 2, 2, 2, 2), dtype=torch.float64), None)


def transposed_cases(c):
    t = dict(transposed=True)
    conv(c, c.t((1, 2, 2, 3, 3)), c.t((2, 3, 2, 2, 2)), c.t((3,)), **t)  # small first: the gradient record
    for layout in ("contiguous", "channels_last_3d", "permuted", "sliced"):
        conv(c, c.t((2, 4, 3, 5, 5), layout=layout), c.t((4, 3, 2, 3, 3)), c.t((3,)), stride=(1, 2, 2),
             padding=(0, 1, 1), output_padding=(0, 1, 1), **t)
    conv(c, c.t((2, 4, 3, 5, 5)), c.t((4, 3, 2, 3, 3), layout="channels_last_3d"), None, stride=(2, 2, 2), **t)
    conv(c, c.t((2, 4, 3, 5, 5)), c.t((4, 3, 3, 3, 3)), c.t((6,)), stride=(2, 2, 2), padding=(1, 1, 1),
         output_padding=(1, 1, 1), groups=2, **t)
    conv(c, c.t((2, 4, 3, 5, 5)), c.t((4, 2, 3, 3, 3)), None, padding=(1, 1, 1), dilation=(2, 2, 1),
         output_padding=(1, 0, 0), **t)
    conv(c, c.t((2, 4, 3, 5, 5), dtype=torch.float64), c.t((4, 3, 2, 3, 3), dtype=torch.float64), None,
         stride=(1, 2, 2), **t)
    conv(c, c.t((2, 4, 3, 5, 5), dtype=torch.int64), c.t((4, 3, 2, 3, 3), dtype=torch.int64), None, stride=(1, 2, 2),
         **t)
    conv(c, c.t((0, 4, 3, 5, 5)), c.t((4, 3, 2, 3, 3)), None, **t)
    # errors
    conv(c, c.t((2, 4, 3, 5, 5), dtype=torch.float16), c.t((4, 3, 2, 3, 3), dtype=torch.float16), None, **t)
    conv(c, c.t((2, 4, 3, 5, 5)), c.t((4, 3, 2, 3, 3)), None, stride=(1, 2, 2), output_padding=(1, 1, 1), **t)
    conv(c, c.t((2, 4, 3, 5, 5)), c.t((3, 3, 2, 3, 3)), None, **t)


def backward_cases(c):
    for dtype in (torch.float32, torch.float64):
        x = lambda shape, layout="contiguous": c.t(shape, dtype=dtype, layout=layout, lo=-2, hi=2)
        conv_backward(c, x((2, 4, 3, 5, 5)), x((6, 4, 3, 3, 3)), padding=(1, 1, 1))
        conv_backward(c, x((1, 3, 4, 12, 12)), x((8, 3, 3, 7, 7)), stride=(1, 2, 2), padding=(1, 3, 3))
        conv_backward(c, x((2, 4, 4, 6, 6), "channels_last_3d"), x((6, 4, 3, 1, 1)), grad_layout="channels_last_3d",
                      stride=(2, 1, 1), padding=(1, 0, 0))
        conv_backward(c, x((2, 4, 4, 6, 6), "permuted"), x((6, 4, 1, 3, 3), "channels_last_3d"), grad_layout="permuted",
                      stride=(1, 2, 2), padding=(0, 1, 1))
        conv_backward(c, x((2, 4, 4, 5, 5)), x((6, 4, 1, 1, 1)), stride=(2, 2, 2))
        conv_backward(c, x((2, 4, 3, 5, 5)), x((6, 4, 1, 1, 1), "sliced"), grad_layout="sliced")
        conv_backward(c, x((2, 4, 3, 5, 5)), x((6, 2, 3, 3, 3)), padding=(1, 1, 1), groups=2)
        conv_backward(c, x((1, 4, 3, 5, 5)), x((4, 1, 3, 3, 3)), padding=(1, 1, 1), groups=4)
        conv_backward(c, x((1, 4, 5, 7, 7)), x((6, 4, 2, 3, 3)), stride=(1, 2, 1), dilation=(2, 2, 2))
        conv_backward(c, x((2, 4, 3, 5, 5)), x((4, 3, 2, 3, 3)), stride=(1, 2, 2), padding=(0, 1, 1),
                      output_padding=(0, 1, 1), transposed=True)
        conv_backward(c, x((2, 4, 3, 5, 5), "channels_last_3d"), x((4, 3, 3, 3, 3)), stride=(2, 2, 2),
                      padding=(1, 1, 1), output_padding=(1, 1, 1), groups=2, transposed=True)
    x = lambda shape, dtype=torch.float32: c.t(shape, dtype=dtype, lo=-2, hi=2)
    for mask in ((True, False, False), (False, True, False), (False, False, True), (False, True, True)):
        conv_backward(c, x((2, 4, 3, 5, 5)), x((6, 4, 3, 3, 3)), mask=mask, padding=(1, 1, 1))
    conv_backward(c, x((2, 4, 3, 5, 5), torch.bfloat16), x((6, 4, 3, 3, 3), torch.bfloat16), padding=(1, 1, 1))
    conv_backward(c, x((0, 4, 3, 5, 5)), x((6, 4, 3, 3, 3)))
    conv_backward(c, x((0, 4, 3, 5, 5)), x((4, 3, 3, 3, 3)), transposed=True)
    # errors
    conv_backward(c, x((2, 4, 3, 5, 5), torch.int64), x((6, 4, 3, 3, 3), torch.int64))
    conv_backward(c, x((2, 4, 3, 5, 5), torch.int64), x((4, 3, 3, 3, 3), torch.int64), transposed=True)
    c.op("aten.convolution_backward.default", x((2, 6, 2, 3, 3)), x((2, 4, 3, 5, 5)), x((6, 4, 3, 3, 3)), [6],
         *args(), [True] * 3)  # grad_output of the wrong size


def cases(c):
    forward_cases(c)
    transposed_cases(c)
    backward_cases(c)
