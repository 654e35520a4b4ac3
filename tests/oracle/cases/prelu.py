"""PReLU as PyTorch 1.13 records it (nn.PReLU in AOT graphs: aten.prelu and, in backward graphs,
aten.prelu_backward): one weight or one per channel (dim 1; a 1-d input has one channel), every
input layout, float32, float64, bfloat16, and errors. (torch 2.x's _prelu_kernel and its backward
are not in 1.13: tests/engine/ops/PreluOpsTest.cpp checks them.)

What 1.13 does here that one might not expect, recorded so Fathom does it too: the result and
grad_input are laid out in self's suggested memory format (channels_last stays, a transposed or
expanded input gives a contiguous result); the weight count is checked before the weight's rank
(a [3, 1] weight on 3 channels is refused for its rank, on 2 channels for its count); a zero-dim
input takes a single weight only; grad_weight has weight's shape (0-d for a 0-d weight)."""
import torch

LAYOUTS = (((2, 3, 4, 5), "contiguous"), ((2, 3, 4, 5), "channels_last"), ((2, 3, 4, 5), "transposed"),
           ((2, 3, 4, 5), "sliced"), ((2, 3, 4, 5), "expanded"), ((3, 3, 4), "permuted"), ((2, 3, 2, 4, 4), "channels_last_3d"),
           ((4, 3), "contiguous"), ((4, 3), "transposed"), ((5,), "contiguous"), ((), "contiguous"), ((0, 3), "contiguous"))


def weights(c, channels, dtype=torch.float32):
    yield c.t((1,), dtype=dtype, lo=-1, hi=1)
    yield c.t((), dtype=dtype, lo=-1, hi=1)
    if channels is not None:
        yield c.t((channels,), dtype=dtype, lo=-1, hi=1)


def prelu_cases(c):
    for shape, layout in LAYOUTS:
        channels = shape[1] if len(shape) > 1 else None
        for w in weights(c, channels):
            c.op("aten.prelu.default", c.t(shape, layout=layout), w)
    c.op("aten.prelu.default", c.t((2, 3, 4)), c.t((6,), lo=-1, hi=1, layout="sliced"))  # a strided weight
    for dtype in (torch.float64, torch.bfloat16):
        c.op("aten.prelu.default", c.t((2, 3, 4), dtype=dtype), c.t((3,), dtype=dtype, lo=-1, hi=1))
    # errors
    c.op("aten.prelu.default", c.t((2, 3, 4)), c.t((4,)))  # count is not the channels
    c.op("aten.prelu.default", c.t((2, 3, 4)), c.t((3, 1)))  # rank 2
    c.op("aten.prelu.default", c.t((2, 2, 4)), c.t((3, 1)))  # rank 2, and the count differs first
    c.op("aten.prelu.default", c.t(()), c.t((3,)))  # zero-dim input, several weights
    c.op("aten.prelu.default", c.t((5,)), c.t((5,)))  # a 1-d input has one channel
    c.op("aten.prelu.default", c.t((2, 3), dtype=torch.int64), c.t((3,), dtype=torch.int64))
    c.op("aten.prelu.default", c.t((2, 3)), c.t((3,), dtype=torch.float64))


def backward_cases(c):
    op = "aten.prelu_backward.default"
    for shape, layout in LAYOUTS:
        channels = shape[1] if len(shape) > 1 else None
        for w in weights(c, channels):
            c.op(op, c.t(shape, lo=-2, hi=2), c.t(shape, layout=layout), w)
    c.op(op, c.t((2, 3, 4, 5), layout="channels_last"), c.t((2, 3, 4, 5)), c.t((3,), lo=-1, hi=1))
    c.op(op, c.t((2, 3, 4, 5), layout="permuted"), c.t((2, 3, 4, 5), layout="transposed"), c.t((3,), lo=-1, hi=1))
    for dtype in (torch.float64, torch.bfloat16):
        c.op(op, c.t((2, 3, 4), dtype=dtype), c.t((2, 3, 4), dtype=dtype), c.t((3,), dtype=dtype, lo=-1, hi=1))
        c.op(op, c.t((2, 3, 4), dtype=dtype), c.t((2, 3, 4), dtype=dtype), c.t((1,), dtype=dtype, lo=-1, hi=1))
    c.op(op, c.t((8, 16, 9, 9)), c.t((8, 16, 9, 9)), c.t((16,), lo=-1, hi=1))  # long sums
    # errors
    c.op(op, c.t((2, 3, 4)), c.t((2, 3, 4)), c.t((4,)))
    c.op(op, c.t((2, 3, 4)), c.t((2, 3, 4)), c.t((3, 1)))
    c.op(op, c.t((2, 3, 4), dtype=torch.int64), c.t((2, 3, 4), dtype=torch.int64), c.t((3,), dtype=torch.int64))


def cases(c):
    prelu_cases(c)
    backward_cases(c)
