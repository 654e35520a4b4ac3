#!/usr/bin/env bash
# fathom-gui --screenshot, headless (QT_QPA_PLATFORM=offscreen): a sample, an AOT trace of the
# 2-layer BERT (joint graph, saved values, guards), a PyTorch export, each with a panel or a
# selection; a diff of a recompile side by side and overlaid; the PNGs are written and not blank. Bad input: a bad dump exits 2 with the CLI's one
# selection; the interpreter panel (run to a node, steps of a training step, a check report); the
# PNGs are written and not blank. Bad input: a bad dump exits 2 with the CLI's one
# line; a bad --graph / --select / --size exits 2 naming it.
# selection; the PNGs are written and not blank; --minify runs the minifier panel to the end (or
# stops it in flight with --minify-stop-after) before the shot. Bad input: a bad dump exits 2
# with the CLI's one line; a bad --graph / --select / --size exits 2 naming it; a minification
# without a result exits 1 with the CLI's line.
# selection, and the timeline of a `trace --calls` session; the PNGs are written and not blank. Bad
# input: a bad dump or trace log exits 2 with the CLI's one line; a bad --graph / --select / --size /
# --event exits 2 naming it.
#   usage: gui_test.sh PATH/TO/fathom-gui SOURCE_ROOT PATH/TO/fathom
set -u
CLI=$3
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" gui_screenshots "$1" "$2"
export QT_QPA_PLATFORM=offscreen

# A PNG with the given size whose pixels are not all one colour.
png_ok() {
  checks=$((checks + 1))
  local file=$1 size=$2
  [ -s "$file" ] || { fail "$file was not written"; return; }
  local info
  info=$(/usr/bin/python3 - "$file" <<'PY' 2>/dev/null
import struct, sys, zlib
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n'
w, h = struct.unpack('>II', data[16:24])
# Distinct IDAT bytes: a blank image compresses to almost nothing.
print(f"{w}x{h} {len(data)}")
PY
)
  [ "${info%% *}" = "$size" ] || fail "$file: size ${info%% *}, expected $size"
  [ "${info##* }" -gt 20000 ] || fail "$file: only ${info##* } bytes; is it blank?"
}

ok samples/mlp.fathom.json --screenshot "$T/mlp.png" --size 1200x800 --select addmm
png_ok "$T/mlp.png" 1200x800

"$CLI" trace bert --layers 2 --dynamic --aot -o "$T/bert-aot.fathom.json" >/dev/null 2>&1 || fail "fathom trace bert --aot failed"
ok "$T/bert-aot.fathom.json" --screenshot "$T/bert-joint.png" --size 1600x1000 --panel guards
png_ok "$T/bert-joint.png" 1600x1000
ok "$T/bert-aot.fathom.json" --screenshot "$T/bert-forward.png" --graph forward --expand encoder.layer.0 --size 1400x900
png_ok "$T/bert-forward.png" 1400x900
ok "$T/bert-aot.fathom.json" --screenshot "$T/bert-explain.png" --explain input_ids=4x600,attention_mask=4x600 --size 1400x900
png_ok "$T/bert-explain.png" 1400x900

ok tests/data/torch-mlp-aot.fathom.json --screenshot "$T/torch.png" --graph backward
png_ok "$T/torch.png" 1600x1000

# --diff: a recompile (the entries of `trace bert --dynamic --calls 8x128,1x64`: batch 1 is
# specialized), side by side with a removed node selected, and overlaid; the diff panel in front.
"$CLI" trace bert --dynamic --batch 8 --seq 128 -o "$T/rc-a.fathom.json" >/dev/null 2>&1 || fail "trace bert 8x128 failed"
"$CLI" trace bert --dynamic --batch 1 --seq 64 -o "$T/rc-b.fathom.json" >/dev/null 2>&1 || fail "trace bert 1x64 failed"
ok "$T/rc-a.fathom.json" --diff "$T/rc-b.fathom.json" --select sym_size_1 --panel diff --screenshot "$T/diff-side.png" --size 1400x900
png_ok "$T/diff-side.png" 1400x900
ok "$T/rc-a.fathom.json" --diff "$T/rc-b.fathom.json" --diff-mode overlay --screenshot "$T/diff-overlay.png" --size 1400x900
png_ok "$T/diff-overlay.png" 1400x900
usage_error "cannot open" samples/mlp.fathom.json --diff "$T/nope.fathom.json" --screenshot "$T/x.png"
usage_error "--diff-mode takes side or overlay" samples/mlp.fathom.json --diff samples/mlp.fathom.json --diff-mode both --screenshot "$T/x.png"
# --minify: the minifier panel runs `fathom minify` (the one beside fathom-gui) before the shot.
ok tests/data/torch-fake-meta-lies.fathom.json --screenshot "$T/minify.png" --size 1400x900 --minify accuracy:kernels --minify-backend jit
png_ok "$T/minify.png" 1400x900
checks=$((checks + 1))
grep -q "^minify: minimized: 13 -> 5 nodes in [0-9]* queries ([0-9.]* s); result: .*torch-fake-meta-lies.min.fathom.json$" "$T/out" ||
  fail "--minify: the outcome line, got: $(cat "$T/out")"
# In flight: the shot after 3 queries of a slow predicate, then Cancel keeps the best so far.
printf '#!/bin/bash\nsleep 0.3\ngrep -q "aten.relu.default" "${@: -1}"\n' >"$T/slow-relu.sh"
chmod +x "$T/slow-relu.sh"
ok samples/mlp.fathom.json --screenshot "$T/minify-flight.png" --size 1400x900 --minify "script:$T/slow-relu.sh" --minify-stop-after 3
png_ok "$T/minify-flight.png" 1400x900
checks=$((checks + 1))
grep -q "^minify: cancelled: the best so far, 16 -> [0-9]* nodes, is kept; result: " "$T/out" || fail "--minify-stop-after: got $(cat "$T/out")"
exits 1 "fathom: --predicate must be" samples/mlp.fathom.json --screenshot "$T/minify-bad.png" --minify segfault
exits 1 "does not raise an error under backend eager" samples/mlp.fathom.json --screenshot "$T/minify-bad.png" --minify exception
usage_error "--panel: no panel named 'nope' (guards, inspector, find, interp, diff, minify or timeline)" samples/mlp.fathom.json --screenshot "$T/x.png" --panel nope
usage_error "--minify requires --screenshot" samples/mlp.fathom.json --minify crash
usage_error "--minify-jobs requires --minify" samples/mlp.fathom.json --screenshot "$T/x.png" --minify-jobs 2
# A repro brings its own predicate and backend ("repro"): the minified repro is already minimal.
"$CLI" minify tests/data/torch-fake-meta-lies.fathom.json --backend jit --predicate accuracy:kernels -o "$T/lies.min.fathom.json" >/dev/null 2>&1 ||
  fail "fathom minify of the lying export failed"
ok "$T/lies.min.fathom.json" --screenshot "$T/minify-repro.png" --minify repro
checks=$((checks + 1))
grep -q "^minify: minimized: 5 -> 5 nodes" "$T/out" || fail "--minify repro: got $(cat "$T/out")"
# The interpreter panel: stepped to the origin of the lying export, a training step, a check report.
L=tests/data/torch-fake-meta-lies.fathom.json
ok "$L" --screenshot "$T/interp.png" --panel interp --run-to getitem --size 1400x900
png_ok "$T/interp.png" 1400x900
ok "$T/bert-aot.fathom.json" --screenshot "$T/interp-aot.png" --panel interp --break aten.addmm.default --step 40 --size 1400x900
png_ok "$T/interp-aot.png" 1400x900
"$CLI" check "$L" --json >"$T/report.json" 2>/dev/null
ok "$L" --screenshot "$T/report.png" --check-report "$T/report.json"
png_ok "$T/report.png" 1600x1000
usage_error "--run-to: No node 'nope'" "$L" --screenshot "$T/x.png" --run-to nope
usage_error "--run-to: %t already ran" "$L" --screenshot "$T/x.png" --step 6 --run-to t
usage_error "--check-report: " "$L" --screenshot "$T/x.png" --check-report "$T/missing.json"
usage_error "--break: no node or op 'nope'" "$L" --screenshot "$T/x.png" --break nope
# The timeline of a recompile session: with no DUMP, the first compile's dump opens; --event opens
# the second recompile's third failing guard (entry #1's dump, attention_mask selected).
"$CLI" trace bert --dynamic --calls 8x128,4x64,1x64,8x1 -o "$T/tl.fathom.json" --trace-log "$T/tl.jsonl" >/dev/null 2>&1 ||
  fail "fathom trace bert --calls failed"
ok --trace-log "$T/tl.jsonl" --event recompile:2 --failing-guard 3 --screenshot "$T/timeline.png" --size 1400x900
png_ok "$T/timeline.png" 1400x900
ok "$T/tl.entry2.fathom.json" --trace-log "$T/tl.jsonl" --panel timeline --screenshot "$T/timeline-panel.png" --size 1200x800
png_ok "$T/timeline-panel.png" 1200x800
# An early error leaves the guard check running; five tries because exiting under it once died
# with SIGFPE inside Z3 (the pools are now the application's, waited for before static teardown).
for _ in 1 2 3 4 5; do
  usage_error "no recompile event number 3" --trace-log "$T/tl.jsonl" --event recompile:3 --screenshot "$T/x.png"
done
usage_error "'nope' is not an event kind" --trace-log "$T/tl.jsonl" --event nope --screenshot "$T/x.png"
usage_error "the recompile has 4 failing guard(s)" --trace-log "$T/tl.jsonl" --event recompile:2 --failing-guard 9 --screenshot "$T/x.png"
usage_error "samples/mlp.fathom.json: line 1: not a trace log" --trace-log samples/mlp.fathom.json --screenshot "$T/x.png"
usage_error "--event needs --trace-log" samples/mlp.fathom.json --event recompile --screenshot "$T/x.png"
checks=$((checks + 1))
[ -e "$T/x.png" ] && fail "a PNG was written for a bad --trace-log or --event"

for bad in samples/bad/cycle.json samples/bad/empty.json; do
  expected=$("$CLI" info "$bad" 2>&1 >/dev/null)
  usage_error "${expected#fathom: }" "$bad" --screenshot "$T/bad.png"
  checks=$((checks + 1))
  [ -e "$T/bad.png" ] && fail "a PNG was written for $bad"
done
usage_error "no graph named 'nope'" samples/mlp.fathom.json --screenshot "$T/x.png" --graph nope
usage_error "no node 'nope'" samples/mlp.fathom.json --screenshot "$T/x.png" --select nope
usage_error "--size takes WxH" samples/mlp.fathom.json --screenshot "$T/x.png" --size huge
usage_error "--screenshot needs a DUMP" --screenshot "$T/x.png"
# Plugins: a dump of custom ops opens with --plugin (and only with it); a broken plugin is exit 2.
PLUGINS=$(cd "$(dirname "$CLI")/.." && pwd)
ok samples/plugins/demo-ops.fathom.json --plugin "$PLUGINS/plugins/libfathom_demo_ops.so" --screenshot "$T/plugin.png" --select row_pad --size 1200x800
png_ok "$T/plugin.png" 1200x800
usage_error "unknown op 'demo.scaled_add.default'" samples/plugins/demo-ops.fathom.json --screenshot "$T/x.png"
usage_error "plugin API version 99" samples/mlp.fathom.json --plugin "$PLUGINS/tests/plugins/libfathom_broken_version.so" --screenshot "$T/x.png"
finish
