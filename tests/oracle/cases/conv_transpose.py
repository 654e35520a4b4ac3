"""Transposed convolution (ConvTranspose1d/2d) through aten.convolution and
aten.convolution_backward with transposed=True: weight [in, out / groups, kh, kw], stride,
padding, dilation, output_padding (below stride or dilation), groups and depthwise, 1-d as 2-d,
every input and weight layout (PyTorch 1.13's slow_conv_transpose2d answers contiguous), float32,
float64 and int64 (bfloat16 is left out: on a CPU with AVX-512 bf16 PyTorch 1.13 sends it to
oneDNN, which rejects it with a wrong channel count; float16 has no kernel), and errors."""
import torch

A = torch.ops.aten


def args(stride=(1, 1), padding=(0, 0), dilation=(1, 1), output_padding=(0, 0), groups=1):
    return [list(stride), list(padding), list(dilation), True, list(output_padding), groups]


def conv(c, x, w, b=None, **kw):
    c.op("aten.convolution.default", x, w, b, *args(**kw))


def conv_backward(c, x, w, grad_layout="contiguous", **kw):
    out = A.convolution.default(x, w, None, *args(**kw))
    go = c.t(tuple(out.shape), dtype=x.dtype, layout=grad_layout, lo=-2, hi=2)
    groups = kw.get("groups", 1)
    c.op("aten.convolution_backward.default", go, x, w, [w.shape[1] * groups], *args(**kw), [True] * 3)


def forward_cases(c):
    for layout in ("contiguous", "channels_last", "permuted", "sliced", "expanded", "transposed"):
        conv(c, c.t((2, 4, 5, 5), layout=layout), c.t((4, 3, 3, 3)), c.t((3,)), stride=(2, 2), padding=(1, 1),
             output_padding=(1, 1))
    for layout in ("channels_last", "permuted", "sliced"):
        conv(c, c.t((2, 4, 5, 5)), c.t((4, 3, 3, 3), layout=layout), None, stride=(2, 2))
    conv(c, c.t((2, 4, 5, 5)), c.t((4, 6, 3, 3)), c.t((6,)))
    conv(c, c.t((2, 4, 5, 6)), c.t((4, 3, 3, 2)), None, stride=(2, 3), padding=(1, 0), output_padding=(1, 2))
    conv(c, c.t((2, 4, 5, 5)), c.t((4, 3, 3, 3)), c.t((6,)), stride=(2, 2), padding=(1, 1), output_padding=(1, 1),
         groups=2)  # ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2)
    conv(c, c.t((1, 4, 5, 5)), c.t((4, 1, 3, 3)), c.t((4,)), stride=(2, 2), padding=(1, 1), groups=4)  # depthwise
    conv(c, c.t((2, 4, 5, 5)), c.t((4, 2, 3, 3)), None, stride=(2, 2), padding=(2, 2), dilation=(2, 2),
         output_padding=(1, 1))
    conv(c, c.t((2, 4, 5, 5)), c.t((4, 3, 3, 3)), None, padding=(1, 1), dilation=(3, 3), output_padding=(2, 2))
    conv(c, c.t((2, 4, 5, 5)), c.t((4, 6, 1, 1)), c.t((6,)))  # 1x1
    conv(c, c.t((20, 4, 3, 3)), c.t((4, 2, 3, 3)), None, stride=(2, 2))  # a batch of 16 or more
    one_d = dict(stride=(1,), padding=(0,), dilation=(1,), output_padding=(0,))
    conv(c, c.t((2, 4, 7)), c.t((4, 3, 3)), c.t((3,)), **dict(one_d, stride=(2,), padding=(1,), output_padding=(1,)))
    conv(c, c.t((2, 4, 7), layout="transposed"), c.t((4, 3, 3)), None, **dict(one_d, dilation=(2,)))
    conv(c, c.t((0, 4, 5, 5)), c.t((4, 3, 3, 3)), None, stride=(2, 2))
    for dtype in (torch.float64, torch.int64, torch.float16):
        conv(c, c.t((2, 4, 5, 5), dtype=dtype), c.t((4, 3, 3, 3), dtype=dtype), None, stride=(2, 2), padding=(1, 1),
             output_padding=(1, 1))
    # errors
    conv(c, c.t((2, 4, 5, 5)), c.t((4, 3, 3, 3)), None, stride=(2, 2), output_padding=(2, 2))
    conv(c, c.t((2, 4, 5, 5)), c.t((3, 3, 3, 3)), None)
    conv(c, c.t((2, 4, 5, 5)), c.t((4, 3, 3, 3)), c.t((4,)))
    conv(c, c.t((2, 4, 1, 1)), c.t((4, 3, 3, 3)), None, padding=(3, 3))
    conv(c, c.t((2, 4, 5, 5)), c.t((4, 3, 3, 3)), None, groups=3)


def backward_cases(c):
    for dtype in (torch.float32, torch.float64):
        t = lambda shape, layout="contiguous": c.t(shape, dtype=dtype, layout=layout, lo=-2, hi=2)
        conv_backward(c, t((2, 4, 5, 5)), t((4, 3, 3, 3)), stride=(2, 2), padding=(1, 1), output_padding=(1, 1))
        conv_backward(c, t((2, 4, 5, 5), "channels_last"), t((4, 3, 3, 3)), grad_layout="channels_last")
        conv_backward(c, t((2, 4, 5, 6)), t((4, 3, 3, 2)), stride=(2, 3), padding=(1, 0), output_padding=(1, 2))
        conv_backward(c, t((2, 4, 5, 5)), t((4, 3, 3, 3)), stride=(2, 2), padding=(1, 1), output_padding=(1, 1),
                      groups=2)
        conv_backward(c, t((1, 4, 5, 5)), t((4, 1, 3, 3)), stride=(2, 2), padding=(1, 1), groups=4)
        conv_backward(c, t((2, 4, 5, 5)), t((4, 3, 3, 3)), padding=(1, 1), dilation=(3, 3), output_padding=(2, 2))
        conv_backward(c, t((2, 4, 5, 5)), t((4, 6, 1, 1)), grad_layout="permuted")
    t = lambda shape, layout="contiguous": c.t(shape, layout=layout, lo=-2, hi=2)
    conv_backward(c, t((2, 4, 7)), t((4, 3, 3)), stride=(2,), padding=(1,), dilation=(1,), output_padding=(1,))
    conv_backward(c, t((2, 4, 5, 5), "sliced"), t((4, 3, 3, 3), "permuted"), grad_layout="sliced", stride=(2, 2))
    conv_backward(c, t((0, 4, 5, 5)), t((4, 3, 3, 3)), stride=(2, 2))
    # errors
    x, w = c.t((2, 4, 5, 5), dtype=torch.int64), c.t((4, 3, 3, 3), dtype=torch.int64)
    c.op("aten.convolution_backward.default", c.t((2, 3, 7, 7), dtype=torch.int64), x, w, [3], *args(), [True] * 3)
    c.op("aten.convolution_backward.default", c.t((2, 3, 6, 6)), t((2, 4, 5, 5)), t((4, 3, 3, 3)), [3], *args(),
         [True] * 3)


def cases(c):
    forward_cases(c)
    backward_cases(c)
