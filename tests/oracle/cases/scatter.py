"""Ops that read or write elements at computed positions, as Swin's and ConvNeXt's AOT graphs
hold them: advanced indexing (index.Tensor, index_put and index_put_), the functional forms
functionalization writes for mutations (zero, fill.Tensor, lift_fresh_copy, slice_scatter,
as_strided_scatter), and constant_pad_nd and roll. Layouts sweep the standard ones (these ops
clone with preserve_format, or lay out like cat or TensorIterator), with errors."""
import torch

from oracle import STANDARD

A = torch.ops.aten
LAYOUTS3 = [((2, 3, 4), "contiguous"), ((2, 3, 4), "permuted"), ((2, 3, 4), "sliced"), ((2, 3, 4), "expanded"),
            ((2, 3, 4, 5), "channels_last"), ((3, 4), "transposed")]


def functional_cases(c):
    for shape, layout in STANDARD:
        c.op("aten.zero.default", c.t(shape, layout=layout))
        c.op("aten.lift_fresh_copy.default", c.t(shape, layout=layout))
        c.op("aten.fill.Tensor", c.t(shape, layout=layout), c.t(()))
    for dtype in (torch.float64, torch.int64, torch.bool, torch.bfloat16):
        c.op("aten.zero.default", c.t((3, 4), dtype=dtype))
        c.op("aten.fill.Tensor", c.t((3, 4), dtype=dtype), c.t((), dtype=torch.float32, lo=0, hi=3))
    c.op("aten.fill.Tensor", c.t((3, 4)), c.t((), dtype=torch.int64))
    c.op("aten.fill.Tensor", c.t((3, 4), dtype=torch.int64), c.t((), dtype=torch.float64))  # truncates
    c.op("aten.fill_.Tensor", c.t((3, 4), layout="transposed"), c.t(()), mutates=(0,))
    c.op("aten.fill.Tensor", c.t((3, 4)), c.t((1,)))  # error: not 0-dim
    c.op("aten.fill.Tensor", c.t((3, 4), dtype=torch.int8), c.t((), dtype=torch.int64, values=[300]))  # error


def scatter_cases(c):
    op = "aten.slice_scatter.default"
    for shape, layout in LAYOUTS3:
        x = c.t(shape, layout=layout)
        for dim, start, end, step in ((0, 0, 1, 1), (1, 1, None, 1), (-1, None, -1, 2), (1, 0, 100, 2)):
            src = A.slice.Tensor(x, dim, start, end, step)
            c.op(op, x, c.t(tuple(src.shape)), dim, start, end, step)
    x = c.t((4, 6))
    c.op(op, x, c.t((4, 2), layout="transposed"), 1, 1, 3)  # src of any layout
    c.op(op, x, c.t((4, 2), dtype=torch.float64), 1, 1, 3)  # src converted
    c.op(op, x, c.t((4, 3)), 1, 1, 3)  # error: src size
    c.op(op, x, c.t((4, 2)), 1, 1, 3, 0)  # error: step
    op = "aten.as_strided_scatter.default"
    # (Non-contiguous self only as int64: PyTorch 1.13's autograd asserts a contiguous self, so the
    # gradient record would fail; the layout does not depend on the dtype.)
    for shape, layout in LAYOUTS3:
        dtype = torch.float32 if layout == "contiguous" else torch.int64
        c.op(op, c.t(shape, layout=layout, dtype=dtype), c.t((2, 2), dtype=dtype), [2, 2], [1, 2], 1)
        c.op(op, c.t(shape, layout=layout, dtype=dtype), c.t((3,), dtype=dtype), [3], [2])
    c.op(op, c.t((16,)), c.t((2, 8)), [2, 8], [8, 1], 0)  # as the backward of a squeeze writes it
    c.op(op, c.t((4, 6)), c.t((2, 3), layout="transposed"), [2, 3], [6, 2], 3)
    c.op(op, c.t((4, 6)), c.t((2, 3), dtype=torch.float64), [2, 3], [6, 2], 3)
    c.op(op, c.t((4, 6)), c.t((2, 3)), [2, 2], [6, 2], 3)  # error: src size
    c.op(op, c.t((4, 6)), c.t((2, 2)), [2, 2], [60, 2], 3)  # error: out of the storage


def index_cases(c):
    op = "aten.index.Tensor"
    for shape, layout in LAYOUTS3:
        x = c.t(shape, layout=layout)
        c.op(op, x, [c.index((5,), shape[0])])
        c.op(op, x, [None, c.index((2, 2), shape[1])])
        c.op(op, x, [c.index((3,), shape[0]), c.index((3,), shape[1])])
        if len(shape) >= 3:
            c.op(op, x, [c.index((2,), shape[0]), None, c.index((2,), shape[2])])  # apart: to the front
            c.op(op, x, [None, c.index((2, 1), shape[1]), c.index((3,), shape[2])])  # broadcast together
    x = c.t((4, 3, 2))
    c.op(op, x, [c.index((), 4)])  # 0-dim index
    c.op(op, x, [c.index((3,), 4, layout="sliced")])
    c.op(op, x, [c.t((3,), dtype=torch.int64, lo=-4, hi=0)])  # negative indices
    c.op(op, c.t((2401, 3)), [c.index((49,), 2401)])  # Swin's relative position table, smaller
    for dtype in (torch.float64, torch.int64, torch.bool, torch.bfloat16):
        c.op(op, c.t((4, 3), dtype=dtype), [c.index((5,), 4)])
    c.op(op, x, [c.t((4,), dtype=torch.bool)])  # masks: the result size depends on values
    c.op(op, x, [None, c.t((3, 2), dtype=torch.bool)])
    c.op(op, x, [c.t((4,), dtype=torch.uint8, lo=0, hi=2), None, c.index((1,), 2)])
    # errors
    c.op(op, x, [c.index((2,), 4)] * 4)
    c.op(op, x, [c.t((2,), dtype=torch.int32, lo=0, hi=2)])
    c.op(op, x, [c.index((2,), 4), c.index((3,), 3)])
    c.op(op, x, [c.t((2,), dtype=torch.int64, values=[0, 4])])
    c.op(op, x, [None, c.t((2,), dtype=torch.int64, values=[0, -4])])
    c.op(op, x, [c.t((3,), dtype=torch.bool)])


def index_put_cases(c):
    op = "aten.index_put.default"
    for shape, layout in LAYOUTS3:
        x = c.t(shape, layout=layout)
        rest = list(shape[1:])
        c.op(op, x, [c.index((3,), shape[0])], c.t([3] + rest))
        c.op(op, x, [c.index((3,), shape[0])], c.t(rest[-1:]), True)  # values broadcast, repeated indices add
        c.op(op, x, [None, c.index((2,), shape[1])], c.t(()), False)
    x = c.t((4, 3, 2))
    c.op(op, x, [c.t((6,), dtype=torch.int64, values=[1, 1, 3, 1, 0, 3])], c.t((6, 3, 2)), True)
    c.op(op, x, [c.index((2,), 4), None, c.index((2,), 2)], c.t((2, 3)))
    c.op(op, c.t((169, 4)), [c.index((49,), 169)], c.t((49, 4)), True)  # Swin's backward, smaller
    c.op(op, x, [c.t((4,), dtype=torch.bool)], c.t(()))
    c.op(op, x, [c.t((4, 3), dtype=torch.bool)], c.t((2,)), True)
    for dtype in (torch.float64, torch.int64, torch.bool):
        c.op(op, c.t((4, 3), dtype=dtype), [c.index((5,), 4)], c.t((3,), dtype=dtype), True)
    c.op("aten.index_put_.default", c.t((4, 3), layout="transposed"), [c.index((2,), 4)], c.t((3,)), mutates=(0,))
    # errors
    c.op(op, x, [c.index((2,), 4)], c.t((3, 3, 2)))
    c.op(op, x, [c.index((2,), 4)], c.t((2, 3, 2), dtype=torch.float64))
    c.op(op, x, [c.t((1,), dtype=torch.int64, values=[7])], c.t(()))


def pad_cases(c):
    op = "aten.constant_pad_nd.default"
    for shape, layout in LAYOUTS3:
        c.op(op, c.t(shape, layout=layout), [1, 2])
        c.op(op, c.t(shape, layout=layout), [0, 0, 0, 1, 0, 1], 0.5)  # Swin pads H and W of NHWC
        c.op(op, c.t(shape, layout=layout), [0, 0])  # nothing positive: a clone
        c.op(op, c.t(shape, layout=layout), [-1, 0, 1, -1])
    c.op(op, c.t((2, 3)), [-2, -1])
    c.op(op, c.t((2, 3)), [-3, 1])
    c.op(op, c.t((0, 3)), [1, 1, 1, 1])
    c.op(op, c.t((2, 3), dtype=torch.int64), [1, 1], 2.5)
    c.op(op, c.t((2, 3), dtype=torch.bool), [1, 1], 1)
    c.op(op, c.t((2, 3, 2, 2, 2)), [1, 1])
    c.op(op, c.t((2, 3), dtype=torch.int8), [0, 0], 300)  # a clone: the value is not checked
    # errors
    c.op(op, c.t((2, 3)), [1, 1, 1])
    c.op(op, c.t((2, 3)), [1, 1, 1, 1, 1, 1])
    c.op(op, c.t((2, 3)), [-3, -1])
    c.op(op, c.t((2, 3), dtype=torch.int8), [1, 1], 300)


def roll_cases(c):
    op = "aten.roll.default"
    for shape, layout in LAYOUTS3:
        x = c.t(shape, layout=layout)
        c.op(op, x, [1], [1])
        c.op(op, x, [-1, 2], [0, -1])
        c.op(op, x, [shape[1]], [1])  # a whole turn
        c.op(op, x, [3])  # flattened
    c.op(op, c.t((2, 5, 5, 3)), [-3, -3], [1, 2])  # Swin's shifted windows
    c.op(op, c.t((2, 5, 5, 3), layout="channels_last"), [2, 2], [1, 2])
    c.op(op, c.t((0, 3), layout="transposed"), [1], [0])
    c.op(op, c.t(()), [1])
    for dtype in (torch.int64, torch.bool, torch.float64):
        c.op(op, c.t((3, 4), dtype=dtype), [5], [1])
    # errors
    c.op(op, c.t((3, 4)), [], [0])
    c.op(op, c.t((3, 4)), [1, 2], [0])
    c.op(op, c.t((3, 4)), [1], [0, 1])
    c.op(op, c.t((3, 4)), [1], [2])
    c.op(op, c.t(()), [1], [0])


def cases(c):
    functional_cases(c)
    scatter_cases(c)
    index_cases(c)
    index_put_cases(c)
    pad_cases(c)
    roll_cases(c)
