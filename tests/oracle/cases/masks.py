"""masked_fill with masks of every dtype and with a tensor value. PyTorch 1.13 reads a mask that
is not bool as raw bytes, the first byte of each element, which must be 0 or 1: an int64 mask of
0s and 1s works (256 reads as 0, 2 is an error), uint8 is deprecated but works, a float mask of
1.0 reads as 0. masked_fill.Tensor takes a 0-dim value tensor of any dtype."""
import torch

from oracle import STANDARD

MASK_DTYPES = (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.float32, torch.float64)


def scalar_cases(c):
    op = "aten.masked_fill.Scalar"
    for dtype in MASK_DTYPES:
        c.op(op, c.t((3, 4)), c.t((3, 4), dtype=dtype, lo=0, hi=2), -1.5)
    for shape, layout in STANDARD:
        c.op(op, c.t(shape), c.t(shape, dtype=torch.int64, layout=layout, lo=0, hi=2), 2.0)
    c.op(op, c.t((3, 4), layout="transposed"), c.t((4,), dtype=torch.int64, lo=0, hi=2), 2.0)  # broadcast
    c.op(op, c.t((3, 1)), c.t((3, 4), dtype=torch.int32, lo=0, hi=2), 2.0)
    c.op(op, c.t((3, 4), dtype=torch.int64), c.t((3, 4), dtype=torch.int64, lo=0, hi=2), 7)
    c.op(op, c.t((3, 4)), c.t((3, 4), dtype=torch.int64, values=[0, 1, 256, 257, 512, 1, 0, 0, 1, 1, 0, 768]), 2.0)
    c.op(op, c.t((3, 4)), c.t((3, 4), values=[0.0, 1.0, 0.5, -2.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.25, 0.0, 0.0]), 2.0)
    c.op("aten.masked_fill_.Scalar", c.t((3, 4)), c.t((3, 4), dtype=torch.int64, lo=0, hi=2), -1.0, mutates=(0,))
    # errors
    c.op(op, c.t((3, 4)), c.t((3, 4), dtype=torch.int64, values=[0, 1, 2] * 4), 2.0)
    c.op(op, c.t((3, 4)), c.t((3, 4), dtype=torch.uint8, values=[0, 1, 3] * 4), 2.0)
    c.op(op, c.t((3, 4)), c.t((3, 4), dtype=torch.int64, values=[-1, 0, 1] * 4), 2.0)


def tensor_cases(c):
    op = "aten.masked_fill.Tensor"
    for shape, layout in STANDARD:
        c.op(op, c.t(shape, layout=layout), c.t(shape, dtype=torch.bool), c.t(()))
        c.op(op, c.t(shape), c.t(shape, dtype=torch.bool, layout=layout), c.t((), dtype=torch.float64))
    for value_dtype in (torch.int64, torch.float64, torch.bool, torch.float16):
        c.op(op, c.t((3, 4)), c.t((3, 4), dtype=torch.bool), c.t((), dtype=value_dtype, lo=0, hi=3))
        c.op(op, c.t((3, 4), dtype=torch.int64), c.t((3, 4), dtype=torch.bool), c.t((), dtype=value_dtype, lo=0, hi=3))
    c.op(op, c.t((3, 4)), c.t((3, 4), dtype=torch.int64, lo=0, hi=2), c.t(()))
    c.op(op, c.t((3, 1)), c.t((4,), dtype=torch.bool), c.t(()))
    c.op("aten.masked_fill_.Tensor", c.t((3, 4), layout="transposed"), c.t((3, 4), dtype=torch.bool), c.t(()),
         mutates=(0,))
    # errors
    c.op(op, c.t((3, 4)), c.t((3, 4), dtype=torch.bool), c.t((1,)))
    c.op(op, c.t((3, 4), dtype=torch.int8), c.t((3, 4), dtype=torch.bool), c.t((), dtype=torch.int64, values=[300]))


def cases(c):
    scalar_cases(c)
    tensor_cases(c)
