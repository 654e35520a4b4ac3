#!/usr/bin/env bash
# `fathom minify`: every failure kind minifies its sample (script, exception, mismatch, crash,
# timeout, accuracy, guard-free symbolic shrinking) to a small repro that still fails - checked
# by running the result again - with the faulty backends (minifier/Backends.h) as the bugs; the
# result is a repro that `fathom minify` takes back with its own predicate; -j 2 finds what -j 1
# finds; Ctrl-C stops with the best so far (exit 130) and --resume continues after a kill; the
# input is never modified; a repro's own script:CMD runs only when named (--predicate) or trusted
# (--trust-repro); exit 1 when the input does not fail, 2 for bad usage; --progress json streams
# one event per line whose counts agree with the summary and whose checkpoint loads.
#   usage: minify_test.sh FATHOM_BINARY SOURCE_ROOT
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" minify_test "$@"

# calls FILE: the ops the dump's first graph calls, sorted, comma-separated.
calls() { "$FATHOM" info "$1" --json | jq -r '[.graphs | to_entries[0].value.ops | to_entries[] | .key as $k | range(.value) | $k] | sort | join(",")'; }
# same_calls FILE WANT WHAT
same_calls() {
  checks=$((checks + 1))
  local got
  got=$(calls "$1")
  [ "$got" = "$2" ] || fail "$3: calls $got, expected $2"
}
# still_fails MIN WHAT: minifying the repro again keeps it as it is (it fails with its own
# predicate and backend, and nothing more goes).
still_fails() {
  ok minify "$1" -o "$T/again.fathom.json" --force --json &&
    expect_jq ".end_nodes == .start_nodes" "$T/out" "$2: the repro fails as it says and is already minimal"
}

MLP=samples/mlp.fathom.json

# --- a script predicate (llvm-reduce's protocol): "the graph still has a relu" -----------------------
cat >"$T/has-relu.sh" <<PRED
#!/bin/bash
"$FATHOM" info "\${@: -1}" --json | jq -e '[.graphs[].ops | keys[]] | any(. == "aten.relu.default")' >/dev/null
PRED
chmod +x "$T/has-relu.sh"
cp $MLP "$T/mlp.fathom.json"
ok minify "$T/mlp.fathom.json" --predicate "script:$T/has-relu.sh" -o "$T/min.fathom.json" --json &&
  expect_jq '.start_nodes == 16 and .end_nodes == 3 and .queries > 0 and (.passes | length > 0) and .isolated' "$T/out" "minify: mlp down to one relu"
expect_jq '.invalid == 0' "$T/out" "minify --json: invalid candidates counted (none: every cut of a valid graph verifies)"
"$T/has-relu.sh" "$T/min.fathom.json" || fail "minify: the result no longer satisfies the predicate"
cmp -s "$T/mlp.fathom.json" $MLP || fail "minify modified its input"
jq -e '.repro.predicate | startswith("script:")' "$T/min.fathom.json" >/dev/null || fail "the result is a repro with its predicate"
usage_error "already exists; pass --resume" minify "$T/mlp.fathom.json" --predicate "script:$T/has-relu.sh" -o "$T/min.fathom.json"

# --- exception: the default predicate keeps the original error, not another one ----------------------
ok minify samples/bad-run/matmul-shape-mismatch.json --predicate exception -o "$T/mm.fathom.json" --json &&
  expect_jq '.end_nodes <= .start_nodes and (.predicate | test("cannot be multiplied"))' "$T/out" "minify an exception"
checks=$((checks + 1)); "$FATHOM" run "$T/mm.fathom.json" >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" -eq 2 ] && grep -q "cannot be multiplied" "$T/err" || fail "minify --predicate exception: the result raises the same error (exit $rc: $(cat "$T/err"))"

# --- mismatch: a dump whose recorded strides lie shrinks to the node that lies -----------------------
jq '.graphs.forward.nodes |= map(if .name == "t" then .meta.val.strides = [1, 1] else . end)' $MLP >"$T/lie.json"
ok minify "$T/lie.json" --predicate mismatch --in-process -o "$T/lie.min.fathom.json" --json &&
  expect_jq '.end_nodes <= 3 and .predicate == "mismatch:aten.t.default" and (.isolated | not)' "$T/out" "minify a mismatch in-process"
checks=$((checks + 1)); "$FATHOM" check "$T/lie.min.fathom.json" >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" -eq 1 ] || fail "minify --predicate mismatch: the result still mismatches (exit $rc)"

# --- the faulty backends: each bug down to its pattern ----------------------------------------------
ok minify $MLP --backend faulty-crash --predicate crash -o "$T/crash.fathom.json" --json &&
  expect_jq '.predicate == "crash:SIGSEGV" and .backend == "faulty-crash" and .end_nodes == 6' "$T/out" "minify a crash"
same_calls "$T/crash.fathom.json" "aten.addmm.default,aten.t.default" "crash"
still_fails "$T/crash.fathom.json" "crash"
# The repro exports as written (its resolved predicate crash:SIGSEGV; a regression: export refused it).
ok export "$T/crash.fathom.json" --as gtest -o "$T/crash_test.cpp" && grep -q "EXPECT_EXIT" "$T/crash_test.cpp" || fail "export of a minified crash repro"
ok minify $MLP --backend faulty-miscompile --predicate accuracy -o "$T/acc.fathom.json" --json &&
  expect_jq '.predicate == "accuracy:0.001" and .end_nodes == 6' "$T/out" "minify an accuracy failure"
same_calls "$T/acc.fathom.json" "aten.addmm.default,aten.relu.default" "accuracy"
still_fails "$T/acc.fathom.json" "accuracy"
ok minify $MLP --backend faulty-meta --predicate mismatch -o "$T/meta.fathom.json" --json &&
  expect_jq '.predicate == "mismatch:aten.t.default" and .end_nodes == 3' "$T/out" "minify a faulty meta"
ok minify $MLP --backend faulty-hang --predicate timeout:1 -j 2 -o "$T/hang.fathom.json" --json &&
  expect_jq '.predicate == "timeout:1" and .jobs == 2 and .end_nodes == 6' "$T/out" "minify a hang with two workers"
same_calls "$T/hang.fathom.json" "aten.addmm.default,aten.relu.default" "timeout"
# -j 2 finds what -j 1 finds.
ok minify $MLP --backend faulty-crash --predicate crash -j 2 -o "$T/crash2.fathom.json" --json
cmp -s <("$FATHOM" show "$T/crash.fathom.json") <("$FATHOM" show "$T/crash2.fathom.json") || fail "-j 2 gave another result than -j 1"

# --- symbolic sizes shrink (within the recorded guards) --------------------------------------------
ok minify tests/data/mlp-dynamic.fathom.json --backend faulty-miscompile --predicate accuracy -o "$T/dyn.fathom.json" --json &&
  expect_jq '.passes | index("shrink symbolic sizes")' "$T/out" "minify shrinks a symbolic size"
checks=$((checks + 1))
before=$(jq '[.inputs[][] | .sizes | reduce .[] as $d (1; . * $d)] | add' tests/data/mlp-dynamic.fathom.json)
after=$(jq '[.inputs[][] | .sizes | reduce .[] as $d (1; . * $d)] | add' "$T/dyn.fathom.json")
[ "$after" -lt "$before" ] || fail "symbolic shrinking: input elements $before -> $after"

# --- guard: a guard that fails for the inputs, and a late one (missing from the recorded set) -----
ok trace bert --dynamic -o "$T/bert-dyn.fathom.json"
python3 - "$T/bert-dyn.fathom.json" "$T" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
late = json.loads(json.dumps(d))
late["shape_env"]["guards"] = [g for g in late["shape_env"]["guards"] if g["expr"] != "s1 < 512"]
json.dump(late, open(sys.argv[2] + "/late.fathom.json", "w"))
for i in d["inputs"]["forward"]:
    if i["name"] in ("input_ids", "attention_mask"):  # longer than the 512 positions BERT has
        i["sizes"], i["strides"] = [2, 600], [600, 1]
json.dump(d, open(sys.argv[2] + "/too-long.fathom.json", "w"))
PY
ok minify "$T/too-long.fathom.json" --predicate guard -o "$T/too-long.min.fathom.json" --json &&
  expect_jq '.predicate == "guard" and .end_nodes <= 5' "$T/out" "minify a failing guard"
same_calls "$T/too-long.min.fathom.json" "aten.slice.Tensor,aten.sym_size.default" "failing guard: the slice that asks s1 < 512"
ok minify "$T/late.fathom.json" --predicate guard -o "$T/late.min.fathom.json" --json && expect_jq '.end_nodes <= 5' "$T/out" "minify a late guard"
same_calls "$T/late.min.fathom.json" "aten.slice.Tensor,aten.sym_size.default" "late guard: a slice re-asks s1 < 512"
checks=$((checks + 1)); "$FATHOM" minify "$T/bert-dyn.fathom.json" --predicate guard -o "$T/g.fathom.json" >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" -eq 1 ] && grep -q "every guard holds and none is late" "$T/err" || fail "guard on a healthy trace: exit $rc, $(cat "$T/err")"

# --- torch: PyTorch 1.13's own meta bug (native_layer_norm's layout) minified in PyTorch ----------------------
if /usr/bin/python3 -c 'import torch' 2>/dev/null; then
  ok minify tests/data/torch-fake-meta-lies.fathom.json --predicate torch:meta -j 2 -o "$T/where.fathom.json" --json &&
    expect_jq '.predicate == "torch:meta:aten.native_layer_norm.default" and .end_nodes <= 3' "$T/out" "minify a PyTorch meta bug"
  same_calls "$T/where.fathom.json" "aten.native_layer_norm.default" "torch:meta keeps the original's first meta bug"
else
  echo "skipped: the torch predicate (python3 cannot import torch)"
fi

# --- Ctrl-C stops with the best so far; --resume continues after a kill ------------------------------
cat >"$T/slow-relu.sh" <<PRED
#!/bin/bash
sleep 0.3
"$T/has-relu.sh" "\$@"
PRED
chmod +x "$T/slow-relu.sh"
checks=$((checks + 1))
"$FATHOM" minify $MLP --predicate "script:$T/slow-relu.sh" -o "$T/int.fathom.json" >"$T/out" 2>"$T/err" &
pid=$!
for _ in $(seq 100); do [ -f "$T/int.fathom.json" ] && break; sleep 0.1; done
kill -INT $pid; wait $pid; rc=$?
[ "$rc" -eq 130 ] && grep -q "interrupted" "$T/out" && [ -f "$T/int.fathom.json" ] || fail "Ctrl-C: exit $rc, $(cat "$T/out" "$T/err")"
ok minify $MLP --predicate "script:$T/slow-relu.sh" -o "$T/int.fathom.json" --resume --json &&
  expect_jq '.resumed and .start_nodes == 16 and .end_nodes == 3 and (.interrupted | not)' "$T/out" "--resume after Ctrl-C"
checks=$((checks + 1))
"$FATHOM" minify $MLP --predicate "script:$T/slow-relu.sh" -o "$T/kill.fathom.json" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do [ -f "$T/kill.fathom.json" ] && break; sleep 0.1; done
kill -KILL $pid; wait $pid 2>/dev/null
"$FATHOM" info "$T/kill.fathom.json" >/dev/null 2>&1 || fail "a kill left a checkpoint that does not load"
ok minify $MLP --predicate "script:$T/slow-relu.sh" -o "$T/kill.fathom.json" --resume --json &&
  expect_jq '.resumed and .end_nodes == 3' "$T/out" "--resume after a kill"
usage_error "not a checkpoint" minify samples/bert.fathom.json --predicate exception -o "$T/kill.fathom.json" --resume
usage_error "no checkpoint" minify $MLP --predicate exception -o "$T/nothing.fathom.json" --resume

# --- --progress json: one event per line on stderr (what fathom-gui's minifier panel reads) ---------
checks=$((checks + 1))
"$FATHOM" minify $MLP --backend faulty-miscompile --predicate accuracy -o "$T/prog.fathom.json" --progress json --json >"$T/out" 2>"$T/progress.jsonl"
rc=$?
[ "$rc" -eq 0 ] || fail "--progress json: exit $rc ($(grep -v '^{' "$T/progress.jsonl" | head -n 1))"
expect_jq 'all(.[]; type == "object" and (.event | IN("start", "query", "improve", "end", "waiting")))' <(jq -s . "$T/progress.jsonl") \
  "--progress json: every stderr line is an event"
jq -s . "$T/progress.jsonl" >"$T/progress.json"
expect_jq '.[0].event == "start" and .[-1].event == "end" and ([.[] | select(.event == "start" or .event == "end")] | length) == 2' \
  "$T/progress.json" "--progress json: one start first, one end last"
expect_jq '.[0] | .file == "samples/mlp.fathom.json" and .graph == "forward" and .predicate == "accuracy:0.001" and .backend == "faulty-miscompile"
           and .start_nodes == 16 and .nodes == 16 and .passes[0] == "truncate-suffix" and .jobs == 1 and .isolated and (.resumed | not)
           and (.output | endswith("prog.fathom.json"))' "$T/progress.json" "--progress json: the start event's keys"
expect_jq '[.[] | select(.event == "query")] | length > 0 and all(.[]; has("queries") and has("cache_hits") and (.pass | length > 0) and has("nodes") and has("seconds"))
           and ([.[].queries] == ([.[].queries] | sort)) and ([.[].cache_hits] == ([.[].cache_hits] | sort))' \
  "$T/progress.json" "--progress json: query events count up"
expect_jq '[.[] | select(.event == "improve")] | length > 0 and ([.[].nodes] == ([.[].nodes] | sort | reverse))
           and all(.[]; .nodes == (.inputs | length) + (.calls | length) + 1 and (.checkpoint | endswith("prog.fathom.json")))' \
  "$T/progress.json" "--progress json: improvements shrink; inputs + calls + the output node are the nodes"
expect_jq '(.[-1]) as $e | ([.[] | select(.event == "query")] | last | .queries) == $e.queries and ([.[] | select(.event == "improve")] | last | .nodes) == $e.end_nodes
           and $e.result == "minimized" and $e.start_nodes == 16 and $e.end_nodes < 16 and (.[-2].nodes == $e.end_nodes)' \
  "$T/progress.json" "--progress json: the end agrees with the last query and improvement"
checks=$((checks + 1))
[ "$(jq -c '[.end_nodes, .queries, .cache_hits, .passes]' "$T/out")" = "$(jq -c '.[-1] | [.end_nodes, .queries, .cache_hits, .passes]' "$T/progress.json")" ] ||
  fail "--progress json: the end event and the --json summary differ"
# The checkpoint an improvement names loads, and holds the nodes the improvement names.
checkpoint=$(jq -r '[.[] | select(.event == "improve")] | last | .checkpoint' "$T/progress.json")
ok info "$checkpoint" --json &&
  expect_jq ".graphs.forward.nodes == $(jq '.[-1].end_nodes' "$T/progress.json")" "$T/out" "--progress json: the checkpoint loads with the improvement's size"
checks=$((checks + 1))
[ "$(jq -c '[.graphs.forward.nodes[] | select(.kind != "output") | .name] | sort' "$checkpoint")" = \
  "$(jq -c '[.[] | select(.event == "improve")] | last | .inputs + .calls | sort' "$T/progress.json")" ] ||
  fail "--progress json: the improvement's names are not the checkpoint's nodes"
# SIGINT (the panel's Cancel) ends the stream with "interrupted" and the best so far on disk.
checks=$((checks + 1))
"$FATHOM" minify $MLP --predicate "script:$T/slow-relu.sh" -o "$T/prog-int.fathom.json" --progress json >/dev/null 2>"$T/progress.jsonl" &
pid=$!
for _ in $(seq 100); do grep -q '"event":"improve"' "$T/progress.jsonl" && break; sleep 0.1; done
kill -INT $pid; wait $pid; rc=$?
[ "$rc" -eq 130 ] || fail "--progress json, SIGINT: exit $rc"
expect_jq '.[-1] | .event == "end" and .result == "interrupted" and .end_nodes < .start_nodes and (.output | endswith("prog-int.fathom.json"))' \
  <(jq -s . "$T/progress.jsonl") "--progress json, SIGINT: the end says interrupted, with the best so far"
ok info "$T/prog-int.fathom.json"
# Slow queries (0.3 s each) show while they run: "waiting" events with the query in flight.
expect_jq '[.[] | select(.event == "waiting")] | length > 0 and all(.[]; .running >= 1 and .longest >= 0.1 and .longest < 5 and (.pass | length > 0))' \
  <(jq -s . "$T/progress.jsonl") "--progress json: slow queries are reported while they run"
usage_error "--progress must be none, line or json, not 'yes'" minify $MLP --predicate crash --progress yes

# --- a PyTorch export whose inputs are in a side file: candidates and the result (elsewhere) find it --
cat >"$T/has-ln.sh" <<PRED
#!/bin/bash
"$FATHOM" info "\${@: -1}" --json >"\${@: -1}.info" || exit 2
jq -e '[.graphs[].ops | keys[]] | any(. == "aten.native_layer_norm.default")' "\${@: -1}.info" >/dev/null
PRED
chmod +x "$T/has-ln.sh"
mkdir -p "$T/elsewhere"
ok minify tests/data/torch-mlp-aot.fathom.json --predicate "script:$T/has-ln.sh" -o "$T/elsewhere/ln.fathom.json" --json &&
  expect_jq '.end_nodes < .start_nodes' "$T/out" "minify a PyTorch export with a side file"
ok run "$T/elsewhere/ln.fathom.json" && grep -q "output 0: " "$T/out" || fail "the minified export runs where it was written"
# A result that keeps the side-file input: its values are copied beside it (w.bin), so it loads
# without --trust-paths; the candidates the script loads do too (they are in the work folder).
cat >"$T/has-w.sh" <<PRED
#!/bin/bash
"$FATHOM" info "\${@: -1}" >/dev/null || exit 2
jq -e '[.inputs[][] | select(.name == "primals_1" and has("file"))] | length > 0' "\${@: -1}" >/dev/null
PRED
chmod +x "$T/has-w.sh"
ok minify tests/data/torch-mlp-aot.fathom.json --predicate "script:$T/has-w.sh" -o "$T/elsewhere/w.fathom.json" --json &&
  expect_jq '.end_nodes < .start_nodes' "$T/out" "minify keeping a side-file input"
expect_jq '[.inputs[][] | select(has("file")) | .file] | length > 0 and all(. == "w.bin")' "$T/elsewhere/w.fathom.json" \
  "minify -o elsewhere: side files copied beside the output"
ok run "$T/elsewhere/w.fathom.json" && grep -q "output 0: " "$T/out" || fail "the minified result with a side file loads and runs"

# --- a repro's script predicate is a command from a file: it runs only when named or trusted ---------
jq --arg cmd "script:/bin/touch $T/x" '.repro = {"graph": "forward", "predicate": $cmd, "backend": "eager"}' $MLP >"$T/evil.fathom.json"
want="fathom: $T/evil.fathom.json: /repro/predicate: the repro's predicate would run the command '/bin/touch $T/x'; name it yourself with --predicate 'script:/bin/touch $T/x' or pass --trust-repro to run it"
usage_error "$want" minify "$T/evil.fathom.json" -o "$T/evil.min.fathom.json"
checks=$((checks + 1)); [ "$(cat "$T/err")" = "$want" ] || fail "untrusted script predicate: got '$(cat "$T/err")'"
usage_error "would run the command '/bin/touch $T/x'" minify "$T/evil.fathom.json" -o "$T/evil.min.fathom.json" --resume
usage_error "would run the command '/bin/touch $T/x'" minify "$T/evil.fathom.json" -j 2 --in-process
checks=$((checks + 1)); [ -e "$T/x" ] && fail "minify ran a repro's script predicate nobody named"
[ -e "$T/evil.min.fathom.json" ] && fail "a refused repro wrote an output"
ok minify "$T/evil.fathom.json" -o "$T/evil.min.fathom.json" --trust-repro --json &&
  expect_jq '.predicate == "script:/bin/touch '"$T"'/x"' "$T/out" "--trust-repro runs the repro's script predicate"
checks=$((checks + 1)); [ -e "$T/x" ] || fail "--trust-repro: the script predicate did not run"
ok minify "$T/evil.fathom.json" --predicate "script:/bin/touch $T/y" -o "$T/evil.min.fathom.json" --force
checks=$((checks + 1)); [ -e "$T/y" ] || fail "--predicate script:CMD named on the command line did not run"
# A quote in the command is quoted for the shell in the suggestion.
jq '.repro.predicate = "script:echo '"'"'a b'"'"'"' "$T/evil.fathom.json" >"$T/quote.fathom.json"
usage_error "would run the command 'echo 'a b''; name it yourself with --predicate 'script:echo '\''a b'\''' or pass" minify "$T/quote.fathom.json"
# Fathom's own predicates, from a repro, need no consent (still_fails above runs crash and accuracy).

# --- the passes: listed by kebab-case key, run alone, skipped (minifier/Passes.def) ----------------------
ok minify --list-passes
checks=$((checks + 1))
grep -qvE '^[a-z]+(-[a-z]+)*  +[^ ]' "$T/out" && fail "--list-passes: a line without 'key  description': $(grep -vE '^[a-z]+(-[a-z]+)*  +[^ ]' "$T/out" | head -n 1)"
[ "$(head -n 1 "$T/out" | cut -d' ' -f1)" = "truncate-suffix" ] || fail "--list-passes: the passes in the order they run, truncate-suffix first"
cut -d' ' -f1 "$T/out" >"$T/keys.txt"
ok minify --list-passes --json &&
  expect_jq 'type == "array" and length > 1 and all(.[]; (.key | test("^[a-z]+(-[a-z]+)*$")) and (.name | length > 0) and (.description | length > 0))
             and ([.[].key] | unique | length) == length and .[0] == {"key": "truncate-suffix", "name": "truncate suffix", "description": .[0].description}' \
    "$T/out" "--list-passes --json: [{key, name, description}], unique kebab-case keys"
checks=$((checks + 1)); cmp -s <(jq -r '.[].key' "$T/out") "$T/keys.txt" || fail "--list-passes and --list-passes --json list other keys"
ok minify $MLP --backend faulty-miscompile --predicate accuracy --in-process --passes truncate-suffix -o "$T/alone.fathom.json" --json &&
  expect_jq '.passes == ["truncate suffix"] and .end_nodes < .start_nodes and .invalid == 0' "$T/out" "--passes truncate-suffix runs it alone"
ok minify $MLP --backend faulty-miscompile --predicate accuracy --in-process --passes shrink-constants,merge-inputs -o "$T/alone.fathom.json" --force --json &&
  expect_jq '.passes == [] and .end_nodes == .start_nodes and .queries == 1' "$T/out" "--passes with passes that cannot help here: nothing else runs"
ok minify $MLP --backend faulty-miscompile --predicate accuracy --in-process --skip-passes truncate-suffix -o "$T/alone.fathom.json" --force --json &&
  expect_jq '(.passes | index("truncate suffix") | not) and .end_nodes < .start_nodes' "$T/out" "--skip-passes truncate-suffix: the others still minify"
# A pass that runs only on request (FATHOM_PASS_ON_REQUEST) runs when named, and --skip-passes
# starts from the default passes, without it.
ok minify $MLP --backend faulty-miscompile --predicate accuracy --in-process --passes probdd -o "$T/alone.fathom.json" --force --json &&
  expect_jq '.passes == ["probabilistic delta debugging"] and .end_nodes < .start_nodes' "$T/out" "--passes probdd runs an on-request pass"
ok minify $MLP --backend faulty-miscompile --predicate accuracy --in-process --skip-passes bisect-needed -o "$T/alone.fathom.json" --force --json &&
  expect_jq '(.passes | index("probabilistic delta debugging") or index("split at needed nodes") | not) and .end_nodes < .start_nodes' "$T/out" \
    "--skip-passes bisect-needed: the on-request split passes do not run in its place"
usage_error "--passes: unknown pass 'no-such-pass'; the passes are truncate-suffix, remove-outputs," minify $MLP --predicate crash --passes truncate-suffix,no-such-pass
usage_error "--skip-passes: unknown pass 'truncate_suffix'; the passes are truncate-suffix" minify $MLP --predicate crash --skip-passes truncate_suffix
usage_error "--passes and --skip-passes cannot go together" minify $MLP --predicate crash --passes truncate-suffix --skip-passes merge-inputs
usage_error "minify: REPRO is required" minify

# --- what does not fail, and bad usage ---------------------------------------------------------------
checks=$((checks + 1)); "$FATHOM" minify $MLP --predicate exception -o "$T/none.fathom.json" >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" -eq 1 ] && grep -q "does not raise an error under backend eager; instead: ran cleanly" "$T/err" || fail "minify of a graph that does not fail: exit $rc, $(cat "$T/err")"
checks=$((checks + 1)); "$FATHOM" minify $MLP --predicate crash -o "$T/none.fathom.json" >"$T/out" 2>"$T/err"; rc=$?
[ "$rc" -eq 1 ] && grep -q "does not crash" "$T/err" || fail "minify --predicate crash of a graph that runs: exit $rc, $(cat "$T/err")"
[ -e "$T/none.fathom.json" ] && fail "a run that found nothing wrote an output"
usage_error "--predicate is required" minify $MLP
usage_error "--predicate must be exception[:REGEX], crash" minify $MLP --predicate segfault
usage_error "not a signal" minify $MLP --predicate crash:SIGNOPE
usage_error "positive number of seconds" minify $MLP --predicate timeout:0
usage_error "--backend must be one of eager" minify $MLP --predicate crash --backend nope
usage_error "-j must be between 1 and 256" minify $MLP --predicate crash -j 0
usage_error "cannot go with --in-process" minify $MLP --predicate crash -j 2 --in-process
usage_error "needs worker subprocesses" minify $MLP --predicate crash --in-process
usage_error "is the input" minify "$T/mlp.fathom.json" --predicate crash -o "$T/mlp.fathom.json"

finish
