//! `multipart/form-data` bodies (RFC 7578): compared part by part.
//!
//! Two multipart bodies with the same parts differ in their boundaries, so
//! comparing bytes would fail every replay. Instead each expected part must
//! be in the actual body under the same name (the `name` of its
//! `Content-Disposition`), and its content is compared as a body of its own
//! content type under the rules written for it: rules at `$.<name>` apply
//! to the whole part (a `contentType` rule on an uploaded file, a regex on
//! a text field), rules below it (`$.<name>.id`) to the part's JSON or XML.
//! Parts the consumer did not expect are allowed where unexpected keys are
//! (responses, messages) and refused where they are not (requests).

use super::body::match_body;
use super::mismatch::{Mismatch, MismatchKind};
use super::rules::Category;
use crate::model::{Body, BodyContent};

/// Most parts read from one body; more is refused rather than compared.
const MAX_PARTS: usize = 1000;

/// One part: its name, content type and content.
#[derive(Debug, Clone, PartialEq)]
struct Part {
    name: String,
    content_type: Option<String>,
    body: Vec<u8>,
}

/// The boundary of a `multipart/*` content type, if it is one.
pub(super) fn boundary(content_type: &str) -> Option<String> {
    let mut params = content_type.split(';');
    let essence = params.next()?.trim().to_ascii_lowercase();
    if !essence.starts_with("multipart/") {
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
    let mut out = Vec::new();
    if !allow_unexpected {
        for part in a.iter().filter(|p| !e.iter().any(|x| x.name == p.name)) {
            let msg = format!("Unexpected multipart part '{}'", part.name);
            out.push(body_mismatch(&part_path(&part.name), msg));
        }
    }
    for part in &e {
        match a.iter().find(|p| p.name == part.name) {
            Some(found) => out.extend(compare_part(part, found, rules, allow_unexpected)),
            None => {
                let msg = format!(
                    "Expected a multipart part '{}' but it was missing",
                    part.name
                );
                out.push(body_mismatch(&part_path(&part.name), msg));
            }
        }
    }
    out
}

fn compare_part(e: &Part, a: &Part, rules: &Category, allow: bool) -> Vec<Mismatch> {
    let prefix = part_path(&e.name);
    let sub_rules = rerooted(rules, &e.name);
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
                "Expected multipart part '{}' to have content type '{ect}' but was '{act}'",
                e.name
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

/// The body rules below `$.<name>` (or `$['<name>']`), rooted at the part.
fn rerooted(rules: &Category, name: &str) -> Category {
    let mut out = Category::default();
    let prefixes = [format!("$.{name}"), format!("$['{name}']")];
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

/// `$.name`, or `$['odd name']` when the name is not a plain identifier.
fn part_path(name: &str) -> String {
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
        parts.push(read_part(after_line.get(..end).unwrap_or_default())?);
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
fn read_part(raw: &[u8]) -> Result<Part, String> {
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
    let mut name = None;
    let mut content_type = None;
    for line in head.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        match key.trim().to_ascii_lowercase().as_str() {
            "content-disposition" => name = disposition_name(value),
            "content-type" => content_type = Some(value.trim().to_string()),
            _ => {}
        }
    }
    let name = name.ok_or("has a part without a Content-Disposition name")?;
    Ok(Part {
        name,
        content_type,
        body: body.to_vec(),
    })
}

/// The `name` parameter of `form-data; name="file"; filename="a.jpg"`.
fn disposition_name(value: &str) -> Option<String> {
    value.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        (k.trim().eq_ignore_ascii_case("name")).then(|| v.trim().trim_matches('"').to_string())
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
