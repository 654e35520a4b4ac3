"""NN ops: convolution (2-d and 1-d, grouped, depthwise, strided, padded, dilated) and its
backward, batch norm (training and eval, running-stat updates) and its backward, max/avg pooling
and max pooling's backward, dropout and bernoulli_. Layouts sweep contiguous, channels_last,
permuted, sliced and expanded inputs, because the result's memory format follows PyTorch's
backend choice. Random ops record layouts only, except where p makes them deterministic."""
import torch

A = torch.ops.aten
CL = torch.channels_last


def conv_args(stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1, output_padding=(0, 0)):
    return [list(stride), list(padding), list(dilation), False, list(output_padding), groups]


# PyTorch 1.13's slow bfloat16 convolution accumulates its GEMMs in bfloat16 (Fathom in float32),
# so bfloat16 convolution results may differ by several bfloat16 ulps of the partial sums.
BF16_CONV_TOL = (2e-2, 0.5)


def conv(c, x, w, b=None, **kw):
    tol = BF16_CONV_TOL if x.dtype == torch.bfloat16 else None
    c.op("aten.convolution.default", x, w, b, *conv_args(**kw), tol=tol)


def conv_cases(c):
    # layouts of input and weight (the output's memory format follows them)
    for layout in ("contiguous", "channels_last", "permuted", "sliced", "expanded", "transposed"):
        conv(c, c.t((2, 4, 5, 5), layout=layout), c.t((6, 4, 3, 3)), c.t((6,)))
    for layout in ("channels_last", "permuted", "sliced", "transposed"):
        conv(c, c.t((2, 4, 5, 5)), c.t((6, 4, 3, 3), layout=layout), c.t((6,)))
    conv(c, c.t((2, 4, 5, 5), layout="channels_last"), c.t((6, 4, 3, 3), layout="channels_last"), None)
    # stride, padding, dilation
    conv(c, c.t((2, 3, 7, 7)), c.t((4, 3, 3, 3)), c.t((4,)), stride=(2, 2), padding=(1, 1))
    conv(c, c.t((2, 3, 7, 8)), c.t((4, 3, 3, 2)), None, stride=(1, 2), padding=(2, 0), dilation=(2, 1))
    conv(c, c.t((2, 3, 7, 8), layout="channels_last"), c.t((4, 3, 3, 2)), None, stride=(2, 1), padding=(1, 1),
         dilation=(1, 2))
    conv(c, c.t((1, 3, 16, 16)), c.t((8, 3, 7, 7)), None, stride=(2, 2), padding=(3, 3))  # ResNet stem
    c.op("aten.convolution.default", c.t((2, 3, 6, 6)), c.t((4, 3, 3, 3)), None, [2], [1], [1], False, [0], 1)
    # groups, depthwise (MobileNetV2), depthwise with a channel multiplier
    for layout in ("contiguous", "channels_last"):
        conv(c, c.t((2, 4, 5, 5), layout=layout), c.t((6, 2, 3, 3)), c.t((6,)), groups=2)
        conv(c, c.t((2, 4, 6, 6), layout=layout), c.t((4, 1, 3, 3)), None, stride=(2, 2), padding=(1, 1), groups=4)
        conv(c, c.t((2, 3, 5, 5), layout=layout), c.t((6, 1, 3, 3)), c.t((6,)), padding=(1, 1), groups=3)
        conv(c, c.t((1, 4, 5, 5), layout=layout), c.t((4, 1, 3, 3)), c.t((4,)), padding=(1, 1), groups=4)
        conv(c, c.t((2, 4, 3, 3), layout=layout), c.t((4, 1, 3, 3)), None, groups=4)  # 1x1 depthwise output
        conv(c, c.t((2, 4, 5, 5), layout=layout), c.t((4, 2, 1, 1)), None, groups=2)  # grouped 1x1
    # pointwise (1x1) convolutions: oneDNN or the slow path depending on the batch
    for shape in ((1, 4, 5, 5), (2, 4, 5, 5), (17, 3, 2, 2)):
        for layout in ("contiguous", "channels_last"):
            conv(c, c.t(shape, layout=layout), c.t((6, shape[1], 1, 1)), c.t((6,)))
    conv(c, c.t((2, 4, 1, 1), layout="channels_last"), c.t((6, 4, 1, 1)), None)
    conv(c, c.t((1, 4, 5, 1), layout="channels_last"), c.t((6, 4, 1, 1)), None)
    # dtypes (float16 and bool have no CPU kernel in 1.13; integers take the slow path)
    for dtype in (torch.float64, torch.bfloat16, torch.float16, torch.int64, torch.int32, torch.bool):
        conv(c, c.t((2, 4, 5, 5), dtype=dtype, lo=-3, hi=3), c.t((6, 4, 3, 3), dtype=dtype, lo=-3, hi=3),
             c.t((6,), dtype=dtype, lo=-3, hi=3), padding=(1, 1))
        conv(c, c.t((2, 4, 5, 5), dtype=dtype, layout="channels_last", lo=-3, hi=3),
             c.t((4, 1, 3, 3), dtype=dtype, lo=-3, hi=3), None, groups=4)
    # 1-d convolutions (run as 2-d with a unit height)
    c.op("aten.convolution.default", c.t((2, 4, 7)), c.t((6, 4, 3)), c.t((6,)), [1], [0], [1], False, [0], 1)
    c.op("aten.convolution.default", c.t((2, 4, 7), layout="transposed"), c.t((6, 4, 3)), None, [2], [1], [1], False,
         [0], 1)
    c.op("aten.convolution.default", c.t((2, 4, 7)), c.t((6, 4, 3), layout="transposed"), None, [1], [0], [2], False,
         [0], 1)
    c.op("aten.convolution.default", c.t((2, 4, 7)), c.t((6, 2, 3)), c.t((6,)), [1], [1], [1], False, [0], 2)
    # empty batch / no channels
    conv(c, c.t((0, 4, 5, 5)), c.t((6, 4, 3, 3)), c.t((6,)))
    conv(c, c.t((2, 0, 5, 5)), c.t((6, 0, 3, 3)), None)
    # errors
    conv(c, c.t((2, 5, 5, 5)), c.t((6, 4, 3, 3)), None)  # channels
    conv(c, c.t((2, 4, 5, 5)), c.t((6, 2, 3, 3)), None, groups=3)  # groups do not divide
    conv(c, c.t((2, 4, 5, 5)), c.t((6, 4, 3, 3)), None, groups=0)
    conv(c, c.t((2, 4, 5, 5)), c.t((6, 4, 3, 3)), c.t((5,)))  # bias size
    conv(c, c.t((2, 4, 5, 5)), c.t((6, 4, 3, 3)), None, stride=(0, 1))
    conv(c, c.t((2, 4, 5, 5)), c.t((6, 4, 3, 3)), None, padding=(-1, 0))
    conv(c, c.t((2, 4, 5, 5)), c.t((6, 4, 3, 3)), None, dilation=(0, 1))
    conv(c, c.t((2, 4, 2, 2)), c.t((6, 4, 3, 3)), None)  # kernel larger than the input
    conv(c, c.t((2, 4, 5, 5)), c.t((6, 4, 3, 3), dtype=torch.float64), None)  # dtypes differ
    conv(c, c.t((2, 4, 5, 5)), c.t((0, 4, 3, 3)), None)  # no output channels
    conv(c, c.t((4, 5, 5)), c.t((6, 4, 3, 3)), None)  # rank mismatch
    c.op("aten.convolution.default", c.t((2, 4, 5, 5)), c.t((6, 4, 3, 3)), None, [1, 1, 1], [0], [1], False, [0], 1)
    c.op("aten.convolution.default", c.t((2, 4, 5, 5)), c.t((6,)), None, [1], [0], [1], False, [0], 1)


def conv_backward(c, x, w, bias_sizes=(), stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1,
                  grad_layout="contiguous", output_padding=None):
    out = A.convolution.default(x, w, None, list(stride), list(padding), list(dilation), False, [0] * len(stride),
                                groups)
    go = c.t(tuple(out.shape), dtype=x.dtype, layout=grad_layout)
    sizes = None if bias_sizes is None else [w.shape[0]]
    c.op("aten.convolution_backward.default", go, x, w, sizes, list(stride), list(padding), list(dilation), False,
         list(output_padding or [0] * len(stride)), groups, [True, True, True],
         tol=BF16_CONV_TOL if x.dtype == torch.bfloat16 else None)


def conv_backward_cases(c):
    for dtype in (torch.float32, torch.float64, torch.bfloat16):
        t = lambda shape, layout="contiguous": c.t(shape, dtype=dtype, layout=layout, lo=-2, hi=2)
        conv_backward(c, t((2, 4, 5, 5)), t((6, 4, 3, 3)))
        conv_backward(c, t((2, 4, 5, 5), "channels_last"), t((6, 4, 3, 3)))
        conv_backward(c, t((2, 4, 5, 5)), t((6, 4, 3, 3), "channels_last"), grad_layout="channels_last")
        conv_backward(c, t((2, 3, 7, 8)), t((4, 3, 3, 2)), None, stride=(2, 1), padding=(1, 1), dilation=(1, 2))
        conv_backward(c, t((2, 4, 6, 6), "channels_last"), t((4, 1, 3, 3)), stride=(2, 2), padding=(1, 1), groups=4)
        conv_backward(c, t((2, 4, 5, 5)), t((6, 2, 3, 3)), groups=2)
        conv_backward(c, t((1, 4, 5, 5)), t((6, 4, 1, 1)))
        conv_backward(c, t((2, 4, 5, 5), "channels_last"), t((6, 4, 1, 1)), grad_layout="permuted")
    t = lambda shape, layout="contiguous": c.t(shape, layout=layout, lo=-2, hi=2)
    conv_backward(c, t((2, 3, 5, 5)), t((6, 1, 3, 3)), padding=(1, 1), groups=3)
    conv_backward(c, t((2, 3, 5, 5), "channels_last"), t((6, 1, 3, 3)), dilation=(2, 2), padding=(2, 2), groups=3)
    conv_backward(c, t((2, 4, 5, 5), "sliced"), t((6, 4, 3, 3), "permuted"), grad_layout="sliced")
    conv_backward(c, t((1, 3, 16, 16)), t((8, 3, 7, 7)), stride=(2, 2), padding=(3, 3))
    conv_backward(c, t((2, 4, 7)), t((6, 4, 3)), stride=(2,), padding=(1,), dilation=(1,))
    conv_backward(c, t((2, 4, 7), "transposed"), t((6, 2, 3)), stride=(1,), padding=(0,), dilation=(2,), groups=2)
    conv_backward(c, t((0, 4, 5, 5)), t((6, 4, 3, 3)))
    # errors
    conv_backward(c, t((2, 4, 5, 5)), t((6, 4, 3, 3)), output_padding=(1, 1))
    bw = "aten.convolution_backward.default"
    mask = [True, True, True]
    c.op(bw, t((2, 6, 3)), t((2, 4, 5, 5)), t((6, 4, 3, 3)), [6], [1, 1], [0, 0], [1, 1], False, [0, 0], 1, mask)
    c.op(bw, t((2, 6, 3, 3)), t((2, 5, 5, 5)), t((6, 4, 3, 3)), [6], [1, 1], [0, 0], [1, 1], False, [0, 0], 1, mask)
    c.op(bw, t((2, 6, 3, 3)), t((2, 4, 5, 5)), t((6, 4, 3, 3)), [6], [1, 1], [0, 0], [1, 1], True, [0, 0], 1, mask)


def batch_norm_cases(c):
    op = "aten.native_batch_norm.default"
    shapes = (((2, 3), "contiguous"), ((2, 3, 4), "contiguous"), ((2, 3, 4), "permuted"), ((2, 3, 4), "transposed"),
              ((2, 3, 4, 5), "contiguous"), ((2, 3, 4, 5), "channels_last"), ((2, 3, 4, 5), "sliced"),
              ((2, 3, 2, 2, 2), "contiguous"), ((1, 3, 4), "contiguous"))
    for shape, layout in shapes:
        for training in (True, False):
            x = c.t(shape, layout=layout)
            rm, rv = c.t((3,)), c.t((3,), positive=True)
            c.op(op, x, c.t((3,)), c.t((3,)), rm, rv, training, 0.1, 1e-5, mutates=(3, 4))
    for training in (True, False):
        c.op(op, c.t((2, 3, 4)), None, None, c.t((3,)), c.t((3,), positive=True), training, 0.3, 1e-3, mutates=(1, 2))
        c.op(op, c.t((2, 3, 4)), c.t((3,), layout="sliced"), None, c.t((3,), layout="sliced"),
             c.t((3,), positive=True), training, 0.1, 1e-5, mutates=(2, 3))
        for dtype in (torch.float64, torch.bfloat16, torch.float16):
            x = c.t((2, 3, 4, 5), dtype=dtype, layout="channels_last")
            c.op(op, x, c.t((3,), dtype=dtype), c.t((3,), dtype=dtype), c.t((3,), dtype=dtype),
                 c.t((3,), dtype=dtype, positive=True), training, 0.1, 1e-5, mutates=(3, 4))
        # bfloat16 input with float32 parameters
        c.op(op, c.t((2, 3, 4), dtype=torch.bfloat16), c.t((3,)), c.t((3,)), c.t((3,)), c.t((3,), positive=True),
             training, 0.1, 1e-5, mutates=(3, 4))
    c.op(op, c.t((2, 3, 4)), None, None, None, None, True, 0.1, 1e-5)  # no running stats
    c.op(op, c.t((2, 3, 4)), c.t((3,)), None, None, None, True, 0.0, 1e-5)
    # errors
    c.op(op, c.t((2, 3, 4)), c.t((3,), dtype=torch.float64), None, None, None, True, 0.1, 1e-5)
    c.op(op, c.t((2, 3, 4), dtype=torch.float64), c.t((3,)), None, None, None, True, 0.1, 1e-5)
    c.op(op, c.t((3,)), None, None, c.t((3,)), c.t((3,), positive=True), False, 0.1, 1e-5)
    c.op(op, c.t((2, 3), dtype=torch.int64), None, None, None, None, True, 0.1, 1e-5)


def batch_norm_backward_cases(c):
    op = "aten.native_batch_norm_backward.default"
    for shape, layout, grad_layout in (((2, 3), "contiguous", "contiguous"), ((2, 3, 4), "contiguous", "permuted"),
                                       ((2, 3, 4, 5), "channels_last", "contiguous"),
                                       ((2, 3, 4, 5), "contiguous", "channels_last"),
                                       ((2, 3, 4, 5), "channels_last", "channels_last"),
                                       ((2, 3, 2, 2, 2), "contiguous", "contiguous")):
        for dtype in (torch.float32, torch.float64, torch.bfloat16):
            x = c.t(shape, dtype=dtype, layout=layout)
            w, rm, rv = c.t((3,), dtype=dtype), c.t((3,), dtype=dtype), c.t((3,), dtype=dtype, positive=True)
            _, sm, si = A.native_batch_norm.default(x, w, None, rm.clone(), rv.clone(), True, 0.1, 1e-5)
            go = c.t(shape, dtype=dtype, layout=grad_layout)
            # float32: sums of products over a channel; bfloat16: PyTorch rounds intermediates to bfloat16.
            tol = {torch.float32: (1e-5, 1e-4), torch.bfloat16: (1.6e-2, 0.05)}.get(dtype)
            c.op(op, go, x, w, rm, rv, sm, si, True, 1e-5, [True, True, True], tol=tol)
            c.op(op, go, x, w, rm, rv, None, None, False, 1e-5, [True, True, True], tol=tol)
    x = c.t((2, 3, 4))
    _, sm, si = A.native_batch_norm.default(x, None, None, None, None, True, 0.1, 1e-5)
    c.op(op, c.t((2, 3, 4)), x, None, None, None, sm, si, True, 1e-5, [True, True, True], tol=(1e-5, 1e-4))
    xb = c.t((2, 3, 4), dtype=torch.bfloat16)
    _, sm, si = A.native_batch_norm.default(xb, None, None, c.t((3,)), c.t((3,), positive=True), True, 0.1, 1e-5)
    c.op(op, c.t((2, 3, 4), dtype=torch.bfloat16), xb, c.t((3,)), None, None, sm, si, True, 1e-5, [True, True, True],
         tol=(1.6e-2, 0.05))
    # errors
    c.op(op, c.t((2, 3, 4), dtype=torch.float64), x, None, c.t((3,)), c.t((3,)), None, None, False, 1e-5,
         [True, True, True])
    c.op(op, c.t((2, 3), dtype=torch.int64), c.t((2, 3), dtype=torch.int64), None, c.t((3,)), c.t((3,)), None, None,
         False, 1e-5, [True, True, True])


def max_pool_cases(c):
    op = "aten.max_pool2d_with_indices.default"
    for shape, layout in (((2, 3, 6, 6), "contiguous"), ((2, 3, 6, 6), "channels_last"), ((2, 3, 6, 6), "permuted"),
                          ((2, 3, 6, 6), "sliced"), ((3, 6, 6), "contiguous"), ((3, 6, 6), "transposed"),
                          ((1, 3, 6, 6), "channels_last"), ((2, 3, 2, 2), "channels_last"), ((0, 3, 6, 6), "contiguous")):
        c.op(op, c.t(shape, layout=layout, lo=-1, hi=1), [2, 2], [2, 2])
    x = lambda shape=(2, 3, 7, 7), layout="contiguous": c.t(shape, layout=layout, lo=-1, hi=1)
    c.op(op, x(), [3, 3], [2, 2], [1, 1])
    c.op(op, x(), [3, 3], [1, 1], [1, 1], [2, 2])
    c.op(op, x(layout="channels_last"), [3, 2], [2, 1], [1, 0], [1, 2])
    c.op(op, x((1, 2, 5, 5)), [2, 2], [2, 2], [0, 0], [1, 1], True)  # ceil mode
    c.op(op, x((1, 2, 5, 5)), [3, 3], [2, 2], [1, 1], [1, 1], True)
    c.op(op, x((1, 2, 6, 5)), [3, 3], [3, 3], [1, 1], [1, 1], True)
    c.op(op, x(), 3, 3)  # single ints
    c.op(op, x(), [3, 3], 2, 1, 1)
    for dtype in (torch.float64, torch.bfloat16, torch.int64):
        c.op(op, c.t((2, 3, 6, 6), dtype=dtype), [3, 3], [2, 2], [1, 1])
    # errors
    c.op(op, x(), [2, 2], [2, 2], [2, 2])  # pad more than half the kernel
    c.op(op, x(), [2, 2], [0, 1])
    c.op(op, x(), [2, 2], [1, 1], [0, 0], [0, 1])
    c.op(op, x((2, 3, 2, 2)), [3, 3], [3, 3])  # output too small
    c.op(op, x((6, 6)), [2, 2], [2, 2])
    c.op(op, x((2, 0, 6, 6)), [2, 2], [2, 2])


def max_pool_backward_cases(c):
    op = "aten.max_pool2d_with_indices_backward.default"
    for shape, layout, params in (((2, 3, 6, 6), "contiguous", ([2, 2], [2, 2], [0, 0], [1, 1], False)),
                                  ((2, 3, 6, 6), "channels_last", ([2, 2], [2, 2], [0, 0], [1, 1], False)),
                                  ((2, 3, 7, 7), "contiguous", ([3, 3], [1, 1], [1, 1], [1, 1], False)),
                                  ((2, 3, 7, 7), "channels_last", ([3, 3], [2, 2], [1, 1], [2, 1], True)),
                                  ((3, 6, 6), "contiguous", ([3, 3], [2, 2], [1, 1], [1, 1], True)),
                                  ((2, 3, 6, 6), "permuted", ([2, 2], [1, 1], [0, 0], [1, 1], False))):
        for dtype in (torch.float32, torch.float64, torch.bfloat16):
            x = c.t(shape, dtype=dtype, layout=layout, lo=-1, hi=1)
            out, idx = A.max_pool2d_with_indices.default(x, *params)
            go = c.t(tuple(out.shape), dtype=dtype)
            c.op(op, go, x, *params, idx)
    x = c.t((2, 3, 6, 6))
    out, idx = A.max_pool2d_with_indices.default(x, [2, 2])
    c.op(op, c.t((2, 3, 3, 3), layout="channels_last"), x, [2, 2], [2, 2], [0, 0], [1, 1], False,
         idx.contiguous(memory_format=CL))
    # errors
    c.op(op, c.t((2, 3, 3, 3), dtype=torch.float64), x, [2, 2], [2, 2], [0, 0], [1, 1], False, idx)
    c.op(op, c.t((2, 3, 3, 3)), x, [2, 2], [2, 2], [0, 0], [1, 1], False, idx.to(torch.int32))
    c.op(op, c.t((2, 3, 2, 3)), x, [2, 2], [2, 2], [0, 0], [1, 1], False, idx[:, :, :2])


def avg_pool_cases(c):
    op = "aten.avg_pool2d.default"
    for shape, layout in (((2, 3, 6, 6), "contiguous"), ((2, 3, 6, 6), "channels_last"), ((2, 3, 6, 6), "permuted"),
                          ((2, 3, 6, 6), "sliced"), ((3, 6, 6), "contiguous"), ((3, 6, 6), "transposed"),
                          ((2, 3, 2, 2), "channels_last"), ((0, 3, 6, 6), "contiguous")):
        c.op(op, c.t(shape, layout=layout), [2, 2], [2, 2])
    x = lambda shape=(2, 3, 7, 7), layout="contiguous", **kw: c.t(shape, layout=layout, **kw)
    for include_pad in (True, False):
        c.op(op, x(), [3, 3], [2, 2], [1, 1], False, include_pad)
        c.op(op, x((1, 2, 5, 5)), [3, 3], [2, 2], [1, 1], True, include_pad)
        c.op(op, x(layout="channels_last"), [3, 2], [1, 2], [1, 1], True, include_pad, 4)
    c.op(op, x(), [3, 3], [2, 2], [1, 1], False, True, 3)
    c.op(op, x(), 3, 3)
    c.op(op, x(), [3, 3], 2, 1)
    for dtype in (torch.float64, torch.bfloat16, torch.float16, torch.int32):
        c.op(op, c.t((2, 3, 6, 6), dtype=dtype), [3, 3], [2, 2], [1, 1])
    for include_pad in (True, False):  # integer division truncates toward zero
        c.op(op, c.t((2, 3, 6, 6), dtype=torch.int64, lo=-20, hi=20), [3, 3], [2, 2], [1, 1], False, include_pad)
    c.op(op, c.t((2, 3, 6, 6), dtype=torch.int64, lo=-20, hi=20), [3, 3], [1, 1], [1, 1], True, True, 7)
    # errors
    c.op(op, x(), [3, 3], [2, 2], [1, 1], False, True, 0)
    c.op(op, x(), [2, 2], [2, 2], [2, 2])
    c.op(op, x((2, 3, 2, 2)), [3, 3], [3, 3])
    c.op(op, x((1, 2, 3, 6, 6)), [2, 2], [2, 2])


def dropout_cases(c):
    op = "aten.native_dropout.default"
    for shape, layout in (((3, 4), "contiguous"), ((3, 4), "transposed"), ((2, 3, 4), "permuted"),
                          ((3, 4), "expanded"), ((3, 4), "sliced"), ((2, 3, 2, 3), "channels_last"),
                          ((1, 4), "contiguous"), ((), "contiguous")):
        for train in (True, False, None):
            c.op(op, c.t(shape, layout=layout), 0.5, train, values=(train is False))
    for train in (True, False):  # empty input comes back as is, with an empty mask of its dtype
        c.op(op, c.t((0, 4)), 0.5, train)
        c.op(op, c.t((2, 0), layout="transposed"), 0.5, train)
    for dtype in (torch.float64, torch.bfloat16, torch.float16):
        c.op(op, c.t((3, 4), dtype=dtype), 0.2, True, values=False)
        c.op(op, c.t((3, 4), dtype=dtype), 0.2, False)
    for p in (0.0, 1.0):  # no randomness: keep all / drop all
        c.op(op, c.t((3, 4)), p, True)
        c.op(op, c.t((2, 3, 2, 3), layout="channels_last", dtype=torch.bfloat16), p, True)
    c.op(op, c.t((3, 4), dtype=torch.int64), 0.5, False)
    c.op(op, c.t((3, 4), dtype=torch.bool), 0.5, False)
    c.op(op, c.t((3, 4)), 1.5, False)  # p is not checked in evaluation
    # errors
    c.op(op, c.t((3, 4), dtype=torch.int64), 0.5, True)
    c.op(op, c.t((3, 4)), 1.5, True)
    c.op(op, c.t((3, 4)), -0.5, None)


def bernoulli_cases(c):
    op = "aten.bernoulli_.float"
    # (no sliced inputs: the oracle runs in-place ops on offset-0 copies, so aliases' offsets differ)
    for shape, layout in (((3, 4), "contiguous"), ((3, 4), "transposed"), ((2, 3, 2, 3), "channels_last"),
                          ((2, 3, 4), "permuted"), ((0, 4), "contiguous"), ((), "contiguous")):
        c.op(op, c.t(shape, layout=layout), 0.3, values=False, mutates=(0,))
    for dtype in (torch.float64, torch.bfloat16, torch.int64, torch.uint8, torch.bool, torch.float16):
        c.op(op, c.t((3, 4), dtype=dtype), values=False, mutates=(0,))
    for p in (0.0, 1.0):
        c.op(op, c.t((3, 4), layout="transposed"), p, mutates=(0,))
        c.op(op, c.t((3, 4), dtype=torch.int64), p, mutates=(0,))
    # errors
    c.op(op, c.t((3, 4)), 1.5, mutates=(0,))


def avg_pool_backward_cases(c):
    op = "aten.avg_pool2d_backward.default"
    A = torch.ops.aten
    for shape, layout, params in (((2, 3, 6, 6), "contiguous", ([2, 2], [2, 2], [0, 0], False, True, None)),
                                  ((2, 3, 6, 6), "channels_last", ([2, 2], [2, 2], [0, 0], False, True, None)),
                                  ((2, 3, 7, 7), "contiguous", ([3, 3], [2, 2], [1, 1], True, False, None)),
                                  ((2, 3, 7, 7), "permuted", ([3, 3], [2, 2], [1, 1], False, True, None)),
                                  ((3, 6, 6), "contiguous", ([3, 2], [1, 2], [1, 1], True, True, 4))):
        for dtype in (torch.float32, torch.float64, torch.bfloat16):
            x = c.t(shape, dtype=dtype, layout=layout)
            out = A.avg_pool2d.default(x, *params)
            c.op(op, c.t(tuple(out.shape), dtype=dtype), x, *params)
    x = c.t((2, 3, 6, 6), dtype=torch.int64, lo=-20, hi=20)
    c.op(op, c.t((2, 3, 3, 3), dtype=torch.int64, lo=-20, hi=20), x, [2, 2], [2, 2], [0, 0], False, True, None)
    # errors
    x = c.t((2, 3, 6, 6))
    c.op(op, c.t((2, 3, 2, 3)), x, [2, 2], [2, 2], [0, 0], False, True, None)  # grad_output of the wrong size
    c.op(op, c.t((2, 3, 3, 3), dtype=torch.float64), x, [2, 2], [2, 2], [0, 0], False, True, None)
    c.op(op, c.t((2, 3, 3, 3)), x, [2, 2], [2, 2], [0, 0], False, True, 0)


def cases(c):
    conv_cases(c)
    conv_backward_cases(c)
    batch_norm_cases(c)
    batch_norm_backward_cases(c)
    max_pool_cases(c)
    max_pool_backward_cases(c)
    avg_pool_cases(c)
    dropout_cases(c)
    bernoulli_cases(c)
    avg_pool_backward_cases(c)  # cases are seeded by creation order: new ones go after
    padding_cases(c)
    padding_backward_cases(c)
    upsample_cases(c)
    upsample_backward_cases(c)
    avg_pool1d_cases(c)
    adaptive_avg_pool1d_cases(c)
    mkldnn_mask_cases(c)


# ---- Core ATen's padding (issue 24) -----------------------------------------------------------
PADS = {1: ((1, 2), (0, 0), (-1, 2), (2, -1), (3, 3)), 2: ((1, 2, 2, 1), (0, 0, 1, 0), (-1, 1, 2, -2), (3, 3, 3, 3)),
        3: ((1, 1, 1, 1, 1, 1), (0, 2, -1, 1, 1, 0), (2, 0, 0, 2, 1, 1))}


def pad_inputs(c, dims):
    """Unbatched and batched inputs of a dims-d pad in several layouts (4 along every padded dim)."""
    out = []
    for batch in ((3,), (2, 3)):
        shape = batch + (4,) * dims
        for layout in ("contiguous", "transposed", "permuted", "sliced", "expanded", "channels_last"):
            if (layout == "channels_last" and len(shape) != 4) or (layout == "permuted" and len(shape) < 3):
                continue
            out.append(c.t(shape, layout=layout))
    return out


def padding_cases(c):
    for dims in (1, 2, 3):
        for kind in ("reflection", "replication"):
            name = "aten.%s_pad%dd.default" % (kind, dims)
            for x in pad_inputs(c, dims):
                for pad in PADS[dims][:2]:
                    c.op(name, x, list(pad))
            x = c.t((2,) + (4,) * dims)
            for pad in PADS[dims]:
                c.op(name, x, list(pad))  # reflection: 4 is too much for a dim of 4 (error)
            c.op(name, c.t((2,) + (4,) * dims, dtype=torch.float64), list(PADS[dims][0]))
            c.op(name, c.t((2,) + (4,) * dims, dtype=torch.int64), list(PADS[dims][0]))  # no kernel: dropped
            c.op(name, c.t((0, 2) + (4,) * dims), list(PADS[dims][0]))  # an empty batch
            c.op(name, c.t((2, 0) + (4,) * dims), list(PADS[dims][0]))  # error: empty channels
            c.op(name, c.t((4,) * dims), list(PADS[dims][0]))  # error: rank
            c.op(name, c.t((2,) + (1,) * dims), [-1, 0] * dims)  # error: nothing left
            if kind == "replication" or dims == 3:  # (1.13's reflection_pad1d/2d read the first 2/4 and go on)
                c.op(name, c.t((2, 3) + (4,) * dims), [1] * (2 * dims + 2))  # error: padding length


def padding_backward_cases(c):
    for dims in (1, 2, 3):
        for kind in ("reflection", "replication"):
            fwd = getattr(torch.ops.aten, "%s_pad%dd" % (kind, dims)).default
            name = "aten.%s_pad%dd_backward.default" % (kind, dims)
            for x in pad_inputs(c, dims)[:3]:
                for pad in PADS[dims][:3]:
                    grad_shape = list(fwd(x, list(pad)).shape)
                    c.op(name, c.t(grad_shape), x, list(pad))
            x = c.t((2, 3) + (4,) * dims)
            grad_shape = list(fwd(x, list(PADS[dims][0])).shape)
            c.op(name, c.t(grad_shape, layout="transposed"), x, list(PADS[dims][0]))
            c.op(name, c.t(grad_shape, dtype=torch.float64), x.double(), list(PADS[dims][0]))
            if (kind, dims) != ("replication", 3):  # 1.13's replication_pad3d_backward does not check it
                c.op(name, c.t(grad_shape[:-1] + [grad_shape[-1] + 1]), x, list(PADS[dims][0]))  # error: grad width


# ---- Core ATen's upsampling (issue 24) --------------------------------------------------------
UPSAMPLE_SIZES = ([6, 8], [3, 4], [5, 7], [2, 3], [1, 1], [3, 9])  # x2, x1, odd, shrink, 1, mixed


def upsample_inputs(c):
    return [c.t((2, 3, 3, 4), layout=layout) for layout in ("contiguous", "channels_last", "permuted", "sliced", "transposed")]


def upsample_cases(c):
    for kind, extra in (("nearest", ()), ("bilinear", (False,)), ("bilinear", (True,))):
        name, vec = "aten.upsample_%s2d.default" % kind, "aten.upsample_%s2d.vec" % kind
        for x in upsample_inputs(c):
            c.op(name, x, [6, 8], *extra)
            c.op(vec, x, None, *extra, [2.0, 2.0])
        x = c.t((2, 3, 3, 4))
        for size in UPSAMPLE_SIZES:
            c.op(name, x, size, *extra)
        for scales in ([2.0, 2.0], [1.5, 1.5], [0.5, 0.7], [3.0, 1.0], [1.7, 2.3]):
            c.op(vec, x, None, *extra, scales)
            c.op(name, x, [int(3 * scales[0]), int(4 * scales[1])], *extra, *scales)  # explicit scales
        c.op(vec, x, [5, 7], *extra, None)
        for dtype in (torch.float64, torch.bfloat16, torch.float16):
            # bfloat16 bilinear: 1.13 rounds its interpolation weights in ways Fathom does not
            # follow exactly (the scale is rounded to bfloat16, as here; the rest varies with the
            # vectorized path): within a bfloat16 ulp of the result, or 0.01 near zero
            tol = (0.016, 0.01) if dtype == torch.bfloat16 and kind == "bilinear" else None
            c.op(name, c.t((2, 3, 3, 4), dtype=dtype), [5, 7], *extra, tol=tol)
        c.op(name, c.t((0, 3, 3, 4)), [5, 7], *extra)  # empty batch
        c.op(name, c.t((2, 0, 3, 4)), [5, 7], *extra)  # error: empty channels
        c.op(name, c.t((3, 3, 4)), [5, 7], *extra)  # error: 3-d
        c.op(name, x, [0, 7], *extra)  # error: empty output
        c.op(vec, x, [5, 7], *extra, [2.0, 2.0])  # error: both
        c.op(vec, x, None, *extra, None)  # error: neither


def upsample_backward_cases(c):
    for kind, extra in (("nearest", ()), ("bilinear", (False,)), ("bilinear", (True,))):
        name, vec = "aten.upsample_%s2d_backward.default" % kind, "aten.upsample_%s2d_backward.vec" % kind
        for size in UPSAMPLE_SIZES:
            c.op(name, c.t([2, 3] + size), size, [2, 3, 3, 4], *extra)
        c.op(name, c.t((2, 3, 6, 8), layout="channels_last"), [6, 8], [2, 3, 3, 4], *extra)
        c.op(name, c.t((2, 3, 6, 8), layout="permuted"), [6, 8], [2, 3, 3, 4], *extra)
        c.op(name, c.t((2, 3, 5, 7), dtype=torch.float64), [5, 7], [2, 3, 3, 4], *extra)
        c.op(name, c.t((2, 3, 4, 6)), [4, 6], [2, 3, 3, 4], *extra, 1.5, 1.5)
        c.op(vec, c.t((2, 3, 4, 6)), None, [2, 3, 3, 4], *extra, [1.5, 1.5])
        c.op(vec, c.t((2, 3, 5, 7)), [5, 7], [2, 3, 3, 4], *extra, None)
        c.op(name, c.t((2, 3, 5, 8)), [5, 7], [2, 3, 3, 4], *extra)  # error: gradient shape


def avg_pool1d_cases(c):
    name = "aten.avg_pool1d.default"
    for shape, layout in (((2, 3, 8), "contiguous"), ((2, 3, 8), "permuted"), ((2, 3, 8), "transposed"),
                          ((3, 8), "contiguous"), ((3, 8), "sliced")):
        c.op(name, c.t(shape, layout=layout), [3])
        c.op(name, c.t(shape, layout=layout), [3], [2], [1], True, False)
    c.op(name, c.t((2, 3, 8)), [2], [], [0])
    c.op(name, c.t((2, 3, 8)), [4], [3], [2], False, True)
    c.op(name, c.t((2, 3, 8), dtype=torch.float64), [3], [1])
    c.op(name, c.t((2, 3, 8), dtype=torch.bfloat16), [3], [2])
    c.op(name, c.t((2, 3, 4, 5)), [2])  # error: 4-d
    c.op(name, c.t((2, 3, 8)), [2, 2])  # error: two kernel sizes
    c.op(name, c.t((2, 3, 8)), [3], [2], [2])  # error: pad over half the kernel
    c.op(name, c.t((2, 3, 8)), [9])  # error: output too small


def adaptive_avg_pool1d_cases(c):
    name = "aten.adaptive_avg_pool1d.default"
    for shape, layout in (((2, 3, 8), "contiguous"), ((2, 3, 8), "permuted"), ((2, 3, 8), "transposed"),
                          ((3, 8), "contiguous"), ((3, 8), "sliced")):
        for size in (1, 3, 8):
            c.op(name, c.t(shape, layout=layout), [size])
    c.op(name, c.t((2, 3, 7)), [5])
    c.op(name, c.t((2, 3, 5)), [9])  # more outputs than inputs
    c.op(name, c.t((2, 3, 8), dtype=torch.float64), [3])
    c.op(name, c.t((2, 3, 8), dtype=torch.bfloat16), [1])
    c.op(name, c.t((2, 3, 4, 5)), [2])  # error: 4-d
    c.op(name, c.t((2, 3, 8)), [2, 2])  # error: two sizes
    c.op(name, c.t((2, 3, 8)), [-1])  # error: negative

def mkldnn_mask_cases(c):
    """1.13's oneDNN backward (float32, here a batch of 2) computes grad_weight with grad_bias:
    output_mask [F, F, T] returns both; the slow backends (a batch of 1, float64) only the bias's."""
    for x, mask in ((c.t((2, 4, 5, 5)), (False, False, True)), (c.t((2, 4, 5, 5)), (True, False, True)),
                    (c.t((1, 4, 5, 5)), (False, False, True)), (c.t((2, 4, 5, 5), dtype=torch.float64), (False, False, True))):
        w = c.t((6, 4, 3, 3), dtype=x.dtype)
        out = A.convolution.default(x, w, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1)
        c.op("aten.convolution_backward.default", c.t(tuple(out.shape), dtype=x.dtype), x, w, [6], [1, 1], [1, 1],
             [1, 1], False, [0, 0], 1, list(mask))
