"""Optional: with FATHOM_BIN=path/to/fathom, the C++ reader accepts what fathom_torch writes.

The first test writes dumps with everything inline and without the outputs section (the two
format extensions an older reader refuses); the second writes full dumps and has `fathom run`
compare its results with the outputs PyTorch recorded, and is skipped by an older reader.
"""
import os
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dumputil  # noqa: F401,E402  (path setup; skips the module without torch)

import torch  # noqa: E402
from torch import nn  # noqa: E402

import fathom_torch  # noqa: E402

FATHOM = os.environ.get("FATHOM_BIN")


def _shapes(x, y):
    a = x.view(x.shape[0] // 2, -1)
    return a + a, torch.cat([x, y])


@unittest.skipUnless(FATHOM and os.path.exists(FATHOM), "set FATHOM_BIN to the fathom binary to run")
class FathomBinTest(unittest.TestCase):
    def check(self, path):
        for cmd in ("info", "check"):
            p = subprocess.run([FATHOM, cmd, path], capture_output=True, text=True, timeout=60)
            self.assertEqual(p.returncode, 0, f"fathom {cmd}: {p.stdout}{p.stderr}")

    def test_dumps_are_read(self):
        with tempfile.TemporaryDirectory() as d:
            torch.manual_seed(0)
            model = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.ReLU(), nn.Linear(4, 2))
            big = dict(outputs=False, inline_limit=1 << 40)
            path = fathom_torch.capture_aot(model, (torch.randn(5, 3),), os.path.join(d, "aot.fathom.json"), **big)
            self.check(path)
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                path = fathom_torch.capture_make_fx(_shapes, (torch.randn(8, 3), torch.randn(5, 3)),
                                                    os.path.join(d, "sym.fathom.json"), "symbolic", **big)
            self.check(path)

    def test_recorded_outputs_match(self):
        with tempfile.TemporaryDirectory() as d:
            torch.manual_seed(0)
            model = nn.Sequential(nn.Linear(30, 40), nn.LayerNorm(40), nn.ReLU(), nn.Linear(40, 20))
            path = fathom_torch.capture_aot(model, (torch.randn(8, 30),), os.path.join(d, "full.fathom.json"))
            info = subprocess.run([FATHOM, "info", path], capture_output=True, text=True, timeout=60)
            if info.returncode != 0 and ("output" in info.stderr or "file" in info.stderr):
                self.skipTest(f"this fathom predates the file/outputs extensions: {info.stderr.strip()}")
            self.assertEqual(info.returncode, 0, info.stderr)
            for graph in ("forward", "backward", "joint"):
                p = subprocess.run([FATHOM, "run", "--graph", graph, path], capture_output=True, text=True, timeout=60)
                self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
                self.assertIn("recorded outputs match", p.stdout, p.stdout)


if __name__ == "__main__":
    unittest.main()
