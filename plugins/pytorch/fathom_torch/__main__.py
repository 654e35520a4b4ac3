"""python3 -m fathom_torch: see cli.py."""
import sys

from .cli import main

sys.exit(main())
