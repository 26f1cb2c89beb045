"""The plugin's own tests. They run against the `accord` binary the
installed wheel put on this environment's PATH (or ACCORD_BIN), with the
official a2a-sdk and mcp SDKs as the consumer's clients and the providers."""

from importlib.metadata import entry_points
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

TESTS = Path(__file__).resolve().parent
CONTRACTS = TESTS / "contracts"


@pytest.fixture
def inner(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch):
    """Runs a test file in a pytest session of its own (the plugin loads
    itself there from the installed package's entry point), with the
    orchestrator and providers of this folder importable; its outcome."""
    monkeypatch.syspath_prepend(str(TESTS))

    def run(source: str, *args: str) -> pytest.RunResult:
        pytester.makepyfile(test_inner=source.replace("CONTRACTS", repr(str(CONTRACTS))))
        if not any(e.value == "accord.pytest_plugin" for e in entry_points(group="pytest11")):
            args = ("-p", "accord.pytest_plugin", *args)  # run from the source tree, not installed
        return pytester.runpytest(*args)

    return run
