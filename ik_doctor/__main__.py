"""``python -m ik_doctor``: the same as the ``ik-doctor`` command."""

from .cli import main

raise SystemExit(main())
