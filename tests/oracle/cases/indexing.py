"""Indexing and loss ops: gather, index_select, embedding, embedding_dense_backward,
nll_loss_forward, nll_loss_backward. Inputs in the layouts of oracle.STANDARD where they apply,
index tensors in several layouts and both index dtypes, repeated indices, 0-dim and size-0
tensors, every reduction with and without class weights and ignore_index, and the argument errors
PyTorch raises (bad index dtype, out-of-range indices, shape mismatches, bad dims)."""
import torch

from oracle import layouts_for

DTYPES = (torch.float64, torch.bfloat16, torch.float16, torch.int64, torch.int32, torch.int8, torch.bool)
SELF_LAYOUTS = [((3, 4), "contiguous"), ((3, 4), "transposed"), ((3, 4), "expanded"), ((3, 4), "sliced"),
                ((2, 3, 4), "permuted"), ((2, 3, 2, 3), "channels_last"), ((2, 3, 2, 3), "permuted")]


def longs(c, values, dtype=torch.int64):
    return c.t((len(values),), dtype=dtype, values=values)


def gather(c):
    for shape, layout in SELF_LAYOUTS:
        for dim in range(-len(shape), len(shape)):
            index_shape = list(shape)
            index_shape[dim] = 5  # any length along dim
            c.op("aten.gather.default", c.t(shape, layout=layout), dim, c.index(index_shape, shape[dim]))
    for layout in ("transposed", "expanded", "sliced"):
        c.op("aten.gather.default", c.t((3, 4)), 1, c.index((3, 4), 4, layout=layout))
        c.op("aten.gather.default", c.t((3, 4), layout="transposed"), 0, c.index((3, 4), 3, layout=layout))
    c.op("aten.gather.default", c.t((4, 5)), 0, c.index((2, 3), 4))  # index smaller than self
    c.op("aten.gather.default", c.t((4, 5)), 1, c.index((3, 7), 5))
    for dtype in DTYPES:
        c.op("aten.gather.default", c.t((3, 4), dtype=dtype), 1, c.index((3, 6), 4))
    c.op("aten.gather.default", c.t(()), 0, c.index((), 1))
    c.op("aten.gather.default", c.t(()), -1, c.index((1,), 1))
    c.op("aten.gather.default", c.t((3,)), 0, c.index((), 3))
    c.op("aten.gather.default", c.t((3, 4)), 0, c.index((0, 4), 3))
    c.op("aten.gather.default", c.t((3, 4)), 0, c.index((0, 9), 3))  # empty index: no shape check
    c.op("aten.gather.default", c.t((0, 4)), 0, c.index((0, 4), 1))
    c.op("aten.gather.default", c.t((3, 4)), 1, c.index((3, 0), 1))
    c.op("aten.gather.default", c.t((3, 4)), 1, c.index((3, 4), 4), sparse_grad=True)
    c.op("aten.gather.default", c.t((3, 4)), 0, c.index((3, 4), 3, dtype=torch.int32))  # error: int32 index
    c.op("aten.gather.default", c.t((3, 4)), 0, c.t((1, 1), dtype=torch.int64, values=[3]))  # error: out of range
    c.op("aten.gather.default", c.t((3, 4)), 0, c.t((1, 1), dtype=torch.int64, values=[-1]))  # error: negative
    c.op("aten.gather.default", c.t((3, 4)), 0, c.index((2, 5), 3))  # error: index larger than self
    c.op("aten.gather.default", c.t((3, 4)), 0, c.index((4,), 3))  # error: rank mismatch
    c.op("aten.gather.default", c.t((3, 4)), 2, c.index((3, 4), 3))  # error: bad dim
    c.op("aten.gather.default", c.t((0, 4)), 0, c.index((1, 4), 1))  # error: index into an empty dim


def index_select(c):
    for shape, layout in SELF_LAYOUTS:
        for dim in range(-len(shape), len(shape)):
            c.op("aten.index_select.default", c.t(shape, layout=layout), dim, c.index((5,), shape[dim]))
    for layout in ("expanded", "sliced"):
        c.op("aten.index_select.default", c.t((4, 6)), 0, c.index((3,), 4, layout=layout))
        c.op("aten.index_select.default", c.t((4, 6)), 1, c.index((3,), 6, dtype=torch.int32, layout=layout))
    for dtype in DTYPES:
        c.op("aten.index_select.default", c.t((4, 6), dtype=dtype), 0, c.index((7,), 4))
        c.op("aten.index_select.default", c.t((4, 6), dtype=dtype), 1, c.index((3,), 6, dtype=torch.int32))
    c.op("aten.index_select.default", c.t((4, 6)), 0, longs(c, [3, 3, 0, 3]))
    c.op("aten.index_select.default", c.t((4, 6)), 1, c.index((), 6))
    c.op("aten.index_select.default", c.t((4, 6)), 0, c.index((0,), 4))
    c.op("aten.index_select.default", c.t((5,)), 0, c.index((8,), 5))
    c.op("aten.index_select.default", c.t((5,), layout="sliced"), -1, c.index((), 5))
    c.op("aten.index_select.default", c.t(()), 0, c.index((1,), 1))
    c.op("aten.index_select.default", c.t(()), -1, c.index((), 1))
    c.op("aten.index_select.default", c.t((0, 4)), 0, c.index((0,), 1))
    c.op("aten.index_select.default", c.t((0, 4)), 1, longs(c, [3, 0]))
    c.op("aten.index_select.default", c.t((0, 4)), 0, longs(c, [0]))  # error: empty indexed dim
    c.op("aten.index_select.default", c.t((0, 4)), 1, longs(c, [4]))  # error: out of range
    c.op("aten.index_select.default", c.t((0,)), 0, longs(c, [0]))  # error: out of range
    c.op("aten.index_select.default", c.t((4, 6)), 0, longs(c, [4]))  # error: out of range
    c.op("aten.index_select.default", c.t((4, 6)), 1, longs(c, [-1]))  # error: negative
    c.op("aten.index_select.default", c.t(()), 0, longs(c, [1]))  # error: out of range
    c.op("aten.index_select.default", c.t((4, 6)), 0, c.index((2, 2), 4))  # error: index not a vector
    c.op("aten.index_select.default", c.t((4, 6)), 0, c.t((2,), positive=True))  # error: float index
    c.op("aten.index_select.default", c.t((4, 6)), 2, longs(c, [0]))  # error: bad dim


def embedding(c):
    for layout in ("contiguous", "transposed", "sliced", "expanded"):
        c.op("aten.embedding.default", c.t((10, 4), layout=layout), c.index((6,), 10))
    for shape, layout in (((2, 3), "contiguous"), ((2, 3), "transposed"), ((2, 3, 2), "permuted"),
                          ((2, 3), "expanded"), ((2, 3), "sliced"), ((), "contiguous"), ((0,), "contiguous"),
                          ((2, 0), "contiguous")):
        c.op("aten.embedding.default", c.t((10, 4)), c.index(shape, 10, layout=layout))
    c.op("aten.embedding.default", c.t((10, 4)), c.index((2, 3), 10, dtype=torch.int32))
    c.op("aten.embedding.default", c.t((10, 4)), c.index((5,), 10), 2)
    c.op("aten.embedding.default", c.t((10, 4)), c.index((5,), 10), padding_idx=0, scale_grad_by_freq=True)
    c.op("aten.embedding.default", c.t((10, 0)), c.index((5,), 10))
    for dtype in DTYPES:
        c.op("aten.embedding.default", c.t((10, 4), dtype=dtype), c.index((2, 3), 10))
    c.op("aten.embedding.default", c.t((10, 4)), longs(c, [10]))  # error: out of range
    c.op("aten.embedding.default", c.t((10, 4)), longs(c, [-1]))  # error: negative
    c.op("aten.embedding.default", c.t((10, 4)), c.t((3,), positive=True))  # error: float indices
    c.op("aten.embedding.default", c.t((10,)), longs(c, [1]))  # error: weight not 2-d
    c.op("aten.embedding.default", c.t((0, 4)), longs(c, [0]))  # error: out of range


def embedding_backward(c):
    name = "aten.embedding_dense_backward.default"
    for shape, layout in (((2, 3, 4), "contiguous"), ((2, 3, 4), "permuted"), ((2, 3, 4), "expanded"),
                          ((2, 3, 4), "sliced"), ((2, 3, 4), "transposed")):
        c.op(name, c.t(shape, layout=layout), c.index((2, 3), 5), 5, -1, False)
    for padding, scale in ((-1, True), (2, False), (2, True), (0, True)):
        c.op(name, c.t((8, 3)), longs(c, [2, 0, 2, 4, 2, 1, 0, 2]), 5, padding, scale)
    c.op(name, c.t((8, 3)), longs(c, [2, 0, 2, 4, 2, 1, 0, 2], dtype=torch.int32), 6, -1, True)
    c.op(name, c.t((3, 2), layout="transposed"), c.index((3,), 4, layout="sliced"), 4, -1, False)
    c.op(name, c.t((4, 3)), longs(c, [1, 7, 3, -1]), 5, -1, False)  # out-of-range rows are skipped
    c.op(name, c.t((2, 3)), c.index((2,), 5), 0, -1, False)
    c.op(name, c.t((0, 3)), c.index((0,), 5), 5, -1, False)
    c.op(name, c.t((3,)), c.index((), 5), 5, -1, False)
    c.op(name, c.t((2, 0)), c.index((2,), 5), 5, -1, False)
    for dtype in (torch.float64, torch.bfloat16, torch.float16, torch.int64):
        c.op(name, c.t((8, 3), dtype=dtype, lo=-1, hi=1), longs(c, [2, 0, 2, 4, 2, 1, 0, 2]), 5, -1, False)
    c.op(name, c.t((2, 3)), c.t((2,), positive=True), 5, -1, False)  # error: float indices
    c.op(name, c.t((2, 3)), c.index((3,), 5), 5, -1, False)  # error: grad rows differ from indices
    c.op(name, c.t(()), c.index((), 5), 5, -1, False)  # error: 0-dim grad


def log_probs(c, shape, dtype=torch.float32, layout="contiguous"):
    return c.t(shape, dtype=dtype, layout=layout, lo=-4, hi=0)


def nll_forward(c):
    name = "aten.nll_loss_forward.default"
    target = [1, -100, 4, 0, 2, 4]
    for reduction in (0, 1, 2):
        for weighted in (False, True):
            w = c.t((5,), positive=True) if weighted else None
            c.op(name, log_probs(c, (6, 5)), longs(c, target), w, reduction, -100)
            c.op(name, log_probs(c, (5,)), c.t((), dtype=torch.int64, values=[3]), w, reduction, -100)
            c.op(name, log_probs(c, (5,)), c.t((), dtype=torch.int64, values=[3]), w, reduction, 3)
        c.op(name, log_probs(c, (6, 5), layout="transposed"), longs(c, target), c.t((5,), layout="sliced"),
             reduction, -100)
        c.op(name, log_probs(c, (6, 5)), longs(c, target), None, reduction, 4)
        c.op(name, log_probs(c, (3, 5)), longs(c, [-100] * 3), None, reduction, -100)  # all ignored
        c.op(name, log_probs(c, (3, 5)), longs(c, [-100] * 3), c.t((5,), positive=True), reduction, -100)
        c.op(name, log_probs(c, (0, 5)), longs(c, []), None, reduction, -100)
        c.op(name, log_probs(c, (1, 5)), longs(c, [2]), None, reduction, -100)
        c.op(name, log_probs(c, (3, 0)), longs(c, [-100] * 3), None, reduction, -100)
        # 70 samples: several levels of ATen's cascade sum
        c.op(name, log_probs(c, (70, 7)), c.index((70,), 7), c.t((7,), positive=True), reduction, -100)
        c.op(name, log_probs(c, (70, 7), layout="expanded"), c.index((70,), 7, layout="sliced"), None, reduction, 6)
        for dtype in (torch.float64, torch.bfloat16, torch.float16):
            c.op(name, log_probs(c, (6, 5), dtype), longs(c, target), c.t((5,), dtype=dtype, positive=True),
                 reduction, -100)
    c.op(name, log_probs(c, (4, 5)), longs(c, [1, 0, 4, 2], dtype=torch.uint8), None, 1, -100)
    c.op(name, log_probs(c, (4, 5)), longs(c, [1, 0, 5, 2]), None, 1, -100)  # error: target out of range
    c.op(name, log_probs(c, (4, 5)), longs(c, [1, 0, 5, 2]), None, 0, -100)  # error: target out of range
    c.op(name, log_probs(c, (4, 5)), longs(c, [1, -1, 2, 2]), None, 2, -100)  # error: negative target
    c.op(name, log_probs(c, (4, 5)), longs(c, [1, 0, 4]), None, 1, -100)  # error: batch sizes differ
    c.op(name, log_probs(c, (4, 5)), longs(c, [1, 0, 4, 2], dtype=torch.int32), None, 1, -100)  # error: int target
    c.op(name, log_probs(c, (4, 5)), longs(c, [1, 0, 4, 2]), c.t((4,), positive=True), 1, -100)  # error: weight
    c.op(name, log_probs(c, (4, 5)), longs(c, [1, 0, 4, 2]), c.t((1, 5), positive=True), 1, -100)  # error
    c.op(name, log_probs(c, (4, 5)), longs(c, [1, 0, 4, 2]), c.t((5,), dtype=torch.float64), 1, -100)  # error
    c.op(name, log_probs(c, (2, 4, 5)), c.index((2, 4), 5), None, 1, -100)  # error: 3-d input
    c.op(name, log_probs(c, (4, 5)), c.index((4, 1), 5), None, 1, -100)  # error: 2-d target
    c.op(name, log_probs(c, (4, 5)), c.index((), 5), None, 1, -100)  # error: 0-dim target with a batch
    c.op(name, c.t((4, 5), dtype=torch.int64), longs(c, [1, 0, 4, 2]), None, 1, -100)  # dropped: no kernel


def nll_backward(c):
    name = "aten.nll_loss_backward.default"
    target = [1, -100, 4, 0, 2, 4]
    total = c.t((), values=[2.5])
    for reduction in (0, 1, 2):
        grad = c.t((6,)) if reduction == 0 else c.t(())
        for weighted in (False, True):
            w = c.t((5,), positive=True) if weighted else None
            c.op(name, grad, log_probs(c, (6, 5)), longs(c, target), w, reduction, -100, total)
            c.op(name, c.t(()), log_probs(c, (5,)), c.t((), dtype=torch.int64, values=[3]), w, reduction, -100, total)
            c.op(name, c.t((1,)), log_probs(c, (5,)), c.t((), dtype=torch.int64, values=[3]), w, reduction, 3, total)
        c.op(name, grad, log_probs(c, (6, 5), layout="transposed"), longs(c, target), c.t((5,), layout="sliced"),
             reduction, -100, c.t((1,), values=[0.5]))
        c.op(name, grad, log_probs(c, (6, 5)), longs(c, [1, 3, 4, 0, 2, 4]), None, reduction, 4, total)
        c.op(name, grad, log_probs(c, (6, 5)), longs(c, [1, 3, 4, 0, 2, 4], dtype=torch.uint8), None, reduction, 3,
             total)
        for dtype in (torch.float64, torch.bfloat16, torch.float16):
            c.op(name, c.t(grad.shape, dtype=dtype), log_probs(c, (6, 5), dtype), longs(c, target),
                 c.t((5,), dtype=dtype, positive=True), reduction, -100, c.t((), dtype=dtype, values=[2.5]))
        c.op(name, c.t((0,)) if reduction == 0 else c.t(()), log_probs(c, (0, 5)), longs(c, []), None, reduction,
             -100, total)
    c.op(name, c.t(()), log_probs(c, (3, 5)), longs(c, [1, 2, 0]), c.t((5, 1), positive=True), 2, -100, total)
    c.op(name, c.t(()), log_probs(c, (3, 5)), longs(c, [1, 2, 0]), None, 1, -100, c.t((), values=[0.0]))  # -inf
    c.op(name, c.t((3,)), log_probs(c, (3, 5)), longs(c, [1, 2, 0]), None, 1, -100, total)  # error: grad shape
    c.op(name, c.t((2,)), log_probs(c, (3, 5)), longs(c, [1, 2, 0]), None, 0, -100, total)  # error: grad shape
    c.op(name, c.t(()), log_probs(c, (3, 5)), longs(c, [1, 2, 0]), None, 1, -100, c.t((2,)))  # error: total
    c.op(name, c.t(()), log_probs(c, (3, 5)), longs(c, [1, 5, 0]), None, 1, -100, total)  # error: target range
    c.op(name, c.t(()), log_probs(c, (3, 5)), longs(c, [1, 2]), None, 1, -100, total)  # error: batch sizes
    c.op(name, c.t(()), log_probs(c, (3, 5)), longs(c, [1, 2, 0]), c.t((4,)), 1, -100, total)  # error: weight
    c.op(name, c.t((), dtype=torch.float64), log_probs(c, (3, 5)), longs(c, [1, 2, 0]), None, 1, -100,
         total)  # error: grad dtype


def cases(c):
    gather(c)
    index_select(c)
    embedding(c)
    embedding_backward(c)
    nll_forward(c)
    nll_backward(c)
    scatter(c)
    select_scatter(c)
    scatter_reduce(c)
    masked_scatter(c)


# ---- Core ATen's scatters (issue 24), appended so the inputs above (seeded by creation order)
# stay the same --------------------------------------------------------------------------------
def unique_index(c, shape, dim, size):
    """An int64 index of `shape` whose values along `dim` are distinct, in [0, size): scatter.src
    writes each place once, so the result does not depend on the order of the writes."""
    grids = torch.meshgrid(*[torch.arange(n) for n in shape], indexing="ij") if shape else []
    v = grids[dim].clone() if shape else torch.tensor(0)
    for d, g in enumerate(grids):
        if d != dim:
            v += 2 * g
    return c.t(shape, dtype=torch.int64, values=(v % size).reshape(-1).tolist())


def scatter(c):
    for shape, layout in SELF_LAYOUTS:
        for dim in range(-len(shape), len(shape)):
            index_shape = list(shape)
            index_shape[dim] = min(2, shape[dim])
            self_, src = c.t(shape, layout=layout), c.t(shape, layout=layout)
            c.op("aten.scatter.src", self_, dim, unique_index(c, index_shape, dim, shape[dim]), src)
            c.op("aten.scatter.value", self_, dim, c.index(index_shape, shape[dim]), -1.5)
            c.op("aten.scatter_add.default", self_, dim, c.index(index_shape, shape[dim]), src)
    for layout in ("transposed", "expanded", "sliced"):  # index layouts (duplicates: sums are exact)
        c.op("aten.scatter_add.default", c.t((3, 4)), 1, c.index((3, 4), 4, layout=layout), c.t((3, 4)))
        c.op("aten.scatter.value", c.t((3, 4)), 0, c.index((3, 4), 3, layout=layout), 2)
    c.op("aten.scatter.src", c.t((4, 5)), 0, unique_index(c, (2, 3), 0, 4), c.t((3, 6)))  # index smaller than both
    c.op("aten.scatter_add.default", c.t((4, 5)), 1, c.index((3, 7), 5), c.t((3, 8)))  # index longer along dim
    for dtype in DTYPES:
        c.op("aten.scatter.src", c.t((3, 4), dtype=dtype), 1, unique_index(c, (3, 2), 1, 4), c.t((3, 4), dtype=dtype))
        c.op("aten.scatter.value", c.t((3, 4), dtype=dtype), 0, c.index((2, 4), 3), 3)
        c.op("aten.scatter_add.default", c.t((3, 4), dtype=dtype), 0, c.index((2, 4), 3), c.t((2, 4), dtype=dtype))
    c.op("aten.scatter.value", c.t((3, 4), dtype=torch.int32), 0, c.index((2, 4), 3), 2.5)  # truncates
    c.op("aten.scatter.src", c.t(()), 0, c.index((), 1), c.t(()))
    c.op("aten.scatter_add.default", c.t((3,)), 0, c.index((), 3), c.t(()))
    c.op("aten.scatter.src", c.t((3, 4)), 0, c.index((0, 4), 3), c.t((3, 4)))  # empty index: a copy
    c.op("aten.scatter.src", c.t((3, 4)), 0, c.index((0, 9), 3), c.t((3, 4)))  # ... and no shape check
    c.op("aten.scatter.src", c.t((3, 4)), 0, c.index((2, 4), 3, dtype=torch.int32), c.t((3, 4)))  # error: int32
    c.op("aten.scatter.src", c.t((3, 4)), 0, c.index((2, 4), 3), c.t((3, 4), dtype=torch.float64))  # error: dtypes
    c.op("aten.scatter_add.default", c.t((3, 4)), 0, c.index((2, 4), 3), c.t((3, 4), dtype=torch.float64))  # error
    c.op("aten.scatter.src", c.t((3, 4)), 0, c.t((1, 1), dtype=torch.int64, values=[3]), c.t((3, 4)))  # error: range
    c.op("aten.scatter.value", c.t((3, 4)), 0, c.t((1, 1), dtype=torch.int64, values=[-1]), 1.0)  # error: negative
    c.op("aten.scatter.src", c.t((3, 4)), 0, c.index((1, 5), 3), c.t((2, 4)))  # error: index larger than self
    c.op("aten.scatter_add.default", c.t((3, 4)), 0, c.index((2, 4), 3), c.t((1, 4)))  # error: ... than src
    c.op("aten.scatter.src", c.t((3, 4)), 0, c.index((4,), 3), c.t((3, 4)))  # error: rank mismatch
    c.op("aten.scatter.value", c.t((3, 4), dtype=torch.int8), 0, c.index((2, 4), 3), 300)  # error: overflow
    c.op("aten.scatter.src", c.t((3, 4)), 2, c.index((3, 4), 3), c.t((3, 4)))  # error: bad dim


def select_scatter(c):
    for shape, layout in SELF_LAYOUTS:
        for dim in range(-len(shape), len(shape)):
            src_shape = [n for d, n in enumerate(shape) if d != dim % len(shape)]
            c.op("aten.select_scatter.default", c.t(shape, layout=layout), c.t(src_shape), dim, 1)
            src_layout = layout if layout in layouts_for(len(src_shape)) else "sliced"
            c.op("aten.select_scatter.default", c.t(shape), c.t(src_shape, layout=src_layout), dim, -1)
    c.op("aten.select_scatter.default", c.t((3, 4)), c.t((4,), dtype=torch.float64), 0, 0)  # converts src
    c.op("aten.select_scatter.default", c.t((3, 4), dtype=torch.int32), c.t((3,)), 1, 2)
    c.op("aten.select_scatter.default", c.t((3, 4)), c.t((3,)), 0, 0)  # error: src shape
    c.op("aten.select_scatter.default", c.t((3, 4)), c.t((1, 4)), 0, 0)  # error: src shape (no broadcast)
    c.op("aten.select_scatter.default", c.t((3, 4)), c.t((4,)), 0, 3)  # error: index
    c.op("aten.select_scatter.default", c.t(()), c.t(()), 0, 0)  # error: 0-dim


def scatter_reduce(c):
    name = "aten.scatter_reduce.two"
    for reduce in ("sum", "prod", "mean", "amax", "amin"):
        for include_self in (True, False):
            for shape, layout in SELF_LAYOUTS[:5]:
                dim = len(shape) - 1
                index_shape = list(shape)
                index_shape[dim] = 5  # repeated places
                c.op(name, c.t(shape, layout=layout, lo=-2, hi=2), dim, c.index(index_shape, shape[dim]),
                     c.t(index_shape, lo=-2, hi=2), reduce, include_self=include_self)
            c.op(name, c.t((3, 4), lo=-2, hi=2), 0, c.index((2, 4), 3), c.t((2, 4), lo=-2, hi=2), reduce,
                 include_self=include_self)
            for dtype in (torch.float64, torch.int64, torch.int32):
                c.op(name, c.t((3, 4), dtype=dtype, lo=-9, hi=9), 1, c.index((3, 6), 4),
                     c.t((3, 6), dtype=dtype, lo=-9, hi=9), reduce, include_self=include_self)
        c.op(name, c.t((3, 4), values=[1, float("nan"), 2, 3] * 3), 1, c.index((3, 4), 4),
             c.t((3, 4), values=[float("nan"), 1, 2, 3] * 3), reduce)
    c.op(name, c.t((3, 4)), 1, c.index((3, 4), 4), c.t((3, 4)), "max")  # error: unknown reduction
    c.op(name, c.t((3, 4)), 1, c.index((3, 4), 4), c.t((3, 4), dtype=torch.float64), "sum")  # error: dtypes
    c.op(name, c.t((3, 4)), 1, c.index((0, 4), 4), c.t((3, 4)), "prod", include_self=False)  # empty index


def masked_scatter(c):
    name = "aten.masked_scatter.default"
    for shape, layout in SELF_LAYOUTS:
        n = 1
        for s_ in shape:
            n *= s_
        c.op(name, c.t(shape, layout=layout), c.t(shape, dtype=torch.bool), c.t((n,)))
        c.op(name, c.t(shape), c.t(shape, dtype=torch.bool, layout=layout), c.t((n + 3,)))
    c.op(name, c.t((3, 4)), c.t((4,), dtype=torch.bool), c.t((2, 6), layout="transposed"))  # mask broadcasts
    c.op(name, c.t((1, 4)), c.t((3, 1), dtype=torch.bool), c.t((12,)))  # self broadcasts
    c.op(name, c.t((3, 4)), c.t((3, 4), dtype=torch.uint8, lo=0, hi=2), c.t((12,)))
    for dtype in (torch.float64, torch.int64, torch.bool, torch.float16):
        c.op(name, c.t((3, 4), dtype=dtype), c.t((3, 4), dtype=torch.bool), c.t((12,), dtype=dtype))
    c.op(name, c.t((3, 4)), c.t((3, 4), dtype=torch.bool, values=[1] * 12), c.t((5,)))  # error: source too small
    c.op(name, c.t((3, 4)), c.t((3, 4), dtype=torch.bool), c.t((12,), dtype=torch.float64))  # error: dtypes
    # masks of other dtypes are read as bytes (1.0 reads as 0, 1 as 1, 2 is refused)
    c.op(name, c.t((2, 3)), c.t((2, 3), values=[1.0, 0, 1, 0, 1, 1]), c.t((6,)))
    c.op(name, c.t((2, 3)), c.t((2, 3), dtype=torch.int64, values=[1, 0, 1, 0, 1, 1]), c.t((6,)))
    c.op(name, c.t((2, 3)), c.t((2, 3), dtype=torch.int64, values=[1, 0, 2, 0, 256, 1]), c.t((6,)))  # error
    c.op(name, c.t((3, 4)), c.t((5,), dtype=torch.bool), c.t((12,)))  # error: broadcast