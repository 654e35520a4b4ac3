"""The dump's "partition" section: how AOT autograd split the joint graph, read off its graphs.

The section is what `fathom trace --aot` writes (engine/graph/PartitionInfo.h,
engine/dump/PartitionJson.cpp):

    forward(primals...)              -> [mutated inputs' new values..., outputs..., saved...]
    backward(saved..., tangents...)  -> [one gradient (or None) per primal]

PyTorch's partitioners build exactly these two graphs but say nothing about the split, so it is
derived from the graphs themselves: the saved values are the backward's placeholders before its
tangents, which the forward returns last under the same names (tensors, then SymInts; torch 2.x's
backward takes the SymInts first, and Fathom binds them by name); the forward outputs before them are the joint graph's forward outputs (AOT's
`num_fwd_outputs`); the leading ones among those are the new values of inputs mutated outside
the graph (torch 2.x copies them back after the forward; torch 1.13 keeps mutations in the
graph); each backward output is the gradient of the joint primal at its position. Fathom runs
the two graphs positionally (saved values by name) (`fathom run --backend aot_eager`, `fathom check`), so every count
and name is checked, and anything that does not line up raises PartitionUnavailable, naming what.
"""
import torch
import torch.fx
import torch.utils._pytree as pytree

from .graph import flatten
from .symbolic import sym_info


class PartitionUnavailable(Exception):
    """The graphs do not line up as a forward/backward split Fathom can run; the message says why."""


def _placeholders(gm):
    return [n.name for n in gm.graph.nodes if n.op == "placeholder"]


def _returned(gm):
    out = next(n for n in gm.graph.nodes if n.op == "output")
    return flatten(out.args[0]) if out.args else []


def _name(v):
    return v.name if isinstance(v, torch.fx.Node) else None


def _hint(d):
    if type(d) is int:
        return d
    info = sym_info(d)
    if info is not None:
        node = getattr(d, "node", None)
        hint = getattr(node, "hint", None)
        if hint is not None:
            return int(hint)
        expr, env = info
        if env is not None and hasattr(env, "size_hint"):
            return int(env.size_hint(expr))
        if expr.is_Integer:
            return int(expr)
    return int(d)


def _meta_bytes(node):
    """Bytes of a forward node's value under the symbols' hints (a SymInt counts 8), from its
    trace meta; None when the trace recorded nothing usable."""
    v = node.meta.get("val")
    if v is None:
        v = node.meta.get("tensor_meta")
    if v is None:
        return None
    if type(v) is int or sym_info(v) is not None:
        return 8
    shape, dtype = getattr(v, "shape", None), getattr(v, "dtype", None)
    if shape is None or not isinstance(dtype, torch.dtype):
        return None
    n = torch.empty((), dtype=dtype).element_size()
    for d in shape:
        n *= _hint(d)
    return n


def num_user_outputs(value):
    """How many values AOT autograd flattens `value` (a model's result) into."""
    return len(pytree.tree_flatten(value)[0])


def derive(forward, backward, joint, *, names, partitioner="default", joint_counts=None,
           num_fwd_outputs=None, num_outputs=None, mutated=(), forward_outputs=None):
    """The partition section (a dict in the dump's key order, saved values without their meta,
    which DumpWriter adds from the forward graph's exported vals) for AOT's three graph modules.

    names: (joint, forward, backward), the graphs' names in the dump.
    joint_counts: (primals, tangents) of the joint graph's inputs, when the partitioner saw them.
    num_fwd_outputs: how many of the joint's outputs are the forward's (mutated inputs' new
      values and the model's outputs), when the partitioner was told or AOT's output spec says.
    num_outputs: how many outputs the model returned, when known.
    mutated: indices of the primals AOT copied new values into after the forward, in order.
    forward_outputs: the forward's recorded real outputs (TensorRecords), for the saved bytes.
    """
    fw_in, bw_in, joint_in = _placeholders(forward), _placeholders(backward), _placeholders(joint)
    fw_out, bw_out, joint_out = _returned(forward), _returned(backward), _returned(joint)
    if joint_counts is not None and sum(joint_counts) == len(joint_in):
        n_primals = joint_counts[0]
    else:
        n_primals = sum(1 for p in joint_in if not p.startswith("tangents"))
    primals, tangents = joint_in[:n_primals], joint_in[n_primals:]
    if primals != fw_in:
        raise PartitionUnavailable(f"the forward graph's {len(fw_in)} inputs are not the joint graph's "
                                   f"{len(primals)} primals")
    if len(bw_in) < len(tangents) or (tangents and bw_in[len(bw_in) - len(tangents):] != tangents):
        raise PartitionUnavailable(f"the backward graph's inputs do not end with the joint graph's "
                                   f"{len(tangents)} tangents")
    saved = bw_in[:len(bw_in) - len(tangents)]
    if len(saved) > len(fw_out):
        raise PartitionUnavailable(f"the backward graph takes {len(saved)} saved values but the forward "
                                   f"returns only {len(fw_out)} values")
    n_head = len(fw_out) - len(saved)
    tail = [_name(v) for v in fw_out[n_head:]]
    if sorted(filter(None, tail)) == sorted(saved) and len(set(saved)) == len(saved):
        saved = tail  # listed in the forward's order; Fathom gives each to the backward input of its name
    else:
        missing = next((s for s in saved if s not in tail), saved[0] if saved else "?")
        raise PartitionUnavailable(f"the backward's input '{missing}' is not among the forward's last "
                                   f"{len(saved)} outputs")
    constant = next((k for k, v in enumerate(fw_out[:n_head]) if _name(v) is None), None)
    if constant is not None:
        # Fathom's reader counts the forward's returned nodes, so a constant would shift the split.
        raise PartitionUnavailable(f"the forward graph's output {constant} is {fw_out[constant]!r}, not a "
                                   "node, and Fathom's reader counts only returned nodes")
    if num_fwd_outputs is not None and num_fwd_outputs != n_head:
        raise PartitionUnavailable(f"the joint graph has {num_fwd_outputs} forward outputs but the forward "
                                   f"graph returns {n_head} before its {len(saved)} saved values")
    if len(joint_out) != n_head + len(bw_out):
        raise PartitionUnavailable(f"the joint graph returns {len(joint_out)} values, not the forward's "
                                   f"{n_head} and the backward's {len(bw_out)}")
    if len(bw_out) != len(primals):
        raise PartitionUnavailable(f"the backward graph returns {len(bw_out)} gradients for "
                                   f"{len(primals)} primals")
    mutated = list(mutated)
    if num_outputs is not None and len(mutated) + num_outputs != n_head:
        raise PartitionUnavailable(f"the forward graph returns {n_head} values before its saved ones, but the "
                                   f"model has {num_outputs} outputs and {len(mutated)} mutated inputs were seen")
    if len(mutated) > n_head:
        raise PartitionUnavailable(f"{len(mutated)} mutated inputs but only {n_head} forward outputs")
    fw_nodes = {n.name: n for n in forward.graph.nodes}
    saved_info = []
    for k, name in enumerate(saved):
        rec = forward_outputs[n_head + k] if forward_outputs is not None and n_head + k < len(forward_outputs) else None
        if rec is not None and hasattr(rec, "numel"):
            nbytes = rec.numel * rec.tensor.element_size()
        else:
            nbytes = _meta_bytes(fw_nodes[name])
        if nbytes is None:
            raise PartitionUnavailable(f"saved value '{name}' has no recorded value or meta to size it")
        saved_info.append({"name": name, "bytes": int(nbytes)})
    return {
        "partitioner": partitioner,
        "joint": names[0], "forward": names[1], "backward": names[2],
        "mutated_inputs": [fw_in[i] for i in mutated],
        "forward_outputs": n_head - len(mutated),
        "grad_inputs": [primals[i] if isinstance(v, torch.fx.Node) else "" for i, v in enumerate(bw_out)],
        "saved": saved_info,
    }
