"""Views, layout ops and factories: every view op on every layout of STANDARD (the result's
sizes, strides and storage offset are the point: a view shares its input's storage, so an input
with an offset or stride-0 dims shows up in the result), reshape's view-or-copy choice, split,
as_strided, flip, cat and stack (output memory format, promotion, the skipped 1-d empty inputs),
the copies (clone, contiguous, _to_copy) under each memory_format, and the factories (*_like,
full, zeros, ones, arange, empty*, new_zeros) with their dtype inference. Uninitialized results
(empty*) are recorded without values."""
import torch

from oracle import STANDARD, layouts_for

FLOATS = (torch.float32, torch.float64, torch.float16, torch.bfloat16)
INT64_MAX = 2 ** 63 - 1


def numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def view_targets(shape):
    """Shapes to view/reshape a tensor of `shape` as: flattened, a size-1 dim added, the last two
    dims merged, the first dim split, and the same shape with -1."""
    out = [[-1], list(shape) + [1], [1] + list(shape)]
    if len(shape) >= 2:
        out.append(list(shape[:-2]) + [shape[-2] * shape[-1]])
        out.append(list(shape[:-1]) + [-1])
    if shape and shape[0] % 2 == 0 and shape[0] > 0:
        out.append([2, shape[0] // 2] + list(shape[1:]))
    if not shape:
        out.append([])
    return out


def reshapes(c):
    for name in ("aten.view.default", "aten._unsafe_view.default", "aten.reshape.default"):
        for shape, layout in STANDARD:
            for target in view_targets(shape):
                c.op(name, c.t(shape, layout=layout), target)
        # a transposed tensor splits and merges only along its contiguous chunks
        c.op(name, c.t((4, 6), layout="transposed"), [2, 2, 6])
        c.op(name, c.t((4, 6), layout="transposed"), [4, 2, 3])
        c.op(name, c.t((2, 3, 4), layout="permuted"), [4, 6])
        c.op(name, c.t((2, 3, 4), layout="permuted"), [2, 2, 6])
        c.op(name, c.t((2, 3, 2, 3), layout="channels_last"), [2, 3, 6])
        c.op(name, c.t((2, 3, 2, 3), layout="channels_last"), [6, 6])
        c.op(name, c.t((0, 4)), [4, 0])
        c.op(name, c.t((0, 4)), [0, 2, 2])
        for dtype in (torch.float16, torch.int64, torch.bool):
            c.op(name, c.t((3, 4), dtype=dtype, layout="transposed"), [4, 3, 1])
        c.op(name, c.t((3, 4)), [5, -1])       # error: not divisible
        c.op(name, c.t((3, 4)), [-1, -1])      # error: two inferred dims
        c.op(name, c.t((3, 4)), [-2, 6])       # error: negative size
        c.op(name, c.t((0, 4)), [0, -1])       # error: ambiguous inferred dim
    c.op("aten._reshape_alias.default", c.t((3, 4)), [4, 3], [3, 1])
    c.op("aten._reshape_alias.default", c.t((3, 4), layout="transposed"), [12], [1])
    c.op("aten._reshape_alias.default", c.t((3, 4), layout="sliced"), [3, 2, 2], [8, 4, 2])
    c.op("aten._reshape_alias.default", c.t((3, 4), layout="expanded"), [3, 2, 2], [0, 2, 1])
    c.op("aten._reshape_alias.default", c.t((3, 4)), [12], [1, 1])  # error: ranks differ


def dim_views(c):
    for shape, layout in STANDARD:
        rank = len(shape)
        x = lambda: c.t(shape, layout=layout)
        c.op("aten.alias.default", x())
        c.op("aten.detach.default", x())
        c.op("aten.permute.default", x(), list(reversed(range(rank))))
        if rank >= 2:
            c.op("aten.permute.default", x(), [-1] + list(range(rank - 1)))
            c.op("aten.transpose.int", x(), 0, 1)
            c.op("aten.transpose.int", x(), -1, 0)
        c.op("aten.transpose.int", x(), 0, -1 if rank else 0)
        if rank <= 2:
            c.op("aten.t.default", x())
        c.op("aten.unsqueeze.default", x(), 0)
        c.op("aten.unsqueeze.default", x(), -1)
        c.op("aten.unsqueeze.default", x(), rank // 2)
        for d in range(-max(rank, 1), max(rank, 1)):
            c.op("aten.squeeze.dim", x(), d)
        c.op("aten.expand.default", x(), [2] + list(shape))
        c.op("aten.expand.default", x(), [-1] * rank)
        if rank:
            c.op("aten.expand.default", x(), [1, 1] + list(shape))
            if shape[0]:
                c.op("aten.select.int", x(), 0, 0)
                c.op("aten.select.int", x(), 0, -1)
                c.op("aten.select.int", x(), -1, shape[-1] - 1)
            c.op("aten.slice.Tensor", x(), 0, 1)
            c.op("aten.slice.Tensor", x(), -1, 1, 3, 2)
            c.op("aten.slice.Tensor", x(), 0, -2, INT64_MAX)
            c.op("aten.slice.Tensor", x(), 0, None, None, 3)
            c.op("aten.slice.Tensor", x(), -1, 3, 1)            # empty: end before start
            c.op("aten.slice.Tensor", x(), 0, -100, 100)        # clamped to the dim
            c.op("aten.slice.Tensor", x(), 0, INT64_MAX)        # past the end: empty
    for dtype in (torch.float64, torch.int32, torch.bool):
        c.op("aten.permute.default", c.t((2, 3, 4), dtype=dtype), [1, 2, 0])
        c.op("aten.select.int", c.t((3, 4), dtype=dtype, layout="sliced"), 1, 2)
    # size-1 dims expanded, with new leading dims
    c.op("aten.expand.default", c.t((3, 1)), [2, 3, 4])
    c.op("aten.expand.default", c.t((1, 4), layout="sliced"), [5, 4])
    c.op("aten.expand.default", c.t((1, 4)), [0, 4])
    c.op("aten.expand.default", c.t((4, 1), layout="transposed"), [-1, 3])
    c.op("aten.expand.default", c.t(()), [3, 2])
    c.op("aten.unsqueeze.default", c.t((2, 3, 2, 3), layout="channels_last"), 2)
    c.op("aten.squeeze.dim", c.t((2, 1, 3), layout="permuted"), 1)
    # errors
    c.op("aten.permute.default", c.t((3, 4)), [0])
    c.op("aten.permute.default", c.t((3, 4)), [1, -1])
    c.op("aten.permute.default", c.t((3, 4)), [0, 2])
    c.op("aten.transpose.int", c.t((3, 4)), 0, 2)
    c.op("aten.t.default", c.t((2, 3, 4)))
    c.op("aten.expand.default", c.t((3, 4)), [3, 5])
    c.op("aten.expand.default", c.t((3, 4)), [4])
    c.op("aten.expand.default", c.t((3, 4)), [-1, 3, 4])
    c.op("aten.unsqueeze.default", c.t((3, 4)), 3)
    c.op("aten.squeeze.dim", c.t((3, 4)), -3)
    c.op("aten.select.int", c.t((3, 4)), 1, 4)
    c.op("aten.select.int", c.t((3, 4)), 1, -5)
    c.op("aten.select.int", c.t(()), 0, 0)
    c.op("aten.slice.Tensor", c.t((3, 4)), 0, 0, 2, 0)
    c.op("aten.slice.Tensor", c.t(()), 0, 0)
    c.op("aten.slice.Tensor", c.t((3, 4)), 2, 0)


def splits(c):
    for shape, layout in STANDARD:
        if not shape:
            c.op("aten.split.Tensor", c.t(shape), 1)  # error: 0-dim
            continue
        for size in (1, 2, 5):
            c.op("aten.split.Tensor", c.t(shape, layout=layout), size)
            c.op("aten.split.Tensor", c.t(shape, layout=layout), size, -1)
    c.op("aten.split.Tensor", c.t((0, 4)), 0)
    c.op("aten.split.Tensor", c.t((4, 96)), 32, 1)
    c.op("aten.split.Tensor", c.t((3, 4), dtype=torch.int64), 3, 1)
    c.op("aten.split.Tensor", c.t((3, 4)), 0)       # error: split_size 0 on a non-empty dim
    c.op("aten.split.Tensor", c.t((3, 4)), -1)      # error: negative
    c.op("aten.split.Tensor", c.t((3, 4)), 2, 2)    # error: dim
    # split_with_sizes (torch.split with a list): views of the given lengths
    for shape, layout in STANDARD:
        if len(shape) >= 2 and shape[-1] >= 3:
            c.op("aten.split_with_sizes.default", c.t(shape, layout=layout), [1, shape[-1] - 1], -1)
            c.op("aten.split_with_sizes.default", c.t(shape, layout=layout), [0, shape[0], 0], 0)
    c.op("aten.split_with_sizes.default", c.t((3, 4)), [1, 2], 1)    # error: lengths add up to 3, not 4
    c.op("aten.split_with_sizes.default", c.t((3, 4)), [5, -1], 1)   # error: negative length
    c.op("aten.split_with_sizes.default", c.t(()), [1])              # error: 0-dim


def as_strided(c):
    c.op("aten.as_strided.default", c.t((3, 4)), [2, 2], [1, 2])
    c.op("aten.as_strided.default", c.t((3, 4)), [3, 3], [1, 1], 2)
    c.op("aten.as_strided.default", c.t((3, 4)), [2, 3], [0, 1])
    c.op("aten.as_strided.default", c.t((3, 4)), [0, 5], [1, 1], 40)
    c.op("aten.as_strided.default", c.t((3, 4)), [], [], 11)
    c.op("aten.as_strided.default", c.t((3, 4), layout="sliced"), [2, 2], [8, 2])
    c.op("aten.as_strided.default", c.t((3, 4), layout="transposed"), [4, 3], [1, 4])
    c.op("aten.as_strided.default", c.t((3, 4), layout="expanded"), [3, 4], [0, 1])
    c.op("aten.as_strided.default", c.t((2, 3, 2, 3), layout="channels_last"), [2, 3, 6], [18, 1, 3])
    c.op("aten.as_strided.default", c.t((3, 4), dtype=torch.int64), [6], [2])
    c.op("aten.as_strided.default", c.t((3, 4)), [2, 2], [1])        # error: ranks
    c.op("aten.as_strided.default", c.t((3, 4)), [2, 2], [-1, 1], 4)  # error: negative stride
    c.op("aten.as_strided.default", c.t((3, 4)), [2, 2], [1, 1], -1)  # error: negative offset
    c.op("aten.as_strided.default", c.t((3, 4)), [5, 5], [4, 1])      # error: out of bounds


def flips(c):
    for shape, layout in STANDARD:
        rank = len(shape)
        c.op("aten.flip.default", c.t(shape, layout=layout), [0] if rank else [])
        c.op("aten.flip.default", c.t(shape, layout=layout), [-1] if rank else [0])
        if rank >= 2:
            c.op("aten.flip.default", c.t(shape, layout=layout), [0, -1])
            c.op("aten.flip.default", c.t(shape, layout=layout), list(range(rank)))
    for dtype in FLOATS[1:] + (torch.int64, torch.bool):
        c.op("aten.flip.default", c.t((3, 4), dtype=dtype, layout="transposed"), [1])
    c.op("aten.flip.default", c.t((3, 4)), [])
    c.op("aten.flip.default", c.t((3, 4)), [0, -2])  # error: repeated dim
    c.op("aten.flip.default", c.t((3, 4)), [2])      # error: dim out of range


def cats(c):
    for shape, layout in STANDARD:
        if not shape:
            c.op("aten.cat.default", [c.t(shape), c.t(shape)])  # error: zero-dim
            continue
        for dim in range(-len(shape), len(shape)):
            c.op("aten.cat.default", [c.t(shape, layout=layout), c.t(shape)], dim)
            c.op("aten.cat.default", [c.t(shape), c.t(shape, layout=layout)], dim)
        c.op("aten.cat.default", [c.t(shape, layout=layout)])
    cl = lambda: c.t((2, 3, 2, 3), layout="channels_last")
    c.op("aten.cat.default", [cl(), cl()], 1)
    c.op("aten.cat.default", [cl(), cl(), cl()], 0)
    c.op("aten.cat.default", [cl(), c.t((2, 3, 2, 3), layout="permuted")], 1)
    c.op("aten.cat.default", [cl(), c.t((0,))], 1)     # the skipped empty input votes contiguous
    c.op("aten.cat.default", [c.t((0,)), cl()], 1)
    c.op("aten.cat.default", [c.t((2, 3, 2, 3), layout="channels_last", dtype=torch.float16), cl()], 2)
    c.op("aten.cat.default", [c.t((3, 4)), c.t((0,)), c.t((3, 2))], 1)
    c.op("aten.cat.default", [c.t((0,)), c.t((3, 4))], -1)
    c.op("aten.cat.default", [c.t((0,)), c.t((0,))], 0)
    c.op("aten.cat.default", [c.t((0,)), c.t((0,), dtype=torch.float64)], 2)  # all skipped: no dim check
    c.op("aten.cat.default", [c.t((3, 0)), c.t((3, 4))], 1)
    c.op("aten.cat.default", [c.t((2, 4)), c.t((3, 4), layout="sliced"), c.t((1, 4), layout="expanded")])
    c.op("aten.cat.default", [c.t((2, 8, 4)) for _ in range(3)], -1)
    # promotion
    c.op("aten.cat.default", [c.t((2, 3), dtype=torch.int32), c.t((2, 3), dtype=torch.float16)])
    c.op("aten.cat.default", [c.t((2, 3), dtype=torch.int64), c.t((2, 3), dtype=torch.bool)], 1)
    c.op("aten.cat.default", [c.t((0,), dtype=torch.float64), c.t((2, 3))])
    c.op("aten.cat.default", [c.t((2, 3), dtype=torch.bfloat16), c.t((2, 3), dtype=torch.float16)])
    for dtype in FLOATS[1:] + (torch.int64, torch.bool):
        c.op("aten.cat.default", [c.t((2, 3), dtype=dtype), c.t((2, 3), dtype=dtype, layout="transposed")], 1)
    # errors
    c.op("aten.cat.default", [])
    c.op("aten.cat.default", [c.t((3, 4)), c.t((3, 5))])
    c.op("aten.cat.default", [c.t((3, 4)), c.t((3,))])
    c.op("aten.cat.default", [c.t((3, 4)), c.t((3, 4))], 2)
    c.op("aten.cat.default", [c.t((3, 4)), c.t(())], 0)


def stacks(c):
    for shape, layout in STANDARD:
        rank = len(shape)
        for dim in range(-rank - 1, rank + 1):
            c.op("aten.stack.default", [c.t(shape, layout=layout), c.t(shape)], dim)
    cl = lambda: c.t((2, 3, 2, 3), layout="channels_last")
    for dim in (0, 1, 2, 4):
        c.op("aten.stack.default", [cl(), cl()], dim)
    c.op("aten.stack.default", [c.t((3, 4))])
    c.op("aten.stack.default", [c.t((0,)), c.t((0,))])
    c.op("aten.stack.default", [c.t((0,)), c.t((0,))], 1)
    c.op("aten.stack.default", [c.t((3, 4), dtype=torch.int64), c.t((3, 4), dtype=torch.float32)], 1)
    c.op("aten.stack.default", [])
    c.op("aten.stack.default", [c.t((3, 4)), c.t((3, 5))])
    c.op("aten.stack.default", [c.t((3, 4)), c.t((3, 5))], 2)
    c.op("aten.stack.default", [c.t((3, 4)), c.t((3, 4))], 3)


def copies(c):
    formats = (None, torch.contiguous_format, torch.preserve_format, torch.channels_last)
    for shape, layout in STANDARD:
        for fmt in formats:
            kw = {} if fmt is None else {"memory_format": fmt}
            c.op("aten.clone.default", c.t(shape, layout=layout), **kw)
            c.op("aten._to_copy.default", c.t(shape, layout=layout), **kw)
            c.op("aten.contiguous.default", c.t(shape, layout=layout), **kw)
            c.op("aten.empty_like.default", c.t(shape, layout=layout), values=False, **kw)
            c.op("aten.zeros_like.default", c.t(shape, layout=layout), **kw)
            c.op("aten.ones_like.default", c.t(shape, layout=layout), **kw)
    # layouts preserve_format keeps or densifies
    odd = [
        torch.empty_strided((2, 3, 4), (1, 8, 2)),          # dense permutation
        torch.empty_strided((2, 3, 4), (24, 1, 6)),         # holes between dims
        torch.empty_strided((2, 1, 4), (4, 100, 1)),        # size-1 dim with any stride
        torch.empty_strided((2, 3, 1, 1), (3, 1, 1, 1)),    # N11 ambiguous channels_last
        torch.empty_strided((2, 3, 0, 4), (0, 1, 0, 0)),    # empty channels_last
        torch.empty_strided((1, 3, 2, 2), (12, 1, 6, 3)),   # channels_last with N = 1
    ]
    for base in odd:
        for fmt in formats:
            kw = {} if fmt is None else {"memory_format": fmt}
            x = c.t(base.shape)
            y = torch.empty_strided(base.shape, base.stride()).copy_(x)
            y.oracle_layout = "strides%s" % "x".join(map(str, base.stride()))
            c.op("aten.clone.default", y, **kw)
            c.op("aten.contiguous.default", y, **kw)
            c.op("aten.empty_like.default", y, values=False, **kw)
    for dtype in FLOATS + (torch.int64, torch.int32, torch.int8, torch.uint8, torch.bool):
        c.op("aten._to_copy.default", c.t((3, 4), layout="transposed"), dtype=dtype)
        c.op("aten._to_copy.default", c.t((3, 4), dtype=dtype, layout="sliced"), dtype=torch.float32)
        c.op("aten.clone.default", c.t((3, 4), dtype=dtype, layout="expanded"))
        c.op("aten.ones_like.default", c.t((3, 4)), dtype=dtype)
    c.op("aten._to_copy.default", c.t((3, 4), lo=-300, hi=300), dtype=torch.int32)
    c.op("aten._to_copy.default", c.t((2, 3, 2, 3), layout="channels_last"), dtype=torch.float16,
         memory_format=torch.contiguous_format)
    c.op("aten._to_copy.default", c.t((3, 4)), dtype=torch.float64, layout=torch.strided, device=torch.device("cpu"))
    c.op("aten.zeros_like.default", c.t((3, 4), layout="transposed"), dtype=torch.int64, layout=torch.strided,
         device=torch.device("cpu"))
    c.op("aten.empty_like.default", c.t((3, 4)), values=False, dtype=torch.bool)


def factories(c):
    for size in ([2, 3], [], [0, 3], [4], [2, 1, 3]):
        c.op("aten.zeros.default", size)
        c.op("aten.ones.default", size)
        c.op("aten.full.default", size, 1.5)
        c.op("aten.empty.memory_format", size, values=False)
        c.op("aten.new_zeros.default", c.t((2, 2), dtype=torch.int32), size)
    for dtype in FLOATS + (torch.int64, torch.int32, torch.uint8, torch.bool):
        c.op("aten.zeros.default", [2, 3], dtype=dtype)
        c.op("aten.ones.default", [2, 3], dtype=dtype, layout=torch.strided, device=torch.device("cpu"))
        c.op("aten.full.default", [2, 3], 3, dtype=dtype)
        c.op("aten.new_zeros.default", c.t((2, 2)), [3], dtype=dtype)
        c.op("aten.empty.memory_format", [2, 3], dtype=dtype, values=False)
    for fill in (2, -7, True, False, 0.25, -1e10, float("inf"), float("nan")):
        c.op("aten.full.default", [3], fill)
    c.op("aten.full.default", [3], 2.75, dtype=torch.int64)
    c.op("aten.full.default", [3], 2.5, dtype=torch.bool)
    c.op("aten.full.default", [3], -1, dtype=torch.uint8)
    c.op("aten.full.default", [3], 1e6, dtype=torch.float16)   # error: overflow
    c.op("aten.full.default", [3], 300, dtype=torch.uint8)     # error: overflow
    c.op("aten.full.default", [3], float("nan"), dtype=torch.int32)  # error
    c.op("aten.full.default", [2, -3], 1.0)                    # error: negative size
    c.op("aten.zeros.default", [-1])
    c.op("aten.new_zeros.default", c.t((2,)), [2, -3])
    c.op("aten.empty.memory_format", [2, 3, 4, 5], memory_format=torch.channels_last, values=False)
    c.op("aten.empty.memory_format", [2, 0, 4, 5], memory_format=torch.channels_last, values=False)
    c.op("aten.empty.memory_format", [2, 3], memory_format=torch.contiguous_format, values=False)
    c.op("aten.empty.memory_format", [2, 3], memory_format=torch.channels_last, values=False)  # error
    c.op("aten.empty.memory_format", [2, 3], memory_format=torch.preserve_format, values=False)  # error
    for size, stride in (([2, 3], [1, 2]), ([2, 3], [0, 1]), ([2, 3], [5, 1]), ([0, 3], [7, 9]), ([], []),
                         ([2, 3, 4], [1, 8, 2])):
        c.op("aten.empty_strided.default", size, stride, values=False)
    c.op("aten.empty_strided.default", [2, 3], [1, 2], dtype=torch.float64, values=False)
    c.op("aten.empty_strided.default", [2, 3], [1], values=False)  # error: ranks
    c.op("aten.empty_strided.default", [-2, 3], [1, 1], values=False)  # error: negative size


def ranges(c):
    c.op("aten.arange.default", 5)
    c.op("aten.arange.default", 0)
    c.op("aten.arange.default", 5.5)
    c.op("aten.arange.default", True)
    c.op("aten.arange.default", 7, dtype=torch.float16)
    c.op("aten.arange.start", 2, 9)
    c.op("aten.arange.start", -3.5, 2)
    c.op("aten.arange.start", 1, 2.5)
    c.op("aten.arange.start", 2, 2)
    c.op("aten.arange.start", 3, 1)          # error: bounds against the step
    for start, end, step in ((0, 10, 3), (10, 0, -3), (-5, 5, 2), (0.0, 1.0, 0.1), (1, 0, -0.25), (0, 5, 1.5),
                             (0.5, 5, 1), (-1.0, -3.0, -0.5), (0, 1000, 7), (0, 5.5, 1)):
        c.op("aten.arange.start_step", start, end, step)
        for dtype in (torch.float64, torch.float16, torch.bfloat16, torch.int32, torch.int64, torch.uint8, torch.int8):
            c.op("aten.arange.start_step", start, end, step, dtype=dtype)
    c.op("aten.arange.start_step", 0, 300, 1, dtype=torch.float32)
    c.op("aten.arange.start_step", 0, 5, 0)                   # error: zero step
    c.op("aten.arange.start_step", 0, 5, -1)                  # error: wrong sign
    c.op("aten.arange.start_step", 0, float("inf"), 1)        # error: infinite bound
    c.op("aten.arange.start_step", 0, 10, 3, dtype=torch.bool)  # no CPU kernel: dropped


def cases(c):
    reshapes(c)
    dim_views(c)
    splits(c)
    as_strided(c)
    flips(c)
    cats(c)
    stacks(c)
    copies(c)
    factories(c)
    ranges(c)
    core_aten_factories(c)
    new_empty_strided(c)


# ---- Core ATen (issue 24), appended so the inputs above (seeded by creation order) stay the same
def core_aten_factories(c):
    for shape, layout in STANDARD:
        c.op("aten.full_like.default", c.t(shape, layout=layout), 2.5)
    for fmt in (torch.contiguous_format, torch.preserve_format, torch.channels_last):
        c.op("aten.full_like.default", c.t((2, 3, 2, 3), layout="permuted"), -1, memory_format=fmt)
    for dtype in FLOATS + (torch.int64, torch.uint8, torch.bool):
        c.op("aten.full_like.default", c.t((3, 4), layout="transposed"), 3, dtype=dtype)
    c.op("aten.full_like.default", c.t((3, 4), dtype=torch.int32), 2.75)  # truncates
    c.op("aten.full_like.default", c.t((3, 4), dtype=torch.int8), 300)  # error: overflow
    diagonals(c)
    repeats(c)
    scalar_tensors_and_copies(c)
    random_factories(c)


def diagonals(c):
    for shape, layout in STANDARD:
        if len(shape) < 2:
            continue
        for offset in (0, 1, -1, 2, -5):
            c.op("aten.diagonal.default", c.t(shape, layout=layout), offset)
        c.op("aten.diagonal.default", c.t(shape, layout=layout), 0, -1, 0)
        c.op("aten.diagonal.default", c.t(shape, layout=layout), 1, 1, -1)
    c.op("aten.diagonal.default", c.t((2, 3, 4), layout="sliced"), -1, 2, 0)
    c.op("aten.diagonal.default", c.t((4, 4)), 4)  # empty, offset unchanged
    c.op("aten.diagonal.default", c.t((3, 4)), 0, 1, 1)  # error: same dims
    c.op("aten.diagonal.default", c.t((4,)))  # error: 1-d
    c.op("aten.diagonal.default", c.t((3, 4)), 0, 0, 2)  # error: dim out of range
    for shape, layout in STANDARD:
        if len(shape) < 2:
            continue
        for offset, dim1, dim2 in ((0, 0, 1), (1, -1, 0), (-1, 0, -1)):
            g = list(torch.empty(shape).diagonal(offset, dim1, dim2).shape)
            glayout = layout if layout in layouts_for(len(g)) else "contiguous"
            c.op("aten.diagonal_backward.default", c.t(g, layout=glayout), list(shape), offset, dim1, dim2)
    c.op("aten.diagonal_backward.default", c.t((3, 1)), [2, 3, 4], 1, 2, 0)
    c.op("aten.diagonal_backward.default", c.t((3, 2)), [3, 4, 5], 5, 1, 2)  # error: grad shape


def repeats(c):
    for shape, layout in STANDARD:
        rank = len(shape)
        c.op("aten.repeat.default", c.t(shape, layout=layout), [2] + [1] * rank)
        c.op("aten.repeat.default", c.t(shape, layout=layout), [1] * rank if rank else [])
        c.op("aten.repeat.default", c.t(shape, layout=layout), [2, 3] + [2] * rank)
    for dtype in FLOATS[1:] + (torch.int64, torch.uint8, torch.bool):
        c.op("aten.repeat.default", c.t((2, 3), dtype=dtype, layout="transposed"), [3, 1, 2])
    c.op("aten.repeat.default", c.t((2, 3)), [0, 2])  # empty
    c.op("aten.repeat.default", c.t((2, 3)), [3])  # error: fewer repeats than dims
    c.op("aten.repeat.default", c.t((2, 3)), [-1, 2])  # error: negative


def scalar_tensors_and_copies(c):
    for s in (2, -3, 2.5, True, 1e10, float("nan"), float("-inf")):
        c.op("aten.scalar_tensor.default", s)
    for dtype in FLOATS + (torch.int64, torch.int32, torch.uint8, torch.bool):
        c.op("aten.scalar_tensor.default", 3, dtype=dtype)
    c.op("aten.scalar_tensor.default", 2.75, dtype=torch.int32)
    c.op("aten.scalar_tensor.default", -1, dtype=torch.uint8)
    c.op("aten.scalar_tensor.default", 300, dtype=torch.int8)  # error: overflow
    c.op("aten.scalar_tensor.default", 1.5, layout=torch.strided, device=torch.device("cpu"))
    for shape, layout in STANDARD:
        c.op("aten.copy.default", c.t(shape, layout=layout), c.t(shape))
        c.op("aten.copy.default", c.t(shape), c.t(shape, layout=layout))
        if shape:
            c.op("aten.copy.default", c.t(shape, layout=layout), c.t(shape[-1:], dtype=torch.float64))
    c.op("aten.copy.default", c.t((2, 3, 2, 3), layout="channels_last"), c.t((2, 3, 2, 3), layout="channels_last"))
    c.op("aten.copy.default", c.t((3, 4), dtype=torch.int32), c.t((3, 4)))  # truncates
    c.op("aten.copy.default", c.t((3, 4), dtype=torch.bool), c.t(()))
    c.op("aten.copy.default", c.t((3, 4)), c.t((3, 4), dtype=torch.int64), True)
    c.op("aten.copy.default", c.t((3, 4)), c.t((2, 3, 4)))  # error: more dims
    c.op("aten.copy.default", c.t((3, 4)), c.t((5,)))  # error: does not broadcast


def random_factories(c):
    """Layouts, dtypes and errors only: the values come from another generator."""
    for name in ("aten.rand.default", "aten.randn.default"):
        for size in ([2, 3], [], [0, 3], [4]):
            c.op(name, size, values=False)
        for dtype in FLOATS[1:] + (torch.int64,):  # int64: no kernel (dropped)
            c.op(name, [2, 3], dtype=dtype, values=False)
        c.op(name, [2, -1], values=False)  # error: negative size
        c.op(name, [2, 3], layout=torch.strided, device=torch.device("cpu"), values=False)
    for name in ("aten.rand_like.default", "aten.randn_like.default"):
        for shape, layout in STANDARD:
            c.op(name, c.t(shape, layout=layout), values=False)
        c.op(name, c.t((2, 3, 2, 3), layout="permuted"), memory_format=torch.channels_last, values=False)
        c.op(name, c.t((3, 4), layout="transposed"), dtype=torch.float64, memory_format=torch.contiguous_format,
             values=False)
        c.op(name, c.t((3, 4), dtype=torch.int32), values=False)  # no kernel: dropped
    for n in (5, 0, 1, 300):
        c.op("aten.randperm.default", n, values=False)
    for dtype in (torch.int32, torch.float32, torch.float64, torch.uint8):
        c.op("aten.randperm.default", 6, dtype=dtype, values=False)
    c.op("aten.randperm.default", -1, values=False)  # error


# ---- new_empty_strided (AOT backward graphs, timm's GhostNet), appended like the above ----------
def new_empty_strided(c):
    name = "aten.new_empty_strided.default"
    for size, stride in (([2, 3], [1, 2]), ([2, 3], [0, 1]), ([2, 3], [5, 1]), ([0, 3], [7, 9]), ([], []),
                         ([2, 3, 4], [1, 8, 2]), ([2, 3, 4], [24, 1, 6])):
        c.op(name, c.t((2, 3), dtype=torch.float64), size, stride, values=False)
    c.op(name, c.t((2, 3), layout="transposed"), [4], [1], values=False)
    c.op(name, c.t((2,), dtype=torch.bfloat16), [2, 3], [3, 1], dtype=torch.int32, values=False)
    c.op(name, c.t((2,), dtype=torch.int64), [3], [1], layout=torch.strided, device=torch.device("cpu"),
         values=False)
    c.op(name, c.t((2,)), [2, 3], [1], values=False)  # error: ranks
    c.op(name, c.t((2,)), [-2, 3], [1, 1], values=False)  # error: negative size
    c.op(name, c.t((2,)), [2, 3], [-3, 1], values=False)  # error: negative stride
