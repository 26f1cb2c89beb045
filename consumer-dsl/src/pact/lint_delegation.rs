//! Checks of an `A2A/Task`'s `delegation`: constraints that contradict
//! each other or that no verifier could check (errors that block the
//! contract), and constraints that can never bite (warnings).

use serde_json::Value;

use super::lint::{LintProblem, Severity};
use crate::model::Interaction;
use crate::model::accord::{A2aTaskInteraction, Credential, DELEGATION_METADATA_KEY, Delegation};

/// Problems of interaction `i`'s delegation record.
pub(super) fn check_delegation(
    i: usize,
    interaction: &Interaction,
    problems: &mut Vec<LintProblem>,
) {
    let Interaction::A2aTask(t) = interaction else {
        return;
    };
    let at = format!("$.interactions[{i}]");
    travels(&at, t, problems);
    let Some(d) = &t.task.delegation else {
        return;
    };
    let at = format!("{at}.delegation");
    let mut push = |severity, code: &'static str, path: String, message: String| {
        problems.push(LintProblem::new(severity, code, path, message));
    };
    if d == &Delegation::default() {
        push(
            Severity::Warning,
            "DELEGATION_EMPTY",
            at.clone(),
            "the delegation constrains nothing: give at least one constraint, or drop it".into(),
        );
    }
    tools(&at, d, &mut push);
    costs(&at, d, &mut push);
    reach(&at, d, t, &mut push);
}

type Push<'a> = dyn FnMut(Severity, &'static str, String, String) + 'a;

/// A tool both allowed and forbidden (error: which one the consumer meant
/// cannot be told).
fn tools(at: &str, d: &Delegation, push: &mut Push<'_>) {
    let Some(allowed) = &d.allowed_tools else {
        return;
    };
    for (k, tool) in d.forbidden_tools.iter().enumerate() {
        if allowed.contains(tool) {
            push(
                Severity::Error,
                "DELEGATION_TOOL_CONFLICT",
                format!("{at}.forbiddenTools[{k}]"),
                format!("`{tool}` is both allowed and forbidden: keep it in one list"),
            );
        }
    }
}

/// `costUnits` without any tool's cost (error: nothing could ever be
/// spent, so the limit checks nothing), and a cost of a tool that may
/// never be called (warning).
fn costs(at: &str, d: &Delegation, push: &mut Push<'_>) {
    let Some(b) = &d.budget else {
        return;
    };
    if b.cost_units.is_some() && b.costs.is_empty() {
        push(
            Severity::Error,
            "DELEGATION_COST_WITHOUT_COSTS",
            format!("{at}.budget.costUnits"),
            "a cost limit with no tool's cost (`costs`): every call costs nothing, so the limit can never be crossed".into(),
        );
    }
    for tool in b.costs.keys() {
        if !d.tool_allowed(tool) {
            push(
                Severity::Warning,
                "DELEGATION_UNSPENDABLE_COST",
                format!("{at}.budget.costs['{tool}']"),
                format!(
                    "`{tool}` may not be called (forbidden, or outside the allowed tools): its cost can never be spent"
                ),
            );
        }
    }
}

/// A fan-out no re-delegation can reach (warning), and a credential rule
/// where no credential is presented (error: nothing could be forwarded).
fn reach(at: &str, d: &Delegation, t: &A2aTaskInteraction, push: &mut Push<'_>) {
    if d.max_depth == Some(0) && d.max_fan_out.is_some() {
        push(
            Severity::Warning,
            "DELEGATION_FAN_OUT_UNREACHABLE",
            format!("{at}.maxFanOut"),
            "maxDepth 0 forbids any re-delegation, so the fan-out can never be reached".into(),
        );
    }
    if d.credential.is_some() && !presents_credential(t) {
        push(
            Severity::Error,
            "DELEGATION_CREDENTIAL_UNPRESENTED",
            format!("{at}.credential"),
            "the interaction presents no credential (no principal, or `credential: none`), so none could be forwarded: name the principal the send is made as".into(),
        );
    }
}

/// A principal with a credential that is not `none`.
fn presents_credential(t: &A2aTaskInteraction) -> bool {
    t.meta
        .expectations
        .auth
        .as_ref()
        .is_some_and(|a| a.principal.is_some() && a.credential != Credential::None)
}

/// The record of `delegation` and the one the send carries in
/// `message.metadata.delegation` must be the same (error): the verifier
/// would judge the agent against one while the agent reads the other.
fn travels(at: &str, t: &A2aTaskInteraction, problems: &mut Vec<LintProblem>) {
    let sent = t
        .task
        .request
        .message
        .metadata
        .as_ref()
        .and_then(|m| m.get(DELEGATION_METADATA_KEY));
    let stated = t.task.delegation.as_ref().map(Delegation::to_metadata);
    let message = match (&stated, sent) {
        (None, None) => return,
        (Some(a), Some(b)) if a == b => return,
        (Some(_), None) => {
            "the send carries no delegation record (request.message.metadata.delegation): the agent would not learn the constraints it is judged by".to_owned()
        }
        (None, Some(_)) => {
            "the send carries a delegation record but the interaction states none (`delegation`): the agent is told constraints no verifier checks".to_owned()
        }
        (Some(_), Some(b)) => format!(
            "the record the send carries ({}) differs from the interaction's `delegation`",
            compact(b)
        ),
    };
    problems.push(LintProblem::new(
        Severity::Error,
        "DELEGATION_METADATA_MISMATCH",
        format!("{at}.request.message.metadata.{DELEGATION_METADATA_KEY}"),
        message,
    ));
}

fn compact(v: &Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(120) {
        Some((cut, _)) => format!("{}…", &s[..cut]),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::pact::{blocking, from_value, lint};

    /// An A2A task as hand-written JSON, with `delegation` and the record
    /// its send carries.
    fn task(delegation: Value, sent: Option<Value>, auth: Value) -> Vec<(&'static str, String)> {
        let mut message = json!({"role": "ROLE_USER", "parts": [{"text": "plan"}]});
        if let Some(s) = sent {
            message["metadata"] = json!({"delegation": s});
        }
        let mut i = json!({"type": "A2A/Task", "description": "t",
            "request": {"message": message}});
        if !auth.is_null() {
            i["auth"] = auth;
        }
        if !delegation.is_null() {
            i["delegation"] = delegation;
        }
        let c = from_value(
            &json!({"consumer": {"name": "c"}, "provider": {"name": "p"}, "interactions": [i],
                "metadata": {"accord": {"a2a": "1.0"}}}),
            "t",
        )
        .expect("readable");
        lint(&c).into_iter().map(|p| (p.code, p.path)).collect()
    }

    fn alice() -> Value {
        json!({"principal": "alice"})
    }

    fn same(d: Value) -> Vec<(&'static str, String)> {
        task(d.clone(), Some(d), alice())
    }

    const AT: &str = "$.interactions[0].delegation";

    #[test]
    fn a_consistent_record_has_no_problem() {
        let d = json!({"mode": "DRAFT_ONLY", "allowedTools": ["a"], "forbiddenTools": ["b"],
            "budget": {"costUnits": 3, "costs": {"a": 1}}, "credential": "notForwarded"});
        assert_eq!(same(d), vec![]);
    }

    #[test]
    fn each_problem_has_its_code_and_path() {
        let cases = [
            (json!({}), "DELEGATION_EMPTY", AT.to_owned()),
            (
                json!({"allowedTools": ["a", "b"], "forbiddenTools": ["c", "b"]}),
                "DELEGATION_TOOL_CONFLICT",
                format!("{AT}.forbiddenTools[1]"),
            ),
            (
                json!({"budget": {"costUnits": 3}}),
                "DELEGATION_COST_WITHOUT_COSTS",
                format!("{AT}.budget.costUnits"),
            ),
            (
                json!({"forbiddenTools": ["t.x"], "budget": {"costs": {"t.x": 1}}}),
                "DELEGATION_UNSPENDABLE_COST",
                format!("{AT}.budget.costs['t.x']"),
            ),
            (
                json!({"allowedTools": ["a"], "budget": {"costs": {"z": 1}}}),
                "DELEGATION_UNSPENDABLE_COST",
                format!("{AT}.budget.costs['z']"),
            ),
            (
                json!({"maxDepth": 0, "maxFanOut": 2}),
                "DELEGATION_FAN_OUT_UNREACHABLE",
                format!("{AT}.maxFanOut"),
            ),
        ];
        for (d, code, path) in cases {
            assert_eq!(same(d.clone()), vec![(code, path)], "{d}");
        }
    }

    #[test]
    fn a_credential_rule_needs_a_presented_credential() {
        let d = json!({"credential": "notForwarded"});
        let want = vec![(
            "DELEGATION_CREDENTIAL_UNPRESENTED",
            format!("{AT}.credential"),
        )];
        assert_eq!(task(d.clone(), Some(d.clone()), Value::Null), want);
        let none = json!({"principal": "alice", "credential": "none"});
        assert_eq!(task(d.clone(), Some(d.clone()), none), want);
        let expired = json!({"principal": "alice", "credential": "expired"});
        assert_eq!(task(d.clone(), Some(d), expired), vec![]);
    }

    #[test]
    fn the_record_sent_must_be_the_record_stated() {
        let at = "$.interactions[0].request.message.metadata.delegation".to_owned();
        let d = json!({"maxDepth": 1});
        let want = vec![("DELEGATION_METADATA_MISMATCH", at)];
        assert_eq!(task(d.clone(), None, alice()), want);
        assert_eq!(task(Value::Null, Some(d.clone()), alice()), want);
        assert_eq!(task(d, Some(json!({"maxDepth": 2})), alice()), want);
    }

    #[test]
    fn the_errors_block_the_contract_and_the_warnings_do_not() {
        let c = |d: Value, sent: Value| {
            let i = json!({"type": "A2A/Task", "description": "t", "delegation": d,
                "request": {"message": {"role": "ROLE_USER", "parts": [{"text": "p"}],
                    "metadata": {"delegation": sent}}},
                "auth": {"principal": "alice"}});
            from_value(
                &json!({"consumer": {"name": "c"}, "provider": {"name": "p"}, "interactions": [i],
                    "metadata": {"accord": {"a2a": "1.0"}}}),
                "t",
            )
            .expect("readable")
        };
        let codes = |c| blocking(&c).into_iter().map(|p| p.code).collect::<Vec<_>>();
        let conflict = json!({"allowedTools": ["a"], "forbiddenTools": ["a"]});
        assert_eq!(
            codes(c(conflict.clone(), conflict)),
            ["DELEGATION_TOOL_CONFLICT"]
        );
        let d = json!({"maxDepth": 1});
        assert_eq!(
            codes(c(d, json!({"maxDepth": 3}))),
            ["DELEGATION_METADATA_MISMATCH"]
        );
        let warn = json!({"maxDepth": 0, "maxFanOut": 1});
        assert_eq!(codes(c(warn.clone(), warn)), Vec::<&str>::new());
    }
}
