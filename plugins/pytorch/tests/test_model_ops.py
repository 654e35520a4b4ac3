"""Round trips of the ops torchvision's models brought in (issue 24), through the fathom CLI
(FATHOM_BIN): a small model built from them - hardswish, hardsigmoid, silu (MobileNetV3,
EfficientNet), adaptive average pooling (VGG, AlexNet), Swin's padding, rolling, relative
position table (index) and attention mask (slice assignments of Python numbers, which AOT
records as lift_fresh_copy of a tensor constant, fill.Tensor and slice_scatter), masked_fill,
transposed convolution and div with a rounding mode - exported with capture_aot in training
mode. Fathom loads it, reproduces PyTorch's forward and backward outputs, and checks the
training step clean: the tensor constants are placeholders that come after the tangents in the
joint graph but after the primals in the forward, and are matched by name.
"""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dumputil  # noqa: E402,F401  (path setup; skips the module without torch)
from dumputil import TORCH2  # noqa: E402

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

import fathom_torch  # noqa: E402
from test_round_trip import FATHOM, fathom_json  # noqa: E402


class ModelOps(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(4, 8, 3, padding=1)
        self.bn = torch.nn.BatchNorm2d(8)
        self.up = torch.nn.ConvTranspose2d(8, 4, 3, stride=2, padding=1, output_padding=1, groups=2)
        self.table = torch.nn.Parameter(torch.randn(9, 2))
        self.register_buffer("index", torch.randint(0, 9, (64,)))

    def forward(self, x):  # x: [2, 4, 6, 6]
        y = F.hardswish(self.bn(self.conv(x)))
        gate = F.hardsigmoid(F.adaptive_avg_pool2d(y, 3)).mean((2, 3), keepdim=True)
        y = F.silu(y * gate)
        y = torch.roll(F.pad(y.permute(0, 2, 3, 1), (0, 0, 0, 2, 0, 2)), (-1, -1), (1, 2))  # [2, 8, 8, 8]
        mask = y.new_zeros(8, 8)
        mask[:4, :] = 1
        mask[:, 6:] = 2
        bias = self.table[self.index].view(8, 8, 2).permute(2, 0, 1)  # [2, 8, 8]
        y = y.permute(0, 3, 1, 2) + bias.sum(0) + mask.masked_fill(mask != 0, -1.0)
        y = self.up(y)  # [2, 4, 16, 16]
        steps = torch.div(torch.arange(16.0), 4, rounding_mode="floor")
        return (y * steps).sum()


@unittest.skipUnless(FATHOM and os.path.exists(FATHOM), "set FATHOM_BIN to the fathom binary to run")
class ModelOpsRoundTripTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        torch.manual_seed(0)
        model = ModelOps().train()
        cls.path = fathom_torch.capture_aot(model, (torch.randn(2, 4, 6, 6),), os.path.join(cls.tmp.name, "ops.fathom.json"))
        cls.doc = dumputil.load(cls.path)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_the_graphs_hold_the_new_ops(self):
        every = [n for g in self.doc["graphs"] for n in dumputil.nodes(self.doc, g).values()]
        ops = {n.get("op") for n in every}
        for op in ("hardswish", "hardswish_backward", "hardsigmoid", "hardsigmoid_backward", "silu",
                   "_adaptive_avg_pool2d", "_adaptive_avg_pool2d_backward", "constant_pad_nd", "roll",
                   "index.Tensor", "index_put", "lift_fresh_copy", "fill.Tensor", "slice_scatter",
                   "masked_fill.Scalar", "div.Tensor_mode"):
            name = "aten." + op if "." in op else f"aten.{op}.default"
            self.assertIn(name, ops)
        convs = [n for n in every if n.get("op") == "aten.convolution.default"]
        self.assertTrue(any(n["args"][6] for n in convs), "a transposed convolution")

    def test_forward_and_backward_reproduce_pytorch(self):
        for graph in ("forward", "backward"):
            with self.subTest(graph=graph):
                report = fathom_json("run", self.path, "--graph", graph)
                self.assertEqual(report["recorded"]["mismatches"], 0, report["recorded"])

    def test_training_step_checks_clean(self):
        report = fathom_json("check", self.path, expect=1 if TORCH2 else 0)
        self.assertEqual([g["graph"] for g in report["graphs"]], ["forward", "backward", "joint"])
        origins = sorted({(m["node"], m["field"]) for m in report["mismatches"] if m.get("origin")})
        if TORCH2:
            # PyTorch 2.x's own fake tensor lies here: its hardswish_backward decomposition (a
            # where() led by `self < -3`) answers contiguous, its eager kernel follows the
            # channels_last gradient, as Fathom does. Fathom reports it; nothing else differs.
            self.assertEqual(origins, [("hardswish_backward", "strides")], report["mismatches"])
        else:
            self.assertEqual(report["mismatches"], [])


if __name__ == "__main__":
    unittest.main()
