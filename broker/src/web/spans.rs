//! Text with Markdown code spans (`` `work_plan_lookup` declares… ``), as
//! finding details and contract descriptions write names: split into plain
//! and code pieces that a template prints as text and `<code>`, both
//! escaped. Nothing else of Markdown is read, and no HTML is ever passed
//! through. The text is split after it was redacted.

/// A piece of text: plain, or a code span (its backticks removed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub text: String,
    pub code: bool,
}

/// `text` split at its code spans: a backtick, at least one character on
/// the same line, and the next backtick. A backtick without its pair, or
/// an empty pair, stays as written.
pub fn spans(text: &str) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    let mut rest = text;
    while let Some(open) = rest.find('`') {
        let after = &rest[open + 1..];
        let close = after
            .find(['`', '\n'])
            .filter(|&c| c > 0 && after.as_bytes()[c] == b'`');
        let Some(close) = close else {
            push(&mut out, &rest[..=open], false);
            rest = after;
            continue;
        };
        push(&mut out, &rest[..open], false);
        push(&mut out, &after[..close], true);
        rest = &after[close + 1..];
    }
    push(&mut out, rest, false);
    out
}

/// Appends `text`, joining plain text to the plain piece before it.
fn push(out: &mut Vec<Span>, text: &str, code: bool) {
    if text.is_empty() {
        return;
    }
    match out.last_mut() {
        Some(last) if !code && !last.code => last.text.push_str(text),
        _ => out.push(Span {
            text: text.to_owned(),
            code,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str) -> String {
        spans(text)
            .iter()
            .map(|s| {
                if s.code {
                    format!("[{}]", s.text)
                } else {
                    s.text.clone()
                }
            })
            .collect()
    }

    #[test]
    fn code_spans_are_split_out_and_lone_backticks_stay() {
        assert_eq!(
            shown("`work_plan_lookup` declares idempotentHint: true"),
            "[work_plan_lookup] declares idempotentHint: true"
        );
        assert_eq!(shown("as `bob` on `x`."), "as [bob] on [x].");
        assert_eq!(shown("a ` alone"), "a ` alone");
        assert_eq!(shown("empty `` pair"), "empty `` pair");
        assert_eq!(shown("`a\nb` c"), "`a\nb` c");
        assert_eq!(shown("``x`"), "`[x]");
        assert_eq!(shown("<b>`<i>`</b>"), "<b>[<i>]</b>");
        assert_eq!(spans(""), []);
        assert_eq!(spans("plain").len(), 1);
    }
}
