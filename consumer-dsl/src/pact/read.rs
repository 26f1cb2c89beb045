//! Reading a whole contract file: Pact V1–V4 (upgraded to the V4 model)
//! plus Accord's top-level attributes and `metadata.accord`.

use serde_json::{Map, Value};

use super::json::{At, extra, found};
use super::read_interaction::{read_http_interaction, read_interaction, read_v3_message};
use crate::DslError;
use crate::model::{AccordMetadata, Contract, Interaction, PactSpec, Pacticipant};

/// Top-level attributes the reader consumes; anything else goes to `extra`.
const TOP_KEYS: &[&str] = &[
    "consumer",
    "provider",
    "interactions",
    "messages",
    "metadata",
    "agentCard",
    "mcpTools",
];
/// Metadata keys that name the specification version (not kept: Accord writes V4).
const SPEC_KEYS: &[&str] = &[
    "pactSpecification",
    "pact-specification",
    "pactSpecificationVersion",
];

/// MCP protocol versions a contract may pin.
pub const MCP_VERSIONS: &[&str] = &["2026-07-28", "2025-11-25"];
/// The A2A protocol version a contract may pin.
pub const A2A_VERSION: &str = "1.0";
/// The JSON Schema dialect of embedded schemas.
pub const JSON_SCHEMA_VERSION: &str = "2020-12";

/// Reads a contract (any Pact specification version, or an Accord
/// contract) from JSON text. `origin` names the text in errors, e.g. a file
/// name. Invalid JSON, including nesting deeper than 128 levels, is a
/// [`DslError::Json`] with line and column.
pub fn read_contract(text: &str, origin: &str) -> Result<Contract, DslError> {
    from_value(&parse_json(text, origin)?, origin)
}

/// Parses JSON text; invalid JSON (including nesting deeper than 128
/// levels) is a [`DslError::Json`] naming `origin`, line and column.
pub fn parse_json(text: &str, origin: &str) -> Result<Value, DslError> {
    serde_json::from_str(text).map_err(|source| DslError::Json {
        origin: origin.to_string(),
        line: source.line(),
        column: source.column(),
        source,
    })
}

/// Reads a contract from a parsed JSON document.
pub fn from_value(value: &Value, origin: &str) -> Result<Contract, DslError> {
    let root = At { origin, path: "$" };
    let obj = root.object(value)?;
    let spec = detect_spec(value, origin)?;
    let metadata_at = At {
        origin,
        path: "$.metadata",
    };
    let metadata = match obj.get("metadata") {
        None | Some(Value::Null) => Map::new(),
        Some(m) => metadata_at.object(m)?.clone(),
    };
    let accord = match metadata.get("accord") {
        None | Some(Value::Null) => None,
        Some(a) => Some(read_accord_metadata(a, origin)?),
    };
    Ok(Contract {
        consumer: read_pacticipant(obj, "consumer", origin)?,
        provider: read_pacticipant(obj, "provider", origin)?,
        interactions: read_interactions(obj, spec, origin)?,
        accord,
        metadata: super::json::without(metadata, &[SPEC_KEYS, &["accord"]].concat()),
        agent_card: match obj.get("agentCard") {
            None | Some(Value::Null) => None,
            Some(card) => Some(
                At {
                    origin,
                    path: "$.agentCard",
                }
                .typed_ref(card)?,
            ),
        },
        mcp_tools: read_mcp_tools(obj.get("mcpTools"), origin)?,
        extra: extra(obj, TOP_KEYS),
    })
}

/// The specification version a document declares. Without a declaration:
/// V4 when an interaction has a `type`, V3 when there are `messages` or
/// `providerStates`, otherwise V2 (which reads V1.1 files unchanged).
pub fn detect_spec(value: &Value, origin: &str) -> Result<PactSpec, DslError> {
    match declared_spec(value, origin) {
        Some(declared) => declared,
        None => Ok(guess_spec(value)),
    }
}

/// The version the document's metadata declares, `None` when it declares
/// none (and [`detect_spec`] would look at the interactions); a declared
/// version that cannot be read is `None` too.
pub(super) fn detect_spec_declared(value: &Value, origin: &str) -> Option<PactSpec> {
    declared_spec(value, origin)?.ok()
}

fn declared_spec(value: &Value, origin: &str) -> Option<Result<PactSpec, DslError>> {
    let metadata = value.get("metadata");
    let declared = SPEC_KEYS.iter().find_map(|key| {
        let v = metadata?.get(key)?;
        let (version, path) = match v {
            Value::Object(o) => (
                o.get("version")?,
                format!("$.metadata{}.version", step(key)),
            ),
            other => (other, format!("$.metadata{}", step(key))),
        };
        Some((version, path))
    });
    let (version, path) = declared?;
    let at = At {
        origin,
        path: &path,
    };
    let Some(text) = version.as_str() else {
        return Some(Err(at.invalid(
            "",
            format!("expected a version string, found {}", found(version)),
        )));
    };
    Some(text.parse().map_err(|e| at.invalid("", format!("{e}"))))
}

/// A JSON path step: `.name`, or `['name']` when the name is not an identifier.
fn step(key: &str) -> String {
    if key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        format!(".{key}")
    } else {
        format!("['{key}']")
    }
}

fn guess_spec(value: &Value) -> PactSpec {
    let interactions = value
        .get("interactions")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    if interactions.iter().any(|i| i.get("type").is_some()) {
        PactSpec::V4
    } else if value.get("messages").is_some()
        || interactions
            .iter()
            .any(|i| i.get("providerStates").is_some())
    {
        PactSpec::V3
    } else {
        PactSpec::V2
    }
}

fn read_pacticipant(
    obj: &Map<String, Value>,
    key: &str,
    origin: &str,
) -> Result<Pacticipant, DslError> {
    let path = format!("$.{key}");
    let at = At {
        origin,
        path: &path,
    };
    let v = obj
        .get(key)
        .ok_or_else(|| at.invalid("", "is required (an object with a name)"))?;
    let p = at.object(v)?;
    let name = at
        .opt_str(p, "name")?
        .ok_or_else(|| at.invalid(".name", "is required"))?;
    Ok(Pacticipant {
        name: name.to_string(),
        extra: extra(p, &["name"]),
    })
}

fn read_interactions(
    obj: &Map<String, Value>,
    spec: PactSpec,
    origin: &str,
) -> Result<Vec<Interaction>, DslError> {
    let mut out = Vec::new();
    for (key, v4_or_http) in [("interactions", true), ("messages", false)] {
        let path = format!("$.{key}");
        let items = match obj.get(key) {
            None | Some(Value::Null) => continue,
            Some(Value::Array(items)) => items,
            Some(other) => {
                let at = At { origin, path: "$" };
                return Err(at.expected(key, "an array", other));
            }
        };
        for (i, item) in items.iter().enumerate() {
            let path = format!("{path}[{i}]");
            let at = At {
                origin,
                path: &path,
            };
            out.push(match v4_or_http {
                true => read_listed(item, spec, at)?,
                false => read_v3_message(item, spec, at)?,
            });
        }
    }
    Ok(out)
}

/// One item of `interactions`, read by the document's version.
pub(super) fn read_listed(
    item: &Value,
    spec: PactSpec,
    at: At<'_>,
) -> Result<Interaction, DslError> {
    match spec {
        PactSpec::V4 => read_interaction(item, at),
        _ => read_http_interaction(item, spec, at),
    }
}

fn read_mcp_tools(
    v: Option<&Value>,
    origin: &str,
) -> Result<Vec<crate::model::accord::McpToolExpectation>, DslError> {
    let at = At { origin, path: "$" };
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let path = format!("$.mcpTools[{i}]");
                At {
                    origin,
                    path: &path,
                }
                .typed_ref(t)
            })
            .collect(),
        Some(other) => Err(at.expected("mcpTools", "an array", other)),
    }
}

/// Reads and validates `metadata.accord`:
/// `{"formatVersion": "1.0", "a2a": "1.0", "mcp": "2026-07-28", "jsonSchema": "2020-12"}`.
fn read_accord_metadata(v: &Value, origin: &str) -> Result<AccordMetadata, DslError> {
    let at = At {
        origin,
        path: "$.metadata.accord",
    };
    let obj = at.object(v)?;
    let format_version = at.opt_str(obj, "formatVersion")?.unwrap_or("1.0");
    if format_version.split('.').next() != Some("1") {
        return Err(at.invalid(
            ".formatVersion",
            format!(
                "unsupported Accord format version '{format_version}' (this version reads 1.x)"
            ),
        ));
    }
    let pin = |key: &str, allowed: &[&str]| read_pin(obj, key, allowed, at);
    Ok(AccordMetadata {
        format_version: format_version.to_string(),
        a2a: pin("a2a", &[A2A_VERSION])?,
        mcp: pin("mcp", MCP_VERSIONS)?,
        json_schema: pin("jsonSchema", &[JSON_SCHEMA_VERSION])?
            .unwrap_or_else(|| JSON_SCHEMA_VERSION.to_string()),
        extra: extra(obj, &["formatVersion", "a2a", "mcp", "jsonSchema"]),
    })
}

/// One pinned protocol version, which must be one of `allowed`.
fn read_pin(
    accord: &Map<String, Value>,
    key: &str,
    allowed: &[&str],
    at: At<'_>,
) -> Result<Option<String>, DslError> {
    let Some(v) = at.opt_str(accord, key)? else {
        return Ok(None);
    };
    if allowed.contains(&v) {
        return Ok(Some(v.to_string()));
    }
    Err(at.invalid(
        &format!(".{key}"),
        format!(
            "unsupported {key} version '{v}' (supported: {})",
            allowed.join(", ")
        ),
    ))
}

#[cfg(test)]
#[path = "read_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "read_refusal_tests.rs"]
mod refusal_tests;
