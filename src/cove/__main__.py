"""`python -m cove ...` is the `cove` command."""

import sys

from cove.cli import main

sys.exit(main())
