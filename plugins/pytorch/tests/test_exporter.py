"""export_graph_module / capture_make_fx: nodes, argument encodings, meta, inputs, outputs."""
import operator
import os
import sys
import tempfile
import unittest
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dumputil  # noqa: F401,E402  (path setup; skips the module without torch)
from dumputil import load, nodes, read_entry, read_inputs, read_outputs  # noqa: E402

import torch  # noqa: E402
import torch.fx  # noqa: E402
from torch import nn  # noqa: E402
from torch.fx.experimental.proxy_tensor import make_fx  # noqa: E402

import fathom_torch  # noqa: E402


def many_ops(x, y):
    a = x + y
    m, i = torch.max(a, 1)
    s = a.sum([1], keepdim=True)
    d = a.to(torch.float64)
    z = x.new_zeros(3)
    inf = torch.full((2,), float("inf"))
    return a.view(12), (m, i), x[1:], d, s, z, inf


def custom_op(x):
    return x * 2


class TmpDirTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.dir = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, name="t.fathom.json"):
        return os.path.join(self.dir, name)


class MakeFxTest(TmpDirTest):
    def capture(self, mode):
        torch.manual_seed(0)
        x, y = torch.randn(4, 3), torch.randn(4, 3)
        path = self.path(f"{mode}.fathom.json")
        result = fathom_torch.capture_make_fx(many_ops, (x, y), path, mode)
        return path, load(path), (x, y), result

    def test_real_mode_offsets_come_from_the_run(self):
        # torch 2.x's real-mode make_fx records each value as empty_strided(sizes, strides): offset 0
        # even for a view; a trace on real tensors takes its offsets from the real run instead.
        from torch.fx.experimental.proxy_tensor import make_fx
        x = torch.randn(4, 3)
        gm = make_fx(lambda t: t[1:] * 2)(x)
        view = next(n for n in gm.graph.nodes if n.op == "call_function" and "slice" in str(n.target))
        view.meta["val"] = torch.empty_strided((3, 3), (3, 1))
        for real_offsets, offset in ((True, 3), (False, 0)):
            path = fathom_torch.export_graph_module(gm, self.path(f"ro{real_offsets}.fathom.json"), (x,),
                                                    real_offsets=real_offsets)
            self.assertEqual(nodes(load(path))[view.name]["meta"]["val"]["offset"], offset)

    def test_real_and_fake(self):
        for mode in ("real", "fake"):
            with self.subTest(mode=mode):
                path, doc, (x, y), result = self.capture(mode)
                self.assertEqual(result, path)
                self.assertEqual(doc["format"], "fathom-dump")
                self.assertEqual(doc["version"], 1)
                self.assertEqual(doc["producer"]["tool"], "fathom_torch")
                self.assertEqual(doc["producer"]["mode"], mode)
                self.assertTrue(all(isinstance(v, str) for v in doc["producer"].values()))
                self.assertEqual(list(doc), ["format", "version", "producer", "graphs", "inputs", "outputs"])
                n = nodes(doc)
                kinds = [v["kind"] for v in doc["graphs"]["forward"]["nodes"]]
                self.assertEqual(kinds[:2], ["placeholder", "placeholder"])
                self.assertEqual(kinds[-1], "output")
                self.assertNotIn("placeholder", kinds[2:])
                self.assertEqual(n["add"]["op"], "aten.add.Tensor")
                self.assertEqual(n["add"]["args"], [{"node": "x_1"}, {"node": "y_1"}])
                # multi-output op + getitem; torch 1.13 leaves max's val empty, a real run fills it
                self.assertEqual(n["max_1"]["op"], "aten.max.dim")
                self.assertEqual(n["getitem"]["op"], "getitem")
                self.assertEqual(n["getitem"]["args"], [{"node": "max_1"}, 0])
                self.assertEqual(n["getitem_1"]["meta"]["val"]["dtype"], "int64")
                self.assertEqual([v["dtype"] for v in n["max_1"]["meta"]["val"]], ["float32", "int64"])
                # lists, bools, dtype / layout / device kwargs, non-finite floats
                self.assertEqual(n["sum_1"]["args"], [{"node": "add"}, [1], True])
                self.assertEqual(n["_to_copy"]["kwargs"], {"dtype": {"dtype": "float64"}})
                zeros = [v for v in n.values() if v.get("op") == "aten.new_zeros.default"][0]
                # torch 2.x leaves out the kwargs that are new_zeros' defaults (self's dtype, ...)
                for key, value in (("dtype", "float32"), ("layout", "strided"), ("device", "cpu")):
                    if key in zeros["kwargs"] or torch.__version__ < "2":
                        self.assertEqual(zeros["kwargs"][key], {key: value})
                full = [v for v in n.values() if v.get("op") == "aten.full.default"][0]
                self.assertEqual(full["args"], [[2], {"float": "inf"}])
                self.assertEqual(n["slice_1"]["args"], [{"node": "x_1"}, 0, 1, 9223372036854775807])
                # vals: sizes, strides, storage offset of the x[1:] view
                self.assertEqual(n["x_1"]["meta"]["val"], {"dtype": "float32", "sizes": [4, 3],
                                                            "strides": [3, 1], "offset": 0})
                self.assertEqual(n["slice_1"]["meta"]["val"]["offset"], 3)
                self.assertEqual(n["slice_1"]["meta"]["val"]["sizes"], [3, 3])
                self.assertEqual(n["view"]["meta"]["val"]["sizes"], [12])
                self.assertEqual(n["add"]["meta"]["stage"], "forward")
                # the output node's values, flattened fully: (m, i) is not nested
                out = n["output"]
                self.assertEqual(out["kind"], "output")
                self.assertEqual(len(out["args"]), 1)
                flat = out["args"][0]
                self.assertEqual(flat[:3], [{"node": "view"}, {"node": "getitem"}, {"node": "getitem_1"}])
                self.assertTrue(all(isinstance(v, dict) and "node" in v for v in flat))
                # recorded inputs and outputs are PyTorch's
                self.assertTrue(torch.equal(read_inputs(path, doc)[0], x))
                expected = fathom_torch.run_graph(result.graph_modules["forward"], (x, y))
                got = read_outputs(path, doc)
                self.assertEqual(len(got), len(flat))
                for e, g in zip(expected, got):
                    self.assertTrue(torch.equal(e, g))
                self.assertTrue(torch.equal(got[0], (x + y).view(12)))
                self.assertEqual(doc["outputs"]["forward"][3]["offset"], 3)  # x[1:] keeps its layout
                self.assertEqual(doc["outputs"]["forward"][7]["file_offset"] % 64, 0)  # inf: side file

    def test_node_source_from_stack_trace(self):
        gm = make_fx(lambda x: x.relu())(torch.randn(2))
        relu = [n for n in gm.graph.nodes if n.op == "call_function"][0]
        relu.meta["stack_trace"] = ('  File "/elsewhere/model.py", line 3, in forward\n    y = f(x)\n'
                                    f'  File "{os.path.join(os.getcwd(), "pkg", "layer.py")}", line 12, in f\n'
                                    '    return x.relu()\n')
        relu.meta["nn_module_stack"] = {"a": ("encoder", nn.Module), "b": ("encoder.layer.0", nn.Module)}
        path = fathom_torch.export_graph_module(gm, self.path())
        meta = nodes(load(path))[relu.name]["meta"]
        self.assertEqual(meta["source"], os.path.join("pkg", "layer.py") + ":12")
        self.assertEqual(meta["module"], "encoder.layer.0")

    def test_no_inputs_no_outputs(self):
        gm = make_fx(lambda x: x.relu(), tracing_mode="fake")(torch.randn(2))
        doc = load(fathom_torch.export_graph_module(gm, self.path()))
        self.assertEqual(list(doc), ["format", "version", "producer", "graphs"])
        doc = load(fathom_torch.export_graph_module(gm, self.path(), (torch.randn(2),), outputs=False))
        self.assertEqual(list(doc), ["format", "version", "producer", "graphs", "inputs"])


class InputDataTest(TmpDirTest):
    def test_inline_and_side_file(self):
        base = torch.arange(40, dtype=torch.float32).reshape(8, 5)
        inputs = (
            torch.tensor([True, False, True]),                  # inline bool
            torch.arange(100) % 7 == 0,                          # bool in the side file (1 byte each)
            torch.arange(-50, 50, dtype=torch.int64),            # int64 in the side file
            torch.randn(10, 10),                                 # float32 in the side file
            base.t(),                                            # non-contiguous, strides (1, 5)
            base[1:],                                            # storage offset 5
            torch.tensor([1.0, float("nan")]),                   # small but not finite: side file
            torch.randn(3, 4).to(torch.bfloat16),                # bfloat16: 2 bytes
            torch.randn(70).half(),
            torch.tensor(2.5),                                   # 0-dim
        )

        def f(*xs):
            return [x.clone() for x in xs]

        gm = make_fx(f)(*inputs)
        path = fathom_torch.export_graph_module(gm, self.path("model.fathom.json"), inputs, inline_limit=64)
        self.assertEqual(path.summary["side_file"], self.path("model.fathom.bin"))
        self.assertTrue(os.path.exists(self.path("model.fathom.bin")))
        self.assertFalse([f for f in os.listdir(self.dir) if ".tmp" in f])
        doc = load(path)
        entries = doc["inputs"]["forward"]
        self.assertEqual([("data" in e) for e in entries],
                         [True, False, False, False, True, True, False, True, False, True])
        for e in entries:
            if "file" in e:
                self.assertEqual(e["file"], "model.fathom.bin")
                self.assertEqual(e["file_offset"] % 64, 0)
        self.assertEqual(entries[0]["data"], [True, False, True])
        self.assertEqual(entries[4]["strides"], [1, 5])
        self.assertEqual(entries[4]["sizes"], [5, 8])
        self.assertEqual(entries[5]["offset"], 5)
        self.assertEqual(entries[9]["sizes"], [])
        self.assertEqual(entries[9]["data"], [2.5])
        for t, e in zip(inputs, entries):
            back = read_entry(path, e)
            self.assertEqual(back.dtype, t.dtype)
            self.assertTrue(torch.equal(back, t) or (t.isnan().any() and torch.equal(back.isnan(), t.isnan())), e)
        for t, e in zip(inputs, doc["outputs"]["forward"]):
            self.assertTrue(torch.equal(read_entry(path, e).nan_to_num(), t.nan_to_num()))

    def test_side_file_name(self):
        self.assertEqual(fathom_torch.side_file_path("a/model.fathom.json"), "a/model.fathom.bin")
        self.assertEqual(fathom_torch.side_file_path("a/model.json"), "a/model.json.bin")
        gm = make_fx(lambda x: x + x)(torch.randn(100))
        path = fathom_torch.export_graph_module(gm, self.path("plain.json"), (torch.randn(100),))
        self.assertEqual(load(path)["inputs"]["forward"][0]["file"], "plain.json.bin")

    def test_shared_tensor_stored_once(self):
        x = torch.randn(100)
        gm = make_fx(lambda a, b: a + b)(x, x)
        path = fathom_torch.export_graph_module(gm, self.path(), (x, x), outputs=False)
        entries = load(path)["inputs"]["forward"]
        self.assertEqual(entries[0]["file_offset"], entries[1]["file_offset"])

    def test_inputs_recorded_before_mutation(self):
        def f(x):
            x.add_(1)
            return x * 2

        x = torch.zeros(3)
        gm = make_fx(f, tracing_mode="fake")(x)
        path = fathom_torch.export_graph_module(gm, self.path(), (x,))
        doc = load(path)
        self.assertTrue(torch.equal(x, torch.ones(3)))  # running the graph mutated x ...
        self.assertEqual(doc["inputs"]["forward"][0]["data"], [0.0, 0.0, 0.0])  # ... the dump has it before
        self.assertEqual(doc["outputs"]["forward"][0]["data"], [2.0, 2.0, 2.0])

    def test_wrong_input_count(self):
        gm = make_fx(lambda x: x + x)(torch.randn(2))
        with self.assertRaises(ValueError):
            fathom_torch.export_graph_module(gm, self.path(), (torch.randn(2), torch.randn(2)))


class GraphShapeTest(TmpDirTest):
    def test_module_get_attr_become_placeholders(self):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU())
        x = torch.randn(5, 3)
        with torch.no_grad():
            gm = make_fx(model)(x)  # parameters and buffers become get_attr nodes
        targets = [n.target for n in gm.graph.nodes if n.op == "get_attr"]
        path = fathom_torch.export_graph_module(gm, self.path(), (x,), attr_names={targets[0]: "0.weight"})
        doc = load(path)
        graph = doc["graphs"]["forward"]["nodes"]
        kinds = [n["kind"] for n in graph]
        n_ph = kinds.count("placeholder")
        self.assertEqual(kinds[:n_ph], ["placeholder"] * n_ph)
        self.assertEqual(n_ph, 1 + len(targets))
        self.assertEqual(graph[0]["name"], "arg0_1")  # real inputs first, then attributes in order
        attrs = path.summary["attributes"]["forward"]
        self.assertEqual(list(attrs), [n["name"] for n in graph[1:n_ph]])
        self.assertEqual(list(attrs.values()), ["0.weight"] + targets[1:])
        self.assertEqual(graph[1]["meta"]["module"], "0")
        self.assertEqual(graph[1]["meta"]["val"]["sizes"], [4, 3])
        inputs = doc["inputs"]["forward"]
        self.assertEqual(len(inputs), n_ph)
        self.assertTrue(torch.equal(read_entry(path, inputs[1]), model[0].weight.detach()))
        self.assertTrue(torch.allclose(read_outputs(path, doc)[0], model(x).detach(), atol=1e-6))

    def test_capture_module_parameters_lead(self):
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(3, 4), nn.LayerNorm(4))
        x = torch.randn(5, 3)
        for mode in ("real", "fake", "symbolic"):
            with self.subTest(mode=mode):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    path = fathom_torch.capture_make_fx(model, (x,), self.path(f"{mode}.fathom.json"), mode)
                doc = load(path)
                graph = doc["graphs"]["forward"]["nodes"]
                attrs = path.summary["attributes"]["forward"]
                self.assertEqual(list(attrs.values()), ["0.weight", "0.bias", "1.weight", "1.bias"])
                self.assertEqual(list(attrs), [n["name"] for n in graph[:4]])
                self.assertEqual(graph[0]["meta"]["module"], "0")
                self.assertEqual(graph[4]["kind"], "placeholder")
                self.assertNotIn("module", graph[4]["meta"])
                inputs = read_inputs(path, doc)
                self.assertTrue(torch.equal(inputs[0], model[0].weight.detach()))
                self.assertTrue(torch.equal(inputs[4], x))
                self.assertTrue(torch.allclose(read_outputs(path, doc)[0], model(x).detach(), atol=1e-6))

    def test_get_attr_after_call_is_moved(self):
        class M(nn.Module):
            def __init__(self):
                super().__init__()
                self.register_buffer("scale", torch.tensor([2.0, 3.0]))

        g = torch.fx.Graph()
        x = g.placeholder("x")
        r = g.create_node("call_function", torch.ops.aten.relu.default, (x,), name="relu")
        s = g.get_attr("scale")
        m = g.create_node("call_function", torch.ops.aten.mul.Tensor, (r, s), name="mul")
        g.output(m)
        gm = torch.fx.GraphModule(M(), g)
        path = fathom_torch.export_graph_module(gm, self.path(), (torch.tensor([-1.0, 1.0]),))
        doc = load(path)
        self.assertEqual([(n["name"], n["kind"]) for n in doc["graphs"]["forward"]["nodes"]],
                         [("x", "placeholder"), ("scale", "placeholder"), ("relu", "call"), ("mul", "call"),
                          ("output", "output")])
        self.assertEqual(doc["inputs"]["forward"][1]["data"], [2.0, 3.0])
        self.assertEqual(doc["outputs"]["forward"][0]["data"], [0.0, 3.0])
        self.assertEqual(path.summary["attributes"], {"forward": {"scale": "scale"}})

    def test_call_module_refused(self):
        gm = torch.fx.symbolic_trace(nn.Sequential(nn.Linear(2, 2)))
        with self.assertRaises(fathom_torch.UnsupportedGraph) as cm:
            fathom_torch.export_graph_module(gm, self.path())
        self.assertIn("call_module nodes are not ATen", str(cm.exception))
        self.assertIn("%_0", str(cm.exception))
        self.assertFalse(os.path.exists(self.path()))

    def test_target_names(self):
        g = torch.fx.Graph()
        x = g.placeholder("x")
        a = g.call_function(custom_op, (x,))
        b = g.call_function(torch.nn.functional.relu, (a,))
        c = g.call_function(operator.add, (b, 1))
        d = g.create_node("call_function", torch.ops.aten.sym_size, (x, 0), name="sym_size")
        e = g.call_function(operator.neg, (d,))
        g.output((c, e))
        gm = torch.fx.GraphModule(nn.Module(), g)
        doc = load(fathom_torch.export_graph_module(gm, self.path()))
        n = nodes(doc)
        self.assertEqual(n["custom_op"]["op"], f"{__name__}.custom_op")
        self.assertEqual(n["relu"]["op"], "torch.nn.functional.relu")
        self.assertEqual(n["add"]["op"], "operator.add")
        self.assertEqual(n["sym_size"]["op"], "aten.sym_size.default")
        self.assertEqual(n["neg"]["op"], "operator.neg")
        self.assertEqual(n["relu"]["meta"], {"stage": "forward"})  # no val: nothing was recorded

    def test_shape_prop_graph(self):
        from torch.fx.passes.shape_prop import ShapeProp

        g = torch.fx.Graph()
        x = g.placeholder("x")
        t = g.create_node("call_function", torch.ops.aten.t.default, (x,), name="t")
        g.output(t)
        gm = torch.fx.GraphModule(nn.Module(), g)
        inp = torch.randn(2, 3)
        ShapeProp(gm).propagate(inp)
        doc = load(fathom_torch.export_graph_module(gm, self.path(), (inp,)))
        self.assertEqual(nodes(doc)["t"]["meta"]["val"]["strides"], [1, 3])

    def test_unsupported_arguments(self):
        def graph_with(arg):
            g = torch.fx.Graph()
            x = g.placeholder("x")
            y = g.create_node("call_function", torch.ops.aten.add.Tensor, (x, x), name="add")
            g.output(y)
            gm = torch.fx.GraphModule(nn.Module(), g)
            y.args = (x, arg)  # after codegen, which cannot print every object
            return gm

        for arg, what in ((object(), "builtins.object"), (slice(1, 2), "builtins.slice"),
                          (torch.complex64, "complex64"), (torch.sparse_coo, "sparse_coo")):
            with self.subTest(arg=arg):
                with self.assertRaises(fathom_torch.UnsupportedGraph) as cm:
                    fathom_torch.export_graph_module(graph_with(arg), self.path())
                self.assertIn("%add", str(cm.exception))
                self.assertIn(what, str(cm.exception))
        for arg, want in ((float("-inf"), {"float": "-inf"}), (float("nan"), {"float": "nan"}),
                          (torch.channels_last, {"memory_format": "channels_last"}), (None, None),
                          ("mean", "mean"), ((1, (2, 3)), [1, [2, 3]]), (torch.device("cpu"), {"device": "cpu"})):
            with self.subTest(arg=arg):
                doc = load(fathom_torch.export_graph_module(graph_with(arg), self.path()))
                self.assertEqual(nodes(doc)["add"]["args"][1], want)


class NonTensorInputTest(TmpDirTest):
    def _mul_graph(self):
        g = torch.fx.Graph()
        x = g.placeholder("x")
        n = g.placeholder("n")
        g.output(g.create_node("call_function", torch.ops.aten.mul.Tensor, (x, n), name="mul"))
        return torch.fx.GraphModule(nn.Module(), g)

    def test_int_input_is_written(self):
        # a size input of a torch 2.x dynamic graph
        doc = load(fathom_torch.export_graph_module(self._mul_graph(), self.path(), (torch.ones(2), 3)))
        self.assertEqual(doc["inputs"]["forward"][1], {"name": "n", "int": 3})

    def test_other_non_tensor_input_drops_inputs(self):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            doc = load(fathom_torch.export_graph_module(self._mul_graph(), self.path(), (torch.ones(2), 2.5)))
        self.assertNotIn("inputs", doc)
        self.assertTrue(any("float, not a tensor" in str(w.message) for w in caught))


class BackendTest(unittest.TestCase):
    @unittest.skipIf(hasattr(torch, "compile"), "torch.compile exists: the backend works here")
    def test_backend_needs_torch2(self):
        with self.assertRaises(RuntimeError) as cm:
            fathom_torch.backend("x.fathom.json")
        self.assertIn("torch.compile needs torch 2", str(cm.exception))

    @unittest.skipUnless(hasattr(torch, "compile"), "torch.compile needs torch 2")
    def test_backend_dumps(self):  # pragma: no cover - torch 2.x only
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "c.fathom.json")
            model = nn.Sequential(nn.Linear(3, 2), nn.ReLU())
            compiled = torch.compile(model, backend=fathom_torch.backend(path))
            compiled(torch.randn(4, 3)).sum().backward()
            doc = load(path)
            self.assertIn("forward", doc["graphs"])
            self.assertIn("backward", doc["graphs"])
            p = doc["partition"]
            self.assertEqual((p["joint"], p["forward"], p["backward"]), ("joint", "forward", "backward"))
            self.assertEqual(p["forward_outputs"], 1)
            bw_in = [n["name"] for n in doc["graphs"]["backward"]["nodes"] if n["kind"] == "placeholder"]
            self.assertEqual([s["name"] for s in p["saved"]], bw_in[:len(bw_in) - 1])
            self.assertEqual(sum(1 for g in p["grad_inputs"] if g), 2)  # the weight and the bias


if __name__ == "__main__":
    unittest.main()
