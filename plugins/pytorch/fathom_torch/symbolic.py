"""Symbolic shapes: sympy expressions in Fathom's grammar and the dump's "shape_env" section.

PyTorch names its symbols after where they came from (torch 1.13: "t0.size(0)", torch 2.x:
"s0", "u0", ...); Fathom wants s0, s1, ... declared in shape_env/symbols. SymbolTable maps each
sympy symbol to Fathom's name in order of first appearance (placeholders' sizes, then strides,
then anything seen later), prints expressions with its own printer (sympy's str() is not
Fathom's grammar: it writes rationals, "/", and symbol names like "t0.size(0)"), and writes the
ShapeEnv's hints, ranges, replacements and guards.

The printer's grammar (engine/symbolic/ExprText.cpp parses it): integers; s<N>; "+", "-", "*"
with integer coefficients; "**" with a positive integer exponent; "(a//b)" for FloorDiv;
"Mod(a, b)"; "Max(a, b, ...)"/"Min(...)"; relations "Eq(a, b)", "Ne", "Lt", "Le", "Gt", "Ge".
Everything else raises UnsupportedGraph naming the expression.
"""
import linecache
import re
import warnings

import sympy
import torch

from .errors import UnsupportedGraph
from .guard_stacks import recorded_stack
from .sources import frames_of, short_path, user_frame

_SymInt = getattr(torch, "SymInt", None)          # torch 2.x
_SymIntNode = getattr(torch, "SymIntNode", None)  # torch 1.13

_RELATIONS = {
    "Equality": "Eq", "Unequality": "Ne", "StrictLessThan": "Lt", "LessThan": "Le",
    "StrictGreaterThan": "Gt", "GreaterThan": "Ge",
}
_NEGATED = {"Eq": "Ne", "Ne": "Eq", "Lt": "Ge", "Ge": "Lt", "Le": "Gt", "Gt": "Le"}
_FLOORDIV = ("FloorDiv", "CleanDiv")
_MOD = ("Mod", "PythonMod")
_MINMAX = ("Max", "Min")


def sym_info(value):
    """(sympy expr, ShapeEnv or None) when `value` is a symbolic integer, else None."""
    if _SymInt is not None and isinstance(value, _SymInt):
        node = value.node
        return node.expr, getattr(node, "shape_env", None)
    if _SymIntNode is not None and isinstance(value, _SymIntNode):
        value = value.get_pyobj()  # torch 1.13: the PySymInt behind the C++ node
    expr = getattr(value, "expr", None)
    if isinstance(expr, sympy.Basic) and hasattr(value, "shape_env"):
        return expr, value.shape_env  # PySymInt (torch 1.13 records these as sym_size vals)
    if isinstance(value, sympy.Basic):
        return value, None
    return None


def _sloc_frames(sloc):
    """Frames from a torch 2.x SLoc: its framework_loc (a FrameSummary, or "path/file.py:12 in f"
    text) and its maybe_user_loc (text; set only while Dynamo traces), oldest first, so that
    user_frame prefers the user's location. Text locations get their code line from the file."""
    frames = []
    for loc in (getattr(sloc, "framework_loc", None), getattr(sloc, "maybe_user_loc", None)):
        if getattr(loc, "filename", None) is not None and getattr(loc, "lineno", None) is not None:
            frames.append((loc.filename, int(loc.lineno), (getattr(loc, "line", "") or "").strip()))
            continue
        m = re.match(r"(.+?):(\d+)", str(loc or ""))
        if m:
            frames.append((m.group(1), int(m.group(2)), linecache.getline(m.group(1), int(m.group(2))).strip()))
    return frames


class _Unprintable(Exception):
    """Raised inside the printer; text() turns it into an UnsupportedGraph naming the whole
    expression and the part that cannot be written."""

    def __init__(self, part, why):
        super().__init__(why)
        self.part, self.why = part, why


class SymbolTable:
    """Fathom's names for one ShapeEnv's symbols, and the printer that uses them."""

    def __init__(self):
        self.env = None
        self.names = {}      # sympy.Symbol -> "sN", in order of first appearance
        self._first_graph = {}   # sympy.Symbol -> the first graph whose placeholders show it
        self._appearances = {}   # sympy.Symbol -> {"size": [...], "stride": [...]} in that graph
        self._cache = {}
        self._depth = 0
        self.skipped_guards = []

    # ---- values ---------------------------------------------------------------------------

    def adopt(self, env):
        if env is None or env is self.env:
            return
        if self.env is None:
            self.env = env
            return
        raise UnsupportedGraph("the graphs come from different ShapeEnvs (separate symbolic traces); "
                               "a dump holds one shape_env, so export them to separate dumps")

    def int_or_text(self, value):
        """An int stays an int; a symbolic integer becomes an int when constant, else its text."""
        if type(value) is int:
            return value
        info = sym_info(value)
        if info is None:
            return int(value)
        expr, env = info
        self.adopt(env)
        if expr.is_Integer:
            return int(expr)
        return self.text(expr)

    def note_placeholder(self, graph, name, sizes, strides):
        """Name the symbols of one placeholder's sizes (then strides), recording sources.

        A symbol's sources are the placeholder dimensions that are exactly that symbol, in the
        first graph it shows up in: its sizes (several under duck sizing), else its strides.
        """
        for kind, dims in (("size", sizes), ("stride", strides)):
            for d, value in enumerate(dims):
                if type(value) is int:
                    continue
                info = sym_info(value)
                if info is None:
                    continue
                expr, env = info
                self.adopt(env)
                if expr.is_Symbol:
                    self.name(expr)
                    if self._first_graph.setdefault(expr, graph) == graph:
                        seen = self._appearances.setdefault(expr, {"size": [], "stride": []})
                        seen[kind].append(f"{name}.{kind}({d})")
                else:
                    for s in sorted(expr.free_symbols, key=str):
                        self.name(s)

    def name(self, symbol):
        found = self.names.get(symbol)
        if found is None:
            found = self.names[symbol] = f"s{len(self.names)}"
        return found

    # ---- printing -------------------------------------------------------------------------

    def text(self, expr):
        """Fathom's text for a sympy integer expression or relation (cached per expression)."""
        hit = self._cache.get(expr)
        if hit is not None:
            return hit
        self._depth += 1
        try:
            hit = self._cache[expr] = self._render(expr)
        except _Unprintable as e:
            if self._depth > 1:
                raise
            part = "" if e.part == expr else f" (in '{e.part}')"
            raise UnsupportedGraph(f"symbolic expression '{expr}' cannot be written in Fathom's grammar: "
                                   f"{e.why}{part}") from None
        finally:
            self._depth -= 1
        return hit

    def _unsupported(self, part, why):
        return _Unprintable(part, why)

    def _render(self, e):
        if e.is_Integer:
            return str(int(e))
        if e.is_Symbol:
            return self.name(e)
        if e.is_Add:
            constant, terms = 0, []
            for arg in e.args:
                if arg.is_Integer:
                    constant += int(arg)
                elif arg.is_Number:
                    raise self._unsupported(e, f"non-integer constant {arg}")
                else:
                    terms.append(self._term(arg))
            terms.sort(key=lambda t: t[1])
            out = []
            for i, (negative, body) in enumerate(terms):
                out.append(("-" if negative else "") + body if i == 0 else (" - " if negative else " + ") + body)
            if constant:
                out.append((" - " if constant < 0 else " + ") + str(abs(constant)))
            return "".join(out)
        if e.is_Mul:
            negative, body = self._term(e)
            return ("-" if negative else "") + body
        if e.is_Pow:
            return self._power(e)
        kind = type(e).__name__
        if kind in _FLOORDIV:
            a, b = e.args
            return f"({self._operand(a)}//{self._operand(b)})"
        if kind in _MOD:
            a, b = e.args
            return f"Mod({self.text(a)}, {self.text(b)})"
        if kind in _MINMAX:
            return f"{kind}({', '.join(self.text(a) for a in e.args)})"
        rel = _RELATIONS.get(kind)
        if rel is not None:
            return f"{rel}({self.text(e.lhs)}, {self.text(e.rhs)})"
        if kind == "Not" and type(e.args[0]).__name__ in _RELATIONS:
            inner = e.args[0]
            return f"{_NEGATED[_RELATIONS[type(inner).__name__]]}({self.text(inner.lhs)}, {self.text(inner.rhs)})"
        if e.is_Number:
            raise self._unsupported(e, "only integers are allowed")
        raise self._unsupported(e, f"{kind} is not one of + - * ** // Mod Max Min Eq Ne Lt Le Gt Ge")

    def _term(self, e):
        """(negative, text without sign) for a product term with an integer coefficient."""
        coeff, rest = e.as_coeff_Mul()
        if not coeff.is_Integer:
            raise self._unsupported(e, f"coefficient {coeff} is not an integer (true division?)")
        c = int(coeff)
        if rest == 1:
            return c < 0, str(abs(c))
        factors = sorted(self._factor(f) for f in sympy.Mul.make_args(rest))
        body = "*".join(factors)
        if abs(c) != 1:
            body = f"{abs(c)}*{body}"
        return c < 0, body

    def _factor(self, f):
        if f.is_Add:
            return f"({self.text(f)})"
        if f.is_Number:
            raise self._unsupported(f, "non-integer factor")
        return self.text(f)

    def _power(self, e):
        base, exp = e.args
        if not (exp.is_Integer and int(exp) > 0):
            raise self._unsupported(e, f"exponent {exp} is not a positive integer (true division?)")
        b = self.text(base)
        if not (base.is_Symbol or type(base).__name__ in _FLOORDIV + _MOD + _MINMAX):
            b = f"({b})"
        return f"{b}**{int(exp)}"

    def _operand(self, e):
        t = self.text(e)
        if e.is_Symbol or (e.is_Integer and int(e) >= 0) or type(e).__name__ in _FLOORDIV + _MOD + _MINMAX:
            return t
        return f"({t})"

    def relation(self, expr, value=True):
        """Fathom's text for the fact `expr == value` (a torch 1.13 guard); None when trivial."""
        if value is True or value is sympy.true:
            if expr is sympy.true or expr is True:
                return None
            if expr is sympy.false or expr is False:
                raise UnsupportedGraph(f"guard '{expr}' is always false")
            kind = type(expr).__name__
            if kind in _RELATIONS or kind == "Not":
                return self.text(expr)
            raise UnsupportedGraph(f"guard '{expr}' ({kind}) is not a relation")
        if value is False or value is sympy.false:
            if expr is sympy.false or expr is False:
                return None
            kind = type(expr).__name__
            if kind in _RELATIONS:
                return f"{_NEGATED[_RELATIONS[kind]]}({self.text(expr.lhs)}, {self.text(expr.rhs)})"
            if kind == "Not":
                return self.text(expr.args[0])
            raise UnsupportedGraph(f"negated guard '{expr}' ({kind}) is not a relation")
        return f"Eq({self.text(expr)}, {self.text(sympy.sympify(value))})"

    # ---- the shape_env section ------------------------------------------------------------

    def _guards(self):
        """[(text, source, reason)] for the ShapeEnv's guards, unprintable ones skipped."""
        out = []
        for g in getattr(self.env, "guards", ()):
            if isinstance(g, tuple) and len(g) == 3 and not hasattr(g, "expr"):
                exprs, stack = [(g[0], g[1])], g[2]           # torch 1.13: (expr, value, traceback)
            else:
                expr = getattr(g, "expr", g)                   # torch 2.x: ShapeGuard(expr, stack)
                stack = getattr(g, "stack", None)
                if stack is None and getattr(g, "sloc", None) is not None:  # later 2.x: a user location
                    stack = _sloc_frames(g.sloc)
                parts = expr.args if type(expr).__name__ == "And" else (expr,)
                exprs = [(p, True) for p in parts]
            frame = user_frame(frames_of(stack))
            if frame is None:  # torch 2.x: the location is inside torch; the stack make_fx recorded
                frame = user_frame(frames_of(recorded_stack(self.env, g)))
            for expr, value in exprs:
                try:
                    text = self.relation(expr, value)
                except UnsupportedGraph as e:
                    self.skipped_guards.append(str(e))
                    continue
                if text is not None:
                    out.append((text, frame))
        if self.skipped_guards:
            warnings.warn(f"fathom_torch: skipped {len(self.skipped_guards)} guard(s) that Fathom's grammar "
                          f"cannot write, e.g. {self.skipped_guards[0]}", stacklevel=3)
        return out

    def _range(self, symbol, hint):
        ranges = getattr(self.env, "var_to_range", None)
        if ranges and symbol in ranges:
            r = ranges[symbol]
            ends = []
            for end in (r.lower, r.upper):
                ends.append(int(end) if getattr(end, "is_Integer", False) or type(end) is int else None)
            return ends
        # torch 1.13 keeps no ranges: sizes 0 and 1 are specialized, so symbols are >= 2.
        return [2 if hint >= 2 else 0, None]

    def section(self, guard_stage=None):
        """The shape_env object as (ordered) dict parts, or None when nothing was symbolic."""
        if self.env is None and not self.names:
            return None
        env = self.env
        guards = {}
        for text, frame in self._guards():  # may name more symbols: print them first
            entry = guards.get(text)
            if entry is not None:
                entry["count"] += 1
                continue
            entry = {"expr": text}
            if guard_stage:
                entry["stage"] = guard_stage
            if frame is not None:
                entry["source"] = f"{short_path(frame[0])}:{frame[1]}"
                if frame[2]:
                    entry["reason"] = frame[2]
            entry["count"] = 1
            guards[text] = entry
        # Symbols the ShapeEnv made that no value mentioned: declare them too, in creation order;
        # only integer ones (torch 2.x also keeps SymFloats, zf0, ..., such as layer_norm's eps).
        var_to_val = getattr(env, "backed_var_to_val", None) or getattr(env, "var_to_val", None) or {}
        for sym in var_to_val:
            if getattr(sym, "is_integer", False):
                self.name(sym)
        replacements = {}
        raw = dict(getattr(env, "replacements", None) or {})
        for sym, expr in raw.items():
            # PyTorch chains replacements (s6 -> s1**2*s5, s1 -> 32, s5 -> 3) and resolves them
            # transitively when it uses them; write each one resolved, as that use sees it.
            for _ in range(len(raw)):
                resolved = expr.xreplace({s: e for s, e in raw.items() if s != sym})
                if resolved == expr:
                    break
                expr = resolved
            if sym not in self.names or sym == expr:
                continue
            if not all(s in self.names for s in expr.free_symbols):
                continue  # only replacements between symbols this dump declares
            try:
                replacements[self.names[sym]] = self.text(expr)
            except UnsupportedGraph:
                continue
        symbols = []
        for sym, name in self.names.items():
            if sym not in var_to_val:
                raise UnsupportedGraph(f"symbol {sym} (written {name}) has no example value in the "
                                       "ShapeEnv (data-dependent sizes are not supported)")
            hint = int(var_to_val[sym])
            entry = {"name": name, "hint": hint, "range": self._range(sym, hint)}
            seen = self._appearances.get(sym)
            if seen:
                entry["sources"] = seen["size"] or seen["stride"]
            symbols.append(entry)
        options = {"duck_sizing": bool(getattr(env, "duck_shape", True)),
                   "specialize_zero_one": bool(getattr(env, "specialize_zero_one", True))}
        return {"options": options, "symbols": symbols, "replacements": replacements,
                "guards": list(guards.values())}
