"""The provider side: `Verifier` runs `accord verify` against an agent on
a2a-sdk and a tool server on mcp served by this test, with the provider
states and counters as Python functions."""

import json
import subprocess
import urllib.request

import providers
import pytest

import accord
from conftest import CONTRACTS


def planner_verifier(store, url, **kwargs):
    verifier = accord.Verifier("planning-agent", base_url=url, **kwargs)
    seen = []

    @verifier.state("a draft plan exists")
    def draft_plan(params):
        seen.append(("setup", params))
        store.plans[params["plan_id"]] = {"plan_id": params["plan_id"], "status": "draft"}
        yield {"plan_id": params["plan_id"]}
        del store.plans[params["plan_id"]]
        seen.append(("teardown", params))

    verifier.counters = lambda: {"records": store.records}
    return verifier, seen


def test_an_a2a_agent_that_keeps_the_contract_passes():
    store = providers.Store()
    with providers.serving(lambda url: providers.planning_agent(store, url)) as url:
        verifier, seen = planner_verifier(store, url)
        result = verifier.verify(CONTRACTS / "planner.yaml")
        verifier.close()
    assert result.ok and result.exit_code == 0
    assert [(i.description, i.passed, i.findings) for i in result.interactions] == [
        ("draft a plan", True, ()),
        ("show a draft plan", True, ()),
    ]
    # the state was set up before its interaction and torn down after it
    assert seen == [("setup", {"plan_id": "plan-7"}), ("teardown", {"plan_id": "plan-7"})]
    assert list(store.plans) == ["plan-1"]


def test_an_a2a_agent_with_a_fault_fails_with_its_findings():
    store = providers.Store()
    with providers.serving(lambda url: providers.planning_agent(store, url, fault="ready_plans")) as url:
        verifier, _ = planner_verifier(store, url)
        with pytest.raises(accord.VerificationFailed) as raised:
            verifier.verify(CONTRACTS / "planner.yaml")
        verifier.close()
    result = raised.value.result
    assert not result.ok and result.exit_code == 1
    assert [i.description for i in result.failures] == ["draft a plan", "show a draft plan"]
    finding = result.failures[0].findings[0]
    assert (finding.layer, finding.code, finding.path) == ("schema", "RESPONSE_MISMATCH", "steps[2].artifact.parts[0].data.status")
    assert "FAIL orchestrator: draft a plan\n  [schema] RESPONSE_MISMATCH at steps[2].artifact.parts[0].data.status:" in str(raised.value)


def tools_verifier(store, url, **kwargs):
    verifier = accord.Verifier("plan-tools", base_url=url, **kwargs)

    @verifier.state("a plan exists")
    def a_plan(params):
        store.plans[params["plan_id"]] = {"plan_id": params["plan_id"], "status": "draft"}

    verifier.counters = lambda: {"records": store.records}
    return verifier


def test_an_mcp_server_that_keeps_the_contract_passes():
    store = providers.Store()
    with providers.serving(lambda url: providers.plan_tools(store)) as url:
        verifier = tools_verifier(store, url)
        result = verifier.verify(CONTRACTS / "plan-tools.yaml")
        verifier.close()
    assert result.ok
    assert [(i.type, i.passed) for i in result.interactions] == [("MCP/ToolCall", True), ("MCP/ToolCall", True)]


def test_an_mcp_server_with_a_fault_fails_on_the_counter_it_moved():
    store = providers.Store()
    with providers.serving(lambda url: providers.plan_tools(store, fault="lookup_writes")) as url:
        verifier = tools_verifier(store, url)
        result = verifier.verify(CONTRACTS / "plan-tools.yaml", check=False)
        verifier.close()
    assert not result.ok
    findings = [(f.layer, f.code, f.path) for i in result.failures for f in i.findings]
    assert findings == [
        ("behavior", "SIDE_EFFECT_DECLARATION_MISMATCH", "records"),
        ("behavior", "UNEXPECTED_SIDE_EFFECT", "records"),
    ]


def test_a_state_without_a_function_fails_its_interaction():
    store = providers.Store()
    with providers.serving(lambda url: providers.plan_tools(store)) as url:
        verifier = accord.Verifier("plan-tools", base_url=url, counters=lambda: {"records": store.records})
        result = verifier.verify(CONTRACTS / "plan-tools.yaml", check=False)
        verifier.close()
    assert [(i.description, i.passed) for i in result.interactions] == [
        ("look up a plan", False),
        ("an unknown plan is a tool error", True),
    ]
    assert [f.code for f in result.failures[0].findings] == ["PROVIDER_STATE_FAILED"]


def test_a_state_function_that_raises_fails_its_interaction():
    store = providers.Store()
    with providers.serving(lambda url: providers.plan_tools(store)) as url:
        verifier = accord.Verifier("plan-tools", base_url=url, counters=lambda: {"records": store.records})

        @verifier.state("a plan exists")
        def broken():
            raise RuntimeError("the database is down")

        result = verifier.verify(CONTRACTS / "plan-tools.yaml", check=False)
        verifier.close()
    assert [f.code for f in result.failures[0].findings] == ["PROVIDER_STATE_FAILED"]


def test_counters_that_are_not_integers_are_an_error_not_a_pass():
    store = providers.Store()
    with providers.serving(lambda url: providers.plan_tools(store)) as url:
        verifier = tools_verifier(store, url)
        verifier.counters = lambda: {"records": "many"}
        with pytest.raises(accord.AccordError) as raised:
            verifier.verify(CONTRACTS / "plan-tools.yaml")
        verifier.close()
    assert "exit 2" in str(raised.value)


def test_an_unreachable_provider_is_an_error():
    verifier = accord.Verifier("plan-tools", base_url="http://127.0.0.1:9", counters=lambda: {"records": 0})
    with pytest.raises(accord.AccordError) as raised:
        verifier.verify(CONTRACTS / "plan-tools.yaml")
    verifier.close()
    assert "cannot reach the provider at http://127.0.0.1:9" in str(raised.value)


FIXTURE = """
import providers

def test_provider(accord_verifier):
    store = providers.Store()
    with providers.serving(lambda url: providers.plan_tools(store, fault="lookup_writes")) as url:
        verifier = accord_verifier("plan-tools", base_url=url, counters=lambda: {"records": store.records})
        verifier.state("a plan exists")(lambda params: store.plans.update({params["plan_id"]: {"plan_id": params["plan_id"], "status": "draft"}}))
        verifier.verify(CONTRACTS + "/plan-tools.yaml")
"""


def test_the_fixture_fails_the_test_with_the_findings(inner):
    result = inner(FIXTURE)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*VerificationFailed: accord verify: 0 passed, 2 failed",
            "*FAIL orchestrator: look up a plan",
            "*  [[]behavior] SIDE_EFFECT_DECLARATION_MISMATCH at records: counter 'records' changed by 1, expected 0",
        ]
    )


def test_publish_sends_the_results_to_the_broker(tmp_path):
    binary = accord.find_accord_bin()
    broker = subprocess.Popen(
        [binary, "serve", "--bind", "127.0.0.1:0", "--database-url", str(tmp_path / "accord.db")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        broker_url = next(w for w in broker.stdout.readline().split() if w.startswith("http://"))
        pact = tmp_path / "orchestrator-plan-tools.json"
        subprocess.run([binary, "contract", "compile", str(CONTRACTS / "plan-tools.yaml"), "-o", str(pact)], check=True)
        subprocess.run(
            [binary, "publish", str(pact), "--consumer-app-version", "1.0.0", "--branch", "main", "--broker-url", broker_url],
            check=True,
        )
        store = providers.Store()
        with providers.serving(lambda url: providers.plan_tools(store)) as url:
            verifier = tools_verifier(store, url, broker_url=broker_url, provider_version="2.0.0", provider_branch="main", publish=True)
            result = verifier.verify()
            verifier.close()
        assert result.ok and len(result.interactions) == 2
        latest = f"{broker_url}/pacts/provider/plan-tools/consumer/orchestrator/version/1.0.0/verification-results/latest"
        with urllib.request.urlopen(latest) as answer:
            published = json.load(answer)
        assert published["success"] is True
        assert published["providerApplicationVersion"] == "2.0.0"
    finally:
        broker.kill()
        broker.wait()
