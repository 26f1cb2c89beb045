//! Content types: which comparator a body needs, and media-type equality
//! for the `Content-Type` header.

/// The family of a content type, which decides the body comparator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContentKind {
    /// `application/json`, `*+json`, `*/json`.
    Json,
    /// `application/xml`, `text/xml`, `*+xml`.
    Xml,
    /// `text/*` other than XML.
    Text,
    /// `application/x-www-form-urlencoded`.
    Form,
    /// Anything else: compared as bytes.
    Binary,
}

/// Classifies a content type such as `application/json; charset=UTF-8`.
/// The essence is compared case-insensitively where it stands (this runs
/// for every answer judged: a lower-cased copy was an allocation each time).
pub fn content_kind(content_type: &str) -> ContentKind {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .as_bytes();
    let (main, sub) = match essence.iter().position(|b| *b == b'/') {
        Some(at) => (&essence[..at], &essence[at + 1..]),
        None => (essence, &b""[..]),
    };
    let is = |s: &[u8], word: &str| s.eq_ignore_ascii_case(word.as_bytes());
    let ends = |s: &[u8], tail: &str| s.len() >= tail.len() && is(&s[s.len() - tail.len()..], tail);
    let starts = |s: &[u8], head: &str| s.len() >= head.len() && is(&s[..head.len()], head);
    if is(sub, "json") || ends(sub, "+json") || starts(sub, "x-json") {
        ContentKind::Json
    } else if is(sub, "xml") || ends(sub, "+xml") {
        ContentKind::Xml
    } else if is(sub, "x-www-form-urlencoded") {
        ContentKind::Form
    } else if is(main, "text") || is(sub, "javascript") {
        ContentKind::Text
    } else {
        ContentKind::Binary
    }
}

/// A media type split into its essence and its parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MediaType {
    /// `type/subtype`, lower case.
    pub essence: String,
    /// Parameters with lower-case names, values unquoted, in written order.
    pub params: Vec<(String, String)>,
}

impl MediaType {
    /// Parses `type/subtype; name=value; ...` (tolerant: never fails).
    pub fn parse(text: &str) -> MediaType {
        let mut parts = text.split(';');
        let essence = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
        let params = parts
            .filter_map(|p| {
                let (k, v) = p.split_once('=')?;
                Some((
                    k.trim().to_ascii_lowercase(),
                    v.trim().trim_matches('"').to_string(),
                ))
            })
            .collect();
        MediaType { essence, params }
    }

    /// True when `actual` has the same essence and every parameter of this
    /// one (values compared case-insensitively, as charsets are).
    pub fn accepts(&self, actual: &MediaType) -> bool {
        self.essence == actual.essence
            && self.params.iter().all(|(k, v)| {
                actual
                    .params
                    .iter()
                    .any(|(ak, av)| ak == k && av.eq_ignore_ascii_case(v))
            })
    }
}

/// The comparator some bytes need when no content type says: XML, JSON,
/// text, else binary.
pub(super) fn sniff(bytes: &[u8]) -> ContentKind {
    match std::str::from_utf8(bytes) {
        Ok(t) if t.trim_start().starts_with('<') => ContentKind::Xml,
        Ok(t) if serde_json::from_str::<serde::de::IgnoredAny>(t).is_ok() => ContentKind::Json,
        Ok(_) => ContentKind::Text,
        Err(_) => ContentKind::Binary,
    }
}

/// The content type of some bytes: magic numbers, then JSON, XML, text.
pub(super) fn detect(bytes: &[u8]) -> &'static str {
    magic(bytes).unwrap_or(match sniff(bytes) {
        ContentKind::Json => "application/json",
        ContentKind::Xml => "application/xml",
        ContentKind::Text | ContentKind::Form => "text/plain",
        ContentKind::Binary => "application/octet-stream",
    })
}

/// True when content detected as `detected` satisfies a `contentType`
/// rule for `wanted`: the same media type (parameters ignored), a
/// structured-syntax suffix (`+json`, `+xml`) or `text/xml` of the detected
/// syntax, or `text/plain` for any text (pact-reference's magic detector
/// reports JSON and XML as `text/plain`).
pub(super) fn content_type_fits(wanted: &str, detected: &str) -> bool {
    let wanted = wanted.split(';').next().unwrap_or_default().trim();
    let wanted = wanted.to_ascii_lowercase();
    let textual = matches!(
        detected,
        "application/json" | "application/xml" | "text/plain"
    );
    wanted == detected
        || (wanted == "text/plain" && textual)
        || (detected == "application/json" && wanted.ends_with("+json"))
        || (detected == "application/xml" && (wanted.ends_with("+xml") || wanted == "text/xml"))
}

/// Content types recognised by their first bytes.
fn magic(b: &[u8]) -> Option<&'static str> {
    const TABLE: &[(&[u8], &str)] = &[
        (b"\x89PNG\r\n\x1a\n", "image/png"),
        (b"\xff\xd8\xff", "image/jpeg"),
        (b"GIF8", "image/gif"),
        (b"%PDF-", "application/pdf"),
        (b"PK\x03\x04", "application/zip"),
        (b"\x1f\x8b", "application/gzip"),
    ];
    TABLE
        .iter()
        .find(|(m, _)| b.starts_with(m))
        .map(|(_, ct)| *ct)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classification as it was written before: on a lower-cased copy.
    fn content_kind_lowered(content_type: &str) -> ContentKind {
        let essence = content_type
            .split(';')
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        let (main, sub) = essence.split_once('/').unwrap_or((essence.as_str(), ""));
        if sub == "json" || sub.ends_with("+json") || sub.starts_with("x-json") {
            ContentKind::Json
        } else if sub == "xml" || sub.ends_with("+xml") {
            ContentKind::Xml
        } else if sub == "x-www-form-urlencoded" {
            ContentKind::Form
        } else if main == "text" || sub == "javascript" {
            ContentKind::Text
        } else {
            ContentKind::Binary
        }
    }

    #[test]
    fn content_kinds_compared_in_place_are_those_of_the_lower_cased_copy() {
        let mains = [
            "",
            "text",
            "TEXT",
            "Application",
            "image",
            "tExt/x",
            "é",
            "x",
        ];
        let subs = [
            "",
            "json",
            "JSON",
            "Json; charset=utf-8",
            "vnd.api+JSON",
            "+json",
            "json+",
            "x-json",
            "X-JSON-seq",
            "x-jso",
            "xml",
            "XML",
            "atom+Xml",
            "+xml",
            "xmlx",
            "x-www-form-urlencoded",
            "X-WWW-FORM-URLENCODED",
            "javascript",
            "JavaScript",
            "plain",
            "ÉJSON",
            "jsoné",
            "é+json",
            "a/b/json",
            " json ",
            "json ;x=y",
        ];
        for main in mains {
            for sub in subs {
                for text in [
                    format!("{main}/{sub}"),
                    format!(" {main}/{sub} ; q=1"),
                    main.to_owned(),
                ] {
                    assert_eq!(content_kind(&text), content_kind_lowered(&text), "{text:?}");
                }
            }
        }
    }

    #[test]
    fn content_kinds_follow_the_subtype() {
        let table = [
            ("application/json", ContentKind::Json),
            ("application/vnd.api+json; charset=utf-8", ContentKind::Json),
            ("application/xml", ContentKind::Xml),
            ("text/xml", ContentKind::Xml),
            ("application/atom+xml", ContentKind::Xml),
            ("text/plain", ContentKind::Text),
            ("application/x-www-form-urlencoded", ContentKind::Form),
            ("application/octet-stream", ContentKind::Binary),
        ];
        for (ct, kind) in table {
            assert_eq!(content_kind(ct), kind, "{ct}");
        }
    }

    #[test]
    fn media_type_accepts_extra_parameters_but_not_different_ones() {
        let json = MediaType::parse("application/json");
        let utf8 = MediaType::parse("application/json; charset=UTF-8");
        let utf16 = MediaType::parse("application/json;charset=utf-16");
        assert!(json.accepts(&utf8));
        assert!(MediaType::parse("application/json;charset=utf-8").accepts(&utf8));
        assert!(!utf16.accepts(&utf8));
        assert!(!utf8.accepts(&json));
    }
}
