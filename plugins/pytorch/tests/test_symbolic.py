"""The sympy -> Fathom expression printer, guards, and symbolic make_fx's shape_env."""
import inspect
import os
import sys
import tempfile
import unittest
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dumputil  # noqa: F401  (path setup; skips the module without torch)
from dumputil import load, nodes

import sympy
import torch
from torch.fx.experimental.proxy_tensor import make_fx

import fathom_torch
from fathom_torch.symbolic import SymbolTable
from fathom_torch.sources import short_path

try:
    from torch.utils._sympy.functions import FloorDiv  # torch 2.x
except ImportError:
    from torch.fx.experimental.symbolic_shapes import FloorDiv  # torch 1.13


def _symbols():
    # Named like torch 1.13 names them, to show the printer maps names itself.
    a = sympy.Symbol("t0.size(0)", positive=True, integer=True)
    b = sympy.Symbol("t0.size(1)", positive=True, integer=True)
    return a, b


class PrinterTest(unittest.TestCase):
    def setUp(self):
        self.a, self.b = _symbols()
        self.t = SymbolTable()
        self.t.name(self.a)  # s0
        self.t.name(self.b)  # s1

    def test_table(self):
        a, b = self.a, self.b
        cases = [
            (sympy.Integer(5), "5"),
            (sympy.Integer(-3), "-3"),
            (a, "s0"),
            (2 * a + b, "2*s0 + s1"),
            (a * b - 1, "s0*s1 - 1"),
            (-a, "-s0"),
            (b - a, "-s0 + s1"),
            (1 - a, "-s0 + 1"),
            (-2 * a - 3, "-2*s0 - 3"),
            (a ** 2, "s0**2"),
            (3 * a ** 2 * b, "3*s0**2*s1"),
            (sympy.Pow(a + 1, 2, evaluate=False), "(s0 + 1)**2"),
            (sympy.Mul(b, a + 1, evaluate=False), "(s0 + 1)*s1"),
            (FloorDiv(a, 2), "(s0//2)"),
            (FloorDiv(a + 1, 2), "((s0 + 1)//2)"),
            (FloorDiv(a, FloorDiv(a, 2)), "(s0//(s0//2))"),
            (2 * FloorDiv(a, 2), "2*(s0//2)"),
            (b * FloorDiv(a, FloorDiv(a, 2)), "(s0//(s0//2))*s1"),
            (sympy.Mod(a, 3), "Mod(s0, 3)"),
            (sympy.Mod(a * b, FloorDiv(a, 2)), "Mod(s0*s1, (s0//2))"),
            (sympy.Max(a, b), "Max(s0, s1)"),
            (sympy.Eq(a, 4), "Eq(s0, 4)"),
            (sympy.Ne(a, b), "Ne(s0, s1)"),
            (a > 2, "Gt(s0, 2)"),
            (a >= 2, "Ge(s0, 2)"),
            (a < b, "Lt(s0, s1)"),
            (a <= b + 1, "Le(s0, s1 + 1)"),
            (sympy.Eq(sympy.Mod(a, 2), 0), "Eq(Mod(s0, 2), 0)"),
        ]
        for expr, want in cases:
            with self.subTest(expr=str(expr)):
                self.assertEqual(self.t.text(expr), want)
        self.assertIn(self.t.text(sympy.Min(a, 4)), ("Min(4, s0)", "Min(s0, 4)"))

    def test_unsupported(self):
        a, b = self.a, self.b
        for expr in (a / 2, a / b, sympy.Rational(1, 2), sympy.Float(1.5), sympy.sqrt(a), sympy.sin(a),
                     a ** -1, a * sympy.Float(2.5), a + sympy.Rational(1, 3)):
            with self.subTest(expr=str(expr)):
                with self.assertRaises(fathom_torch.UnsupportedGraph) as cm:
                    self.t.text(expr)
                self.assertIn(str(expr), str(cm.exception))

    def test_names_follow_first_appearance(self):
        a, b = self.a, self.b
        t = SymbolTable()
        self.assertEqual(t.text(b + 2 * a), "2*s1 + s0")
        self.assertEqual(t.names, {b: "s0", a: "s1"})

    def test_cache(self):
        e = 2 * self.a + 1
        self.assertIs(self.t.text(e), self.t.text(e))

    def test_guard_relations(self):
        a, b = self.a, self.b
        t = self.t
        self.assertEqual(t.relation(a > 2, True), "Gt(s0, 2)")
        self.assertEqual(t.relation(a > 2, sympy.true), "Gt(s0, 2)")
        self.assertEqual(t.relation(a > 2, sympy.false), "Le(s0, 2)")
        self.assertEqual(t.relation(a < b, False), "Ge(s0, s1)")
        self.assertEqual(t.relation(a >= b, False), "Lt(s0, s1)")
        self.assertEqual(t.relation(a <= 3, False), "Gt(s0, 3)")
        self.assertEqual(t.relation(sympy.Eq(a, 4), sympy.false), "Ne(s0, 4)")
        self.assertEqual(t.relation(sympy.Ne(a, 4), sympy.false), "Eq(s0, 4)")
        self.assertEqual(t.relation(2 * a, 8), "Eq(2*s0, 8)")
        self.assertEqual(t.relation(2 * a, sympy.Integer(8)), "Eq(2*s0, 8)")
        self.assertIsNone(t.relation(sympy.true, True))
        self.assertEqual(t.relation(sympy.Not(sympy.Eq(a, 4)), True), "Ne(s0, 4)")


class _Range:
    def __init__(self, lower, upper):
        self.lower, self.upper = lower, upper


class _Guard:  # torch 2.x ShapeGuard(expr, stack)
    def __init__(self, expr, stack):
        self.expr, self.stack = expr, stack


class ShapeEnvSectionTest(unittest.TestCase):
    """The shape_env section from a ShapeEnv-like object, both torch 1.13's and 2.x's shapes."""

    def test_torch2_style_env(self):
        a, b = _symbols()
        c = sympy.Symbol("s9", positive=True, integer=True)
        stack = '  File "/home/u/model.py", line 7, in forward\n    if x.shape[0] > 2:\n'
        env = type("Env", (), {})()
        env.var_to_val = {a: sympy.Integer(8), b: sympy.Integer(3), c: sympy.Integer(8)}
        env.var_to_range = {a: _Range(sympy.Integer(2), sympy.oo), b: _Range(sympy.Integer(2), sympy.Integer(64)),
                            c: _Range(sympy.Integer(2), sympy.oo)}
        env.replacements = {c: a, b: b}
        env.guards = [_Guard(a > 2, stack), _Guard(sympy.And(sympy.Eq(sympy.Mod(a, 2), 0), b < 5), None),
                      _Guard(a > 2, stack), _Guard(sympy.Eq(a / b, 2), None)]
        env.duck_shape = False
        t = SymbolTable()
        t.adopt(env)
        t.name(a)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            section = t.section("compile")
        self.assertTrue(any("skipped 1 guard" in str(w.message) for w in caught))
        self.assertEqual(len(t.skipped_guards), 1)
        self.assertEqual(section["options"], {"duck_sizing": False, "specialize_zero_one": True})
        self.assertEqual(section["symbols"], [
            {"name": "s0", "hint": 8, "range": [2, None]},
            {"name": "s1", "hint": 3, "range": [2, 64]},
            {"name": "s2", "hint": 8, "range": [2, None]},
        ])
        self.assertEqual(section["replacements"], {"s2": "s0"})
        exprs = [g["expr"] for g in section["guards"]]
        self.assertEqual(exprs[0], "Gt(s0, 2)")
        self.assertEqual(sorted(exprs[1:]), ["Eq(Mod(s0, 2), 0)", "Lt(s1, 5)"])  # And split (sympy's order)
        first = section["guards"][0]
        self.assertEqual(first["count"], 2)
        self.assertEqual(first["source"], "/home/u/model.py:7")
        self.assertEqual(first["reason"], "if x.shape[0] > 2:")
        self.assertEqual(first["stage"], "compile")

    def test_sloc_guards_and_recorded_stacks(self):
        # Later torch 2.x: ShapeGuard(expr, sloc, size_oblivious), sloc.framework_loc a FrameSummary.
        # Inside torch it names no user line; the stack guard_stacks recorded at the append does.
        import traceback
        from fathom_torch.guard_stacks import _GuardList
        a, _ = _symbols()
        torch_file = os.path.join(os.path.dirname(torch.__file__), "_refs", "__init__.py")
        SLoc = type("SLoc", (), {})
        inside, user = SLoc(), SLoc()
        inside.framework_loc, inside.maybe_user_loc = traceback.FrameSummary(torch_file, 99, "f", line="x"), None
        user.framework_loc, user.maybe_user_loc = "/home/u/model.py:12 in forward", None
        env = type("Env", (), {})()
        env.var_to_val, env.replacements = {a: sympy.Integer(8)}, {}
        env.guards = _GuardList()
        g_inside = type("ShapeGuard", (), {"expr": sympy.Eq(sympy.Mod(a, 2), 0), "sloc": inside})()
        g_user = type("ShapeGuard", (), {"expr": a > 2, "sloc": user})()
        env.guards.append(g_inside)  # RECORDED-HERE
        env.guards.append(g_user)
        t = SymbolTable()
        t.adopt(env)
        guards = {g["expr"]: g for g in t.section()["guards"]}
        with open(__file__) as f:
            here = next(i for i, line in enumerate(f, 1) if "# RECORDED-" + "HERE" in line)
        self.assertEqual(guards["Eq(Mod(s0, 2), 0)"]["source"], f"{short_path(__file__)}:{here}")
        self.assertEqual(guards["Gt(s0, 2)"]["source"], "/home/u/model.py:12")

    def test_torch113_style_guards(self):
        a, b = _symbols()
        env = type("Env", (), {})()
        env.var_to_val = {a: sympy.Integer(4)}
        env.replacements = {}
        env.guards = [(a > 2, sympy.true, ""), (sympy.Eq(a, 1), sympy.false, ""), (2 * a, sympy.Integer(8), ""),
                      (sympy.true, sympy.true, "")]
        t = SymbolTable()
        t.adopt(env)
        section = t.section()
        self.assertEqual([g["expr"] for g in section["guards"]], ["Gt(s0, 2)", "Ne(s0, 1)", "Eq(2*s0, 8)"])
        self.assertEqual(section["symbols"], [{"name": "s0", "hint": 4, "range": [2, None]}])
        self.assertEqual(section["replacements"], {})

    def test_replacements_resolved_transitively(self):
        a, b = _symbols()
        c = sympy.Symbol("s9", positive=True, integer=True)
        env = type("Env", (), {})()
        env.var_to_val = {a: sympy.Integer(4), b: sympy.Integer(3), c: sympy.Integer(48)}
        env.replacements = {c: a ** 2 * b, a: sympy.Integer(4)}
        env.guards = []
        t = SymbolTable()
        t.adopt(env)
        self.assertEqual(t.section()["replacements"], {"s2": "16*s1", "s0": "4"})

    def test_symbol_without_hint_refused(self):
        a, b = _symbols()
        env = type("Env", (), {})()
        env.var_to_val, env.replacements, env.guards = {a: sympy.Integer(4)}, {}, []
        t = SymbolTable()
        t.adopt(env)
        t.name(b)  # e.g. a data-dependent (unbacked) size
        with self.assertRaises(fathom_torch.UnsupportedGraph):
            t.section()


def branchy(x, y):
    if x.shape[0] > 2:  # GUARD-BRANCH
        x = x + x
    flat = x.view(x.shape[0] * x.shape[1])  # GUARD-VIEW
    half = x.view(x.shape[0] // 2, -1)
    return torch.cat([x, y]), flat, half


def _line_of(marker):
    lines, start = inspect.getsourcelines(branchy)
    for i, line in enumerate(lines):
        if marker in line:
            return start + i
    raise AssertionError(marker)


class SymbolicTraceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.path = os.path.join(cls.tmp.name, "sym.fathom.json")
        cls.x, cls.y = torch.randn(4, 3), torch.randn(5, 3)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # torch 1.13 also guards with true division: skipped
            cls.result = fathom_torch.capture_make_fx(branchy, (cls.x, cls.y), cls.path, "symbolic")
        cls.doc = load(cls.path)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_key_order(self):
        self.assertEqual(list(self.doc), ["format", "version", "producer", "shape_env", "graphs", "inputs", "outputs"])
        self.assertEqual(self.doc["producer"]["mode"], "symbolic")

    def test_symbols(self):
        symbols = self.doc["shape_env"]["symbols"]
        by_name = {s["name"]: s for s in symbols}
        self.assertEqual([s["name"] for s in symbols], [f"s{i}" for i in range(len(symbols))])
        self.assertEqual(by_name["s0"]["hint"], 4)
        self.assertEqual(by_name["s0"]["sources"], ["x_1.size(0)"])
        self.assertEqual(by_name["s1"]["hint"], 3)
        self.assertEqual(by_name["s1"]["sources"], ["x_1.size(1)", "y_1.size(1)"])  # duck sizing
        self.assertEqual(by_name["s2"]["hint"], 5)
        self.assertEqual(by_name["s2"]["sources"], ["y_1.size(0)"])
        # torch 1.13 keeps no ranges (symbols are >= 2); torch 2.x narrows s0's by the guard s0 > 2.
        self.assertEqual(by_name["s0"]["range"], [2, None] if torch.__version__ < "2" else [3, None])
        self.assertEqual(self.doc["shape_env"]["options"], {"duck_sizing": True, "specialize_zero_one": True})

    def test_guards(self):
        guards = self.doc["shape_env"]["guards"]
        exprs = [g["expr"] for g in guards]
        self.assertIn("Gt(s0, 2)", exprs)
        branch = [g for g in guards if g["expr"] == "Gt(s0, 2)"][0]
        self.assertTrue(branch["source"].endswith(f"test_symbolic.py:{_line_of('GUARD-BRANCH')}"), branch)
        self.assertIn("x.shape[0] > 2", branch["reason"])
        # the view with a computed size (x.shape[0] // 2) guards divisibility and non-zero sizes
        half_line = _line_of("GUARD-VIEW") + 1
        from_view = [g for g in guards if g.get("source", "").endswith(f"test_symbolic.py:{half_line}")]
        self.assertTrue(from_view, guards)
        self.assertIn("Eq(Mod(s0, (s0//2)), 0)", exprs)
        for g in guards:
            self.assertNotIn("t0.size", g["expr"])

    def test_nodes(self):
        n = nodes(self.doc)
        self.assertEqual(n["x_1"]["meta"]["val"]["sizes"], ["s0", "s1"])
        self.assertEqual(n["x_1"]["meta"]["val"]["strides"], ["s1", 1])
        self.assertEqual(n["y_1"]["meta"]["val"]["sizes"], ["s2", "s1"])
        sym_sizes = [v for v in n.values() if v.get("op", "").startswith("aten.sym_size")]
        self.assertTrue(sym_sizes)
        self.assertIn(sym_sizes[0]["op"], ("aten.sym_size.default", "aten.sym_size.int"))
        self.assertEqual(sym_sizes[0]["meta"]["val"], "s0")
        muls = [v for v in n.values() if v.get("op") == "operator.mul"]
        self.assertEqual(muls[0]["meta"]["val"], "s0*s1")
        views = [v for v in n.values() if v.get("op") == "aten.view.default"]
        self.assertEqual(views[0]["args"][1], [{"node": muls[0]["name"]}])
        self.assertEqual(views[0]["meta"]["val"]["sizes"], ["s0*s1"])
        floordivs = [v for v in n.values() if v.get("op") == "operator.floordiv"]
        self.assertEqual(floordivs[0]["meta"]["val"], "(s0//2)")
        cat = [v for v in n.values() if v.get("op") == "aten.cat.default"][0]
        self.assertEqual(cat["meta"]["val"]["sizes"], ["s0 + s2", "s1"])

    def test_inputs_are_concrete(self):
        inputs = self.doc["inputs"]["forward"]
        self.assertEqual([e["sizes"] for e in inputs], [[4, 3], [5, 3]])
        self.assertEqual(len(self.doc["outputs"]["forward"]), 3)

    def test_two_shape_envs_refused(self):
        g1 = make_fx(lambda x: x + x, tracing_mode="symbolic")(torch.randn(3, 2))
        g2 = make_fx(lambda x: x + x, tracing_mode="symbolic")(torch.randn(3, 2))
        w = fathom_torch.DumpWriter()
        w.add_graph("a", g1)
        w.add_graph("b", g2)
        with self.assertRaises(fathom_torch.UnsupportedGraph):
            w.save(os.path.join(self.tmp.name, "two.fathom.json"))


if __name__ == "__main__":
    unittest.main()
