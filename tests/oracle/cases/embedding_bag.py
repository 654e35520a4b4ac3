"""Embedding bags: _embedding_bag in sum, mean and max mode, with and without
include_last_offset, per_sample_weights, padding_idx, empty bags, strided and broadcast inputs,
int32 and mixed index dtypes, float16 and float64 - its four outputs with 1.13's sizes (the
offset2bag that sum mode's fast path leaves empty, the bag_size that sum mode zeroes) - and its
backward ops (_embedding_bag_backward, _embedding_bag_dense_backward,
_embedding_bag_per_sample_weights_backward). Inputs that 1.13 reads or writes out of bounds, or
crashes on (a mode other than 0-2, decreasing offsets off the fast path, sparse=True), are left
out (see engine/ops/families/EmbeddingBagOps.cpp)."""
import torch

A = torch.ops.aten
IDX = [0, 2, 4, 1, 3, 3, 2]  # rows of a 5-row weight, two repeated


def bag(c, weight, indices, offsets, mode=0, per_sample=None, include_last=False, padding=-1, by_freq=False,
        sparse=False):
    c.op("aten._embedding_bag.default", weight, indices, offsets, by_freq, mode, sparse, per_sample, include_last,
         padding)


def spread(values, layout):
    """1-d values for c.t's layout: "sliced" reads every other element of a longer row."""
    return [v for x in values for v in (x, 0)] if layout == "sliced" else values


def idx(c, values=IDX, dtype=torch.int64, layout="contiguous"):
    return c.t((len(values),), dtype=dtype, layout=layout, values=spread(values, layout))


def odd(c, shape, seed, dtype=torch.float32, layout="contiguous"):
    """Values that are not multiples of a power of two, so sums and products round."""
    g = torch.Generator().manual_seed(seed)
    base = (torch.randn(shape, generator=g, dtype=torch.float64) * 3).to(dtype).to(torch.float64)
    if layout == "transposed":
        base = base.transpose(-1, -2)
    return c.t(shape, dtype=dtype, layout=layout, values=spread(base.reshape(-1).tolist(), layout))


def forward_cases(c):
    # every mode, with and without include_last_offset and padding_idx; bag 1 is empty
    for mode in (0, 1, 2):
        for include_last in (False, True):
            offsets = [0, 2, 2, 5, 7] if include_last else [0, 2, 2, 5]
            for padding in (-1, 3):
                bag(c, c.t((5, 4)), idx(c), idx(c, offsets), mode, None, include_last, padding)
    # values that round: the order of each bag's sum and mean's division
    for mode in (0, 1):
        bag(c, odd(c, (6, 19), 1), idx(c, [0, 2, 4, 1, 3, 3, 2, 5, 5, 0]), idx(c, [0, 3, 3, 9]), mode)
    # per_sample_weights (sum only): the fast path fuses weight * row into the sum, the slow one
    # (padding, a strided weight or strided per-sample weights) does not
    w, i, o = odd(c, (6, 19), 2), idx(c, [0, 2, 4, 1, 3, 3, 2, 5, 5, 0]), idx(c, [0, 3, 3, 9])
    bag(c, w, i, o, 0, odd(c, (10,), 3))
    bag(c, w, i, o, 0, odd(c, (10,), 4), padding=3)
    bag(c, w, i, o, 0, odd(c, (10,), 5, layout="sliced"))
    bag(c, odd(c, (6, 19), 6, layout="transposed"), i, o, 0, odd(c, (10,), 7))
    bag(c, c.t((5, 4)), idx(c), idx(c, [0, 2, 2, 5, 7]), 0, c.t((7,)), include_last=True)
    bag(c, c.t((5, 4), dtype=torch.float64), idx(c), idx(c, [0, 2, 2, 5]), 0, c.t((7,), dtype=torch.float64))
    bag(c, c.t((5, 4), dtype=torch.float16), idx(c), idx(c, [0, 2, 2, 5]), 0, c.t((7,), dtype=torch.float16))
    # weight layouts (a strided row leaves the fast path: offset2bag is computed in sum mode too)
    for layout in ("transposed", "sliced", "expanded"):
        for mode in (0, 1, 2):
            bag(c, c.t((5, 4), layout=layout), idx(c), idx(c, [0, 2, 2, 5]), mode)
    bag(c, c.t((5, 1), layout="transposed"), idx(c), idx(c, [0, 2, 2, 5]), 0)
    # dtypes: float64 and float16 weights, int32 indices and offsets, mixed (promoted) index dtypes
    for dtype in (torch.float64, torch.float16):
        for mode in (0, 1, 2):
            bag(c, odd(c, (5, 9), 8, dtype=dtype), idx(c), idx(c, [0, 2, 2, 5]), mode)
        bag(c, odd(c, (5, 9), 9, dtype=dtype), idx(c), idx(c, [0, 2, 2, 5]), 0, padding=2)
    bag(c, c.t((5, 4)), idx(c, dtype=torch.int32), idx(c, [0, 2, 2, 5], dtype=torch.int32), 2)
    bag(c, c.t((5, 4)), idx(c, dtype=torch.int32), idx(c, [0, 2, 2, 5]), 1)
    bag(c, c.t((5, 4)), idx(c, dtype=torch.uint8), idx(c, [0, 2, 2, 5]), 0)
    bag(c, c.t((5, 4)), idx(c, dtype=torch.int16), idx(c, [0, 2, 2, 5], dtype=torch.int32), 1)
    # a padding_idx that no index has (strided indices or offsets are left out: 1.13 reads their
    # memory as if they were contiguous)
    bag(c, c.t((5, 4)), idx(c), idx(c, [0, 2, 2, 5]), 1, padding=-7)
    bag(c, c.t((5, 4)), idx(c), idx(c, [0, 2, 2, 5]), 0, padding=9)
    # max: ties keep the first row; NaN wins only where it comes first
    nan = float("nan")
    tied = c.t((4, 3), values=[1, 5, nan, 2, 5, 0, 2, 1, 3, 0, 7, nan])
    bag(c, tied, idx(c, [1, 2, 0, 3, 0]), idx(c, [0, 3]), 2)
    bag(c, tied, idx(c, [1, 2, 0, 3, 0]), idx(c, [0, 3]), 0)
    # sparse only matters for the backward; scale_grad_by_freq likewise
    bag(c, c.t((5, 4)), idx(c), idx(c, [0, 2, 2, 5]), 1, sparse=True, by_freq=True)
    # empty: no indices, no bags, no columns, no rows
    bag(c, c.t((5, 4)), idx(c, []), idx(c, [0]), 1)
    bag(c, c.t((5, 4)), idx(c, []), idx(c, [0, 0]), 2)
    bag(c, c.t((5, 4)), idx(c, []), idx(c, []), 0)
    bag(c, c.t((5, 4)), idx(c, []), idx(c, [0]), 2, include_last=True)
    bag(c, c.t((5, 0)), idx(c), idx(c, [0, 2, 2, 5]), 2)
    bag(c, c.t((5, 0)), idx(c), idx(c, [0, 2, 2, 5]), 0)
    bag(c, c.t((0, 3)), idx(c, []), idx(c, [0]), 0)
    bag(c, c.t((5, 4)), idx(c, [1, 3, 3]), idx(c, [0]), 1, padding=3)
    bag(c, c.t((5, 4)), idx(c, [3, 3]), idx(c, [0, 2]), 2, include_last=True, padding=3)


def error_cases(c):
    w, i, o = c.t((5, 4)), idx(c), idx(c, [0, 2, 2, 5])
    bag(c, c.t((5, 4), dtype=torch.bfloat16), i, o)  # error: bfloat16 weight
    bag(c, c.t((5, 4), dtype=torch.int64), i, o)  # error: integer weight
    bag(c, w, c.t((7,), values=IDX), o)  # error: float indices
    bag(c, w, i, c.t((4,), values=[0, 2, 2, 5]))  # error: float offsets
    bag(c, w, idx(c, dtype=torch.int16), idx(c, [0, 2, 2, 5], dtype=torch.int16))  # error: int16
    bag(c, w, i, o, 1, c.t((7,)))  # error: per_sample_weights with mean
    bag(c, w, i, o, 2, c.t((7,)))  # error: ... with max
    bag(c, w, i, o, 0, c.t((7,), dtype=torch.float64))  # error: per_sample_weights dtype
    bag(c, w, i, o, 0, c.t((6,)))  # error: per_sample_weights size
    bag(c, w, i, o, 0, c.t((7, 1)))  # error: per_sample_weights rank
    bag(c, w, i, idx(c, [1, 2, 2, 5]))  # error: offsets[0] is not 0
    bag(c, w, i, idx(c, [0, 2, 2, 8]), 1)  # error: offsets[-1] past the end
    bag(c, w, i, idx(c, []), 0, include_last=True)  # error: include_last_offset without offsets
    bag(c, w, i, idx(c, [0, 3, 2, 5]), 0)  # error: offsets decrease (1.13's fast path says so)
    bag(c, w, i, idx(c, [0, -1]), 1)  # error: a negative offset
    for mode in (0, 1, 2):
        bag(c, w, idx(c, [0, 9]), idx(c, [0, 1]), mode)  # error: index past the weight
    bag(c, w, idx(c, [0, -1]), idx(c, [0, 1]), 0, padding=3)  # error: negative index
    bag(c, w, idx(c, [0, 9]), idx(c, [0, 1]), 0, padding=9)  # error: even when it is padding_idx
    bag(c, w, c.t((), dtype=torch.int64, values=[2]), o)  # error: 0-d indices
    bag(c, w, i, c.t((), dtype=torch.int64, values=[0]))  # error: 0-d offsets
    bag(c, c.t((5,)), i, o)  # error: 1-d weight


def backward_cases(c):
    """The weight's gradient from the forward's outputs, for each mode and path."""
    g5 = lambda: c.t((4, 4), lo=-2, hi=2)
    cases = [  # weight, indices, offsets, mode, per_sample_weights, include_last, padding
        (c.t((5, 4)), idx(c), idx(c, [0, 2, 2, 5]), 0, None, False, -1),  # fast path: offset2bag empty
        (c.t((5, 4), dtype=torch.float64), idx(c), idx(c, [0, 2, 2, 5]), 0, None, False, -1),
        (c.t((5, 4)), idx(c), idx(c, [0, 2, 2, 5]), 1, None, False, 3),
        (c.t((5, 4)), idx(c), idx(c, [0, 2, 2, 5, 7]), 1, None, True, -1),
        (c.t((5, 4)), idx(c), idx(c, [0, 2, 2, 5]), 2, None, False, 3),
        (odd(c, (5, 4), 20), idx(c), idx(c, [0, 2, 2, 5]), 0, odd(c, (7,), 21), False, -1),
        (c.t((5, 4), dtype=torch.float16), idx(c), idx(c, [0, 2, 2, 5]), 1, None, False, -1),
    ]
    for weight, indices, offsets, mode, per_sample, include_last, padding in cases:
        out = A._embedding_bag.default(weight, indices, offsets, False, mode, False, per_sample, include_last, padding)
        grad = c.t(tuple(out[0].shape), dtype=weight.dtype, lo=-2, hi=2)
        for by_freq in (False, True):
            c.op("aten._embedding_bag_backward.default", grad, indices, offsets, out[1], out[2], out[3], 5, by_freq,
                 mode, False, per_sample, padding)
        if mode != 0 or per_sample is not None:
            c.op("aten._embedding_bag_dense_backward.default", grad, indices, out[1], out[2], out[3], 5, False, mode,
                 per_sample, padding)
        if mode == 0:
            c.op("aten._embedding_bag_per_sample_weights_backward.default", grad, weight, indices, offsets, out[1],
                 mode, padding)
    # scale_grad_by_freq on many repeats: 1.13 divides by the count of the g-th sorted index
    indices = idx(c, [4, 1, 1, 0, 4, 4, 2, 1, 4, 3])
    offsets = idx(c, [0, 4, 4, 7])
    for mode in (0, 1):
        out = A._embedding_bag.default(c.t((5, 3)), indices, offsets, True, mode, False, None, False, -1)
        c.op("aten._embedding_bag_backward.default", odd(c, (4, 3), 22), indices, offsets, out[1], out[2], out[3],
             5, True, mode, False, None, -1)
    # per-sample weights' gradient: strided grad and weight, padding, float64
    w = odd(c, (6, 19), 23, layout="transposed")
    i, o = idx(c, [0, 2, 4, 1, 3, 3, 2, 5, 5, 0]), idx(c, [0, 3, 3, 9])
    o2b = idx(c, [0, 0, 0, 2, 2, 2, 2, 2, 2, 3])
    c.op("aten._embedding_bag_per_sample_weights_backward.default", odd(c, (4, 19), 24, layout="transposed"), w, i, o,
         o2b, 0, 3)
    c.op("aten._embedding_bag_per_sample_weights_backward.default", odd(c, (4, 19), 25, dtype=torch.float64),
         odd(c, (6, 19), 26, dtype=torch.float64), i, o, idx(c, []), 0, -1)
    c.op("aten._embedding_bag_per_sample_weights_backward.default", odd(c, (4, 19), 27, dtype=torch.float16),
         odd(c, (6, 19), 28, dtype=torch.float16), i, o, idx(c, []), 0, -1)
    # errors
    out = A._embedding_bag.default(c.t((5, 4)), idx(c), idx(c, [0, 2, 2, 5]), False, 1, False, None, False, -1)
    args = lambda: [idx(c), idx(c, [0, 2, 2, 5]), out[1], out[2], out[3], 5, False, 1, False, None, -1]
    c.op("aten._embedding_bag_backward.default", c.t((4, 4), dtype=torch.bfloat16), *args())  # error: grad dtype
    c.op("aten._embedding_bag_backward.default", c.t((4, 4), dtype=torch.int32), *args())  # error: grad dtype
    c.op("aten._embedding_bag_backward.default", g5(), idx(c, layout="sliced"), *args()[1:])  # error: strided indices
    c.op("aten._embedding_bag_backward.default", g5(), idx(c), idx(c, [0, 2, 2, 5], layout="sliced"), *args()[2:])
    c.op("aten._embedding_bag_backward.default", g5(), c.t((7,), values=IDX), *args()[1:])  # error: float indices
    c.op("aten._embedding_bag_backward.default", g5(), *args()[:7], 3, False, None, -1)  # error: mode
    c.op("aten._embedding_bag_backward.default", g5(), *args()[:7], 1, False, c.t((7,)), -1)  # error: mean, weights
    c.op("aten._embedding_bag_per_sample_weights_backward.default", g5(), c.t((5, 4)), idx(c),
         idx(c, [0, 2, 2, 5]), out[1], 1, -1)  # error: mean
    c.op("aten._embedding_bag_per_sample_weights_backward.default", g5(), c.t((5, 4)), idx(c, layout="sliced"),
         idx(c, [0, 2, 2, 5]), out[1], 0, -1)  # error: strided indices


def cases(c):
    forward_cases(c)
    error_cases(c)
    backward_cases(c)
