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
[ "$(id -u)" -eq 0 ] || { echo "run.sh: needs root (for mmdebstrap and chroot)" >&2; exit 2; }
command -v git >/dev/null || { echo "run.sh: needs git to clone the checkout" >&2; exit 2; }

if ! command -v mmdebstrap >/dev/null; then
  echo "run.sh: installing mmdebstrap" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
fi

WORK=${WORK:-$(mktemp -d /var/tmp/fathom-fresh.XXXXXX)}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
ROOTFS=$WORK/root

# Every mount under the root, deepest first; the root is removed only when none is left, so a
# failed unmount can never make `rm -rf` reach the host's /dev or /proc.
mounts_under() { awk -v r="$ROOTFS/" 'index($2 "/", r) == 1 { print $2 }' /proc/self/mounts | sort -r; }
cleanup() {
  local m
  for m in $(mounts_under); do umount -l "$m" 2>/dev/null || true; done
  if [ -n "$(mounts_under)" ]; then
    echo "run.sh: still mounted under $ROOTFS, not removing it: $(mounts_under | tr '\n' ' ')" >&2
  elif [ "$KEEP" = 0 ]; then
    rm -rf "$ROOTFS"
  fi
}
trap cleanup EXIT

echo "run.sh: making a minimal Debian 12 root in $ROOTFS" >&2
started=$SECONDS
# The host's apt sources (deb822) name the mirror; a minimal root otherwise.
mirrors=()
for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list; do
  [ -s "$f" ] && mirrors+=("$f")
done
mmdebstrap --variant=minbase --quiet bookworm "$ROOTFS" "${mirrors[@]}" >"$WORK/mmdebstrap.log" 2>&1 ||
  { tail -n 20 "$WORK/mmdebstrap.log" >&2; echo "run.sh: mmdebstrap failed (log: $WORK/mmdebstrap.log)" >&2; exit 2; }
echo "run.sh: root made in $((SECONDS - started)) s" >&2

git clone --quiet --no-hardlinks "$SRC" "$ROOTFS/root/fathom"
# The project's shared folder sits beside it, as for developers and CI.
[ -d "$SRC/../shared" ] && cp -r "$SRC/../shared" "$ROOTFS/root/shared"
cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
mount -t proc proc "$ROOTFS/proc"
mount --rbind /dev "$ROOTFS/dev" && mount --make-rslave "$ROOTFS/dev"
mount -t sysfs sysfs "$ROOTFS/sys"
mount -t tmpfs tmpfs "$ROOTFS/tmp"

# Runs `./fathom CMD` in the root as a new user would (a login-like environment, no display),
# logging to WORK/CMD.log; prints the wall time.
declare -A took status
run_in_root() {
  local cmd=$1 t0=$SECONDS rc=0
  echo "run.sh: ./fathom $cmd (log: $WORK/$cmd.log)" >&2
  chroot "$ROOTFS" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    bash -c "cd /root/fathom && ./fathom $cmd" >"$WORK/$cmd.log" 2>&1 || rc=$?
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
