#!/usr/bin/env bash
# Malformed dumps are refused cleanly. For every file in samples/bad/, `fathom info`, `show` and
# `run` each exit 2, print nothing on stdout and exactly one line on stderr that starts with
# "fathom: ", names the file, and contains the text samples/bad/README.md expects for it. Every
# dump in samples/bad-run/ loads (`info` and `show` exit 0) and is refused the same way by `run`.
# A crash shows up as an exit code other than 2 (134 abort, 139 segfault, 124 timeout).
#   usage: bad_samples_test.sh FATHOM_BINARY SOURCE_ROOT
set -u
FATHOM=$1
cd "$2" || exit 1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
checks=0 failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# The expected message of FILE: the backquoted third column of its row in README.
expected_message() {
  awk -F'|' -v file="\`$(basename "$1")\`" '
    { name = $2; gsub(/^ +| +$/, "", name) }
    name == file { msg = $4; gsub(/^ *`|` *$/, "", msg); print msg; exit }' "$2"
}

# expect_refusal SUBCOMMAND FILE MESSAGE
expect_refusal() {
  local sub=$1 file=$2 want=$3 rc
  checks=$((checks + 1))
  timeout 60 "$FATHOM" "$sub" "$file" >"$T/out" 2>"$T/err"
  rc=$?
  local lines first
  lines=$(awk 'END { print NR }' "$T/err")
  first=$(head -n 1 "$T/err")
  if [ "$rc" -ne 2 ]; then fail "fathom $sub $file: exit $rc, expected 2 (stderr: $first)"
  elif [ "$lines" -ne 1 ]; then fail "fathom $sub $file: $lines lines on stderr, expected 1"; sed 's/^/    /' "$T/err"
  elif [[ "$first" != "fathom: "?* ]]; then fail "fathom $sub $file: stderr does not start with 'fathom: ': $first"
  elif [[ "$first" != *"$file"* ]]; then fail "fathom $sub $file: stderr does not name the file: $first"
  elif [[ "$first" != *"$want"* ]]; then fail "fathom $sub $file: expected '$want' in: $first"
  elif [ -s "$T/out" ]; then fail "fathom $sub $file: printed on stdout before failing"
  fi
}

expect_success() {
  local sub=$1 file=$2 rc
  checks=$((checks + 1))
  timeout 60 "$FATHOM" "$sub" "$file" >"$T/out" 2>"$T/err"
  rc=$?
  [ "$rc" -eq 0 ] || fail "fathom $sub $file: exit $rc, expected 0 (stderr: $(head -n 1 "$T/err"))"
}

# Each directory's files and README rows must match one to one.
check_listed() {
  local dir=$1 f name
  for f in "$dir"/*; do
    [ "$(basename "$f")" = README.md ] && continue
    [ -n "$(expected_message "$f" "$dir/README.md")" ] || fail "$f has no row in $dir/README.md"
  done
  for name in $(awk -F'|' '$2 ~ /`/ { n = $2; gsub(/[ `]/, "", n); print n }' "$dir/README.md"); do
    [ -e "$dir/$name" ] || fail "$dir/README.md lists $name, which does not exist"
  done
}

check_listed samples/bad
check_listed samples/bad-run
nbad=0
for f in samples/bad/*; do
  [ "$(basename "$f")" = README.md ] && continue
  nbad=$((nbad + 1))
  want=$(expected_message "$f" samples/bad/README.md)
  for sub in info show run; do expect_refusal "$sub" "$f" "$want"; done
done
[ "$nbad" -ge 20 ] || fail "samples/bad has only $nbad files (at least 20 expected)"
for f in samples/bad-run/*; do
  [ "$(basename "$f")" = README.md ] && continue
  expect_success info "$f"
  expect_success show "$f"
  expect_refusal run "$f" "$(expected_message "$f" samples/bad-run/README.md)"
done

echo "$checks checks on $nbad files in samples/bad and the files in samples/bad-run: $failures failed"
[ "$failures" -eq 0 ]
