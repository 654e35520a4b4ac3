#!/usr/bin/env python3
"""Structure checks (ctest `structure_checks`): the rules that keep the tree readable, as a test.

  1. A third-party library's headers are included only by its wrapper files (ALLOWED below), so
     a slow or heavy header (Qt's moc'd classes, LLVM, Z3) never spreads through the build.
  2. Layers point one way: engine/ includes nothing of minifier/, app/, viz/ or plugins/; inside
     engine/, a folder includes only folders before it in ENGINE_ORDER (the pipeline, bottom up),
     and of those only ENGINE_USES_ONLY's where it names the folder (compile: graph and below);
     the Qt-free viz core (viz/model, viz/layout) nothing of Qt or viz/gui; minifier/ nothing of app/.
  3. Sizes: a .cpp at most 500 lines, a header at most 200, a function at most 80 - unless a
     comment says why: "// Long: <why>" in the file's first 30 lines (for the file) or in the
     5 lines above the function (for the function).
  4. Every file a README table names (`Name.cpp`, `dir/File.h/.cpp`, `folder/`) exists.
  5. Every folder of more than ten files has a README.md saying what lives there.
  6. No two headers share a name (an include line, a search or a stack trace names one file).
  7. Every repository path a `//` comment names (`engine/dump/DumpReader.cpp`, `viz/gui/`)
     exists, so a comment never sends a reader to a file that moved; placeholders (`NAME`, `*`,
     `<...>`) and build outputs (`build/app/fathom`) are not paths.
  8. A README table cell is at most 300 characters: a table says what lives where; longer
     detail (measurements, reasons) goes in a paragraph below it.
  9. A trace-log event is emitted by its struct (`log.emit(id, stage, CacheHitEvent{...})`,
     engine/core/TraceEvents.h), never by its name as a literal (`emit("cache_hit", ...)`), so the
     code that writes it and the code that reads it share one field list (EMIT_BY_NAME_ALLOWED:
     the codec itself, and TraceLog's own test of what it writes).

Usage: check.py ROOT. Prints one line per problem (FILE:LINE: what) and exits 1 if any.
"""
import os
import re
import sys

FOLDERS = ["engine", "minifier", "app", "viz", "plugins", "samples", "tests"]
SOURCE_EXT = (".cpp", ".h")

# library: (how its includes look, where they may appear: path prefixes)
ALLOWED = {
    "Qt": (re.compile(r"#include <Q[A-Za-z]+>"), ["viz/gui/", "app/gui/", "tests/viz/gui/", "tests/bench/GuiFrameBench.cpp",
                                              "tests/bench/GuiInterpStepBench.cpp"]),
    "Z3": (re.compile(r"#include <z3"), ["engine/symbolic/Solver.cpp"]),
    "LLVM": (re.compile(r"#include <(llvm|llvm-c)/"), ["engine/compile/"]),
    "Graphviz": (re.compile(r"#include <(gvc|cgraph|graphviz/)"), ["viz/layout/GraphvizLayout.cpp", "tests/bench/GuiFrameBench.cpp"]),
    "simdjson": (re.compile(r"#include <simdjson"), ["engine/dump/JsonEvents.cpp", "tests/bench/DumpLoadBench.cpp"]),
    "Boost": (re.compile(r"#include <boost/"), ["engine/aot/MinCut.cpp"]),
    "readline": (re.compile(r"#include <readline/"), ["app/LineReader.cpp"]),
    "OpenBLAS": (re.compile(r"#include <(cblas|openblas)"),
                 ["engine/ops/cpu/Gemm.cpp", "engine/ops/cpu/VectorBlas.cpp", "engine/ops/cpu/ComputeThreads.cpp",
                  "tests/engine/ops/MatmulOpsTest.cpp"]),
    "CLI11": (re.compile(r"#include <CLI/"), ["app/"]),
    "nlohmann/json": (re.compile(r"#include <nlohmann/"), ["engine/dump/", "engine/core/TraceLog.cpp", "app/", "tests/"]),
}

LAYERS = [  # (files under, must not include)
    ("engine/", ["minifier/", "app/", "viz/", "plugins/"]),
    ("viz/model/", ["viz/gui/"]),
    ("viz/layout/", ["viz/gui/", "viz/model/"]),
    ("minifier/", ["app/", "viz/"]),
]
# engine/ folders, bottom up: each may include only those before it (frontend never includes
# autograd: autograd installs its tape through frontend/GradRecorder.h).
ENGINE_ORDER = ["core", "tensor", "symbolic", "ops", "graph", "interp", "dump", "frontend", "autograd", "aot", "compile", "jit"]
# Folders that use fewer of those before them: the compiling backend plans and (later) generates
# kernels from a graph alone, so a change to the interpreters, dumps or tracing never reaches it.
ENGINE_USES_ONLY = {"compile": ["core", "tensor", "symbolic", "ops", "graph"]}
QT_FREE = ["engine/", "minifier/", "viz/model/", "viz/layout/"]

MAX_LINES = {".cpp": 500, ".h": 200}
MAX_FUNCTION = 80
LONG = re.compile(r"//\s*Long:")
FUNCTION_START = re.compile(r"^( {0,2})[A-Za-z_].*\)\s*(const)?\s*(override)?\s*(noexcept)?\s*\{\s*$")
NOT_FUNCTION = re.compile(r"^\s*(if|for|while|switch|else|do|return|namespace|class|struct|enum|union|case)\b|=\s*\[|\bstatic_assert\b")
# A path a comment names: a top-level folder not inside a longer path (build/app/fathom is no path).
COMMENT_PATH = re.compile(r"(?<![\w./-])(?:engine|minifier|app|viz|plugins|samples|tests|cmake|\.ci)/\S*")
PLACEHOLDER = re.compile(r"[*<{$]|NAME|\.\.\.")
TRAILING = ").,;:'\"`"
MAX_CELL = 300
# emit("name", ...): an event named by a literal rather than written by its struct.
EMIT_BY_NAME = re.compile(r'\bemit\(\s*"([^"]*)"')
EMIT_BY_NAME_ALLOWED = ["engine/core/TraceEvents.", "engine/core/TraceFields.", "engine/core/TraceLog.",
                        "tests/engine/dump/TraceLogReadTest.cpp"]


def sources(root):
    for folder in FOLDERS:
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            if "/build" in dirpath or "__pycache__" in dirpath:
                continue
            for f in sorted(files):
                if f.endswith(SOURCE_EXT):
                    path = os.path.join(dirpath, f)
                    yield os.path.relpath(path, root), path


def check_includes(rel, lines, problems):
    for n, line in enumerate(lines, 1):
        if not line.startswith("#include"):
            continue
        for lib, (pattern, allowed) in ALLOWED.items():
            if pattern.match(line) and not any(rel.startswith(a) for a in allowed):
                problems.append(f"{rel}:{n}: includes {lib} ({line.strip()}); only {', '.join(allowed)} may")
        target = re.match(r'#include "([^"]+)"', line)
        if target:
            for under, banned in LAYERS:
                if rel.startswith(under) and any(target.group(1).startswith(b) for b in banned):
                    problems.append(f"{rel}:{n}: {under} must not include {target.group(1)}")
            check_engine_order(rel, n, target.group(1), problems)
        if line.startswith("#include <Q") and any(rel.startswith(q) for q in QT_FREE):
            problems.append(f"{rel}:{n}: {rel.split('/')[0]} is Qt-free")


def check_engine_order(rel, n, target, problems):
    parts, wanted = rel.split("/"), target.split("/")
    if len(parts) < 3 or parts[0] != "engine" or len(wanted) < 3 or wanted[0] != "engine":
        return
    here, there = parts[1], wanted[1]
    if here == there:
        return
    if here not in ENGINE_ORDER or there not in ENGINE_ORDER:
        problems.append(f"{rel}:{n}: engine/{here if here not in ENGINE_ORDER else there}/ is not in ENGINE_ORDER (tests/structure/check.py)")
    elif ENGINE_ORDER.index(there) > ENGINE_ORDER.index(here):
        problems.append(f"{rel}:{n}: engine/{here}/ must not include {target} (engine/{there}/ builds on engine/{here}/)")
    elif here in ENGINE_USES_ONLY and there not in ENGINE_USES_ONLY[here]:
        problems.append(f"{rel}:{n}: engine/{here}/ uses only {', '.join(ENGINE_USES_ONLY[here])} (ENGINE_USES_ONLY), not {target}")


def check_trace_emits(rel, lines, problems):
    if any(rel.startswith(a) for a in EMIT_BY_NAME_ALLOWED):
        return
    for n, line in enumerate(lines, 1):
        for m in EMIT_BY_NAME.finditer(line):
            comment = line.find("//")
            if 0 <= comment < m.start():
                continue
            problems.append(f'{rel}:{n}: emits trace event "{m.group(1)}" by a literal; use its struct in engine/core/TraceEvents.h')


def check_sizes(rel, lines, problems):
    ext = os.path.splitext(rel)[1]
    if len(lines) > MAX_LINES[ext] and not any(LONG.search(l) for l in lines[:30]):
        problems.append(f"{rel}:1: {len(lines)} lines (at most {MAX_LINES[ext]}, or a '// Long: why' comment at the top)")
    n = 0
    while n < len(lines):
        m = FUNCTION_START.match(lines[n])
        if not m or NOT_FUNCTION.search(lines[n]):
            n += 1
            continue
        indent = m.group(1)
        end = n + 1
        while end < len(lines) and lines[end].rstrip() != indent + "}" and not lines[end].startswith(indent + "};"):
            end += 1
        length = end - n + 1
        above = lines[max(0, n - 5):n]
        if end < len(lines) and length > MAX_FUNCTION and not any(LONG.search(l) for l in above):
            name = lines[n].strip()[:70]
            problems.append(f"{rel}:{n + 1}: function of {length} lines (at most {MAX_FUNCTION}, or a '// Long: why' comment above): {name}")
        n = end + 1 if end < len(lines) else n + 1


def check_comment_paths(root, rel, lines, problems):
    for n, line in enumerate(lines, 1):
        comment = line.find("//")
        if comment < 0:
            continue
        for token in COMMENT_PATH.findall(line[comment:]):
            path = re.sub(r"(:\d+)+$", "", token.rstrip(TRAILING)).rstrip(TRAILING)  # "Bert.cpp:88)" -> Bert.cpp
            if PLACEHOLDER.search(path) or "/build" in path or not re.search(r"\.\w+$|/$", path):
                continue
            if not os.path.exists(os.path.join(root, path.split("/.")[0])):  # A.h/.cpp: A.h
                problems.append(f"{rel}:{n}: comment names {path}, which does not exist")


def readme_names(cell):
    """The file names a README table cell mentions in backticks: `A.h/.cpp` -> A.h, A.cpp."""
    for token in re.findall(r"`([^`]+)`", cell):
        token = token.strip()
        if " " in token or token.startswith(("-", "$", ".")) or "*" in token or "<" in token:
            continue
        if not re.match(r"^[\w./+-]+$", token) or not (token.endswith("/") or re.search(r"\.\w+(/\.\w+)*$", token)):
            continue
        if re.search(r"\.(json|bin|png|svg|dot|py|sh|cmake|txt|md|inc|def|cpp|h|cc)(/\.\w+)*$|/$", token) is None:
            continue
        parts = token.split("/.")
        first = parts[0]
        yield first
        stem = os.path.splitext(first)[0]
        for ext in parts[1:]:
            yield stem + "." + ext


def check_readmes(root, problems):
    for folder in FOLDERS + ["."]:
        base = os.path.join(root, folder)
        for dirpath, _, files in os.walk(base):
            if "/build" in dirpath or folder == "." and dirpath != base:
                continue
            if "README.md" not in files:
                continue
            readme = os.path.join(dirpath, "README.md")
            for n, line in enumerate(open(readme, encoding="utf-8"), 1):
                if not line.startswith("|") or line.startswith("|---") or line.startswith("| ---"):
                    continue
                for cell in line.split("|")[1:]:
                    if len(cell.strip()) > MAX_CELL:
                        problems.append(f"{os.path.relpath(readme, root)}:{n}: table cell of {len(cell.strip())} characters (at most {MAX_CELL})")
                first_cell = line.split("|")[1]
                for name in readme_names(first_cell):
                    candidates = [os.path.join(dirpath, name), os.path.join(root, name)]
                    # A README may name files of its subfolders by their own name (viz/gui/...).
                    candidates += [os.path.join(dirpath, sub, name) for sub in next(os.walk(dirpath))[1]]
                    if not any(os.path.exists(c) for c in candidates):
                        problems.append(f"{os.path.relpath(readme, root)}:{n}: names {name}, which does not exist")


def check_folder_readmes(root, problems):
    for folder in FOLDERS:
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            if "/build" in dirpath or "__pycache__" in dirpath:
                continue
            if len(files) > 10 and "README.md" not in files:
                problems.append(f"{os.path.relpath(dirpath, root)}/: {len(files)} files and no README.md")


def check_header_names(root, problems):
    seen = {}
    for rel in sorted(r for r, _ in sources(root) if r.endswith(".h")):
        name = os.path.basename(rel)
        if name in seen:
            problems.append(f"{rel}: a header named {name} is also {seen[name]}")
        else:
            seen[name] = rel


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    problems = []
    for rel, path in sources(root):
        lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        check_includes(rel, lines, problems)
        check_sizes(rel, lines, problems)
        check_comment_paths(root, rel, lines, problems)
        check_trace_emits(rel, lines, problems)
    check_readmes(root, problems)
    check_folder_readmes(root, problems)
    check_header_names(root, problems)
    for p in problems:
        print(p)
    print(f"structure: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
