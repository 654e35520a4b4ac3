"""unbind.int: one select() view per index along a dim (any dim, negative ones too), over every
standard layout: the views keep self's strides without the dim, and offsets step by its stride."""
from oracle import STANDARD


def cases(c):
    for shape, layout in STANDARD:
        for dim in range(-len(shape), len(shape)):
            if shape[dim] <= 8:
                c.op("aten.unbind.int", c.t(shape, layout=layout), dim)
    c.op("aten.unbind.int", c.t((2, 3, 4, 5), layout="channels_last"), 1)
    c.op("aten.unbind.int", c.t((2, 3, 4, 2, 2), layout="channels_last_3d"), -3)
    c.op("aten.unbind.int", c.t((3, 4)))  # dim defaults to 0
    c.op("aten.unbind.int", c.t((0, 4)), 0)  # no results
    c.op("aten.unbind.int", c.t((2, 0)), 0)
    # errors
    c.op("aten.unbind.int", c.t(()), 0)
    c.op("aten.unbind.int", c.t((2, 3)), 2)
    c.op("aten.unbind.int", c.t((2, 3)), -3)
