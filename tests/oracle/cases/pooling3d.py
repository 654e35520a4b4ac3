"""3-d pooling (Core ATen): avg_pool3d, max_pool3d_with_indices, _adaptive_avg_pool3d and their
backwards over layouts (channels_last_3d included: 1.13's results are contiguous whatever the
input), window arguments (stride=[] as the kernel size, single ints, padding, dilation, ceil_mode,
count_include_pad, divisor_override), dtypes and errors. Small cases come first in each op, so
they carry the gradient records (tests/oracle/oracle.py keeps the first ones that fit).

What 1.13 does here that one might not expect, recorded so Fathom does it too: avg_pool3d rejects
an input smaller than the kernel even where padding makes room; divisor_override is truncated to
32 bits; the max backward takes the pooled sizes from grad_output, reads indices in memory order
and skips index -1; the backwards do not check grad_output's batch (a larger one is read in part);
float16 adaptive pooling sums in float16 (rounding at every step, inf on large windows); the
adaptive backward checks nothing but dtypes and ranks."""
import torch

A = torch.ops.aten
CL3 = torch.channels_last_3d

LAYOUTS = (((1, 2, 4, 4, 4), "contiguous"), ((2, 3, 4, 5, 6), "contiguous"), ((2, 3, 4, 5, 6), "channels_last_3d"),
           ((2, 3, 4, 4, 4), "permuted"), ((2, 3, 4, 4, 6), "sliced"), ((2, 3, 4, 4, 4), "expanded"),
           ((3, 4, 5, 6), "contiguous"), ((3, 4, 5, 6), "transposed"), ((1, 2, 4, 4, 4), "channels_last_3d"),
           ((0, 3, 4, 4, 4), "contiguous"))


def avg_pool_cases(c):
    op = "aten.avg_pool3d.default"
    x = lambda shape=(2, 3, 5, 5, 5), layout="contiguous", **kw: c.t(shape, layout=layout, **kw)
    c.op(op, x((1, 2, 4, 4, 4)), [2, 2, 2], [])
    c.op(op, x((1, 2, 5, 5, 4)), [3, 3, 2], [2, 2, 1], [1, 1, 0], False, False)
    c.op(op, x((1, 2, 5, 5, 5)), [3, 3, 3], [2, 2, 2], [1, 1, 1], True, True)  # ceil mode
    c.op(op, x((1, 2, 5, 4, 5)), [3, 2, 3], [2, 1, 2], [1, 1, 1], True, False, 5)
    for shape, layout in LAYOUTS:
        c.op(op, x(shape, layout), [2, 2, 2], [])
    for include_pad in (True, False):
        c.op(op, x(), [3, 3, 3], [2, 2, 2], [1, 1, 1], False, include_pad)
        c.op(op, x(layout="channels_last_3d"), [3, 2, 3], [1, 2, 2], [1, 1, 0], True, include_pad)
    c.op(op, x(), 3, 2, 1)  # single ints
    c.op(op, x(), [2], [1], [0])  # lists of one
    c.op(op, x(), [3, 3, 3], [2, 2, 2], [1, 1, 1], False, True, 7)
    c.op(op, x(), [2, 2, 2], [2, 2, 2], [0, 0, 0], False, True, 2 ** 32 + 2)  # read as the 32-bit int 2
    c.op(op, x(), [2, 2, 2], [2, 2, 2], [0, 0, 0], False, True, -3)
    c.op(op, x(dtype=torch.float64), [3, 3, 3], [2, 2, 2], [1, 1, 1])
    for include_pad in (True, False):  # integer division truncates toward zero
        c.op(op, x(dtype=torch.int64, lo=-20, hi=20), [3, 3, 3], [2, 2, 2], [1, 1, 1], False, include_pad)
    c.op(op, x(dtype=torch.int64, lo=-20, hi=20), [3, 3, 3], [1, 1, 1], [1, 1, 1], True, True, 7)
    # errors
    c.op(op, x(), [], [])
    c.op(op, x(), [2, 2], [])
    c.op(op, x(), [2, 2, 2], [1, 1])
    c.op(op, x(), [2, 2, 2], [], [1, 1])
    c.op(op, x(), [0, 2, 2], [])  # stride = kernel = 0
    c.op(op, x(), [2, 2, 2], [-1, 1, 1])
    c.op(op, x(), [2, 2, 2], [1], [2])
    c.op(op, x(), [2, 2, 2], [1], [-1])
    c.op(op, x(), [2 ** 31, 2, 2], [1])
    c.op(op, x((2, 3, 2, 6, 6)), [3, 3, 3], [1], [1])  # smaller than the kernel, though padded
    c.op(op, x(), [2, 2, 2], [], [0], False, True, 0)
    c.op(op, x((3, 6, 6)), [2, 2, 2])
    c.op(op, x((1, 2, 3, 4, 4, 4)), [2, 2, 2])
    c.op(op, x((2, 0, 4, 4, 4)), [2, 2, 2])
    c.op(op, x((0, 4, 4, 4)), [2, 2, 2])
    c.op(op, x((2, 3, 4, 0, 4)), [2, 2, 2])


def avg_pool_backward_cases(c):
    op = "aten.avg_pool3d_backward.default"
    params = (((1, 2, 4, 4, 4), "contiguous", ([2, 2, 2], [2, 2, 2], [0, 0, 0], False, True, None)),
              ((1, 2, 5, 5, 4), "contiguous", ([3, 3, 2], [2, 2, 1], [1, 1, 0], True, False, None)),
              ((1, 2, 5, 4, 5), "channels_last_3d", ([3, 2, 3], [2, 1, 2], [1, 1, 1], True, True, 5)),
              ((2, 3, 5, 5, 5), "contiguous", ([3, 3, 3], [2, 2, 2], [1, 1, 1], False, True, None)),
              ((2, 3, 4, 5, 6), "channels_last_3d", ([2, 2, 2], [], [0], False, True, None)),
              ((2, 3, 4, 4, 4), "permuted", ([3, 3, 3], [1, 2, 1], [1, 1, 1], True, False, None)),
              ((3, 4, 5, 6), "contiguous", ([2, 3, 2], [1], [1], False, True, 4)))
    for dtype in (torch.float32, torch.float64):
        for shape, layout, p in params:
            x = c.t(shape, dtype=dtype, layout=layout)
            out = A.avg_pool3d.default(x, *p)
            c.op(op, c.t(tuple(out.shape), dtype=dtype), x, *p)
    x = c.t((2, 3, 4, 4, 4), dtype=torch.int64, lo=-20, hi=20)
    c.op(op, c.t((2, 3, 2, 2, 2), dtype=torch.int64, lo=-20, hi=20), x, [2, 2, 2], [], [0], False, True, None)
    x = c.t((2, 3, 4, 4, 4))
    c.op(op, c.t((2, 3, 2, 2, 2), layout="channels_last_3d"), x, [2, 2, 2], [], [0], False, True, None)
    c.op(op, c.t((3, 3, 2, 2, 2)), x, [2, 2, 2], [], [0], False, True, None)  # a larger batch: the first ones
    c.op(op, c.t((2, 3, 2, 2, 2)), x, [2, 2, 2], [], [0], False, True, 2 ** 32 + 3)
    # errors
    c.op(op, c.t((2, 3, 2, 3, 2)), x, [2, 2, 2], [], [0], False, True, None)
    c.op(op, c.t((3, 2, 2, 2)), x, [2, 2, 2], [], [0], False, True, None)
    c.op(op, c.t((2, 2, 2, 2, 2)), x, [2, 2, 2], [], [0], False, True, None)
    c.op(op, c.t((2, 3, 2, 2, 2), dtype=torch.float64), x, [2, 2, 2], [], [0], False, True, None)
    c.op(op, c.t((2, 3, 2, 2, 2)), x, [2, 2, 2], [], [0], False, True, 0)
    c.op(op, c.t((2, 3, 2, 2, 2)), x, [2, 2], [], [0], False, True, None)
    c.op(op, c.t((2, 3, 1, 4, 4)), c.t((2, 3, 2, 6, 6)), [3, 2, 2], [], [1, 0, 0], False, True, None)
    c.op(op, c.t((2, 3, 2, 2, 2)), c.t((4, 4, 4)), [2, 2, 2], [], [0], False, True, None)
    c.op(op, c.t((2, 0, 2, 2, 2)), c.t((2, 0, 4, 4, 4)), [2, 2, 2], [], [0], False, True, None)


def max_pool_cases(c):
    op = "aten.max_pool3d_with_indices.default"
    x = lambda shape=(2, 3, 5, 5, 5), layout="contiguous", **kw: c.t(shape, layout=layout, lo=-1, hi=1, **kw)
    c.op(op, x((1, 2, 4, 4, 4)), [2, 2, 2], [])
    c.op(op, x((1, 2, 5, 5, 4)), [3, 3, 2], [2, 2, 1], [1, 1, 0])
    c.op(op, x((1, 2, 5, 5, 5)), [3, 3, 3], [2, 2, 2], [1, 1, 1], [1, 1, 1], True)  # ceil mode
    c.op(op, x((1, 2, 5, 6, 5)), [2, 3, 2], [1, 2, 1], [1, 1, 0], [2, 1, 2])  # dilation
    for shape, layout in LAYOUTS:
        c.op(op, x(shape, layout), [2, 2, 2], [])
    c.op(op, x(), [3, 3, 3], [2, 2, 2], [1, 1, 1])
    c.op(op, x(layout="channels_last_3d"), [3, 2, 3], [2, 1, 2], [1, 1, 0], [1, 2, 1], True)
    c.op(op, x((2, 3, 2, 6, 6)), [3, 3, 3], [1], [1])  # padding makes room
    c.op(op, x(), 3, 2, 1, 1)  # single ints
    c.op(op, x(), [2], [1], [0], [2])  # lists of one
    c.op(op, x(dtype=torch.float64), [3, 3, 3], [2, 2, 2], [1, 1, 1])
    nan, inf = float("nan"), float("inf")  # NaN wins its window; an all -inf window reports its first
    values = [1, nan, 3, 2, -inf, -inf, -inf, -inf, 0.5, 0.25, 0.75, 0.125, -inf, -inf, -inf, -inf]
    c.op(op, c.t((1, 2, 2, 2, 2), values=values), [1, 2, 2], [1, 1, 1], [0, 1, 1])
    # errors
    c.op(op, x(), [], [])
    c.op(op, x(), [2, 2], [])
    c.op(op, x(), [2, 2, 2], [1, 1])
    c.op(op, x(), [2, 2, 2], [], [1, 1])
    c.op(op, x(), [2, 2, 2], [], [0], [1, 1])
    c.op(op, x(), [0, 2, 2], [])
    c.op(op, x(), [2, 2, 2], [-1, 1, 1])
    c.op(op, x(), [2, 2, 2], [1], [0], [0])
    c.op(op, x(), [2, 2, 2], [1], [2])
    c.op(op, x(), [2, 2, 2], [2 ** 31])
    c.op(op, x((2, 3, 2, 6, 6)), [3, 3, 3], [1], [0])  # output too small
    c.op(op, x((3, 6, 6)), [2, 2, 2])
    c.op(op, x((2, 0, 4, 4, 4)), [2, 2, 2])
    c.op(op, x((0, 4, 4, 4)), [2, 2, 2])


def max_pool_backward_cases(c):
    op = "aten.max_pool3d_with_indices_backward.default"
    params = (((1, 2, 4, 4, 4), "contiguous", ([2, 2, 2], [2, 2, 2], [0, 0, 0], [1, 1, 1], False)),
              ((1, 2, 5, 5, 5), "contiguous", ([3, 3, 3], [1, 1, 1], [1, 1, 1], [1, 1, 1], False)),
              ((1, 2, 5, 6, 5), "channels_last_3d", ([2, 3, 2], [1, 2, 1], [1, 1, 0], [2, 1, 2], True)),
              ((2, 3, 5, 5, 5), "contiguous", ([3, 3, 3], [2, 2, 2], [1, 1, 1], [1, 1, 1], True)),
              ((2, 3, 4, 5, 6), "channels_last_3d", ([2, 2, 2], [], [0], [1], False)),
              ((2, 3, 4, 4, 4), "permuted", ([2, 2, 2], [1, 1, 1], [0, 0, 0], [1, 1, 1], False)),
              ((3, 4, 5, 6), "contiguous", ([3, 3, 3], [2, 2, 2], [1, 1, 1], [1, 1, 1], True)))
    for dtype in (torch.float32, torch.float64):
        for shape, layout, p in params:
            x = c.t(shape, dtype=dtype, layout=layout, lo=-1, hi=1)
            out, idx = A.max_pool3d_with_indices.default(x, *p)
            c.op(op, c.t(tuple(out.shape), dtype=dtype), x, *p, idx)
    x = c.t((2, 3, 4, 4, 4), lo=-1, hi=1)
    p = ([2, 2, 2], [2, 2, 2], [0, 0, 0], [1, 1, 1], False)
    out, idx = A.max_pool3d_with_indices.default(x, *p)
    c.op(op, c.t((2, 3, 2, 2, 2), layout="channels_last_3d"), x, *p, idx)
    # indices read in memory order: the same values laid out channels-last go to other places
    c.op(op, c.t((2, 3, 2, 2, 2)), x, *p, idx.contiguous(memory_format=CL3))
    c.op(op, c.t((2, 3, 2, 2, 2)), x, *p, idx.transpose(-1, -2).contiguous().transpose(-1, -2))
    idx_skip = idx.clone()
    idx_skip[0, 1] = -1  # skipped
    c.op(op, c.t((2, 3, 2, 2, 2)), x, *p, idx_skip)
    c.op(op, c.t((3, 3, 2, 2, 2)), x, *p, torch.cat([idx, idx[:1]]))  # larger batches: the first ones
    c.op(op, c.t((2, 3, 1, 2, 2)), x, *p, idx[:, :, :1].contiguous())  # the pooled sizes are grad_output's own
    c.op(op, c.t((2, 3, 2, 2, 2)), x, [2, 2, 2], [], [0], [1], False, idx)
    # errors
    c.op(op, c.t((2, 3, 2, 2, 2), dtype=torch.float64), x, *p, idx)
    c.op(op, c.t((2, 3, 2, 2, 2)), x, *p, idx.to(torch.int32))
    c.op(op, c.t((2, 2, 2, 2, 2)), x, *p, idx)
    c.op(op, c.t((3, 2, 2, 2)), x, *p, idx)
    c.op(op, c.t((2, 3, 2, 2, 2)), x, *p, idx[:, :, :1])
    c.op(op, c.t((2, 3, 2, 2, 2)), x, [2, 2], [2, 2, 2], [0], [1], False, idx)
    c.op(op, c.t((2, 3, 2, 2, 2)), x, [2, 2, 2], [2, 2, 2], [2], [1], False, idx)
    c.op(op, c.t((2, 3, 2, 2, 2)), x, [2, 2, 2], [0, 1, 1], [0], [1], False, idx)
    c.op(op, c.t((2, 3, 2, 2, 2)), c.t((4, 4, 4)), *p, idx)
    c.op(op, c.t((2, 3, 0, 2, 2)), x, *p, idx[:, :, :0])


def adaptive_cases(c):
    op = "aten._adaptive_avg_pool3d.default"
    x = lambda shape=(2, 3, 5, 7, 6), layout="contiguous", **kw: c.t(shape, layout=layout, **kw)
    c.op(op, x((1, 2, 5, 4, 3)), [2, 3, 2])
    c.op(op, x((1, 2, 4, 4, 4)), [1, 1, 1])
    c.op(op, x((1, 2, 3, 4, 2)), [5, 6, 3])  # upsampling
    for shape, layout in LAYOUTS:
        c.op(op, x(shape, layout), [2, 3, 2])
    c.op(op, x((0, 4, 4, 4)), [2, 2, 2])  # dim 0 of a 4-d input may be empty
    for size in ([1, 1, 1], [5, 7, 6], [3, 3, 4], [2, 5, 4], [0, 2, 2], 2):  # overlapping windows, one int
        c.op(op, x(), size)
    c.op(op, x(layout="channels_last_3d"), [1, 1, 1])
    c.op(op, x(dtype=torch.float64), [3, 4, 2])
    for dtype in (torch.float16, torch.bfloat16, torch.int64):
        c.op(op, x(dtype=dtype), [3, 4, 2])
    c.op(op, x((1, 2, 6, 6, 6), dtype=torch.float16, lo=10, hi=20), [1, 2, 1])  # float16 sums round at every step
    c.op(op, x((1, 1, 10, 10, 10), dtype=torch.float16, lo=100, hi=104), [1, 1, 1])  # ... and overflow
    c.op(op, x((2, 3, 8, 8, 8), lo=-100, hi=100), [3, 3, 3])  # sums that round
    # errors
    c.op(op, x(), [2, 2])
    c.op(op, x((3, 6, 6)), [2, 2, 2])
    c.op(op, x((1, 2, 3, 4, 4, 4)), [2, 2, 2])
    c.op(op, x((2, 0, 4, 4, 4)), [2, 2, 2])
    c.op(op, x((2, 3, 0, 4, 4)), [2, 2, 2])
    c.op(op, x((1, 1, 1, 1)), [1, 1, -1])


def adaptive_backward_cases(c):
    op = "aten._adaptive_avg_pool3d_backward.default"
    for shape, layout, size in (((1, 2, 5, 4, 3), "contiguous", [2, 3, 2]), ((1, 2, 3, 4, 2), "contiguous", [5, 6, 3]),
                                ((2, 3, 5, 7, 6), "channels_last_3d", [3, 3, 4]), ((2, 3, 4, 4, 4), "permuted", [1, 1, 1]),
                                ((2, 3, 4, 4, 6), "sliced", [2, 3, 2]), ((3, 4, 5, 6), "transposed", [2, 5, 4])):
        for dtype in (torch.float32, torch.float64, torch.float16):
            xi = c.t(shape, dtype=dtype, layout=layout)
            out = A._adaptive_avg_pool3d.default(xi, size)
            c.op(op, c.t(tuple(out.shape), dtype=dtype), xi)
    xi = c.t((2, 3, 5, 7, 6))
    c.op(op, c.t((2, 3, 3, 3, 2), layout="channels_last_3d"), xi)  # grad_output's layout does not matter
    c.op(op, c.t((2, 3, 2, 3, 2)), xi.contiguous(memory_format=CL3))
    c.op(op, c.t((3, 3, 2, 2, 2)), xi)  # a larger batch: the first ones
    c.op(op, c.t((6, 2, 2, 2)), xi)  # planes read in order, whatever the rank
    c.op(op, c.t((2, 3, 2, 2, 2)), xi[0])
    c.op(op, c.t((2, 3, 0, 3, 3)), xi)  # nothing pooled: zeros
    # float16 divides and adds in float16, rounding at every step
    c.op(op, c.t((1, 2, 3, 3, 3), dtype=torch.float16, lo=10, hi=20), c.t((1, 2, 7, 7, 7), dtype=torch.float16))
    # errors
    c.op(op, c.t((2, 3, 2, 2, 2), dtype=torch.float64), xi)
    c.op(op, c.t((2, 3, 2, 2, 2)), xi.double())
    c.op(op, c.t((2, 3, 2, 2, 2), dtype=torch.int64), xi.long())
    c.op(op, c.t((3, 3, 3)), c.t((3, 6, 6)))
    c.op(op, c.t((2, 2)), xi)


def cases(c):
    avg_pool_cases(c)
    avg_pool_backward_cases(c)
    max_pool_cases(c)
    max_pool_backward_cases(c)
    adaptive_cases(c)
    adaptive_backward_cases(c)
