#!/bin/bash
# `fathom probe` (one question: does this repro still fail as it says?) and `fathom minify
# --launcher` with a generic launcher ('CMD {}': here a wrapper that logs each query and runs it):
# the result equals the local run's, every query went through the launcher, the predicate is
# resolved by probing the original there, a launcher that gives no verdict is exit 2, and an
# original that does not fail there is exit 1. tests/app/minify_slurm_test.sh runs the same
# through a real one-node Slurm.
#   usage: minify_launcher_test.sh FATHOM_BINARY SOURCE_ROOT
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" minify_launcher_test "$@"
MLP=samples/mlp.fathom.json

# --- probe: exit 0 fails, 1 does not, 2 bad usage; --json; a repro's own predicate and backend ---
ok minify $MLP --backend faulty-miscompile --predicate accuracy -o "$T/acc.fathom.json" --json
ok probe "$T/acc.fathom.json" --json &&
  expect_jq '.fails and .predicate == "accuracy:0.001" and .backend == "faulty-miscompile" and .graph == "forward" and (.what | test("rmse"))
             and .isolated and .seconds >= 0' "$T/out" "probe --json: a repro fails as it says"
exits 1 "does not fail: outputs within tolerance" probe "$T/acc.fathom.json" --backend eager
exits 0 "fails: raised: " probe samples/bad-run/matmul-shape-mismatch.json --predicate exception
checks=$((checks + 1))
"$FATHOM" probe samples/bad-run/matmul-shape-mismatch.json --predicate exception --json >"$T/out" 2>/dev/null
jq -e '.fails and (.predicate | startswith("exception:")) and (.predicate | test("cannot be multiplied"))' "$T/out" >/dev/null ||
  fail "probe --json: a default predicate comes back resolved (the original's message)"
ok probe $MLP --backend faulty-crash --predicate crash --json &&
  expect_jq '.fails and .predicate == "crash:SIGSEGV"' "$T/out" "probe: a crash is an answer, in a worker"
exits 1 "does not fail" probe $MLP --predicate exception
usage_error "--predicate is required" probe $MLP
usage_error "needs worker subprocesses" probe $MLP --predicate crash --in-process
usage_error "cannot open" probe "$T/missing.fathom.json" --predicate exception
# As a script predicate: exit 0 means "still fails".
ok minify "$T/acc.fathom.json" --predicate "script:$FATHOM probe --trust-repro --backend faulty-miscompile --predicate accuracy" \
  -o "$T/again.fathom.json" --json && expect_jq '.end_nodes == .start_nodes' "$T/out" "probe as a script predicate: the repro is already minimal"

# --- minify --launcher 'CMD {}': a wrapper that logs every query and runs it --------------------
cat >"$T/launch.sh" <<'SH'
#!/bin/sh
echo "$@" >>"$LAUNCH_LOG"
exec "$@"
SH
chmod +x "$T/launch.sh"
export LAUNCH_LOG="$T/launch.log"
ok minify $MLP --backend faulty-miscompile --predicate accuracy -o "$T/local.fathom.json" --json
cp "$T/out" "$T/local.json"
ok minify $MLP --backend faulty-miscompile --predicate accuracy -o "$T/remote.fathom.json" --launcher "$T/launch.sh {}" -j 2 --json &&
  expect_jq ".end_nodes == $(jq .end_nodes "$T/local.json") and .predicate == \"accuracy:0.001\"" "$T/out" "--launcher: the local run's result"
queries=$(jq .queries "$T/out")
ok diff "$T/local.fathom.json" "$T/remote.fathom.json"
checks=$((checks + 1))
launched=$(grep -c " probe .*--json --trust-repro" "$LAUNCH_LOG")
# Every query the minifier asked, plus the original's first probe (which resolves the predicate);
# -j 2 also launches speculative ones it may not need.
[ "$launched" -ge $((queries + 1)) ] || fail "--launcher -j 2: $launched launched for $queries queries (+1 for the original)"
: >"$LAUNCH_LOG"
ok minify $MLP --backend faulty-miscompile --predicate accuracy -o "$T/remote1.fathom.json" --launcher "$T/launch.sh {}" --json
checks=$((checks + 1))
[ "$(grep -c " probe " "$LAUNCH_LOG")" -eq $(($(jq .queries "$T/out") + 1)) ] ||
  fail "--launcher -j 1: $(grep -c " probe " "$LAUNCH_LOG") launched for $(jq .queries "$T/out") queries (+1 for the original)"
checks=$((checks + 1))
grep -q -- "--timeout 60 --memory-limit 4096M" "$LAUNCH_LOG" || fail "--launcher: the limits travel to the remote probe"
checks=$((checks + 1))
[ -z "$(ls "$T" | grep fathom-queries)" ] || fail "--launcher: the shared folder of queries is left behind"
# The predicate's default is learned on the node: exception keeps the original's message.
: >"$LAUNCH_LOG"
ok minify samples/bad-run/matmul-shape-mismatch.json --predicate exception -o "$T/mm.fathom.json" --launcher "$T/launch.sh {}" \
  --shared-dir "$T" --json && expect_jq '(.predicate | test("cannot be multiplied")) and .end_nodes <= .start_nodes' "$T/out" \
  "--launcher: exception's message resolved on the node"
checks=$((checks + 1))
grep -q "$T/fathom-queries-" "$LAUNCH_LOG" || fail "--shared-dir: the queries are written there"
exits 1 "on the launcher's node" minify $MLP --predicate exception -o "$T/x.fathom.json" --launcher "$T/launch.sh {}"
usage_error "came back without a verdict: the launcher exited with status 1" minify $MLP --predicate exception -o "$T/x.fathom.json" --launcher "false {}"
usage_error "--launcher must be slurm, slurm:SRUN-ARGS, or a command line with {}" minify $MLP --predicate exception --launcher "ssh gpu1"
usage_error "cannot go with --in-process" minify $MLP --predicate exception --launcher "$T/launch.sh {}" --in-process
finish
