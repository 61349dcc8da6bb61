"""``python -m tensegrity_id.workflow.reference``."""

import sys

from .cli import main

sys.exit(main())
