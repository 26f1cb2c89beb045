//! What a consumer contract relies on of a provider's declarations: the
//! Agent Card (an `agentCard` expectation or any A2A interaction) and MCP
//! tools (an `mcpTools` expectation or any MCP tool call). Pure. This says
//! who must re-verify when a digest changes, not which expectation breaks:
//! judging that needs the declared contents (the declarations work).

use serde_json::Value;

/// What one contract relies on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Reliance {
    pub card: bool,
    pub tools: bool,
}

/// Reads a contract document.
pub fn of(contract: &Value) -> Reliance {
    let types = contract["interactions"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let has_type = |t: &str| types.iter().any(|i| i["type"].as_str() == Some(t));
    let present = |key: &str| !contract[key].is_null();
    Reliance {
        card: present("agentCard") || has_type("A2A/Task"),
        tools: present("mcpTools") || has_type("MCP/ToolCall"),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a2a_interactions_or_card_expectations_rely_on_the_card() {
        let a2a = json!({"interactions": [{"type": "A2A/Task"}]});
        assert_eq!(
            of(&a2a),
            Reliance {
                card: true,
                tools: false
            }
        );
        let card = json!({"agentCard": {"skills": ["x"]}, "interactions": []});
        assert!(of(&card).card);
    }

    #[test]
    fn tool_calls_rely_on_the_tools_and_plain_http_on_neither() {
        let mcp = json!({"interactions": [{"type": "MCP/ToolCall"}]});
        assert_eq!(
            of(&mcp),
            Reliance {
                card: false,
                tools: true
            }
        );
        let http = json!({"interactions": [{"type": "Synchronous/HTTP"}]});
        assert_eq!(of(&http), Reliance::default());
    }
}
