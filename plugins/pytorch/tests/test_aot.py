"""capture_aot: forward, backward and joint graphs with PyTorch's real inputs and outputs, and
the partition section that says how they fit together (or, when they do not line up, why not)."""
import os
import sys
import tempfile
import unittest
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dumputil  # noqa: F401,E402  (path setup; skips the module without torch)
from dumputil import load, read_inputs, read_outputs  # noqa: E402

import torch  # noqa: E402
import torch.fx  # noqa: E402
from torch import nn  # noqa: E402

import fathom_torch  # noqa: E402
from fathom_torch.capture import AotRecorder, _aot_api, add_recorders  # noqa: E402
from fathom_torch.partition import PartitionUnavailable, derive  # noqa: E402


def tiny_mlp():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4), nn.ReLU(), nn.Linear(4, 2))


def _placeholders(doc, graph):
    return [n["name"] for n in doc["graphs"][graph]["nodes"] if n["kind"] == "placeholder"]


def _returned(doc, graph):
    return [v and v.get("node") for v in doc["graphs"][graph]["nodes"][-1]["args"][0]]


PARTITION_KEYS = ["partitioner", "joint", "forward", "backward", "mutated_inputs", "forward_outputs",
                  "saved_bytes", "grad_inputs", "saved"]


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


    def test_partition_section(self):
        # As `fathom trace --aot` writes it (engine/dump/PartitionJson.cpp): forward(primals) ->
        # [outputs..., saved...], backward(saved..., tangents...) -> [one gradient per primal]
        self.assertEqual(list(self.doc)[-1], "partition")
        p = self.doc["partition"]
        self.assertEqual(list(p), PARTITION_KEYS)
        self.assertEqual((p["partitioner"], p["joint"], p["forward"], p["backward"]),
                         ("default", "joint", "forward", "backward"))
        self.assertEqual(p["mutated_inputs"], [])
        self.assertEqual(p["forward_outputs"], 1)
        saved = [s["name"] for s in p["saved"]]
        bw_in = _placeholders(self.doc, "backward")
        self.assertEqual(bw_in, saved + ["tangents_1"])
        self.assertEqual(_returned(self.doc, "forward")[1:], saved)
        self.assertIn("primals_7", saved)  # the input x: the first Linear's weight gradient needs it
        fw_nodes = dumputil.nodes(self.doc)
        outs = read_outputs(self.path, self.doc)
        for k, s in enumerate(p["saved"]):
            val = fw_nodes[s["name"]]["meta"]["val"]
            self.assertEqual(s["kind"], "tensor")
            self.assertEqual((s["dtype"], s["sizes"]), (val["dtype"], val["sizes"]))
            self.assertEqual(s["bytes"], outs[1 + k].numel() * 4)
        self.assertEqual(p["saved_bytes"], sum(s["bytes"] for s in p["saved"]))
        # one entry per backward output: the primal it is the gradient of; none for x
        primals = _placeholders(self.doc, "forward")
        self.assertEqual(p["grad_inputs"], primals[:6] + [""])
        self.assertEqual([g == "" for g in p["grad_inputs"]], [o is None for o in self.doc["outputs"]["backward"]])
        self.assertEqual(self.result.summary["partition"],
                         {"forward": "forward", "saved": len(saved), "saved_bytes": p["saved_bytes"]})

    def test_partition_text_layout(self):
        # the C++ writer's layout: the head on one line, one saved value per line
        with open(self.path) as f:
            lines = f.read().splitlines()
        start = next(i for i, l in enumerate(lines) if l.startswith('  "partition": {"partitioner":"default",'))
        self.assertTrue(lines[start].endswith('"saved":['))
        n = len(self.doc["partition"]["saved"])
        self.assertTrue(all(l.startswith('    {"name":') for l in lines[start + 1:start + 1 + n]))
        self.assertEqual(lines[start + 1 + n:], ["  ]}", "}"])


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
        self.assertNotIn("partition", doc)  # it names the joint graph, which is not written
        self.assertIsNone(result.summary["partition"])

    def test_function_partition(self):
        def f(a, b):
            return (a * b).sin(), a.cos()

        a = torch.randn(3, requires_grad=True)
        path = os.path.join(self._tmp.name, "fp.fathom.json")
        fathom_torch.capture_aot(f, (a, torch.randn(3)), path)
        doc = load(path)
        p = doc["partition"]
        self.assertEqual(p["forward_outputs"], 2)
        self.assertEqual(p["grad_inputs"], ["primals_1", ""])  # b does not require grad
        saved = [s["name"] for s in p["saved"]]
        self.assertEqual(_placeholders(doc, "backward"), saved + ["tangents_1", "tangents_2"])
        self.assertEqual(_returned(doc, "forward")[2:], saved)

    def assert_mutations(self, doc, path, want, new_values):
        """torch 2.x returns mutated inputs' new values first (AOT copies them back after the
        forward); torch 1.13 returns none (its graphs drop or keep the mutation inside)."""
        p = doc["partition"]
        fw_out = _returned(doc, "forward")
        self.assertEqual(len(fw_out), len(p["mutated_inputs"]) + p["forward_outputs"] + len(p["saved"]))
        self.assertEqual(p["forward_outputs"], 1)
        if p["mutated_inputs"]:
            self.assertEqual(p["mutated_inputs"], want)
            recorded = read_outputs(path, doc)
            for k, value in enumerate(new_values):
                self.assertTrue(torch.equal(recorded[k], value), (k, recorded[k], value))

    def test_mutated_input(self):
        def f(x, buf):
            buf.add_(1)
            return (x * buf).tanh()

        path = os.path.join(self._tmp.name, "mut.fathom.json")
        buf = torch.zeros(3)
        fathom_torch.capture_aot(f, (torch.randn(3, requires_grad=True), buf), path)
        doc = load(path)
        self.assertEqual(doc["partition"]["grad_inputs"], ["primals_1", ""])
        self.assert_mutations(doc, path, ["primals_2"], [buf])

    def test_batch_norm_running_stats(self):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Conv2d(2, 4, 3), nn.BatchNorm2d(4), nn.ReLU(), nn.Flatten(), nn.Linear(16, 2)).train()
        path = os.path.join(self._tmp.name, "bn.fathom.json")
        fathom_torch.capture_aot(model, (torch.randn(2, 2, 4, 4),), path)
        doc = load(path)
        n_params = len(list(model.parameters()))
        primals = _placeholders(doc, "forward")
        self.assertEqual(len(primals), n_params + 3 + 1)  # parameters, the three buffers, x
        self.assertEqual(doc["partition"]["grad_inputs"], primals[:n_params] + ["", "", "", ""])
        self.assert_mutations(doc, path, primals[n_params:n_params + 3], [b for _, b in model.named_buffers()])

    def test_tied_weights(self):
        # GPT-2 ties its output projection to the token embedding; torch 2.x's aot_module refused it.
        torch.manual_seed(0)
        emb, head = nn.Embedding(7, 4), nn.Linear(4, 7, bias=False)
        head.weight = emb.weight
        model = nn.Sequential(emb, nn.Tanh(), head)
        path = os.path.join(self._tmp.name, "tied.fathom.json")
        ids = torch.tensor([[1, 3, 6]])
        fathom_torch.capture_aot(model, (ids,), path)
        doc = load(path)
        primals = _placeholders(doc, "forward")
        # torch 1.13's AOT takes the weight passed under both names once, torch 2.x's once per name.
        self.assertIn(len(primals), (2, 3))
        self.assertEqual(doc["partition"]["grad_inputs"], primals[:-1] + [""])
        self.assertTrue(torch.equal(read_outputs(path, doc)[0], model(ids)))
        grads = read_outputs(path, doc, "backward")
        model.zero_grad()
        model(ids).backward(torch.ones(1, 3, 7))
        self.assertTrue(torch.allclose(sum(grads[:-1]), emb.weight.grad, atol=1e-6))

    def test_inference_only(self):
        path = os.path.join(self._tmp.name, "inf.fathom.json")
        fathom_torch.capture_aot(lambda x: x.relu() + x, (torch.randn(4),), path)
        doc = load(path)
        self.assertEqual(list(doc["graphs"]), ["forward"])
        self.assertEqual(len(doc["outputs"]["forward"]), 1)
        self.assertNotIn("partition", doc)

    def test_no_outputs(self):
        path = os.path.join(self._tmp.name, "no.fathom.json")
        fathom_torch.capture_aot(tiny_mlp(), (torch.randn(2, 3),), path, outputs=False)
        doc = load(path)
        self.assertNotIn("outputs", doc)
        self.assertEqual(list(doc["inputs"]), ["forward", "backward", "joint"])
        self.assertEqual(list(doc["partition"]), PARTITION_KEYS)  # sized from the run, written or not


# Partitions that cannot be derived: derive() says what does not line up, and the dump is
# written without the section, with one warning line (its graphs are still useful).
def _f(a, b):
    return (a * b).tanh().sum(), a.exp()


def _record(partition_fn=None):
    """An AotRecorder after one forward and backward of _f, with `partition_fn(fw, bw)` applied
    to default_partition's graphs."""
    aot_function, _, default_partition = _aot_api()

    def partition(joint, joint_inputs, **kwargs):
        fw, bw = default_partition(joint, joint_inputs, **kwargs)
        return partition_fn(fw, bw) if partition_fn else (fw, bw)

    rec = AotRecorder()
    compiled = aot_function(_f, fw_compiler=rec.compiler("forward"), bw_compiler=rec.compiler("backward"),
                            partition_fn=rec.partition(partition))
    a, b = torch.randn(3, requires_grad=True), torch.randn(3)
    with torch.enable_grad():
        out = compiled(a, b)
        rec.num_outputs = 2
        torch.autograd.backward([out[0], out[1]], [torch.ones(()), torch.ones(3)])
    return rec


def _rebuilt(gm, rename=None, reorder_outputs=None):
    """A copy of `gm` with placeholders renamed ({old: new}) or its returned values reordered
    (a function of the flat list); it computes the same thing."""
    g = torch.fx.Graph()
    env = {}
    for n in gm.graph.nodes:
        if n.op == "placeholder":
            env[n] = g.placeholder((rename or {}).get(n.name, n.name))
            env[n].meta = dict(n.meta)  # torch 2.x's runtime reads the placeholders' vals
        elif n.op == "output":
            vals = [env[v] if isinstance(v, torch.fx.Node) else v for v in n.args[0]]
            g.output(reorder_outputs(vals) if reorder_outputs else vals)
        else:
            env[n] = g.node_copy(n, lambda x: env[x])
    return torch.fx.GraphModule(gm, g)


def _derive(rec, **overrides):
    kw = dict(names=("joint", "forward", "backward"), joint_counts=rec.joint_counts,
              num_fwd_outputs=rec.num_fwd_outputs, num_outputs=rec.num_outputs, mutated=[],
              forward_outputs=rec.outputs["forward"])
    gms = dict(rec.gms)
    for k in ("forward", "backward", "joint"):
        if k in overrides:
            gms[k] = overrides.pop(k)
    kw.update(overrides)
    return derive(gms["forward"], gms["backward"], gms["joint"], **kw)


class DeriveTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.rec = _record()

    def assert_unavailable(self, fragment, **overrides):
        with self.assertRaises(PartitionUnavailable) as cm:
            _derive(self.rec, **overrides)
        self.assertIn(fragment, str(cm.exception))

    def test_consistent_graphs(self):
        p = _derive(self.rec)
        self.assertEqual(p["forward_outputs"], 2)
        self.assertEqual(p["grad_inputs"], ["primals_1", ""])
        bw_in = [n.name for n in self.rec.gms["backward"].graph.nodes if n.op == "placeholder"]
        self.assertEqual([s["name"] for s in p["saved"]] + ["tangents_1", "tangents_2"], bw_in)

    def test_counts_that_do_not_line_up(self):
        self.assert_unavailable("the joint graph has 3 forward outputs but the forward graph returns 2",
                                num_fwd_outputs=3)
        self.assert_unavailable("the model has 1 outputs and 0 mutated inputs were seen", num_outputs=1)
        self.assert_unavailable("the forward graph's 2 inputs are not the joint graph's 1 primals",
                                joint_counts=(1, 3))

    def test_saved_values_in_another_order(self):
        fw = self.rec.gms["forward"]
        n_saved = len(_derive(self.rec)["saved"])
        self.assertGreater(n_saved, 1)
        swapped = _rebuilt(fw, reorder_outputs=lambda v: v[:2] + v[2:][::-1])
        # As torch 2.x's backward takes saved SymInts first: listed in the forward's order, bound by name.
        p = _derive(self.rec, forward=swapped)
        bw_in = [n.name for n in self.rec.gms["backward"].graph.nodes if n.op == "placeholder"]
        self.assertEqual([s["name"] for s in p["saved"]], bw_in[:n_saved][::-1])

    def test_constant_forward_output(self):
        fw = _rebuilt(self.rec.gms["forward"], reorder_outputs=lambda v: [None] + v[1:])
        self.assert_unavailable("the forward graph's output 0 is None, not a node", forward=fw)

    def test_backward_input_not_returned_by_the_forward(self):
        bw = self.rec.gms["backward"]
        first = next(n.name for n in bw.graph.nodes if n.op == "placeholder")
        self.assert_unavailable("the backward's input 'elsewhere' is not among the forward's last",
                                backward=_rebuilt(bw, rename={first: "elsewhere"}))

    def test_missing_tangents(self):
        bw = self.rec.gms["backward"]
        self.assert_unavailable("do not end with the joint graph's 2 tangents",
                                backward=_rebuilt(bw, rename={"tangents_2": "t2"}))


class UnderivableExportTest(unittest.TestCase):
    def test_dump_without_partition_and_one_warning(self):
        def rename_first_saved(fw, bw):
            first = next(n.name for n in bw.graph.nodes if n.op == "placeholder")
            return fw, _rebuilt(bw, rename={first: "renamed"})

        rec = _record(rename_first_saved)
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "bad.fathom.json")
            writer = fathom_torch.DumpWriter(producer={"mode": "aot"})
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                self.assertFalse(rec.add_to(writer))
                self.assertFalse(rec.add_to(fathom_torch.DumpWriter()))  # warned once per recorder
                result = writer.save(path)
            doc = load(path)
        self.assertEqual(list(doc["graphs"]), ["forward", "backward", "joint"])
        self.assertNotIn("partition", doc)
        self.assertIsNone(result.summary["partition"])
        msgs = [str(w.message) for w in caught]
        self.assertEqual(len(msgs), 1, msgs)
        self.assertTrue(msgs[0].startswith("fathom_torch: no partition section for graphs forward/backward"), msgs)
        self.assertIn("the backward's input 'renamed' is not among the forward's last", msgs[0])

    def test_section_the_writer_cannot_complete(self):
        rec = _record()
        writer = fathom_torch.DumpWriter()
        self.assertTrue(rec.add_to(writer))
        section = writer._partition
        cases = [(dict(section, forward="nowhere"), "graph 'nowhere' is not in the dump"),
                 (dict(section, saved=[{"name": "output", "bytes": 8}]),
                  "saved value 'output' has no tensor or SymInt val in graph 'forward'")]
        for bad, fragment in cases:
            with self.subTest(fragment=fragment), tempfile.TemporaryDirectory() as d, \
                    warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                writer.set_partition(bad)
                doc = load(writer.save(os.path.join(d, "x.fathom.json")))
                self.assertNotIn("partition", doc)
                self.assertEqual([str(w.message) for w in caught],
                                 [f"fathom_torch: writing the dump without a partition section: {fragment}"])


class SeveralGraphsTest(unittest.TestCase):
    """torch.compile's backend writes each Dynamo graph's three graphs (forward, forward_1, ...)
    and one partition section: the first graph's that has one (tested without torch.compile)."""

    def test_first_graph_with_a_partition_names_suffixed_graphs(self):
        aot_function, _, default_partition = _aot_api()
        inference = AotRecorder()  # no backward: no partition
        compiled = aot_function(lambda x: x.relu(), fw_compiler=inference.compiler("forward"),
                                bw_compiler=inference.compiler("backward"),
                                partition_fn=inference.partition(default_partition))
        compiled(torch.randn(3))
        recs = [inference, _record(), _record()]
        writer = fathom_torch.DumpWriter()
        add_recorders(writer, recs)
        with tempfile.TemporaryDirectory() as d:
            doc = load(writer.save(os.path.join(d, "c.fathom.json")))
        self.assertEqual(list(doc["graphs"]), ["forward", "forward_1", "backward_1", "joint_1",
                                               "forward_2", "backward_2", "joint_2"])
        p = doc["partition"]
        self.assertEqual((p["joint"], p["forward"], p["backward"]), ("joint_1", "forward_1", "backward_1"))
        bw_in = [n["name"] for n in doc["graphs"]["backward_1"]["nodes"] if n["kind"] == "placeholder"]
        self.assertEqual([s["name"] for s in p["saved"]] + ["tangents_1", "tangents_2"], bw_in)


if __name__ == "__main__":
    unittest.main()
