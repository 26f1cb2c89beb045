//! The canonical digest of a profile's tool listing: RFC 8785 JSON of the
//! tools ordered by name (JCS orders the keys), sha256. Two listings with
//! the same tools in another order, or keys in another order, share it.

use std::collections::BTreeMap;

use super::listing::Tools;
use super::wire::Era;
use crate::config::Token;
use crate::driver::Authorization;
use crate::report::Declaration;

/// The listing's declaration entry.
pub(super) fn declaration(profile: String, era: Era, tools: &Tools) -> Declaration {
    Declaration {
        kind: "mcp/tools/list",
        profile,
        protocol_version: era.version().to_owned(),
        digest: tools.digest(),
        entries: tools.len(),
        etag: None,
        used: Vec::new(),
        // the listing as read, already bounded by the listing's budget
        content: serde_json::from_slice::<serde_json::Value>(&tools.text())
            .map(|tools| crate::report::Content::of(serde_json::json!({ "tools": tools })))
            .unwrap_or_default(),
    }
}

/// Who a listing was read as, never the credential itself.
pub fn label(authorization: Authorization<'_>, principals: &BTreeMap<String, Token>) -> String {
    match authorization {
        Authorization::AsWritten => "as written".to_owned(),
        Authorization::Without => "unauthenticated".to_owned(),
        Authorization::Bearer(t) => principals
            .iter()
            .find(|(_, token)| token.expose() == t)
            .map_or_else(
                || "a state-issued token".to_owned(),
                |(name, _)| name.clone(),
            ),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_order_of_tools_and_keys_does_not_change_the_digest_a_change_does() {
        let a = json!({"name": "a", "inputSchema": {"type": "object", "required": ["x"]}});
        let b = json!({"inputSchema": {"required": ["x"], "type": "object"}, "name": "b"});
        let one = declaration(
            "alice".into(),
            Era::Modern,
            &Tools::of(&[a.clone(), b.clone()]),
        );
        let other = declaration(
            "alice".into(),
            Era::Modern,
            &Tools::of(&[b.clone(), a.clone()]),
        );
        assert_eq!(one.digest, other.digest);
        assert!(one.digest.starts_with("sha256:") && one.digest.len() == 71);
        let mut changed = b;
        changed["inputSchema"]["required"] = json!(["x", "y"]);
        assert_ne!(
            declaration("alice".into(), Era::Modern, &Tools::of(&[a, changed])).digest,
            one.digest
        );
        assert_eq!(one.entries, 2);
    }

    #[test]
    fn a_profile_is_named_by_its_principal_never_by_its_token() {
        let principals = [("alice".to_owned(), Token::new("t-alice-123"))].into();
        assert_eq!(
            label(Authorization::Bearer("t-alice-123"), &principals),
            "alice"
        );
        assert_eq!(
            label(Authorization::Bearer("other"), &principals),
            "a state-issued token"
        );
        assert_eq!(
            label(Authorization::Without, &principals),
            "unauthenticated"
        );
    }
}
