"""The consumer side: the `accord_mock` fixture around tests of an
orchestrator on the official a2a-sdk and mcp clients, and `accord.mock` for
code without pytest."""

import json
import subprocess

import orchestrator
import pytest

import accord
from conftest import CONTRACTS

PASSING = """
import orchestrator

def test_plans(accord_mock):
    planner = accord_mock(CONTRACTS + "/planner.yaml")
    assert planner.agent_card_url == planner.a2a_url + "/.well-known/agent-card.json"
    assert orchestrator.draft_plan(planner.a2a_url, ["rotate keys"])["status"] == "draft"
    assert orchestrator.show_plan(planner.a2a_url, "plan-7") == {"plan_id": "plan-7", "status": "draft"}

def test_tools(accord_mock):
    tools = accord_mock(CONTRACTS + "/plan-tools.yaml")
    assert orchestrator.lookup_plan(tools.mcp_url, "plan-1")["plan_id"] == "plan-1"
    assert orchestrator.lookup_plan(tools.mcp_url, "plan-404") is None
"""


def test_a_passing_session_writes_each_contract_it_exercised(inner, pytester):
    result = inner(PASSING)
    result.assert_outcomes(passed=2)
    pacts = pytester.path / "pacts"
    written = sorted(p.name for p in pacts.iterdir())
    assert written == ["orchestrator-plan-tools.json", "orchestrator-planning-agent.json"]
    pact = json.loads((pacts / "orchestrator-planning-agent.json").read_text())
    assert [i["description"] for i in pact["interactions"]] == ["draft a plan", "show a draft plan"]
    result.stdout.fnmatch_lines(["*= accord =*", f"wrote {pacts}/orchestrator-p*.json (from {CONTRACTS}/p*.yaml)"])


def test_the_pacts_dir_is_configurable(inner, pytester, tmp_path):
    result = inner(PASSING, f"--accord-pacts-dir={tmp_path / 'out'}")
    result.assert_outcomes(passed=2)
    assert (tmp_path / "out" / "orchestrator-planning-agent.json").exists()
    assert not (pytester.path / "pacts").exists()


OFF_CONTRACT = """
import orchestrator

def test_plans(accord_mock):
    planner = accord_mock(CONTRACTS + "/planner.yaml")
    orchestrator.draft_plan(planner.a2a_url, ["rotate keys"])
    orchestrator.show_plan(planner.a2a_url, "plan-7")
    # the orchestrator logs the agent's refusal and carries on: only the mock saw it
    assert orchestrator.draft_plan_or_none(planner.a2a_url, ["delete every plan"]) is None
"""


def test_an_off_contract_call_fails_the_test_in_the_mocks_words(inner, pytester):
    result = inner(OFF_CONTRACT)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            f"*accord mock of {CONTRACTS}/planner.yaml:",
            "*request mismatch for SendStreamingMessage /a2a (draft a plan): "
            "body $.message.parts[[]0].data.items[[]0].title: Expected 'delete every plan' (String) to be equal to 'rotate keys' (String)",
            f"{CONTRACTS}/planner.yaml: not written, the session failed",
        ]
    )
    assert "expected but not received" not in result.stdout.str()
    assert not (pytester.path / "pacts").exists()


MISSED = """
import orchestrator

def test_plans(accord_mock):
    planner = accord_mock(CONTRACTS + "/planner.yaml")
    orchestrator.draft_plan(planner.a2a_url, ["rotate keys"])
"""


def test_a_missed_interaction_fails_the_test(inner, pytester):
    result = inner(MISSED)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*expected but not received: SendStreamingMessage /a2a (show a draft plan)"])
    assert "(draft a plan)" not in result.stdout.str()
    assert not (pytester.path / "pacts").exists()


PART = """
import orchestrator

def test_drafts(accord_mock):
    planner = accord_mock(CONTRACTS + "/planner.yaml", interactions=["draft a plan"])
    orchestrator.draft_plan(planner.a2a_url, ["rotate keys"])
"""


def test_a_session_that_exercised_part_of_a_contract_passes_but_does_not_write_it(inner, pytester):
    result = inner(PART)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        [
            f"{CONTRACTS}/planner.yaml: not written, it was not exercised as written:",
            "  expected but not received: SendStreamingMessage /a2a (show a draft plan)",
        ]
    )
    assert not (pytester.path / "pacts").exists()


SHARED = """
import orchestrator

def test_drafts(accord_mock):
    planner = accord_mock(CONTRACTS + "/planner.yaml", interactions=["draft a plan"])
    orchestrator.draft_plan(planner.a2a_url, ["rotate keys"])

def test_shows(accord_mock):
    planner = accord_mock(CONTRACTS + "/planner.yaml", interactions=["show a draft plan"])
    orchestrator.show_plan(planner.a2a_url, "plan-7")

def test_names_an_interaction_the_contract_lacks(accord_mock):
    accord_mock(CONTRACTS + "/planner.yaml", interactions=["delete a plan"])
"""


def test_tests_share_a_mock_and_together_exercise_the_contract(inner, pytester):
    result = inner(SHARED, "-k", "drafts or shows")
    result.assert_outcomes(passed=2, deselected=1)
    assert (pytester.path / "pacts" / "orchestrator-planning-agent.json").exists()
    result = inner(SHARED, "-k", "lacks")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*has no interaction 'delete a plan'; it has: draft a plan, show a draft plan"])


def test_the_context_manager_writes_a_contract_exercised_as_written(tmp_path):
    with accord.mock(CONTRACTS / "plan-tools.yaml", pacts_dir=tmp_path) as tools:
        assert tools.mcp_url.endswith("/mcp") and tools.a2a_url is None
        assert orchestrator.lookup_plan(tools.mcp_url, "plan-1")["status"] == "draft"
        assert orchestrator.lookup_plan(tools.mcp_url, "plan-404") is None
    assert tools.result.ok and tools.result.written == tmp_path / "orchestrator-plan-tools.json"
    assert tools.result.written.exists()


def test_the_context_manager_raises_the_mocks_report_and_writes_nothing(tmp_path):
    with pytest.raises(accord.MockMismatchError) as raised:
        with accord.mock(CONTRACTS / "plan-tools.yaml", pacts_dir=tmp_path) as tools:
            orchestrator.lookup_plan(tools.mcp_url, "plan-1")
    assert "MISS   0x  MCP/ToolCall  an unknown plan is a tool error" in str(raised.value)
    assert "FAIL expected but not received: tools/call plan_lookup (an unknown plan is a tool error)" in str(raised.value)
    assert list(tmp_path.iterdir()) == []


def test_an_exception_in_the_block_propagates_and_nothing_is_written(tmp_path):
    with pytest.raises(KeyError):
        with accord.mock(CONTRACTS / "plan-tools.yaml", pacts_dir=tmp_path) as tools:
            orchestrator.lookup_plan(tools.mcp_url, "plan-1")
            orchestrator.lookup_plan(tools.mcp_url, "plan-404")
            raise KeyError("the consumer's own test failed")
    assert tools.result.ok and tools.result.written is None
    assert list(tmp_path.iterdir()) == []


def test_a_contract_accord_cannot_read_is_an_error_with_accords_words(tmp_path):
    spec = tmp_path / "broken.yaml"
    spec.write_text("consumer: orchestrator\nprovider: planning-agent\ninteractions:\n  - a2a: x\n    sned: {}\n")
    with pytest.raises(accord.AccordError) as raised:
        with accord.mock(spec):
            pass
    assert "did not start" in str(raised.value)
    assert str(spec) in str(raised.value)


MCP_OFF_CONTRACT = """
import orchestrator

def test_tools(accord_mock):
    tools = accord_mock(CONTRACTS + "/plan-tools.yaml")
    assert orchestrator.lookup_plan(tools.mcp_url, "plan-1")["plan_id"] == "plan-1"
    assert orchestrator.lookup_plan(tools.mcp_url, "plan-404") is None
    # a plan the contract never looks up: the mock answers a tool error, which
    # the orchestrator takes for "no such plan"; only the mock knows
    assert orchestrator.lookup_plan(tools.mcp_url, "plan-2") is None
"""


def test_an_off_contract_tool_call_fails_the_test(inner, pytester):
    result = inner(MCP_OFF_CONTRACT)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines([f"*accord mock of {CONTRACTS}/plan-tools.yaml:", "*request mismatch for tools/call plan_lookup*plan-2*"])
    assert not (pytester.path / "pacts").exists()


def test_a_compiled_contract_is_served_too(tmp_path):
    compiled = tmp_path / "plan-tools.json"
    subprocess.run([accord.find_accord_bin(), "contract", "compile", str(CONTRACTS / "plan-tools.yaml"), "-o", str(compiled)], check=True)
    with accord.mock(compiled, pacts_dir=tmp_path / "pacts") as tools:
        assert orchestrator.lookup_plan(tools.mcp_url, "plan-1")["plan_id"] == "plan-1"
        assert orchestrator.lookup_plan(tools.mcp_url, "plan-404") is None
    written = json.loads((tmp_path / "pacts" / "orchestrator-plan-tools.json").read_text())
    assert written["interactions"] == json.loads(compiled.read_text())["interactions"]


ALICE = """\
consumer: orchestrator
provider: planning-agent
protocols: { a2a: "1.0" }
principals:
  alice: { tenant: tenant-a }
interactions:
  - a2a: draft a plan
    as: alice
    send: { stream: true, data: { items: [{ title: rotate keys }] } }
    expect:
      - { state: SUBMITTED, optional: true }
      - artifact: { name: work-plan, data: { plan_id: plan-1 } }
      - state: COMPLETED
"""


def test_principals_are_the_tokens_the_mock_wants(tmp_path):
    spec = tmp_path / "alice.yaml"
    spec.write_text(ALICE)
    with accord.mock(spec, principals={"alice": "token-a"}) as planner:
        assert orchestrator.draft_plan(planner.a2a_url, ["rotate keys"], token="token-a") == {"plan_id": "plan-1"}
    with pytest.raises(accord.MockMismatchError) as raised:
        with accord.mock(spec, principals={"alice": "token-a"}) as planner:
            orchestrator.draft_plan_or_none(planner.a2a_url, ["rotate keys"])  # no token
            orchestrator.draft_plan_or_none(planner.a2a_url, ["rotate keys"], token="token-b")
    assert str(raised.value).count("FAIL unexpected request: SendStreamingMessage /a2a") == 2, str(raised.value)
    assert "expected but not received: SendStreamingMessage /a2a (draft a plan)" in str(raised.value)
