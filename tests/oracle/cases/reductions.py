"""Reductions (sum, mean, amax, amin, max.dim, min.dim, var, argmax, argmin, prod, any, cumsum) and
normalizations (softmax,
log_softmax, layer_norm, and their backward): every layout of STANDARD, dims incl. negative and
empty lists, keepdim, dtypes, size-0 reductions, and errors. PyTorch 1.13 lays every result out
contiguously, whatever the input's strides; the layout sweep checks exactly that."""
import torch

from oracle import STANDARD

FLOATS = (torch.float32, torch.float64, torch.float16, torch.bfloat16)
INTS = (torch.int64, torch.int32, torch.uint8, torch.bool)


def dims_for(rank):
    """Dim arguments worth trying on a tensor of this rank: every dim, the last as -1, two dims."""
    if rank == 0:
        return [[0], [-1]]
    out = [[d] for d in range(rank)] + [[-1]]
    if rank >= 2:
        out += [[0, -1], [-2, -1]]
    if rank >= 3:
        out += [[0, 2]]
    return out


def sum_like(c):
    for shape, layout in STANDARD:
        x = c.t(shape, layout=layout)
        c.op("aten.sum.default", x)
        for dims in dims_for(len(shape)):
            for keepdim in (False, True):
                c.op("aten.sum.dim_IntList", x, dims, keepdim)
                c.op("aten.mean.dim", x, dims, keepdim)
        c.op("aten.sum.dim_IntList", x, [], True)  # empty list: every dim
        c.op("aten.mean.dim", x, None, False)
        c.op("aten.mean.default", x)
    for dtype in FLOATS[1:] + INTS:
        x = c.t((3, 4), dtype=dtype, lo=0 if dtype == torch.uint8 else -4, hi=8)
        c.op("aten.sum.default", x)
        c.op("aten.mean.default", x)  # an error for integer dtypes
        c.op("aten.mean.default", x, dtype=torch.float64)
        c.op("aten.sum.dim_IntList", x, [1], False)
        c.op("aten.mean.dim", x, [0], True)  # error for integer dtypes
        c.op("aten.mean.dim", x, [-1], False, dtype=torch.float64)
    c.op("aten.sum.dim_IntList", c.t((3, 4)), [1], False, dtype=torch.int64)
    c.op("aten.sum.default", c.t((3, 4), dtype=torch.int32), dtype=torch.float16)
    c.op("aten.mean.dim", c.t((2, 3, 4), dtype=torch.float16), [0, 1], False)
    c.op("aten.mean.dim", c.t((2, 3, 4), dtype=torch.bfloat16), [-1], True)
    c.op("aten.sum.dim_IntList", c.t((0, 4)), [0], False)  # 0
    c.op("aten.mean.dim", c.t((0, 4)), [0], True)  # nan
    c.op("aten.mean.dim", c.t((0, 4)), [1], True)  # empty result
    # errors: dim out of range, repeated dim
    c.op("aten.sum.dim_IntList", c.t((3, 4)), [2], False)
    c.op("aten.sum.dim_IntList", c.t((3, 4)), [1, -1], False)
    c.op("aten.mean.dim", c.t(()), [1], False)


def max_like(c):
    for shape, layout in STANDARD:
        x = c.t(shape, layout=layout)
        empty = 0 in shape
        for keepdim in (False, True):
            for dims in dims_for(len(shape)):
                c.op("aten.amax.default", x, dims, keepdim)
                if len(dims) == 1:
                    c.op("aten.max.dim", x, dims[0], keepdim)
                    c.op("aten.argmax.default", x, dims[0], keepdim)
            c.op("aten.argmax.default", x, None, keepdim)
        c.op("aten.amax.default", x)  # default dim=[]: every dim (error when empty)
        if not empty:
            c.op("aten.amax.default", x, [], True)
    # ties: the first maximum. (NaN and inf inputs: see core_aten below.)
    ties = c.t((2, 4), values=[1, 3, 3, 2, 5, 5, 5, 5])
    for x in (ties,):
        c.op("aten.amax.default", x, [1])
        c.op("aten.max.dim", x, 1)
        c.op("aten.max.dim", x, 0, True)
        c.op("aten.argmax.default", x, 1)
        c.op("aten.argmax.default", x)
    signed_zero = c.t((2, 2), values=[-0.0, 0.0, 0.0, -0.0])
    c.op("aten.amax.default", signed_zero, [1])
    c.op("aten.max.dim", signed_zero, 1)
    for dtype in FLOATS[1:] + INTS:
        x = c.t((3, 4), dtype=dtype, lo=0 if dtype == torch.uint8 else -4, hi=8)
        c.op("aten.amax.default", x, [1])
        c.op("aten.max.dim", x, 0)
        c.op("aten.argmax.default", x, -1, True)
        c.op("aten.argmax.default", x)
    # errors: empty reductions, bad dims, repeated dims
    c.op("aten.amax.default", c.t((0, 4)), [-2])
    c.op("aten.max.dim", c.t((0, 4)), 0)
    c.op("aten.argmax.default", c.t((0, 4)), 0)
    c.op("aten.argmax.default", c.t((0, 4)))
    c.op("aten.amax.default", c.t((3, 4)), [0, 0])
    c.op("aten.max.dim", c.t((3, 4)), 2)
    c.op("aten.argmax.default", c.t(()), 1)


def var(c):
    for shape, layout in STANDARD:
        x = c.t(shape, layout=layout)
        c.op("aten.var.correction", x, None, correction=None)
        for dims in dims_for(len(shape)):
            for keepdim in (False, True):
                c.op("aten.var.correction", x, dims, correction=1, keepdim=keepdim)
            c.op("aten.var.correction", x, dims, correction=0)
    x = c.t((3, 4))
    for correction in (None, 0, 2, 4, 5, -1):  # 4 and 5: divisor 0 (inf / nan)
        c.op("aten.var.correction", x, [1], correction=correction)
    c.op("aten.var.correction", c.t((3, 1)), [1], correction=1)  # one element: nan
    c.op("aten.var.correction", c.t((2, 3), values=[1, 1, 1, 2, 2, 2]), [1], correction=3)  # 0 / 0
    c.op("aten.var.correction", c.t((0, 4)), [0], correction=-1)  # empty input: nan
    c.op("aten.var.correction", c.t((3, 4)), [], correction=1, keepdim=True)
    for dtype in FLOATS[1:]:
        c.op("aten.var.correction", c.t((3, 4), dtype=dtype), [1], correction=1)
        c.op("aten.var.correction", c.t((3, 4), dtype=dtype), None, correction=0)
    c.op("aten.var.correction", c.t((3, 4), dtype=torch.int64), [1], correction=1)  # error
    c.op("aten.var.correction", c.t((3, 4)), [3], correction=1)  # error


def cumsum(c):
    for shape, layout in STANDARD:
        x = c.t(shape, layout=layout)
        for d in range(-1, max(len(shape), 1)):
            c.op("aten.cumsum.default", x, d)
    for dtype in FLOATS[1:] + INTS + (torch.int8, torch.int16):
        x = c.t((3, 4), dtype=dtype, lo=0 if dtype == torch.uint8 else -4, hi=8)
        c.op("aten.cumsum.default", x, 1)
        c.op("aten.cumsum.default", x, 0, dtype=torch.float32)
    big = c.t((2, 3), dtype=torch.int32, values=[2147483647, 1, 1, -2147483648, -1, 5])
    c.op("aten.cumsum.default", big, 0)
    c.op("aten.cumsum.default", big, 0, dtype=torch.int32)  # wraps
    c.op("aten.cumsum.default", c.t((3, 4), lo=-2, hi=2), 1, dtype=torch.int64)  # truncates first
    c.op("aten.cumsum.default", c.t((3, 4)), 0, dtype=torch.float64)
    c.op("aten.cumsum.default", c.t((), dtype=torch.float16), 0)  # zero-dim copies (even float16)
    c.op("aten.cumsum.default", c.t((3, 4)), 2)  # error
    c.op("aten.cumsum.default", c.t(()), 1)  # error


def softmax(c):
    for name in ("aten._softmax.default", "aten._log_softmax.default"):
        for shape, layout in STANDARD:
            x = c.t(shape, layout=layout)
            for d in range(-1, max(len(shape), 1)):
                c.op(name, x, d, False)
        for dtype in (torch.float64, torch.bfloat16):
            c.op(name, c.t((3, 4), dtype=dtype), 1, False)
            c.op(name, c.t((2, 3, 4), dtype=dtype, layout="permuted"), 0, False)
        c.op(name, c.t((2, 37), lo=-20, hi=20), 1, False)  # rows longer than a vector, with a tail
        c.op(name, c.t((2, 3), values=[-100, 0, 100, 5, 5, 5]), 1, False)  # exp underflows to 0
        c.op(name, c.t((3, 4)), 1, True)  # error: half_to_float on CPU
        c.op(name, c.t((3, 4)), 2, False)  # error: bad dim
        c.op(name, c.t((0, 3), dtype=torch.float16), 1, False)  # empty: no dtype check
    for name in ("aten._softmax_backward_data.default", "aten._log_softmax_backward_data.default"):
        fwd = "aten._softmax.default" if "_log" not in name else "aten._log_softmax.default"
        for shape, layout in STANDARD:
            for d in range(-1, max(len(shape), 1)):
                # output: a real softmax result (values of the right shape), grad in `layout`
                y = getattr(torch.ops.aten, fwd.split(".")[1]).default(c.t(shape), d, False)
                c.op(name, c.t(shape, layout=layout), y, d, torch.float32)
                # 1.13's softmax backward reads memory outside a sliced or expanded output: no oracle there
                if layout not in ("sliced", "expanded") or "_log" in name:
                    c.op(name, c.t(shape), c.t(shape, layout=layout, lo=0, hi=1), d, torch.float32)
        for dtype in (torch.float64, torch.bfloat16):
            c.op(name, c.t((3, 4), dtype=dtype), c.t((3, 4), dtype=dtype, lo=0, hi=1), 1, dtype)
            c.op(name, c.t((2, 3, 4), dtype=dtype), c.t((2, 3, 4), dtype=dtype, lo=0, hi=1), 1, dtype)
        c.op(name, c.t((2, 37)), c.t((2, 37), lo=-3, hi=0), 1, torch.float32)
        c.op(name, c.t((3, 4)), c.t((3, 4)), 1, torch.float64)  # input_dtype other than grad's: ignored
        c.op(name, c.t((3, 4)), c.t((3, 4)), 1, torch.float16)  # error: float16 result
        c.op(name, c.t((3, 4)), c.t((3, 4), dtype=torch.float64), 1, torch.float32)  # error: dtypes differ
        if "_log" not in name:  # 1.13's log_softmax backward reads out of bounds instead
            c.op(name, c.t((3, 4)), c.t((3, 5)), 1, torch.float32)  # error: shapes differ
        c.op(name, c.t((3, 4)), c.t((3, 4)), -3, torch.float32)  # error: bad dim


def layer_norm(c):
    ln = "aten.native_layer_norm.default"
    for shape, layout in STANDARD:
        if not shape:
            continue
        x = c.t(shape, layout=layout)
        c.op(ln, x, list(shape[-1:]), None, None, 1e-5)
        c.op(ln, x, list(shape[-1:]), c.t(shape[-1:]), c.t(shape[-1:]), 1e-5)
        if len(shape) >= 2:
            c.op(ln, x, list(shape[-2:]), c.t(shape[-2:], layout="transposed"), None, 1e-5)
            c.op(ln, x, list(shape), None, c.t(shape), 0.5)
    c.op(ln, c.t((4, 37), lo=-20, hi=20), [37], c.t((37,)), c.t((37,)), 1e-5)  # vector tail
    c.op(ln, c.t((3, 4), values=[2] * 12), [4], None, None, 1e-5)  # zero variance: rstd = eps ** -0.5
    c.op(ln, c.t((3, 0)), [0], None, None, 1e-5)  # empty rows: mean 0, rstd nan
    c.op(ln, c.t((2, 3, 4), dtype=torch.float64), [4], c.t((4,), dtype=torch.float64),
         c.t((4,), dtype=torch.float64), 1e-5)
    # 1.13 computes bfloat16 layer_norm in bfloat16 throughout (every intermediate rounded);
    # Fathom computes in float32 and rounds once, hence the wider tolerance.
    for w in (None, c.t((4,), dtype=torch.bfloat16)):
        c.op(ln, c.t((2, 3, 4), dtype=torch.bfloat16), [4], w, c.t((4,), dtype=torch.bfloat16), 1e-5,
             tol=(0.05, 0.05))
    # errors
    c.op(ln, c.t((2, 3, 4)), [3], None, None, 1e-5)
    c.op(ln, c.t((2, 3, 4)), [], None, None, 1e-5)
    c.op(ln, c.t((2, 3, 4)), [1, 2, 3, 4], None, None, 1e-5)
    c.op(ln, c.t((2, 3, 4)), [4], c.t((3,)), None, 1e-5)
    c.op(ln, c.t((2, 3, 4)), [4], None, c.t((2, 4)), 1e-5)
    c.op(ln, c.t((2, 3, 4), dtype=torch.float64), [4], c.t((4,)), None, 1e-5)
    c.op(ln, c.t((2, 3, 4), dtype=torch.bfloat16), [4], None, c.t((4,)), 1e-5)

    lnb = "aten.native_layer_norm_backward.default"

    def backward(shape, normalized, layout="contiguous", grad_layout="contiguous", dtype=torch.float32,
                 weight=True, eps=1e-5, **kw):
        x = c.t(shape, dtype=dtype, layout=layout)
        w = c.t(normalized, dtype=dtype) if weight else None
        b = c.t(normalized, dtype=dtype) if weight else None
        _, mean, rstd = torch.ops.aten.native_layer_norm.default(x, normalized, w, b, eps)
        c.op(lnb, c.t(shape, dtype=dtype, layout=grad_layout), x, list(normalized), mean, rstd, w, b,
             [True, True, True], **kw)

    for shape, layout in STANDARD:
        if shape:
            backward(shape, shape[-1:], layout=layout)
            backward(shape, shape[-1:], grad_layout=layout)
    backward((2, 3, 4), (3, 4))
    backward((2, 3, 4), (2, 3, 4), layout="permuted")
    backward((4, 37), (37,))
    backward((2, 3, 4), (4,), dtype=torch.float64)
    backward((2, 3, 4), (4,), dtype=torch.bfloat16, tol=(0.05, 0.05))
    # errors: a grad requested for an absent weight/bias (1.13: "tensor does not have a device"),
    # dtypes that differ, a bad normalized_shape
    x = c.t((2, 3, 4))
    _, mean, rstd = torch.ops.aten.native_layer_norm.default(x, [4], None, None, 1e-5)
    c.op(lnb, c.t((2, 3, 4)), x, [4], mean, rstd, None, None, [True, True, True])
    c.op(lnb, c.t((2, 3, 4)), x, [4], mean, rstd, c.t((4,)), None, [True, True, True])
    c.op(lnb, c.t((2, 3, 4), dtype=torch.float64), x, [4], mean, rstd, c.t((4,)), c.t((4,)), [True, True, True])
    c.op(lnb, c.t((2, 3, 4)), x, [3], mean, rstd, None, None, [True, False, False])


def cases(c):
    sum_like(c)
    max_like(c)
    var(c)
    cumsum(c)
    softmax(c)
    layer_norm(c)
    min_like(c)
    var_dim(c)
    prod_any(c)
    sort_topk(c)
    group_norm(c)
    vector_norm(c)


# ---- Core ATen's other reductions (appended after the cases above so their inputs, which are
# seeded by creation order, stay the same) ------------------------------------------------------
NAN, INF = float("nan"), float("inf")


def min_like(c):
    for shape, layout in STANDARD:
        x = c.t(shape, layout=layout)
        for keepdim in (False, True):
            for dims in dims_for(len(shape)):
                c.op("aten.amin.default", x, dims, keepdim)
                if len(dims) == 1:
                    c.op("aten.min.dim", x, dims[0], keepdim)
                    c.op("aten.argmin.default", x, dims[0], keepdim)
            c.op("aten.argmin.default", x, None, keepdim)
        c.op("aten.amin.default", x)
    ties = c.t((2, 4), values=[1, 3, 1, 2, 5, 5, 5, 5])
    specials = c.t((3, 4), values=[1, NAN, -INF, 2, INF, 3, -1, NAN, 0.0, -0.0, -0.0, 0.0])
    for x in (ties, specials):
        for name in ("aten.amin.default", "aten.amax.default"):
            c.op(name, x, [1])
            c.op(name, x, [0], True)
        for name in ("aten.min.dim", "aten.max.dim"):
            c.op(name, x, 1)
            c.op(name, x, 0, True)
        for name in ("aten.argmin.default", "aten.argmax.default"):
            c.op(name, x, 1)
            c.op(name, x)
    for dtype in FLOATS[1:] + INTS:
        x = c.t((3, 4), dtype=dtype, lo=0 if dtype == torch.uint8 else -4, hi=8)
        c.op("aten.amin.default", x, [1])
        c.op("aten.min.dim", x, 0)
        c.op("aten.argmin.default", x, -1, True)
        c.op("aten.argmin.default", x)
    c.op("aten.amin.default", c.t((0, 4)), [-2])
    c.op("aten.amin.default", c.t((0, 4)), [1])
    c.op("aten.min.dim", c.t((0, 4)), 0)
    c.op("aten.argmin.default", c.t((0, 4)), 0)
    c.op("aten.argmin.default", c.t((0, 4)))
    c.op("aten.min.dim", c.t((3, 4)), 2)
    c.op("aten.argmin.default", c.t(()), 1)


def var_dim(c):
    for shape, layout in STANDARD:
        x = c.t(shape, layout=layout)
        for dims in dims_for(len(shape))[:3]:
            for unbiased in (False, True):
                c.op("aten.var.dim", x, dims, unbiased)
        c.op("aten.var.dim", x, None, True, True)
    c.op("aten.var.dim", c.t((3, 4)), [1], False, True)
    c.op("aten.var.dim", c.t((3, 1)), [1])  # one element, unbiased: nan
    c.op("aten.var.dim", c.t((3, 1)), [1], False)
    c.op("aten.var.dim", c.t((3, 4), dtype=torch.float64), [], True)
    for dtype in FLOATS[1:]:
        c.op("aten.var.dim", c.t((3, 4), dtype=dtype), [0], True)
    c.op("aten.var.dim", c.t((3, 4), values=[1, NAN, 2, 3, INF, 1, 2, 3, 1, 2, 3, 4]), [1])
    c.op("aten.var.dim", c.t((3, 4), dtype=torch.int64), [1])  # error


def prod_any(c):
    for shape, layout in STANDARD:
        x = c.t(shape, layout=layout, lo=-2, hi=2)
        c.op("aten.prod.default", x)
        c.op("aten.any.default", x)
        for d in range(-1, max(len(shape), 1)):
            for keepdim in (False, True):
                c.op("aten.prod.dim_int", x, d, keepdim)
                c.op("aten.any.dim", x, d, keepdim)
    for dtype in FLOATS[1:] + INTS + (torch.int8,):
        x = c.t((3, 4), dtype=dtype, lo=0 if dtype == torch.uint8 else -3, hi=4)
        c.op("aten.prod.default", x)
        c.op("aten.prod.dim_int", x, 1)
        c.op("aten.any.default", x)
        c.op("aten.any.dim", x, 0, True)
    zeros = c.t((3, 4), values=[1, 0, 2, 3, 0, 0, 2, 1, 1.5, -2, 0.5, 3])  # no, one and two zeros per row
    c.op("aten.prod.dim_int", zeros, 1)
    c.op("aten.prod.dim_int", zeros, 0, True)
    c.op("aten.prod.default", zeros)
    c.op("aten.prod.default", c.t((2, 3), values=[1, 2, 3, 0.5, 1.5, 2]))
    c.op("aten.prod.dim_int", c.t((2, 3, 4), layout="permuted"), 1, dtype=torch.float64)
    c.op("aten.prod.default", c.t((3, 4), dtype=torch.int32), dtype=torch.float32)
    c.op("aten.prod.default", c.t((3, 4), lo=-2, hi=2), dtype=torch.int64)  # truncates first
    c.op("aten.prod.default", c.t((2, 32), dtype=torch.int64, lo=-9, hi=9, nonzero=True))  # wraps
    c.op("aten.prod.dim_int", c.t((0, 4)), 0)  # ones
    c.op("aten.any.dim", c.t((0, 4)), 0)  # false
    c.op("aten.any.default", c.t((0, 4)))
    c.op("aten.any.default", c.t((3, 4), values=[0, 0, 0, 0, 0, -0.0, 0, 0, 0, 0, 0, NAN]))
    c.op("aten.any.dim", c.t((2, 3), values=[0, INF, 0, 0, 0, 0]), 1)
    c.op("aten.prod.dim_int", c.t((3, 4)), 2)  # error
    c.op("aten.any.dim", c.t((3, 4)), -3)  # error


def sort_topk(c):
    for shape, layout in STANDARD:
        x = c.t(shape, layout=layout)
        for d in range(-1, max(len(shape), 1)):
            for descending in (False, True):
                c.op("aten.sort.default", x, d, descending)
            n = shape[d] if shape else 1
            for k in sorted({0, 1, n}):
                c.op("aten.topk.default", x, k, d)
                c.op("aten.topk.default", x, k, d, False)
    ties = c.t((2, 20), values=[v % 3 for v in range(40)])  # ties, more than 16 per row
    specials = c.t((3, 4), values=[1, NAN, -INF, 2, INF, 3, -1, NAN, 0.0, -0.0, -0.0, 0.0])
    long_row = c.t((1, 200), lo=-8, hi=8)  # ties; topk's partial_sort (64 k <= n)
    for x in (ties, specials, long_row):
        for descending in (False, True):
            c.op("aten.sort.default", x, -1, descending)
            c.op("aten.sort.default", x, 0, descending)
        for k in (1, 2, 3):
            for largest in (True, False):
                c.op("aten.topk.default", x, k, -1, largest)
                c.op("aten.topk.default", x, k, -1, largest, False)
    for dtype in FLOATS[1:] + INTS + (torch.int8,):
        x = c.t((3, 5), dtype=dtype, lo=0 if dtype == torch.uint8 else -4, hi=8)
        c.op("aten.sort.default", x)
        c.op("aten.sort.default", x, 0, True)
        c.op("aten.topk.default", x, 2)
        c.op("aten.topk.default", x, 3, 0, False)
    c.op("aten.sort.default", c.t((2, 30), layout="sliced"), 1)
    c.op("aten.topk.default", c.t((4, 6), layout="transposed"), 2, 0)
    c.op("aten.topk.default", c.t((3, 4)), 5)  # error: k out of range
    c.op("aten.topk.default", c.t((3, 4)), -1)  # error
    c.op("aten.sort.default", c.t((3, 4)), 2)  # error: dim


def group_norm(c):
    gn, gnb = "aten.native_group_norm.default", "aten.native_group_norm_backward.default"
    for shape, layout in (((2, 6, 3, 4), "contiguous"), ((2, 6, 3, 4), "channels_last"), ((2, 6, 12), "contiguous"),
                          ((2, 6), "contiguous"), ((0, 6, 3), "contiguous")):
        hw = 1
        for s_ in shape[2:]:
            hw *= s_
        for groups in (1, 2, 3, 6):
            c.op(gn, c.t(shape, layout=layout), c.t((6,)), c.t((6,)), shape[0], 6, hw, groups, 1e-5)
        c.op(gn, c.t(shape, layout=layout), None, None, shape[0], 6, hw, 3, 1e-5)
        c.op(gn, c.t(shape, layout=layout), c.t((6,)), None, shape[0], 6, hw, 2, 0.1)
    c.op(gn, c.t((1, 4, 2, 2), layout="channels_last"), None, None, 1, 4, 4, 2, 1e-5)
    c.op(gn, c.t((2, 6, 3, 4), values=[1.0] * 144), None, None, 2, 6, 12, 3, 1e-5)  # zero variance
    for dtype in (torch.float64, torch.bfloat16, torch.float16):
        # bfloat16: 1.13 rounds its statistics to bfloat16 along the way; within a few of its ulps
        tol = (0.05, 0.02) if dtype == torch.bfloat16 else None
        c.op(gn, c.t((2, 6, 3, 4), dtype=dtype), c.t((6,), dtype=dtype), c.t((6,), dtype=dtype), 2, 6, 12, 3, 1e-5, tol=tol)
    c.op(gn, c.t((2, 6, 3, 4)), None, None, 2, 6, 12, 4, 1e-5)  # error: 4 does not divide 6
    c.op(gn, c.t((2, 6, 3, 4)), c.t((5,)), None, 2, 6, 12, 3, 1e-5)  # error: weight size
    c.op(gn, c.t((2, 6, 3, 4)), None, c.t((6, 1)), 2, 6, 12, 3, 1e-5)  # error: bias shape
    c.op(gn, c.t((2, 6, 3, 4)), None, None, 2, 6, 13, 3, 1e-5)  # error: numel
    c.op(gn, c.t((2, 6, 3, 4), layout="permuted"), None, None, 2, 6, 12, 3, 1e-5)  # error: not contiguous
    c.op(gn, c.t((2, 6, 3, 4)), None, None, 2, 6, 12, 0, 1e-5)  # error: no groups
    # Contiguous inputs only: 1.13's native_group_norm_backward reads any other layout as if it
    # were contiguous and returns garbage (its autograd formula makes both contiguous first).
    # Fathom computes the gradient of any layout.
    for shape, layout, groups in (((2, 6, 3, 4), "contiguous", 3), ((2, 6, 3, 4), "contiguous", 2),
                                  ((2, 6, 12), "contiguous", 6), ((3, 4), "contiguous", 1)):
        hw = 1
        for s_ in shape[2:]:
            hw *= s_
        x = c.t(shape, layout=layout)
        _, mean, rstd = torch.ops.aten.native_group_norm.default(x, None, None, shape[0], shape[1], hw, groups, 1e-5)
        c.op(gnb, c.t(shape, layout=layout), x, mean, rstd, c.t((shape[1],)), shape[0], shape[1], hw, groups,
             [True, True, True])
        # (a mask with False gives None results, which the oracle cannot record)
    x = c.t((2, 6, 3, 4), dtype=torch.float64)
    _, mean, rstd = torch.ops.aten.native_group_norm.default(x, None, None, 2, 6, 12, 3, 1e-5)
    c.op(gnb, c.t((2, 6, 3, 4), dtype=torch.float64), x, mean, rstd, c.t((6,), dtype=torch.float64), 2, 6, 12, 3,
         [True, True, True])
    c.op(gnb, c.t((2, 6, 3, 4), dtype=torch.float64), x, mean, rstd, None, 2, 6, 12, 3, [True, True, False])  # error


# ---- linalg_vector_norm (torch 2.x's F.normalize; appended so the inputs above, seeded by
# creation order, stay the same) -----------------------------------------------------------------
ORDS = (2, 1, INF, -INF, 0, 3, 0.5, -1, -2.5)


def vector_norm(c):
    name = "aten.linalg_vector_norm.default"
    for shape, layout in STANDARD:
        for ord_ in ORDS:  # dim=None (an empty input: an error for inf and ord < 0)
            c.op(name, c.t(shape, layout=layout), ord_)
        for dims in dims_for(len(shape)):
            for keepdim in (False, True):
                c.op(name, c.t(shape, layout=layout), 2, dims, keepdim)
            c.op(name, c.t(shape, layout=layout), INF, dims)
            c.op(name, c.t(shape, layout=layout), 1, dims, True)
        c.op(name, c.t(shape, layout=layout), 2, [], True)  # empty list: every dim
    c.op(name, c.t((2, 3, 2, 3), layout="channels_last"), 2, [1], True)  # F.normalize over channels
    c.op(name, c.t((2, 3, 1, 1)), 3, [2, 3])  # every reduced dim of size 1
    # float16 and bfloat16: 1.13 folds in their own dtype, every step rounded, in memory order
    # (bfloat16's ord 2 over one contiguous innermost run folds in float)
    for dtype in (torch.bfloat16, torch.float16):
        for ord_ in ORDS:
            c.op(name, c.t((3, 4), dtype=dtype), ord_, [1])
            c.op(name, c.t((2, 3, 4), dtype=dtype, layout="permuted"), ord_, [0, 2])
        c.op(name, c.t((300,), dtype=dtype, positive=True), 1)  # the sum stalls in 16 bits
        c.op(name, c.t((300,), dtype=dtype), 2)
        c.op(name, c.t((64, 6), dtype=dtype), 2, [0])
        c.op(name, c.t((6, 64), dtype=dtype, layout="transposed"), 2, [0])
        c.op(name, c.t((6, 64), dtype=dtype), 0.5, [1], True)
    c.op(name, c.t((3, 4), dtype=torch.float64), 0.1, [1])  # 1.13 reads ord as a float: 0.1f
    c.op(name, c.t((3, 4), dtype=torch.float64), 3.3)
    c.op(name, c.t((3, 4), dtype=torch.float64, layout="transposed"), -0.7, [0], True)
    c.op(name, c.t((3, 4)), 2, [1], dtype=torch.float64)
    c.op(name, c.t((3, 4), dtype=torch.float16), 1, None, False, dtype=torch.float32)
    c.op(name, c.t((3, 4), dtype=torch.bfloat16, layout="sliced"), 2, [-1], dtype=torch.float64)
    for values in ([NAN, 1.0, -2.0, 0.0], [INF, 1.0, -2.0, 0.0], [-INF, 0.0, 0.0, 3.0], [0.0, 0.0, -0.0, 0.0]):
        for ord_ in ORDS:
            c.op(name, c.t((4,), values=values), ord_)
    c.op(name, c.t((2, 3)), True)  # a bool ord is 1
    # errors
    c.op(name, c.t((3, 4), dtype=torch.int64), 2)
    c.op(name, c.t((3, 4), dtype=torch.bool), 2)
    c.op(name, c.t((0, 4)), INF, [-2])
    c.op(name, c.t((0, 4)), -1, [0, 1])
    c.op(name, c.t((0, 4)), -INF, [1], True)  # fine: the empty dim is kept
    c.op(name, c.t((3, 4), dtype=torch.float64), 2, [1], dtype=torch.float32)  # narrows
    c.op(name, c.t((3, 4), dtype=torch.float16), 2, [1], dtype=torch.bfloat16)
    c.op(name, c.t((3, 4)), 2, [1], dtype=torch.int64)
    c.op(name, c.t((3, 4)), 2, [1, -1])
    c.op(name, c.t((3, 4)), 2, [2])
