"""Pairwise distances: _cdist_forward (the direct form for every p, and the matmul form 1.13
switches to for p = 2 above 25 rows or with compute_mode 1 - through mm, bmm's small loop and
bmm's GEMM - on inputs whose cancellation shows), _cdist_backward, _pdist_forward,
_pdist_backward. Batched and broadcast inputs, non-contiguous layouts, empty inputs and the
errors 1.13 raises. Inputs that 1.13 reads out of bounds or crashes on are left out (see
engine/ops/families/DistanceOps.cpp)."""
import torch

A = torch.ops.aten
INF = float("inf")
PS = (0.0, 1.0, 2.0, 3.0, 0.5, 1.5, INF)


def wild(c, shape, seed, scale=10.0, rows=None, dtype=torch.float32, layout="contiguous"):
    """A tensor of values that are not multiples of a power of two (so sums round), optionally
    with its first rows copied from `rows`, every other one moved by 1e-3: identical and nearby
    points, where the matmul form's cancellation shows."""
    g = torch.Generator().manual_seed(seed)
    base = torch.randn(shape, generator=g, dtype=torch.float64) * scale
    if rows is not None:
        n = rows.shape[-2]
        base[..., :n, :] = rows.to(torch.float64)
        base[..., 1:n:2, :] += 1e-3
    base = base.to(dtype).to(torch.float64)
    if layout == "transposed":
        return c.t(shape, dtype=dtype, layout=layout, values=base.transpose(-1, -2).reshape(-1).tolist())
    return c.t(shape, dtype=dtype, layout=layout, values=base.reshape(-1).tolist())


def cdist(c, x1, x2, p, mode=None, tol=None):
    c.op("aten._cdist_forward.default", x1, x2, p, mode, tol=tol)


# The matmul form takes sqrt(|x|^2 + |y|^2 - 2 x.y): the squared distance is right to about
# eps * |x|^2, so a distance near zero only to sqrt(eps) * |x| - and which rounding a CPU gives
# depends on the GEMM kernel OpenBLAS picks for it (0.011 on one machine, 0.0 on another for the
# same identical points). Its cases allow that much, absolutely.
MATMUL_TOL = {torch.float32: (1.3e-6, 3e-2), torch.float64: (1e-7, 1e-6)}


def cdist_mm(c, x1, x2, p, mode=None, dtype=torch.float32):
    cdist(c, x1, x2, p, mode, tol=MATMUL_TOL.get(dtype))


def direct_cases(c):
    for p in PS:
        cdist(c, c.t((4, 5)), c.t((3, 5)), p)
    for p in (2.0, 1.0, INF):
        for layout in ("transposed", "sliced", "expanded"):
            cdist(c, c.t((4, 5), layout=layout), c.t((3, 5)), p)
            cdist(c, c.t((4, 5)), c.t((3, 5), layout=layout), p)
    # batches: equal, broadcast, a 2-d operand against a batch
    cdist(c, c.t((2, 4, 5)), c.t((2, 3, 5)), 2.0)
    cdist(c, c.t((2, 1, 4, 3)), c.t((3, 5, 3)), 1.0)
    cdist(c, c.t((2, 4, 3), layout="permuted"), c.t((5, 3)), INF)
    cdist(c, c.t((4, 3)), c.t((2, 5, 3), layout="permuted"), 0.0)
    for p in (0.0, 1.0, 2.0, 1.5, INF):
        cdist(c, wild(c, (4, 5), 1, 1.0, dtype=torch.float64), wild(c, (3, 5), 2, 1.0, dtype=torch.float64), p)
    # rounding: many columns of values that do not add exactly
    for p in (1.0, 2.0, 3.0):
        cdist(c, wild(c, (3, 37), 3), wild(c, (2, 37), 4), p)
    # 25 rows stay direct; compute_mode 2 never switches, 0 and None are the default
    cdist(c, wild(c, (25, 3), 5), wild(c, (25, 3), 6), 2.0)
    cdist(c, wild(c, (30, 3), 7), wild(c, (5, 3), 8), 2.0, 2)
    cdist(c, c.t((4, 5)), c.t((3, 5)), 2.0, 0)
    # empty rows, batch, columns (zeros)
    cdist(c, c.t((0, 3)), c.t((4, 3)), 2.0)
    cdist(c, c.t((3, 3)), c.t((0, 3)), 1.0)
    cdist(c, c.t((0, 2, 3)), c.t((4, 3)), 2.0)
    cdist(c, c.t((3, 0)), c.t((4, 0)), 2.0)
    cdist(c, c.t((30, 0)), c.t((4, 0)), 2.0)


def matmul_cases(c):
    x = wild(c, (30, 3), 10)
    cdist_mm(c, x, wild(c, (7, 3), 11, rows=x[:4]), 2.0)  # 2-d: mm; identical points come out nonzero
    cdist_mm(c, x, wild(c, (7, 3), 11, rows=x[:4]), 2.0, 2)  # the same, direct: zeros
    cdist_mm(c, x, wild(c, (7, 3), 11, rows=x[:4]), 2.0, 0)
    x = wild(c, (4, 3), 12)
    cdist_mm(c, x, wild(c, (5, 3), 13, rows=x[:3]), 2.0, 1)  # forced, few rows
    x = wild(c, (2, 26, 2), 14)
    cdist_mm(c, x, wild(c, (2, 2, 2), 15, rows=x[:, :2]), 2.0)  # batched, under 400: bmm's loop
    x = wild(c, (2, 30, 3), 16)
    cdist_mm(c, x, wild(c, (2, 5, 3), 17, rows=x[:, :2]), 2.0)  # batched, GEMM per batch
    x = wild(c, (1, 26, 2), 18)
    cdist_mm(c, x, wild(c, (2, 2), 19, rows=x[0, :2]), 2.0)  # one batch against 2-d: matmul folds to mm
    cdist_mm(c, wild(c, (26, 2), 20), wild(c, (1, 2, 2), 21), 2.0)  # 2-d against one batch: bmm's loop
    cdist_mm(c, wild(c, (1, 1, 26, 2), 22), wild(c, (1, 3, 2), 23), 2.0)
    cdist_mm(c, wild(c, (2, 1, 27, 3), 24), wild(c, (3, 4, 3), 25), 2.0)  # broadcast batch
    # the norms' summation order: contiguous rows of 20 (two vectors and a tail), transposed
    # inputs (outer sums: cascades for whole groups of columns, row sums for the rest)
    x = wild(c, (30, 20), 26)
    cdist_mm(c, x, wild(c, (5, 20), 27, rows=x[:3]), 2.0)
    x = wild(c, (40, 20), 28, layout="transposed")
    cdist_mm(c, x, wild(c, (4, 20), 29, rows=x[:4]), 2.0)
    x = wild(c, (30, 6), 30, layout="transposed")
    cdist_mm(c, x, wild(c, (4, 6), 31, rows=x[:4]), 2.0)
    x = wild(c, (27, 3), 32)
    cdist_mm(c, x, wild(c, (40, 3), 33, rows=x[:4], layout="transposed"), 2.0)
    for layout in ("sliced", "expanded"):
        cdist_mm(c, c.t((30, 4), layout=layout), c.t((3, 4)), 2.0)
    x = wild(c, (30, 5), 34, dtype=torch.float64)
    cdist_mm(c, x, wild(c, (4, 5), 35, rows=x[:2], dtype=torch.float64), 2.0, dtype=torch.float64)
    cdist(c, c.t((30, 3), dtype=torch.bfloat16), c.t((4, 3), dtype=torch.bfloat16), 2.0)  # only this form has bfloat16
    cdist(c, c.t((2, 26, 2), dtype=torch.bfloat16), c.t((2, 3, 2), dtype=torch.bfloat16), 2.0)


def cdist_error_cases(c):
    cdist(c, c.t((4,)), c.t((3, 4)), 2.0)  # error: X1 is 1-D
    cdist(c, c.t((4, 3)), c.t((3,)), 2.0)  # error: X2 is 1-D
    cdist(c, c.t((4, 3)), c.t((3, 2)), 2.0)  # error: columns
    cdist(c, c.t((4, 3), dtype=torch.int64), c.t((3, 3), dtype=torch.int64), 1.0)  # error: integer X1
    cdist(c, c.t((4, 3)), c.t((3, 3), dtype=torch.int32), 1.0)  # error: integer X2
    cdist(c, c.t((4, 3)), c.t((3, 3)), -1.0)  # error: negative p
    cdist(c, c.t((4, 3)), c.t((3, 3)), float("nan"))  # error: NaN p
    cdist(c, c.t((4, 3)), c.t((3, 3)), 2.0, 3)  # error: mode
    cdist(c, c.t((4, 3)), c.t((3, 3)), 1.0, -1)  # error: mode
    cdist(c, c.t((2, 4, 3)), c.t((3, 5, 3)), 1.0)  # error: batches do not broadcast
    cdist(c, c.t((4, 3)), c.t((3, 3), dtype=torch.float64), 1.0)  # error: dtypes differ (direct)
    cdist(c, c.t((30, 3)), c.t((3, 3), dtype=torch.float64), 2.0)  # error: dtypes differ (matmul)
    cdist(c, c.t((4, 3), dtype=torch.bfloat16), c.t((3, 3), dtype=torch.bfloat16), 1.0)  # dropped: no kernel


def cdist_backward(c, x1, x2, p, grad=None, dist=None):
    d = A._cdist_forward.default(x1, x2, abs(p), 2) if dist is None else dist
    g = c.t(tuple(d.shape), dtype=x1.dtype, lo=-2, hi=2) if grad is None else grad
    c.op("aten._cdist_backward.default", g, x1, x2, p, d)


def cdist_backward_cases(c):
    # rows 1 equal (a zero distance), coordinate 0 of row 2 equal (a zero difference)
    x1 = wild(c, (4, 3), 40, 1.0)
    base = x1.clone()
    base[2, 1:] += 0.5
    for p in PS + (2.5, -1.0):
        cdist_backward(c, x1, wild(c, (5, 3), 41, 1.0, rows=base[:3]), p)
    cdist_backward(c, c.t((4, 9)), c.t((5, 9)), 2.0)  # a vector and a tail of columns
    for p in (1.0, 2.0, INF):
        cdist_backward(c, c.t((2, 4, 3)), c.t((2, 5, 3)), p)
    cdist_backward(c, c.t((4, 3)), c.t((2, 5, 3)), 2.0)  # broadcast: x1's gradient per batch
    cdist_backward(c, c.t((2, 1, 4, 3)), c.t((3, 5, 3)), 1.5)
    for layout in ("transposed", "sliced"):
        x1, x2 = c.t((4, 5), layout=layout), c.t((3, 5), layout=layout)
        d = A._cdist_forward.default(x1, x2, 2.0, 2)
        cdist_backward(c, x1, x2, 2.0, grad=c.t((4, 3), layout=layout), dist=d.t().contiguous().t())
    cdist_backward(c, wild(c, (4, 5), 42, 1.0, dtype=torch.float64), wild(c, (3, 5), 43, 1.0, dtype=torch.float64), 3.0)
    x1 = c.t((4, 3), layout="transposed")
    c.op("aten._cdist_backward.default", c.t((4, 0)), x1, c.t((0, 3)), 2.0, c.t((4, 0)))  # zeros_like(x1)
    c.op("aten._cdist_backward.default", c.t((0, 5)), c.t((0, 3)), c.t((5, 3)), 2.0, c.t((0, 5)))
    c.op("aten._cdist_backward.default", c.t((4, 5)), c.t((4, 0)), c.t((5, 0)), 2.0, c.t((4, 5)))
    c.op("aten._cdist_backward.default", c.t((4, 5)), c.t((4,)), c.t((5, 4)), 2.0, c.t((4, 5)))  # error: 1-D
    x1, x2 = c.t((4, 3)), c.t((5, 3))
    d = A._cdist_forward.default(x1, x2, 2.0, 2)
    c.op("aten._cdist_backward.default", c.t((4, 5), dtype=torch.float64), x1, x2, 2.0, d)  # error: grad dtype
    c.op("aten._cdist_backward.default", c.t((4, 5)), x1, x2, 2.0, d.double())  # error: cdist dtype


def pdist_cases(c):
    for p in PS:
        c.op("aten._pdist_forward.default", c.t((5, 4)), p)
    x = wild(c, (6, 19), 50, 1.0)  # two vectors and a tail (float: 8 lanes), a repeated row
    x[4] = x[1]
    for p in PS:
        c.op("aten._pdist_forward.default", x, p)
    for p in (1.0, 2.0, INF):
        c.op("aten._pdist_forward.default", wild(c, (5, 9), 51, 1.0, dtype=torch.float64), p)
    c.op("aten._pdist_forward.default", wild(c, (4, 3), 52, 1.0), 2.0)  # fewer columns than a vector
    c.op("aten._pdist_forward.default", c.t((5, 4)))  # p defaults to 2
    c.op("aten._pdist_forward.default", c.t((1, 4)), 2.0)  # one row: empty
    c.op("aten._pdist_forward.default", c.t((0, 4)), 2.0)
    c.op("aten._pdist_forward.default", c.t((1, 2, 3)), 2.0)  # one row of any rank: empty
    c.op("aten._pdist_forward.default", c.t((1, 3), dtype=torch.int64), 2.0)
    c.op("aten._pdist_forward.default", c.t((4, 0)), 2.0)  # no columns: zeros
    c.op("aten._pdist_forward.default", c.t((5, 4), layout="transposed"), 2.0)  # error: not contiguous
    c.op("aten._pdist_forward.default", c.t((5,)), 2.0)  # error: 1-D
    c.op("aten._pdist_forward.default", c.t(()), 2.0)  # error: 0-d
    c.op("aten._pdist_forward.default", c.t((5, 4), dtype=torch.int64), 2.0)  # dropped: no kernel


def pdist_backward(c, x, p, grad=None):
    d = A._pdist_forward.default(x, abs(p))
    g = c.t(tuple(d.shape), dtype=x.dtype, lo=-2, hi=2) if grad is None else grad
    c.op("aten._pdist_backward.default", g, x, p, d)


def pdist_backward_cases(c):
    x = wild(c, (5, 3), 60, 1.0)
    x[3] = x[1]  # a zero distance
    x[4, 0] = x[0, 0]  # a zero coordinate difference
    for p in PS + (2.5, -1.0):
        pdist_backward(c, x, p)
    pdist_backward(c, c.t((4, 10)), 2.0)
    pdist_backward(c, c.t((4, 3)), 1.0, grad=c.t((6,), layout="sliced"))  # grad of any stride
    pdist_backward(c, wild(c, (4, 5), 61, 1.0, dtype=torch.float64), 1.5)
    c.op("aten._pdist_backward.default", c.t((0,)), c.t((1, 3)), 2.0, c.t((0,)))  # one row: zeros
    c.op("aten._pdist_backward.default", c.t((6,)), c.t((4, 0)), 2.0, c.t((6,)))
    x = c.t((4, 3))
    d = A._pdist_forward.default(x, 2.0)
    c.op("aten._pdist_backward.default", c.t((6,)), c.t((4, 3), layout="transposed"), 2.0, d)  # error: self
    c.op("aten._pdist_backward.default", c.t((6,)), x, 2.0, c.t((6,), layout="sliced"))  # error: pdist
    c.op("aten._pdist_backward.default", c.t((6,), dtype=torch.float64), x, 2.0, d)  # error: grad dtype
    c.op("aten._pdist_backward.default", c.t((6,)), c.t((4,)), 2.0, d)  # error: 1-D self


def cases(c):
    direct_cases(c)
    matmul_cases(c)
    cdist_error_cases(c)
    cdist_backward_cases(c)
    pdist_cases(c)
    pdist_backward_cases(c)
