#!/usr/bin/env bash
# Set up the newest Blender line and run the demo: the built-in rig with its faults,
# diagnosed, fixed and verified by solving.
source "$(dirname "$0")/env.sh"
ik_doctor_env latest
cd "$ROOT" && exec "$VENV/bin/ik-doctor" demo "$@"
