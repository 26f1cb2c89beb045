"""The provider side: `accord verify` with provider states and observation
counters written as Python functions.

    verifier = Verifier("planning-agent", base_url=agent_url)

    @verifier.state("a draft plan exists")
    def draft_plan(params):
        plan = db.insert_plan(status="draft")
        yield {"plan_id": plan.id}      # the setup's reply (values for the contract's generators)
        db.delete(plan)                 # teardown, after the interaction

    verifier.counters = lambda: {"records": db.count()}
    result = verifier.verify("pacts/orchestrator-planning-agent.json")

The verifier serves the state-change URL and the observe URL on a loopback
port from these functions (the bodies Pact's verifiers send, see
docs/provider-setup.md), runs `accord verify --output json` against the
provider, and returns the results as data; with `check=True` (the default)
a failing interaction raises VerificationFailed with its findings.
"""

from __future__ import annotations

import inspect
import json
import os
import subprocess
import tempfile
import threading
import traceback
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from accord._binary import find_accord_bin
from accord.mock import AccordError


class VerificationFailed(AssertionError):
    """An interaction failed: the message lists each failure's findings; the
    whole result is in `.result`."""

    def __init__(self, result: VerificationResult):
        super().__init__(result.text())
        self.result = result


@dataclass(frozen=True)
class Finding:
    """One thing the verifier found wrong: its layer (`protocol`,
    `behavior`, …), stable reason code, where, and a sentence."""

    layer: str
    code: str
    path: str
    detail: str
    expected: object = None
    actual: object = None

    @classmethod
    def of(cls, raw: Mapping) -> Finding:
        return cls(raw.get("layer", ""), raw.get("reasonCode", ""), raw.get("path", ""), raw.get("detail", ""), raw.get("expected"), raw.get("actual"))

    def line(self) -> str:
        return f"[{self.layer}] {self.code} at {self.path}: {self.detail}"


@dataclass(frozen=True)
class InteractionResult:
    """One replayed interaction."""

    consumer: str
    description: str
    type: str
    passed: bool
    pending: bool
    findings: tuple[Finding, ...]
    warnings: tuple[Finding, ...] = ()


@dataclass
class VerificationResult:
    """A run of `accord verify`: `ok` when every non-pending interaction
    passed (exit code 0); the per-interaction results; the report as the
    verifier wrote it (`report`) and what it printed (`output`)."""

    ok: bool
    exit_code: int
    interactions: list[InteractionResult]
    contract_findings: list[tuple[str, Finding]]
    report: dict
    output: str

    @property
    def failures(self) -> list[InteractionResult]:
        return [i for i in self.interactions if not i.passed and not i.pending]

    def text(self) -> str:
        lines = [f"accord verify: {sum(i.passed for i in self.interactions)} passed, {len(self.failures)} failed"]
        for consumer, f in self.contract_findings:
            lines.append(f"FAIL {consumer}'s contract: {f.line()}")
        for i in self.interactions:
            if not i.passed:
                lines.append(f"FAIL{' (pending)' if i.pending else ''} {i.consumer}: {i.description}")
                lines.extend(f"  {f.line()}" for f in i.findings)
        return "\n".join(lines)


def _result(report: dict, exit_code: int, output: str) -> VerificationResult:
    interactions, contract_findings = [], []
    for c in report.get("contracts", []):
        contract_findings += [(c.get("consumer", ""), Finding.of(f)) for f in c.get("findings", [])]
        for i in c.get("interactions", []):
            interactions.append(
                InteractionResult(
                    consumer=c.get("consumer", ""),
                    description=i.get("description", ""),
                    type=i.get("interactionType", ""),
                    passed=i.get("outcome") == "passed",
                    pending=bool(i.get("pending")),
                    findings=tuple(Finding.of(f) for f in i.get("findings", [])),
                    warnings=tuple(Finding.of(f) for f in i.get("warnings", [])),
                )
            )
    return VerificationResult(exit_code == 0, exit_code, interactions, contract_findings, report, output)


class _NoState(LookupError):
    """No function for a provider state, or no counters function."""


def _takes_params(fn: Callable) -> bool:
    try:
        return len(inspect.signature(fn).parameters) > 0
    except (TypeError, ValueError):
        return True


@dataclass
class Verifier:
    """`accord verify` for one provider, its states and counters in Python."""

    provider: str
    base_url: str | None = None
    mcp_url: str | None = None
    agent_card_url: str | None = None
    principals: Mapping[str, str] = field(default_factory=dict)
    counters: Callable[[], Mapping[str, int]] | None = None
    provider_version: str | None = None
    provider_branch: str | None = None
    publish: bool = False
    broker_url: str | None = None
    broker_token: str | None = None
    args: Iterable[str] = ()
    _states: dict[str, Callable] = field(default_factory=dict, repr=False)
    _teardowns: dict[str, list] = field(default_factory=dict, repr=False)
    _server: ThreadingHTTPServer | None = field(default=None, repr=False)

    def state(self, name: str) -> Callable[[Callable], Callable]:
        """Registers the function that sets up provider state `name`. It is
        called with the state's params (a dict) if it takes an argument; it
        returns the setup's reply (a dict, or None), or yields it once and
        tears the state down after the yield."""

        def register(fn: Callable) -> Callable:
            self._states[name] = fn
            return fn

        return register

    # -- the state-change and observe endpoints ------------------------------

    def _set_up(self, name: str, params: dict) -> dict:
        fn = self._states.get(name)
        if fn is None:
            known = ", ".join(repr(s) for s in sorted(self._states)) or "none"
            raise _NoState(f"no function for provider state {name!r} (states with one: {known})")
        args = (params,) if _takes_params(fn) else ()
        if inspect.isgeneratorfunction(fn):
            steps = fn(*args)
            reply = next(steps, None)
            self._teardowns.setdefault(name, []).append(steps)
        else:
            reply = fn(*args)
        if reply is None:
            return {}
        if not isinstance(reply, Mapping):
            raise TypeError(f"provider state {name!r} returned {type(reply).__name__}: a dict or None is wanted")
        return dict(reply)

    def _tear_down(self, name: str) -> None:
        pending = self._teardowns.get(name)
        if pending:
            steps = pending.pop()
            for _ in steps:
                raise RuntimeError(f"provider state {name!r} yielded more than once")

    def _observe(self) -> dict:
        if self.counters is None:
            raise _NoState("no counters function is set")
        values = dict(self.counters())
        bad = [k for k, v in values.items() if not isinstance(v, int) or isinstance(v, bool)]
        if bad:
            raise TypeError(f"counter {bad[0]!r} is not an integer")
        return values

    def _serve(self) -> str:
        if self._server is None:
            self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
            threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def close(self) -> None:
        """Stops the state and observe endpoints."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    # -- the run ----------------------------------------------------------------

    def verify(self, *contracts: str | os.PathLike, check: bool = True) -> VerificationResult:
        """Replays `contracts` (compiled JSON contracts or Pact files; YAML
        specs are compiled first), or without them the pacts the broker
        (`broker_url`) selects for the provider, against the provider. Raises AccordError
        when accord could not verify (exit 2: an unreachable provider, a
        counter not reported, …), and with `check` VerificationFailed when
        an interaction failed."""
        if not contracts and self.broker_url is None:
            raise ValueError("verify needs a contract, or a broker_url to fetch the provider's pacts from")
        binary = find_accord_bin()
        with tempfile.TemporaryDirectory(prefix="accord-verify-") as tmp:
            files = [_compiled(binary, Path(c), Path(tmp)) for c in contracts]
            out = Path(tmp) / "report.json"
            run = subprocess.run(self._command(binary, files, out), capture_output=True, text=True, encoding="utf-8")
            output = run.stdout + run.stderr
            if run.returncode not in (0, 1) or not out.exists():
                raise AccordError(f"accord verify could not verify {self.provider} (exit {run.returncode}):\n{output.strip()}")
            result = _result(json.loads(out.read_text()), run.returncode, output)
        if check and not result.ok:
            raise VerificationFailed(result)
        return result

    def _command(self, binary: str, files: list[Path], out: Path) -> list[str]:
        local = self._serve()
        cmd = [binary, "verify", "--provider", self.provider]
        for flag, value in (
            ("--provider-base-url", self.base_url),
            ("--mcp-url", self.mcp_url),
            ("--agent-card-url", self.agent_card_url),
            ("--provider-version", self.provider_version),
            ("--provider-branch", self.provider_branch),
            ("--broker-url", self.broker_url),
            ("--token", self.broker_token),
        ):
            if value is not None:
                cmd += [flag, value]
        for f in files:
            cmd += ["--contract", str(f)]
        cmd += ["--state-change-url", f"{local}/state"]
        if self.counters is not None:
            cmd += ["--observe-url", f"{local}/observe"]
        for name, token in self.principals.items():
            cmd += ["--principal", f"{name}={token}"]
        if self.publish:
            cmd.append("--publish")
        return [*cmd, *self.args, "--output", "json", "--output-file", str(out)]


def _compiled(binary: str, path: Path, tmp: Path) -> Path:
    """`path`, or for a YAML spec the contract `accord contract compile` makes of it."""
    if path.suffix.lower() not in (".yaml", ".yml"):
        return path
    out = tmp / f"{len(list(tmp.iterdir()))}-{path.stem}.json"
    run = subprocess.run([binary, "contract", "compile", str(path), "-o", str(out)], capture_output=True, text=True, encoding="utf-8")
    if run.returncode != 0:
        raise AccordError(f"accord contract compile {path} failed:\n{(run.stdout + run.stderr).strip()}")
    return out


def _handler(verifier: Verifier) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:  # quiet
            pass

        def _answer(self, status: int, body: object) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802
            if self.path != "/observe":
                return self._answer(404, {"error": f"no {self.path} here: GET /observe"})
            try:
                self._answer(200, verifier._observe())
            except Exception as e:  # the provider team's function failed
                self._answer(500, {"error": f"counters: {type(e).__name__}: {e}"})

        def do_POST(self) -> None:  # noqa: N802
            if self.path != "/state":
                return self._answer(404, {"error": f"no {self.path} here: POST /state"})
            try:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                name, params = body.get("state", ""), body.get("params") or {}
                if body.get("action") == "teardown":
                    verifier._tear_down(name)
                    return self._answer(200, {})
                self._answer(200, verifier._set_up(name, params))
            except _NoState as e:
                self._answer(404, {"error": str(e)})
            except Exception as e:  # the provider team's function failed
                last = traceback.format_exception_only(type(e), e)[-1].strip()
                self._answer(500, {"error": f"provider state: {last}"})

    return Handler
