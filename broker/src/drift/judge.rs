//! Which live consumers a drift breaks, by their own expectations. When the
//! broker holds the content of both a verified declaration and the
//! observed one (`declaration_contents`: the new build was declared, or
//! another version verified it), the change verified → observed is
//! classified by `accord_verifier::compat` against the consumer's contract:
//! it breaks the consumer (the codes and paths), or leaves it unaffected.
//! When the observed content is unknown the honest answer stays "must
//! re-verify".

use accord_dsl::model::Contract;
use accord_verifier::compat::{self, Class, Consumer, Kind};
use serde_json::Value;

use super::verified::Verified;
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::store::{StoreError, declarations};

/// One declaration that differs from the verified ones: what it is and,
/// when the broker holds both contents, the verified and observed ones.
#[derive(Debug, Clone)]
pub struct Drifted {
    pub kind: Kind,
    /// `card`, or `tools` (with the profile below).
    pub profile: Option<String>,
    pub pair: Option<(Value, Value)>,
}

impl Drifted {
    /// `card` or `tools`: the reliance it concerns.
    pub fn relies(&self) -> &'static str {
        match self.kind {
            Kind::AgentCard => "card",
            Kind::McpTools => "tools",
        }
    }
}

/// A change that breaks a consumer: its code, where, and what changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Break {
    pub code: &'static str,
    pub path: String,
    pub detail: String,
}

/// What a drift does to one consumer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Its own checks fail on the observed declaration.
    Breaks(Vec<Break>),
    /// Every differing declaration it relies on is known and none breaks it.
    Unaffected,
    /// An observed declaration it relies on is not known to the broker.
    MustReverify,
}

impl Verdict {
    /// The stable word in the API.
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Breaks(_) => "breaks",
            Verdict::Unaffected => "unaffected",
            Verdict::MustReverify => "mustReverify",
        }
    }
}

fn content(conn: &mut AnyConnection, digest: &str) -> Result<Option<Value>, BrokerError> {
    let Some(found) = declarations::find_content(conn, digest)? else {
        return Ok(None);
    };
    let value = serde_json::from_str(&found.content).map_err(|source| StoreError::CorruptJson {
        what: "declaration content",
        source,
    })?;
    Ok(Some(value))
}

/// The pair (a verified content the broker holds, the observed content).
fn pair<'a>(
    conn: &mut AnyConnection,
    verified: impl IntoIterator<Item = &'a String>,
    observed: &str,
) -> Result<Option<(Value, Value)>, BrokerError> {
    let Some(new) = content(conn, observed)? else {
        return Ok(None);
    };
    for digest in verified {
        if let Some(old) = content(conn, digest)? {
            return Ok(Some((old, new)));
        }
    }
    Ok(None)
}

/// The declarations that differ: the card (when `card` is the observed
/// digest that differs) and each profile's tools in `tools`.
pub fn drifted(
    conn: &mut AnyConnection,
    verified: &Verified,
    card: Option<&str>,
    tools: &[(String, String)],
) -> Result<Vec<Drifted>, BrokerError> {
    let mut out = Vec::new();
    if let Some(observed) = card {
        out.push(Drifted {
            kind: Kind::AgentCard,
            profile: None,
            pair: pair(conn, &verified.card, observed)?,
        });
    }
    for (profile, observed) in tools {
        let known = verified.tools.get(profile).into_iter().flatten();
        out.push(Drifted {
            kind: Kind::McpTools,
            profile: Some(profile.clone()),
            pair: pair(conn, known, observed)?,
        });
    }
    Ok(out)
}

/// The verdict for a consumer relying on `relies_on` (`card`, `tools`).
pub fn judge(drifted: &[Drifted], relies_on: &[&str], label: &str, contract: &Contract) -> Verdict {
    let consumer = [Consumer {
        label: label.to_owned(),
        contract,
    }];
    let mut breaks = Vec::new();
    let mut unknown = false;
    for d in drifted.iter().filter(|d| relies_on.contains(&d.relies())) {
        let Some((old, new)) = &d.pair else {
            unknown = true;
            continue;
        };
        let changes = compat::classify(d.kind, old, new, &consumer);
        let broken = changes
            .into_iter()
            .filter(|c| c.class == Class::Breaking && !c.consumers_affected.is_empty());
        breaks.extend(broken.map(|c| Break {
            code: c.code,
            path: c.path,
            detail: c.detail,
        }));
    }
    match (breaks.is_empty(), unknown) {
        (false, _) => Verdict::Breaks(breaks),
        (true, true) => Verdict::MustReverify,
        (true, false) => Verdict::Unaffected,
    }
}

/// The sentence shown with a consumer.
pub fn note(verdict: &Verdict, relies_on: &[&str], label: &str) -> String {
    let what = relies_on.join(" and ");
    match verdict {
        Verdict::Breaks(breaks) => {
            let each: Vec<String> = breaks
                .iter()
                .map(|b| format!("{} at {}", b.code, b.path))
                .collect();
            format!("breaks {label}: {}", each.join("; "))
        }
        Verdict::Unaffected => format!(
            "unaffected: the observed {what} still meets its expectations (judged by compatibility classification)"
        ),
        Verdict::MustReverify => format!("relies on the {what}, must re-verify"),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn contract() -> Contract {
        let spec = r#"
consumer: planner
provider: plan-tools
protocols: { mcp: "2026-07-28" }
mcp_tools:
  - name: review
    arguments: { plan_id: string }
    reads: { status: { type: string, enum: [draft, ready] } }
"#;
        let none = |_: &str| -> Result<Value, accord_dsl::spec::ResolveError> { Ok(Value::Null) };
        accord_dsl::spec::compile_spec(spec, "c.yaml", &none).expect("compiles")
    }

    fn tools(status: &[&str]) -> Value {
        json!({"tools": [{"name": "review", "inputSchema": {"type": "object",
            "required": ["plan_id"], "properties": {"plan_id": {"type": "string"}}},
            "outputSchema": {"type": "object", "required": ["status"],
                "properties": {"status": {"type": "string", "enum": status}}}}]})
    }

    fn drifted(pair: Option<(Value, Value)>) -> Vec<Drifted> {
        vec![Drifted {
            kind: Kind::McpTools,
            profile: Some("carol".into()),
            pair,
        }]
    }

    #[test]
    fn a_known_change_breaks_or_leaves_a_consumer_and_an_unknown_one_asks_to_re_verify() {
        let c = contract();
        let removed = drifted(Some((tools(&["draft", "ready"]), tools(&["ready"]))));
        let Verdict::Breaks(breaks) = judge(&removed, &["tools"], "planner 1", &c) else {
            panic!("breaks");
        };
        assert_eq!(breaks[0].code, "BREAKING_ENUM_REMOVAL");
        let added = drifted(Some((
            tools(&["draft", "ready"]),
            tools(&["draft", "ready", "x"]),
        )));
        assert_eq!(
            judge(&added, &["tools"], "planner 1", &c),
            Verdict::Unaffected
        );
        assert_eq!(
            judge(&drifted(None), &["tools"], "planner 1", &c),
            Verdict::MustReverify
        );
        // a card reliance is not judged on a tools change
        assert_eq!(
            judge(&removed, &["card"], "planner 1", &c),
            Verdict::Unaffected
        );
    }

    #[test]
    fn the_note_names_the_codes_and_paths_or_says_re_verify() {
        let breaks = Verdict::Breaks(vec![Break {
            code: "BREAKING_ENUM_REMOVAL",
            path: "mcpTools[review].result.status".into(),
            detail: String::new(),
        }]);
        assert_eq!(
            note(&breaks, &["tools"], "planner 1.0"),
            "breaks planner 1.0: BREAKING_ENUM_REMOVAL at mcpTools[review].result.status"
        );
        assert_eq!(
            note(&Verdict::MustReverify, &["card", "tools"], "x 1"),
            "relies on the card and tools, must re-verify"
        );
    }
}
