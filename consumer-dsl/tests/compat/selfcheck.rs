//! Checks of the harness's own cell parsing, run before the suite (this
//! target has no libtest harness, so `#[test]` functions would never run).

use crate::cells;

/// Panics with the failed expectation when the cell parsers are wrong.
pub fn run() {
    let q = cells::query("a=123&b=2&a=9999").expect("a query");
    assert_eq!(
        q["a"],
        vec!["123", "9999"],
        "repeated query values kept in order"
    );
    assert_eq!(q["b"], vec!["2"]);
    assert!(
        cells::query("  ").is_none(),
        "a blank query cell is no query"
    );

    let h = cells::headers("'X-Test: 1000', 'X-Test: 1234', 'X-B: a:b'").expect("headers");
    assert_eq!(h["X-Test"], vec!["1000", "1234"], "repeated headers kept");
    assert_eq!(h["X-B"], vec!["a:b"], "a header value may hold a colon");

    let v = cells::text_or_json(r#"JSON: { \"ID\": \"x\", \"weight\": 100.5 }"#).expect("json");
    assert_eq!(v["weight"], 100.5, "escaped JSON in step text is unescaped");
    assert_eq!(
        cells::text_or_json("Some Text").expect("text"),
        serde_json::Value::String("Some Text".into())
    );
}
