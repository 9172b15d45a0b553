#!/usr/bin/env bash
# fresh-check.sh -- the check before a release: runs the README's two
# commands, scripts/demo.sh and then scripts/test.sh, as a new user would,
# in a clean Debian 12 (bookworm) root that has nothing but Debian's
# essential packages and apt (debootstrap --variant=minbase), in a clone of
# this repository's committed HEAD (or REF).  Whatever either command needs
# must come from scripts/setup.sh, which they run; a program the scripts
# call that setup.sh does not install fails here, however green CI is on a
# machine that happens to have it.
#
# Usage: scripts/fresh-check.sh [--keep]
#   --keep   leave the root in place afterwards (to look around in it)
#
# Needs root (debootstrap, mount, chroot; debootstrap is installed with
# apt-get when missing) and the Debian mirror; nothing else from the
# network.  It takes long: a debootstrap, setup.sh's packages, two builds
# and two whole suites (an hour or more on two cores).  Not part of .ci/run.
#
# Environment: ROOT (default /var/tmp/nickar-fresh: removed first),
# MIRROR (default http://deb.debian.org/debian), REF (default HEAD).
# Prints each command's output, then one summary line a command and exits
# non-zero if either failed.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
keep=0
for a in "$@"; do
  case $a in
    --keep) keep=1 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fresh-check: unknown argument '$a' (only --keep)" >&2; exit 2 ;;
  esac
done
ROOT=${ROOT:-/var/tmp/nickar-fresh}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
REF=${REF:-HEAD}
[ "$(id -u)" -eq 0 ] || { echo "fresh-check: needs root (debootstrap, mount, chroot)" >&2; exit 2; }
case $ROOT in
  /|/usr|/usr/*|/etc|/etc/*|/home|/root) echo "fresh-check: ROOT '$ROOT' is not a scratch directory" >&2; exit 2 ;;
esac
git -C "$src" rev-parse --verify -q "$REF^{commit}" >/dev/null ||
  { echo "fresh-check: '$REF' is not a commit of $src" >&2; exit 2; }
if ! command -v debootstrap >/dev/null 2>&1; then
  echo "fresh-check: installing debootstrap" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y debootstrap >&2
fi

mounts=(proc sys dev dev/pts dev/shm)
unmount_all() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
    if mountpoint -q "$ROOT/${mounts[i]}"; then umount -l "$ROOT/${mounts[i]}" || true; fi
  done
}
remove_root() {
  unmount_all
  if findmnt -rn -o TARGET | grep -q "^$ROOT/"; then
    echo "fresh-check: something is still mounted under $ROOT; not removing it" >&2
    return 1
  fi
  rm -rf --one-file-system "$ROOT"
}
finish() {
  if [ "$keep" = 1 ]; then unmount_all; else remove_root; fi
}
[ -e "$ROOT" ] && remove_root
trap finish EXIT

echo "== debootstrap --variant=minbase bookworm $ROOT $MIRROR" >&2
debootstrap --variant=minbase bookworm "$ROOT" "$MIRROR" >"$ROOT.debootstrap.log" 2>&1 ||
  { echo "fresh-check: debootstrap failed (log: $ROOT.debootstrap.log)" >&2; tail -5 "$ROOT.debootstrap.log" >&2; exit 1; }
rm -f "$ROOT.debootstrap.log"
mount -t proc proc "$ROOT/proc"
mount -t sysfs sys "$ROOT/sys"
mount --bind /dev "$ROOT/dev"
mount --bind /dev/pts "$ROOT/dev/pts"
if mountpoint -q /dev/shm; then mount --bind /dev/shm "$ROOT/dev/shm"; fi
cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true

repo=/root/nickar
git clone -q --no-hardlinks "$src" "$ROOT$repo"
git -C "$ROOT$repo" checkout -q --detach "$(git -C "$src" rev-parse "$REF")"
echo "== clean root ready: $(git -C "$ROOT$repo" log -1 --format='%h %s' | cut -c1-72)" >&2

status=()
for cmd in scripts/demo.sh scripts/test.sh; do
  echo "== $cmd (in the fresh root)" >&2
  t0=$SECONDS
  rc=0
  chroot "$ROOT" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    /bin/bash -c "cd $repo && $cmd" </dev/null || rc=$?
  status+=("$cmd: exit $rc after $((SECONDS - t0)) s")
done
echo "== fresh-check summary (Debian $(cat "$ROOT/etc/debian_version"), minbase + setup.sh)"
printf '%s\n' "${status[@]}"
for s in "${status[@]}"; do
  case $s in *": exit 0 "*) ;; *) exit 1 ;; esac
done
[ ${#status[@]} = 2 ] || exit 1
echo "fresh-check: both README commands passed"
