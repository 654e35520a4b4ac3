"""capture_aot: forward, backward and joint graphs with PyTorch's real inputs and outputs."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dumputil  # noqa: F401,E402  (path setup; skips the module without torch)
from dumputil import load, read_inputs, read_outputs  # noqa: E402

import torch  # noqa: E402
from torch import nn  # noqa: E402

import fathom_torch  # noqa: E402


def tiny_mlp():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.ReLU(), nn.Linear(4, 2))


def _same(a, b):
    if a is None or b is None:
        return a is None and b is None
    return a.shape == b.shape and torch.allclose(a, b, atol=1e-6)


class AotTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "mlp.fathom.json")
        cls.model = tiny_mlp()
        cls.x = torch.randn(5, 3)
        cls.result = fathom_torch.capture_aot(cls.model, (cls.x,), cls.path)
        cls.doc = load(cls.path)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_graphs_and_stages(self):
        self.assertEqual(list(self.doc["graphs"]), ["forward", "backward", "joint"])
        self.assertEqual(list(self.doc["inputs"]), ["forward", "backward", "joint"])
        self.assertEqual(list(self.doc["outputs"]), ["forward", "backward", "joint"])
        self.assertEqual(self.doc["producer"]["mode"], "aot")
        for name in ("forward", "backward", "joint"):
            for n in self.doc["graphs"][name]["nodes"]:
                self.assertEqual(n["meta"]["stage"], name)
        ops = {n.get("op") for n in self.doc["graphs"]["forward"]["nodes"]}
        self.assertIn("aten.addmm.default", ops)
        self.assertIn("aten.native_layer_norm.default", ops)
        self.assertIn("aten.native_layer_norm_backward.default",
                      {n.get("op") for n in self.doc["graphs"]["backward"]["nodes"]})
        self.assertEqual(self.result.summary["graphs"],
                         {k: len(v["nodes"]) for k, v in self.doc["graphs"].items()})

    def test_every_node_has_a_val(self):
        # torch 1.13's AOT graphs carry only tensor_meta (and nothing on multi-output ops): the
        # recorded run supplies full layouts, storage offset included
        for name in ("forward", "backward", "joint"):
            for n in self.doc["graphs"][name]["nodes"]:
                if n["kind"] != "output":
                    self.assertIn("val", n["meta"], (name, n["name"]))
                    v = n["meta"]["val"]
                    if isinstance(v, dict):
                        self.assertIn("offset", v)

    def test_recorded_outputs_equal_running_the_graphs(self):
        for name in ("forward", "backward", "joint"):
            with self.subTest(graph=name):
                gm = self.result.graph_modules[name]
                inputs = read_inputs(self.path, self.doc, name)
                ph = [n["name"] for n in self.doc["graphs"][name]["nodes"] if n["kind"] == "placeholder"]
                self.assertEqual([e["name"] for e in self.doc["inputs"][name]], ph)
                expected = fathom_torch.run_graph(gm, inputs)
                got = read_outputs(self.path, self.doc, name)
                self.assertEqual(len(got), len(expected))
                for i, (e, g) in enumerate(zip(expected, got)):
                    self.assertTrue(_same(e, g), (name, i))

    def test_forward_matches_eager(self):
        self.assertTrue(torch.allclose(read_outputs(self.path, self.doc)[0], self.model(self.x), atol=1e-6))
        params = [p.detach() for p in self.model.parameters()]
        fw_in = read_inputs(self.path, self.doc)
        for p, got in zip(params, fw_in):
            self.assertTrue(torch.equal(p, got))
        self.assertTrue(torch.equal(fw_in[-1], self.x))

    def test_joint_inputs_are_primals_and_tangents(self):
        joint = read_inputs(self.path, self.doc, "joint")
        fw = read_inputs(self.path, self.doc, "forward")
        bw = read_inputs(self.path, self.doc, "backward")
        self.assertEqual(len(joint), len(fw) + 1)
        for a, b in zip(joint, fw):
            self.assertTrue(torch.equal(a, b))
        self.assertTrue(torch.equal(joint[-1], bw[-1]))
        self.assertTrue(torch.equal(joint[-1], torch.ones(5, 2)))  # tangents="ones"
        names = [e["name"] for e in self.doc["inputs"]["joint"]]
        self.assertTrue(names[-1].startswith("tangents"))

    def test_backward_outputs_are_the_gradients(self):
        model = tiny_mlp()
        model(self.x).sum().backward()  # tangents of ones == d(sum)/d(out)
        grads = read_outputs(self.path, self.doc, "backward")
        tensors = [g for g in grads if g is not None]
        self.assertEqual(len(tensors), len(list(model.parameters())))
        for p, g in zip(model.parameters(), tensors):
            self.assertTrue(torch.allclose(p.grad, g, atol=1e-6))
        self.assertIsNone(self.doc["outputs"]["backward"][-1])  # no gradient for the input x


class AotFunctionTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self._tmp.cleanup()

    def test_function_randn_tangents_no_joint(self):
        def f(a, b):
            return (a * b).sin(), a.cos()

        a = torch.randn(3, requires_grad=True)
        b = torch.randn(3)
        path = os.path.join(self._tmp.name, "f.fathom.json")
        result = fathom_torch.capture_aot(f, (a, b), path, joint=False, tangents="randn", seed=7)
        doc = load(path)
        self.assertEqual(list(doc["graphs"]), ["forward", "backward"])
        bw = read_inputs(path, doc, "backward")
        gen = torch.Generator().manual_seed(7)
        expected = [torch.randn(3, generator=gen), torch.randn(3, generator=gen)]
        self.assertTrue(torch.equal(bw[-2], expected[0]))
        self.assertTrue(torch.equal(bw[-1], expected[1]))
        grad_a = read_outputs(path, doc, "backward")[0]
        want = expected[0] * (a * b).cos() * b - expected[1] * a.sin()
        self.assertTrue(torch.allclose(grad_a, want.detach(), atol=1e-6))
        self.assertEqual(result.summary["graphs"]["forward"], len(doc["graphs"]["forward"]["nodes"]))

    def test_inference_only(self):
        path = os.path.join(self._tmp.name, "inf.fathom.json")
        fathom_torch.capture_aot(lambda x: x.relu() + x, (torch.randn(4),), path)
        doc = load(path)
        self.assertEqual(list(doc["graphs"]), ["forward"])
        self.assertEqual(len(doc["outputs"]["forward"]), 1)

    def test_no_outputs(self):
        path = os.path.join(self._tmp.name, "no.fathom.json")
        fathom_torch.capture_aot(tiny_mlp(), (torch.randn(2, 3),), path, outputs=False)
        doc = load(path)
        self.assertNotIn("outputs", doc)
        self.assertEqual(list(doc["inputs"]), ["forward", "backward", "joint"])


if __name__ == "__main__":
    unittest.main()
