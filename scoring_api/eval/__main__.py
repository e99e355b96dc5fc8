"""``python -m scoring_api.eval``: the same as the console script ``scoring-eval``."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
