# Shared by the CLI test scripts (tests/app/*_test.sh): `source` it after `set -u` with the
# script's name; it takes FATHOM_BINARY and SOURCE_ROOT from the script's arguments, moves to the
# source root, makes a temporary folder $T (removed on exit) and counts checks and failures.
#   source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" NAME "$@"
#   ok ARGS...                     fathom exits 0 with nothing on stderr; stdout in $T/out
#   usage_error TEXT ARGS...       fathom exits 2 with exactly one "fathom: ...TEXT..." line
#   expect_jq FILTER FILE WHAT     the jq filter is true on FILE
#   exits CODE TEXT ARGS...        fathom exits CODE with TEXT in its stdout or stderr
#   finish                         prints the tally; the script's exit status
TEST_NAME=$1
FATHOM=$2
# The faulty backends the tests inject bugs with are a plugin (plugins/faulty_backends): the one
# built beside this fathom, for it and every fathom it starts.
FAULTY_BACKENDS=$(cd "$(dirname "$FATHOM")/.." && pwd)/plugins/libfathom_faulty_backends.so
[ -f "$FAULTY_BACKENDS" ] && export FATHOM_PLUGIN_PATH="$FAULTY_BACKENDS${FATHOM_PLUGIN_PATH:+:$FATHOM_PLUGIN_PATH}"
cd "$3" || exit 1
command -v jq >/dev/null || { echo "$TEST_NAME: needs jq (apt-get install -y jq)"; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# The jit's disk cache of compiled kernels: the test's own, never the user's.
export FATHOM_KERNEL_CACHE="$T/kernel-cache"
checks=0 failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

ok() {
  checks=$((checks + 1))
  "$FATHOM" "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  [ "$rc" -eq 0 ] || { fail "fathom $*: exit $rc (stderr: $(head -n 1 "$T/err"))"; return 1; }
  [ -s "$T/err" ] && { fail "fathom $*: wrote to stderr: $(head -n 1 "$T/err")"; return 1; }
  return 0
}

usage_error() {
  local want=$1; shift
  checks=$((checks + 1))
  "$FATHOM" "$@" >"$T/out" 2>"$T/err"
  local rc=$? line
  line=$(head -n 1 "$T/err")
  if [ "$rc" -ne 2 ]; then fail "fathom $*: exit $rc, expected 2 ($line)"
  elif [ "$(awk 'END { print NR }' "$T/err")" -ne 1 ]; then fail "fathom $*: expected one line on stderr:"; cat "$T/err"
  elif [[ "$line" != "fathom: "* || "$line" != *"$want"* ]]; then fail "fathom $*: expected 'fathom: ...$want...', got: $line"
  fi
}

expect_jq() {
  checks=$((checks + 1))
  jq -e "$1" "$2" >/dev/null 2>&1 || fail "$3 (jq: $1)"
}

exits() {
  local want=$1 text=$2; shift 2
  checks=$((checks + 1))
  "$FATHOM" "$@" >"$T/out" 2>"$T/err"
  local rc=$?
  [ "$rc" -eq "$want" ] || { fail "fathom $*: exit $rc, expected $want ($(head -n 1 "$T/err"))"; return 1; }
  grep -qF -- "$text" "$T/out" "$T/err" || { fail "fathom $*: no '$text' in its output"; return 1; }
  return 0
}

finish() {
  echo "$TEST_NAME: $checks checks, $failures failed"
  [ "$failures" -eq 0 ]
}
