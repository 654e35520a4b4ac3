#!/usr/bin/env bash
# `fathom guards DUMP --check | --explain SIZES | A B --overlap` on the hand-made guard sets of
# tests/app/guards/ (each with a known answer, see its README) and on real traces (BERT with and
# without duck sizing, GPT-2, the MLP, forward and backward through --aot), which must check
# clean: JSON keys and values, exit codes (0 clean, 1 a problem found, 2 bad usage), the trace
# log's guard_check events, unreadable and undecidable guards reported with the rest analysed.
#   usage: guards_test.sh FATHOM_BINARY SOURCE_ROOT
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" guards_test "$@"
G=tests/app/guards

if "$FATHOM" guards $G/redundant.fathom.json --check 2>&1 | grep -q "has no Z3"; then
  echo "guards_test: skipped: this build has no Z3"
  exit 0
fi

# problem RC ARGS...: fathom exits RC (0 or 1) with nothing on stderr; stdout in $T/out.
expect_rc() {
  local want=$1; shift
  checks=$((checks + 1))
  "$FATHOM" "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  [ "$rc" -eq "$want" ] || { fail "fathom $*: exit $rc, expected $want ($(head -n 1 "$T/err"))"; return 1; }
}

# --- real traces check clean ---------------------------------------------------------------------
"$FATHOM" trace bert --dynamic --aot --layers 12 -o "$T/bert.fathom.json" >/dev/null
"$FATHOM" trace bert --dynamic --no-duck-sizing --aot --layers 2 -o "$T/bert-nd.fathom.json" >/dev/null
"$FATHOM" trace gpt2 --dynamic --aot -o "$T/gpt2.fathom.json" >/dev/null
"$FATHOM" trace mlp --dynamic -o "$T/mlp.fathom.json" >/dev/null
for d in bert bert-nd gpt2 mlp; do
  ok guards "$T/$d.fathom.json" --check --json && cp "$T/out" "$T/$d.json"
  expect_jq '.consistency.status == "consistent" and .soundness.status == "sound" and .problem == false and .undecided == []' "$T/$d.json" "$d: checks clean"
  expect_jq '.soundness.raw_recorded == (.guards > 0) and .redundancy.status == "ran"' "$T/$d.json" "$d: raw guards recorded, redundancy ran"
  expect_jq '[.specializations[] | select(.recorded and (.implied | not))] == []' "$T/$d.json" "$d: every recorded replacement is implied"
done
expect_jq '.guards == 3 and ([.specializations[] | select(.kind == "unified" and .implied) | .symbol] == ["s2", "s3"])' "$T/bert-nd.json" "bert without duck sizing: s2, s3 unified by the guards"
expect_jq '.specializations[0].caused_by[0].node == "add_2" and (.specializations[0].caused_by[0].source | test("BertModel.cpp"))' "$T/bert-nd.json" "unification names its guard's node and source line"
expect_jq '[.specializations[] | select(.symbol == "s1" and .kind == "constant" and .value == "784")] | length == 1' "$T/mlp.json" "mlp: s1 pinned to 784"
expect_jq '.queries | length > 0 and all(.[]; .ms >= 0 and (.status | IN("sat", "unsat")))' "$T/bert.json" "queries listed with their time"

# --- hand-made sets with known answers -------------------------------------------------------------
expect_rc 1 guards $G/inconsistent.fathom.json --check --json
expect_jq '.consistency.status == "inconsistent" and ([.consistency.conflict[].expr] == ["Eq(s0, 8)", "s0 >= 16"]) and .problem' "$T/out" "inconsistent: the minimal conflict"
expect_jq '.consistency.conflict[1].node == "chunk" and .consistency.conflict[1].source == "model.py:31"' "$T/out" "conflict with provenance"
expect_rc 1 guards $G/inconsistent.fathom.json --check
grep -q "inconsistent" "$T/out" || fail "text --check says inconsistent"

ok guards $G/redundant.fathom.json --check --json
expect_jq '[.redundancy.redundant[].expr] == ["s0 >= 4", "s1 >= 2"] and .redundancy.minimal == ["Eq(Mod(s0, 8), 0)", "s1 < 512"]' "$T/out" "redundant: the two implied guards and the minimal set"
expect_jq '.redundancy.redundant[0].implied_by[0].expr == "Eq(Mod(s0, 8), 0)" and .redundancy.redundant[1].by_ranges_alone' "$T/out" "redundant: what implies each"

ok guards $G/bert-simplified.fathom.json --check --json
expect_jq '.soundness.status == "sound" and .soundness.raw_recorded' "$T/out" "the simplifier's output is sound"
expect_rc 1 guards $G/bert-unsound.fathom.json --check --json
expect_jq '.soundness.status == "unsound" and .soundness.looser.values.s1 == 512 and .soundness.looser.inputs["input_ids.size(1)"] == 512' "$T/out" "injected s1 <= 512: counterexample s1 = 512"
expect_jq '.soundness.looser.raw_rejecting[0].raw == "s1 < 512" and .soundness.stricter.status == "unsat"' "$T/out" "the raw guard that rejects it; not stricter"
expect_rc 1 guards $G/bert-unsound-replacement.fathom.json --check --json
expect_jq '[.specializations[] | select(.symbol == "s3" and .recorded and (.implied | not))] | length == 1' "$T/out" "injected s3 -> s1 + 1: a replacement the guards do not imply"
expect_jq '.soundness.looser.status == "sat" and .soundness.stricter.status == "sat"' "$T/out" "injected replacement: counterexamples both ways"

# Unreadable guards: one warning line each on stderr, the rest analysed.
checks=$((checks + 1))
"$FATHOM" guards $G/unreadable.fathom.json --check --json >"$T/out" 2>"$T/err"
[ $? -eq 0 ] || fail "unreadable: exit $? (expected 0: the readable guards are fine)"
[ "$(grep -c '^fathom: warning: .*/shape_env/guards/[12]/expr' "$T/err")" -eq 2 ] || fail "unreadable: two warnings naming the pointers: $(cat "$T/err")"
expect_jq '.guards == 2 and (.skipped_guards | length) == 2 and .consistency.status == "consistent"' "$T/out" "unreadable: two skipped, two analysed"
# Guards after a skipped one keep their positions in the file: s0 >= 4 is /shape_env/guards/3.
expect_rc 1 guards $G/unreadable.fathom.json --explain s0=2,s1=64 --json
expect_jq '[.failed[] | select(.expr == "s0 >= 4") | .index] == [3]' "$T/out" "unreadable: a failing guard's index is its position in the dump"

# Undecidable within the timeout: reported, the rest still produced.
ok guards $G/undecidable.fathom.json --check --json --timeout 100
expect_jq '.consistency.status == "undecided" and (.undecided | length) > 0 and (.undecided[0].reason | test("100 ms"))' "$T/out" "undecidable: undecided with the time limit"
expect_jq '.soundness.status != "skipped" and .redundancy.status == "ran"' "$T/out" "undecidable: the other analyses still ran"

# --- explain --------------------------------------------------------------------------------------
expect_rc 1 guards "$T/bert-nd.fathom.json" --explain input_ids=4x600,attention_mask=8x600 --json
expect_jq '([.failed[].expr] | sort) == ["Eq(s0, s2)", "s1 < 512"] and (.passes | not)' "$T/out" "explain: both failing guards"
expect_jq '(.failed[] | select(.expr == "s1 < 512") | .node) == "slice_1"' "$T/out" "explain: provenance"
expect_jq '.nearest.status == "sat" and .nearest.inputs.input_ids[1] == 511 and .nearest.inputs.input_ids[0] == .nearest.inputs.attention_mask[0]' "$T/out" "explain: nearest passing sizes"
expect_rc 1 guards "$T/bert.fathom.json" --explain s0=4,s1=600
grep -q "nearest sizes that pass: s0 = 4, s1 = 511" "$T/out" || fail "explain text: nearest s1 = 511: $(cat "$T/out")"
ok guards "$T/bert.fathom.json" --explain s0=4,s1=128 --json
expect_jq '.passes and .failed == []' "$T/out" "explain: passing sizes"
expect_rc 1 guards "$T/mlp.fathom.json" --explain x=8x100 --json
expect_jq '.failed[0].expr == "Eq(s1, 784)" and .nearest.inputs.x == [8, 784]' "$T/out" "explain: specialized dimension"
# A dimension the trace saw as a constant, and the rank, are checked as the cache checks them.
jq '.graphs.forward.nodes[0].meta.val.sizes += [3] | .graphs.forward.nodes[0].meta.val.strides = ["3*s1", 3, 1]' \
  $G/entry-short.fathom.json >"$T/static.fathom.json"
expect_rc 1 guards "$T/static.fathom.json" --explain x=8x600x4 --json
expect_jq '[.failed[] | [.kind, .expr]] == [["static", "x.size(2) == 3"], ["guard", "s1 < 512"]] and .nearest.inputs.x == [8, 511, 3]' "$T/out" "explain: a constant dimension"
expect_rc 1 guards "$T/static.fathom.json" --explain x=8x64
grep -q "\[rank\] x.dim() == 3 .*nearest sizes that pass: x=8x64x3" <(tr '\n' ' ' <"$T/out") || fail "explain: the wrong rank: $(cat "$T/out")"
ok guards "$T/static.fathom.json" --explain x=8x64x3
expect_rc 1 guards "$T/bert.fathom.json" --explain s0=1,s1=16 --json
expect_jq '.failed[0].kind == "range" and .nearest.values.s0 == 2' "$T/out" "explain: a size under the range"

# --- accepts: every size of a range, proved -------------------------------------------------------
ok guards "$T/bert.fathom.json" --accepts s0=2..64,s1=2..511 --json
expect_jq '.accepted and .status == "unsat" and .failed == [] and .widest.s1 == [2, 511] and .stops == []' "$T/out" "accepts: a range within every guard is proved"
expect_rc 1 guards "$T/bert.fathom.json" --accepts s0=1..64,s1=2..600 --json
expect_jq '(.accepted | not) and .status == "sat" and .widest.s0 == [2, 64] and .widest.s1 == [2, 511]' "$T/out" "accepts: the widest passing ranges"
expect_jq '[.stops[] | [.symbol, .side, .value, .failed[0].kind]] == [["s0", "below", 1, "range"], ["s1", "above", 512, "guard"]]' "$T/out" "accepts: what stops each range (0/1 specialization, the guard)"
expect_jq '(.stops[1].failed[0].expr == "s1 < 512") and (.stops[1].failed[0].node == "slice_1")' "$T/out" "accepts: the stopping guard's provenance"
expect_rc 1 guards "$T/mlp.fathom.json" --accepts s1=700..800
grep -q "accepted around the trace's size: s1=784..784" "$T/out" || fail "accepts text: a pinned size: $(cat "$T/out")"
grep -q "Eq(s1, 784)" "$T/out" || fail "accepts text: the pinning guard: $(cat "$T/out")"
ok guards tests/data/torch2-dynamic.fathom.json --accepts s0=2..64,s1=2..64 --json
expect_jq '.accepted' "$T/out" "accepts: a torch.compile(dynamic=True) dump takes every batch from 2"

# --- overlap --------------------------------------------------------------------------------------
ok guards $G/entry-short.fathom.json $G/entry-long.fathom.json --overlap --json
expect_jq '.overlap == false and .pairs[0].result == "disjoint" and (.pairs[0].separating | any(test("s1 >= 512")))' "$T/out" "disjoint entries with the separating guards"
expect_rc 1 guards $G/entry-short.fathom.json $G/entry-mod8.fathom.json --overlap --json
expect_jq '.overlap and (.pairs[0].witness.x[1] < 512) and (.pairs[0].witness.x[1] % 8 == 0)' "$T/out" "overlapping entries with a witness both accept"
# Entries of other inputs are disjoint without a query; the reason names the first input that differs.
jq '.graphs.forward.nodes[0].name = "y" | .graphs.forward.nodes[1].args = [[{"node": "y"}]]' $G/entry-mod8.fathom.json >"$T/entry-y.fathom.json"
ok guards $G/entry-short.fathom.json "$T/entry-y.fathom.json" --overlap --json
expect_jq '.pairs[0].result == "disjoint" and (.pairs[0].reason | test("input 0 is x \\(rank 2\\) in .*entry-short.*, y \\(rank 2\\) in .*entry-y")) and .queries == []' "$T/out" "entries of other inputs: the first that differs"
expect_rc 1 guards $G/entry-short.fathom.json $G/entry-long.fathom.json $G/entry-mod8.fathom.json --overlap
grep -q "entry-long.fathom.json and .*entry-mod8.fathom.json: overlap" "$T/out" || fail "three entries: pairwise"

# --- trace log --------------------------------------------------------------------------------------
ok guards $G/redundant.fathom.json --check --trace-log "$T/log.jsonl"
checks=$((checks + 1))
n=$(jq -s '[.[] | select(.event == "guard_check" and .ms >= 0 and .check != null)] | length' "$T/log.jsonl")
[ "$n" -gt 3 ] || fail "trace log: guard_check events with their time ($n)"

# --- bad usage ----------------------------------------------------------------------------------------
usage_error "one of --check, --explain, --accepts and --overlap" guards $G/redundant.fathom.json --check --overlap
usage_error "two or more" guards $G/redundant.fathom.json --overlap
usage_error "only with --overlap" guards $G/redundant.fathom.json $G/inconsistent.fathom.json --check
usage_error "NAME=SIZE" guards $G/redundant.fathom.json --explain s0
usage_error "neither a symbol nor an input" guards $G/redundant.fathom.json --explain y=3x4
usage_error "no value for s1" guards $G/redundant.fathom.json --explain s0=8
usage_error "not both" guards $G/redundant.fathom.json --explain s0=8,x=8x64
usage_error "goes with" guards $G/redundant.fathom.json --trace-log "$T/x.jsonl"
usage_error "--accepts: bad item 's0=9..3'" guards $G/redundant.fathom.json --accepts s0=9..3
usage_error "is not a symbol of this trace" guards $G/redundant.fathom.json --accepts s99=1..4
usage_error "one of --check, --explain, --accepts and --overlap" guards $G/redundant.fathom.json --accepts s0=1..4 --check
usage_error "missing.fathom.json" guards $G/missing.fathom.json --check
usage_error "guards/0/expr" guards samples/bad/guard-unknown-symbol.json
finish
