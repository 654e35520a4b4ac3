"""Elementwise ops and their backward helpers: every layout of STANDARD, mixed layouts (which
decide TensorIterator's output strides), broadcasting, type promotion, NaN/inf edge values, and
errors. Also the non-TensorIterator fills (fill, masked_fill, tril, triu) and their layouts."""
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


def wrapped(c, name, **kw):
    """A Python number where the schema takes a Tensor, as FX records `x * 2`: PyTorch wraps it in
    a 0-dim tensor that promotes below dimensioned tensors (int stays int, float takes the
    default dtype, float64 keeps the number's precision)."""
    for dtype in (torch.float32, torch.float64, torch.float16, torch.int64, torch.int32):
        c.op(name, c.t((3, 4), dtype=dtype, nonzero=True), 2, **kw)
        c.op(name, c.t((3, 4), dtype=dtype, nonzero=True), 0.1, **kw)
    c.op(name, c.t((), dtype=torch.int64), 2.5, **kw)
    c.op(name, 3, c.t((2, 3), layout="transposed", nonzero=True), **kw)
    c.op(name, c.t((3, 4), dtype=torch.bool), True, **kw)


def inplace_cases(c):
    """In-place variants as make_fx records them: the functional result copied into self, which
    keeps its layout; the result may not grow self, nor be of a kind self cannot hold."""
    # (Not into an expanded self: PyTorch refuses to write where elements share memory, which
    # ExportedDumpTest checks, and this harness cannot record a write it cannot copy first.)
    for shape, layout in [(s, l) for s, l in STANDARD if l != "expanded"]:
        c.op("aten.add_.Tensor", c.t(shape, layout=layout), c.t(shape), alpha=2, mutates=(0,))
        c.op("aten.relu_.default", c.t(shape, layout=layout), mutates=(0,))
    c.op("aten.mul_.Tensor", c.t((3, 4), layout="transposed"), c.t((4,)), mutates=(0,))  # other broadcast
    c.op("aten.mul_.Scalar", c.t((3, 4), layout="sliced"), 0.5, mutates=(0,))
    c.op("aten.div_.Scalar", c.t((2, 3, 2, 3), layout="channels_last"), 0.9, mutates=(0,))
    c.op("aten.div_.Tensor", c.t((3, 4), dtype=torch.float16), c.t((3, 4), nonzero=True), mutates=(0,))
    c.op("aten.sub_.Tensor", c.t((3, 4), dtype=torch.int64), c.t((3, 4), dtype=torch.int32), mutates=(0,))
    c.op("aten.add_.Tensor", c.t((), dtype=torch.int64), 1, mutates=(0,))  # num_batches_tracked += 1
    c.op("aten.hardtanh_.default", c.t((3, 4), layout="transposed"), 0.0, 6.0, mutates=(0,))
    c.op("aten.masked_fill_.Scalar", c.t((3, 4)), c.t((3, 4), dtype=torch.bool), -1.0, mutates=(0,))
    c.op("aten.add_.Tensor", c.t((3, 1)), c.t((3, 4)), mutates=(0,))  # error: would grow self
    c.op("aten.add_.Tensor", c.t((3, 4), dtype=torch.int64), c.t((3, 4)), mutates=(0,))  # error: Float into Long
    c.op("aten.copy_.default", c.t((3, 4), layout="transposed"), c.t((4,), dtype=torch.float64), mutates=(0,))
    c.op("aten.copy_.default", c.t((2, 3), dtype=torch.int32), c.t((2, 3)), mutates=(0,))
    c.op("aten.copy_.default", c.t((3, 4)), c.t((5,)), mutates=(0,))  # error: does not broadcast
    c.op("aten.fill_.Scalar", c.t((3, 4), layout="sliced"), 2.5, mutates=(0,))
    c.op("aten.zero_.default", c.t((2, 3, 2, 3), layout="channels_last"), mutates=(0,))


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
    for name in ("aten.add.Tensor", "aten.sub.Tensor", "aten.mul.Tensor", "aten.div.Tensor"):
        wrapped(c, name)
    inplace_cases(c)
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
    math_cases(c)
    activation_cases(c)
    comparison_cases(c)
    fill_cases(c)
    ternary_cases(c)
    clamp_min_cases(c)


# ---- math, activations, comparisons, fills (appended after the cases above so their inputs,
# which are seeded by creation order, stay the same) ------------------------------------------
INTS = (torch.int64, torch.int32, torch.int8, torch.uint8)
NAN, INF = float("nan"), float("inf")
# A (3, 4) of edge values, finite (math.py's SPECIALS add NaN and infinities, which the dump
# reader takes in inline input data as {"float": "nan"}).
SPECIALS = [-0.0, 0.0, -1.0, 1.0, 2.5, -2.5, 0.5, 3.0, -3.0, 1e30, -1e30, 1e-30]


def specials(c, dtype=torch.float32):
    return c.t((3, 4), dtype=dtype, values=SPECIALS)


def math_cases(c):
    binary(c, "aten.rsub.Tensor")
    binary(c, "aten.rsub.Tensor", alpha=2)
    scalar(c, "aten.rsub.Scalar")
    c.op("aten.rsub.Scalar", c.t((3, 4)), 2, alpha=0.5)
    c.op("aten.rsub.Tensor", c.t((3, 4), dtype=torch.bool), c.t((3, 4)))  # error: bool
    c.op("aten.rsub.Tensor", c.t((3, 4), dtype=torch.bool), c.t((3, 4), dtype=torch.bool))  # error: two bools
    c.op("aten.rsub.Scalar", c.t((3, 4), dtype=torch.bool), True)  # error: bool
    c.op("aten.rsub.Scalar", c.t((3, 4)), True)
    c.op("aten.rsub.Scalar", c.t((3, 4), dtype=torch.int32), 2, alpha=0.5)  # error: float alpha

    unary(c, "aten.abs.default", dtypes=FLOATS + INTS)
    c.op("aten.abs.default", specials(c))
    c.op("aten.abs.default", c.t((4,), dtype=torch.int8, values=[-128, -1, 0, 127]))
    for name in ("aten.log.default", "aten.sqrt.default", "aten.rsqrt.default"):
        unary(c, name, positive=True)
        c.op(name, specials(c))
        c.op(name, c.t((3, 4), dtype=torch.int64, lo=0, hi=9))
        c.op(name, c.t((3, 4), dtype=torch.bool))

    for shape, layout in STANDARD:
        c.op("aten.pow.Tensor_Scalar", c.t(shape, layout=layout), 2)
        c.op("aten.pow.Tensor_Scalar", c.t(shape, layout=layout, positive=True), 2.5)
    for e in (0, 1, 2, 3, -2, 0.5, -0.5, -1, 2.5, -1.5, 1.0, 0.0):
        c.op("aten.pow.Tensor_Scalar", specials(c), e)
        c.op("aten.pow.Tensor_Scalar", c.t((3, 4), dtype=torch.float64), e)
        c.op("aten.pow.Tensor_Scalar", c.t((3, 4), dtype=torch.bfloat16, positive=True), e)
        c.op("aten.pow.Tensor_Scalar", c.t((3, 4), dtype=torch.float16, positive=True), e)
    for dtype in INTS:
        c.op("aten.pow.Tensor_Scalar", c.t((3, 4), dtype=dtype, lo=-4 if dtype != torch.uint8 else 0, hi=5), 3)
    c.op("aten.pow.Tensor_Scalar", c.t((3, 4), dtype=torch.int32, lo=-4, hi=5), 31)  # wraps around
    c.op("aten.pow.Tensor_Scalar", c.t((3, 4), dtype=torch.int64, lo=0, hi=5), 0)
    c.op("aten.pow.Tensor_Scalar", c.t((3, 4), dtype=torch.int64, lo=0, hi=5), 2.5)  # -> float32
    c.op("aten.pow.Tensor_Scalar", c.t((3, 4), dtype=torch.int64, lo=0, hi=5, layout="transposed"), 0.5)
    c.op("aten.pow.Tensor_Scalar", c.t((3, 4), dtype=torch.bool), 2)  # -> int64
    c.op("aten.pow.Tensor_Scalar", c.t((3, 4), dtype=torch.int32), True)
    c.op("aten.pow.Tensor_Scalar", c.t((3, 4), dtype=torch.int64), -2)  # error
    c.op("aten.pow.Tensor_Scalar", c.t((3, 4), dtype=torch.bool), -1)  # error
    c.op("aten.pow.Tensor_Scalar", c.t((3, 4), dtype=torch.int8), 1000)  # error: exponent overflows int8

    binary(c, "aten.maximum.default")
    binary(c, "aten.minimum.default")
    for name in ("aten.maximum.default", "aten.minimum.default"):
        c.op(name, specials(c), c.t((3, 4), values=SPECIALS[::-1]))
        c.op(name, c.t((3, 4), dtype=torch.bool), c.t((3, 4), dtype=torch.bool))
        c.op(name, c.t((3, 4), dtype=torch.uint8, lo=0, hi=9), c.t((3, 4), dtype=torch.int8))

    for shape, layout in STANDARD:
        c.op("aten.clamp.default", c.t(shape, layout=layout), -1.0, 1.5)
        c.op("aten.hardtanh.default", c.t(shape, layout=layout))
    for lo, hi in ((-1, None), (None, 0.5), (2.0, 1.0), (NAN, 1.0), (-1.0, NAN), (NAN, None), (None, NAN), (-INF, INF)):
        c.op("aten.clamp.default", specials(c), lo, hi)
    for dtype in FLOATS[1:] + INTS:
        c.op("aten.clamp.default", c.t((3, 4), dtype=dtype, lo=0 if dtype == torch.uint8 else -4, hi=5), 1, 3)
        c.op("aten.hardtanh.default", c.t((3, 4), dtype=dtype, lo=0 if dtype == torch.uint8 else -4, hi=5))
    c.op("aten.clamp.default", c.t((3, 4), dtype=torch.int64), -1.5, 2.5)  # float bounds -> float32
    c.op("aten.clamp.default", c.t((3, 4), dtype=torch.int32, layout="transposed"), 0.5)
    c.op("aten.clamp.default", c.t((3, 4), dtype=torch.bool), 0)  # -> int64
    c.op("aten.clamp.default", c.t((3, 4), dtype=torch.uint8, lo=0, hi=9), -1)  # -1 wraps to 255
    c.op("aten.clamp.default", c.t((3, 4), dtype=torch.int8), 1000)  # error: overflow
    c.op("aten.clamp.default", c.t((3, 4)))  # error: no bounds
    c.op("aten.clamp.default", c.t((3, 4)), min=-0.5)
    c.op("aten.clamp.default", c.t((3, 4)), max=-0.5)
    c.op("aten.hardtanh.default", specials(c), -2.0, 0.5)
    c.op("aten.hardtanh.default", c.t((3, 4), dtype=torch.int64), -1.5, 2.5)  # bounds truncate to ints
    c.op("aten.hardtanh.default", c.t((3, 4), dtype=torch.uint8, lo=0, hi=9), 0, 3)
    c.op("aten.hardtanh.default", c.t((3, 4), dtype=torch.uint8, lo=0, hi=9))  # error: negative limits
    c.op("aten.hardtanh.default", c.t((3, 4), dtype=torch.bool))  # error: bool


def gelu_backward_reads_layout(grad, x, approximate):
    """False where PyTorch 1.13's oneDNN gelu_backward misreads a non-contiguous gradient (it
    returns garbage such as 1e37 for transposed, permuted and channels_last gradients)."""
    fn = torch.ops.aten.gelu_backward.default
    return torch.equal(fn(grad, x, approximate=approximate),
                       fn(grad.contiguous(), x.contiguous(), approximate=approximate))


def activation_cases(c):
    for approximate in ("none", "tanh"):
        for shape, layout in STANDARD:
            c.op("aten.gelu.default", c.t(shape, layout=layout), approximate=approximate)
            c.op("aten.gelu_backward.default", c.t(shape), c.t(shape, layout=layout), approximate=approximate)
            grad, x = c.t(shape, layout=layout), c.t(shape)
            if gelu_backward_reads_layout(grad, x, approximate):
                c.op("aten.gelu_backward.default", grad, x, approximate=approximate)
        for dtype in FLOATS[1:]:
            c.op("aten.gelu.default", c.t((3, 4), dtype=dtype), approximate=approximate)
            c.op("aten.gelu_backward.default", c.t((3, 4), dtype=dtype), c.t((3, 4), dtype=dtype),
                 approximate=approximate)
        c.op("aten.gelu.default", specials(c), approximate=approximate)
        c.op("aten.gelu.default", c.t((64,), lo=-8, hi=8), approximate=approximate)
        c.op("aten.gelu_backward.default", c.t((3, 4)), specials(c), approximate=approximate)
        c.op("aten.gelu_backward.default", c.t((64,)), c.t((64,), lo=-8, hi=8), approximate=approximate)
    c.op("aten.gelu.default", c.t((3, 4)))
    c.op("aten.gelu.default", c.t((3, 4)), approximate="fast")  # error
    c.op("aten.gelu_backward.default", c.t((3, 4)), c.t((3, 4)), approximate="fast")  # error
    c.op("aten.gelu.default", c.t((3, 4), dtype=torch.int64))  # no kernel: dropped
    c.op("aten.gelu_backward.default", c.t((3, 4)), c.t((3, 4), dtype=torch.float64))
    # (Broadcast gelu_backward is left out: PyTorch 1.13's oneDNN path fails on it with "could not
    # create a primitive descriptor for a reorder primitive".)
    for name, extra in (("aten.tanh_backward.default", ()), ("aten.sigmoid_backward.default", ()),
                        ("aten.hardtanh_backward.default", (-1, 1))):
        for shape, layout in STANDARD:
            c.op(name, c.t(shape), c.t(shape, layout=layout, lo=-1, hi=1), *extra)
            c.op(name, c.t(shape, layout=layout), c.t(shape, lo=-1, hi=1), *extra)
        for dtype in FLOATS[1:]:
            c.op(name, c.t((3, 4), dtype=dtype), c.t((3, 4), dtype=dtype, lo=-1, hi=1), *extra)
        c.op(name, c.t((3, 4)), c.t((3, 4), dtype=torch.float64, lo=-1, hi=1), *extra)
        c.op(name, c.t((3, 4)), c.t((4,), lo=-1, hi=1), *extra)
        c.op(name, c.t((3, 4)), c.t((4, 3)), *extra)  # error: shapes
        c.op(name, c.t((3, 4)), specials(c), *extra)
    c.op("aten.hardtanh_backward.default", c.t((3, 4)), c.t((3, 4)), -0.5, 2.0)


def comparison_cases(c):
    for op in ("eq", "ne", "lt", "le", "gt", "ge"):
        name = "aten.%s.Tensor" % op
        if op in ("eq", "lt"):
            binary(c, name)
        else:
            for shape, layout in STANDARD[:6]:
                c.op(name, c.t(shape, layout=layout, lo=-1, hi=1), c.t(shape, lo=-1, hi=1))
            c.op(name, c.t((3, 1)), c.t((1, 4)))
            c.op(name, c.t((3, 4), dtype=torch.int64), c.t((3, 4)))
        c.op(name, c.t((3, 4), lo=-1, hi=1), c.t((3, 4), lo=-1, hi=1, layout="transposed"))
        c.op(name, specials(c), c.t((3, 4), values=SPECIALS[::-1]))
        c.op(name, c.t((3, 4), dtype=torch.bool), c.t((3, 4), dtype=torch.bool))
        c.op(name, c.t((3, 4), dtype=torch.uint8, lo=0, hi=4), c.t((), dtype=torch.int64, lo=0, hi=4))
        c.op(name, c.t((3, 4), dtype=torch.bfloat16, lo=-1, hi=1), c.t((3, 4), dtype=torch.float16, lo=-1, hi=1))
        name = "aten.%s.Scalar" % op
        scalar(c, name, values=(1, 0.5))
        c.op(name, specials(c), 0.5)
        c.op(name, specials(c), INF)
        c.op(name, c.t((3, 4), dtype=torch.uint8, lo=0, hi=4), 258)  # wraps to 2
        c.op(name, c.t((3, 4), dtype=torch.uint8, lo=0, hi=4), -254)  # wraps to 2
        c.op(name, c.t((3, 4), dtype=torch.int8), 1000)
        c.op(name, c.t((3, 4), dtype=torch.int64), 1.5)
        c.op(name, c.t((3, 4), dtype=torch.bool), True)
        c.op(name, c.t((3, 4), dtype=torch.bool), 1)
    c.op("aten.eq.Tensor", c.t((3, 4)), c.t((5,)))  # error: broadcast

    unary(c, "aten.logical_not.default", dtypes=FLOATS + INTS + (torch.bool,), lo=-1, hi=1)
    c.op("aten.logical_not.default", specials(c))
    c.op("aten.logical_not.default", c.t((2, 3, 2, 3), dtype=torch.bool, layout="channels_last"))

    for shape, layout in STANDARD:
        c.op("aten.where.self", c.t(shape, dtype=torch.bool, layout=layout), c.t(shape), c.t(shape))
        c.op("aten.where.self", c.t(shape, dtype=torch.bool), c.t(shape, layout=layout), c.t(shape))
        c.op("aten.where.self", c.t(shape, dtype=torch.bool), c.t(shape), c.t(shape, layout=layout))
    # A broadcast condition abstains from ordering dims, so the transposed self decides. (Not an
    # "expanded" condition: the oracle runs stride-0 inputs in PyTorch as contiguous clones.)
    c.op("aten.where.self", c.t((4,), dtype=torch.bool), c.t((3, 4), layout="transposed"), c.t((3, 4)))
    c.op("aten.where.self", c.t((3, 4), dtype=torch.uint8, lo=0, hi=2, layout="expanded"),
         c.t((3, 4), layout="transposed"), c.t((3, 4)))  # the uint8 condition is converted first
    c.op("aten.where.self", c.t((3, 1), dtype=torch.bool), c.t((1, 4)), c.t((4,)))
    c.op("aten.where.self", c.t((3, 4), dtype=torch.bool), c.t((3, 4), dtype=torch.int32), c.t((), dtype=torch.float64))
    c.op("aten.where.self", c.t((3, 4), dtype=torch.bool), c.t((3, 4), dtype=torch.int64), c.t((3, 4), dtype=torch.float16))
    c.op("aten.where.self", c.t((3, 4), dtype=torch.bool), c.t((3, 4), dtype=torch.bool), c.t((3, 4), dtype=torch.bool))
    c.op("aten.where.self", c.t((2, 3, 2, 3), dtype=torch.bool, layout="channels_last"),
         c.t((2, 3, 2, 3), layout="channels_last"), c.t((2, 3, 2, 3), layout="channels_last"))
    for dtype in FLOATS[1:] + INTS:
        c.op("aten.where.self", c.t((3, 4), dtype=torch.bool), c.t((3, 4), dtype=dtype), c.t((3, 4), dtype=dtype))
    c.op("aten.where.self", c.t((3, 4)), c.t((3, 4)), c.t((3, 4)))  # error: float condition
    c.op("aten.where.self", c.t((3, 4), dtype=torch.bool), c.t((3, 4)), c.t((5,)))  # error: broadcast


def fill_cases(c):
    for shape, layout in STANDARD:
        c.op("aten.fill.Scalar", c.t(shape, layout=layout), 2.5)
        c.op("aten.masked_fill.Scalar", c.t(shape, layout=layout), c.t(shape, dtype=torch.bool), -1.5)
        c.op("aten.masked_fill.Scalar", c.t(shape), c.t(shape, dtype=torch.bool, layout=layout), 3)
        if len(shape) >= 2:
            c.op("aten.tril.default", c.t(shape, layout=layout))
            c.op("aten.triu.default", c.t(shape, layout=layout))
    for dtype in FLOATS[1:] + INTS + (torch.bool,):
        c.op("aten.fill.Scalar", c.t((3, 4), dtype=dtype), 3)
        c.op("aten.fill.Scalar", c.t((3, 4), dtype=dtype), -1.75)
        c.op("aten.masked_fill.Scalar", c.t((3, 4), dtype=dtype), c.t((3, 4), dtype=torch.bool), 2)
        c.op("aten.tril.default", c.t((3, 4), dtype=dtype))
        c.op("aten.triu.default", c.t((3, 4), dtype=dtype, layout="transposed"), 1)
    for value in (True, NAN, -INF, 1e6, 2 ** 40):
        c.op("aten.fill.Scalar", c.t((2, 3)), value)
    c.op("aten.fill.Scalar", c.t((2, 3), dtype=torch.uint8), -1)  # wraps to 255
    c.op("aten.fill.Scalar", c.t((2, 3), dtype=torch.int8), 300)  # error: overflow
    c.op("aten.fill.Scalar", c.t((2, 3), dtype=torch.float16), 1e6)  # error: overflow
    c.op("aten.fill.Scalar", c.t((2, 3), dtype=torch.int32), NAN)  # error: overflow
    c.op("aten.masked_fill.Scalar", c.t((3, 1)), c.t((3, 4), dtype=torch.bool), 2.0)  # self broadcast
    c.op("aten.masked_fill.Scalar", c.t((3, 4), layout="transposed"), c.t((4,), dtype=torch.bool), 2.0)
    c.op("aten.masked_fill.Scalar", c.t((3, 4)), c.t((3, 4), dtype=torch.uint8, lo=0, hi=2), 2.0)
    c.op("aten.masked_fill.Scalar", c.t((3, 4), dtype=torch.int32), c.t((3, 4), dtype=torch.bool), -2.7)
    c.op("aten.masked_fill.Scalar", c.t((3, 4)), c.t((3, 4), dtype=torch.bool), NAN)
    c.op("aten.masked_fill.Scalar", c.t((3, 4), dtype=torch.int8), c.t((3, 4), dtype=torch.bool), 300)  # error
    c.op("aten.masked_fill.Scalar", c.t((3, 4)), c.t((5,), dtype=torch.bool), 2.0)  # error: broadcast
    for k in (-5, -2, -1, 1, 2, 5):
        c.op("aten.tril.default", c.t((4, 5)), k)
        c.op("aten.triu.default", c.t((4, 5)), k)
    c.op("aten.tril.default", c.t((2, 3, 4), layout="permuted"), 1)
    c.op("aten.triu.default", c.t((2, 3, 4), layout="expanded"), -1)
    c.op("aten.tril.default", c.t((2, 3, 2, 3), layout="channels_last"))
    c.op("aten.triu.default", c.t((3, 0)))
    c.op("aten.tril.default", c.t((4,)))  # error: needs 2 dims
    c.op("aten.triu.default", c.t(()))  # error: needs 2 dims


# ---- addcmul, addcdiv and clamp_min (timm's ResMLP and EdgeNeXt; appended so the inputs above,
# seeded by creation order, stay the same) -------------------------------------------------------
def ternary(c, name, **kw):
    """self, tensor1, tensor2 over every layout in each position, mixed layouts, broadcasting of all
    three, dtypes and promotion (value takes no part in it)."""
    nz = name == "aten.addcdiv.default"  # a nonzero divisor
    for shape, layout in STANDARD:
        c.op(name, c.t(shape, layout=layout), c.t(shape), c.t(shape, nonzero=nz), **kw)
        c.op(name, c.t(shape), c.t(shape, layout=layout), c.t(shape, nonzero=nz), **kw)
        c.op(name, c.t(shape), c.t(shape), c.t(shape, layout=layout, nonzero=nz), **kw)
    c.op(name, c.t((3, 4), layout="transposed"), c.t((3, 4), layout="sliced"), c.t((3, 4), nonzero=nz), **kw)
    c.op(name, c.t((2, 3, 4)), c.t((2, 3, 4), layout="permuted"), c.t((2, 3, 4), layout="permuted", nonzero=nz), **kw)
    c.op(name, c.t((2, 3, 2, 3), layout="channels_last"), c.t((3, 1, 1)), c.t((2, 3, 2, 3), nonzero=nz), **kw)
    c.op(name, c.t((3, 1)), c.t((1, 4)), c.t((3, 4), nonzero=nz), **kw)
    c.op(name, c.t((4,)), c.t((2, 3, 4), layout="permuted"), c.t((3, 1), nonzero=nz), **kw)
    c.op(name, c.t((2, 1, 4)), c.t((3, 1)), c.t((), nonzero=nz), **kw)
    c.op(name, c.t((3, 4)), c.t((3, 4)), c.t((5,), nonzero=nz), **kw)  # error: not broadcastable
    for dtype in FLOATS[1:] + (torch.int64, torch.int32, torch.uint8, torch.bool):  # float16, bool: no kernel
        c.op(name, c.t((3, 4), dtype=dtype), c.t((3, 4), dtype=dtype), c.t((3, 4), dtype=dtype, nonzero=True), **kw)
    c.op(name, c.t((3, 4), dtype=torch.int64), c.t((3, 4)), c.t((3, 4), dtype=torch.int32, nonzero=True), **kw)
    c.op(name, c.t((3, 4), dtype=torch.bfloat16), c.t((), dtype=torch.float64), c.t((3, 4), dtype=torch.bfloat16,
                                                                                     nonzero=True), **kw)
    c.op(name, c.t((3, 4)), c.t((3, 4), dtype=torch.float64), c.t((3, 4), dtype=torch.bfloat16, nonzero=True), **kw)


def ternary_cases(c):
    for name in ("aten.addcmul.default", "aten.addcdiv.default"):
        ternary(c, name)
        ternary(c, name, value=0.5)
        for value in (-2, 0, 2.5):
            c.op(name, c.t((3, 4), dtype=torch.int64), c.t((3, 4), dtype=torch.int64), c.t((3, 4), dtype=torch.int64,
                                                                                               nonzero=True), value=value)
            c.op(name, c.t((3, 4)), c.t((3, 4)), c.t((3, 4), nonzero=True), value=value)
        c.op(name, specials(c), specials(c), c.t((3, 4), values=SPECIALS[::-1]), value=0.25)
    c.op("aten.addcdiv.default", c.t((3, 4)), c.t((3, 4)), c.t((3, 4), values=[0.0] * 12))  # divided by zero
    c.op("aten.addcdiv.default", c.t((3, 4)), c.t((3, 4), dtype=torch.bool), c.t((3, 4), dtype=torch.int64))  # error
    c.op("aten.addcmul.default", c.t((3, 4), dtype=torch.int8), c.t((3, 4), dtype=torch.int8),
         c.t((3, 4), dtype=torch.int8), value=300)  # error: value overflows int8


def clamp_min_cases(c):
    """clamp_min (F.normalize's floor in torch 2.x graphs): layouts, promotion by the bound, NaN."""
    name = "aten.clamp_min.default"
    for shape, layout in STANDARD:
        c.op(name, c.t(shape, layout=layout), 0.25)
    for dtype in FLOATS[1:] + INTS:  # float16: no kernel in 1.13
        c.op(name, c.t((3, 4), dtype=dtype), 1)
    c.op(name, c.t((3, 4), dtype=torch.int64), 0.5)  # a float bound makes it float32
    c.op(name, c.t((3, 4), dtype=torch.bool), 1)  # int64
    c.op(name, c.t((3, 4), dtype=torch.bool), 0.5)  # float32
    c.op(name, c.t((3, 4), dtype=torch.bfloat16), 0.1)
    c.op(name, specials(c), -1.0)
    c.op(name, c.t((3, 4), values=[NAN] + SPECIALS[1:]), 0.5)  # NaN stays
    c.op(name, c.t((3, 4)), NAN)  # a NaN bound fills with NaN
    c.op(name, c.t((3, 4), dtype=torch.int8), 300)  # error: overflow
