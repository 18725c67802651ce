#!/usr/bin/env bash
# Debian's own Blender binaries, each in a small Debian system of its suite under .venv/, for
# the tests that need Blender as people run it (a real window, its own Python, its command line).
#   sid    : Blender 5.2 LTS (Debian unstable)
#   trixie : Blender 4.3 (Debian 13)
# Usage:
#   scripts/debian_blender.sh setup SUITE        build it once (needs root and Debian's packages)
#   scripts/debian_blender.sh run SUITE CMD...   run CMD inside it, in the current directory
#   scripts/debian_blender.sh root SUITE         print the system's folder
# 'run' binds /proc, /dev, /sys, /tmp, this checkout and ../shared at their own paths, in a
# private mount namespace: every bind ends with the command, so none outlives it (an
# `rm -rf .venv` never reaches the checkout through a forgotten bind).
# Exit 3 from setup means "cannot here" (not root, no debootstrap, no Debian packages), said why.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# The folder itself, not a symbolic link to it: a link bound into Debian's system still points
# at a path that system has not got (every shared rig was "no such file" there).
SHARED="$(readlink -f "$ROOT/../shared")"
PACKAGES=(blender xvfb openbox xdotool imagemagick python3-numpy libgl1-mesa-dri libglx-mesa0
  fonts-dejavu-core)
# sid's Release file is past its Valid-Until date on these machines.
APT=(apt-get -o Acquire::Check-Valid-Until=false -o Dpkg::Use-Pty=0)

suite_root() {
  case "$1" in
    sid | 5.2) echo "$ROOT/.venv/debian-sid" ;;
    trixie | 4.3) echo "$ROOT/.venv/debian-trixie" ;;
    *) echo "unknown suite '$1' (use sid or trixie)" >&2; return 2 ;;
  esac
}

cannot() { echo "debian_blender: cannot set up Debian's Blender here: $*" >&2; exit 3; }

setup() {
  local suite dir
  dir="$(suite_root "$1")"
  suite="$(basename "$dir")"; suite="${suite#debian-}"
  [ -f "$dir/.ik_doctor_ready" ] && return 0
  [ "$(id -u)" = 0 ] || cannot "debootstrap and chroot need root"
  if ! command -v debootstrap >/dev/null; then
    { apt-get update -qq && apt-get install -y -qq debootstrap; } >/dev/null 2>&1 \
      || cannot "debootstrap is missing and Debian's packages cannot be reached"
  fi
  rm -rf "$dir"
  echo "debian_blender: building Debian $suite with Blender in $dir (about 3 minutes)" >&2
  debootstrap --variant=minbase "$suite" "$dir" >"$dir.log" 2>&1 \
    || { tail -5 "$dir.log" >&2; cannot "debootstrap $suite failed (log: $dir.log)"; }
  (inside "$suite" sh -c "DEBIAN_FRONTEND=noninteractive; export DEBIAN_FRONTEND;
    ${APT[*]} update -qq && ${APT[*]} install -y -qq --no-install-recommends ${PACKAGES[*]}") \
    >>"$dir.log" 2>&1 \
    || { tail -5 "$dir.log" >&2; cannot "installing Blender in Debian $suite failed (log: $dir.log)"; }
  touch "$dir/.ik_doctor_ready"
}

# Replaces this shell with the command (call it in a subshell to go on after it): a signal
# sent to this process, its exit code and its parent's death are the command's own.
inside() {
  local dir
  dir="$(suite_root "$1")"; shift
  [ -d "$dir/usr" ] || { echo "debian_blender: run 'setup $dir' first" >&2; return 2; }
  local binds=(/tmp "$ROOT")
  [ -d "$SHARED" ] && binds+=("$SHARED")
  # The script runs in a private mount namespace, so its binds die with it.
  exec unshare -m --propagation private bash -c '
    dir="$1"; cwd="$2"; shift 2
    for d in proc dev sys; do mount --rbind "/$d" "$dir/$d"; done
    while [ "$1" != "--" ]; do mkdir -p "$dir$1"; mount --bind "$1" "$dir$1"; shift; done
    shift
    cd "$dir" && exec chroot "$dir" /usr/bin/env \
      PATH=/usr/local/bin:/usr/bin:/bin HOME="${HOME:-/root}" sh -c "cd \"\$0\" 2>/dev/null; exec \"\$@\"" "$cwd" "$@"
  ' _ "$dir" "$PWD" "${binds[@]}" -- "$@"
}

case "${1:-}" in
  setup) setup "$2" ;;
  run) suite="$2"; shift 2; inside "$suite" "$@" ;;
  root) suite_root "$2" ;;
  *) sed -n '2,13p' "$0" >&2; exit 2 ;;
esac
