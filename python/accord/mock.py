"""The consumer side: `accord mock` for one contract, started from Python.

The process is `accord mock --contract F --json [--out DIR] -- <waiter>`,
where the waiter is a small Python process that stands for the consumer's
test command: it prints the variables the mock gives a command (the URLs of
each surface) and waits for a line on its standard input, `pass` or `fail`,
then exits 0 or 1. So the contract is written by `accord mock` itself, by
its own rule: only when the "command" passed, every interaction was
exercised and no unexpected request arrived.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from accord._binary import find_accord_bin

_READY = "ACCORD-MOCK-READY "
_WAITER = (
    "import json, os, sys\n"
    f"print({_READY!r} + json.dumps({{k: v for k, v in os.environ.items() if k.startswith('ACCORD_')}}), flush=True)\n"
    "sys.exit(0 if sys.stdin.readline().strip() == 'pass' else 1)\n"
)
_URL_VARIABLES = ("ACCORD_MOCK_URL", "ACCORD_A2A_URL", "ACCORD_MCP_URL")
START_TIMEOUT = 60.0
# the mock is on loopback: never through an HTTP proxy the environment names
_LOCAL = urllib.request.build_opener(urllib.request.ProxyHandler({}))
STOP_TIMEOUT = 30.0


class AccordError(RuntimeError):
    """`accord` could not do what was asked (a bad contract, a busy port, …):
    the message carries what it printed."""


class MockMismatchError(AssertionError):
    """The mock saw a request the contract does not expect, or an interaction
    was not exercised; the message is the mock's own report."""


def mismatch_line(m: Mapping) -> str:
    """One problem of the mock's report, worded as `accord mock` words it."""
    kind = m.get("type")
    if kind == "missing-request":
        return f"expected but not received: {m['method']} {m['path']} ({m['description']})"
    if kind == "request-not-found":
        target = m["path"]
        query = m.get("query") or {}
        pairs = [f"{n}={v}" for n, vs in query.items() for v in vs]
        if pairs:
            target += "?" + "&".join(pairs)
        reason = m.get("reason")
        return f"unexpected request: {m['method']} {target}" + (f": {reason}" if reason else "")
    why = "; ".join(f"{d.get('kind')} {d.get('path')}: {d.get('message')}" for d in m.get("mismatches", []))
    return f"request mismatch for {m['method']} {m['path']} ({m['description']}): {why}"


def report_table(report: Mapping) -> str:
    """The report as `accord mock` prints it: one line per interaction, then
    the problems."""
    lines = []
    for i in report.get("interactions", []):
        mark = "ok  " if i["exercised"] > 0 else "MISS"
        lines.append(f"{mark} {i['exercised']:>3}x  {i['type']}  {i['description']}")
    lines.extend(f"FAIL {mismatch_line(m)}" for m in report.get("mismatches", []))
    more = report.get("moreMismatches", 0)
    if more:
        lines.append(f"FAIL and {more} more unexpected request(s), not kept")
    problems = len(report.get("mismatches", [])) + more
    verdict = "every interaction was exercised, no unexpected request" if report.get("ok") else f"{problems} problem(s)"
    lines.append(f"mock: {verdict}")
    return "\n".join(lines)


@dataclass
class MockResult:
    """What a stopped mock says: its final report, and the contract file it
    wrote (None when it wrote none)."""

    contract: Path
    ok: bool
    report: dict
    written: Path | None
    log: str

    @property
    def text(self) -> str:
        return f"accord mock of {self.contract}:\n{report_table(self.report)}"


@dataclass
class Mock:
    """A running `accord mock` serving one contract on a free loopback port."""

    contract: Path
    url: str
    a2a_url: str | None
    mcp_url: str | None
    env: dict[str, str]
    _process: subprocess.Popen = field(repr=False)
    _lines: list[str] = field(repr=False)
    _reader: threading.Thread = field(repr=False)
    _log: Path = field(repr=False)
    result: MockResult | None = None

    @property
    def agent_card_url(self) -> str | None:
        """The A2A Agent Card's URL (the card under `a2a_url`)."""
        return f"{self.a2a_url}/.well-known/agent-card.json" if self.a2a_url else None

    @classmethod
    def start(
        cls,
        contract: str | os.PathLike,
        principals: Mapping[str, str] | None = None,
        pacts_dir: str | os.PathLike | None = None,
    ) -> Mock:
        """Starts `accord mock` for `contract` (a YAML spec or a compiled
        JSON contract). With `pacts_dir`, the contract is written there when
        the mock is closed with `passed=True` and was exercised as written."""
        path = Path(contract).resolve()
        args = _command(path, principals or {}, pacts_dir)
        # the URLs the waiter reports are this mock's, not an outer mock's
        env = {k: v for k, v in os.environ.items() if not k.startswith(_URL_VARIABLES)}
        fd, log = tempfile.mkstemp(prefix="accord-mock-", suffix=".log")
        with os.fdopen(fd, "w") as stderr:
            process = subprocess.Popen(
                args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, env=env, text=True, encoding="utf-8"
            )
        lines: list[str] = []
        ready = threading.Event()
        reader = threading.Thread(target=_read, args=(process, lines, ready), daemon=True)
        reader.start()
        if not ready.wait(START_TIMEOUT) or not any(line.startswith(_READY) for line in lines):
            _stop(process)
            text = Path(log).read_text(errors="replace")
            Path(log).unlink(missing_ok=True)
            raise AccordError(f"accord mock --contract {path} did not start:\n{text.strip()}")
        env = json.loads(next(line for line in lines if line.startswith(_READY))[len(_READY) :])
        return cls(
            contract=path,
            url=env["ACCORD_MOCK_URL"],
            a2a_url=env.get("ACCORD_A2A_URL"),
            mcp_url=env.get("ACCORD_MCP_URL"),
            env=env,
            _process=process,
            _lines=lines,
            _reader=reader,
            _log=Path(log),
        )

    def report(self) -> dict:
        """The mock's report so far (`GET /__accord/report`)."""
        with _LOCAL.open(f"{self.url}/__accord/report", timeout=30) as answer:
            return json.load(answer)

    def reset(self) -> None:
        """Forgets what was recorded (`POST /__accord/reset`)."""
        request = urllib.request.Request(f"{self.url}/__accord/reset", method="POST", data=b"")
        with _LOCAL.open(request, timeout=30):
            pass

    def close(self, passed: bool = True) -> MockResult:
        """Stops the mock and returns its final report. `passed` stands for
        the consumer's tests: only when it is True may the contract be
        written (to `pacts_dir`, by the mock's own rule)."""
        if self.result is not None:
            return self.result
        with contextlib.suppress(OSError, ValueError):
            self._process.stdin.write("pass\n" if passed else "fail\n")
            self._process.stdin.close()
        try:
            self._process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            _stop(self._process)
        self._reader.join(STOP_TIMEOUT)
        log = self._log.read_text(errors="replace")
        self._log.unlink(missing_ok=True)
        ready = next(n for n, line in enumerate(self._lines) if line.startswith(_READY))
        after = self._lines[ready + 1 :]
        try:
            report = json.loads("".join(after))
        except ValueError as e:
            raise AccordError(f"accord mock of {self.contract} ended without its report ({e}):\n{log.strip()}") from e
        written = next((Path(line[len("mock: wrote ") :]) for line in log.splitlines() if line.startswith("mock: wrote ")), None)
        self.result = MockResult(self.contract, bool(report.get("ok")), report, written, log)
        return self.result


def _command(path: Path, principals: Mapping[str, str], pacts_dir: str | os.PathLike | None) -> list[str]:
    args = [find_accord_bin(), "mock", "--contract", str(path), "--json"]
    for name, token in principals.items():
        args += ["--principal", f"{name}={token}"]
    if pacts_dir is not None:
        args += ["--out", str(Path(pacts_dir).resolve())]
    return [*args, "--", sys.executable, "-c", _WAITER]


def _read(process: subprocess.Popen, lines: list[str], ready: threading.Event) -> None:
    """Collects the process's standard output; `ready` is set once the waiter
    printed its variables, or the output ended."""
    for line in process.stdout:
        lines.append(line)
        if line.startswith(_READY):
            ready.set()
    ready.set()


def _stop(process: subprocess.Popen) -> None:
    process.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(STOP_TIMEOUT)


@contextlib.contextmanager
def mock(
    contract: str | os.PathLike,
    principals: Mapping[str, str] | None = None,
    pacts_dir: str | os.PathLike | None = None,
    check: bool = True,
) -> Iterator[Mock]:
    """`accord mock` around a block of code that does not use pytest:

        with accord.mock("planner.yaml", principals={"alice": "token-a"}, pacts_dir="pacts") as planner:
            run_orchestrator(planner.a2a_url)

    The contract is written to `pacts_dir` only when the block ended without
    an exception and exercised the contract as written; otherwise (with
    `check`) MockMismatchError carries the mock's report."""
    running = Mock.start(contract, principals=principals, pacts_dir=pacts_dir)
    try:
        yield running
    except BaseException:
        running.close(passed=False)
        raise
    result = running.close(passed=True)
    if check and not result.ok:
        raise MockMismatchError(result.text)
