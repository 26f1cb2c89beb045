"""`python -m accord …` runs the bundled `accord` binary with the same arguments."""

from __future__ import annotations

import os
import subprocess
import sys

from accord._binary import find_accord_bin


def main() -> None:
    binary = find_accord_bin()
    args = [binary, *sys.argv[1:]]
    if sys.platform == "win32":
        sys.exit(subprocess.run(args).returncode)
    os.execv(binary, args)


if __name__ == "__main__":
    main()
