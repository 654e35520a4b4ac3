"""The elementwise math of Core ATen beyond elementwise.py: the unary float functions (acos ..
tan, erf, expm1, log10, log1p, log2, reciprocal), the rounding ops and sign, isnan/isinf,
the bitwise and logical binaries, atan2, fmod, remainder, pow (Tensor_Tensor and Scalar),
clamp.Tensor, elu and leaky_relu with their backward ops. Every layout of STANDARD, mixed
layouts, broadcasting, type promotion (integer and bool inputs, wrapped numbers), NaN/inf inputs
and errors."""
import torch

from oracle import STANDARD

FLOATS = (torch.float32, torch.float64, torch.float16, torch.bfloat16)
INTS = (torch.int64, torch.int32, torch.int8, torch.uint8)
NAN, INF = float("nan"), float("inf")
# A (3, 4) of edge values, NaN and infinities included.
SPECIALS = [-0.0, 0.0, -1.0, 1.0, 2.5, -2.5, 0.5, NAN, INF, -INF, 1e30, -1.5]


def specials(c, dtype=torch.float32):
    return c.t((3, 4), dtype=dtype, values=SPECIALS)


def unary(c, name, dtypes=FLOATS, ints=INTS + (torch.bool,), **t_kw):
    """STANDARD layouts, other dtypes, integer and bool inputs, edge values."""
    for shape, layout in STANDARD:
        c.op(name, c.t(shape, layout=layout, **t_kw))
    for dtype in dtypes[1:]:
        c.op(name, c.t((3, 4), dtype=dtype, **t_kw))
    for dtype in ints:
        c.op(name, c.t((3, 4), dtype=dtype, lo=0 if dtype == torch.uint8 else -3, hi=4))
    c.op(name, specials(c))
    c.op(name, specials(c, torch.float64))


def binary(c, name, t_kw=None, other_kw=None):
    """STANDARD layouts on either side, mixed layouts, broadcasting, dtypes and promotion."""
    t_kw, other_kw = t_kw or {}, other_kw or {}
    for shape, layout in STANDARD:
        c.op(name, c.t(shape, layout=layout, **t_kw), c.t(shape, **other_kw))
        c.op(name, c.t(shape, **t_kw), c.t(shape, layout=layout, **other_kw))
    c.op(name, c.t((3, 4), layout="transposed", **t_kw), c.t((3, 4), layout="sliced", **other_kw))
    c.op(name, c.t((3, 1), **t_kw), c.t((1, 4), **other_kw))
    c.op(name, c.t((2, 3, 2, 3), layout="channels_last", **t_kw), c.t((3, 1, 1), **other_kw))
    c.op(name, c.t((3, 4), **t_kw), c.t((5,), **other_kw))  # error: not broadcastable
    for dtype in FLOATS[1:]:
        c.op(name, c.t((3, 4), dtype=dtype, **t_kw), c.t((3, 4), dtype=dtype, **other_kw))
    c.op(name, c.t((3, 4), dtype=torch.float16, **t_kw), c.t((), dtype=torch.float64, **other_kw))
    c.op(name, c.t((3, 4), dtype=torch.int64, **t_kw), c.t((3, 4), **other_kw))


def unary_cases(c):
    positive = dict(lo=0.125, hi=4, positive=True)
    domains = {  # where each function is finite on the STANDARD sweep
        "acos": dict(lo=-1, hi=1), "asin": dict(lo=-1, hi=1), "atanh": dict(lo=-0.875, hi=0.875),
        "acosh": dict(lo=1, hi=5), "log10": positive, "log2": positive, "log1p": dict(lo=-0.875, hi=4),
        "reciprocal": dict(nonzero=True),
    }
    for op in ("acos", "acosh", "asin", "asinh", "atan", "atanh", "cos", "cosh", "sin", "sinh", "tan", "erf",
               "expm1", "log10", "log1p", "log2", "reciprocal"):
        unary(c, "aten.%s.default" % op, **domains.get(op, {}))
    c.op("aten.expm1.default", c.t((8,), values=[1e-5, -1e-5, 1e-10, 20, -20, 0.25, 88, -88]))
    c.op("aten.log1p.default", c.t((6,), values=[1e-5, -1e-5, 1e-10, 1e10, -1, -0.999]))
    for op in ("ceil", "floor", "round", "trunc", "sign"):
        unary(c, "aten.%s.default" % op, ints=INTS + (torch.bool,) if op == "sign" else INTS)
        c.op("aten.%s.default" % op, c.t((10,), values=[0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.49, -2.51, 1e20, -0.0]))
        c.op("aten.%s.default" % op, c.t((3, 4), dtype=torch.bool))  # error except sign
    for op in ("isnan", "isinf"):
        unary(c, "aten.%s.default" % op)
        c.op("aten.%s.default" % op, specials(c, torch.float16))
        c.op("aten.%s.default" % op, specials(c, torch.bfloat16))
        for dtype in INTS:  # isinf: zeros_like (preserve_format) for integers
            c.op("aten.%s.default" % op, c.t((2, 3, 4), dtype=dtype, layout="permuted"))
            c.op("aten.%s.default" % op, c.t((3, 4), dtype=dtype, layout="sliced"))
            c.op("aten.%s.default" % op, c.t((3, 4), dtype=dtype, layout="expanded"))
    for shape, layout in STANDARD:
        c.op("aten.bitwise_not.default", c.t(shape, dtype=torch.int64, layout=layout, lo=-8, hi=8))
    for dtype in INTS + (torch.bool, torch.int16):
        c.op("aten.bitwise_not.default", c.t((3, 4), dtype=dtype, lo=0 if dtype == torch.uint8 else -8, hi=8))
    c.op("aten.bitwise_not.default", c.t((3, 4)))  # error: float


def bitwise_cases(c):
    ints = dict(dtype=torch.int64, lo=-8, hi=8)
    for op in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        name = "aten.%s.Tensor" % op
        for shape, layout in STANDARD:
            c.op(name, c.t(shape, layout=layout, **ints), c.t(shape, **ints))
        c.op(name, c.t((3, 1), **ints), c.t((1, 4), **ints))
        c.op(name, c.t((3, 4), dtype=torch.uint8, lo=0, hi=255), c.t((3, 4), dtype=torch.int8, lo=-100, hi=100))
        c.op(name, c.t((3, 4), dtype=torch.bool), c.t((3, 4), dtype=torch.bool))
        c.op(name, c.t((3, 4), dtype=torch.bool), c.t((3, 4), dtype=torch.int32, lo=-8, hi=8))
        c.op(name, c.t((3, 4), dtype=torch.int16, lo=-300, hi=300), c.t((), dtype=torch.int64, lo=0, hi=1000))
        c.op(name, c.t((3, 4), dtype=torch.uint8, lo=0, hi=255), c.t((), dtype=torch.int64, values=[300]))  # 0-dim: uint8
        c.op(name, c.t((3, 4)), c.t((3, 4)))  # error: float
        c.op(name, c.t((3, 4), **ints), c.t((3, 4)))  # error: float
        c.op(name, c.t((3, 4), **ints), c.t((5,), **ints))  # error: broadcast
        name = "aten.%s.Scalar" % op
        for shape, layout in STANDARD[:6]:
            c.op(name, c.t(shape, layout=layout, **ints), 5)
        for dtype in INTS:
            c.op(name, c.t((3, 4), dtype=dtype, lo=0, hi=100), -3)
        c.op(name, c.t((3, 4), dtype=torch.bool), 3)  # -> int64
        c.op(name, c.t((3, 4), dtype=torch.int64), 2.5)  # error: float
    for op in ("logical_and", "logical_or", "logical_xor"):
        name = "aten.%s.default" % op
        binary(c, name, t_kw=dict(lo=-1, hi=1), other_kw=dict(lo=-1, hi=1))
        c.op(name, specials(c), c.t((3, 4), values=SPECIALS[::-1]))
        c.op(name, c.t((3, 4), dtype=torch.bool), c.t((3, 4), dtype=torch.bool))
        c.op(name, c.t((3, 4), dtype=torch.uint8, lo=0, hi=3), c.t((3, 4), dtype=torch.int8, lo=-1, hi=2))
        c.op(name, c.t((2, 3, 2, 3), dtype=torch.bool, layout="channels_last"), c.t((2, 3, 2, 3), dtype=torch.bool))


def division_cases(c):
    for op in ("fmod", "remainder"):
        name = "aten.%s.Tensor" % op
        binary(c, name, other_kw=dict(nonzero=True))
        c.op(name, specials(c), c.t((3, 4), values=[2, -2, 0.75, -0.75, 0, 1, INF, -INF, 3, NAN, 0, -0.0]))
        for dtype in INTS:
            lo = 0 if dtype == torch.uint8 else -9
            c.op(name, c.t((3, 4), dtype=dtype, lo=lo, hi=9), c.t((3, 4), dtype=dtype, lo=1, hi=5))
            c.op(name, c.t((3, 4), dtype=dtype, lo=lo, hi=9), c.t((3, 4), dtype=dtype, lo=-4 if lo else 1, hi=5, nonzero=True))
        c.op(name, c.t((3, 4), dtype=torch.int64), c.t((3, 4), dtype=torch.int64, values=[1] * 11 + [0]))  # ZeroDivisionError
        c.op(name, c.t((3, 4), dtype=torch.bool), c.t((3, 4), dtype=torch.bool))  # error
        c.op(name, c.t((3, 4), dtype=torch.int32), c.t((), dtype=torch.float64, values=[0.75]))  # 0-dim: float32
        name = "aten.%s.Scalar" % op
        for shape, layout in STANDARD:
            c.op(name, c.t(shape, layout=layout), 1.5)
        for v in (3, -3, 0.1, -2.5):
            c.op(name, c.t((3, 4)), v)
            c.op(name, c.t((3, 4), dtype=torch.int64, lo=-9, hi=9), v)
            c.op(name, c.t((3, 4), dtype=torch.float16), v)
        c.op(name, c.t((3, 4), dtype=torch.uint8, lo=0, hi=200), 7)
        c.op(name, specials(c), 1.5)
        c.op(name, c.t((3, 4)), 0)  # nan
        c.op(name, c.t((3, 4), dtype=torch.int32), 0)  # error


def pow_cases(c):
    name = "aten.pow.Tensor_Tensor"
    binary(c, name, t_kw=dict(positive=True, lo=0, hi=3), other_kw=dict(lo=-2, hi=2))
    c.op(name, specials(c), c.t((3, 4), values=[0, 2, 0.5, -1, 3, NAN, INF, -INF, 0, 0.5, 2, -0.0]))
    c.op(name, c.t((3, 4), values=[-2, -1, 0, 0, 1, 2, -0.5, 4, -8, 1, -1, 0]), c.t((3, 4), values=[3, -3, -1, 0, NAN, 0.5, 2, 0.5, 1 / 3, INF, INF, -2]))
    for dtype in INTS:
        lo = 0 if dtype == torch.uint8 else -3
        c.op(name, c.t((3, 4), dtype=dtype, lo=lo, hi=4), c.t((3, 4), dtype=dtype, lo=0, hi=5))
    c.op(name, c.t((3, 4), dtype=torch.int64, values=[1, -1, -1, 2, -2, 0, 1, -1, 3, 2, 7, 5]),
         c.t((3, 4), dtype=torch.int64, values=[-3, -3, -2, -1, -2, 2, -9, 0, 40, 63, 30, 27]))  # negative and wrapping
    c.op(name, c.t((3, 4), dtype=torch.int32, lo=-3, hi=4), c.t((), dtype=torch.int64, values=[2]))  # stays int32
    c.op(name, c.t((3, 4), dtype=torch.int32, lo=-3, hi=4), c.t((), dtype=torch.float64, values=[0.5]))  # -> float32
    c.op(name, c.t((), values=[2]), c.t((3, 4), layout="transposed"))
    c.op(name, c.t((3, 4), dtype=torch.bool), c.t((3, 4), dtype=torch.bool))  # error
    name = "aten.pow.Scalar"
    for shape, layout in STANDARD:
        c.op(name, 2.5, c.t(shape, layout=layout))
        c.op(name, 3, c.t(shape, layout=layout, dtype=torch.int64, lo=0, hi=5))
    for base in (1, 1.0, 0, -2, 0.5, -0.5):
        c.op(name, base, c.t((3, 4), lo=-3, hi=3))
        c.op(name, base, c.t((3, 4), dtype=torch.int32, lo=0, hi=4))
        c.op(name, base, c.t((3, 4), dtype=torch.float16))
        c.op(name, base, c.t((3, 4), dtype=torch.bfloat16))
    c.op(name, 2, c.t((3, 4), dtype=torch.bool))
    c.op(name, 2, c.t((3, 4), dtype=torch.int64, lo=-2, hi=2))  # negative exponents: 0
    c.op(name, 2.0, specials(c))


def clamp_cases(c):
    name = "aten.clamp.Tensor"
    for shape, layout in STANDARD:
        c.op(name, c.t(shape, layout=layout), c.t(shape, lo=-2, hi=0), c.t(shape, lo=0, hi=2))
        c.op(name, c.t(shape), c.t(shape, layout=layout, lo=-2, hi=0), c.t(shape, lo=0, hi=2))
        c.op(name, c.t(shape), c.t(shape, lo=-2, hi=0), c.t(shape, layout=layout, lo=0, hi=2))
    c.op(name, c.t((3, 4)), c.t((4,), lo=-1, hi=0))
    c.op(name, c.t((3, 4)), None, c.t((3, 1), lo=0, hi=1))
    c.op(name, c.t((3, 4), layout="transposed"), c.t((3, 4), layout="sliced"), None)
    c.op(name, c.t((1, 4)), c.t((3, 1), lo=-1, hi=0), c.t((), lo=0, hi=1))  # grows to the broadcast shape
    c.op(name, specials(c), c.t((3, 4), values=SPECIALS[::-1]), c.t((3, 4), values=[1] * 12))
    c.op(name, specials(c), c.t((3, 4), values=SPECIALS[::-1]), None)
    c.op(name, specials(c), None, c.t((3, 4), values=SPECIALS[::-1]))
    c.op(name, c.t((3, 4)), c.t((3, 4), lo=1, hi=2), c.t((3, 4), lo=-2, hi=-1))  # min > max: max
    for dtype in FLOATS[1:] + INTS:
        lo = 0 if dtype == torch.uint8 else -4
        c.op(name, c.t((3, 4), dtype=dtype, lo=lo, hi=5), c.t((3, 4), dtype=dtype, lo=lo, hi=1),
             c.t((3, 4), dtype=dtype, lo=1, hi=5))
    c.op(name, c.t((3, 4), dtype=torch.int64), c.t((3, 4), lo=-1, hi=0), None)  # -> float32
    c.op(name, c.t((3, 4), dtype=torch.int32), c.t((), dtype=torch.int64, lo=0, hi=2), None)  # stays int32
    c.op(name, c.t((3, 4), dtype=torch.float16), c.t((3, 4), dtype=torch.float64, lo=-1, hi=0), None)
    c.op(name, c.t((3, 4)), None, None)  # error
    c.op(name, c.t((3, 4)), c.t((5,)), None)  # error: broadcast


def activation_cases(c):
    for shape, layout in STANDARD:
        c.op("aten.elu.default", c.t(shape, layout=layout))
        c.op("aten.leaky_relu.default", c.t(shape, layout=layout))
    for dtype in FLOATS[1:] + (torch.int64,):
        c.op("aten.elu.default", c.t((3, 4), dtype=dtype), 0.5, 2.0, 1.5)
        c.op("aten.leaky_relu.default", c.t((3, 4), dtype=dtype), 0.2)
    for args in ((1.0,), (0.5, 1.0507, 1.0), (1.67, 1.05, 0.5), (-0.5,), (2, 3, 4)):
        c.op("aten.elu.default", c.t((3, 4), lo=-4, hi=4), *args)
        c.op("aten.elu.default", specials(c), *args)
    for slope in (0.01, 0.2, -0.5, 0, 3):
        c.op("aten.leaky_relu.default", c.t((3, 4)), slope)
        c.op("aten.leaky_relu.default", specials(c), slope)
    for shape, layout in STANDARD:
        for is_result in (False, True):
            c.op("aten.elu_backward.default", c.t(shape, layout=layout), 1.0, 1.0, 1.0, is_result, c.t(shape))
            c.op("aten.elu_backward.default", c.t(shape), 0.5, 2.0, 1.5, is_result, c.t(shape, layout=layout))
        c.op("aten.leaky_relu_backward.default", c.t(shape, layout=layout), c.t(shape), 0.01, False)
        c.op("aten.leaky_relu_backward.default", c.t(shape), c.t(shape, layout=layout), 0.2, True)
    for dtype in FLOATS[1:]:
        c.op("aten.elu_backward.default", c.t((3, 4), dtype=dtype), 1.0, 1.0, 1.0, False, c.t((3, 4), dtype=dtype))
        c.op("aten.leaky_relu_backward.default", c.t((3, 4), dtype=dtype), c.t((3, 4), dtype=dtype), 0.1, False)
    c.op("aten.elu_backward.default", c.t((3, 4)), 1.0, 1.0, 1.0, False, c.t((4,)))
    c.op("aten.elu_backward.default", c.t((3, 4)), 1.0, 1.0, 1.0, False, c.t((3, 4), dtype=torch.float64))
    c.op("aten.elu_backward.default", c.t((3, 4)), -1.0, 1.0, 1.0, True, c.t((3, 4)))  # error: negative alpha
    c.op("aten.leaky_relu_backward.default", c.t((3, 4)), c.t((4,)), 0.1, False)
    c.op("aten.leaky_relu_backward.default", c.t((3, 4)), c.t((3, 4)), -0.1, True)  # error: negative slope
    c.op("aten.leaky_relu_backward.default", c.t((3, 4)), specials(c), 0.1, False)
    c.op("aten.elu_backward.default", c.t((3, 4)), 1.0, 1.0, 1.0, False, specials(c))


def cases(c):
    unary_cases(c)
    bitwise_cases(c)
    division_cases(c)
    c.op("aten.atan2.default", c.t((3, 4)), c.t((3, 4)))
    binary(c, "aten.atan2.default")
    c.op("aten.atan2.default", specials(c), c.t((3, 4), values=SPECIALS[::-1]))
    for dtype in INTS + (torch.bool,):
        c.op("aten.atan2.default", c.t((3, 4), dtype=dtype, lo=0, hi=3), c.t((3, 4), dtype=dtype, lo=0, hi=3))
    pow_cases(c)
    clamp_cases(c)
    activation_cases(c)
