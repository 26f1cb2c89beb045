//! A profile's `tools/list` read page by page under the listing's budget
//! (`listing.rs`): each page's size counts as it arrives, each tool as it
//! is read (`page.rs`); the first page past the budget ends the listing.

use serde_json::{Map, json};

use super::driver::McpDriver;
use super::listing::{
    Listing, MAX_LISTED_TOOLS, MAX_LISTING_BYTES, MAX_PAGES, MAX_TOOL_BYTES, Tools,
};
use super::page::{Page, Room, page};
use super::wire::{Endpoint, Era, Session};
use crate::transport::CutOff;

impl McpDriver {
    /// Every page, under the listing's budget (`listing.rs`).
    pub(super) async fn list_tools(
        &self,
        endpoint: &Endpoint<'_>,
        era: Era,
        session: Option<&Session>,
    ) -> Listing {
        let mut tools = Tools::default();
        let mut cursor: Option<String> = None;
        let mut received_bytes = 0usize;
        for _ in 0..MAX_PAGES {
            let mut params = Map::new();
            if let Some(c) = cursor.take() {
                params.insert("cursor".into(), json!(c));
            }
            let id = self.id();
            let received = match endpoint
                .send(era, session, Some(id), "tools/list", params)
                .await
            {
                Ok(r) => r,
                Err(CutOff::TooLarge(cap)) => {
                    return Listing::too_large(format!(
                        "a tools/list page is larger than {cap} bytes; reading stopped"
                    ));
                }
                Err(cut) => return Listing::Unread(cut.finding("tools/list").detail.to_string()),
            };
            received_bytes += received.body.len();
            let room = Room {
                tools: MAX_LISTED_TOOLS - tools.len(),
                bytes: MAX_LISTING_BYTES.saturating_sub(tools.bytes()),
            };
            if received_bytes > MAX_LISTING_BYTES {
                return Listing::too_large(over_budget(
                    &tools,
                    &format!("more than {} MiB of pages", MAX_LISTING_BYTES >> 20),
                ));
            }
            match page(&received, id, room) {
                Page::Read { tools: more, next } => {
                    more.into_iter().for_each(|t| tools.push(t));
                    // only a missing nextCursor ends the listing (an empty one is a cursor)
                    match next {
                        Some(next) => cursor = Some(next),
                        None => return Listing::Read(tools),
                    }
                }
                Page::Refused(why) => return Listing::Unread(why),
                Page::Over(how) => return Listing::too_large(over_budget(&tools, &how)),
            }
        }
        Listing::too_large(over_budget(&tools, &format!("more than {MAX_PAGES} pages")))
    }
}

/// The detail of a listing stopped past its budget.
fn over_budget(tools: &Tools, how: &str) -> String {
    format!(
        "tools/list was stopped after {} tools: {how} (a listing may take {MAX_PAGES} pages, {} MiB of pages, {MAX_LISTED_TOOLS} tools, {} MiB a tool); none of its tools was checked",
        tools.len(),
        MAX_LISTING_BYTES >> 20,
        MAX_TOOL_BYTES >> 20,
    )
}
