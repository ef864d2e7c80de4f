#!/usr/bin/env python
"""Django's command-line utility for Herald."""

import os
import sys
from pathlib import Path


def main() -> None:
    """Run a management command with the project package (platform/herald) importable."""
    root = Path(__file__).resolve().parent
    # platform/ is a source folder, never a package: it holds the `herald` import package.
    sys.path.insert(0, str(root / "platform"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "herald.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
