# Sourced by the other scripts: creates (once) and activates the virtualenv for a Blender line.
#   4.2    : Python 3.11, bpy 4.2.0 (the oldest Blender we support, 4.2 LTS)
#   4.5    : Python 3.11, the newest bpy 4.5.x (the LTS most studios run)
#   latest : Python 3.13, the newest bpy on PyPI (5.1 and newer), and MkDocs: the docs build
#            imports ik_doctor, so it runs where the newest bpy is (mkdocs.yml)
#   5.2    : Python 3.13, bpy 5.2.2: the version of Debian's Blender 5.2 LTS, for the tests that
#            compare the two (tests/real_blender/, scripts/debian_blender.sh)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

ik_doctor_env() {
  local line="$1" python bpy_spec extras="test"
  case "$line" in
    4.2) python="python3.11"; bpy_spec="bpy==4.2.0 numpy<2" ;;
    4.5) python="python3.11"; bpy_spec="bpy>=4.5,<4.6" ;;
    latest) python="python3.13"; bpy_spec="bpy>=5.1"; extras="test,docs" ;;
    5.2) python="python3.13"; bpy_spec="bpy==5.2.2" ;;
    *) echo "unknown Blender line '$line' (use 4.2, 4.5, latest or 5.2)" >&2; return 2 ;;
  esac
  local venv="$ROOT/.venv/$line"
  if [ ! -x "$venv/bin/python" ]; then
    _ik_doctor_room_for "$line" "$ROOT" "${TMPDIR:-/tmp}" || return 1
    PYENV_VERSION="${python#python}.0" "$python" -m venv "$venv" 2>/dev/null \
      || "$python" -m venv "$venv"
  fi
  # shellcheck disable=SC2086
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check $bpy_spec \
    -e "$ROOT[$extras]" 2>&1 | grep -v "^WARNING: Location" >&2 || true
  "$venv/bin/python" -c "import bpy" 2>/dev/null \
    || { echo "bpy did not install for the $line line" >&2; return 1; }
  VENV="$venv"
}

# A new line's environment takes 1 to 1.6 GB (the bpy wheel, unpacked beside its download):
# say so plainly where the disk cannot hold it, rather than let pip fail halfway through.
_ik_doctor_room_for() {
  local line="$1" dir free_mb
  shift
  for dir in "$@"; do
    free_mb=$(df -Pm "$dir" | awk 'NR == 2 {print $4}')
    if [ "${free_mb:-0}" -lt 3072 ]; then
      echo "setting up the $line line needs about 3 GB free in $dir, which has ${free_mb} MB:" \
        "free some space first" >&2
      return 1
    fi
  done
}

# The type checker's own environment: the bpy stubs (fake-bpy-module) would shadow real bpy.
ik_doctor_types_env() {
  local venv="$ROOT/.venv/types"
  [ -x "$venv/bin/python" ] || python3.11 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$ROOT[types]" \
    2>&1 | grep -v "^WARNING: Location" >&2 || true
  TYPES_VENV="$venv"
}
