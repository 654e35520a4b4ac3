"""nn.Unfold and nn.Fold: aten.im2col and aten.col2im (each the other's derivative). Batched and
unbatched inputs in every layout (both ops read the input's contiguous copy and return a
contiguous result), kernel / dilation / padding / stride combinations that overlap, skip and pad,
a single int for an int[2], empty batches, the dtypes 1.13 has kernels for (col2im's float16 and
bfloat16 sums round after every addition, so values that round are summed), and every argument
error 1.13 raises."""
import torch

A = torch.ops.aten


def im2col(c, x, kernel=(2, 3), dilation=(1, 1), padding=(0, 1), stride=(1, 2)):
    c.op("aten.im2col.default", x, list(kernel) if isinstance(kernel, tuple) else kernel, list(dilation),
         list(padding), list(stride))


def col2im(c, x, size, kernel=(2, 3), dilation=(1, 1), padding=(0, 1), stride=(1, 2)):
    c.op("aten.col2im.default", x, list(size), list(kernel) if isinstance(kernel, tuple) else kernel, list(dilation),
         list(padding), list(stride))


def blocks(size, kernel, dilation, padding, stride):
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


def im2col_cases(c):
    for layout in ("contiguous", "channels_last", "permuted", "sliced", "expanded", "transposed"):
        im2col(c, c.t((2, 3, 5, 6), layout=layout))
    for layout in ("contiguous", "transposed", "permuted", "sliced"):
        im2col(c, c.t((3, 5, 6), layout=layout))  # unbatched
    x = lambda shape=(2, 3, 7, 8), **kw: c.t(shape, **kw)
    im2col(c, x(), (3, 3), (2, 1), (1, 2), (2, 3))
    im2col(c, x(), (1, 1), (1, 1), (0, 0), (1, 1))  # the input itself
    im2col(c, x(), (7, 8), (1, 1), (0, 0), (1, 1))  # one block
    im2col(c, x(), (2, 2), (3, 2), (2, 0), (3, 1))  # dilation past the stride
    im2col(c, x(), (3, 2), (1, 1), (4, 3), (5, 4))  # padding larger than the kernel
    im2col(c, x(), 3, (1, 1), (1, 1), (1, 1))  # int[2] given one int
    im2col(c, x((2, 1, 1, 1)), (1, 1), (1, 1), (0, 0), (1, 1))
    im2col(c, x((1, 2, 4, 4)), (2, 2), (1, 1), (0, 0), (2, 2))  # nn.Unfold(2, stride=2), ViT patches
    im2col(c, x((0, 3, 5, 6)))
    for dtype in (torch.float64, torch.float16, torch.bfloat16, torch.int64):
        im2col(c, x(dtype=dtype))
    # errors
    im2col(c, x(), (0, 3))
    im2col(c, x(), (2, 3), (1, 0))
    im2col(c, x(), (2, 3), (1, 1), (0, -1))
    im2col(c, x(), (2, 3), (1, 1), (0, 0), (0, 1))
    im2col(c, x(), (0, 3), (0, 1), (-1, 0), (0, 1))  # several: the kernel is named first
    im2col(c, x(), (2, 3), (1, 1), (-1, 0), (0, 1))  # padding before stride
    im2col(c, x(), (8, 3))  # no block fits
    im2col(c, x(), (3, 3), (4, 1), (0, 0), (1, 1))  # dilated kernel past the input
    im2col(c, x(), (2,))
    c.op("aten.im2col.default", x(), [2, 3], [1, 1, 1], [0, 0], [1, 1])
    c.op("aten.im2col.default", x(), [2, 3], [1, 1], [0], [1, 1])
    c.op("aten.im2col.default", x(), [2, 3], [1, 1], [0, 0], [1, 1, 1])
    im2col(c, x((2, 3, 0, 6)))
    im2col(c, x((2, 0, 5, 6)))
    im2col(c, x((0, 5, 6)))  # unbatched: no empty dims
    im2col(c, x((2, 2, 3, 5, 6)))
    im2col(c, x((5, 6)))
    im2col(c, x((6,)))
    im2col(c, x(), (2 ** 62, 3))  # a kernel whose span overflows


def col2im_cases(c):
    size = (5, 6)
    n = blocks(5, 2, 1, 0, 1) * blocks(6, 3, 1, 1, 2)
    for layout in ("contiguous", "transposed", "permuted", "sliced", "expanded"):
        col2im(c, c.t((2, 12, n), layout=layout), size)
    for layout in ("contiguous", "transposed", "sliced"):
        col2im(c, c.t((12, n), layout=layout), size)  # unbatched
    x = lambda shape, **kw: c.t(shape, **kw)
    args = ((3, 3), (2, 1), (1, 2), (2, 3))
    col2im(c, x((2, 18, blocks(7, 3, 2, 1, 2) * blocks(8, 3, 1, 2, 3))), (7, 8), *args)
    col2im(c, x((2, 3, 56)), (7, 8), (1, 1), (1, 1), (0, 0), (1, 1))
    col2im(c, x((2, 4 * 9, 9)), (5, 5), (3, 3), (1, 1), (1, 1), (2, 2))  # overlapping blocks add up
    col2im(c, x((1, 8, 4)), (4, 4), (2, 2), (1, 1), (0, 0), (2, 2))  # nn.Fold(4, 2, stride=2)
    col2im(c, x((2, 6, 4)), (7, 8), (2, 3), (1, 1), (0, 0), (3, 3))  # strides that skip pixels
    col2im(c, x((2, 4, 4)), (3, 3), 2, (1, 1), (0, 0), (1, 1))  # int[2] given one int
    col2im(c, x((0, 12, n)), size)
    for dtype in (torch.float64, torch.float16, torch.bfloat16, torch.int64):
        col2im(c, x((2, 4 * 9, 9), dtype=dtype, lo=-100, hi=100), (5, 5), (3, 3), (1, 1), (1, 1), (2, 2))
    # errors
    col2im(c, x((2, 12, n)), size, (0, 3))
    col2im(c, x((2, 12, n)), size, (2, 3), (1, 1), (0, 1), (0, 2))
    col2im(c, x((2, 12, n)), size, (2, 3), (0, 1))
    col2im(c, x((2, 12, n)), size, (2, 3), (1, 1), (-1, 1))
    col2im(c, x((2, 12, n)), size, (2, 3), (0, 1), (0, 1), (0, 2))  # stride before dilation
    col2im(c, x((2, 13, n)), size)  # channels not a multiple of the kernel area
    col2im(c, x((2, 12, n + 1)), size)  # blocks do not match
    col2im(c, x((2, 12, n)), (5, 6, 7))
    col2im(c, x((2, 12, n)), size, (2,))
    col2im(c, x((2, 6, 2)), (0, 0), (2, 3), (1, 1), (0, 0), (1, 1))  # -1 * -2 blocks: too small
    col2im(c, x((2, 6, 8)), (-1, -2), (2, 3), (1, 1), (0, 0), (1, 1))
    col2im(c, x((2, 0, n)), size)
    col2im(c, x((2, 12, 0)), size)
    col2im(c, x((0, n)), size)
    col2im(c, x((2, 2, 12, n)), size)
    col2im(c, x((12,)), size)
    col2im(c, x((2, 6, 1)), (2, 3), (2 ** 31, 2 ** 31), (1, 1), (0, 0), (1, 1))  # a kernel area past int64


def cases(c):
    im2col_cases(c)
    col2im_cases(c)
