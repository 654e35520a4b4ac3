#!/usr/bin/python3
"""fixture_compare: what --check lets pass (CPU-dependent rounding, size-1 strides) and what it
still calls stale (a changed case, size, stride, or a value past its dtype's tolerance)."""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fixture_compare import fixture_current  # noqa: E402


def line(dtype="bfloat16", sizes=(2, 1), strides=(1, 1), data=(1.0, 2.0), case="mm/x"):
    return json.dumps({"case": case, "op": "aten.mm.default",
                       "outputs": [{"dtype": dtype, "sizes": list(sizes), "strides": list(strides), "offset": 0, "data": list(data)}]})


class FixtureCompareTest(unittest.TestCase):
    def test_identical_text_is_current(self):
        self.assertTrue(fixture_current(line(), line()))

    def test_missing_fixture_is_stale(self):
        self.assertFalse(fixture_current(None, line()))

    def test_bfloat16_rounding_is_current(self):
        self.assertTrue(fixture_current(line(data=(14.5, 39.25)), line(data=(14.375, 39.0))))

    def test_a_value_past_the_tolerance_is_stale(self):
        self.assertFalse(fixture_current(line(data=(14.5, 39.25)), line(data=(14.5, 30.0))))
        self.assertFalse(fixture_current(line(dtype="float32", data=(1.0, 2.0)), line(dtype="float32", data=(1.0, 2.001))))

    def test_a_cases_own_atol_lets_cancellation_noise_pass(self):
        # cdist's matmul form: a zero distance is 0.011 on one CPU's GEMM kernel, 0.0 on another's.
        def cdist(data, tol=None):
            doc = json.loads(line("float32", (2, 1), (1, 1), data))
            if tol:
                doc["tol"] = list(tol)
            return json.dumps(doc)
        self.assertFalse(fixture_current(cdist((0.011, 20.0)), cdist((0.0, 20.0))))
        self.assertTrue(fixture_current(cdist((0.011, 20.0), (1.3e-6, 3e-2)), cdist((0.0, 20.0), (1.3e-6, 3e-2))))
        self.assertFalse(fixture_current(cdist((0.5, 20.0), (1.3e-6, 3e-2)), cdist((0.0, 20.0), (1.3e-6, 3e-2))))

    def test_integers_are_exact(self):
        self.assertFalse(fixture_current(line(dtype="int64", data=(1, 2)), line(dtype="int64", data=(1, 3))))

    def test_stride_of_a_size_one_dimension_is_ignored(self):
        self.assertTrue(fixture_current(line(strides=(1, 9)), line(strides=(1, 1))))

    def test_stride_of_a_larger_dimension_is_stale(self):
        self.assertFalse(fixture_current(line(sizes=(2, 3), strides=(3, 1), data=(0,) * 6),
                                         line(sizes=(2, 3), strides=(1, 2), data=(0,) * 6)))

    def test_changed_sizes_or_cases_are_stale(self):
        self.assertFalse(fixture_current(line(sizes=(2, 1)), line(sizes=(1, 2))))
        self.assertFalse(fixture_current(line(), line(case="mm/y")))
        self.assertFalse(fixture_current(line(), line() + "\n" + line(case="mm/y")))


if __name__ == "__main__":
    unittest.main()
