"""F.grid_sample of 4-d inputs: aten.grid_sampler_2d and aten.grid_sampler_2d_backward (grad_input
and grad_grid, output_mask), every interpolation (bilinear, nearest, bicubic) x padding (zeros,
border, reflection) x align_corners, grids reaching past [-1, 1] (reflection folds them back more
than once), input and grid layouts (1.13's kernel walks a grid whose plane is flat, one whose
width is contiguous and any other differently, and the backward's sums follow its walk), size-1
and empty dims, float64, random grids whose values round (1.13's kernel rounds them its own way,
with fused multiply-adds: Fathom matches it bit for bit on an AVX2 CPU, so these cases keep the
default tolerance), NaN / inf / huge grid values, and the errors 1.13 raises. 1.13 has no
unbatched (3-d) grid_sampler_2d (F.grid_sample rejects it too): those are error cases.

interpolation_mode: 0 bilinear, 1 nearest, 2 bicubic; padding_mode: 0 zeros, 1 border, 2 reflection.
The first cases of grid_sampler_2d carry the gradient records (oracle.GRAD_CASES_PER_OP), so they
cover every interpolation and padding."""
import torch

A = torch.ops.aten
MODES = [(interp, pad) for interp in range(3) for pad in range(3)]
SPECIALS = [float("nan"), float("inf"), -float("inf"), 1e10, -3e9, 0.0, -0.0, 1.0, -1.0, 2.5e-8]


def rand(c, shape, lo, hi, seed, dtype=torch.float32):
    """A contiguous tensor of uniform random floats in [lo, hi): values that round."""
    g = torch.Generator().manual_seed(seed)
    n = 1
    for s in shape:
        n *= s
    return c.t(shape, dtype=dtype, values=(torch.rand(n, generator=g, dtype=torch.float64) * (hi - lo) + lo).tolist())


def named(t, layout):
    t.oracle_layout = layout
    return t


def grid_layouts(c, n=2, h=4, w=5, dtype=torch.float32):
    """Grids [n, h, w, 2] in the three walks of 1.13's kernel."""
    return [
        named(rand(c, (n, 2, h, w), -1.2, 1.2, 11, dtype).permute(0, 2, 3, 1), "x/y planes"),  # width contiguous, flat
        named(rand(c, (n, 2, h, w + 4), -1.2, 1.2, 12, dtype).permute(0, 2, 3, 1)[:, :, 1:w + 1], "x/y planes, sliced"),
        named(rand(c, (n, h, w + 3, 2), -1.2, 1.2, 13, dtype)[:, :, 2:w + 2], "sliced rows"),  # neither
        named(rand(c, (1, h, w, 2), -1.2, 1.2, 14, dtype).expand(n, h, w, 2), "expanded"),
        named(rand(c, (n, w, h, 2), -1.2, 1.2, 15, dtype).transpose(1, 2), "transposed"),
    ]


def sample(c, x, grid, interp, pad, align, **kw):
    c.op("aten.grid_sampler_2d.default", x, grid, interp, pad, align, **kw)


def backward(c, go, x, grid, interp, pad, align, mask=(True, True)):
    c.op("aten.grid_sampler_2d_backward.default", go, x, grid, interp, pad, align, list(mask))


def forward_cases(c):
    x, grid = c.t((2, 3, 4, 5), lo=-2, hi=2), c.t((2, 3, 4, 2), lo=-1.25, hi=1.25)
    for k, (interp, pad) in enumerate(MODES):  # small enough for gradient records
        sample(c, x, grid, interp, pad, k % 2 == 1)
    sample(c, c.t((2, 3, 4, 5), layout="channels_last"), c.t((2, 3, 4, 2), layout="sliced", lo=-1, hi=1), 0, 0, False)
    sample(c, c.t((2, 3, 4, 5), layout="sliced"), c.t((2, 4, 3, 2), layout="permuted", lo=-1, hi=1), 2, 1, True)
    sample(c, c.t((2, 3, 4, 5), layout="expanded"), c.t((2, 3, 4, 2), layout="expanded", lo=-1, hi=1), 1, 2, False)
    seed = 100
    for interp, pad in MODES:
        for align in (False, True):
            seed += 1
            sample(c, rand(c, (2, 3, 5, 7), -2, 2, seed), rand(c, (2, 6, 5, 2), -1.3, 1.3, seed + 1), interp, pad, align)
            # far outside: several reflections, clipping, zeros
            sample(c, rand(c, (1, 2, 3, 4), -2, 2, seed + 2), rand(c, (1, 3, 7, 2), -5, 5, seed + 3), interp, pad, align)
    for interp in range(3):
        for pad in (1, 2):
            for align in (False, True):
                sample(c, c.t((1, 2, 1, 4)), c.t((1, 3, 3, 2), lo=-2, hi=2), interp, pad, align)  # height 1
                sample(c, c.t((1, 2, 3, 1)), c.t((1, 3, 3, 2), lo=-2, hi=2), interp, pad, align)  # width 1
    for interp, pad in ((0, 0), (1, 1), (2, 2)):
        for grid in grid_layouts(c):
            sample(c, rand(c, (2, 3, 5, 6), -2, 2, 21), grid, interp, pad, False)
        for layout in ("channels_last", "permuted", "sliced", "expanded"):
            sample(c, c.t((2, 3, 5, 6), layout=layout), c.t((2, 4, 5, 2), lo=-1.2, hi=1.2), interp, pad, True)
        sample(c, c.t((0, 3, 5, 6)), c.t((0, 4, 5, 2)), interp, pad, False)
        sample(c, c.t((2, 0, 5, 6)), c.t((2, 4, 5, 2)), interp, pad, False)
        sample(c, c.t((2, 3, 5, 6)), c.t((2, 0, 5, 2)), interp, pad, False)
        sample(c, rand(c, (2, 3, 5, 6), -2, 2, 22, torch.float64), rand(c, (2, 4, 5, 2), -1.3, 1.3, 23, torch.float64),
               interp, pad, False)
    for interp, pad in MODES:  # NaN, inf, huge values
        values = [SPECIALS[i % 10] if i % 3 else 0.3 * (i % 5) - 0.6 for i in range(40)]
        sample(c, rand(c, (1, 2, 3, 4), -2, 2, 24), c.t((1, 4, 5, 2), values=values), interp, pad, False)


def backward_cases(c):
    seed = 200
    for interp, pad in MODES:
        for align in (False, True):
            seed += 1
            x, grid = rand(c, (2, 3, 5, 7), -2, 2, seed), rand(c, (2, 6, 5, 2), -1.3, 1.3, seed + 1)
            go = rand(c, (2, 3, 6, 5), -1, 1, seed + 2)
            backward(c, go, x, grid, interp, pad, align, (True, True) if align else (False, True))
        # many output pixels read the same few input pixels: their gradients add up
        backward(c, rand(c, (1, 2, 9, 11), -1, 1, seed + 3), rand(c, (1, 2, 2, 3), -2, 2, seed + 4),
                 rand(c, (1, 9, 11, 2), -1.5, 1.5, seed + 5), interp, pad, False)
    for interp, pad in ((0, 0), (1, 1), (2, 2)):
        x = c.t((2, 3, 5, 6), layout="channels_last")
        for grid in grid_layouts(c):
            backward(c, c.t((2, 3, 4, 5), layout="sliced"), x, grid, interp, pad, True)
        backward(c, c.t((2, 3, 4, 5)), x, c.t((2, 4, 5, 2), lo=-1.2, hi=1.2), interp, pad, False, (True, False))
        backward(c, rand(c, (2, 3, 4, 5), -1, 1, 31, torch.float64), rand(c, (2, 3, 5, 6), -2, 2, 32, torch.float64),
                 rand(c, (2, 4, 5, 2), -1.3, 1.3, 33, torch.float64), interp, pad, False)
        backward(c, c.t((0, 3, 4, 5)), c.t((0, 3, 5, 6)), c.t((0, 4, 5, 2)), interp, pad, False)
        backward(c, c.t((2, 0, 4, 5)), c.t((2, 0, 5, 6)), c.t((2, 4, 5, 2)), interp, pad, False)
    values = [SPECIALS[i % 10] if i % 3 else 0.3 * (i % 5) - 0.6 for i in range(40)]
    for interp, pad in MODES:
        # 1.13's bilinear backward keeps a NaN coordinate through border clipping (and reflection,
        # which makes NaN of infinities too) and reads outside the input, a crash: not those here
        # (Fathom reads the pixel the forward reads, with no gradient for the grid).
        v = [0.5 if interp == 0 and (pad == 1 and x != x or pad == 2 and (x != x or abs(x) == float("inf"))) else x
             for x in values]
        backward(c, c.t((1, 2, 4, 5)), rand(c, (1, 2, 3, 4), -2, 2, 34), c.t((1, 4, 5, 2), values=v), interp, pad, True)


def error_cases(c):
    x, grid = c.t((2, 3, 5, 6)), c.t((2, 4, 5, 2))
    sample(c, x, c.t((3, 4, 5, 2)), 0, 0, False)  # batch sizes differ
    sample(c, x, c.t((2, 4, 5, 3)), 0, 0, False)  # grid's last dim
    sample(c, c.t((2, 3, 0, 6)), grid, 0, 0, False)  # empty spatial dim
    sample(c, c.t((3, 5, 6)), c.t((4, 5, 2)), 0, 0, False)  # unbatched
    sample(c, c.t((3, 5, 6)), c.t((3, 5, 1)), 0, 0, False)
    sample(c, c.t((2, 3, 4, 5, 6)), c.t((2, 4, 5, 6, 3)), 0, 0, False)  # 5-d is grid_sampler_3d
    sample(c, x, c.t((2, 4, 5, 6, 2)), 0, 0, False)
    sample(c, x, c.t((2, 4, 5, 2), dtype=torch.float64), 0, 0, False)
    sample(c, x.double(), grid, 1, 0, False)
    sample(c, c.t((2,)), c.t((2,)), 0, 0, False)
    for dtype in (torch.float16, torch.bfloat16, torch.int64):  # no CPU kernel: dropped, Fathom refuses them too
        sample(c, x.to(dtype), grid.to(dtype), 0, 0, False)
    go = c.t((2, 3, 4, 5))
    backward(c, c.t((3, 4, 5)), x, grid, 0, 0, False)
    backward(c, go.double(), x, grid, 0, 0, False)
    backward(c, go, x, grid.double(), 0, 0, False)
    backward(c, go, x, c.t((3, 4, 5, 2)), 0, 0, False)
    backward(c, go, c.t((3, 5, 6)), c.t((4, 5, 2)), 0, 0, False)


def cases(c):
    forward_cases(c)
    backward_cases(c)
    error_cases(c)
