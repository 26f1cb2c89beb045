use serde_json::json;

use super::*;
use crate::matching::MatchingRules;
use crate::model::PactSpec;

fn rules(v: serde_json::Value) -> Category {
    let r = MatchingRules::from_pact_json(&json!({ "body": v }), PactSpec::V4).expect("valid");
    r.body().cloned().unwrap_or_default()
}

#[test]
fn xml_table() {
    let none = json!({});
    let table = [
        ("<a x='1'/>", "<a x='1'/>", none.clone(), false, true),
        ("<a x='1'/>", "<a x='2'/>", none.clone(), true, false),
        ("<a x='1'/>", "<a x='1' y='2'/>", none.clone(), true, true),
        ("<a x='1'/>", "<a x='1' y='2'/>", none.clone(), false, false),
        (
            "<a><b>1</b><c/></a>",
            "<a><c/><b>1</b></a>",
            none.clone(),
            true,
            true,
        ),
        (
            "<a><b>1</b><b>2</b></a>",
            "<a><b>2</b><b>1</b></a>",
            none.clone(),
            true,
            false,
        ),
        (
            "<a xmlns='urn:x'/>",
            "<p:a xmlns:p='urn:x'/>",
            none.clone(),
            true,
            true,
        ),
        ("<a/>", "<a xmlns='urn:x'/>", none.clone(), true, false),
        (
            "<a><b>1</b></a>",
            "<a><b>7</b><b>8</b></a>",
            json!({"$.a": {"match": "type"}}),
            true,
            true,
        ),
        (
            "<a><b/></a>",
            "<a><b/></a>",
            json!({"$.a": {"match": "type", "min": 2}}),
            true,
            false,
        ),
        (
            "<a n='x'/>",
            "<a n='42'/>",
            json!({"$.a['@n']": {"match": "regex", "regex": "\\d+"}}),
            true,
            true,
        ),
        (
            "<a>x</a>",
            "<a>y1</a>",
            json!({"$.a['#text']": {"match": "regex", "regex": "y\\d"}}),
            true,
            true,
        ),
        ("<a/>", "<a", none, true, false),
    ];
    for (e, a, r, allow, ok) in table {
        let m = match_xml(e, a, &rules(r.clone()), allow);
        assert_eq!(m.is_empty(), ok, "{e} vs {a} under {r}: {m:?}");
    }
}

#[test]
fn attribute_mismatch_names_the_attribute_path() {
    let m = match_xml("<a n='1'/>", "<a n='2'/>", &Category::default(), true);
    assert_eq!(m[0].path, "$.a['@n']");
}

#[test]
fn wide_documents_compare_in_linear_time() {
    // 40,000 distinct child names: grouping by name once per element
    // keeps this well under a second (it was quadratic).
    let kids: String = (0..40_000).map(|i| format!("<c{i}/>")).collect();
    let doc = format!("<r>{kids}</r>");
    assert!(match_xml(&doc, &doc, &Category::default(), false).is_empty());
    let extra = format!("<r>{kids}<zz/></r>");
    let m = match_xml(&doc, &extra, &Category::default(), false);
    assert_eq!(m.len(), 1);
    assert_eq!(m[0].message, "Unexpected element <zz>");
}

#[test]
fn deeply_nested_documents_are_reported_not_recursed() {
    let depth = 100_000;
    let doc = format!("{}{}", "<a>".repeat(depth), "</a>".repeat(depth));
    let m = match_xml(&doc, &doc, &Category::default(), false);
    assert_eq!(m.len(), 1);
    assert!(m[0].message.starts_with("Nesting deeper than"));
}

#[test]
fn mismatch_paths_are_reported_as_pact_reports_them() {
    let none = Category::default();
    let m = match_xml("<r><a>1</a></r>", "<r><a>2</a></r>", &none, true);
    assert_eq!(m[0].path, "$.r.a['#text']");
    let m = match_xml(
        "<r><a>1</a><a>2</a></r>",
        "<r><a>1</a><a>3</a></r>",
        &none,
        true,
    );
    assert_eq!(m[0].path, "$.r.a[1]['#text']");
    let m = match_xml("<r><a>1</a><b/></r>", "<r><a>1</a></r>", &none, true);
    assert_eq!(m[0].path, "$.r");
    assert_eq!(m[0].message, "Expected child <b/> but was missing");
}
