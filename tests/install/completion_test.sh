#!/usr/bin/env bash
# ctest `bash_completion` (label cli): the generated completion (cmake/GenerateCliDocs.sh) knows
# every subcommand `fathom --help` lists and every flag each `fathom SUB --help` lists, and
# fathom-gui's flags - checked by running the completion function as bash would on Tab.
#   completion_test.sh DOCS_DIR FATHOM [FATHOM_GUI]   (DOCS_DIR: the build's cli-docs/)
set -u
DOCS=$(cd "$1" && pwd) FATHOM=$(realpath "$2") GUI=${3:+$(realpath "$3")}
checks=0 failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# complete NAME WORDS...: COMPREPLY of NAME's completion with the cursor on the last word.
complete_words() {
  local name=$1; shift
  COMP_WORDS=("$name" "$@") COMP_CWORD=$#
  COMPREPLY=()
  "_${name//-/_}"
}
# The flags a help text lists (as GenerateCliDocs.sh reads them); expect_offered WHAT WORD: WORD
# is among COMPREPLY.
flags_in() { awk '/^  -/ { n = split($1, f, ","); for (i = 1; i <= n; i++) print f[i] }'; }
expect_offered() {
  local what=$1 want=$2
  checks=$((checks + 1))
  printf '%s\n' "${COMPREPLY[@]}" | grep -qxF -- "$want" || fail "$what: '$want' not offered (got: ${COMPREPLY[*]})"
}

source "$DOCS/fathom.bash" || { echo "FAIL: cannot source $DOCS/fathom.bash"; exit 1; }
subcommands=$("$FATHOM" --help | awk '/^Subcommands:/ { on = 1; next } on && /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }')
[ -n "$subcommands" ] || fail "fathom --help lists no subcommands"
complete_words fathom ""
for word in $subcommands $("$FATHOM" --help | flags_in); do
  expect_offered "fathom <Tab>" "$word"
done
for sub in $subcommands; do
  complete_words fathom "$sub" "-"
  for flag in $("$FATHOM" "$sub" --help | flags_in); do
    expect_offered "fathom $sub -<Tab>" "$flag"
  done
done
# Not a flag: a file name (dumps), from the current folder.
TMP=$(mktemp -d) && touch "$TMP/model.fathom.json"
complete_words fathom info "$TMP/mod"
expect_offered "fathom info mod<Tab>" "$TMP/model.fathom.json"
rm -rf "$TMP"

if [ -n "$GUI" ]; then
  source "$DOCS/fathom-gui.bash" || fail "cannot source $DOCS/fathom-gui.bash"
  complete_words fathom-gui "-"
  for flag in $(QT_QPA_PLATFORM=offscreen "$GUI" --help | flags_in); do
    expect_offered "fathom-gui -<Tab>" "$flag"
  done
fi
echo "bash_completion: $checks checks, $failures failed"
[ "$failures" -eq 0 ] && [ "$checks" -gt 20 ]
