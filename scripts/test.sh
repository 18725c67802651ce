#!/usr/bin/env bash
# Set up every Blender line CI covers (the LTS lines 4.2 and 4.5, and the newest) and run lint,
# format check, type check and the test suite on each.
# Usage: scripts/test.sh [4.2|4.5|latest ...] [-- pytest args]
source "$(dirname "$0")/env.sh"
lines=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do lines+=("$1"); shift; done
[ "${1:-}" = "--" ] && shift
[ ${#lines[@]} -eq 0 ] && lines=(4.2 4.5 latest)

declare -A venvs
for line in "${lines[@]}"; do ik_doctor_env "$line"; venvs[$line]="$VENV"; done
"$VENV/bin/ruff" check "$ROOT"
"$VENV/bin/ruff" format --check "$ROOT"
ik_doctor_types_env
(cd "$ROOT" && "$TYPES_VENV/bin/mypy")

status=0
logs="$(mktemp -d)"
for line in "${lines[@]}"; do
  VENV="${venvs[$line]}"
  # The lines run side by side; each prints its own report when done.
  # (set -e would end the subshell at a failing pytest before its exit code is written.)
  (cd "$ROOT" && code=0 && { "$VENV/bin/python" -m pytest -p no:cacheprovider "$@" \
     >"$logs/$line.log" 2>&1 || code=$?; } && echo "$code" >"$logs/$line.rc") &
done
wait
for line in "${lines[@]}"; do
  echo "===== Blender line $line ====="
  cat "$logs/$line.log"
  rc="$(cat "$logs/$line.rc" 2>/dev/null || echo "unknown")"
  [ "$rc" = "0" ] || { echo "Blender line $line failed (pytest exit $rc)"; status=1; }
done
exit $status
