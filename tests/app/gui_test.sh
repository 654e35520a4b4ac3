#!/usr/bin/env bash
# fathom-gui --screenshot, headless (QT_QPA_PLATFORM=offscreen): a sample, an AOT trace of the
# 2-layer BERT (joint graph, saved values, guards), a PyTorch export, each with a panel or a
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

# The timeline of a recompile session: with no DUMP, the first compile's dump opens; --event opens
# the second recompile's third failing guard (entry #1's dump, attention_mask selected).
"$CLI" trace bert --dynamic --calls 8x128,4x64,1x64,8x1 -o "$T/tl.fathom.json" --trace-log "$T/tl.jsonl" >/dev/null 2>&1 ||
  fail "fathom trace bert --calls failed"
ok --trace-log "$T/tl.jsonl" --event recompile:2 --failing-guard 3 --screenshot "$T/timeline.png" --size 1400x900
png_ok "$T/timeline.png" 1400x900
ok "$T/tl.entry2.fathom.json" --trace-log "$T/tl.jsonl" --panel timeline --screenshot "$T/timeline-panel.png" --size 1200x800
png_ok "$T/timeline-panel.png" 1200x800
usage_error "no recompile event number 3" --trace-log "$T/tl.jsonl" --event recompile:3 --screenshot "$T/x.png"
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
finish
