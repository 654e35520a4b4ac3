"""Elementwise ops and their backward helpers: every layout of STANDARD, mixed layouts (which
decide TensorIterator's output strides), broadcasting, type promotion, and errors."""
import torch

from oracle import STANDARD

FLOATS = (torch.float32, torch.float64, torch.float16, torch.bfloat16)


def binary(c, name, **kw):
    for shape, layout in STANDARD:
        c.op(name, c.t(shape, layout=layout), c.t(shape), **kw)
        c.op(name, c.t(shape), c.t(shape, layout=layout), **kw)
    # mixed layouts: the first input that orders two dims decides
    c.op(name, c.t((3, 4), layout="transposed"), c.t((3, 4), layout="sliced"), **kw)
    c.op(name, c.t((2, 3, 2, 3), layout="channels_last"), c.t((2, 3, 2, 3), layout="permuted"), **kw)
    # broadcasting
    c.op(name, c.t((3, 1)), c.t((1, 4)), **kw)
    c.op(name, c.t((4,)), c.t((2, 3, 4), layout="permuted"), **kw)
    c.op(name, c.t((2, 3, 2, 3), layout="channels_last"), c.t((3, 1, 1)), **kw)
    c.op(name, c.t((3, 4)), c.t((5,)), **kw)  # error: not broadcastable
    for dtype in FLOATS[1:] + (torch.int64, torch.int32):
        c.op(name, c.t((3, 4), dtype=dtype), c.t((3, 4), dtype=dtype, nonzero=True), **kw)
    # promotion: int with float, zero-dim with dim tensors
    c.op(name, c.t((3, 4), dtype=torch.int64), c.t((3, 4), nonzero=True), **kw)
    c.op(name, c.t((3, 4), dtype=torch.float16), c.t((), dtype=torch.float64, nonzero=True), **kw)


def scalar(c, name, values=(2, 0.5), **kw):
    for shape, layout in STANDARD:
        c.op(name, c.t(shape, layout=layout), values[-1], **kw)
    for v in values:
        c.op(name, c.t((3, 4), dtype=torch.int64), v, **kw)
        c.op(name, c.t((3, 4), dtype=torch.float16), v, **kw)


def unary(c, name, dtypes=FLOATS, **t_kw):
    for shape, layout in STANDARD:
        c.op(name, c.t(shape, layout=layout, **t_kw))
    for dtype in dtypes[1:]:
        c.op(name, c.t((3, 4), dtype=dtype, **t_kw))


def cases(c):
    binary(c, "aten.add.Tensor")
    binary(c, "aten.add.Tensor", alpha=2)
    binary(c, "aten.sub.Tensor")
    binary(c, "aten.mul.Tensor")
    binary(c, "aten.div.Tensor")
    scalar(c, "aten.add.Scalar")
    scalar(c, "aten.sub.Scalar")
    scalar(c, "aten.mul.Scalar")
    scalar(c, "aten.div.Scalar")
    c.op("aten.add.Tensor", c.t((3, 4), dtype=torch.int64), c.t((3, 4), dtype=torch.int64), alpha=0.5)  # error
    c.op("aten.sub.Tensor", c.t((3, 4), dtype=torch.bool), c.t((3, 4), dtype=torch.bool))  # error
    unary(c, "aten.neg.default", dtypes=FLOATS + (torch.int64,))
    unary(c, "aten.relu.default", dtypes=FLOATS + (torch.int64,))
    unary(c, "aten.exp.default", hi=2.0)
    unary(c, "aten.tanh.default")
    unary(c, "aten.sigmoid.default")
    c.op("aten.exp.default", c.t((3, 4), dtype=torch.int64, lo=-3, hi=3))
    for shape, layout in STANDARD:
        c.op("aten.threshold_backward.default", c.t(shape), c.t(shape, layout=layout), 0)
        c.op("aten.threshold_backward.default", c.t(shape, layout=layout), c.t(shape), 0.5)
