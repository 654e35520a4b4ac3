"""Capturing graphs from PyTorch: make_fx, AOT autograd, and a torch.compile backend.

Each entry point traces, runs the model once on the real example inputs so the dump carries
PyTorch's own inputs and results for every graph, and writes one dump.
"""
import inspect
import warnings

import torch
from torch import nn

from . import guard_stacks
from .graph import flatten
from .partition import PartitionUnavailable, derive, num_user_outputs
from .tensors import record
from .writer import DumpWriter, _as_tuple, export_graph_module, run_recording


# ---- make_fx --------------------------------------------------------------------------------

def _functional_call():
    if hasattr(torch, "func") and hasattr(torch.func, "functional_call"):
        return torch.func.functional_call  # torch 2.x
    from torch.nn.utils.stateless import functional_call  # torch 1.13
    return functional_call


def capture_make_fx(fn, example_inputs, path, tracing_mode="real", *, outputs=True, inline_limit=64,
                    producer=None, graph_name="forward"):
    """make_fx(fn, tracing_mode)(*example_inputs), exported with the real inputs and outputs.

    An nn.Module is traced as a function of its parameters and buffers followed by its inputs
    (functional_call), under no_grad (an inference graph, without autograd's `detach` nodes):
    torch 1.13's fake and symbolic modes refuse real parameters captured as constants, and
    leading parameter placeholders match AOT's primals. The summary's "attributes" and each
    such placeholder's meta.module say which parameter it is.
    """
    from torch.fx.experimental.proxy_tensor import make_fx
    inputs = _as_tuple(example_inputs)
    param_names = None
    if isinstance(fn, nn.Module):
        module = fn
        state = list(module.named_parameters()) + list(module.named_buffers())
        names = [name for name, _ in state]
        n = len(state)
        call = _functional_call()

        def fn(*flat):
            return call(module, dict(zip(names, flat[:n])), tuple(flat[n:]))

        with torch.no_grad(), guard_stacks.recording():
            gm = make_fx(fn, tracing_mode=tracing_mode)(*[t for _, t in state], *inputs)
        placeholders = [node.name for node in gm.graph.nodes if node.op == "placeholder"]
        param_names = dict(zip(placeholders[:n], names))
        inputs = tuple(t for _, t in state) + inputs
    else:
        with guard_stacks.recording():
            gm = make_fx(fn, tracing_mode=tracing_mode)(*inputs)
    prod = {"mode": tracing_mode}
    prod.update(producer or {})
    return export_graph_module(gm, path, inputs, graph_name=graph_name, outputs=outputs,
                               inline_limit=inline_limit, producer=prod, param_names=param_names,
                               real_offsets=tracing_mode == "real")


# ---- AOT autograd ---------------------------------------------------------------------------

def _aot_api():
    """(aot_function, aot_module, default_partition), wherever this torch keeps them."""
    try:
        from functorch.compile import aot_function, aot_module, default_partition
    except ImportError:
        from torch._functorch.aot_autograd import aot_function, aot_module
        from torch._functorch.partitioners import default_partition
    return aot_function, aot_module, default_partition


class AotRecorder:
    """Compilers and a partitioner for AOT autograd that record what they are given.

    fw/bw compilers keep the graph module and return a boxed wrapper that runs it (so training
    still works) and records the real inputs and outputs of its first call; the partitioner
    keeps the joint graph and delegates to default_partition. Once all three graphs are there,
    `partition_section()` derives the dump's partition section from them (partition.py).
    """

    def __init__(self, partitioner="default"):
        self.gms = {}       # "forward" / "backward" / "joint" -> GraphModule
        self.inputs = {}    # stage -> [TensorRecord or raw non-tensor value]
        self.outputs = {}   # stage -> [TensorRecord or None]
        self.real_vals = {} # stage -> {node name: (target, val)} from the recorded run
        self.joint_counts = None  # (primals, tangents) of the joint graph
        self.on_record = None     # called with the stage after a first call was recorded
        self.partitioner = partitioner  # the partition section's name for the partition_fn used
        self.num_fwd_outputs = None     # joint outputs that are the forward's (AOT's num_fwd_outputs)
        self.num_outputs = None         # the model's flat outputs, when the caller knows them
        self._fw_versions = None        # [(forward input tensor, its version after the first run)]
        self._partition = None          # (section, None) or (None, why not), once derived
        self._warned = False

    def compiler(self, stage):
        def compile_graph(gm, example_inputs):
            self.gms[stage] = gm
            first = [True]

            def run(args):
                if not first[0]:
                    return gm(*args)
                first[0] = False
                args = list(args)  # the runtime may clear the boxed list to free memory
                # Forward inputs may be mutated in place later (buffers): snapshot them.
                self.inputs[stage] = [record(a, f"{stage} input {i}", snapshot=(stage == "forward")) or a
                                      for i, a in enumerate(args)]
                # The first call runs under an Interpreter to note real layouts (see run_recording);
                # it returns the output node's list, which is what gm(*args) returns here too.
                out, flat, self.real_vals[stage] = run_recording(gm, args, grad=torch.is_grad_enabled())
                if stage == "forward":
                    # AOT copies mutated inputs' new values back after the forward (torch 2.x):
                    # versions bumped after this point say which inputs those are (_mutated).
                    self._fw_versions = [(a, _version(a)) if isinstance(a, torch.Tensor) else None for a in args]
                self.outputs[stage] = [record(v, f"{stage} output {i}") for i, v in enumerate(flat)]
                if self.on_record is not None:
                    self.on_record(stage)
                return out

            run._boxed_call = True
            return run
        return compile_graph

    def partition(self, default_partition):
        def partition_fn(joint_module, joint_inputs, **kwargs):
            self.gms["joint"] = joint_module
            try:
                self.joint_counts = (len(joint_inputs[0]), len(joint_inputs[1]))
            except (TypeError, IndexError):
                self.joint_counts = None
            # torch 2.x tells the partitioner; torch 1.13's reads the joint's output spec.
            self.num_fwd_outputs = kwargs.get("num_fwd_outputs")
            if self.num_fwd_outputs is None:
                try:
                    self.num_fwd_outputs = joint_module._out_spec.children_specs[0].num_leaves
                except (AttributeError, IndexError, TypeError):
                    self.num_fwd_outputs = None
            return default_partition(joint_module, joint_inputs, **kwargs)
        return partition_fn

    def _mutated(self):
        """Forward inputs whose version moved after the forward's first run: AOT copied new
        values into them (mutations the graph returns instead of doing)."""
        return [i for i, e in enumerate(self._fw_versions or ()) if e is not None and _version(e[0]) > e[1]]

    def partition_section(self):
        """(section, None) once forward, backward and joint are recorded and line up; (None, why)
        when they do not; (None, None) while a graph is missing. Derived once: inputs mutated
        later (an optimizer step) must not count as mutated by the forward."""
        if self._partition is None:
            if not all(k in self.gms for k in ("forward", "backward", "joint")) or "backward" not in self.outputs:
                return None, None
            try:
                section = derive(self.gms["forward"], self.gms["backward"], self.gms["joint"],
                                 names=("joint", "forward", "backward"), partitioner=self.partitioner,
                                 joint_counts=self.joint_counts, num_fwd_outputs=self.num_fwd_outputs,
                                 num_outputs=self.num_outputs, mutated=self._mutated(),
                                 forward_outputs=self.outputs.get("forward"))
                self._partition = (section, None)
            except PartitionUnavailable as e:
                self._partition = (None, str(e))
            self._fw_versions = None  # done with the inputs' versions
        return self._partition

    def joint_io(self):
        """(inputs, outputs) for the joint graph, from the forward's and backward's records.

        inputs = forward primals + the backward's trailing tangents; outputs = the forward's
        first k outputs (the joint's forward results) + the backward's (the gradients), which is
        exactly what the joint graph computes, without running it again.
        """
        if "forward" not in self.inputs or "backward" not in self.inputs or "joint" not in self.gms:
            return None, None
        fw_in, bw_in = self.inputs["forward"], self.inputs["backward"]
        joint_ph = [n for n in self.gms["joint"].graph.nodes if n.op == "placeholder"]
        n_tangents = self.joint_counts[1] if self.joint_counts else len(joint_ph) - len(fw_in)
        if len(fw_in) + n_tangents != len(joint_ph) or n_tangents > len(bw_in):
            return None, None
        inputs = list(fw_in) + list(bw_in[len(bw_in) - n_tangents:])
        outputs = None
        fw_out, bw_out = self.outputs.get("forward"), self.outputs.get("backward")
        out_node = [n for n in self.gms["joint"].graph.nodes if n.op == "output"][0]
        n_joint_out = len(flatten(out_node.args[0]))
        if fw_out is not None and bw_out is not None:
            k = n_joint_out - len(bw_out)
            if 0 <= k <= len(fw_out):
                outputs = list(fw_out[:k]) + list(bw_out)
        return inputs, outputs

    def add_to(self, writer, suffix="", joint=True, outputs=True, partition=True):
        """Add the recorded graphs to `writer` as forward/backward/joint (+ suffix), and with
        `partition` (and the joint graph) their partition section. Returns True when it set the
        section; when the graphs do not line up it warns once and writes none."""
        for stage in ("forward", "backward"):
            if stage in self.gms:
                writer.add_graph(stage + suffix, self.gms[stage], self.inputs.get(stage),
                                 self.outputs.get(stage) if outputs else None, stage=stage, snapshot=False,
                                 real_vals=self.real_vals.get(stage))
        if joint and "joint" in self.gms:
            inputs, outs = self.joint_io()
            # The partitioner copies joint nodes into forward/backward under the same names, so
            # their real layouts serve the joint too (checked against the node's target).
            vals = dict(self.real_vals.get("backward", {}))
            vals.update(self.real_vals.get("forward", {}))
            writer.add_graph("joint" + suffix, self.gms["joint"], inputs, outs if outputs else None,
                             stage="joint", snapshot=False, real_vals=vals)
            if partition:
                section, why = self.partition_section()
                if section is not None:
                    writer.set_partition(dict(section, joint="joint" + suffix, forward="forward" + suffix,
                                              backward="backward" + suffix))
                    return True
                if why is not None and not self._warned:
                    self._warned = True
                    warnings.warn(f"fathom_torch: no partition section for graphs forward{suffix}/backward{suffix} "
                                  f"(fathom run --backend aot_eager and the training-step check need it): {why}",
                                  stacklevel=2)
        return False


def _version(t):
    try:
        return t._version
    except RuntimeError:  # inference tensors have no version counter
        return 0


def _aot_tied_module(module, aot_function, **kwargs):
    """aot_module for a module with tied parameters (GPT-2's lm_head and token embedding): each
    name is its own primal, as torch 1.13's aot_module makes it. torch 2.x's aot_module passes a
    traced value per name to functional_call, which refuses different values for tied names
    ("got multiple values for keys ... which are tied"); tie_weights=False takes them as given."""
    call = _functional_call()
    untie = {"tie_weights": False} if "tie_weights" in inspect.signature(call).parameters else {}

    def functional(params, buffers, *args):
        return call(module, {**params, **buffers}, args, **untie)

    params, buffers = _named_with_duplicates(module, "_parameters"), _named_with_duplicates(module, "_buffers")
    if "num_params_buffers" in inspect.signature(aot_function).parameters:  # torch 2.x, as its aot_module
        kwargs = dict(kwargs, num_params_buffers=len(params) + len(buffers))
    compiled = aot_function(functional, **kwargs)
    return lambda *args: compiled(params, buffers, *args)


def _named_with_duplicates(module, kind):
    """{name: tensor} of every parameter (kind "_parameters") or buffer ("_buffers") under every
    name it has: named_parameters(remove_duplicate=False), which torch 1.13 does not have."""
    out = {}
    for prefix, mod in module.named_modules(remove_duplicate=False):
        for name, t in getattr(mod, kind).items():
            if t is not None:
                out[f"{prefix}.{name}" if prefix else name] = t
    return out


def _has_tied_parameters(module):
    return len(_named_with_duplicates(module, "_parameters")) > len(list(module.named_parameters()))


def _tangents(tensors, kind, seed):
    if kind == "ones":
        return [torch.ones_like(t) for t in tensors]
    if kind == "randn":
        gen = torch.Generator().manual_seed(seed)
        return [torch.randn(t.shape, generator=gen, dtype=t.dtype).to(t.device) for t in tensors]
    raise ValueError(f"tangents must be 'ones' or 'randn', not {kind!r}")


def capture_aot(fn_or_module, example_inputs, path, *, joint=True, tangents="ones", seed=0, outputs=True,
                inline_limit=64, producer=None, decompositions=None):
    """AOT-autograd `fn_or_module`, run forward and backward once on `example_inputs`, and write
    one dump with graphs "forward", "backward" and (joint=True) "joint", each with the real
    inputs and outputs of that run. Backward runs on the outputs that require grad with
    tangents of ones (or seeded randn). With the joint graph the dump also gets the partition
    section (how the joint was split; a warning and none when the graphs do not line up).
    Returns the path (ExportResult, with .summary)."""
    aot_function, aot_module, default_partition = _aot_api()
    rec = AotRecorder()
    kwargs = dict(fw_compiler=rec.compiler("forward"), bw_compiler=rec.compiler("backward"),
                  partition_fn=rec.partition(default_partition))
    if decompositions is not None:
        kwargs["decompositions"] = decompositions
    inputs = _as_tuple(example_inputs)
    if isinstance(fn_or_module, nn.Module) and _has_tied_parameters(fn_or_module):
        compiled = _aot_tied_module(fn_or_module, aot_function, **kwargs)
    elif isinstance(fn_or_module, nn.Module):
        compiled = aot_module(fn_or_module, **kwargs)
    else:
        compiled = aot_function(fn_or_module, **kwargs)
    with torch.enable_grad():
        out = compiled(*inputs)
        rec.num_outputs = num_user_outputs(out)
        diff = [t for t in flatten(out) if isinstance(t, torch.Tensor) and t.requires_grad]
        if diff:
            torch.autograd.backward(diff, _tangents(diff, tangents, seed))
    prod = {"mode": "aot"}
    prod.update(producer or {})
    writer = DumpWriter(producer=prod, inline_limit=inline_limit, guard_stage="aot")
    rec.add_to(writer, joint=joint, outputs=outputs)
    return writer.save(path)


# ---- torch.compile --------------------------------------------------------------------------

def add_recorders(writer, recorders, *, joint=True, outputs=True):
    """Each recorder's graphs, suffixed _1, _2, ... after the first; the dump's one partition
    section is the first recorder's that has one (a graph without a backward has none)."""
    want_partition = True
    for i, rec in enumerate(recorders):
        if rec.add_to(writer, suffix="" if i == 0 else f"_{i}", joint=joint, outputs=outputs, partition=want_partition):
            want_partition = False


def backend(path, *, joint=True, outputs=True, inline_limit=64, producer=None):
    """A torch.compile backend (torch 2.x) that dumps the ATen graphs it is given to `path`:
    torch.compile(model, backend=fathom_torch.backend("model.fathom.json")).

    Every graph Dynamo hands over goes through AOT autograd; its forward/backward/joint graphs
    (suffixed _1, _2, ... after the first Dynamo graph) are rewritten into the dump each time a
    graph runs for the first time, with that run's real inputs and outputs. The dump's partition
    section is the first Dynamo graph's that has a backward (add_recorders).
    """
    if not hasattr(torch, "compile"):
        raise RuntimeError(f"fathom_torch.backend: torch.compile needs torch 2.0 or newer (this is torch "
                           f"{torch.__version__}); use fathom_torch.capture_aot or capture_make_fx instead")
    from torch._dynamo.backends.common import aot_autograd
    _, _, default_partition = _aot_api()
    recorders = []

    def save(_stage=None):
        prod = {"mode": "torch.compile"}
        prod.update(producer or {})
        writer = DumpWriter(producer=prod, inline_limit=inline_limit, guard_stage="compile")
        add_recorders(writer, recorders, joint=joint, outputs=outputs)
        if writer.graph_names:
            writer.save(path)

    def fathom_backend(gm, example_inputs):
        rec = AotRecorder()
        rec.on_record = save
        out_node = next((n for n in gm.graph.nodes if n.op == "output"), None)
        if out_node is not None and out_node.args:
            rec.num_outputs = num_user_outputs(out_node.args[0])
        recorders.append(rec)
        inner = aot_autograd(fw_compiler=rec.compiler("forward"), bw_compiler=rec.compiler("backward"),
                             partition_fn=rec.partition(default_partition))
        return inner(gm, example_inputs)

    return fathom_backend
