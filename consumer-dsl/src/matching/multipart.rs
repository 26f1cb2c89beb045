//! Multipart bodies (`multipart/form-data`, RFC 7578; `multipart/mixed`
//! and the other RFC 2046 kinds): compared part by part.
//!
//! Two multipart bodies with the same parts differ in their boundaries, so
//! comparing bytes would fail every replay. Instead the parts are paired:
//! a named part (the `name` of its `Content-Disposition`) with the actual
//! part of the same name — the n-th of a repeated name with the n-th — and
//! a part without a name (usual in `multipart/mixed`) with the actual
//! unnamed part at the same position among the unnamed ones. Each pair's
//! content is compared as a body of its own content type under the rules
//! written for it: rules at `$.<name>` (or `$[<i>]` for the unnamed part at
//! position `i` of the expected body) apply to the whole part (a
//! `contentType` rule on an uploaded file, a regex on a text field), rules
//! below it (`$.<name>.id`) to the part's JSON or XML.
//!
//! Named parts behave like the keys of an object: extra ones are allowed
//! where unexpected keys are (responses, messages) and refused where they
//! are not (requests). Unnamed parts behave like the items of an array: a
//! missing or an extra one is always a mismatch.

use base64::Engine;

use super::body::match_body;
use super::mismatch::{Mismatch, MismatchKind};
use super::rules::Category;
use crate::model::{Body, BodyContent};

/// Most parts read from one body; more is refused rather than compared.
const MAX_PARTS: usize = 1000;

/// One part: its name (if it has one), content type and content.
#[derive(Debug, Clone, PartialEq)]
struct Part {
    name: Option<String>,
    content_type: Option<String>,
    body: Vec<u8>,
}

/// What pairs a part with its counterpart: its name (`None` for unnamed
/// parts) and how many parts of that name come before it.
type PairKey<'a> = (Option<&'a str>, usize);

/// The boundary of a `multipart/*` content type, if it is one.
pub(super) fn boundary(content_type: &str) -> Option<String> {
    let mut params = content_type.split(';');
    // compared in place: every answer judged asks (a lower-cased copy
    // was an allocation each time)
    let essence = params.next()?.trim().as_bytes();
    let head = b"multipart/";
    if essence.len() < head.len() || !essence[..head.len()].eq_ignore_ascii_case(head) {
        return None;
    }
    params.find_map(|p| {
        let (k, v) = p.split_once('=')?;
        (k.trim().eq_ignore_ascii_case("boundary")).then(|| v.trim().trim_matches('"').to_string())
    })
}

/// Compares two multipart bodies with the given boundaries.
pub(super) fn match_multipart(
    expected: (&[u8], &str),
    actual: (&[u8], &str),
    rules: &Category,
    allow_unexpected: bool,
) -> Vec<Mismatch> {
    let e = match parse(expected.0, expected.1) {
        Ok(parts) => parts,
        Err(why) => {
            return vec![body_mismatch(
                "$",
                format!("The expected multipart body {why}"),
            )];
        }
    };
    let a = match parse(actual.0, actual.1) {
        Ok(parts) => parts,
        Err(why) => {
            return vec![body_mismatch(
                "$",
                format!("The actual multipart body {why}"),
            )];
        }
    };
    let (e_keys, a_keys) = (pair_keys(&e), pair_keys(&a));
    let mut out = Vec::new();
    for (i, part) in a.iter().enumerate() {
        let refused = part.name.is_none() || !allow_unexpected;
        if refused && !e_keys.contains(&a_keys[i]) {
            let msg = format!("Unexpected multipart part {}", label(part, i));
            out.push(body_mismatch(&part_path(part, i), msg));
        }
    }
    for (i, part) in e.iter().enumerate() {
        match a_keys.iter().position(|k| *k == e_keys[i]) {
            Some(j) => out.extend(compare_part((part, i), &a[j], rules, allow_unexpected)),
            None => {
                let msg = format!(
                    "Expected a multipart part {} but it was missing",
                    label(part, i)
                );
                out.push(body_mismatch(&part_path(part, i), msg));
            }
        }
    }
    out
}

/// The pairing key of every part, in order.
fn pair_keys(parts: &[Part]) -> Vec<PairKey<'_>> {
    let mut keys: Vec<PairKey<'_>> = Vec::with_capacity(parts.len());
    for part in parts {
        let name = part.name.as_deref();
        let before = keys.iter().filter(|(n, _)| *n == name).count();
        keys.push((name, before));
    }
    keys
}

/// `'name'`, or `$[i] (without a name)`, for messages.
fn label(part: &Part, index: usize) -> String {
    match &part.name {
        Some(name) => format!("'{name}'"),
        None => format!("{} (without a name)", part_path(part, index)),
    }
}

fn compare_part(e: (&Part, usize), a: &Part, rules: &Category, allow: bool) -> Vec<Mismatch> {
    let (e, index) = e;
    let prefix = part_path(e, index);
    let sub_rules = rerooted(rules, &prefixes(e, index));
    let mut out = Vec::new();
    let has_rules = !sub_rules.is_empty();
    if let (Some(ect), false) = (&e.content_type, has_rules) {
        let essence = |ct: &str| {
            ct.split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_ascii_lowercase()
        };
        let act = a.content_type.as_deref().unwrap_or("text/plain");
        if essence(ect) != essence(act) {
            let msg = format!(
                "Expected multipart part {} to have content type '{ect}' but was '{act}'",
                label(e, index)
            );
            out.push(body_mismatch(&prefix, msg));
            return out;
        }
    }
    let as_body = |p: &Part| Body::Present {
        content: match String::from_utf8(p.body.clone()) {
            Ok(text) => BodyContent::Text(text),
            Err(bytes) => BodyContent::Bytes(bytes.into_bytes()),
        },
        content_type: Some(
            p.content_type
                .clone()
                .unwrap_or_else(|| "text/plain".into()),
        ),
    };
    for mut m in match_body(&as_body(e), &as_body(a), &sub_rules, allow) {
        m.path = format!("{prefix}{}", m.path.strip_prefix('$').unwrap_or(&m.path));
        out.push(m);
    }
    out
}

/// The rule-path prefixes that address a part as a whole.
fn prefixes(part: &Part, index: usize) -> Vec<String> {
    match &part.name {
        Some(name) => vec![format!("$.{name}"), format!("$['{name}']")],
        None => vec![format!("$[{index}]")],
    }
}

/// The body rules below one of `prefixes`, rooted at the part.
fn rerooted(rules: &Category, prefixes: &[String]) -> Category {
    let mut out = Category::default();
    for entry in rules.entries() {
        let rest = prefixes
            .iter()
            .find_map(|p| entry.key.strip_prefix(p.as_str()));
        let Some(rest) = rest.filter(|r| r.is_empty() || r.starts_with(['.', '['])) else {
            continue;
        };
        // A key that parsed once parses again with another root.
        let _ = out.set(&format!("${rest}"), entry.rules.clone());
    }
    out
}

/// `$.name`, or `$['odd name']` when the name is not a plain identifier;
/// `$[i]` for an unnamed part at position `i` of its body.
fn part_path(part: &Part, index: usize) -> String {
    let Some(name) = &part.name else {
        return format!("$[{index}]");
    };
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if plain {
        format!("$.{name}")
    } else {
        format!("$['{name}']")
    }
}

fn body_mismatch(path: &str, message: String) -> Mismatch {
    Mismatch::new(MismatchKind::Body, path, message)
}

/// Splits a multipart body into its parts.
fn parse(body: &[u8], boundary: &str) -> Result<Vec<Part>, String> {
    let delimiter = format!("--{boundary}");
    let mut rest = find(body, delimiter.as_bytes())
        .and_then(|i| body.get(i + delimiter.len()..))
        .ok_or_else(|| format!("has no boundary '{boundary}'"))?;
    let closing = format!("\r\n--{boundary}");
    let mut parts = Vec::new();
    while !rest.starts_with(b"--") {
        if parts.len() == MAX_PARTS {
            return Err(format!("has more than {MAX_PARTS} parts"));
        }
        let after_line = skip_line_end(rest);
        let end = find(after_line, closing.as_bytes())
            .or_else(|| find(after_line, &closing.as_bytes()[1..]))
            .ok_or("is not closed by its boundary")?;
        parts.push(read_part(after_line.get(..end).unwrap_or_default()));
        let skip = if after_line.get(end) == Some(&b'\r') {
            closing.len()
        } else {
            closing.len() - 1
        };
        rest = after_line.get(end + skip..).unwrap_or_default();
    }
    Ok(parts)
}

/// One part: headers, a blank line, the content.
fn read_part(raw: &[u8]) -> Part {
    let (head, body) = match find(raw, b"\r\n\r\n") {
        Some(i) => (
            raw.get(..i).unwrap_or_default(),
            raw.get(i + 4..).unwrap_or_default(),
        ),
        None => match find(raw, b"\n\n") {
            Some(i) => (
                raw.get(..i).unwrap_or_default(),
                raw.get(i + 2..).unwrap_or_default(),
            ),
            None => (raw, &[][..]),
        },
    };
    let head = String::from_utf8_lossy(head);
    let mut part = Part {
        name: None,
        content_type: None,
        body: body.to_vec(),
    };
    let mut base64 = false;
    for line in head.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        match key.trim().to_ascii_lowercase().as_str() {
            "content-disposition" => part.name = disposition_name(value),
            "content-type" => part.content_type = Some(value.trim().to_string()),
            "content-transfer-encoding" => base64 = value.trim().eq_ignore_ascii_case("base64"),
            _ => {}
        }
    }
    if base64 {
        part.body = decoded_base64(part.body);
    }
    part
}

/// The content of a `Content-Transfer-Encoding: base64` part, so the
/// comparison sees what was sent and not how it was line-wrapped; content
/// that is not valid base64 is compared as it is.
fn decoded_base64(body: Vec<u8>) -> Vec<u8> {
    let compact: Vec<u8> = body
        .iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect();
    base64::engine::general_purpose::STANDARD
        .decode(compact)
        .unwrap_or(body)
}

/// The `name` parameter of `form-data; name="file"; filename="a.jpg"`;
/// `None` when it is absent or empty.
fn disposition_name(value: &str) -> Option<String> {
    value.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        let name = v.trim().trim_matches('"');
        (k.trim().eq_ignore_ascii_case("name") && !name.is_empty()).then(|| name.to_string())
    })
}

fn skip_line_end(bytes: &[u8]) -> &[u8] {
    let bytes = bytes.strip_prefix(b"\r").unwrap_or(bytes);
    bytes.strip_prefix(b"\n").unwrap_or(bytes)
}

/// First position of `needle` in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, _) = needle.split_first()?;
    let mut from = 0;
    while let Some(i) = haystack.get(from..)?.iter().position(|&b| b == first) {
        let at = from + i;
        if haystack.get(at..at + needle.len()) == Some(needle) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

#[cfg(test)]
#[path = "multipart_tests.rs"]
mod tests;
