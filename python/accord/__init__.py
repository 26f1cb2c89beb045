"""Accord for Python: the `accord` binary (consumer-driven contract testing
for A2A agents, MCP servers and HTTP APIs) and its pytest plugin.

- `accord.mock(contract)`: `accord mock` around a block of code;
- `accord.Verifier(provider, base_url=…)`: `accord verify` with provider
  states and counters as Python functions;
- the pytest fixtures `accord_mock` and `accord_verifier` (the plugin loads
  itself when the package is installed).
"""

from importlib.metadata import PackageNotFoundError, version

from accord._binary import AccordNotFound, find_accord_bin
from accord.mock import AccordError, Mock, MockMismatchError, MockResult, mock
from accord.verifier import Finding, InteractionResult, VerificationFailed, VerificationResult, Verifier

try:
    __version__ = version("accord-testing")
except PackageNotFoundError:  # imported from a source tree
    __version__ = "0+unknown"

__all__ = [
    "AccordError",
    "AccordNotFound",
    "Finding",
    "InteractionResult",
    "Mock",
    "MockMismatchError",
    "MockResult",
    "VerificationFailed",
    "VerificationResult",
    "Verifier",
    "find_accord_bin",
    "mock",
]
