//! Secrets in free text (a header value, a text or form body, a path with
//! its query, a URL, a sentence quoting one): the credential after
//! `Bearer`/`Basic`, a URL's user-info, and the value of each
//! `name=value`, `name: value` or `"name": "value"` pair whose name is a
//! secret's.

use super::HIDDEN;
use super::names::is_secret_name;

/// Schemes whose next word is a credential.
const SCHEMES: [&str; 2] = ["bearer", "basic"];

/// Words after `Bearer`/`Basic` that are prose, not a credential
/// (`basic auth`, `the bearer of`).
const PROSE: [&str; 24] = [
    "auth",
    "authentication",
    "authorization",
    "token",
    "tokens",
    "credential",
    "credentials",
    "scheme",
    "header",
    "of",
    "the",
    "a",
    "an",
    "and",
    "or",
    "to",
    "is",
    "for",
    "with",
    "plan",
    "tier",
    "mode",
    "access",
    "realm",
];

/// Ends a credential or a pair's value.
fn ends_value(c: char) -> bool {
    c.is_whitespace() || matches!(c, '"' | '\'' | '&' | '#' | '<' | '>' | ',' | ';')
}

/// Part of a name before `=` or `:`.
fn in_name(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '[' | ']')
}

/// The credential after each `Bearer`/`Basic` and whitespace hidden
/// (unless the next word is prose, `basic auth`, or a pattern).
pub fn schemes(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    let mut next = [0; SCHEMES.len()].map(|_| None::<usize>);
    while let Some((start, len)) = next_scheme(&lower, at, &mut next) {
        let after = start + len;
        match credential(&lower, start, after) {
            Some((cred, end)) => {
                out.push_str(&text[at..cred]);
                out.push_str(HIDDEN);
                at = end;
            }
            None => {
                out.push_str(&text[at..after]);
                at = after;
            }
        }
    }
    out.push_str(&text[at..]);
    out
}

/// The credential after the scheme word at `start..after`: its start and
/// end, or `None` when the scheme is part of a word (`basically`), not
/// followed by whitespace, or followed by prose or a pattern. Checked in
/// that order, so a text is scanned for a credential once per word.
fn credential(lower: &str, start: usize, after: usize) -> Option<(usize, usize)> {
    let inside_word = lower[..start]
        .chars()
        .next_back()
        .is_some_and(char::is_alphanumeric);
    if inside_word || !lower[after..].starts_with(char::is_whitespace) {
        return None;
    }
    let cred = lower[after..]
        .find(|c: char| !c.is_whitespace())
        .map_or(lower.len(), |n| after + n);
    let end = lower[cred..]
        .find(ends_value)
        .map_or(lower.len(), |n| cred + n);
    let word = &lower[cred..end];
    let prose = PROSE.contains(&word.trim_end_matches(['.', ':']));
    (end > cred && !prose && !is_pattern(word)).then_some((cred, end))
}

/// A word after a scheme that is a pattern, not a credential: a regex
/// (`[a-z0-9]+$`), a template or expression (`{{token}}`, `${token}`),
/// or `(hidden)` itself.
fn is_pattern(word: &str) -> bool {
    word.starts_with(['$', '<']) || word.contains(['[', ']', '{', '}', '(', ')', '\\', '|'])
}

/// The next scheme word at or after `from`: (position, length); `found`
/// keeps each scheme's next position (`usize::MAX`: none left), so the
/// text is searched once.
fn next_scheme(
    lower: &str,
    from: usize,
    found: &mut [Option<usize>; SCHEMES.len()],
) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    for (s, next) in SCHEMES.iter().zip(found.iter_mut()) {
        if next.is_none_or(|n| n < from) {
            *next = Some(lower[from..].find(s).map_or(usize::MAX, |n| from + n));
        }
        let n = next.unwrap_or(usize::MAX);
        if n != usize::MAX && best.is_none_or(|(b, _)| n < b) {
            best = Some((n, s.len()));
        }
    }
    best
}

/// Each URL's user-info (`scheme://user:password@`) replaced by `with`,
/// or removed with its `@` when `with` is `None`.
pub fn user_info(text: &str, with: Option<&str>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while let Some(n) = text[at..].find("://") {
        let host = at + n + 3;
        let authority = text[host..]
            .find(|c: char| ends_value(c) && c != ';' && c != ',' || matches!(c, '/' | '?'))
            .map_or(text.len(), |n| host + n);
        out.push_str(&text[at..host]);
        match text[host..authority].rfind('@') {
            Some(u) => {
                if let Some(w) = with {
                    out.push_str(w);
                    out.push('@');
                }
                out.push_str(&text[host + u + 1..authority]);
            }
            None => out.push_str(&text[host..authority]),
        }
        at = authority;
    }
    out.push_str(&text[at..]);
    out
}

/// The name before the separator at `sep`: its start, or `None`. A
/// quoted name (`"token": …`) counts.
fn name_before(text: &str, sep: usize) -> Option<(usize, usize)> {
    let mut end = sep;
    let before = text[..sep].trim_end_matches([' ', '\t']);
    if text[..sep].ends_with(['"', '\'']) || before.ends_with(['"', '\'']) {
        end = before.len() - 1;
    } else if text.as_bytes()[sep] == b':' {
        end = before.len();
    }
    let start = text[..end]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| in_name(c))
        .last()
        .map(|(i, _)| i)?;
    Some((start, end))
}

/// Where the value after the separator at `sep` starts and ends: after
/// blanks and an opening quote (and a `Bearer`-like scheme word), up to
/// the closing quote or [`ends_value`].
fn value_after(text: &str, sep: usize) -> (usize, usize) {
    let mut start = sep + 1;
    if text.as_bytes()[sep] == b':' {
        start = text[start..]
            .find(|c: char| c != ' ' && c != '\t')
            .map_or(text.len(), |n| start + n);
    }
    let quote = text[start..]
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\''));
    if let Some(q) = quote {
        start += 1;
        let end = text[start..].find(q).map_or(text.len(), |n| start + n);
        return (start, end);
    }
    let head = &text.as_bytes()[start..text.len().min(start + 7)];
    for word in ["bearer ", "basic ", "token ", "digest "] {
        if head.len() >= word.len() && head[..word.len()].eq_ignore_ascii_case(word.as_bytes()) {
            start += word.len();
            start = text[start..]
                .find(|c: char| !c.is_whitespace())
                .map_or(text.len(), |n| start + n);
            break;
        }
    }
    let end = text[start..]
        .find(ends_value)
        .map_or(text.len(), |n| start + n);
    (start, end)
}

/// The value of each `name=value`, `name: value`, `"name": "value"` pair
/// whose name is a secret's hidden (`?access_token=…`, `pwd=…&sig=…`,
/// `X-Api-Key: …`, `{"jwt": "…"}` quoted in a sentence).
pub fn pairs(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while let Some(n) = text[at..].find(['=', ':']) {
        let sep = at + n;
        let url = text[sep..].starts_with("://");
        let secret = !url
            && name_before(text, sep).is_some_and(|(s, e)| s >= at && is_secret_name(&text[s..e]));
        let (start, end) = if secret {
            value_after(text, sep)
        } else {
            (sep, sep)
        };
        if !secret || end == start || text[start..end] == *HIDDEN {
            out.push_str(&text[at..=sep]);
            at = sep + 1;
            continue;
        }
        out.push_str(&text[at..start]);
        out.push_str(HIDDEN);
        at = end;
    }
    out.push_str(&text[at..]);
    out
}
