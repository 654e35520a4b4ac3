"""Whether a committed fixture still says what PyTorch says (generate.py --check).

PyTorch's own results differ in the last bits between CPUs and thread counts (bfloat16 matmul and
convolution accumulate in another order where the CPU has AVX512-BF16; OpenBLAS picks its kernel
by CPU), and a size-1 dimension's stride is arbitrary (the mkldnn and native paths of
convolution_backward pick different ones). So a fixture is current when everything else is
exactly equal - cases, ops, arguments, inputs, dtypes, sizes, offsets, the strides of dimensions
larger than 1 - and every floating value is within its dtype's tolerance of the regenerated one,
relative to the largest magnitude of that output. A changed case file still makes fixtures stale.
"""
import json

# Per dtype: how far a value may move, as a fraction of the output's largest magnitude (at least 1).
TOLERANCE = {"bfloat16": 3e-2, "float16": 5e-3, "float32": 1e-4, "float64": 1e-9}


def _close(old, new, dtype, atol=0.0):
    if len(old) != len(new):
        return False
    tol = TOLERANCE.get(dtype)
    if tol is None:
        return old == new
    scale = max([1.0] + [abs(v) for v in old if isinstance(v, (int, float))])
    for a, b in zip(old, new):
        if isinstance(a, (int, float)) and isinstance(b, (int, float)):
            if abs(a - b) > max(tol * scale, atol):
                return False
        elif a != b:  # nan, inf, None as strings or nulls: exactly
            return False
    return True


def _strides_equal(old, new, sizes):
    if len(old) != len(new) or len(old) != len(sizes):
        return False
    return all(a == b or s == 1 for a, b, s in zip(old, new, sizes))


def same_value(old, new, dtype=None, atol=0.0):
    """Recursively equal, with data compared within tolerance and size-1 strides ignored. A case's
    own "tol" ([rtol, atol], the C++ test's widened tolerance) also lets its values move by atol."""
    if isinstance(old, dict) and isinstance(new, dict):
        if old.keys() != new.keys():
            return False
        dtype = old.get("dtype", dtype) if isinstance(old.get("dtype"), str) else dtype
        if isinstance(old.get("tol"), list) and len(old["tol"]) == 2:
            atol = float(old["tol"][1])
        for k in old:
            if k == "data" and isinstance(old[k], list):
                if not _close(old[k], new[k], dtype, atol):
                    return False
            elif k == "strides" and isinstance(old.get("sizes"), list):
                if not _strides_equal(old[k], new[k], old["sizes"]):
                    return False
            elif not same_value(old[k], new[k], dtype, atol):
                return False
        return True
    if isinstance(old, list) and isinstance(new, list):
        return len(old) == len(new) and all(same_value(a, b, dtype, atol) for a, b in zip(old, new))
    return old == new


def _parse(text, jsonl):
    if jsonl:
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return json.loads(text)


def fixture_current(old_text, new_text, jsonl=True):
    """old_text: the committed fixture (None when missing); new_text: regenerated now."""
    if old_text is None:
        return False
    if old_text == new_text:
        return True
    try:
        return same_value(_parse(old_text, jsonl), _parse(new_text, jsonl))
    except ValueError:
        return False
