#!/usr/bin/env bash
# The `fathom` CLI on good input and on bad usage: what each subcommand prints (text and --json
# keys), known checksums of the hand-written dumps in tests/data/, and the exit codes of the
# contract (0 ok, 2 bad usage or input with one stderr line); side files outside a dump's folder
# are read only with --trust-paths. Every good dump - tests/data/*.fathom.json
# and, once they exist, samples/*.fathom.json - must pass info, show (all formats) and run.
#   usage: cli_test.sh FATHOM_BINARY SOURCE_ROOT
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" cli_test "$@"

# --- every good dump: info, show in each format, run -------------------------------------------
dumps=(tests/data/*.fathom.json)
for f in samples/*.fathom.json; do [ -f "$f" ] && dumps+=("$f"); done
mkdir "$T/show" && cp tests/data/*.fathom.bin "$T/show/"
for f in "${dumps[@]}"; do
  ok info "$f" && grep -q "graph '" "$T/out" || fail "info $f: no graph line"
  if ok info "$f" --json; then
    cp "$T/out" "$T/info.json"
    expect_jq ".file == \"$f\" and (.producer | type == \"object\") and (.graphs | length > 0)" "$T/info.json" \
      "info --json $f: file/producer/graphs"
    expect_jq '[.graphs[] | (.nodes | type == "number") and (.ops | type == "object") and (.inputs | type == "array")] | all' \
      "$T/info.json" "info --json $f: each graph has nodes, ops, inputs"
    expect_jq '[.graphs[] | ([.ops[]] | add // 0) == .calls] | all' "$T/info.json" "info --json $f: op counts add up to the calls"
    expect_jq '[.graphs[] | .inputs[] | has("name") and ((has("dtype") and has("sizes") and has("strides")) or has("symint"))] | all' \
      "$T/info.json" "info --json $f: inputs have name, dtype, sizes, strides (a size input: symint)"
  fi
  for g in $(jq -r '.graphs | keys_unsorted[]' "$T/info.json"); do
    nodes=$(jq ".graphs[\"$g\"].nodes" "$T/info.json")
    ok show "$f" --graph "$g" && [ "$(wc -l <"$T/out")" -eq "$nodes" ] || fail "show $f --graph $g: expected $nodes lines"
    ok show "$f" --graph "$g" --format dot && head -n 1 "$T/out" | grep -q '^digraph' && tail -n 1 "$T/out" | grep -q '^}$' \
      || fail "show --format dot $f --graph $g: not a digraph"
    # The JSON form is a one-graph dump: it loads again, with the same node count. It names side
    # files as its source does, so saved elsewhere they go along (copied into $T/show).
    ok show "$f" --graph "$g" --format json && cp "$T/out" "$T/show/one.fathom.json"
    ok show "$f" --graph "$g" --json && cmp -s "$T/out" "$T/show/one.fathom.json" || fail "show --json differs from --format json"
    ok info "$T/show/one.fathom.json" --json && expect_jq ".graphs | length == 1 and .[\"$g\"].nodes == $nodes" "$T/out" \
      "show --json $f --graph $g does not load back as a one-graph dump"
    # The fusion plan covers every call node once; its text is a line per kernel and the summary.
    calls=$(jq ".graphs[\"$g\"].calls" "$T/info.json")
    ok show "$f" --graph "$g" --kernels --json && expect_jq \
      "(.graph == \"$g\") and ([.kernels[].nodes[]] | length == $calls and (unique | length) == $calls) and
       .summary.kernels == (.kernels | length)" "$T/out" "show --kernels --json $f --graph $g: every call node once"
    ok show "$f" --graph "$g" --kernels && tail -n 1 "$T/out" | grep -q ' kernels: ' || fail "show --kernels $f --graph $g: no summary line"
    ok run "$f" --graph "$g" --json && expect_jq \
      "(.graph == \"$g\") and (.seconds | type == \"number\") and (.outputs | length > 0) and
       ([.outputs[] | has(\"index\") and (has(\"value\") or (has(\"dtype\") and has(\"sizes\") and has(\"strides\")
         and has(\"offset\") and has(\"sum\") and has(\"absmax\")))] | all)" "$T/out" "run --json $f --graph $g: keys"
  done
  ok run "$f" && grep -q "output 0: " "$T/out" || fail "run $f: no 'output 0:' line"
done

# --- known values ------------------------------------------------------------------------------
P=tests/data/passthrough.fathom.json
ok run "$P" --json && expect_jq '.outputs[0] | .sum == -3.5 and .absmax == 6.5 and .sizes == [2, 3] and .strides == [3, 1] and .dtype == "float32"' \
  "$T/out" "run $P: output 0 checksum"
jq -c '.outputs' "$T/out" >"$T/o1"
ok run "$P" --json && jq -c '.outputs' "$T/out" >"$T/o2"
checks=$((checks + 1)); cmp -s "$T/o1" "$T/o2" || fail "run $P twice gave different outputs"
ok run "$P" --json --seed 12345 && jq -c '.outputs' "$T/out" >"$T/o3"
expect_jq '.outputs[0].sum == -3.5' "$T/out" "run --seed changed the inline input"
checks=$((checks + 1)); cmp -s "$T/o1" "$T/o3" && fail "run --seed 12345 did not change the seeded input"
ok run "$P" --json --inputs tests/data/passthrough.inputs.json && expect_jq \
  '.outputs[0].sum == 210 and .outputs[0].strides == [1, 2] and .outputs[1].sum == -4 and .outputs[1].absmax == 7' "$T/out" "run --inputs"
ok info "$P" --json && expect_jq '.graphs.forward | .nodes == 3 and .ops == {} and (.inputs | map(.name)) == ["x", "y"] and .example_inputs[1].seed == 7' \
  "$T/out" "info --json $P: graph summary"

G=tests/data/two-graphs.fathom.json
ok info "$G" --json && expect_jq '(.graphs | keys_unsorted) == ["forward", "backward"] and .graphs.forward.ops == {"aten.relu.default": 1, "aten.t.default": 1}' \
  "$T/out" "info --json $G: graphs and ops"
ok show "$G" && grep -q 'aten.t.default(%x)' "$T/out" || fail "show $G: the first graph is not shown by default"
ok show "$G" --graph backward && grep -q 'threshold_backward' "$T/out" || fail "show $G --graph backward"
ok run "$G" --json && expect_jq '.graph == "forward" and .outputs[0].sum == 9 and .outputs[0].strides == [1, 3] and .outputs[1].sum == -3' "$T/out" "run $G"
ok run "$G" --graph backward --json && expect_jq '.outputs[0].sum == 100 and .outputs[0].absmax == 50' "$T/out" "run $G --graph backward"
ok run "$G" --memory-limit 1M
usage_error "exceed the memory limit" run "$G" --memory-limit 16
usage_error "no graph named 'nope' (the dump has: forward, backward)" show "$G" --graph nope
usage_error "no graph named 'nope'" run "$G" --graph nope

# The bundled MLP, when its dump is committed.
if [ -f samples/mlp.fathom.json ]; then
  ok info samples/mlp.fathom.json --json && expect_jq \
    '.graphs.forward.ops == {"aten.addmm.default": 3, "aten.relu.default": 2, "aten.t.default": 3}' "$T/out" "mlp ops"
  ok run samples/mlp.fathom.json --json && expect_jq '.outputs[0].sizes == [32, 10]' "$T/out" "mlp output sizes"
fi

# --- diff: two graphs node by node (engine/graph/GraphDiff.h) ---------------------------------
ok diff samples/bert.fathom.json samples/bert.fathom.json --json && expect_jq \
  '.equal and .summary.same == 84 and .summary.changed == 0 and (.nodes | length) == 0 and .a.graph == "forward"' "$T/out" \
  "diff of a dump with itself: equal"
"$FATHOM" diff samples/mlp.fathom.json tests/data/mlp-dynamic.fathom.json --json >"$T/out" 2>"$T/err"; rc=$?
checks=$((checks + 1)); [ $rc -eq 1 ] || fail "diff of two different graphs: exit $rc, expected 1"
expect_jq '(.equal | not) and .summary.changed > 0 and ([.nodes[].state] | all(. == "changed" or . == "added" or . == "removed"))' \
  "$T/out" "diff mlp vs mlp-dynamic: changed nodes"
"$FATHOM" diff samples/mlp.fathom.json tests/data/mlp-dynamic.fathom.json >"$T/out" 2>&1
grep -q "^~ %x: meta: fake(f32\[32, 784\] \[784, 1\]) -> fake(f32\[s0, 784\] \[784, 1\])" "$T/out" || fail "diff text: the symbolic input's meta line: $(head -3 "$T/out")"
# Guards: without duck sizing the two attention masks get their own symbols, and the add that
# broadcasts them raises the guards that unify them.
ok trace bert --dynamic -o "$T/duck.fathom.json" && ok trace bert --dynamic --no-duck-sizing -o "$T/noduck.fathom.json"
"$FATHOM" diff "$T/duck.fathom.json" "$T/noduck.fathom.json" >"$T/out" 2>&1
grep -q '^~ %add_2: guards: \[\] -> \[Eq(s0, s2), Eq(s1, s3)\]' "$T/out" || fail "diff: the guards a node raised: $(grep guards "$T/out" | head -2)"
usage_error "cannot open" diff nope.fathom.json samples/mlp.fathom.json
usage_error "no graph named 'nope'" diff samples/mlp.fathom.json samples/mlp.fathom.json --graph nope

# --- show --kernels: the fusion plan (engine/compile/README.md) -----------------------------------
# The MLP: t and addmm stay extern calls, each relu a pointwise kernel reading addmm's result.
ok show samples/mlp.fathom.json --kernels --json && expect_jq \
  '.graph == "forward" and .summary.pointwise == 2 and .summary.extern == 6 and
   ([.kernels[] | select(.kind == "pointwise") | .nodes] == [["relu"], ["relu_1"]]) and
   (.kernels[] | select(.nodes == ["relu"]) | .inputs == ["addmm"] and .outputs == ["relu"] and .sizes == [32, 256])' \
  "$T/out" "show --kernels --json mlp: the plan"
# BERT: softmax and the two layer norms are row-local kernels; pointwise ops fuse.
ok show samples/bert.fathom.json --kernels --json && expect_jq \
  '.summary.row_local == 3 and .summary.pointwise_ops > .summary.pointwise and
   ([.kernels[] | select(.kind == "row-local") | .nodes[0]] == ["_softmax", "native_layer_norm", "native_layer_norm_1"])' \
  "$T/out" "show --kernels --json bert: row-local kernels and fusion"
ok show samples/bert.fathom.json --kernels && grep -Eq '^row-local_[0-9]+ +row-local +1 node +_softmax +\[2, 12, 16, 16\]  -> llvm$' "$T/out" \
  || fail "show --kernels bert: the softmax line"
# A symbolic dump: sizes are expressions.
ok show tests/data/mlp-dynamic.fathom.json --kernels --json && expect_jq '[.kernels[].sizes[]] | any(. == "s0")' "$T/out" \
  "show --kernels --json mlp-dynamic: symbolic sizes"
usage_error "no graph named 'nope'" show samples/mlp.fathom.json --kernels --graph nope
usage_error "show --kernels prints text or JSON, not dot" show samples/mlp.fathom.json --kernels --format dot
ok show --help && grep -q -- '--kernels' "$T/out" || fail "show --help: --kernels missing"

# --- sample --------------------------------------------------------------------------------------
ok sample --list && grep -q '^mlp ' "$T/out" || fail "sample --list: no mlp"
ok sample --list --json && expect_jq '[.samples[].name] | index("mlp") != null' "$T/out" "sample --list --json"
ok sample mlp -o "$T/mlp.fathom.json" && ok info "$T/mlp.fathom.json"
usage_error "already exists; pass --force" sample mlp -o "$T/mlp.fathom.json"
ok sample mlp -o "$T/mlp.fathom.json" --force --json && expect_jq ".file == \"$T/mlp.fathom.json\"" "$T/out" "sample --json"
if [ -f samples/mlp.fathom.json ]; then
  checks=$((checks + 1))
  cmp -s "$T/mlp.fathom.json" samples/mlp.fathom.json || fail "samples/mlp.fathom.json is not what 'fathom sample mlp' writes"
fi
usage_error "unknown sample 'nope' (available: mlp" sample nope -o "$T/x.fathom.json"
usage_error "-o FILE is required" sample mlp

# --- trace and guards --------------------------------------------------------------------------------
ok trace --list && grep -q '^  bert' "$T/out" || fail "trace --list: no bert"
ok trace --list --json && expect_jq '[.models[].name] == ["mlp", "bert", "resnet18", "gpt2"]' "$T/out" "trace --list --json"
for m in mlp bert resnet18 gpt2; do
  ok trace "$m" -o "$T/$m.static.json" && ok guards "$T/$m.static.json" && grep -q "static trace" "$T/out" || fail "trace $m static"
  ok trace "$m" --dynamic -o "$T/$m.dyn.json" --trace-log "$T/$m.log" --json || continue
  expect_jq '.dynamic == true and .symbols >= 1 and .nodes > 10 and (.trace_ms | type) == "number"' "$T/out" "trace $m --json keys"
  ok guards "$T/$m.dyn.json" --json &&
    expect_jq '.symbolic and (.guards + .specializations | all(has("expr") and has("stage") and has("node") and has("op") and has("source") and has("reason")))' "$T/out" "guards $m --json keys"
  expect_jq '.guards | all(.stage == "trace" and (.source | test("^samples/models/.*[.]cpp:[0-9]+$")))' "$T/out" "guards $m: provenance points at the model code"
  ok info "$T/$m.dyn.json" && ok run "$T/$m.dyn.json" || fail "info/run of the symbolic $m dump"
  checks=$((checks + 1)); jq -se 'map(.event) | index("compile_start") != null and index("graph_captured") != null and index("compile_end") != null' "$T/$m.log" >/dev/null || fail "trace log of $m lacks compile events"
done
ok trace bert --dynamic -o "$T/bert.fathom.json" --force
usage_error "exists; pass --force" trace bert -o "$T/bert.fathom.json"
ok guards "$T/bert.fathom.json" && grep -q 's1 < 512' "$T/out" && grep -q 'BertModel.cpp' "$T/out" || fail "guards text: BERT's position-embedding guard"
ok trace bert --dynamic --calls 8x128,4x128,4x64,1x64 --json --trace-log "$T/calls.log"
expect_jq '[.calls[].result] == ["miss", "hit", "hit", "miss"] and .compiles == 2 and .hits == 2' "$T/out" "trace --calls: hits and misses"
expect_jq '.calls[3].failures | length >= 1 and all(has("expr") and has("kind") and has("actual") and has("source") and has("reason"))' "$T/out" "trace --calls: failure keys"
expect_jq '.calls[3].failures[0].expr == "s0 >= 2"' "$T/out" "trace --calls: batch 1 fails the range guard"
checks=$((checks + 1)); grep -q '"event":"recompile".*s0 >= 2' "$T/calls.log" || fail "trace log: recompile event with its failing guard"
ok trace bert --calls 8x128,4x128 --json && expect_jq '.calls[1].failures | map(.kind) | unique == ["static"]' "$T/out" "static trace: sizes are static guards"
usage_error "unknown model 'nope'" trace nope
usage_error "a MODEL is required" trace
usage_error "--calls: 'eightx128' is not BATCHxSEQ" trace bert --calls eightx128
usage_error "--calls 2x600: model bert: seq must be in [1, 512]" trace bert --dynamic --calls 8x128,2x600
usage_error "guards: DUMP is required" guards

# --- AOT autograd: trace --aot, run --backend aot_eager -----------------------------------------------
for m in mlp gpt2; do
  for part in default min-cut; do
    ok trace "$m" --layers 1 --aot --dynamic --training --partitioner "$part" -o "$T/$m.$part.aot.json" --json &&
      expect_jq '(.graphs | keys) == ["backward", "forward", "joint"] and .partitioner == "'"$part"'" and (.saved | all(has("name") and has("kind") and has("bytes"))) and .late_guards == []' "$T/out" "trace $m --aot --partitioner $part --json"
    ok run "$T/$m.$part.aot.json" --backend aot_eager --json &&
      expect_jq '.match and .mismatches == 0 and (.compared | map(.kind) | unique) == ["grad", "output"]' "$T/out" "run $m ($part) --backend aot_eager matches eager autograd"
  done
done
ok trace resnet18 --seq 32 --batch 2 --aot --training -o "$T/resnet.aot.json" && grep -q 'mutated inputs (applied back after the forward): 40' "$T/out" || fail "trace resnet18 --aot: running stats are mutated inputs"
ok run "$T/resnet.aot.json" --backend aot_eager --json && expect_jq '.match and (.compared | map(select(.kind == "updated input")) | length) == 40' "$T/out" "resnet18 aot_eager: running stats updated as eagerly"
expect_jq '.partition.saved_bytes > 0 and (.graphs | has("joint"))' "$T/resnet.aot.json" "aot dump: partition section"
ok trace gpt2 --layers 1 --compiled-autograd --steps 3 -o "$T/ca.json" --json &&
  expect_jq '.captures == 1 and .replays == 2 and .match and .events[0].reason == "first backward"' "$T/out" "trace --compiled-autograd: capture once, replay, match the engine"
ok run "$T/ca.json" --graph compiled_autograd || fail "run the captured compiled-autograd graph"
ok trace gpt2 --layers 1 --aot --dynamic --lazy-backward --trace-log "$T/aot.log"
checks=$((checks + 1)); grep -q '"event":"partition".*"saved_bytes"' "$T/aot.log" && grep -q '"event":"backward_compiled".*"first backward"' "$T/aot.log" || fail "trace log: aot partition and backward events"
usage_error "has no partition" run "$P" --backend aot_eager
usage_error "--backend must be eager, jit, aot_eager or aot_jit" run "$P" --backend inductor
usage_error "--partitioner must be default or min-cut" trace mlp --aot --partitioner greedy
usage_error "need --aot" trace mlp --lazy-backward

# --- check: the debug interpreter ----------------------------------------------------------------
ok check samples/mlp.fathom.json && grep -q 'every node matches its recorded meta' "$T/out" || fail "check mlp: clean"
ok check tests/data/mlp-aot.fathom.json --sizes s0=7 --json &&
  expect_jq '(.graphs | map(.graph)) == ["forward", "backward", "joint"] and .mismatches == [] and .checked > 0' "$T/out" "check an AOT dump: forward, backward, joint"
ok check tests/data/mlp-dynamic.fathom.json --all --values && grep -q 'every node matches' "$T/out" || fail "check --all --values"
# A dump whose recorded strides for one node are wrong: exit 1, that node the origin.
jq '.graphs.forward.nodes |= map(if .name == "t" then .meta.val.strides = [1, 1] else . end)' samples/mlp.fathom.json >"$T/lie.json"
checks=$((checks + 1)); "$FATHOM" check "$T/lie.json" --json >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" -eq 1 ] || fail "check of a lying dump: exit $rc, expected 1"
expect_jq '[.mismatches[] | select(.origin)] | map(.node) == ["t"]' "$T/out" "check: the lying node is the only origin"
# A node without meta is skipped and said so.
jq '.graphs.forward.nodes |= map(if .name == "relu" then del(.meta.val) else . end)' samples/mlp.fathom.json >"$T/nometa.json"
ok check "$T/nometa.json" --json && expect_jq '.skipped | any(test("relu"))' "$T/out" "check: a node without meta is reported as skipped"
ok run tests/data/mlp-aot.fathom.json --backend aot_eager --check --json &&
  expect_jq '.match and .check.graphs == 3 and .check.mismatches == []' "$T/out" "run --backend aot_eager --check: the step under the checker"
# A backward that takes its saved values in another order than the forward returns them (torch
# 2.x takes saved SymInts first) gets each by name.
jq '(.partition.saved | map(.name)) as $s | .graphs.backward.nodes |= ((map(select(.name as $x | $s | index($x))) | reverse) + map(select(.name as $x | ($s | index($x)) == null)))' \
  tests/data/mlp-aot.fathom.json >"$T/reordered.json"
ok run "$T/reordered.json" --backend aot_eager --check --json &&
  expect_jq '.match and .check.mismatches == []' "$T/out" "run --backend aot_eager: saved values bound to the backward by name"
usage_error "these sizes do not satisfy the dump's guards: s0 >= 2 fails with s0 = 1" check tests/data/mlp-aot.fathom.json --sizes s0=1
usage_error "--sizes: 'eight' is not SYMBOL=SIZE" check tests/data/mlp-aot.fathom.json --sizes eight
usage_error "--sizes needs a symbolic dump" check samples/mlp.fathom.json --sizes s0=2
usage_error "--sizes: s1 was replaced by 784 when traced" check tests/data/mlp-dynamic.fathom.json --sizes s1=5
echo '{"format": "fathom-inputs", "version": 1, "inputs": [{"name": "x", "dtype": "float32", "sizes": [2, 3], "seed": 1}]}' >"$T/x.inputs.json"
usage_error "inputs file has 1 inputs" check samples/mlp.fathom.json --inputs "$T/x.inputs.json"
usage_error "check: --graph and --all exclude each other" check samples/mlp.fathom.json --graph forward --all

# --- dumps from PyTorch (tests/data/torch-*, written by plugins/pytorch) -----------------------------
TM=tests/data/torch-mlp-aot.fathom.json
for g in forward backward joint; do
  ok run "$TM" --graph "$g" --json &&
    expect_jq '.recorded.compared > 0 and .recorded.mismatches == 0 and ([.recorded.outputs[] | .strides_match] | all)' "$T/out" \
      "run $TM --graph $g: every output matches the one PyTorch recorded"
done
ok run "$TM" --graph backward && grep -q "recorded outputs match PyTorch's" "$T/out" || fail "run $TM: the text names PyTorch"
ok run "$TM" --seed 3 && grep -q "recorded outputs not compared" "$T/out" || fail "run --seed: recorded outputs are for the dump's own inputs"
checks=$((checks + 1)); "$FATHOM" run "$TM" --graph backward --rtol 0 --atol 0 --json >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" -le 1 ] || fail "run --rtol 0 --atol 0: exit $rc"
ok info "$TM" --json && expect_jq '[.graphs.forward.example_inputs[] | select(has("file"))] | length > 0' "$T/out" "info: side-file inputs"
ok check "$TM" --all --json && expect_jq '.mismatches == [] and .checked > 20' "$T/out" "check a PyTorch AOT export: clean"
TL=tests/data/torch-fake-meta-lies.fathom.json
checks=$((checks + 1)); "$FATHOM" check "$TL" --json >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" -eq 1 ] || fail "check $TL: exit $rc, expected 1 (PyTorch 1.13's fake strides are wrong there)"
expect_jq '[.mismatches[] | select(.origin) | .field] == ["strides", "strides"]' "$T/out" "check $TL: the two fake-tensor strides are origins"
ok run "$TL" && grep -q "all 2 recorded outputs match PyTorch's" "$T/out" || fail "run $TL: Fathom's kernels match PyTorch's real ones"
# torch 2.x's CPU flash attention (and _safe_softmax, its math path), written by the pinned torch
# (plugins/pytorch/requirements-torch2.txt; ctest pytorch2_fixtures_current regenerates it): Fathom's
# ops reproduce every recorded output and gradient, and the trace's meta checks clean.
TS=tests/data/torch2-sdpa.fathom.json
for g in forward backward; do
  ok run "$TS" --graph "$g" --json &&
    expect_jq '.recorded.compared > 20 and .recorded.mismatches == 0 and ([.recorded.outputs[] | .strides_match] | all)' "$T/out" \
      "run $TS --graph $g: torch 2.x's flash attention reproduced"
done
ok run "$TS" --backend aot_eager --json && expect_jq '.match' "$T/out" "run $TS --backend aot_eager: the step matches eager autograd"
ok check "$TS" --all --json && expect_jq '.mismatches == []' "$T/out" "check $TS: the pinned torch's meta is right"
# The same graphs as torch 2.11 wrote them (kept, never regenerated): check finds PyTorch 2.11's own
# lie - its fake logsumexp is float32 for float64 inputs, the real one float64 (the backward's
# recorded input says so, and is let in). torch 2.14 fixed it; the fixture keeps the finding tested.
TSL=tests/data/torch2.11-sdpa-lse-lie.fathom.json
ok run "$TSL" --graph backward --json && expect_jq '.recorded.mismatches == 0' "$T/out" "run $TSL: torch 2.11's outputs reproduced"
checks=$((checks + 1)); "$FATHOM" check "$TSL" --all --json >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" -eq 1 ] || fail "check $TSL: exit $rc, expected 1 (torch 2.11's fake logsumexp dtype is wrong for float64)"
expect_jq '[.mismatches[] | select(.origin) | [.node, .field, .expected, .actual]] | unique == [["_scaled_dot_product_flash_attention_for_cpu_6", "[1] dtype", "float32", "float64"], ["getitem_13", "dtype", "float32", "float64"]]' \
  "$T/out" "check $TSL: the float64 logsumexp's dtype is the only lie"
# torch 2.11's torch.compile(dynamic=True): sizes are graph inputs ({"name", "int"}), and the
# backward takes its saved SymInts first, which Fathom hands over by name.
TD=tests/data/torch2-dynamic.fathom.json
for g in forward_1 backward_1; do
  ok run "$TD" --graph "$g" --json && expect_jq '.recorded.compared > 5 and .recorded.mismatches == 0' "$T/out" "run $TD --graph $g: matches PyTorch"
done
ok info "$TD" && grep -q "%primals_3  SymInt s0" "$T/out" || fail "info $TD: a size placeholder shows its symbol"
ok run "$TD" --backend aot_eager --json && expect_jq '.match' "$T/out" "run $TD --backend aot_eager: SymInt inputs and saved SymInts"
ok check "$TD" --json && expect_jq '.mismatches == [] and (.graphs | length) == 3' "$T/out" "check $TD: the training step is clean"
ok check "$TD" --sizes s0=3,s1=7 --json && expect_jq '.mismatches == []' "$T/out" "check $TD --sizes: the size inputs follow the symbols"
# A copy without its side file: refused at load, naming the missing file.
cp "$TM" "$T/alone.fathom.json"
usage_error "side file '$T/torch-mlp-aot.fathom.bin' does not exist" info "$T/alone.fathom.json"
# Side files only inside the dump's folder, unless --trust-paths: an absolute name, a '..' or a
# link out is refused by every command that loads a dump, and by `--inputs FILE`.
jq '.inputs.forward[0] |= (del(.data) + {"file": "/etc/passwd"})' "$P" >"$T/passwd.fathom.json"
want="fathom: $T/passwd.fathom.json: /inputs/forward/0/file: side file '/etc/passwd' is outside the dump's folder; pass --trust-paths if you trust this dump"
for sub in info show run check step guards minify export; do
  extra=()
  case $sub in
    minify) extra=(--predicate crash -o "$T/passwd.min.fathom.json") ;;
    export) extra=(--as dump -o "$T/passwd.exp.fathom.json") ;;
    step) extra=(--commands /dev/null) ;;
  esac
  usage_error "$want" "$sub" "$T/passwd.fathom.json" "${extra[@]}"
  checks=$((checks + 1)); [ "$(cat "$T/err")" = "$want" ] || fail "$sub of a dump naming /etc/passwd: got '$(cat "$T/err")'"
  "$FATHOM" "$sub" --help | grep -q -- "--trust-paths" || fail "$sub --help: no --trust-paths"
done
ok info "$T/passwd.fathom.json" --trust-paths
ok show "$T/passwd.fathom.json" --trust-paths --json && expect_jq '.inputs.forward[0].file == "/etc/passwd"' "$T/out" \
  "show --json --trust-paths: a trusted absolute name stays absolute"
mkdir -p "$T/up/sub" && head -c 24 /dev/zero >"$T/up/vals.bin"
jq '.inputs.forward[0] |= (del(.data) + {"file": "../vals.bin"})' "$P" >"$T/up/sub/up.fathom.json"
usage_error "$T/up/sub/up.fathom.json: /inputs/forward/0/file: side file '../vals.bin' is outside the dump's folder; pass --trust-paths" \
  run "$T/up/sub/up.fathom.json"
ok run "$T/up/sub/up.fathom.json" --trust-paths
ln -s ../vals.bin "$T/up/sub/link.bin"
jq '.inputs.forward[0].file = "link.bin"' "$T/up/sub/up.fathom.json" >"$T/up/sub/link.fathom.json"
usage_error "side file 'link.bin' leads outside the dump's folder (to '$(readlink -f "$T/up/vals.bin")'); pass --trust-paths" info "$T/up/sub/link.fathom.json"
ok info "$T/up/sub/link.fathom.json" --trust-paths
jq '.inputs[0] |= (del(.data) + {"file": "/etc/passwd"})' tests/data/passthrough.inputs.json >"$T/passwd.inputs.json"
usage_error "$T/passwd.inputs.json: /inputs/0/file: side file '/etc/passwd' is outside the dump's folder; pass --trust-paths" \
  run "$P" --inputs "$T/passwd.inputs.json"
ok run "$P" --inputs "$T/passwd.inputs.json" --trust-paths
# show --json names side files as its source does (relative to the source's folder).
ok show "$TM" --json && expect_jq '[.inputs[][] | select(has("file")) | .file] | length > 0 and all(. == "torch-mlp-aot.fathom.bin")' "$T/out" \
  "show --json: side files relative to the source dump's folder"
# Unknown ops: refused by name, or kept as opaque nodes on request.
jq '.graphs.forward.nodes |= map(if .name == "relu" then .op = "mylib.fused_relu.default" else . end)' samples/mlp.fathom.json >"$T/custom.json"
usage_error "unknown op 'mylib.fused_relu.default'; --keep-unknown-ops loads it" info "$T/custom.json"
ok info "$T/custom.json" --keep-unknown-ops --json && expect_jq '.graphs.forward.opaque == ["relu"]' "$T/out" "info: opaque nodes listed"
ok run "$T/custom.json" --keep-unknown-ops --json && expect_jq '.opaque == ["relu"]' "$T/out" "run: opaque nodes listed"
ok check "$T/custom.json" --keep-unknown-ops --json &&
  expect_jq '.mismatches == [] and (.skipped | any(test("opaque op mylib.fused_relu.default")))' "$T/out" "check: opaque node skipped"

# --- help, version, bad usage ----------------------------------------------------------------------
ok --help && grep -q 'Usage: fathom' "$T/out" || fail "--help"
ok --version && grep -Eq '^fathom [0-9]+\.[0-9]+' "$T/out" || fail "--version"
for sub in info show run sample trace guards check minify; do
  ok "$sub" --help && grep -q "Usage: fathom $sub" "$T/out" && grep -q -- '--json' "$T/out" || fail "$sub --help: usage or --json missing"
done
usage_error "a subcommand is required"
usage_error "unknown subcommand 'frobnicate'" frobnicate "$P"
usage_error "unknown option '--frobnicate'" --frobnicate
usage_error "info: The following argument was not expected: --frobnicate" info "$P" --frobnicate
usage_error "info: DUMP is required" info
usage_error "does-not-exist.fathom.json: cannot open" info does-not-exist.fathom.json
usage_error "tests/data: is a directory" show tests/data
usage_error "--format" show "$P" --format svg
usage_error "--seed: expected an integer" run "$P" --seed -1
usage_error "--memory-limit: expected a byte count" run "$P" --memory-limit lots
usage_error "does-not-exist.json: cannot open" run "$P" --inputs does-not-exist.json
echo '{"format": "fathom-inputs", "version": 1, "inputs": [{"name": "x", "dtype": "float32", "sizes": [2, 3], "seed": 1}]}' >"$T/one.inputs.json"
usage_error "inputs file has 1 inputs but graph 'backward' has 2 placeholders" run "$G" --graph backward --inputs "$T/one.inputs.json"

finish
