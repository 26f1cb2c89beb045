//! The pages for people, rendered from real data through the real server on
//! each backend, read back with CSS selectors (`scraper`).

mod can_i_deploy;
mod contract;
mod contract_diff;
mod contract_items;
mod coverage;
mod finding_keys;
mod frame;
mod graph;
mod home;
mod landing;
mod matrix;
mod names;
mod operation_coverage;
mod pacticipant;
mod secret_probe;
mod secrets;
mod verification;

use scraper::{Html, Selector};

use crate::support::Reply;

/// A page's document; panics (naming the page) unless it is a 200 HTML page.
pub fn html_page(reply: &Reply, what: &str) -> Html {
    assert_eq!(reply.status, 200, "{what}: {}", reply.text);
    assert!(
        reply.header("content-type").starts_with("text/html"),
        "{what}: {}",
        reply.header("content-type")
    );
    Html::parse_document(&reply.text)
}

/// The text of every element `selector` matches, whitespace collapsed.
pub fn texts(doc: &Html, selector: &str) -> Vec<String> {
    let sel = Selector::parse(selector).unwrap_or_else(|e| panic!("selector {selector}: {e}"));
    doc.select(&sel)
        .map(|e| {
            e.text()
                .collect::<Vec<_>>()
                .join(" ")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// The value of `attr` on every element `selector` matches.
pub fn attrs(doc: &Html, selector: &str, attr: &str) -> Vec<String> {
    let sel = Selector::parse(selector).unwrap_or_else(|e| panic!("selector {selector}: {e}"));
    doc.select(&sel)
        .filter_map(|e| e.value().attr(attr).map(str::to_owned))
        .collect()
}
