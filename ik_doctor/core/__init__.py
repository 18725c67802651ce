"""The UI-free, read-only core: findings, the per-pass rig view, the check registry, the fix
policy, and the tools fixes use. It imports nothing above it (checks, doctor, verify, ui, cli)."""
