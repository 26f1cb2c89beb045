//! Parsing `accord verify`'s arguments that clap cannot: secrets (whose
//! rejected values must never be repeated), consumer-version selectors, and
//! the value enums of its flags.

use accord_verifier::Token;
use serde_json::Value;

// `--principal` and `--header` carry secrets: they are parsed here, not
// by clap, whose errors repeat the rejected value; these never do.

pub fn parse_principal(text: &str) -> anyhow::Result<(String, Token)> {
    match text.split_once('=') {
        Some((name, token)) if !name.is_empty() && !token.is_empty() => {
            Ok((name.to_string(), Token::new(token)))
        }
        _ => anyhow::bail!("--principal expects NAME=TOKEN (the value given is not repeated here)"),
    }
}

pub fn parse_header(text: &str) -> anyhow::Result<(String, Token)> {
    let Some((name, value)) = text.split_once('=') else {
        anyhow::bail!(
            "--header expects NAME=VALUE, e.g. Authorization=Bearer abc (the value given is not repeated here)"
        );
    };
    if reqwest::header::HeaderName::from_bytes(name.trim().as_bytes()).is_err() {
        anyhow::bail!(
            "--header: the text before '=' is not a valid header name (write NAME=VALUE)"
        );
    }
    if reqwest::header::HeaderValue::from_str(value.trim()).is_err() {
        anyhow::bail!(
            "--header {}: the value is not a valid header value",
            name.trim()
        );
    }
    Ok((name.trim().to_string(), Token::new(value.trim())))
}

pub fn parse_selector(text: &str) -> Result<Value, String> {
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err("a selector is a JSON object, e.g. {\"mainBranch\":true}".to_string()),
        Err(e) => Err(format!("not JSON: {e}")),
    }
}

/// `--mcp-unknown-tool`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum UnknownToolArg {
    Warn,
    Spec,
    Sdk,
}

impl From<UnknownToolArg> for accord_verifier::UnknownTool {
    fn from(a: UnknownToolArg) -> Self {
        match a {
            UnknownToolArg::Warn => accord_verifier::UnknownTool::Warn,
            UnknownToolArg::Spec => accord_verifier::UnknownTool::Spec,
            UnknownToolArg::Sdk => accord_verifier::UnknownTool::Sdk,
        }
    }
}

/// `--a2a-binding`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum A2aBindingArg {
    Auto,
    Jsonrpc,
    #[value(name = "http+json")]
    HttpJson,
    All,
}

impl From<A2aBindingArg> for accord_verifier::config::A2aBinding {
    fn from(a: A2aBindingArg) -> Self {
        match a {
            A2aBindingArg::Auto => Self::Auto,
            A2aBindingArg::Jsonrpc => Self::JsonRpc,
            A2aBindingArg::HttpJson => Self::HttpJson,
            A2aBindingArg::All => Self::All,
        }
    }
}

/// The JWKs of a `--trust-card-key` file: a JWK, or a JWKS (`{"keys": […]}`).
pub fn read_card_keys(file: &std::path::Path) -> anyhow::Result<Vec<Value>> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| anyhow::anyhow!("--trust-card-key {}: {e}", file.display()))?;
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| anyhow::anyhow!("--trust-card-key {}: not JSON: {e}", file.display()))?;
    let keys = match value.get("keys").and_then(Value::as_array) {
        Some(keys) => keys.clone(),
        None => vec![value],
    };
    for (i, key) in keys.iter().enumerate() {
        let usable = serde_json::from_value::<jsonwebtoken::jwk::Jwk>(key.clone())
            .is_ok_and(|jwk| jsonwebtoken::DecodingKey::from_jwk(&jwk).is_ok());
        if !usable {
            anyhow::bail!(
                "--trust-card-key {}: key {i} is not a public JWK (kty, and its parameters)",
                file.display()
            );
        }
    }
    Ok(keys)
}

/// `--a2a-status-mapping`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum StatusMappingArg {
    Either,
    #[value(name = "1.0.1")]
    V101,
    #[value(name = "1.0.0")]
    V100,
}

impl From<StatusMappingArg> for accord_verifier::config::A2aStatusMapping {
    fn from(a: StatusMappingArg) -> Self {
        match a {
            StatusMappingArg::Either => Self::Either,
            StatusMappingArg::V101 => Self::V1_0_1,
            StatusMappingArg::V100 => Self::V1_0_0,
        }
    }
}

/// `--producer-digest`: `sha256:` and 64 lower-case hex digits.
pub fn parse_producer_digest(text: &str) -> Result<String, String> {
    let hex = text.strip_prefix("sha256:").unwrap_or("");
    let ok = hex.len() == 64
        && hex
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if ok {
        Ok(text.to_owned())
    } else {
        Err("expected sha256: and 64 lower-case hex digits (the producer artifact's digest, e.g. its image digest)".into())
    }
}

/// The shortest `--evidence-ttl`: one minute.
pub const EVIDENCE_TTL_MIN_SECONDS: u64 = 60;
/// The longest `--evidence-ttl`: 90 days (the broker's bound too).
pub const EVIDENCE_TTL_MAX_SECONDS: u64 = 90 * 24 * 3600;

/// `--evidence-ttl`: a whole number and a unit, `90m`, `36h` or `7d`, from
/// one minute to 90 days; answers seconds.
pub fn parse_evidence_ttl(text: &str) -> Result<u64, String> {
    let usage = "expected a whole number and a unit (m, h or d), e.g. 36h or 7d";
    let unit = match text.chars().last() {
        Some('m') => 60,
        Some('h') => 3600,
        Some('d') => 24 * 3600,
        _ => return Err(usage.into()),
    };
    let number = &text[..text.len() - 1];
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return Err(usage.into());
    }
    number
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(unit))
        .filter(|s| (EVIDENCE_TTL_MIN_SECONDS..=EVIDENCE_TTL_MAX_SECONDS).contains(s))
        .ok_or_else(|| "must be from 1 minute (1m) to 90 days (90d)".into())
}
