//! What `accord mock` tells the consumer's command: the URL of each
//! surface of each mock, in environment variables.

use std::collections::BTreeMap;

use accord_mock::MockServer;
use anyhow::bail;

/// The line per surface the contract has — `HTTP <base url>`, `A2A <agent
/// card url>`, `MCP <endpoint url>` — and the variables the command sees
/// (an entry without a label is a variable only: the agent's base URL).
pub fn surfaces(mock: &MockServer) -> Vec<(&'static str, String, Option<&'static str>)> {
    let mut out = Vec::new();
    if mock.serves_http() {
        out.push(("HTTP", mock.url().to_owned(), None));
    }
    if let (Some(card), Some(base)) = (mock.a2a_card_url(), mock.a2a_url()) {
        out.push(("A2A", card, None));
        out.push(("", base, Some("ACCORD_A2A_URL")));
    }
    if let Some(mcp) = mock.mcp_url() {
        out.push(("MCP", mcp, Some("ACCORD_MCP_URL")));
    }
    out
}

/// A provider's name as a variable's suffix: upper case, every character
/// but an ASCII letter or digit as `_` (`plan-tools` → `PLAN_TOOLS`).
pub fn suffix(provider: &str) -> String {
    provider
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// The variables for the command: per provider `ACCORD_MOCK_URL_<P>` and,
/// for its surfaces, `ACCORD_A2A_URL_<P>` and `ACCORD_MCP_URL_<P>`; with one
/// mock also `ACCORD_MOCK_URL`, `ACCORD_A2A_URL`, `ACCORD_MCP_URL`. Two
/// providers with one suffix are refused (one would hide the other).
pub fn variables<'a>(
    mocks: impl ExactSizeIterator<Item = (&'a str, &'a MockServer)>,
) -> anyhow::Result<Vec<(String, String)>> {
    let single = mocks.len() == 1;
    let mut seen: BTreeMap<String, &str> = BTreeMap::new();
    let mut out = Vec::new();
    for (provider, mock) in mocks {
        let key = suffix(provider);
        if let Some(other) = seen.insert(key.clone(), provider) {
            bail!(
                "two contracts' providers ({other:?} and {provider:?}) would share ACCORD_MOCK_URL_{key}: give one contract per provider"
            );
        }
        if single {
            out.push(("ACCORD_MOCK_URL".to_owned(), mock.url().to_owned()));
        }
        out.push((format!("ACCORD_MOCK_URL_{key}"), mock.url().to_owned()));
        for (_, url, var) in surfaces(mock) {
            let Some(var) = var else { continue };
            if single {
                out.push((var.to_owned(), url.clone()));
            }
            out.push((format!("{var}_{key}"), url));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::suffix;

    #[test]
    fn a_provider_name_becomes_an_upper_case_suffix() {
        assert_eq!(suffix("plan-tools"), "PLAN_TOOLS");
        assert_eq!(suffix("items"), "ITEMS");
        assert_eq!(suffix("a.b c/ü"), "A_B_C__");
    }
}
