#!/usr/bin/env bash
# The entry script (./fathom) on machines it cannot see in CI: stub dpkg-query, apt-get, sudo, id,
# cmake and ctest first on PATH behave as on a fresh Debian 12 machine (dpkg knows no package and
# says "no packages found matching", exit 1), a partly installed one (half-installed and removed
# packages too), one where apt fails (package missing from the archive, no network), one where the
# build fails, and as a non-root user with and without sudo; `test` without the torch 2.x
# environment (one line saying those tests skip) and `setup-torch2` where python3 is missing. Each case runs a copy of ./fathom in
# its own folder and asserts what it asked apt to install, what it configured and built, and the
# exact message and exit code of each failure.
#   usage: stubbed_test.sh SOURCE_ROOT
set -u
SRC=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
checks=0 failures=0
fail() { echo "FAIL [$case_name]: $*"; failures=$((failures + 1)); }
check() {  # check WHAT COMMAND...: the command succeeds
  local what=$1; shift
  checks=$((checks + 1))
  "$@" || fail "$what"
}

# The packages the script asks for, read from the script itself (so the lists can change).
eval "$(sed -n '/^BUILD_PACKAGES=(/,/)/p; /^TEST_PACKAGES=(/,/)/p' "$SRC/fathom")"
[ ${#BUILD_PACKAGES[@]} -gt 10 ] && [ ${#TEST_PACKAGES[@]} -gt 5 ] ||
  { echo "could not read BUILD_PACKAGES and TEST_PACKAGES from $SRC/fathom"; exit 1; }

# --- the stubs ----------------------------------------------------------------------------
# State per case in $S: dpkg (lines "STATE NAME", STATE as db:Status-Abbrev without the blank),
# calls (every stubbed command with its arguments), and switches: apt-update-fails,
# apt-unknown (a package the archive lacks), apt-noop (apt "succeeds" without installing),
# configure-fails, build-fails, uid.
make_stubs() {
  local bin=$1
  mkdir -p "$bin"
  # Only these real tools: no sudo unless the case adds the stub (a non-root user without sudo).
  for tool in bash env dirname awk tr sed grep mktemp rm mkdir tail head cat nproc touch mv; do
    ln -sf "$(command -v "$tool")" "$bin/$tool"
  done
  cat >"$bin/dpkg-query" <<'EOF'
#!/bin/bash
# As dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' NAME...: known names print their state,
# unknown ones are reported on stderr and make the exit status 1.
echo "dpkg-query $*" >>"$S/calls"
[ "$1" = -W ] || { echo "stub dpkg-query: unexpected $*" >&2; exit 64; }
shift
case "$1" in -f=*) shift ;; esac
rc=0
for p in "$@"; do
  state=$(awk -v p="$p" '$2 == p { print $1 }' "$S/dpkg" 2>/dev/null | tail -n 1)
  if [ -z "$state" ]; then echo "dpkg-query: no packages found matching $p" >&2; rc=1
  else printf '%-3s %s\n' "$state" "$p"; fi
done
exit $rc
EOF
  cat >"$bin/apt-get" <<'EOF'
#!/bin/bash
echo "apt-get $*" >>"$S/calls"
[ "$(id -u)" = 0 ] || { echo "E: Could not open lock file /var/lib/dpkg/lock-frontend - open (13: Permission denied)"; exit 100; }
case "$1" in
  update)
    if [ -e "$S/apt-update-fails" ]; then
      echo "Err:1 http://deb.debian.org/debian bookworm InRelease"
      echo "  Temporary failure resolving 'deb.debian.org'"
      echo "E: Failed to fetch http://deb.debian.org/debian/dists/bookworm/InRelease  Temporary failure resolving 'deb.debian.org'"
      exit 100
    fi
    echo "Reading package lists..."; exit 0 ;;
  install)
    shift; pkgs=()
    for a in "$@"; do case "$a" in -*) ;; *) pkgs+=("$a") ;; esac; done
    echo "Reading package lists..."
    if [ -e "$S/apt-unknown" ]; then
      for p in "${pkgs[@]}"; do
        [ "$p" = "$(cat "$S/apt-unknown")" ] && { echo "E: Unable to locate package $p"; exit 100; }
      done
    fi
    [ -e "$S/apt-noop" ] && exit 0
    for p in "${pkgs[@]}"; do echo "ii $p" >>"$S/dpkg"; echo "Setting up $p ..."; done
    exit 0 ;;
esac
echo "stub apt-get: unexpected $*" >&2; exit 64
EOF
  cat >"$bin/dpkg" <<'EOF'
#!/bin/bash
echo "dpkg $*" >>"$S/calls"
[ "$*" = "--configure -a" ] || exit 64
awk '{ if ($1 ~ /^.[UFHWt]/) $1 = "ii"; print }' "$S/dpkg" >"$S/dpkg.new" && mv "$S/dpkg.new" "$S/dpkg"
EOF
  cat >"$bin/id" <<'EOF'
#!/bin/bash
[ "$1" = -u ] || exit 64
[ -n "${STUB_AS_ROOT:-}" ] && { echo 0; exit 0; }
cat "$S/uid" 2>/dev/null || echo 0
exit 64
EOF
  cat >"$bin/cmake" <<'EOF'
#!/bin/bash
echo "cmake $*" >>"$S/calls"
if [ "$1" = --build ]; then
  if [ -e "$S/build-fails" ]; then
    echo "[1/3] Building CXX object engine/CMakeFiles/fathom_engine.dir/x.cpp.o"
    echo "FAILED: engine/CMakeFiles/fathom_engine.dir/x.cpp.o"
    echo "engine/x.cpp:3:1: error: 'boom' was not declared in this scope"
    echo "ninja: build stopped: subcommand failed."
    exit 1
  fi
  for i in 1 2 3; do echo "[$i/3] Building CXX object step$i.o"; done
  exit 0
fi
dir=
while [ $# -gt 0 ]; do [ "$1" = -B ] && dir=$2; shift; done
if [ -e "$S/configure-fails" ]; then
  echo "CMake Error at cmake/Dependencies.cmake:5 (find_package):"
  echo "  Could not find a package configuration file provided by \"nlohmann_json\""
  exit 1
fi
echo "--   Qt GUI           ON"
touch "$dir/build.ninja"
EOF
  cat >"$bin/ctest" <<'EOF'
#!/bin/bash
echo "ctest $*" >>"$S/calls"
echo "100% tests passed, 0 tests failed out of 1"
EOF
  cat >"$bin/sudo" <<'EOF'
#!/bin/bash
echo "sudo $*" >>"$S/calls"
STUB_AS_ROOT=1 exec "$@"
EOF
  chmod +x "$bin"/*
}

# new_case NAME: a fresh copy of ./fathom with a stub demo and a stub CLI, fresh state.
new_case() {
  case_name=$1
  D=$T/$1
  S=$D/state
  mkdir -p "$D/root/samples" "$D/root/build/app" "$S"
  cp "$SRC/fathom" "$D/root/fathom"
  printf '#!/bin/bash\necho "demo ran with $1"\n' >"$D/root/samples/demo.sh"
  printf '#!/bin/bash\necho "cli ran with $*"\n' >"$D/root/build/app/fathom"
  chmod +x "$D/root/build/app/fathom"
  : >"$S/dpkg"; : >"$S/calls"
  make_stubs "$D/bin"
}
installed() { local p; for p in "$@"; do echo "ii $p" >>"$S/dpkg"; done; }
no_sudo() { rm "$D/bin/sudo"; }
# run ARGS...: runs the copy; exit status in $rc, stdout in $D/out, stderr in $D/err.
run() {
  (cd "$D/root" && env -i HOME="$D" TMPDIR="$D" S="$S" PATH="$D/bin" ${EXTRA_ENV:-} ./fathom "$@") >"$D/out" 2>"$D/err"
  rc=$?
}
expect_rc() { checks=$((checks + 1)); [ "$rc" -eq "$1" ] || fail "exit $rc, expected $1; stderr: $(tr '\n' '|' <"$D/err")"; }
# The packages of the (last) apt-get install call, one per line, sorted.
apt_installed() { grep '^apt-get install' "$S/calls" | tail -n 1 | tr ' ' '\n' | grep -v '^-' | tail -n +3 | sort; }
same_set() { diff <(printf '%s\n' "$@" | sort) <(apt_installed) >/dev/null; }
called() { grep -qxF "$1" "$S/calls"; }
not_called() { ! grep -q "^$1" "$S/calls"; }
last_err_line() { tail -n 1 "$D/err"; }
stderr_has() { grep -qF -- "$1" "$D/err"; }

# --- the cases ----------------------------------------------------------------------------
new_case fresh-root-demo
run demo
expect_rc 0
check "asks apt for every build package" same_set "${BUILD_PACKAGES[@]}"
check "runs apt-get update before installing" \
  bash -c "grep -n '^apt-get' '$S/calls' | head -n 1 | grep -q 'apt-get update'"
check "configures build/ with Ninja" called "cmake -S . -B build -G Ninja"
check "builds only the CLI and the faulty backends plugin for the demo" called "cmake --build build --target fathom fathom_faulty_backends"
check "runs the demo with the built CLI" grep -qx "demo ran with build/app/fathom" "$D/out"
check "says what it installs" stderr_has "fathom: installing ${#BUILD_PACKAGES[@]} missing Debian packages"
check "prints build progress" stderr_has "fathom: building build/ (fathom fathom_faulty_backends) [1/3]"
check "says the build finished" stderr_has "fathom: built build/ (fathom fathom_faulty_backends): 3 steps"

new_case partly-installed-test
installed cmake g++ libz3-dev libgtest-dev python3 jq
printf '%s\n' "iU llvm-19-dev" "rc qt6-base-dev" "un ccache" "iF python3-torch" >>"$S/dpkg"
run test
expect_rc 0
expected=()
for p in "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"; do
  case " cmake g++ libz3-dev libgtest-dev python3 jq " in *" $p "*) ;; *) expected+=("$p") ;; esac
done
check "asks apt for exactly the packages not fully installed" same_set "${expected[@]}"
check "finishes half-installed packages with dpkg --configure -a" called "dpkg --configure -a"
check "names the half-installed packages" stderr_has "finishing half-installed packages first: llvm-19-dev python3-torch"
check "builds everything for the tests" called "cmake --build build"
check "runs ctest on build/" called "ctest --test-dir build --output-on-failure -j $(nproc)"

new_case all-installed-cli
installed "${BUILD_PACKAGES[@]}"
touch "$D/root/build/build.ninja"
run info samples/mlp.fathom.json --json
expect_rc 0
check "does not call apt-get" not_called "apt-get"
check "does not configure again" not_called "cmake -S"
check "forwards the arguments to the CLI" grep -qx "cli ran with info samples/mlp.fathom.json --json" "$D/out"
check "one dpkg-query for all packages" test "$(grep -c '^dpkg-query' "$S/calls")" -eq 1

new_case gui
installed "${BUILD_PACKAGES[@]}"
touch "$D/root/build/build.ninja"
printf '#!/bin/bash\necho "gui ran with $*"\n' >"$D/root/build/app/fathom-gui"
chmod +x "$D/root/build/app/fathom-gui"
run gui samples/mlp.fathom.json --graph forward
expect_rc 0
check "builds only the GUI" called "cmake --build build --target fathom-gui"
check "forwards the arguments to fathom-gui" grep -qx "gui ran with samples/mlp.fathom.json --graph forward" "$D/out"

new_case sanitize
installed "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
run test --sanitize -R Dump
expect_rc 0
check "configures build-sanitize/ with the sanitizers" called "cmake -S . -B build-sanitize -G Ninja -DFATHOM_SANITIZE=ON"
check "passes the remaining arguments to ctest" called "ctest --test-dir build-sanitize --output-on-failure -j $(nproc) -R Dump"

new_case package-not-in-archive
echo llvm-19-dev >"$S/apt-unknown"
run demo
expect_rc 2
check "one line naming the package and apt's reason" bash -c "tail -n 1 '$D/err' | grep -q '^fathom: apt-get could not install llvm-19-dev: E: Unable to locate package llvm-19-dev; check the network and that /etc/apt/sources.list names Debian 12 (bookworm) (log: '"
check "does not build" not_called "cmake"

new_case no-network
touch "$S/apt-update-fails"
run demo
expect_rc 2
check "says apt-get update failed and what to check" bash -c "tail -n 1 '$D/err' | grep -q \"^fathom: apt-get update failed: E: Failed to fetch .*Temporary failure resolving 'deb.debian.org'; check the network and /etc/apt/sources.list (log: \""
check "does not try to install" not_called "apt-get install"

new_case apt-installs-nothing
touch "$S/apt-noop"
run demo
expect_rc 2
check "notices that packages are still missing" bash -c "tail -n 1 '$D/err' | grep -q '^fathom: apt-get finished but dpkg still lists cmake '"

new_case non-root-without-sudo
echo 1000 >"$S/uid"
no_sudo
run demo
expect_rc 2
check "says to install as root" bash -c "[ \"\$(tail -n 1 '$D/err')\" = 'fathom: not root and no sudo: as root, run apt-get install ${BUILD_PACKAGES[*]}, then run this again' ]"
check "does not call apt-get" not_called "apt-get"
check "the message is the only line" test "$(wc -l <"$D/err")" -eq 1

new_case non-root-with-sudo
echo 1000 >"$S/uid"
run demo
expect_rc 0
check "runs apt-get update through sudo" called "sudo apt-get update"
check "runs apt-get install through sudo" bash -c "grep -q '^sudo apt-get install -y --no-install-recommends cmake' '$S/calls'"

new_case configure-fails
installed "${BUILD_PACKAGES[@]}"
rm -f "$D/root/build/build.ninja"
touch "$S/configure-fails"
run demo
expect_rc 3
check "shows CMake's error" stderr_has "Could not find a package configuration file"
check "one closing line naming the log" bash -c "[ \"\$(tail -n 1 '$D/err')\" = 'fathom: cmake could not configure build/; see build/fathom-configure.log' ]"

new_case build-fails
installed "${BUILD_PACKAGES[@]}"
touch "$S/build-fails"
run demo
expect_rc 3
check "shows the failing step" stderr_has "FAILED: engine/CMakeFiles/fathom_engine.dir/x.cpp.o"
check "one closing line with the first error" bash -c "[ \"\$(tail -n 1 '$D/err')\" = \"fathom: the build failed: engine/x.cpp:3:1: error: 'boom' was not declared in this scope (full log: build/fathom-build.log)\" ]"
check "the demo does not run" test ! -s "$D/out"

new_case unexpected-failure
# A command without a message of its own (here mktemp) still ends in one line, never silently.
printf '#!/bin/bash\nexit 1\n' >"$D/bin/mktemp.stub"; rm "$D/bin/mktemp"; mv "$D/bin/mktemp.stub" "$D/bin/mktemp"; chmod +x "$D/bin/mktemp"
run demo
expect_rc 2
check "names the failing command" bash -c "tail -n 1 '$D/err' | grep -q \"^fathom: setting up failed: 'aptlog=\\\$(mktemp .*' exited 1 (./fathom line [0-9]*); run it by hand\""

new_case not-debian
rm "$D/bin/dpkg-query"
run demo
expect_rc 2
check "says this is not Debian" bash -c "tail -n 1 '$D/err' | grep -q '^fathom: this is not a Debian system (no dpkg-query)'"

new_case dry-run
EXTRA_ENV=FATHOM_DRY_RUN=1 run test
EXTRA_ENV=
expect_rc 0
check "still installs what is missing" same_set "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
check "says what it would configure" stderr_has "fathom: dry run: would configure: cmake -S . -B build -G Ninja"
check "says what it would build" stderr_has "fathom: dry run: would build: cmake --build build"
check "runs neither cmake nor ctest" not_called "cmake"

new_case test-without-torch2
installed "${BUILD_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
mkdir -p "$D/root/plugins/pytorch"
cp "$SRC/plugins/pytorch/torch2_env.py" "$SRC/plugins/pytorch/requirements-torch2.txt" "$D/root/plugins/pytorch/"
ln -sf /usr/bin/python3 "$D/bin/python3"
run test
expect_rc 0
check "one line says the torch 2.x tests will skip, and how to get them" bash -c \
  "[ \"\$(grep -c torch2 '$D/err')\" = 1 ] && grep -q 'fathom: the torch 2.x environment is absent ($D/.cache/fathom/torch2; ./fathom setup-torch2 makes it): the torch2-labelled tests will skip' '$D/err'"
check "still runs ctest" called "ctest --test-dir build --output-on-failure -j $(nproc)"

new_case setup-torch2-fresh
# No python3 on PATH: Debian's, with python3-venv for ensurepip, is installed first. The real
# setup script (3 GB from PyPI) is replaced by one that says how it was called.
mkdir -p "$D/root/plugins/pytorch" "$D/caller"
printf 'import os, sys\nprint("setup ran in", os.getcwd(), "with", *sys.argv[1:])\n' >"$D/root/plugins/pytorch/setup_torch2.py"
(cd "$D/caller" && env -i HOME="$D" TMPDIR="$D" S="$S" PATH="$D/bin" "$D/root/fathom" setup-torch2 --dry-run) >"$D/out" 2>"$D/err"
rc=$?
expect_rc 0
check "installs python3 and python3-venv, nothing else" same_set python3 python3-venv
check "runs the setup script from the caller's folder with the arguments" grep -qx "setup ran in $D/caller with --dry-run" "$D/out"
check "builds nothing" not_called "cmake"

echo "entry script: $checks checks, $failures failed"
[ "$failures" -eq 0 ]
