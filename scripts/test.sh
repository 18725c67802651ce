#!/usr/bin/env bash
# Set up both Blender lines and run lint, format check and the test suite on each.
# Usage: scripts/test.sh [4.2|latest ...] [-- pytest args]
source "$(dirname "$0")/env.sh"
lines=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do lines+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ ${#lines[@]} -eq 0 ] && lines=(4.2 latest)

declare -A venvs
for line in "${lines[@]}"; do ik_doctor_env "$line"; venvs[$line]="$VENV"; done
"$VENV/bin/ruff" check "$ROOT"
"$VENV/bin/ruff" format --check "$ROOT"
ik_doctor_types_env
(cd "$ROOT" && "$TYPES_VENV/bin/mypy")

status=0
logs=()
for line in "${lines[@]}"; do
  VENV="${venvs[$line]}"
  log="$(mktemp)"; logs+=("$line:$log")
  # The lines run side by side (one core each); each prints its own report when done.
  (cd "$ROOT" && "$VENV/bin/python" -m pytest -p no:cacheprovider "$@" >"$log" 2>&1; echo $? >"$log.rc") &
done
wait
for entry in "${logs[@]}"; do
  line="${entry%%:*}"; log="${entry#*:}"
  echo "===== Blender line $line ====="
  cat "$log"
  rc="$(cat "$log.rc")"
  [ "$rc" -eq 0 ] || { echo "Blender line $line failed (pytest exit $rc)"; status=1; }
done
exit $status
