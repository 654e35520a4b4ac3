"""Pooling as torchvision's models and make_fx traces record it: stride=[] (F.max_pool2d(x, 2)
traced by make_fx), which PyTorch reads as the kernel size, for the pooling ops and their
backwards; and adaptive average pooling (VGG, AlexNet) with its backward, over layouts, output
sizes that do and do not divide the input, dtypes and errors."""
import torch

A = torch.ops.aten
CL = torch.channels_last


def empty_stride_cases(c):
    x = lambda shape=(2, 3, 6, 6), layout="contiguous": c.t(shape, layout=layout, lo=-1, hi=1)
    for op in ("aten.max_pool2d_with_indices.default", "aten.avg_pool2d.default"):
        c.op(op, x(), [2, 2], [])
        c.op(op, x(), [3, 2], [])
        c.op(op, x(layout="channels_last"), [2], [])
        c.op(op, x((3, 7, 7)), 3, [], 1)
        c.op(op, x(), [], [])  # error: no kernel size
        c.op(op, x(), [2, 2], [1, 1, 1])  # error: three strides
    xi = x()
    out, idx = A.max_pool2d_with_indices.default(xi, [3, 2], [])
    c.op("aten.max_pool2d_with_indices_backward.default", c.t(tuple(out.shape)), xi, [3, 2], [], [0, 0], [1, 1],
         False, idx)
    out = A.avg_pool2d.default(xi, [3, 2], [])
    c.op("aten.avg_pool2d_backward.default", c.t(tuple(out.shape)), xi, [3, 2], [], [0, 0], False, True, None)


def cases(c):
    empty_stride_cases(c)
