"""Where the `accord` binary this package ships is."""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

_NAME = "accord.exe" if sys.platform == "win32" else "accord"


class AccordNotFound(RuntimeError):
    """The `accord` binary is not installed where the package put it."""


def find_accord_bin() -> str:
    """The path of the `accord` binary: `ACCORD_BIN` when set (a build from a
    clone, for instance), else the one the wheel installed into this
    environment (or the user's, for `pip install --user`), else the first
    on PATH."""
    given = os.environ.get("ACCORD_BIN")
    if given:
        return given
    schemes = [sysconfig.get_default_scheme()]
    user = f"{os.name}_user" if os.name != "posix" or sys.platform != "darwin" else "osx_framework_user"
    if user in sysconfig.get_scheme_names():
        schemes.append(user)
    for scheme in schemes:
        # a wheel that carries shared libraries (auditwheel repair) installs the
        # binary here and a Python launcher for it in the scripts folder: the
        # binary itself starts without an interpreter
        for candidate in (
            Path(sysconfig.get_path("platlib", scheme=scheme)) / "accord_testing.scripts" / _NAME,
            Path(sysconfig.get_path("scripts", scheme=scheme)) / _NAME,
        ):
            if candidate.is_file():
                return str(candidate)
    on_path = shutil.which(_NAME)
    if on_path:
        return on_path
    raise AccordNotFound(
        "the accord binary is not installed: reinstall the accord-testing wheel, "
        "or set ACCORD_BIN to an accord binary"
    )
