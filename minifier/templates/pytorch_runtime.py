
# ---- Below: the same in every exported script --------------------------------------------------


class SetupError(Exception):
    """Not the failure: something this script needs is missing (exit 2)."""


def strided(values, dtype, sizes, strides, offset):
    """A tensor with exactly this layout (sizes, strides, storage offset) whose elements, in
    row-major order, are `values` (a list, or a flat tensor read from the data file)."""
    flat = values if isinstance(values, torch.Tensor) else torch.tensor(values, dtype=dtype)
    index = torch.tensor(offset, dtype=torch.int64)
    for size, stride in zip(sizes, strides):
        index = index.unsqueeze(-1) + torch.arange(size, dtype=torch.int64) * stride
    index = index.reshape(-1)
    storage = torch.zeros(int(index.max()) + 1 if index.numel() else offset, dtype=dtype)
    storage[index] = flat.reshape(-1)  # overlapping layouts write equal values twice
    return storage.as_strided(sizes, strides, offset)


_data = None


def from_file(byte_offset, dtype, sizes, strides, offset):
    """Like strided(), with the values read from DATA_FILE (raw little-endian, row-major)."""
    global _data
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), DATA_FILE)
    if _data is None:
        try:
            with open(path, "rb") as f:
                _data = f.read()
        except OSError as e:
            raise SetupError(f"cannot read the data file {path}: {e.strerror}") from None
    count = math.prod(sizes)
    size = count * torch.empty((), dtype=dtype).element_size()
    chunk = _data[byte_offset:byte_offset + size]
    if len(chunk) != size:
        raise SetupError(f"the data file {path} ends before the {size} bytes at offset {byte_offset}")
    flat = torch.frombuffer(bytearray(chunk), dtype=dtype) if count else torch.empty(0, dtype=dtype)
    return strided(flat, dtype, sizes, strides, offset)


# The operator functions an FX graph records for arithmetic on sizes and numbers. Not the rest of
# the module: attrgetter, methodcaller or call would let a graph from someone else reach any
# Python object (os.system included) through its op names and string arguments.
OPERATORS = {"add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "neg", "pos", "abs", "eq", "ne", "lt",
             "le", "gt", "ge", "and_", "or_", "xor", "not_", "invert", "lshift", "rshift", "getitem"}


def resolve(name):
    """The callable for a Fathom op name: torch.ops.NS.OP.OVERLOAD (an operator, nothing else
    reachable from torch.ops), operator.F for the arithmetic F above, or getitem."""
    if name == "getitem":
        return operator.getitem
    namespace, _, rest = name.partition(".")
    if namespace == "operator":
        if rest not in OPERATORS:
            raise SetupError(f"{name} is not an operator this script calls (only {', '.join(sorted(OPERATORS))})")
        return getattr(operator, rest)
    packet_name, _, overload = rest.rpartition(".")
    try:
        packet = getattr(getattr(torch.ops, namespace), packet_name)
    except (AttributeError, RuntimeError):
        raise SetupError(f"torch {torch.__version__} has no op {namespace}::{packet_name}") from None
    # aten.sym_size is .default in torch 1.13 and .int in 2.x: either spelling finds it.
    for candidate in (overload, {"default": "int", "int": "default"}.get(overload)):
        if candidate and hasattr(packet, candidate):
            found = getattr(packet, candidate)
            # Only attributes are read on the way (no call), and only an operator is called: not
            # torch.ops.load_library or another object a crafted name reaches.
            if not isinstance(found, torch._ops.OpOverload):
                raise SetupError(f"{name} is not an op of torch {torch.__version__}")
            return found
    raise SetupError(f"torch {torch.__version__} has no overload {name}")


def first_line(error):
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"


def shown(kind, detail):
    print(f"FATHOM-REPRO: {kind}: {detail}")
    return 1


def not_shown(detail):
    print(f"not reproduced with torch {torch.__version__}: {detail}")
    return 0


class Runner:
    """Runs the graph; `current` is the node running, for messages."""

    def __init__(self, ops):
        self.ops, self.current = ops, "making the inputs"

    def call(self, name, op, *args, **kwargs):
        self.current = f"%{name} = {op}"
        return self.ops[op](*args, **kwargs)

    def run(self, inputs=None):
        return graph(self.call, *(make_inputs() if inputs is None else inputs))

    def error(self):
        """Runs the graph: the error it raised, or None (a SetupError is no answer: it goes on)."""
        try:
            self.run()
        except SetupError:
            raise
        except Exception as e:
            return e
        return None


def check_exception(ops, args):
    runner = Runner(ops)
    error = runner.error()
    if error is None:
        return not_shown("the graph ran without an error")
    what = f"{runner.current}: {first_line(error)}"
    if args.match and not re.search(args.match, str(error)):
        return not_shown(f"{what} (raised, but the message does not match /{args.match}/)")
    return shown("exception", what)


def to_meta(value):
    """A device="meta" tensor with `value`'s dtype, sizes, strides and storage offset."""
    if isinstance(value, torch.Tensor):
        extent = value.storage_offset() + 1 + sum((n - 1) * s for n, s in zip(value.shape, value.stride()) if n > 0)
        if value.numel() == 0:
            extent = value.storage_offset()
        base = torch.empty(extent, dtype=value.dtype, device="meta")
        return base.as_strided(value.shape, value.stride(), value.storage_offset())
    if isinstance(value, (list, tuple)):
        return type(value)(to_meta(v) for v in value)
    return value


def layout_diff(real, fake):
    """How `fake` (the meta run) differs from `real`: sizes, strides (of dimensions longer than
    one, in tensors with elements: PyTorch's significant strides), storage offset, dtype."""
    if isinstance(real, torch.Tensor):
        if not isinstance(fake, torch.Tensor):
            return f"the meta kernel gives a {type(fake).__name__}, not a tensor"
        diffs = []
        if fake.dtype != real.dtype:
            diffs.append(f"dtype {fake.dtype}, real {real.dtype}")
        if fake.shape != real.shape:
            diffs.append(f"sizes {list(fake.shape)}, real {list(real.shape)}")
        elif real.numel() > 0:
            significant = lambda t: [s for n, s in zip(t.shape, t.stride()) if n > 1]
            if significant(fake) != significant(real):
                diffs.append(f"strides {list(fake.stride())}, real {list(real.stride())}")
        if fake.storage_offset() != real.storage_offset():
            diffs.append(f"storage offset {fake.storage_offset()}, real {real.storage_offset()}")
        return "; ".join(diffs)
    if isinstance(real, (list, tuple)) and isinstance(fake, (list, tuple)):
        for i, (r, f) in enumerate(zip(real, fake)):
            diff = layout_diff(r, f)
            if diff:
                return f"output {i}: {diff}"
    return ""


def check_meta(ops, args):
    """Each node's meta kernel, on meta copies of the node's real inputs, against its real run:
    every difference found is at its origin (the inputs matched by construction)."""
    found, no_meta = [], []

    def call(name, op, *a, **kw):
        fn = ops[op]
        fake = None
        try:
            fake = fn(*to_meta(a), **{k: to_meta(v) for k, v in kw.items()})
        except Exception:  # no meta kernel in this torch: nothing to compare
            no_meta.append(name)
        real = fn(*a, **kw)
        diff = layout_diff(real, fake) if fake is not None else ""
        if diff:
            found.append(f"%{name} = {op}: {diff}")
        return real

    try:
        graph(call, *make_inputs())
    except SetupError:
        raise
    except Exception as e:
        if not found:
            return not_shown(f"the real run raised before every node was checked ({first_line(e)})")
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        return shown("meta", found[0] + more)
    skipped = f" ({len(no_meta)} nodes have no meta kernel: %{', %'.join(no_meta[:5])})" if no_meta else ""
    return not_shown("every node's meta kernel agrees with its real run" + skipped)


def flatten(value):
    if isinstance(value, (list, tuple)):
        return [x for v in value for x in flatten(v)]
    return [value]


def upcast(value):
    if isinstance(value, torch.Tensor) and value.is_floating_point():
        return value.to(torch.float64)
    return value


def rmse(a, b):
    return (a - b).pow(2).mean().sqrt().item() if a.numel() else 0.0


def non_finite_note(inputs):
    """A note naming the floating inputs that hold NaN or Inf (Fathom's accuracy predicate takes
    such inputs only when allowed), or ""."""
    which = [str(i) for i, t in enumerate(inputs)
             if isinstance(t, torch.Tensor) and t.is_floating_point() and not bool(t.isfinite().all())]
    return f" (note: input {', '.join(which)} holds NaN or Inf, which Fathom's accuracy predicate takes only when allowed)" if which else ""


def check_accuracy(ops, args):
    """Fathom's accuracy rule, PyTorch's own (torch._dynamo's same() with a float64 reference):
    there an output fails when rmse(compiled, float64) > 2 * rmse(eager, float64) + tol / 10.
    Here the run IS eager, so the float64 rerun's result rounded to the output's dtype (a
    correctly rounded result) stands in for eager: an output fails when
    rmse(run, float64) > 2 * rmse(float64 rounded, float64) + tol / 10 (NaN in either fails).
    A float64 rerun that raises is a setup problem: there is no second run to fall back to."""
    note = non_finite_note(make_inputs())
    try:
        out = flatten(Runner(ops).run())
    except SetupError:
        raise
    except Exception as e:
        return not_shown(f"the graph raised ({first_line(e)}), so there is nothing to compare{note}")
    try:
        ref = flatten(Runner(ops).run([upcast(t) for t in make_inputs()]))
    except SetupError:
        raise
    except Exception as e:
        raise SetupError(f"the float64 reference run raised ({first_line(e)})") from None
    for i, (o, r) in enumerate(zip(out, ref)):
        if not (isinstance(o, torch.Tensor) and o.is_floating_point() and isinstance(r, torch.Tensor)):
            continue
        o64, r64 = o.to(torch.float64), r.to(torch.float64)
        if o64.shape != r64.shape:
            return shown("accuracy", f"output {i}: sizes {list(o64.shape)}, float64 reference {list(r64.shape)}{note}")
        error, rounding = rmse(o64, r64), rmse(r64.to(o.dtype).to(torch.float64), r64)
        allowed = 2 * rounding + args.tol / 10
        if not error <= allowed:
            return shown("accuracy", f"output {i}: rmse {error:.3g} against a float64 rerun, more than twice a correctly "
                                     f"rounded {o.dtype}'s rmse + tol / 10 = 2 * {rounding:.3g} + {args.tol / 10:g} = {allowed:.3g}{note}")
    return not_shown(f"every floating output's rmse against a float64 rerun is within twice a correctly rounded "
                     f"result's + {args.tol / 10:g}{note}")


def check_in_child(kind):
    def check(ops, args):
        command = [sys.executable, os.path.abspath(__file__), "--check", "run"]
        try:
            done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=args.seconds)
        except subprocess.TimeoutExpired:
            if kind == "timeout":
                return shown("timeout", f"the graph did not finish within {args.seconds:g} s")
            return not_shown(f"the graph did not finish within {args.seconds:g} s (no crash seen)")
        if done.returncode < 0:
            name = signal.Signals(-done.returncode).name if -done.returncode in signal.valid_signals() else str(-done.returncode)
            if kind == "crash":
                return shown("crash", f"the run was killed by {name}")
            return not_shown(f"the run was killed by {name} (it did not hang)")
        return not_shown(f"the run ended normally in a child process (exit status {done.returncode})")
    return check


def run_only(ops, args):
    """The child of the crash and timeout checks: one run; an error is not a crash."""
    runner = Runner(ops)
    error = runner.error()
    if error is not None:
        print(f"{runner.current}: {first_line(error)}")
    return 0


CHECKS = {"exception": check_exception, "meta": check_meta, "accuracy": check_accuracy,
          "crash": check_in_child("crash"), "timeout": check_in_child("timeout"), "run": run_only}


def main():
    parser = argparse.ArgumentParser(description="A Fathom repro: does PyTorch show the failure? "
                                     "Exit 1 (and a FATHOM-REPRO line) when it does, 0 when not, 2 on setup problems.")
    parser.add_argument("--check", choices=sorted(CHECKS), default=DEFAULT_CHECK,
                        help=f"the property to check (default: {DEFAULT_CHECK})")
    parser.add_argument("--tol", type=float, default=DEFAULT_TOL, help="accuracy: the tolerance")
    parser.add_argument("--seconds", type=float, default=DEFAULT_SECONDS, help="crash, timeout: the time limit")
    parser.add_argument("--match", help="exception: only an error whose message matches this regex counts")
    args = parser.parse_args()
    try:
        ops = {name: resolve(name) for name in OPS}
        return CHECKS[args.check](ops, args)
    except SetupError as e:
        print(f"fathom repro: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
