#!/usr/bin/env bash
# check.py finds what it says it finds: a made-up tree with one problem of each kind.
set -euo pipefail
CHECK="$(dirname "${BASH_SOURCE[0]}")/check.py"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/engine/core" "$T/viz/model" "$T/app"
printf '#include <z3++.h>\n#include "app/Cli.h"\n' >"$T/engine/core/A.cpp"
printf '#include <QWidget>\n' >"$T/viz/model/B.h"
{ echo 'int f() {'; for i in $(seq 90); do echo "  int x$i = $i;"; done; echo '  return 0;'; echo '}'; } >"$T/app/C.cpp"
{ echo '// Long: generated table'; echo 'int g() {'; for i in $(seq 90); do echo "  int y$i = $i;"; done; echo '}'; } >"$T/app/D.cpp"
printf '| file | what |\n|---|---|\n| `Missing.h/.cpp` | gone |\n| `C.cpp` | here |\n' >"$T/app/README.md"
mkdir -p "$T/engine/many" "$T/engine/ops" "$T/engine/aot" "$T/engine/tensor"
printf '#include "engine/aot/Joint.h"\n#include "engine/core/Result.h"\n' >"$T/engine/ops/E.cpp"
printf '#include "engine/ops/E.h"\n' >"$T/engine/aot/Joint.h"
echo '// a second Joint.h' >"$T/engine/tensor/Joint.h"
for i in $(seq 11); do echo "int v$i;" >"$T/engine/many/F$i.cpp"; done
printf '// see engine/core/Gone.cpp, engine/core/A.cpp and build/app/fathom\n' >"$T/engine/core/G.cpp"
printf '| file | what |\n|---|---|\n| `A.cpp` | %s |\n| `G.cpp` | %s |\n' "$(printf 'x%.0s' $(seq 301))" "$(printf 'y%.0s' $(seq 300))" >"$T/engine/core/README.md"
{ echo 'void f(TraceLog& log) { log.emit("cache_hit", 0, "compile"); }'; echo '// not log.emit("cache_hit", ...) but:';
  echo 'void g(TraceLog* log) { log->emit(0, "compile", CacheHitEvent{}); }'; } >"$T/app/H.cpp"
if python3 "$CHECK" "$T" >"$T/out"; then echo "check.py passed a bad tree"; exit 1; fi
fail=0
expect() { grep -qF "$1" "$T/out" || { echo "missing: $1"; fail=1; }; }
expect "engine/core/A.cpp:1: includes Z3"
expect "engine/core/A.cpp:2: engine/ must not include app/Cli.h"
expect "viz/model/B.h:1: includes Qt"
expect "app/C.cpp:1: function of 93 lines"
expect "app/README.md:3: names Missing.h, which does not exist"
expect "app/README.md:3: names Missing.cpp, which does not exist"
expect "engine/many/: 11 files and no README.md"
expect "engine/ops/E.cpp:1: engine/ops/ must not include engine/aot/Joint.h"
expect "engine/tensor/Joint.h: a header named Joint.h is also engine/aot/Joint.h"
expect "engine/core/G.cpp:1: comment names engine/core/Gone.cpp, which does not exist"
expect "engine/core/README.md:3: table cell of 301 characters (at most 300)"
expect 'app/H.cpp:1: emits trace event "cache_hit" by a literal; use its struct in engine/core/TraceEvents.h'
if grep -q "D.cpp" "$T/out" || grep -q "names C.cpp" "$T/out" || grep -q "engine/aot/Joint.h:1" "$T/out" || grep -q "E.cpp:2" "$T/out" ||
   grep -q "names engine/core/A.cpp\|build/app\|README.md:4\|H.cpp:2\|H.cpp:3" "$T/out"; then echo "flagged what is allowed:"; cat "$T/out"; fail=1; fi
[ $fail -eq 0 ] || { cat "$T/out"; exit 1; }
echo "check.py: 12 planted problems found, 9 allowed things passed"
