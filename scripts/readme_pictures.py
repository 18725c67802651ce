"""Make the README's pictures from the real-window suite's screenshots, so they show the panel
as it is now.

Run ``scripts/test_real_blender.sh sid`` first: its steps leave numbered screenshots of the
whole screen (1600x1000, Blender full screen) in ``.venv/real_window_shots/sid/``. This crops
the chosen ones into ``docs/images/`` with ImageMagick inside Debian's system (the suite's own).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEBIAN = ROOT / "scripts" / "debian_blender.sh"
# (the step's screenshot, the picture, the crop: width x height + left + top)
PICTURES = (
    ("overlay-on", "panel-and-overlay.png", "1020x760+300+40"),
    ("fix-asks-first", "fix-asks-first.png", "1000x800+320+40"),
)


def shot(folder: Path, step: str) -> Path:
    """The step's screenshot: ``NN-step.png``, the last one when a step ran twice."""
    found = sorted(folder.glob(f"[0-9][0-9]-{step}.png"))
    if not found:
        sys.exit(f"no screenshot of step '{step}' in {folder}: run scripts/test_real_blender.sh")
    return found[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--suite", default="sid", choices=("sid", "trixie"))
    parser.add_argument("--output-dir", type=Path, default=ROOT / "docs" / "images")
    parser.add_argument("--shots", type=Path, help="the screenshots' folder, if not the suite's")
    args = parser.parse_args()
    folder = args.shots or ROOT / ".venv" / "real_window_shots" / args.suite
    args.output_dir.mkdir(parents=True, exist_ok=True)
    for step, name, crop in PICTURES:
        target = (args.output_dir / name).resolve()
        convert = ["convert", str(shot(folder, step)), "-crop", crop, "+repage", str(target)]
        subprocess.run(["bash", str(DEBIAN), "run", args.suite, *convert], check=True, cwd=ROOT)
        print(target.relative_to(ROOT))


if __name__ == "__main__":
    main()
