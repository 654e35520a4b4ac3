#!/usr/bin/env bash
# The jit backend from the command line (issue 21): show --kernels / --ir, run --backend jit and
# aot_jit against eager, the disk cache (a second process compiles nothing), and stride-bug story
# (a) on tests/data/jit-input-stride-lie.fathom.json: the input check names the input, --unchecked
# gives the wrong result, check names %x and the kernel, the minifier shrinks it to x and mul.
#   usage: jit_test.sh FATHOM_BINARY SOURCE_ROOT
set -u
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh" jit_test "$@"

if ! "$FATHOM" run samples/mlp.fathom.json --backend jit >/dev/null 2>"$T/err" && grep -q "needs LLVM 19" "$T/err"; then
  echo "jit_test: skipped: this build has no LLVM 19"; exit 0
fi
LIE=tests/data/jit-input-stride-lie.fathom.json

# --- show: the plan says what is generated; --ir prints a kernel -----------------------------
ok show samples/bert.fathom.json --kernels && grep -Eq '^pointwise_[0-9]+ +pointwise .* -> llvm$' "$T/out" \
  || fail "show --kernels bert: no generated pointwise kernel"
ok show samples/bert.fathom.json --kernels --json && expect_jq \
  '([.kernels[] | select(.kind == "pointwise") | .code] | all(. == "llvm")) and
   ([.kernels[] | select(.kind == "row-local") | .code] | all(. == "llvm")) and
   ([.kernels[] | select(.code == "eager") | .why] | all(length > 0))' "$T/out" "show --kernels --json bert: pointwise and row-local kernels generated, the extern ones say why"
ok show $LIE --ir reduction_1 && grep -q '^kernel reduction_1 (%mul, %add, %relu, %add_1, %sum)' "$T/out" \
  && grep -q 'define void @fathom_kernel_' "$T/out" && grep -q ' x float>' "$T/out" \
  || fail "show --ir reduction_1: the kernel text and its vectorized IR"
ok show $LIE --ir reduction_1 --unoptimized && ! grep -q ' x float>' "$T/out" || fail "show --ir --unoptimized: not vectorized yet"
usage_error "has no kernel 'nope'" show $LIE --ir nope
usage_error "runs on the eager kernels" show $LIE --ir extern_0

# --- run --backend jit: every output against eager; a second process compiles nothing ---------
for d in samples/mlp.fathom.json samples/bert.fathom.json tests/data/mlp-dynamic.fathom.json tests/data/torch2-dynamic.fathom.json; do
  ok run "$d" --backend jit --json && expect_jq '.backend == "jit" and .jit.generated > 0 and .eager.match' "$T/out" \
    "run --backend jit $d: generated kernels, every output matches eager"
done
ok run samples/bert.fathom.json --backend jit --json && expect_jq '.jit.compiled == 0 and .jit.from_disk_cache > 0' "$T/out" \
  "run --backend jit bert again: nothing compiled, the kernels come from the disk cache"
ok run samples/bert.fathom.json --backend jit && grep -q '^all 1 outputs match the eager interpreter' "$T/out" \
  || fail "run --backend jit bert: the eager comparison line"
# A damaged cache entry is a miss: compiled again (and replaced), never linked.
for f in "$FATHOM_KERNEL_CACHE"/*.o; do printf 'not an object file' >"$f"; done
ok run samples/bert.fathom.json --backend jit --json && expect_jq '.jit.compiled > 0 and .eager.match' "$T/out" \
  "run --backend jit bert on a damaged disk cache: compiled again, outputs match"
ok run samples/bert.fathom.json --backend jit --json && expect_jq '.jit.compiled == 0 and .jit.from_disk_cache > 0' "$T/out" \
  "run --backend jit bert after the damaged cache: the entry was replaced"
FATHOM_KERNEL_CACHE=off "$FATHOM" run samples/mlp.fathom.json --backend jit --json >"$T/out" 2>"$T/err"
expect_jq '.jit.compiled > 0 and .jit.from_disk_cache == 0' "$T/out" "FATHOM_KERNEL_CACHE=off: compiled, no disk cache"

# --- aot_jit: the training step with both graphs compiled --------------------------------------
ok trace mlp --aot -o "$T/mlp-aot.fathom.json"
ok run "$T/mlp-aot.fathom.json" --backend aot_jit --json && expect_jq \
  '.backend == "aot_jit" and .match and .jit.graphs == 2 and .jit.generated > 0' "$T/out" "run --backend aot_jit mlp: matches eager autograd"

# --- story (a): an input recorded contiguous, passed transposed --------------------------------
exits 2 "input %x does not have the layout the compiled kernels assume" run $LIE --backend jit
grep -q "recorded sizes \[8, 16\] strides \[16, 1\], the tensor has sizes \[8, 16\] strides \[1, 8\]; kernel reduction_1" "$T/err" \
  || fail "run --backend jit story (a): both layouts and the kernel: $(cat "$T/err")"
exits 1 "MISMATCH output 0 against eager" run $LIE --backend jit --unchecked
exits 1 "ORIGIN    %x = placeholder  strides: recorded [16, 1], real [1, 8]" check $LIE
exits 1 "first divergence: kernel reduction_1" check $LIE --backend jit
"$FATHOM" check $LIE --backend jit --json >"$T/out" 2>/dev/null
expect_jq '.kernels[0].divergences[0] | .kernel == "reduction_1" and .value == "sum" and .field == "values"' "$T/out" \
  "check --backend jit --json story (a): the diverging kernel"
ok minify $LIE --backend jit-unchecked --predicate accuracy -o "$T/a.min.fathom.json" \
  && ok show "$T/a.min.fathom.json" && expect_jq . "$T/a.min.fathom.json" "minified repro is JSON"
grep -Eq '^%mul : f32\[8, 16\] \[16, 1\] = aten.mul.Tensor\(%x' "$T/out" && [ "$(grep -c ' = aten\.' "$T/out")" -eq 1 ] \
  || fail "minify story (a): expected x and one mul, got: $(cat "$T/out")"

# --- accuracy:kernels: the minifier on kernel-by-kernel divergence -----------------------------
# PyTorch's meta for where lies about its strides (tests/data/torch-fake-meta-lies.fathom.json): the
# fused kernel writes the recorded layout, eager the real one; the minifier keeps that one kernel.
ok minify tests/data/torch-fake-meta-lies.fathom.json --backend jit --predicate accuracy:kernels -o "$T/k.min.fathom.json" \
  && ok show "$T/k.min.fathom.json"
[ "$(grep -c ' = aten\.' "$T/out")" -eq 1 ] && grep -q 'aten.where.self' "$T/out" \
  || fail "minify accuracy:kernels: expected the one where kernel, got: $(cat "$T/out")"
exits 1 "accuracy:kernels checks the jit's kernels: it needs --backend jit or jit-unchecked" \
  minify tests/data/torch-fake-meta-lies.fathom.json --predicate accuracy:kernels -o "$T/k2.fathom.json"

# --- usage ------------------------------------------------------------------------------------
usage_error "--backend must be eager, jit, aot_eager or aot_jit" run samples/mlp.fathom.json --backend nope
usage_error "--unchecked only with a jit" run samples/mlp.fathom.json --unchecked
usage_error "check: --backend must be eager or jit" check samples/mlp.fathom.json --backend aot_jit
finish
