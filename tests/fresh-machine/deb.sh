#!/usr/bin/env bash
# The .deb on a machine with nothing installed: makes a minimal Debian 12 root (root.sh), installs
# build/packages/fathom_*.deb there with `apt-get install ./fathom_*.deb` (apt resolves its Depends
# from Debian's archive), and uses the installed programs as a new user would, timing each step.
# Not in ctest: it needs root, the network and about 2 minutes (root 41 s, apt 18 s, 135 packages,
# 524 MB; measured with the command below). Make the .deb first:
#   ninja -C build fathom_installed && (cd build && cpack -G DEB)
#   tests/fresh-machine/deb.sh [--keep] [--recommends] [--work DIR] [DEB_DIR]
#     --keep         leave the root (DIR/root) in place afterwards (unmounted)
#     --recommends   install the Recommends too (python3-torch: then fathom_torch runs as well;
#                    about 6 minutes)
#     --work DIR     where the root and the logs go (default: a new folder under /var/tmp)
#     DEB_DIR        where fathom_*.deb is (default: build/packages of this checkout)
# Output: the log in DIR/deb.log, and a last line with the times and sizes. Exit 0 when all passed.
set -Eeuo pipefail
trap 'echo "deb.sh: line $LINENO: \"$BASH_COMMAND\" failed (exit $?)" >&2' ERR
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
KEEP=0 WORK="" RECOMMENDS=--no-install-recommends DEBS=$SRC/build/packages
while [ $# -gt 0 ]; do
  case "$1" in
    --keep) KEEP=1 ;;
    --recommends) RECOMMENDS="" ;;
    --work) WORK=$2; shift ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "deb.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    *) DEBS=$1 ;;
  esac
  shift
done
deb=$(ls "$DEBS"/fathom_*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || { echo "deb.sh: no fathom_*.deb in $DEBS (make it: see --help)" >&2; exit 2; }
source "$(dirname "${BASH_SOURCE[0]}")/root.sh"
make_root
cp "$deb" "$ROOTFS/root/"
LOG=$WORK/deb.log
: >"$LOG"

# step NAME CMD: CMD run in the root, logged, timed; a failure is counted and its log tail shown.
failures=0 summary=""
step() {
  local name=$1 t0=$SECONDS rc=0
  echo "deb.sh: $name" >&2
  { echo "== $name"; echo "\$ $2"; } >>"$LOG"
  in_root "$2" >>"$LOG" 2>&1 || rc=$?
  summary+=" $name $((SECONDS - t0)) s;"
  if [ "$rc" -ne 0 ]; then
    failures=$((failures + 1))
    echo "deb.sh: $name exited $rc:" >&2
    tail -n 20 "$LOG" >&2
  fi
}
before=$(du -smx "$ROOTFS" | cut -f1)
step "apt-get install" "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $RECOMMENDS /root/$(basename "$deb")"
after=$(du -smx "$ROOTFS" | cut -f1)
step "fathom --version" "fathom --version | grep -x 'fathom [0-9.]*'"
step "fathom sample, info, run" "cd /tmp && fathom sample mlp -o m.fathom.json && fathom info m.fathom.json && fathom run m.fathom.json"
step "fathom minify (faulty backend)" "cd /tmp && fathom sample bert -o b.fathom.json && fathom minify b.fathom.json --plugin /usr/lib/fathom/plugins/libfathom_faulty_backends.so --backend faulty-miscompile --predicate accuracy -j 2 -o b.min.fathom.json && fathom info b.min.fathom.json"
step "fathom plugins (installed)" "fathom plugins --plugin /usr/lib/fathom/plugins/libfathom_demo_ops.so --plugin /usr/lib/fathom/plugins/libfathom_nan_check.so | grep -q demo.row_pad.default"
step "fathom-gui --screenshot" "cd /tmp && QT_QPA_PLATFORM=offscreen fathom-gui /usr/share/fathom/samples/mlp.fathom.json --screenshot mlp.png && test -s mlp.png"
step "bash completion" "source /usr/share/bash-completion/completions/fathom && complete -p fathom"
if [ -z "$RECOMMENDS" ]; then
  step "python3 -m fathom_torch" "python3 -m fathom_torch --help"
fi
echo "fresh root (.deb): $(basename "$deb") $(du -k "$deb" | cut -f1) KiB; root made in $ROOT_SECONDS s;$summary root $before MiB -> $after MiB after install; $failures failed; log $LOG"
[ "$failures" -eq 0 ]
