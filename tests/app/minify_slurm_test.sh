#!/bin/bash
# `fathom minify --launcher slurm` through a real one-node Slurm started for the test
# (tests/app/slurm_cluster.sh): the result equals the local run's, every query ran as a Slurm job
# (counted by job name), a crash on the node is an answer, srun's own arguments pass through and a
# bad one is exit 2 with srun's reason, and Ctrl-C leaves no job behind.
# Exit 77 (skipped, with the reason) where Slurm is not installed or cannot start here.
#   usage: minify_slurm_test.sh FATHOM_BINARY SOURCE_ROOT
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" minify_slurm_test "$@"
source "$(dirname "${BASH_SOURCE[0]}")/slurm_cluster.sh"
trap 'slurm_stop; rm -rf "$T"' EXIT
if ! slurm_start "$T/slurm"; then
  echo "skipped: no one-node Slurm here: $SLURM_WHY"
  exit 77
fi
MLP=samples/mlp.fathom.json
jobs_named() { scontrol show jobs -o 2>/dev/null | grep -c "JobName=fathom-probe"; }

ok minify $MLP --backend faulty-miscompile --predicate accuracy -o "$T/local.fathom.json" --json
local_nodes=$(jq .end_nodes "$T/out")
before=$(jobs_named)
ok minify $MLP --backend faulty-miscompile --predicate accuracy -o "$T/slurm.fathom.json" --launcher slurm -j 2 --json &&
  expect_jq ".end_nodes == $local_nodes and .predicate == \"accuracy:0.001\"" "$T/out" "--launcher slurm: the local run's result"
queries=$(jq .queries "$T/out")
checks=$((checks + 1))
ran=$(($(jobs_named) - before))
[ "$ran" -ge $((queries + 1)) ] || fail "--launcher slurm: $ran Slurm jobs for $queries queries (+1 for the original)"
echo "minify through Slurm: $queries queries, $ran jobs"
ok diff "$T/local.fathom.json" "$T/slurm.fathom.json"

# A crash is the node's answer (the probe runs the candidate in its own worker), and srun's
# arguments come through.
ok minify $MLP --backend faulty-crash --predicate crash -o "$T/crash.fathom.json" --launcher "slurm:--job-name=fathom-probe --ntasks=1" --json &&
  expect_jq '.predicate == "crash:SIGSEGV" and .end_nodes == 6' "$T/out" "--launcher slurm: a crash minified on the node"
usage_error "came back without a verdict" minify $MLP --predicate exception -o "$T/x.fathom.json" --launcher "slurm:--partition=nope"

# Ctrl-C: exit 130 with the best so far, and no job left running.
cat >"$T/slow-relu.sh" <<PRED
#!/bin/bash
sleep 0.5
"$FATHOM" info "\${@: -1}" --json | jq -e '[.graphs[].ops | keys[]] | any(. == "aten.relu.default")' >/dev/null
PRED
chmod +x "$T/slow-relu.sh"
"$FATHOM" minify $MLP --predicate "script:$T/slow-relu.sh" -o "$T/int.fathom.json" --launcher slurm -j 2 --progress json >/dev/null 2>"$T/progress.jsonl" &
pid=$!
for _ in $(seq 200); do grep -q '"event":"improve"' "$T/progress.jsonl" && break; sleep 0.1; done
kill -INT $pid
wait $pid
rc=$?
checks=$((checks + 1))
[ "$rc" -eq 130 ] || fail "--launcher slurm, Ctrl-C: exit $rc, expected 130"
ok info "$T/int.fathom.json"
checks=$((checks + 1))
for _ in $(seq 50); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.2; done
[ -z "$(squeue -h 2>/dev/null)" ] || fail "--launcher slurm, Ctrl-C: jobs left behind: $(squeue -h | head -n 3)"
finish
