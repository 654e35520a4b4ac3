"""div with a rounding mode (div.Tensor_mode, div.Scalar_mode, div_.Tensor_mode): true, trunc
and floor division over layouts, every dtype (integers keep theirs under trunc and floor, and
fail on a zero divisor; bool has no kernel), signs, zeros and infinities, and long runs that
take ATen's vector loop."""
import torch

from oracle import STANDARD

MODES = (None, "trunc", "floor")
DTYPES = (torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.int32, torch.int16, torch.int8,
          torch.uint8)
INF = float("inf")
# Dividends and divisors with every sign combination, exact quotients, ties, and zeros.
A = [7.5, -7.5, 7.5, -7.5, -0.5, 0.5, 0.0, -0.0, 6.0, -6.0, 1.0, -1.0, 3.0, -3.0, 5.0, 0.25]
B = [2.0, 2.0, -2.0, -2.0, 2.0, -2.0, -1.0, 1.0, 3.0, 3.0, 0.0, 0.0, 0.0, INF, -INF, 0.125]


def tensor_cases(c, mode):
    op = "aten.div.Tensor_mode"
    for shape, layout in STANDARD:
        c.op(op, c.t(shape, layout=layout), c.t(shape, nonzero=True), rounding_mode=mode)
        c.op(op, c.t(shape), c.t(shape, layout=layout, nonzero=True), rounding_mode=mode)
    c.op(op, c.t((3, 1)), c.t((1, 4), nonzero=True), rounding_mode=mode)
    for dtype in DTYPES:
        lo = 0 if dtype == torch.uint8 else -20
        c.op(op, c.t((3, 4), dtype=dtype, lo=lo, hi=20), c.t((3, 4), dtype=dtype, lo=lo, hi=7, nonzero=True),
             rounding_mode=mode)
    c.op(op, c.t((3, 4), dtype=torch.int64, lo=-20, hi=20), c.t((3, 4), nonzero=True), rounding_mode=mode)  # to float
    c.op(op, c.t((16,), values=A), c.t((16,), values=[b for b in B if abs(b) != INF] + [4.0, -4.0]), rounding_mode=mode)
    c.op(op, c.t((48,), values=A * 3), c.t((48,), values=([b for b in B if abs(b) != INF] + [4.0, -4.0]) * 3),
         rounding_mode=mode)  # the vector loop
    c.op(op, c.t((40,), lo=-16, hi=16), c.t((40,), lo=-4, hi=4, nonzero=True), rounding_mode=mode)
    c.op(op, c.t((40,), dtype=torch.bfloat16, lo=-16, hi=16), c.t((40,), dtype=torch.bfloat16, lo=-4, hi=4,
                                                                      nonzero=True), rounding_mode=mode)


def scalar_cases(c, mode):
    op = "aten.div.Scalar_mode"
    for shape, layout in STANDARD:
        c.op(op, c.t(shape, layout=layout), 2.5, rounding_mode=mode)
    for other in (3, -2, 0.5, -0.0, True):
        c.op(op, c.t((3, 4), dtype=torch.int64, lo=-20, hi=20), other, rounding_mode=mode)
        c.op(op, c.t((3, 4), lo=-8, hi=8), other, rounding_mode=mode)
    c.op(op, c.t((3, 4), dtype=torch.float16), 0.3, rounding_mode=mode)
    c.op(op, c.t((3, 4), dtype=torch.bool), 2.5, rounding_mode=mode)
    c.op(op, c.t((40,), dtype=torch.int32, lo=-100, hi=100), 7, rounding_mode=mode)


def special_cases(c):
    op = "aten.div.Tensor_mode"
    for mode in MODES:
        # infinities and zero divisors (inputs stay finite: infinity only as an argument)
        c.op("aten.div.Scalar_mode", c.t((3, 4), values=A[:12]), INF, rounding_mode=mode)
        c.op("aten.div.Scalar_mode", c.t((3, 4), values=A[:12]), 0.0, rounding_mode=mode)
        c.op(op, c.t((3, 4), values=A[:12]), c.t((3, 4), values=[0.0] * 12), rounding_mode=mode)
        c.op(op, c.t((3, 4), dtype=torch.bool), c.t((3, 4), dtype=torch.bool), rounding_mode=mode)
    c.op("aten.div_.Tensor_mode", c.t((3, 4), dtype=torch.int64, lo=-20, hi=20),
         c.t((3, 4), dtype=torch.int64, lo=1, hi=5), rounding_mode="floor", mutates=(0,))
    c.op("aten.div_.Scalar_mode", c.t((3, 4), layout="transposed"), 0.75, rounding_mode="trunc", mutates=(0,))
    # errors
    for mode in ("trunc", "floor"):
        c.op(op, c.t((3, 4), dtype=torch.int64), c.t((3, 4), dtype=torch.int64, values=[1, 0] * 6), rounding_mode=mode)
        c.op("aten.div.Scalar_mode", c.t((3, 4), dtype=torch.int32), 0, rounding_mode=mode)
        c.op(op, c.t((3, 4), dtype=torch.uint8, lo=0, hi=9), c.t((3, 4), dtype=torch.uint8, lo=0, hi=2),
             rounding_mode=mode)
    c.op(op, c.t((3, 4)), c.t((3, 4), nonzero=True), rounding_mode="round")
    c.op("aten.div_.Tensor_mode", c.t((3, 4), dtype=torch.int64), c.t((3, 4), nonzero=True), rounding_mode=None,
         mutates=(0,))


def cases(c):
    for mode in MODES:
        tensor_cases(c, mode)
        scalar_cases(c, mode)
    special_cases(c)
