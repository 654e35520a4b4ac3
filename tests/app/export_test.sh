#!/usr/bin/env bash
# `fathom export MIN --as dump|gtest|pytorch -o PATH`: the dump form round-trips through `fathom
# info` with its repro section; the gtest form holds the rebuilt graph; the PyTorch script runs
# under Debian's /usr/bin/python3 (when torch imports there; else a skip line) with the documented
# exit status - 0 and one line when PyTorch does not show the failure, 1 and a "FATHOM-REPRO:"
# line when it does, 2 when torch is missing; large inputs go to PATH.bin; bad usage exits 2 with
# one stderr line. (That an exported gtest compiles and fails is tests/CMakeLists.txt's
# exported_gtest_* tests.)
#   usage: export_test.sh FATHOM_BINARY SOURCE_ROOT
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" export_test "$@"
REPRO=tests/data/repro-linear-relu.fathom.json  # accuracy under faulty-miscompile
LIES=tests/data/torch-fake-meta-lies.fathom.json  # PyTorch 1.13's meta kernels record wrong strides

# expect RC CMD...: CMD (python3 running a script) exits RC; stdout in $T/out, stderr in $T/err.
expect() {
  local want=$1; shift
  checks=$((checks + 1))
  "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  [ "$rc" -eq "$want" ] || { fail "$*: exit $rc, expected $want; stdout: $(head -c 300 "$T/out"); stderr: $(head -c 300 "$T/err")"; return 1; }
}

# contains FILE TEXT: FILE has TEXT (a fixed string).
contains() {
  checks=$((checks + 1))
  grep -qF -- "$2" "$1" || fail "$1 lacks '$2'"
}

# --- help and --json ----------------------------------------------------------------------------
ok export --help && contains "$T/out" "--as"
ok export "$REPRO" --as gtest -o "$T/repro_test.cpp" --json
expect_jq '.as == "gtest" and .graph == "forward" and .predicate == "accuracy" and .backend == "faulty-miscompile"
           and .nodes == 8 and .side_file == null and (.output | endswith("repro_test.cpp"))' "$T/out" "export --json keys"
contains "$T/repro_test.cpp" 'TEST(FathomRepro, OutputsMatchEager)'
contains "$T/repro_test.cpp" 'b.call("aten.addmm.default", {b_, x, t}, {{"alpha", 1.0}}, "addmm");'

# --- the dump form round-trips, with the repro it was exported with -------------------------------
ok export "$REPRO" --as dump -o "$T/d.fathom.json" --predicate mismatch --backend faulty-meta
ok info "$T/d.fathom.json" --json
jq -e '.repro // empty' "$T/d.fathom.json" >/dev/null &&
  [ "$(jq -c .repro "$T/d.fathom.json")" = '{"graph":"forward","predicate":"mismatch","backend":"faulty-meta"}' ] ||
  fail "export --as dump: repro is $(jq -c .repro "$T/d.fathom.json")"
ok export "$T/d.fathom.json" --as dump -o "$T/d2.fathom.json"
checks=$((checks + 1))
cmp -s "$T/d.fathom.json" "$T/d2.fathom.json" || fail "export --as dump of an exported dump changed it"
ok run "$T/d2.fathom.json"
# Exported into another folder, a dump gets its own copy of its side-file values (OUT.bin), so
# whoever receives it loads it without --trust-paths; an existing side file needs --force.
TM=tests/data/torch-mlp-aot.fathom.json
mkdir "$T/filed"
ok export "$TM" --as dump -o "$T/filed/t.fathom.json" --json &&
  expect_jq '.side_file == "'"$T"'/filed/t.bin"' "$T/out" "export --as dump elsewhere: the side file it wrote"
expect_jq '[.inputs[][], .outputs[][] | objects | select(has("file")) | .file] | length > 0 and all(. == "t.bin")' "$T/filed/t.fathom.json" \
  "export --as dump elsewhere: side files named beside it"
ok run "$T/filed/t.fathom.json" --graph backward && grep -q "recorded outputs match PyTorch's" "$T/out" ||
  fail "export --as dump elsewhere: the copied values are PyTorch's"
touch "$T/filed/t2.bin"
usage_error "$T/filed/t2.bin: already exists; pass --force" export "$TM" --as dump -o "$T/filed/t2.fathom.json"
ok export "$TM" --as dump -o "$T/filed/t2.fathom.json" --force

# A sample with a repro section (crash under faulty-crash), made here; its 256x784 weight is over
# the inline limit, so it goes to PATH.bin.
jq '. + {repro: {graph: "forward", predicate: "crash", backend: "faulty-crash"}}' samples/mlp.fathom.json >"$T/mlp-crash.fathom.json"
ok export "$T/mlp-crash.fathom.json" --as gtest -o "$T/mlp_test.cpp" --json
jq -e --arg bin "$T/mlp_test.cpp.bin" '.side_file == $bin and .predicate == "crash"' "$T/out" >/dev/null || fail "mlp gtest: $(cat "$T/out")"
contains "$T/mlp_test.cpp" "const char* const kDataFile = \"$T/mlp_test.cpp.bin\";"
contains "$T/mlp_test.cpp" 'EXPECT_EXIT(runToTheEnd(*backend, *graph, 0), ::testing::ExitedWithCode(0), "")'
checks=$((checks + 1))
[ "$(stat -c %s "$T/mlp_test.cpp.bin")" -eq $((256 * 784 * 4)) ] ||  # w0 only: the others are under 65,536
  fail "mlp_test.cpp.bin has $(stat -c %s "$T/mlp_test.cpp.bin") bytes"

# --- the PyTorch script (each run imports torch: about 2 s) ----------------------------------
ok export "$REPRO" --as pytorch -o "$T/repro.py"
ok export "$LIES" --as pytorch --predicate mismatch -o "$T/lies.py"
ok export "$T/mlp-crash.fathom.json" --as pytorch -o "$T/mlp.py"
# Without torch (site-packages off: -S) the script is a setup problem, exit 2.
expect 2 /usr/bin/python3 -S "$T/repro.py" && contains "$T/err" "cannot import torch"
if /usr/bin/python3 -c 'import torch' 2>/dev/null; then
  # PyTorch computes relu(addmm) correctly: not shown, exit 0, one line.
  expect 0 /usr/bin/python3 "$T/repro.py" && contains "$T/out" "not reproduced with torch" &&
    contains "$T/out" "every floating output's rmse against a float64 rerun is within twice a correctly rounded result's + 0.0001"
  checks=$((checks + 1))
  [ "$(wc -l <"$T/out")" -eq 1 ] || fail "repro.py printed more than one line: $(cat "$T/out")"
  # PyTorch 1.13's meta kernels give layer_norm(x.t()) other strides than its real kernel.
  expect 1 /usr/bin/python3 "$T/lies.py" && contains "$T/out" "FATHOM-REPRO: meta: %native_layer_norm = aten.native_layer_norm.default: output 0: strides"
  # The crash check runs the graph in a child, with the weights read from mlp.py.bin.
  expect 0 /usr/bin/python3 "$T/mlp.py" && contains "$T/out" "the run ended normally in a child process"
  # A graph PyTorch refuses too (view to 21 elements of 20): exception shown, naming the node.
  jq '(.graphs.forward.nodes[] | select(.name == "view") | .args[1]) = [21]' "$REPRO" >"$T/bad-view.fathom.json"
  ok export "$T/bad-view.fathom.json" --as pytorch --predicate exception -o "$T/bad_view.py"
  expect 1 /usr/bin/python3 "$T/bad_view.py" && contains "$T/out" "FATHOM-REPRO: exception: %view = aten.view.default: RuntimeError: shape '[21]' is invalid"
  expect 0 /usr/bin/python3 "$T/bad_view.py" --match 'no such message'
  # A graph from someone else cannot reach Python through its op names (issue 18): opaque nodes
  # calling operator.attrgetter / operator.call up to os.system, or a name leading to
  # torch.ops.load_library, are a setup problem (exit 2), and the command never runs.
  cat >"$T/escape.fathom.json" <<JSON
{"format": "fathom-dump", "version": 1, "graphs": {"forward": {"nodes": [
 {"name": "x", "kind": "placeholder", "meta": {"val": {"dtype": "float32", "sizes": [2]}}},
 {"name": "a", "kind": "call", "op": "operator.attrgetter", "args": ["__class__.__repr__.__globals__"]},
 {"name": "b", "kind": "call", "op": "operator.call", "args": [{"node": "a"}, {"node": "x"}]},
 {"name": "c", "kind": "call", "op": "operator.getitem", "args": [{"node": "b"}, "torch"]},
 {"name": "d", "kind": "call", "op": "operator.attrgetter", "args": ["os.system"]},
 {"name": "e", "kind": "call", "op": "operator.call", "args": [{"node": "d"}, {"node": "c"}]},
 {"name": "f", "kind": "call", "op": "operator.call", "args": [{"node": "e"}, "touch $T/escaped"]},
 {"name": "output", "kind": "output", "args": [[{"node": "x"}, {"node": "f"}]]}]}},
 "inputs": {"forward": [{"name": "x", "dtype": "float32", "sizes": [2], "data": [1, 2]}]}}
JSON
  ok export "$T/escape.fathom.json" --keep-unknown-ops --as pytorch -o "$T/escape.py"
  expect 2 /usr/bin/python3 "$T/escape.py" && contains "$T/err" "operator.attrgetter is not an operator this script calls"
  jq '.graphs.forward.nodes[1] = {"name": "a", "kind": "call", "op": "load_library.__call__.__call__", "args": ["x.so"]}' \
    "$T/escape.fathom.json" >"$T/escape2.fathom.json"
  ok export "$T/escape2.fathom.json" --keep-unknown-ops --as pytorch -o "$T/escape2.py"
  expect 2 /usr/bin/python3 "$T/escape2.py" && contains "$T/err" "load_library.__call__.__call__ is not an op of torch"
  checks=$((checks + 1)); [ -e "$T/escaped" ] && fail "an exported script ran a command named in the graph"
else
  echo "export_test: skipped running the PyTorch scripts: /usr/bin/python3 cannot import torch (apt-get install python3-torch)"
fi

# --- bad usage and input: exit 2, one line naming the file ----------------------------------------
usage_error "--as is required" export "$REPRO" -o "$T/x.cpp"
usage_error "--output is required" export "$REPRO" --as gtest
usage_error "--as must be dump, gtest or pytorch, not 'rust'" export "$REPRO" --as rust -o "$T/x.rs"
usage_error "$REPRO: unknown backend 'tvm' (expected one of eager," export "$REPRO" --as gtest --backend tvm -o "$T/x.cpp"
usage_error "--predicate must be exception" export "$REPRO" --as pytorch --predicate segfault -o "$T/x.py"
usage_error "$REPRO: the dump has no graph named 'backward' (it has 'forward')" export "$REPRO" --as dump --graph backward -o "$T/x.json"
usage_error "$T/repro_test.cpp: already exists; pass --force to overwrite it" export "$REPRO" --as gtest -o "$T/repro_test.cpp"
usage_error "the input is never overwritten" export "$REPRO" --as dump -o "$REPRO" --force
usage_error "no-such.fathom.json" export no-such.fathom.json --as dump -o "$T/x.json"
ok export "$REPRO" --as gtest -o "$T/repro_test.cpp" --force

finish
