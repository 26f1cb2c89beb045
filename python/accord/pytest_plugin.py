"""The pytest plugin (entry point `pytest11`): `accord mock` around a
consumer's tests, and the provider verifier as a fixture.

    def test_plans(accord_mock):
        planner = accord_mock("contracts/planner.yaml", principals={"alice": "token-a"})
        run_orchestrator(planner.a2a_url)

Each contract gets one mock for the whole session, started the first time a
test asks for it. A test fails, with the mock's own words, when a request
arrived during it that the contract does not expect, or when an interaction
it was to exercise (all of the contract's, or those named with
`interactions=[…]`) was not. At the end of the session each contract is
written to the pacts directory (`--accord-pacts-dir`, default `pacts` under
the rootdir) only when the session passed and exercised it as written:
`accord mock -- COMMAND`'s rule, applied by `accord mock` itself.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from accord.mock import AccordError, Mock, MockResult, mismatch_line
from accord.verifier import Verifier

_USES = pytest.StashKey[list]()
_MOCKS = pytest.StashKey[dict]()
_RESULTS = pytest.StashKey[list]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("accord", "Accord contract tests")
    group.addoption(
        "--accord-pacts-dir",
        dest="accord_pacts_dir",
        default=None,
        help="where contracts exercised as written are written at the end of the session (default: pacts under the rootdir)",
    )
    parser.addini("accord_pacts_dir", "default for --accord-pacts-dir", default="pacts")


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_MOCKS] = {}
    config.stash[_RESULTS] = []


def _pacts_dir(config: pytest.Config) -> Path:
    given = config.getoption("accord_pacts_dir") or config.getini("accord_pacts_dir")
    path = Path(given)
    return path if path.is_absolute() else Path(config.rootpath) / path


@dataclass
class _Running:
    """A session's mock of one contract, and its first report (every
    interaction missing, with its method and path)."""

    mock: Mock
    unexercised: dict[int, dict]


@dataclass
class _Use:
    """One test's use of a mock: the report when it started, and the
    interactions it is to exercise."""

    running: _Running
    before: dict
    wanted: set[int]


def _running(config: pytest.Config, contract: Path, principals: Mapping[str, str]) -> _Running:
    key = (contract, tuple(sorted(principals.items())))
    mocks = config.stash[_MOCKS]
    if key not in mocks:
        mock = Mock.start(contract, principals=principals, pacts_dir=_pacts_dir(config))
        first = mock.report()
        unexercised: dict[int, dict] = {}
        for m in first.get("mismatches", []):
            if m.get("type") == "missing-request":
                unexercised.setdefault(m["interaction"], m)
        mocks[key] = _Running(mock, unexercised)
    return mocks[key]


def _wanted(report: dict, interactions: Iterable[str] | None, contract: Path) -> set[int]:
    known = {i["description"]: i["index"] for i in report.get("interactions", [])}
    if interactions is None:
        return set(known.values())
    unknown = [d for d in interactions if d not in known]
    if unknown:
        raise ValueError(f"{contract} has no interaction {unknown[0]!r}; it has: {', '.join(sorted(known))}")
    return {known[d] for d in interactions}


@pytest.fixture
def accord_mock(request: pytest.FixtureRequest):
    """A function that starts (once per session) and returns the `accord
    mock` of a contract: `accord_mock(path, principals=None,
    interactions=None)` → `Mock` with `url`, `a2a_url`, `agent_card_url`,
    `mcp_url`. The test fails when the mock saw an unexpected request
    during it or one of `interactions` (default: all) was not exercised."""
    uses = request.node.stash.setdefault(_USES, [])

    def start(
        contract: str | os.PathLike,
        principals: Mapping[str, str] | None = None,
        interactions: Iterable[str] | None = None,
    ) -> Mock:
        path = Path(contract).resolve()
        running = _running(request.config, path, dict(principals or {}))
        before = running.mock.report()
        uses.append(_Use(running, before, _wanted(before, interactions, path)))
        return running.mock

    return start


def _problems(use: _Use) -> list[str]:
    """What went wrong with the mock during one test, in the mock's words."""
    after = use.running.mock.report()
    count = {i["index"]: i["exercised"] for i in use.before.get("interactions", [])}
    now = {i["index"]: i["exercised"] for i in after.get("interactions", [])}
    exercised = {i for i in use.wanted if now.get(i, 0) > count.get(i, 0)}
    lines = [mismatch_line(use.running.unexercised[i]) for i in sorted(use.wanted - exercised) if i in use.running.unexercised]

    def unanswered(report: dict) -> list[dict]:
        return [m for m in report.get("mismatches", []) if m.get("type") != "missing-request"]

    lines += [mismatch_line(m) for m in unanswered(after)[len(unanswered(use.before)) :]]
    more = after.get("moreMismatches", 0) - use.before.get("moreMismatches", 0)
    if more > 0:
        lines.append(f"and {more} more unexpected request(s), not kept")
    # an exercised A2A interaction's cancel or follow-up that was not sent
    followed = [m for m in after.get("mismatches", []) if m.get("type") == "missing-request" and m.get("interaction") in exercised]
    lines += [mismatch_line(m) for m in followed]
    return lines


def _mock_text(item: pytest.Item) -> str:
    parts = []
    for use in item.stash.get(_USES, []):
        lines = _problems(use)
        if lines:
            body = "\n".join(f"  {line}" for line in lines)
            parts.append(f"accord mock of {use.running.mock.contract}:\n{body}")
    return "\n".join(parts)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    try:
        result = yield
    except BaseException:
        # the test failed on its own: the mock's words go beside its error
        with contextlib.suppress(Exception):
            text = _mock_text(item)
            if text:
                item.add_report_section("call", "accord mock", text)
        raise
    text = _mock_text(item)
    if text:
        pytest.fail(text, pytrace=False)
    return result


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    passed = exitstatus == pytest.ExitCode.OK
    results = session.config.stash[_RESULTS]
    for running in session.config.stash[_MOCKS].values():
        try:
            results.append(running.mock.close(passed=passed))
        except AccordError as e:  # the mock died: said in the summary
            results.append(str(e))
    session.config.stash[_MOCKS].clear()


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    results: list[MockResult | str] = config.stash.get(_RESULTS, [])
    if not results:
        return
    terminalreporter.section("accord")
    for result in results:
        if isinstance(result, str):
            terminalreporter.write_line(result)
        elif result.written is not None:
            terminalreporter.write_line(f"wrote {result.written} (from {result.contract})")
        elif exitstatus != pytest.ExitCode.OK:
            terminalreporter.write_line(f"{result.contract}: not written, the session failed")
        else:
            terminalreporter.write_line(f"{result.contract}: not written, it was not exercised as written:")
            for m in result.report.get("mismatches", []):
                terminalreporter.write_line(f"  {mismatch_line(m)}")


@pytest.fixture
def accord_verifier():
    """A function that makes a `Verifier` for a provider (closed after the
    test): `accord_verifier("planning-agent", base_url=…)`; register states
    with `@verifier.state("…")`, counters with `verifier.counters = …`, then
    `verifier.verify(contract)`: a failure fails the test with the
    findings."""
    made: list[Verifier] = []

    def make(provider: str, **kwargs) -> Verifier:
        verifier = Verifier(provider, **kwargs)
        made.append(verifier)
        return verifier

    yield make
    for verifier in made:
        verifier.close()
