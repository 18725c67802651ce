"""The UI-free core: findings, the per-pass rig view, the check registry and the solver helpers."""
