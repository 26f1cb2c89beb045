//! V2's flat rule form: `{"$.body.a": {...}, "$.headers.Accept": {...}}`,
//! read into categories.

use serde_json::{Map, Value};

use indexmap::IndexMap;

use super::{Category, MatchingRules, RuleError, RuleList, invalid};
use crate::DslError;

/// Reads V2's flat `matchingRules` map.
pub(super) fn from_flat(o: &Map<String, Value>) -> Result<MatchingRules, DslError> {
    let mut by_category: IndexMap<&'static str, Vec<(String, RuleList)>> = IndexMap::new();
    for (key, v) in o {
        let at = format!("['{key}']");
        let (category, path) = split_flat_key(key)
            .ok_or_else(|| invalid(RuleError::new("expected a path like $.body.x").under(&at)))?;
        let list = RuleList::from_json(v).map_err(|e| invalid(e.under(&at)))?;
        by_category.entry(category).or_default().push((path, list));
    }
    let mut rules = MatchingRules::default();
    for (name, pairs) in by_category {
        let category = Category::from_pairs(pairs.into_iter().map(Ok), |key, e| {
            invalid(RuleError::new(e).under(&format!("['{key}']")))
        })?;
        *rules.category_mut(name) = category;
    }
    Ok(rules)
}

/// `$.body.a` → (`body`, `$.a`); `$.headers.Accept` → (`header`, `Accept`).
fn split_flat_key(key: &str) -> Option<(&'static str, String)> {
    let rest = key.strip_prefix("$.")?;
    let (head, tail) = match rest.find(['.', '[']) {
        Some(i) => (rest.get(..i)?, rest.get(i..)?),
        None => (rest, ""),
    };
    let category = match head {
        "body" => "body",
        "headers" | "header" => "header",
        "query" => "query",
        "path" => "path",
        "method" => "method",
        "status" => "status",
        "metadata" | "metaData" => "metadata",
        _ => return None,
    };
    let path = match category {
        "body" => format!("${tail}"),
        "header" | "query" | "metadata" => {
            let name = tail.strip_prefix('.').unwrap_or(tail);
            let name = name
                .strip_prefix("['")
                .and_then(|n| n.strip_suffix("']"))
                .unwrap_or(name);
            name.to_string()
        }
        _ => "$".to_string(),
    };
    Some((category, path))
}
