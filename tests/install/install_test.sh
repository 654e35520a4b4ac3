#!/usr/bin/env bash
# ctest `install_consumer` (label install): Fathom as installed, used from outside its tree.
#   install_test.sh BUILD_DIR SOURCE_ROOT VERSION [CONSUMER_FLAGS]
# (CONSUMER_FLAGS: compile and link flags the consumer needs to link these libraries - the
# sanitizer build's -fsanitize=...)
# Installs BUILD_DIR (already built: the fathom_installed target) into a temporary prefix with
# `cmake --install --strip`, then, from a folder outside the checkout and with only that prefix:
#   - configures and builds tests/install/consumer (find_package(Fathom) -> Fathom::minifier,
#     Fathom::samples) and runs it on the installed sample dump;
#   - runs the installed fathom (--version, info, sample, run) and fathom_torch's import;
#   - checks the prefix names no path of the build or the checkout (it is relocatable) and that no
#     installed header includes LLVM, Z3 or Qt.
set -u
BUILD=$(cd "$1" && pwd) SRC=$(cd "$2" && pwd) VERSION=$3 FLAGS=${4:-}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=$T/prefix
checks=0 failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# run WHAT CMD...: CMD exits 0 (its output in $T/out); else a failure with its last lines.
run() {
  local what=$1; shift
  checks=$((checks + 1))
  "$@" >"$T/out" 2>&1 || { fail "$what: exit $? from $*"; tail -n 15 "$T/out"; return 1; }
}

run "cmake --install" cmake --install "$BUILD" --prefix "$P" --strip || { echo "install_consumer: $failures of $checks failed"; exit 1; }
mkdir "$T/elsewhere" && cd "$T/elsewhere" || exit 1

# The out-of-tree program, with the generator this build used (Ninja when it is there).
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
if run "configure the consumer" cmake -S "$SRC/tests/install/consumer" -B "$T/consumer" "${gen[@]}" \
       -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$P" -DCMAKE_CXX_FLAGS="$FLAGS" -DCMAKE_EXE_LINKER_FLAGS="$FLAGS" &&
   run "build the consumer" cmake --build "$T/consumer" &&
   run "run the consumer" "$T/consumer/consumer" "$P/share/fathom/samples/mlp.fathom.json" mlp; then
  grep -q "^graph .*: 1 outputs, sizes 32x10; .* nodes as the sample builds it; [1-9][0-9]* minifier passes$" "$T/out" ||
    fail "consumer: unexpected output: $(cat "$T/out")"
fi

# An out-of-tree plugin built against the prefix (find_package(Fathom) -> Fathom::plugin) and
# loaded by the installed fathom: its op (kernel only) runs in a dump, its predicate minifies it.
if run "configure the plugin" cmake -S "$SRC/tests/install/plugin" -B "$T/plugin" "${gen[@]}" \
       -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$P" -DCMAKE_CXX_FLAGS="$FLAGS" -DCMAKE_MODULE_LINKER_FLAGS="$FLAGS" &&
   run "build the plugin" cmake --build "$T/plugin"; then
  PLUGIN=$T/plugin/liboot_square.so
  jq '.graphs.forward.nodes |= map(if .name == "relu" then .op = "oot.square.default" else . end)' \
    "$P/share/fathom/samples/mlp.fathom.json" >oot.fathom.json
  run "fathom plugins (out-of-tree)" "$P/bin/fathom" plugins --plugin "$PLUGIN" --json &&
    { grep -q '"oot.square.default"' "$T/out" || fail "the out-of-tree plugin's op is not listed: $(cat "$T/out")"; }
  run "fathom run (out-of-tree op)" "$P/bin/fathom" run oot.fathom.json --plugin "$PLUGIN"
  run "fathom minify (out-of-tree predicate)" "$P/bin/fathom" minify oot.fathom.json --plugin "$PLUGIN" --predicate has-square -o oot.min.fathom.json --json &&
    { grep -q '"end_nodes": 3' "$T/out" || fail "minify with the out-of-tree predicate: $(cat "$T/out")"; }
fi

# The installed programs, run from here with nothing of the checkout.
F=$P/bin/fathom
run "fathom --version" "$F" --version && { [ "$(cat "$T/out")" = "fathom $VERSION" ] || fail "fathom --version: $(cat "$T/out")"; }
run "fathom info" "$F" info "$P/share/fathom/samples/mlp.fathom.json" && { grep -q "addmm" "$T/out" || fail "fathom info: no addmm in: $(head -n 5 "$T/out")"; }
run "fathom sample" "$F" sample bert -o bert.fathom.json && run "fathom run" "$F" run bert.fathom.json
if [ -x "$P/bin/fathom-gui" ]; then
  run "fathom-gui --help" env QT_QPA_PLATFORM=offscreen "$P/bin/fathom-gui" --help
fi
for page in fathom fathom-gui; do
  [ -x "$P/bin/$page" ] || continue
  checks=$((checks + 1))
  [ "$(head -c 4 "$P/share/man/man1/$page.1")" = ".TH " ] || fail "no man page $P/share/man/man1/$page.1"
  [ -s "$P/share/bash-completion/completions/$page" ] || fail "no bash completion for $page"
done
run "import fathom_torch" env PYTHONPATH="$P/lib/python3/dist-packages" python3 -c "import fathom_torch.errors"

# Relocatable: nothing installed names the build or the checkout (the binaries aside: their
# debug info, stripped, is where such paths would be).
checks=$((checks + 1))
leaks=$(grep -rlI -e "$BUILD" -e "$SRC" "$P" 2>/dev/null)
[ -z "$leaks" ] || fail "installed files name the build or source folder: $leaks"
checks=$((checks + 1))
private=$(grep -rlE "#include <(llvm|z3|Q[A-Za-z]+)[/.>]" "$P/include" 2>/dev/null)
[ -z "$private" ] || fail "installed headers include LLVM, Z3 or Qt: $private"

echo "install_consumer: $checks checks, $failures failed"
[ "$failures" -eq 0 ]
