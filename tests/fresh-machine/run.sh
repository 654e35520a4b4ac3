#!/usr/bin/env bash
# The README's two commands on a machine with nothing installed: makes a minimal Debian 12 root
# with mmdebstrap (minbase: dpkg, apt, bash, coreutils and no more), copies a clean clone of the
# project into it, and runs `./fathom demo` and then `./fathom test` there under chroot, timing
# each. Not in ctest: it downloads about 1.5 GB of packages and builds from a cold cache (most of
# an hour on 2 cores). Needs root, the network to Debian's archive, and about 8 GB of disk.
#
#   tests/fresh-machine/run.sh [--keep] [--only demo|test] [--work DIR]
#     --keep       leave the root (DIR/root) in place for a look afterwards (unmounted)
#     --only CMD   run only `./fathom CMD` (after `demo`, `test` reuses what demo installed)
#     --work DIR   where the root and the logs go (default: a new folder under /var/tmp)
# It clones the committed HEAD of this checkout: commit first. Output: each command's log in
# DIR/demo.log and DIR/test.log, and a last line with both wall times. Exit 0 when both passed.
set -Eeuo pipefail
trap 'echo "run.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $?)" >&2' ERR
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
KEEP=0 ONLY="" WORK=""
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) KEEP=1 ;;
    --only) ONLY=$2; shift ;;
    --work) WORK=$2; shift ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
case "$ONLY" in ""|demo|test) ;; *) echo "run.sh: --only takes demo or test" >&2; exit 2 ;; esac
command -v git >/dev/null || { echo "run.sh: needs git to clone the checkout" >&2; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/root.sh"
make_root

git clone --quiet --no-hardlinks "$SRC" "$ROOTFS/root/fathom"
# The project's shared folder sits beside it, as for developers and CI.
[ -d "$SRC/../shared" ] && cp -r "$SRC/../shared" "$ROOTFS/root/shared"

# Runs `./fathom CMD` in the root as a new user would (a login-like environment, no display),
# logging to WORK/CMD.log; prints the wall time.
declare -A took status
run_in_root() {
  local cmd=$1 t0=$SECONDS rc=0
  echo "run.sh: ./fathom $cmd (log: $WORK/$cmd.log)" >&2
  in_root "cd /root/fathom && ./fathom $cmd" >"$WORK/$cmd.log" 2>&1 || rc=$?
  took[$cmd]=$((SECONDS - t0)) status[$cmd]=$rc
  echo "run.sh: ./fathom $cmd exited $rc after ${took[$cmd]} s" >&2
  [ "$rc" -eq 0 ] || tail -n 30 "$WORK/$cmd.log" >&2
}

rc=0
if [ "$ONLY" != test ]; then run_in_root demo; [ "${status[demo]}" -eq 0 ] || rc=1; fi
if [ "$ONLY" != demo ]; then run_in_root test; [ "${status[test]}" -eq 0 ] || rc=1; fi
summary="fresh machine:"
for c in demo test; do
  [ -n "${took[$c]:-}" ] && summary+=" ./fathom $c exit ${status[$c]} in ${took[$c]} s;"
done
echo "$summary logs in $WORK"
exit $rc
