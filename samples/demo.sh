#!/usr/bin/env bash
# A first look at Fathom for a new user (`./fathom demo` runs it): what a dump holds, its graph,
# a run on real tensors, a symbolic trace with its guards, a training step through AOT autograd, the
# compiling backend and a stride bug it trusts, and what Fathom says about a broken dump.
#   usage: samples/demo.sh PATH/TO/fathom
set -euo pipefail
FATHOM=${1:-build/app/fathom}
cd "$(dirname "${BASH_SOURCE[0]}")/.."
BOLD='' PLAIN=''
if [ -t 1 ]; then BOLD=$'\033[1m' PLAIN=$'\033[0m'; fi
heading() { printf '\n%s== %s%s\n$ fathom %s\n' "$BOLD" "$1" "$PLAIN" "$2"; }

DUMP=samples/mlp.fathom.json
if [ ! -f "$DUMP" ]; then  # not committed yet: write it from the bundled sample
  TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
  DUMP=$TMP/mlp.fathom.json
  "$FATHOM" sample mlp -o "$DUMP" >/dev/null
fi

heading "What is in a dump: graphs, node counts, ops, inputs" "info $DUMP"
"$FATHOM" info "$DUMP"

heading "The graph, one line per node (name : dtype[sizes] [strides] = op(args))" "show $DUMP"
"$FATHOM" show "$DUMP"

heading "Run it on real tensors (seeded example inputs): output layouts and checksums" "run $DUMP"
"$FATHOM" run "$DUMP"

BERT=samples/bert.fathom.json
heading "A BERT-base encoder layer: the same run, PyTorch's values (tests/oracle/samples/bert.json)" "run $BERT"
"$FATHOM" run "$BERT"

TRACED=$(mktemp -d)/bert-dynamic.fathom.json
trap 'rm -rf "$(dirname "$TRACED")" ${TMP:+"$TMP"}' EXIT
heading "Trace the BERT model with symbolic batch and sequence: symbols and guards" "trace bert --dynamic -o $TRACED"
"$FATHOM" trace bert --dynamic -o "$TRACED"
heading "Every guard with where it came from (node, op, model line, module) and why" "guards $TRACED"
"$FATHOM" guards "$TRACED"
heading "Prove things about them with Z3: consistent, minimal, simplified soundly; why 4x600 recompiles" "guards $TRACED --check; --explain input_ids=4x600,attention_mask=4x600"
"$FATHOM" guards "$TRACED" --check
"$FATHOM" guards "$TRACED" --explain input_ids=4x600,attention_mask=4x600 || [ $? -eq 1 ]  # 1: they fail a guard, as shown
heading "Calls through the guarded cache: hits, misses and every failing guard" "trace bert --dynamic --calls 8x128,4x64,1x64"
"$FATHOM" trace bert --dynamic --calls 8x128,4x64,1x64
AOT=$(dirname "$TRACED")/gpt2-aot.fathom.json
heading "The training step (AOT autograd): joint graph, min-cut partition, what the backward saves" "trace gpt2 --layers 2 --dynamic --training --aot --partitioner min-cut -o $AOT"
"$FATHOM" trace gpt2 --layers 2 --dynamic --training --aot --partitioner min-cut -o "$AOT"
heading "Run forward + backward through aot_eager and compare with the eager autograd engine" "run $AOT --backend aot_eager"
"$FATHOM" run "$AOT" --backend aot_eager | tail -n 4

heading "Compile the BERT layer (--backend jit): fused kernels generated with LLVM, every output compared with eager" \
  "show $BERT --kernels; run $BERT --backend jit"
"$FATHOM" show "$BERT" --kernels | grep -v ' extern ' | tail -n 8
"$FATHOM" run "$BERT" --backend jit | tail -n 2
STRIDE=tests/data/jit-input-stride-lie.fathom.json
heading "An input recorded contiguous, passed transposed: the kernels' input check names it (exit 2); --unchecked computes a wrong result; check --backend jit names the kernel" \
  "run $STRIDE --backend jit [--unchecked]; check $STRIDE --backend jit"
set +e
"$FATHOM" run "$STRIDE" --backend jit
"$FATHOM" run "$STRIDE" --backend jit --unchecked | tail -n 2
"$FATHOM" check "$STRIDE" --backend jit | tail -n 2
set -e

TORCH=tests/data/torch-mlp-aot.fathom.json
heading "A graph exported from PyTorch 1.13 (plugins/pytorch): the backward reproduces PyTorch's gradients" "run $TORCH --graph backward"
"$FATHOM" run "$TORCH" --graph backward | tail -n 3
LIES=tests/data/torch-fake-meta-lies.fathom.json
heading "Where PyTorch's own fake tensors record the wrong layout (exit 1: found a problem)" "check $LIES"
set +e
"$FATHOM" check "$LIES"
set -e

MIN=$(dirname "$TRACED")/bert-miscompiled.min.fathom.json
# The faulty backends are a plugin (plugins/faulty_backends), built beside fathom.
FAULTY=$(cd "$(dirname "$FATHOM")/.." && pwd)/plugins/libfathom_faulty_backends.so
heading "A backend that miscompiles one pattern (gelu of a matmul), from a plugin: minify the BERT layer to it, in worker subprocesses" \
  "minify $BERT --plugin ${FAULTY#"$PWD/"} --backend faulty-miscompile --predicate accuracy -j 2 -o $MIN"
"$FATHOM" minify "$BERT" --plugin "$FAULTY" --backend faulty-miscompile --predicate accuracy -j 2 -o "$MIN" --force
"$FATHOM" show "$MIN"
heading "The repro as a standalone GoogleTest that fails while the bug is there" "export $MIN --as gtest -o ${MIN%.fathom.json}_test.cpp"
"$FATHOM" export "$MIN" --plugin "$FAULTY" --as gtest -o "${MIN%.fathom.json}_test.cpp" --force
grep -c "b.call" "${MIN%.fathom.json}_test.cpp" | sed 's/^/GraphBuilder calls in the test: /'

BAD=samples/bad/cycle.json
heading "A broken dump: exit code 2 and one line naming the file, the place and the problem" "info $BAD"
set +e
"$FATHOM" info "$BAD"
echo "(exit code $?)"
set -e

printf '\nMore: fathom --help, fathom show DUMP --format dot, fathom run DUMP --json, samples/bad/README.md\n'
