#!/usr/bin/env bash
# Times `make demo` or `make test` in a fresh Debian 12 chroot on a fresh clone, as a new user would run them.
#
# Usage (root; debootstrap installed): bench/fresh_machine.sh WORK_DIR [demo|test]
# WORK_DIR keeps a pristine minbase root (bookworm.tar, made once with debootstrap) and each
# run's root; the clone is this repository's HEAD and ../shared is copied beside it. The only
# packages installed before the make are the two a user needs to get the code: make and git.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ "$(id -u)" -ne 0 ]; then
  echo "usage (as root): $0 WORK_DIR [demo|test]" >&2
  exit 2
fi
work=$(mkdir -p "$1" && cd "$1" && pwd)
target=${2:-demo}
repo=$(cd "$(dirname "$0")/.." && pwd)
root="$work/root"

unmount_all() { for m in dev/pts dev proc sys; do umount -l "$root/$m" 2>/dev/null || true; done; }
trap unmount_all EXIT

if [ ! -f "$work/bookworm.tar" ]; then
  debootstrap --variant=minbase bookworm "$work/bootstrap" http://deb.debian.org/debian
  tar -C "$work/bootstrap" -cf "$work/bookworm.tar" .
  rm -rf "$work/bootstrap"
fi
unmount_all
rm -rf "$root" && mkdir -p "$root" && tar -C "$root" -xf "$work/bookworm.tar"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount --bind /dev "$root/dev" && mount --bind /dev/pts "$root/dev/pts"
mount -t proc proc "$root/proc" && mount -t sysfs sys "$root/sys"
mkdir -p "$root/work"
git clone -q "$repo" "$root/work/recflow"
cp -a "$repo/../shared" "$root/work/shared"
chroot "$root" /bin/bash -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -qq --no-install-recommends make git ca-certificates >/dev/null'
start=$(date +%s)
status=0
chroot "$root" /bin/bash -c "cd /work/recflow && make $target" > "$work/make-$target.log" 2>&1 || status=$?
echo "make $target: exit $status after $(( $(date +%s) - start )) s (log: $work/make-$target.log)"
exit $status
