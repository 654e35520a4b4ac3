"""The PyTorch oracle's case API: build inputs in chosen layouts, run one ATen op in PyTorch, and
record what PyTorch returned (sizes, strides, storage offset, dtype, values) or the error it
raised, as one JSON line the C++ test (tests/engine/oracle/OracleTest.cpp) replays through
Fathom's dump reader and interpreter.

A case file (tests/oracle/cases/NAME.py) defines `cases(c)`, which calls c.op(...) once per case;
its fixture is tests/oracle/fixtures/NAME.jsonl. Inputs are deterministic (seeded by the case's
id) and use values exact in every dtype (multiples of 1/8), so the fixture text is the same on
every run and `generate.py --check` can tell whether the committed fixtures are current.
"""
import math
import re
import zlib

import torch

DTYPE_NAMES = {
    torch.float32: "float32", torch.float64: "float64", torch.float16: "float16",
    torch.bfloat16: "bfloat16", torch.int64: "int64", torch.int32: "int32", torch.int16: "int16",
    torch.int8: "int8", torch.uint8: "uint8", torch.bool: "bool",
}
MEMORY_FORMATS = {
    torch.contiguous_format: "contiguous_format", torch.channels_last: "channels_last",
    torch.preserve_format: "preserve_format",
}
FLOATING = (torch.float32, torch.float64, torch.float16, torch.bfloat16)

# Gradient records (see Cases._grad_text): float32/float64 cases of at most GRAD_MAX_ELEMENTS input
# elements, the first GRAD_CASES_PER_OP of each op - enough to cover layouts and arguments while
# keeping the committed fixtures small.
GRAD_DTYPES = (torch.float32, torch.float64)
GRAD_MAX_ELEMENTS = 256
GRAD_CASES_PER_OP = 12
# Ops whose PyTorch 1.13 gradient is not recorded: as_strided_scatter's backward leaves part of
# self's gradient uninitialized (values like 4.9e-39 that change run to run), which would make
# the fixture differ on every generation. Fathom's formula is checked by finite differences.
NO_GRAD_RECORD = {"aten.as_strided_scatter.default"}

# Layouts an input can come in (see Cases.t). "expanded" and "sliced" work for any rank >= 1,
# "transposed" for rank >= 2, "permuted" for rank >= 3 (rank 2 permuted is transposed),
# "channels_last" for rank 4, "channels_last_3d" for rank 5.
LAYOUTS = ("contiguous", "transposed", "permuted", "expanded", "sliced", "channels_last", "channels_last_3d")


def layouts_for(rank, kinds=LAYOUTS):
    """The layouts of `kinds` that make sense for a tensor of this rank."""
    ok = {"contiguous": True, "transposed": rank >= 2, "permuted": rank >= 3,
          "expanded": rank >= 1, "sliced": rank >= 1, "channels_last": rank == 4,
          "channels_last_3d": rank == 5}
    return [k for k in kinds if ok[k]]


def _float_text(x, dtype):
    if math.isnan(x):
        return '{"float":"nan"}'
    if math.isinf(x):
        return '{"float":"inf"}' if x > 0 else '{"float":"-inf"}'
    if dtype == torch.float64:
        text = repr(float(x))
    else:  # the shortest text that reads back as the same float32 (f16/bf16 values are exact in it)
        import numpy
        text = str(numpy.float32(x))
    if "e" not in text and "." not in text and "inf" not in text and "nan" not in text:
        text += ".0"
    return text


def _encode(v):
    """JSON text of an op argument in the dump's argument encoding (engine/dump/README.md)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return _float_text(v, torch.float64)
    if isinstance(v, str):
        return '"' + v + '"'
    if isinstance(v, torch.dtype):
        return '{"dtype":"%s"}' % DTYPE_NAMES[v]
    if isinstance(v, torch.memory_format):
        return '{"memory_format":"%s"}' % MEMORY_FORMATS[v]
    if isinstance(v, torch.device):
        return '{"device":"%s"}' % v.type
    if isinstance(v, torch.layout):
        return '{"layout":"strided"}'
    if isinstance(v, _NodeName):
        return '{"node":"%s"}' % v.name
    if isinstance(v, (list, tuple)):
        return "[" + ",".join(_encode(x) for x in v) + "]"
    raise TypeError("cannot encode argument %r" % (v,))


class _NodeName:
    def __init__(self, name):
        self.name = name


def _values_text(t):
    flat = t.detach().reshape(-1).tolist() if t.numel() else []
    if t.dtype == torch.bool:
        return "[" + ",".join("true" if x else "false" for x in flat) + "]"
    if t.dtype in FLOATING:
        return "[" + ",".join(_float_text(x, t.dtype) for x in flat) + "]"
    return "[" + ",".join(str(int(x)) for x in flat) + "]"


def _meta_text(t, with_values):
    text = '{"dtype":"%s","sizes":%s,"strides":%s,"offset":%d' % (
        DTYPE_NAMES[t.dtype], _encode(list(t.shape)), _encode(list(t.stride())), t.storage_offset())
    if with_values:
        text += ',"data":' + _values_text(t)
    return text + "}"


def _with_tensors(args, kwargs, tensors):
    """args and kwargs with their tensors (in order, inside lists and tuples too) replaced by
    `tensors`."""
    it = iter(tensors)

    def substitute(v):
        if isinstance(v, torch.Tensor):
            return next(it)
        if isinstance(v, (list, tuple)):
            return type(v)(substitute(x) for x in v)
        return v

    return [substitute(a) for a in args], {k: substitute(v) for k, v in kwargs.items()}


def _same_layout_copy(x):
    """A copy of x with its sizes, strides and storage offset (in a fresh storage)."""
    storage = torch.zeros(x.storage_offset() + sum((n - 1) * s for n, s in zip(x.shape, x.stride())) + 1
                          if x.numel() else x.storage_offset(), dtype=x.dtype)
    return storage.as_strided(x.size(), x.stride(), x.storage_offset()).copy_(x)


class Cases:
    """Collects one family's cases. Case files call t() to make inputs and op() to record."""

    def __init__(self, family):
        self.family = family
        self.lines = []
        self.ids = set()
        self._made = 0
        self.unsupported = 0  # cases dropped: PyTorch has no CPU kernel for that dtype
        self.grad_cases = {}  # op -> number of cases with a gradient record

    # ---- inputs ------------------------------------------------------------------------
    def t(self, shape, dtype=torch.float32, layout="contiguous", lo=-4.0, hi=4.0, positive=False,
          nonzero=False, values=None):
        """A tensor of `shape` whose strides come from `layout` (see LAYOUTS), with deterministic
        values: floats are multiples of 1/8 in [lo, hi) (or (0, hi) when positive; never 0 when
        nonzero), integers uniform in [lo, hi), bools fair coins. `values` (row-major) overrides."""
        shape = list(shape)
        self._made += 1
        gen = torch.Generator().manual_seed(zlib.crc32(("%s/%d" % (self.family, self._made)).encode()))
        if layout == "expanded":  # dim 0 broadcast: stride 0
            base_shape = [1] + shape[1:] if shape else []
        elif layout == "sliced":  # every other element of a longer last dim, from row 1 of a taller dim 0
            base_shape = list(shape)
            base_shape[-1] = max(2 * shape[-1], 1)
            if len(shape) >= 2:
                base_shape[0] = shape[0] + 1
        elif layout == "transposed":
            base_shape = shape[:-2] + [shape[-1], shape[-2]]
        elif layout == "permuted":
            base_shape = shape[::-1]
        else:
            base_shape = shape
        n = 1
        for s in base_shape:
            n *= s
        if values is not None:
            base = torch.tensor(values, dtype=torch.float64).reshape(base_shape)
        elif dtype == torch.bool:
            base = torch.randint(0, 2, [n], generator=gen).reshape(base_shape)
        elif dtype in FLOATING:
            lo8, hi8 = int(lo * 8), int(hi * 8)
            if positive:
                lo8 = max(lo8, 1)
            base = torch.randint(lo8, hi8, [n], generator=gen).to(torch.float64)
            if nonzero:
                base[base == 0] = 1
            base = (base / 8).reshape(base_shape)
        else:
            base = torch.randint(int(lo), int(hi), [n], generator=gen)
            if nonzero:
                base[base == 0] = 1
            base = base.reshape(base_shape)
        base = base.to(dtype)
        if layout == "expanded":
            x = base.expand(shape)
        elif layout == "sliced":
            x = base[..., ::2] if len(shape) == 1 else base[1:, ..., ::2]
            x = x[..., : shape[-1]]
        elif layout == "transposed":
            x = base.transpose(-1, -2)
        elif layout == "permuted":
            x = base.permute(*reversed(range(len(shape))))
        elif layout == "channels_last":
            x = base.contiguous(memory_format=torch.channels_last)
        elif layout == "channels_last_3d":
            x = base.contiguous(memory_format=torch.channels_last_3d)
        elif layout == "contiguous":
            x = base
        else:
            raise ValueError("unknown layout %r" % layout)
        x.oracle_layout = layout  # names the case (see _default_id)
        return x

    def index(self, shape, high, dtype=torch.int64, layout="contiguous"):
        """An integer tensor with values in [0, high)."""
        return self.t(shape, dtype=dtype, layout=layout, lo=0, hi=high)

    # ---- cases ---------------------------------------------------------------------------
    def op(self, name, *args, case_id=None, values=True, tol=None, mutates=(), **kwargs):
        """Runs aten op `name` ("aten.add.Tensor") on args/kwargs and records one case.

        values=False records only sizes/strides/offset/dtype (random ops). tol=(rtol, atol)
        overrides the C++ test's per-dtype tolerance. `mutates` lists the indices (among this
        case's tensor inputs, in argument order) of inputs the op writes in place; their values
        after the op are recorded too."""
        _, opname, overload = name.split(".")
        fn = getattr(getattr(torch.ops.aten, opname), overload)
        inputs = []

        def name_tensors(v):
            if isinstance(v, torch.Tensor):
                inputs.append(v)
                return _NodeName("a%d" % (len(inputs) - 1))
            if isinstance(v, (list, tuple)):
                return [name_tensors(x) for x in v]
            return v

        enc_args = [name_tensors(a) for a in args]
        enc_kwargs = {k: name_tensors(v) for k, v in kwargs.items()}
        if case_id is None:
            case_id = self._default_id(name, inputs, args, kwargs)
        base_id, k = case_id, 2
        while case_id in self.ids:
            case_id = "%s#%d" % (base_id, k)
            k += 1
        self.ids.add(case_id)

        # PyTorch runs on the recorded inputs themselves (exact strides and storage offset); inputs
        # the op writes to are first copied into the same layout, so the record keeps the values before.
        copies = [_same_layout_copy(x) if i in mutates else x for i, x in enumerate(inputs)]
        run_args, run_kwargs = _with_tensors(args, kwargs, copies)
        # Copies for the gradient run, taken before the op can write to its inputs.
        grad_inputs = self._grad_inputs(name, fn, inputs, args, kwargs) if values and not mutates else None
        parts = ['"case":"%s"' % case_id, '"op":"%s"' % name, '"args":' + _encode(enc_args)]
        if enc_kwargs:
            parts.append('"kwargs":{' + ",".join('"%s":%s' % (k2, _encode(v)) for k2, v in enc_kwargs.items()) + "}")
        parts.append('"inputs":[' + ",".join(_meta_text(x, True) for x in inputs) + "]")
        try:
            torch.manual_seed(0)
            result = fn(*run_args, **run_kwargs)
        except (RuntimeError, IndexError, ValueError, TypeError) as e:
            message = str(e).strip().split("\n")[0].replace("\\", "\\\\").replace('"', '\\"')
            if "not implemented for" in message:  # a dtype PyTorch has no CPU kernel for: nothing to compare
                self.ids.discard(case_id)
                self.unsupported += 1
                return
            parts.append('"error":"%s"' % message)
        else:
            multi = isinstance(result, (tuple, list))
            outs = list(result) if multi else [result]
            parts.append('"multi":%s' % ("true" if multi else "false"))
            # A result the op leaves out (grid_sampler_2d_backward's grad_input when output_mask says so) is null.
            parts.append('"outputs":[' + ",".join("null" if o is None else _meta_text(o, values) for o in outs) + "]")
            if mutates:
                parts.append('"mutated":{' + ",".join(
                    '"%d":%s' % (i, _meta_text(copies[i], values)) for i in mutates) + "}")
            if grad_inputs is not None:
                grad = self._grad_text(name, fn, args, kwargs, grad_inputs, case_id)
                if grad:
                    parts.append(grad)
        if tol is not None:
            parts.append('"tol":' + _encode([float(tol[0]), float(tol[1])]))
        self.lines.append("{" + ",".join(parts) + "}")

    # ---- gradients ----------------------------------------------------------------------
    def _grad_inputs(self, name, fn, inputs, args, kwargs):
        """Leaf copies (same layout) of a gradient-eligible case's inputs, floating ones requiring
        grad unless the op writes to them (batch norm's running stats); None if not eligible."""
        floating = [x.dtype in FLOATING for x in inputs]
        if name in NO_GRAD_RECORD or not any(floating) or self.grad_cases.get(name, 0) >= GRAD_CASES_PER_OP:
            return None
        if any(f and x.dtype not in GRAD_DTYPES for f, x in zip(floating, inputs)):
            return None
        if sum(x.numel() for x in inputs) > GRAD_MAX_ELEMENTS:
            return None
        written = {a.name for a in fn._schema.arguments if a.alias_info is not None and a.alias_info.is_write}
        names = []  # the schema argument of each tensor input, in the order op() collected them

        def collect(v, arg_name):
            if isinstance(v, torch.Tensor):
                names.append(arg_name)
            elif isinstance(v, (list, tuple)):
                for x in v:
                    collect(x, arg_name)

        schema_args = fn._schema.arguments
        for i, a in enumerate(args):
            collect(a, schema_args[i].name if i < len(schema_args) else "")
        for k, v in kwargs.items():
            collect(v, k)
        # Fresh storage where possible (in-place ops must not touch the recorded inputs); a stride-0
        # input cannot be written as a copy, but an op never writes to one.
        leaves = [(x if 0 in x.stride() else _same_layout_copy(x)).detach() for x in inputs]
        for y, f, arg_name in zip(leaves, floating, names):
            if f and arg_name not in written:
                y.requires_grad_(True)
        return leaves, names

    def _grad_text(self, name, fn, args, kwargs, grad_inputs, case_id):
        """'"grad":{...}': PyTorch's gradients of the case's differentiable outputs, for seeded
        grad_outputs (multiples of 1/8 in [-2, 2), exact in every dtype), with respect to each
        floating input: its gradient, null when PyTorch returns none (unused), or "unsupported"
        when PyTorch has no derivative for it. None when no output is differentiable."""
        leaves, names = grad_inputs
        while True:
            run_args, run_kwargs = _with_tensors(args, kwargs, leaves)
            torch.manual_seed(0)
            try:
                result = fn(*run_args, **run_kwargs)
                break
            except RuntimeError as e:  # "... is not differentiable with respect to argument 'weight'": not asked
                m = re.search(r"not differentiable with respect to argument '(\w+)'", str(e))
                if not m or m.group(1) not in names:
                    raise
                leaves = [x.detach() if n == m.group(1) else x for x, n in zip(leaves, names)]
        outs = list(result) if isinstance(result, (tuple, list)) else [result]
        picked = [k for k, o in enumerate(outs) if isinstance(o, torch.Tensor) and o.requires_grad]
        wrt = [i for i, x in enumerate(leaves) if x.requires_grad]
        if not picked or not wrt:
            return None
        gen = torch.Generator().manual_seed(zlib.crc32(("%s/grad" % case_id).encode()))
        grad_outputs = [(torch.randint(-16, 16, list(outs[k].shape), generator=gen).to(torch.float64) / 8)
                        .to(outs[k].dtype) for k in picked]
        grads = {}
        for i in wrt:
            try:
                g = torch.autograd.grad([outs[k] for k in picked], [leaves[i]], grad_outputs, retain_graph=True,
                                        allow_unused=True)[0]
            except (RuntimeError, NotImplementedError, IndexError, ValueError) as e:
                if "not implemented" not in str(e):
                    return None  # PyTorch's backward rejects the case (out-of-range indices): nothing to compare
                grads[i] = '"unsupported"'
                continue
            grads[i] = "null" if g is None else _meta_text(g, True)
        self.grad_cases[name] = self.grad_cases.get(name, 0) + 1
        return ('"grad":{"outputs":%s,"grad_outputs":[%s],"inputs":{%s}}' % (
            _encode(picked), ",".join(_meta_text(g, True) for g in grad_outputs),
            ",".join('"%d":%s' % (i, grads[i]) for i in wrt)))

    def _default_id(self, name, inputs, args, kwargs):
        def describe(x):
            layout = getattr(x, "oracle_layout", "contiguous")
            return "%s[%s]%s" % (DTYPE_NAMES[x.dtype], "x".join(map(str, x.shape)),
                                 "" if layout == "contiguous" else ":" + layout)
        others = [repr(a) for a in args if not isinstance(a, (torch.Tensor, list, tuple))]
        others += ["%s=%r" % (k, v) for k, v in kwargs.items() if not isinstance(v, torch.Tensor)]
        return "%s/%s" % (name[len("aten."):], ",".join([describe(x) for x in inputs] + others))


# The layouts every op family sweeps: (shape, layout). Covers contiguous, transposed, permuted,
# expanded (stride 0), sliced (offset and step), channels_last, a size-0 dim, size-1 dims and
# a zero-dim tensor.
STANDARD = [
    ((3, 4), "contiguous"), ((3, 4), "transposed"), ((2, 3, 4), "permuted"), ((3, 4), "expanded"),
    ((3, 4), "sliced"), ((2, 3, 2, 3), "channels_last"), ((2, 3, 2, 3), "permuted"), ((0, 4), "contiguous"),
    ((1, 4), "contiguous"), ((4, 1), "transposed"), ((), "contiguous"),
]
