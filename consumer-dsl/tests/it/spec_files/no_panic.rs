//! No input makes the spec compiler panic: arbitrary text, and the example
//! spec with random edits.

use accord_dsl::spec::{NoSchemaFiles, compile_spec};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::support::proptest_cases()))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,400}") {
        let _ = compile_spec(&text, "fuzz.yaml", &NoSchemaFiles);
    }

    #[test]
    fn edited_example_never_panics(cut in 0usize..20_000, len in 0usize..40, insert in "[ \\-:{}\\[\\]$a-z0-9'\"\n]{0,12}") {
        let text = super::example_text();
        let mut at = cut.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let mut end = (at + len).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let edited = format!("{}{}{}", &text[..at], insert, &text[end.max(at)..]);
        let _ = compile_spec(&edited, "fuzz.yaml", &|_: &str| Ok(serde_json::json!({"type": "object"})));
    }
}

#[test]
fn deeply_nested_input_is_refused_not_overflowed() {
    let deep = format!(
        "consumer: a\nprovider: b\ninteractions:\n  - mcp: x\n    tool: t\n    expect: {{}}\n    arguments: {{ a: {}1{} }}\n",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    assert!(compile_spec(&deep, "deep.yaml", &NoSchemaFiles).is_err());
    let deep_matchers = format!(
        "consumer: a\nprovider: b\ninteractions:\n  - mcp: x\n    tool: t\n    expect: {{}}\n    arguments: {{ a: {}1{} }}\n",
        "{$like: ".repeat(3000),
        "}".repeat(3000)
    );
    assert!(compile_spec(&deep_matchers, "deep.yaml", &NoSchemaFiles).is_err());
}
