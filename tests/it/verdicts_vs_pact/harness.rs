//! The table of cases, the two verifier runs and the judgement.

use accord_fixtures::stub::{Canned, RequestCheck, StubConfig, StubProvider};
use serde_json::{Value, json};

use super::runs::{run_accord, run_pact};
use crate::support::temp_dir;

/// The pact specification a table is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spec {
    V2,
    V3,
    V4,
}

/// The verdict a case must get.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    Pass,
    /// A finding on `layer` with `code` at `path`.
    Fail {
        layer: &'static str,
        code: &'static str,
        path: &'static str,
    },
}

/// A schema-layer `RESPONSE_MISMATCH` at `path`.
pub fn mismatch(path: &'static str) -> Expect {
    Expect::Fail {
        layer: "schema",
        code: "RESPONSE_MISMATCH",
        path,
    }
}

/// One interaction, what the provider serves for it, and its verdict.
#[derive(Debug, Clone)]
pub struct Case {
    /// The whole interaction as written in the pact (unique description).
    pub interaction: Value,
    /// The provider's answer (for a message: the message endpoint's).
    pub served: Canned,
    /// What the provider insists on receiving.
    pub check: Option<RequestCheck>,
    pub expect: Expect,
    /// Why Pact's verifier gets this one wrong, when it does.
    pub pact_wrong: Option<&'static str>,
    /// Where Pact places the fault when its convention differs from Accord's.
    pub pact_path: Option<&'static str>,
}

impl Case {
    fn description(&self) -> String {
        self.interaction["description"]
            .as_str()
            .expect("every case has a description")
            .to_owned()
    }

    fn route(&self) -> (String, String) {
        let request = &self.interaction["request"];
        let method = request["method"].as_str().unwrap_or("GET").to_uppercase();
        let path = request["path"].as_str().expect("a literal request path");
        (method, path.to_owned())
    }
}

/// A canned answer with these headers and bytes.
pub fn served(status: u16, headers: &[(&str, &str)], body: &[u8]) -> Canned {
    Canned {
        status,
        headers: headers
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
        body: body.to_vec(),
    }
}

/// A canned `200 application/json` answer.
pub fn served_json(body: Value) -> Canned {
    served(
        200,
        &[("Content-Type", "application/json")],
        body.to_string().as_bytes(),
    )
}

/// An HTTP interaction `GET path` expecting `response` (already in the
/// table's spec form).
pub fn get(description: &str, path: &str, response: Value) -> Value {
    json!({
        "description": description,
        "request": { "method": "GET", "path": path },
        "response": response,
    })
}

/// The expected `200 application/json` response with `body` and body rules
/// `{"$.x": [matcher, …]}`, in `spec`'s form.
pub fn json_response(spec: Spec, body: Value, rules: Value) -> Value {
    let rules = rules.as_object().cloned().unwrap_or_default();
    match spec {
        Spec::V2 => {
            let flat: serde_json::Map<String, Value> = rules
                .into_iter()
                .map(|(path, ms)| (format!("$.body{}", &path[1..]), ms[0].clone()))
                .collect();
            json!({ "status": 200, "headers": { "Content-Type": "application/json" },
                    "body": body, "matchingRules": flat })
        }
        Spec::V3 | Spec::V4 => {
            let nested: serde_json::Map<String, Value> = rules
                .into_iter()
                .map(|(path, ms)| (path, json!({ "matchers": ms })))
                .collect();
            let body = if spec == Spec::V4 {
                json!({ "content": body, "contentType": "application/json", "encoded": false })
            } else {
                body
            };
            json!({ "status": 200, "headers": { "Content-Type": "application/json" },
                    "body": body, "matchingRules": { "body": nested } })
        }
    }
}

/// A table of cases written as one pact file.
#[derive(Debug)]
pub struct Table {
    pub spec: Spec,
    pub cases: Vec<Case>,
    /// What the stub's state-change endpoint answers (`{}` by default).
    pub state_reply: Option<Value>,
}

impl Table {
    pub fn new(spec: Spec) -> Table {
        Table {
            spec,
            cases: Vec::new(),
            state_reply: None,
        }
    }

    /// Adds a case; the returned reference sets `check` or `pact_wrong`.
    pub fn push(&mut self, interaction: Value, served: Canned, expect: Expect) -> &mut Case {
        self.cases.push(Case {
            interaction,
            served,
            check: None,
            expect,
            pact_wrong: None,
            pact_path: None,
        });
        self.cases.last_mut().expect("just pushed")
    }

    /// A JSON body case at its own path `/case/N`: the contract expects
    /// `body` under `rules`, the provider serves `actual`.
    pub fn json(
        &mut self,
        description: &str,
        body: Value,
        rules: Value,
        actual: Value,
        expect: Expect,
    ) -> &mut Case {
        let path = format!("/case/{}", self.cases.len());
        let response = json_response(self.spec, body, rules);
        self.push(
            get(description, &path, response),
            served_json(actual),
            expect,
        )
    }

    /// The pact document of every case.
    pub fn pact(&self) -> Value {
        let interactions: Vec<Value> = self
            .cases
            .iter()
            .map(|c| {
                let mut i = c.interaction.clone();
                if self.spec == Spec::V4 && i.get("type").is_none() {
                    i["type"] = json!("Synchronous/HTTP");
                }
                i
            })
            .collect();
        let version = match self.spec {
            Spec::V2 => "2.0.0",
            Spec::V3 => "3.0.0",
            Spec::V4 => "4.0",
        };
        json!({
            "consumer": { "name": "web" },
            "provider": { "name": "items" },
            "interactions": interactions,
            "metadata": { "pactSpecification": { "version": version } }
        })
    }

    /// Serves every case from one stub and judges both verifiers on it.
    pub fn run(&self, name: &str) {
        let mut config = StubConfig {
            state_reply: self.state_reply.clone(),
            ..StubConfig::default()
        };
        for case in &self.cases {
            config.routes.insert(case.route(), case.served.clone());
            if let Some(check) = &case.check {
                config.checks.insert(case.route(), check.clone());
            }
        }
        let stub = StubProvider::start(config).expect("stub starts");
        let target = Target {
            base_url: stub.base_url(),
            state_url: stub.state_change_url(),
            message_path: None,
        };
        judge(name, &self.pact(), &self.cases, &target);
    }
}

/// Where both verifiers send their requests.
#[derive(Debug, Clone)]
pub struct Target {
    pub base_url: String,
    pub state_url: String,
    /// The message endpoint's path on `base_url` (message pacts only).
    pub message_path: Option<String>,
}

/// Runs both verifiers on `pact` and asserts every case's verdict.
pub fn judge(name: &str, pact: &Value, cases: &[Case], target: &Target) {
    let dir = temp_dir(&format!("verdicts-{name}"));
    let file = dir.join("web-items.json");
    std::fs::write(
        &file,
        serde_json::to_string_pretty(pact).expect("pact JSON"),
    )
    .expect("write");
    let start = std::time::Instant::now();
    let ours = run_accord(&file, target);
    let accord_took = start.elapsed();
    let theirs = run_pact(&file, &dir, target);
    let faults = cases.iter().filter(|c| c.expect != Expect::Pass).count();
    eprintln!(
        "{name}: {} interactions, {faults} faults; accord {accord_took:?}, pact {:?}",
        cases.len(),
        start.elapsed() - accord_took
    );
    let mut problems = Vec::new();
    for case in cases {
        let description = case.description();
        let Some((passed, findings)) = ours.get(&description) else {
            problems.push(format!("{description}: no Accord result"));
            continue;
        };
        if let Some(p) = check_ours(case.expect, *passed, findings) {
            problems.push(format!("{description}: Accord {p}; findings {findings:?}"));
        }
        let Some(theirs) = &theirs else { continue };
        match (theirs.get(&description), case.pact_wrong) {
            (None, _) => problems.push(format!("{description}: Pact did not verify it")),
            (Some(pact), None) if pact.is_none() != (case.expect == Expect::Pass) => {
                problems.push(format!(
                    "{description}: Pact says {} but the verdict must be {}",
                    verdict(pact.is_none()),
                    verdict(case.expect == Expect::Pass)
                ))
            }
            (Some(pact), Some(_)) if pact.is_none() == (case.expect == Expect::Pass) => {
                problems.push(format!("{description}: Pact now agrees; drop pact_wrong"))
            }
            (Some(Some(places)), None) => {
                if let Some(p) = check_place(case, places) {
                    problems.push(format!("{description}: {p}"));
                }
            }
            _ => {}
        }
    }
    assert!(
        problems.is_empty(),
        "{} of {} cases in {name} are wrong:\n{}",
        problems.len(),
        cases.len(),
        problems.join("\n")
    );
}

fn verdict(passed: bool) -> &'static str {
    if passed { "pass" } else { "fail" }
}

/// Whether Pact found the fault where Accord must (or, for a known
/// difference of convention, where `pact_path` says).
fn check_place(case: &Case, places: &[String]) -> Option<String> {
    let Expect::Fail { path, .. } = case.expect else {
        return None;
    };
    if places.is_empty() {
        return None; // Pact reported an error (a failed state change), not mismatches
    }
    let want = case.pact_path.unwrap_or(path);
    let found = places.iter().any(|p| p.eq_ignore_ascii_case(want));
    (!found).then(|| format!("Pact reports it at {places:?}, not at {want}"))
}

/// Why Accord's verdict is not `expect`, if it is not.
fn check_ours(expect: Expect, passed: bool, findings: &[Value]) -> Option<String> {
    match expect {
        Expect::Pass if passed => None,
        Expect::Pass => Some("failed a correct provider".into()),
        Expect::Fail { .. } if passed => Some("missed the fault".into()),
        Expect::Fail { layer, code, path } => {
            let hit = findings
                .iter()
                .any(|f| f["layer"] == layer && f["reasonCode"] == code && f["path"] == path);
            (!hit).then(|| format!("has no {layer} {code} at {path}"))
        }
    }
}
