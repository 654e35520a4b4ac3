#!/usr/bin/env bash
# `fathom step`: command scripts run against the hand-written dumps and the samples, their
# transcripts checked with grep - next, print, where, list, break/delete, continue, restart,
# quit, bad commands (one line, the session goes on) - and the exit codes: 0, 1 after a mismatch
# (a dump whose recorded strides are wrong on purpose, where `continue` must stop), 2 for bad
# usage or input with one stderr line.
#   usage: step_test.sh FATHOM_BINARY SOURCE_ROOT
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" step_test "$@"

# session WANT_RC DUMP [OPTIONS...] <<< COMMANDS: runs the commands (from a --commands file)
# and expects the exit code; the transcript is in $T/out.
session() {
  local want=$1; shift
  checks=$((checks + 1))
  cat >"$T/commands"
  "$FATHOM" step "$@" --commands "$T/commands" >"$T/out" 2>"$T/err"
  local rc=$?
  [ "$rc" -eq "$want" ] || fail "fathom step $*: exit $rc, expected $want (stderr: $(head -n 1 "$T/err"))"
  [ -s "$T/err" ] && fail "fathom step $*: wrote to stderr: $(head -n 1 "$T/err")"
}

# has PATTERN WHAT: the last transcript has a line matching the (extended) regular expression.
has() {
  checks=$((checks + 1))
  grep -Eq -- "$1" "$T/out" || { fail "$2 (no line matching '$1')"; sed 's/^/    | /' "$T/out" | head -n 60; }
}
hasnt() {
  checks=$((checks + 1))
  grep -Eq -- "$1" "$T/out" && fail "$2 (unexpected line matching '$1')"
}

# step_usage_error MESSAGE_SUBSTRING ARGS...: `fathom step ARGS` exits 2 with one stderr line.
step_usage_error() {
  local want=$1; shift
  usage_error "$want" step "$@" </dev/null
}

# --- next, print, list, where on a static sample ------------------------------------------------
session 0 samples/mlp.fathom.json <<'EOF'
next
n 2
print w0
p %b0
print b1
break w2
list
where
# a comment, and a blank line, are skipped

quit
EOF
has '^stepping graph .forward. of samples/mlp.fathom.json: 16 nodes' "step: banner names the graph and file"
has '^\(fathom\) next$' "step: commands are echoed after the prompt"
has '^\[0\] %w0 = placeholder$' "next: prints the node it ran"
has '^\[2\] %w1 = placeholder$' "next 2: runs two nodes"
has '^  sizes +\[256, 784\] +\[256, 784\]$' "print: recorded vs real sizes"
has '^  strides +\[784, 1\] +\[784, 1\]$' "print: recorded vs real strides"
has '^  dtype +float32 +float32$' "print: dtypes"
has '^  values +min .* max .* mean .* nan 0  inf 0$' "print: value summary"
has '^  matches its recorded meta$' "print: a matching node says so"
has '^\[1\] %b0 = placeholder$' "print: accepts %NODE"
has '^print: %b1 has not run yet' "print: a node not run yet is refused with one line"
has '^=>    \[3\] %b1 = placeholder$' "list: marks the cursor"
has '^  B   \[4\] %w2 = placeholder$' "list: marks a breakpoint"
has '^ +\[8\] ' "list: five nodes after the cursor"
hasnt '^ +\[9\] ' "list: not six"
has '^before \[3\] %b1 = placeholder$' "where: the node at the cursor"
has '^  module  layers.2$' "where: the module path"
has '^  stage   forward$' "where: the stage"
has 'symbols: none' "where: a static trace has no symbols"
has '^end of session: 0 mismatches seen$' "quit: the session summary"
hasnt "unknown command '#" "a comment is not a command"
hasnt '^\(fathom\) $' "a blank line in a script is skipped"

# --- symbolic sizes, breakpoints, continue, restart ---------------------------------------------
session 0 tests/data/mlp-dynamic.fathom.json <<'EOF'
break relu_1
b aten.addmm.default
break
continue
where
c
print addmm
delete 2
break
c
c
c
print output
restart
list
c
q
EOF
has '^breakpoint 1: before %relu_1$' "break NODE"
has '^breakpoint 2: before every aten.addmm.default$' "break OP"
has '^  1  node %relu_1$' "break: lists node breakpoints"
has '^  2  op aten.addmm.default$' "break: lists op breakpoints"
has '^breakpoint 2, before \[8\] %addmm = aten.addmm.default\(%layers.0.bias, %x, %t\)$' "continue: stops before the first addmm"
has '^  source  samples/models/MlpModel.cpp:35$' "where: the source line"
has 'symbols: s0 = 32, s1 -> 784' "where: the symbol binding (s0 bound from x, s1 replaced)"
has '^  sizes +\[s0, 256\] = \[32, 256\] +\[32, 256\]$' "print: symbolic sizes with their values"
has '^deleted breakpoint 2$' "delete N"
has '^breakpoint 1, before \[12\] %relu_1' "continue: stops at the node breakpoint"
has "^graph 'forward' finished: 16 nodes run, 15 checked, 0 mismatches \(0 origin\)$" "continue: runs to the end"
has "^the graph has finished; 'restart' to run it again$" "continue at the end says so"
has '^  output 0:$' "print output: the outputs"
has '^restarted with the same inputs; before \[0\] %layers.0.weight = placeholder$' "restart"
has '^=>   +\[0\] %layers.0.weight' "list after restart: the cursor is back at the start"
[ "$(grep -c '^breakpoint 1, before \[12\]' "$T/out")" -eq 2 ] || fail "restart keeps the breakpoints"
checks=$((checks + 1))

# --- bad commands: one line each, the session goes on --------------------------------------------
session 0 tests/data/mlp-aot.fathom.json --graph forward <<'EOF'
frobnicate
next zero
next 0
break nosuch
delete
delete 9
print
print nosuch
where now
n 20
n
EOF
has "^unknown command 'frobnicate' \(type 'help' for the commands\)$" "an unknown command"
has "^next: expected a positive number of nodes" "next with a bad count"
has "^break: no node or op 'nosuch' in graph 'forward'" "break on an unknown name"
has "^delete: expected a breakpoint number" "delete without a number"
has "^delete: no breakpoint 9" "delete of an unknown breakpoint"
has "^print: expected one node" "print without a node"
has "^print: no node 'nosuch' in graph 'forward'" "print of an unknown node"
has "^where: takes no arguments$" "where with an argument"
has "^stepping graph 'forward' of tests/data/mlp-aot.fathom.json: 11 nodes" "--graph forward picks the graph"
has "^\[10\] return \[%addmm_1, %layers.2.weight, %x, %addmm\]$" "next N stops at the end of the graph"
has "^the graph has finished" "next at the end says so"
has "^end of session: 0 mismatches seen$" "the end of input ends the session"

# --- help ---------------------------------------------------------------------------------------
session 0 samples/mlp.fathom.json <<'EOF'
help
EOF
for c in next continue break delete print where list restart quit; do has "^  $c " "help lists '$c'"; done
checks=$((checks + 1))
"$FATHOM" step --help >"$T/out" 2>&1 || fail "step --help: exit $?"
for o in --graph --inputs --seed --strict-strides --commands; do has "$o" "step --help lists $o"; done
has "continue" "step --help mentions the commands"

# --- a dump whose recorded strides are wrong on purpose: continue stops there, exit 1 ------------
jq '(.graphs.forward.nodes[] | select(.name == "addmm_1") | .meta.val.strides) = [1, "s0"]' \
  tests/data/mlp-dynamic.fathom.json >"$T/broken.fathom.json" || fail "jq could not write the broken dump"
session 1 "$T/broken.fathom.json" <<'EOF'
continue
print addmm_1
list
continue
quit
EOF
has '^\[11\] %addmm_1 = aten.addmm.default' "continue: stops at the mismatching node"
has '^  MISMATCH \(origin: .*\) strides: recorded \[1, s0\] = \[1, 32\], real \[128, 1\]$' "the mismatch, as origin"
has "^stopped after a mismatch" "continue says why it stopped"
has '^  strides +\[1, s0\] = \[1, 32\] +\[128, 1\]   <- MISMATCH$' "print marks the mismatching row"
has '^   ! +\[11\] %addmm_1' "list marks the mismatching node"
has '^=>   +\[12\] %relu_1' "the cursor is after the mismatching node"
has "finished: 16 nodes run, 15 checked, 1 mismatch \(1 origin\)" "the rest of the graph runs"
has '^end of session: 1 mismatch seen$' "the session summary counts it"
hasnt '^\[10\]' "continue does not print the nodes that matched"

# Piped stdin works like --commands.
checks=$((checks + 1))
printf 'c\nq\n' | "$FATHOM" step "$T/broken.fathom.json" >"$T/out" 2>"$T/err"
[ $? -eq 1 ] || fail "piped commands: a mismatch gives exit 1"
has '^\(fathom\) c$' "piped commands are echoed"

# An inputs file whose x is strided unlike the recorded placeholder: the mismatch is the input's.
session 1 tests/data/passthrough.fathom.json --inputs tests/data/passthrough.inputs.json <<'EOF'
continue
EOF
has '^\[0\] %x = placeholder$' "--inputs: continue stops at the input"
has '^  MISMATCH \(input: .*\) strides: recorded \[3, 1\], real \[1, 2\]$' "--inputs: a placeholder mismatch is the input's"

# --- a node that fails to execute: one error line, only restart runs again, exit 1 ---------------
session 1 samples/bad-run/broadcast-mismatch.json <<'EOF'
continue
next
restart
quit
EOF
has '^  error: %y: The size of tensor a \(4\) must match .*; while executing %y = aten.add.Tensor' "a failing node names itself"
has "^the last node failed to execute; 'restart' to run the graph again$" "next after a failure is refused"
has '^restarted with the same inputs' "restart after a failure"
has '^end of session: 0 mismatches seen, 1 node failed to execute$' "the summary counts the failure"

# --- bad usage or input: exit 2, one line naming the file ---------------------------------------
step_usage_error "nonexistent.fathom.json" nonexistent.fathom.json
step_usage_error "no graph named 'bogus'" samples/mlp.fathom.json --graph bogus
step_usage_error "$T/none.txt" samples/mlp.fathom.json --commands "$T/none.txt"
step_usage_error "--seed" samples/mlp.fathom.json --seed -1
step_usage_error "DUMP is required"

finish
