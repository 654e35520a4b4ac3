#!/bin/bash
# Plugins (plugins/api/FathomPlugin.h) from the command line: the in-tree ones load and work end to
# end - a custom op with a meta function and one without (demo_ops: info, run, check, minify,
# probe, export), a predicate and a backend (nan_check); FATHOM_PLUGIN_PATH; `fathom plugins`;
# and every broken plugin gives its one error naming the file and the name, and fathom goes on
# without it (exit 2 only for a plugin named by --plugin). A plugin backend that crashes inside a
# minifier query is a crashed query: the crash predicate minifies it.
#   usage: plugins_test.sh FATHOM_BINARY SOURCE_ROOT BUILD_DIR
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" plugins_test "$@"
BUILD=$3
unset FATHOM_PLUGIN_PATH  # this test loads its plugins itself (lib.sh's faulty backends would count)
OPS=$BUILD/plugins/libfathom_demo_ops.so
NAN=$BUILD/plugins/libfathom_nan_check.so
BROKEN=$BUILD/tests/plugins
DEMO=samples/plugins/demo-ops.fathom.json

# --- what loaded -------------------------------------------------------------------------------
ok plugins --plugin "$OPS" --plugin "$NAN" --json &&
  expect_jq '.api_version == 1 and (.plugins | length) == 2 and .plugins[0].name == "demo-ops"
             and .plugins[0].ops == ["demo.scaled_add.default", "demo.row_pad.default"] and .plugins[0].ops_without_meta == ["demo.row_pad.default"]
             and .plugins[1].backends == ["flush-denormals"] and .plugins[1].predicates == ["nonfinite"] and .errors == []' \
    "$T/out" "plugins --json: both in-tree plugins and what each registered"
ok plugins && grep -q "no plugins loaded" "$T/out" || fail "plugins: says when none is loaded"
exits 0 "flush-denormals" minify --help --plugin "$NAN"

# --- the custom ops end to end ---------------------------------------------------------------------
usage_error "unknown op 'demo.scaled_add.default'" run $DEMO
ok run $DEMO --plugin "$OPS" && grep -q "output 0: float32 sizes \[4, 11\]" "$T/out" || fail "run: the custom ops ran"
ok check $DEMO --plugin "$OPS" && grep -q "0 mismatches" "$T/out" || fail "check: the custom ops' recorded meta holds"
ok info $DEMO --plugin="$OPS"
# The predicate plugin minifies a graph of the op plugin (log of the padding's zeros is -inf).
ok minify $DEMO --plugin "$OPS" --plugin "$NAN" --predicate nonfinite -o "$T/nf.fathom.json" -j 2 --json &&
  expect_jq '.predicate == "nonfinite" and .end_nodes == 3' "$T/out" "minify --predicate nonfinite (a plugin's predicate, isolated)"
ok show "$T/nf.fathom.json" --plugin "$OPS" && grep -q "aten.log.default" "$T/out" || fail "the minimized repro keeps the log"
ok minify $DEMO --plugin "$OPS" --plugin "$NAN" --predicate nonfinite:1 --backend flush-denormals --in-process -o "$T/nf1.fathom.json" --json &&
  expect_jq '.predicate == "nonfinite:1" and .backend == "flush-denormals" and (.isolated | not)' "$T/out" "a plugin's backend and predicate argument"
exits 0 "fails: output 0:" probe "$T/nf.fathom.json" --plugin "$OPS" --plugin "$NAN"
usage_error "--predicate must be" probe "$T/nf.fathom.json" --plugin "$OPS"
ok export "$T/nf.fathom.json" --as dump -o "$T/nf.export.fathom.json" --plugin "$OPS" --plugin "$NAN"
# FATHOM_PLUGIN_PATH: a folder of plugins; a broken one on it is a warning, the command goes on.
mkdir -p "$T/path"
cp "$OPS" "$NAN" "$T/path/"
FATHOM_PLUGIN_PATH="$T/path" ok run $DEMO
cp "$BROKEN/libfathom_broken_version.so" "$T/path/"
checks=$((checks + 1))
FATHOM_PLUGIN_PATH="$T/path" "$FATHOM" run $DEMO >"$T/out" 2>"$T/err" || fail "FATHOM_PLUGIN_PATH with a broken plugin: exit $?"
grep -q "warning: .*libfathom_broken_version.so (from FATHOM_PLUGIN_PATH): plugin API version 99" "$T/err" ||
  fail "FATHOM_PLUGIN_PATH: the broken plugin's warning ($(cat "$T/err"))"

# --- an importer, and layouts from kernels: demo::row_pad has no meta, so building the graph the
# importer reads infers it from the kernel (f32[4, 11]); a declared meta that lies is caught.
printf 'input x 4x8\nrelu\ndemo::row_pad 3\nlog\n' >"$T/chain.ops.txt"
ok show "$T/chain.ops.txt" --plugin "$OPS" && grep -q "%row_pad : f32\[4, 11\] \[11, 1\] = demo.row_pad.default(%relu, 3)" "$T/out" ||
  fail "the importer's graph, row_pad's layout inferred: $(cat "$T/out")"
ok check "$T/chain.ops.txt" --plugin "$OPS" && grep -q "0 mismatches" "$T/out" || fail "the inferred layout holds when it runs"
usage_error "syntax error" show "$T/chain.ops.txt"
printf 'input x 4x6\nbroken::twice\n' >"$T/twice.ops.txt"
usage_error "its declared meta function disagrees with its kernel: broken.twice.default: on in0 [4, 6] contiguous: output 0 strides: [1, 4] claimed, [6, 1] real" show "$T/twice.ops.txt" --plugin "$OPS" \
  --plugin "$BROKEN/libfathom_broken_wrong_meta.so"
printf 'input x 4x6\nnot_an_op\n' >"$T/bad.ops.txt"
usage_error "line 2: " show "$T/bad.ops.txt" --plugin "$OPS"

# --- broken plugins: one error each, naming the file and what is wrong --------------------------------
usage_error "libfathom_broken_version.so: plugin API version 99, this fathom's is 1" info $DEMO --plugin "$BROKEN/libfathom_broken_version.so"
usage_error "libfathom_broken_missing_symbol.so: cannot load: " info $DEMO --plugin "$BROKEN/libfathom_broken_missing_symbol.so"
checks=$((checks + 1))
"$FATHOM" info $DEMO --plugin "$BROKEN/libfathom_broken_missing_symbol.so" 2>&1 | grep -q "undefined symbol" || fail "a missing symbol is named"
usage_error "backend 'eager' is already registered, built in: the plugin is not loaded" plugins --plugin "$BROKEN/libfathom_broken_duplicate.so"
usage_error "crashed while loading (SIGSEGV): the plugin is not loaded" plugins --plugin "$BROKEN/libfathom_broken_crash_at_load.so"
usage_error "not a Fathom plugin" plugins --plugin "$(ldd "$FATHOM" | awk '/libz\.so/ { print $3; exit }')"
usage_error "cannot load: " plugins --plugin "$T/nothing.so"
cp "$OPS" "$T/twin.so"
usage_error "op 'demo.scaled_add.default' is already registered, by plugin demo-ops" plugins --plugin "$OPS" --plugin "$T/twin.so"
usage_error "--plugin needs the path" info $DEMO --plugin
# Nothing of a refused plugin stays: its first backend (registered before the duplicate) is gone.
FATHOM_PLUGIN_PATH="$BROKEN/libfathom_broken_duplicate.so" exits 2 "--backend must be one of" minify samples/mlp.fathom.json --backend crash-on-log-twin --predicate exception

# --- a plugin's backend crashing inside a minifier query is that query's crash ----------------------------
ok minify $DEMO --plugin "$OPS" --plugin "$BROKEN/libfathom_broken_crashing_backend.so" --backend crash-on-log --predicate crash -o "$T/crash.fathom.json" --json &&
  expect_jq '.predicate == "crash:SIGSEGV" and .end_nodes == 3' "$T/out" "minify a plugin backend's crash down to the log"
finish
