"""The wheel: the `accord` binary is installed with the package and its
version is the package's."""

import importlib.metadata
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import accord


def test_accord_version_is_the_package_version():
    out = subprocess.run([accord.find_accord_bin(), "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"accord {importlib.metadata.version('accord-testing')}"
    assert accord.__version__ == importlib.metadata.version("accord-testing")


def test_python_m_accord_runs_the_binary():
    out = subprocess.run([sys.executable, "-m", "accord", "--version"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"accord {accord.__version__}"
    # arguments and the exit code pass through
    bad = subprocess.run([sys.executable, "-m", "accord", "no-such-command"], capture_output=True, text=True)
    assert bad.returncode == 2, bad
    assert "no-such-command" in bad.stderr


def test_the_binary_is_the_one_the_wheel_installed():
    if os.environ.get("ACCORD_BIN"):
        return  # a build from the clone was given on purpose
    scripts = Path(sysconfig.get_path("scripts"))
    assert (scripts / "accord").is_file()  # on the environment's PATH
    found = Path(accord.find_accord_bin())
    assert found.parent in (scripts, Path(sysconfig.get_path("platlib")) / "accord_testing.scripts")
    on_path = subprocess.run([str(scripts / "accord"), "--version"], capture_output=True, text=True, check=True)
    assert on_path.stdout.strip() == f"accord {accord.__version__}"
    # and the package imported is the installed one, not the source tree's
    assert Path(accord.__file__).is_relative_to(Path(sysconfig.get_path("purelib")))


def test_the_pytest_plugin_is_registered():
    plugins = [e for e in importlib.metadata.entry_points(group="pytest11") if e.value == "accord.pytest_plugin"]
    assert [e.dist.name for e in plugins] == ["accord-testing"]
