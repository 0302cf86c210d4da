"""Entry point for ``python -m toolcall``."""

import sys

from toolcall.cli import main

sys.exit(main())
