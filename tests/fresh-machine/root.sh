# A minimal Debian 12 root for the fresh-machine scripts (run.sh, deb.sh): `source` it after
# setting KEEP (1: leave the root afterwards) and WORK (the folder for the root and the logs).
#   make_root    mmdebstrap --variant=minbase (dpkg, apt, bash, coreutils and no more) into
#                $ROOTFS, from the host's apt sources; /proc, /dev, /sys and a /tmp mounted
#   in_root CMD  runs CMD with bash -c in the root as a new user would (login-like environment,
#                no display)
# The root is unmounted and removed on exit (kept with KEEP=1); needs root and the network.
[ "$(id -u)" -eq 0 ] || { echo "$(basename "$0"): needs root (for mmdebstrap and chroot)" >&2; exit 2; }
if ! command -v mmdebstrap >/dev/null; then
  echo "$(basename "$0"): installing mmdebstrap" >&2
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
    echo "$(basename "$0"): still mounted under $ROOTFS, not removing it: $(mounts_under | tr '\n' ' ')" >&2
  elif [ "$KEEP" = 0 ]; then
    rm -rf "$ROOTFS"
  fi
}
trap cleanup EXIT

make_root() {
  echo "$(basename "$0"): making a minimal Debian 12 root in $ROOTFS" >&2
  local started=$SECONDS mirrors=() f
  # The host's apt sources (deb822) name the mirror; a minimal root otherwise.
  for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list; do
    [ -s "$f" ] && mirrors+=("$f")
  done
  mmdebstrap --variant=minbase --quiet bookworm "$ROOTFS" "${mirrors[@]}" >"$WORK/mmdebstrap.log" 2>&1 ||
    { tail -n 20 "$WORK/mmdebstrap.log" >&2; echo "$(basename "$0"): mmdebstrap failed (log: $WORK/mmdebstrap.log)" >&2; exit 2; }
  ROOT_SECONDS=$((SECONDS - started))
  echo "$(basename "$0"): root made in $ROOT_SECONDS s" >&2
  cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
  mount -t proc proc "$ROOTFS/proc"
  mount --rbind /dev "$ROOTFS/dev" && mount --make-rslave "$ROOTFS/dev"
  mount -t sysfs sysfs "$ROOTFS/sys"
  mount -t tmpfs tmpfs "$ROOTFS/tmp"
}

in_root() {
  chroot "$ROOTFS" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin bash -c "$1"
}
