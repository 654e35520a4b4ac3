#!/usr/bin/env bash
# `fathom trace MODEL --dynamic --calls ... -o OUT --trace-log LOG`: every compiled entry's dump is
# written (OUT for entry #0, OUT-stem.entryK.fathom.json for the others), never over an existing
# file without --force; the trace log names the dump of each compile, of each cache hit and of the
# entry each failing guard of a recompile came from, with the guard's provenance as fields.
# Usage: trace_calls_test.sh FATHOM SOURCE_ROOT
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" trace_calls_test "$@"

B=$T/b.fathom.json E1=$T/b.entry1.fathom.json E2=$T/b.entry2.fathom.json LOG=$T/tl.jsonl
ok trace bert --dynamic --calls 8x128,4x64,1x64,8x1 -o "$B" --trace-log "$LOG"
cp "$T/out" "$T/calls.txt"
for f in "$B" "$E1" "$E2"; do
  checks=$((checks + 1)); [ -s "$f" ] || fail "trace --calls -o: $f was not written"
  checks=$((checks + 1)); grep -qF "wrote $f (entry #" "$T/calls.txt" || fail "trace --calls -o: $f is not printed"
done
checks=$((checks + 1)); [ ! -e "$T/b.entry3.fathom.json" ] || fail "trace --calls -o: a dump for the hit"

# Each dump loads and was compiled for its call: 8x128 keeps both sizes symbolic, 1x64
# specializes the batch to 1, 8x1 the sequence.
i=0
for pair in "$B:\"s0\",\"s1\"" "$E1:1,\"s0\"" "$E2:\"s0\",1"; do
  f=${pair%%:*} sizes=${pair#*:}
  ok info "$f" --json && cp "$T/out" "$T/info$i.json"
  expect_jq "[.graphs.forward.inputs[] | select(.name == \"input_ids\") | .sizes] == [[$sizes]]" "$T/info$i.json" "info $f: input_ids is [$sizes]"
  expect_jq ".producer.entry == \"$i\"" "$T/info$i.json" "info $f: the producer names entry #$i"
  i=$((i + 1))
done
# The graphs differ as the recompiles say: batch 1 specializes the batch away.
exits 1 "changed" diff "$B" "$E1"
exits 0 "same" diff "$E1" "$E1"

# The log names the dumps: of each compile, of each hit, of each failing guard's entry.
jq -s '.' "$LOG" > "$T/log.json"
abs() { realpath -m "$1"; }
expect_jq "[.[] | select(.event == \"compile_end\") | .dump] == [\"$(abs "$B")\", \"$(abs "$E1")\", \"$(abs "$E2")\"]" "$T/log.json" "log: compile_end names each compile's dump"
expect_jq "[.[] | select(.event == \"graph_captured\") | [.compile_id, .call]] == [[0, \"8x128\"], [1, \"1x64\"], [2, \"8x1\"]]" "$T/log.json" "log: graph_captured names the call"
expect_jq "[.[] | select(.event == \"cache_hit\") | [.compile_id, .call, .dump]] == [[0, \"4x64\", \"$(abs "$B")\"]]" "$T/log.json" "log: the hit names the entry's dump"
expect_jq '[.[] | select(.event == "recompile") | .compile_id] == [1, 2]' "$T/log.json" "log: two recompiles"
expect_jq "[.[] | select(.event == \"recompile\")][0].failures == [{entry: 0, kind: \"range\", expr: \"s0 >= 2\", actual: \"s0 = 1\",
  input: \"input_ids\", stage: \"trace\", node: \"\", op: \"\", args: [], source: \"\", module: \"\",
  reason: \"sizes 0 and 1 are specialized; s0 was traced as 8\", compile_id: 0, dump: \"$(abs "$B")\"}]" "$T/log.json" "log: the first recompile's failing guard, structured"
expect_jq "[.[] | select(.event == \"recompile\")][1].failures | map([.entry, .compile_id, .expr, .input, .dump]) ==
  [[0, 0, \"s1 >= 2\", \"input_ids\", \"$(abs "$B")\"], [1, 1, \"input_ids.size(0) == 1\", \"input_ids\", \"$(abs "$E1")\"],
   [1, 1, \"attention_mask.size(0) == 1\", \"attention_mask\", \"$(abs "$E1")\"], [1, 1, \"s0 >= 2\", \"input_ids\", \"$(abs "$E1")\"]]" \
  "$T/log.json" "log: every failing guard of the second recompile, with its entry's dump"
expect_jq '[.[] | select(.event == "guard_added") | .node] == ["slice_1", "slice_1"]' "$T/log.json" "log: guards name their node"

# Never over an existing dump without --force, and nothing is traced when refused.
before=$(wc -l < "$LOG")
usage_error "b.fathom.json exists" trace bert --dynamic --calls 8x128,1x64 -o "$B" --trace-log "$LOG"
rm "$B"
usage_error "b.entry1.fathom.json exists" trace bert --dynamic --calls 8x128,1x64 -o "$B" --trace-log "$LOG"
checks=$((checks + 1)); [ "$(wc -l < "$LOG")" -eq "$before" ] || fail "a refused trace --calls logged events"
checks=$((checks + 1)); [ ! -e "$B" ] || fail "a refused trace --calls wrote $B"
ok trace bert --dynamic --calls 8x128,8x1 -o "$B" --force --json
expect_jq ".dumps == [\"$B\", \"$E1\"] and .calls[1].dump == \"$E1\" and .calls[0].dump == \"$B\"" "$T/out" "--json: the dumps written"
ok info "$E1" --json && expect_jq '[.graphs.forward.inputs[] | select(.name == "input_ids") | .sizes] == [["s0",1]]' "$T/out" "--force rewrote entry #1 (8x1 now)"
# A name without .fathom.json keeps its own suffix; without -o nothing is written.
ok trace mlp --dynamic --calls 8,1 -o "$T/m.json" && [ -s "$T/m.entry1.json" ] || fail "trace --calls -o m.json: no m.entry1.json"
ok trace mlp --dynamic --calls 8,1 --json && expect_jq '.dumps == [] and .calls[0].dump == null' "$T/out" "--calls without -o"

# A single trace and an AOT trace name their dump too (late guards: tests/engine/aot/LateGuardTest.cpp).
ok trace bert --dynamic -o "$T/one.fathom.json" --trace-log "$T/one.jsonl"
expect_jq "[inputs | select(.event == \"compile_end\") | .dump] == [\"$(abs "$T/one.fathom.json")\"]" "$T/one.jsonl" "single trace: compile_end names the dump"
ok trace gpt2 --layers 1 --aot --dynamic --lazy-backward -o "$T/aot.fathom.json" --trace-log "$T/aot.jsonl"
jq -s '.' "$T/aot.jsonl" > "$T/aot.json"
expect_jq "[.[] | select(.event == \"compile_end\") | .dump] == [\"$(abs "$T/aot.fathom.json")\"]" "$T/aot.json" "aot: compile_end names the dump"
finish
