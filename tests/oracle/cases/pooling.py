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


def adaptive_cases(c):
    op = "aten._adaptive_avg_pool2d.default"
    for shape, layout in (((2, 3, 6, 6), "contiguous"), ((2, 3, 6, 6), "channels_last"), ((2, 3, 6, 6), "permuted"),
                          ((2, 3, 6, 6), "sliced"), ((2, 3, 6, 6), "expanded"), ((3, 6, 6), "contiguous"),
                          ((3, 6, 6), "transposed"), ((1, 3, 6, 6), "channels_last"), ((2, 3, 1, 1), "channels_last"),
                          ((0, 3, 6, 6), "contiguous")):
        c.op(op, c.t(shape, layout=layout), [3, 2])
    x = lambda shape=(2, 3, 7, 5), layout="contiguous", **kw: c.t(shape, layout=layout, **kw)
    for size in ([1, 1], [7, 5], [3, 3], [4, 2], [5, 7], [14, 10], [0, 2]):  # overlapping windows, upsampling
        c.op(op, x(), size)
    c.op(op, x(layout="channels_last"), [3, 4])
    c.op(op, x((2, 16, 9, 9), layout="channels_last"), [7, 7])  # channels past the vector width
    for dtype in (torch.float64, torch.bfloat16, torch.float16, torch.int64):
        c.op(op, x(dtype=dtype), [3, 2])
    c.op(op, x((2, 3, 12, 12), lo=-100, hi=100), [5, 5])  # sums that round
    # errors
    c.op(op, x(), [3])
    c.op(op, x((5, 5)), [3, 3])
    c.op(op, x((2, 3, 0, 5)), [3, 3])
    c.op(op, x((2, 3, 4, 4, 4)), [3, 3])

    op = "aten._adaptive_avg_pool2d_backward.default"
    for shape, layout, size in (((2, 3, 7, 5), "contiguous", [3, 2]), ((2, 3, 7, 5), "channels_last", [3, 2]),
                                ((2, 3, 6, 6), "permuted", [4, 4]), ((2, 3, 6, 6), "sliced", [2, 3]),
                                ((3, 6, 6), "contiguous", [4, 5]), ((3, 5, 6), "transposed", [1, 1]),
                                ((2, 3, 4, 4), "contiguous", [8, 6])):
        for dtype in (torch.float32, torch.float64, torch.bfloat16):
            xi = c.t(shape, dtype=dtype, layout=layout)
            out = A._adaptive_avg_pool2d.default(xi, size)
            c.op(op, c.t(tuple(out.shape), dtype=dtype), xi)
    xi = c.t((2, 3, 7, 5))
    c.op(op, c.t((2, 3, 3, 2), layout="channels_last"), xi)  # grad_output's layout does not matter
    c.op(op, c.t((2, 3, 2, 3), layout="permuted"), xi.contiguous(memory_format=CL))
    c.op(op, c.t((2, 3, 4, 4)), xi)  # the pooled size is grad_output's own
    # errors
    c.op(op, c.t((2, 3, 3, 2), dtype=torch.float64), xi)
    c.op(op, c.t((2, 0, 3, 2)), xi)
    c.op(op, c.t((3, 2)), xi)


def cases(c):
    empty_stride_cases(c)
    adaptive_cases(c)
