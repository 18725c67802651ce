#!/usr/bin/env bash
# The extension in Debian's real Blender (5.2 LTS: sid, 4.3: trixie): in a real window under
# Xvfb driven by xdotool (tests/real_window/, run with the newest line's pytest), and its command
# line in that binary (tests/real_blender/, run with bpy 5.2.2's pytest: the same release as
# sid's Blender, whose findings they must equal).
# Usage: scripts/test_real_blender.sh [sid|trixie ...] [-- pytest args]
# Each suite's Blender is set up first (scripts/debian_blender.sh setup; exit 3: cannot here).
# Screenshots of every step stay in .venv/real_window_shots/SUITE/.
source "$(dirname "$0")/env.sh"
suites=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do suites+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ ${#suites[@]} -eq 0 ] && suites=(sid trixie)
ik_doctor_env 5.2
bpy_52="$VENV"
ik_doctor_env latest
for suite in "${suites[@]}"; do bash "$ROOT/scripts/debian_blender.sh" setup "$suite"; done
status=0
for suite in "${suites[@]}"; do
  echo "===== Debian $suite's Blender ====="
  start=$SECONDS
  for suite_tests in "real_window:$VENV" "real_blender:$bpy_52"; do
    folder="${suite_tests%%:*}"
    python="${suite_tests#*:}/bin/python"
    code=0
    # A folder of this run's own: pytest's shared temporary folders are pruned by other
    # sessions, and a fixed --basetemp is emptied by the next run that starts. It is every
    # Blender's TMPDIR too (the chroot binds /tmp): a window closed by SIGTERM, or a binary the
    # kill tests stop, leaves its blender_* folder there, not in /tmp.
    temporary="$(mktemp -d "/tmp/ik_doctor_${folder}_$suite.XXXXXX")"
    mkdir "$temporary/tmp"
    (cd "$ROOT" && TMPDIR="$temporary/tmp" IK_DOCTOR_DEBIAN_SUITE="$suite" "$python" -m pytest \
      -p no:cacheprovider --confcutdir "tests/$folder" --basetemp "$temporary/pytest" \
      "tests/$folder" "$@") || code=$?
    rm -rf "$temporary"
    echo "Debian $suite, tests/$folder: pytest exit $code after $((SECONDS - start)) s"
    # Exit 5 is "no tests collected": nothing was tested, which is no pass.
    [ "$code" = 0 ] || status=1
  done
done
exit $status
