"""Fathom's example-input generator (engine/interp/ExampleInputs.cpp) in numpy, so PyTorch can run
a sample dump on exactly the inputs Fathom draws from its seeds: splitmix64, floats uniform in a
range or N(0, 1) by Box-Muller, integers uniform in [ceil(lo), hi), bools from the low bit."""
import math

import numpy as np

GAMMA = np.uint64(0x9E3779B97F4A7C15)
NUMPY_DTYPES = {"float32": np.float32, "float64": np.float64, "float16": np.float16, "int64": np.int64,
                "int32": np.int32, "int16": np.int16, "int8": np.int8, "uint8": np.uint8, "bool": np.bool_}


def splitmix64(seed, count):
    """The first `count` outputs of splitmix64 seeded with `seed`."""
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + GAMMA * np.arange(1, count + 1, dtype=np.uint64)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        return z ^ (z >> np.uint64(31))


def uniform(bits):
    return (bits >> np.uint64(11)).astype(np.float64) * 2.0 ** -53


def materialize(spec):
    """The values of one seeded example input (a dump's "inputs" entry), row-major, shaped."""
    n = math.prod(spec["sizes"])
    dtype = spec["dtype"]
    rng = spec.get("range")
    if "data" in spec:
        values = np.array(spec["data"], dtype=np.float64)
    elif dtype == "bool":
        values = (splitmix64(spec["seed"], n) & np.uint64(1)).astype(np.float64)
    elif dtype.startswith("float") or dtype == "bfloat16":
        if rng:
            values = rng[0] + (rng[1] - rng[0]) * uniform(splitmix64(spec["seed"], n))
        else:
            bits = splitmix64(spec["seed"], 2 * n)
            u1 = np.maximum(uniform(bits[0::2]), 1e-300)
            u2 = uniform(bits[1::2])
            values = np.sqrt(-2.0 * np.log(u1)) * np.cos(6.283185307179586 * u2)
    else:
        lo = math.ceil(rng[0]) if rng else 0.0
        hi = rng[1] if rng else 10.0
        span = max(1.0, math.ceil(hi - lo))
        values = lo + np.floor(uniform(splitmix64(spec["seed"], n)) * span)
    return values.reshape(spec["sizes"])
