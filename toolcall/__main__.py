"""Entry point for ``python -m toolcall``."""

import sys

try:
    from toolcall.cli import main

    code = main()
except KeyboardInterrupt:  # Ctrl+C while the modules load, before main() handles it: no traceback
    code = 130
sys.exit(code)
