//! `GET /ui/search?q=`: applications whose name contains `q`, ignoring
//! case beyond ASCII (`Éclair` for `éclair`), the same on both databases
//! (`directory::search_names` folds in Rust, not with SQL's `lower`). An empty `q` shows the form; a `q` longer than 200 characters is
//! refused (400, naming `q`). At most `SHOWN` results, saying how many more
//! matched.

use actix_web::{HttpResponse, web};
use askama::Template;
use serde::Deserialize;

use super::links;
use crate::error::BrokerError;
use crate::state::AppState;
use crate::store::directory;

/// Results listed.
const SHOWN: i64 = 50;
/// The longest `q` (the form's `maxlength`).
const MAX_QUERY: usize = 200;

/// The query string.
#[derive(Debug, Deserialize)]
pub struct SearchParams {
    q: Option<String>,
}

/// The search page.
#[derive(Debug, Template)]
#[template(path = "search.html")]
struct SearchPage {
    q: String,
    searched: bool,
    results: Vec<ResultView>,
    total: i64,
    hidden: i64,
}

/// One application found.
#[derive(Debug)]
struct ResultView {
    name: String,
    display_name: Option<String>,
    url: String,
    network_url: String,
    latest_version: Option<String>,
    can_i_deploy_url: Option<String>,
}

/// `GET /ui/search`.
pub async fn get_search(
    state: web::Data<AppState>,
    params: web::Query<SearchParams>,
) -> Result<HttpResponse, BrokerError> {
    let q = params.into_inner().q.unwrap_or_default().trim().to_owned();
    if q.chars().count() > MAX_QUERY {
        return Err(BrokerError::bad_field(
            "q",
            format!("must be at most {MAX_QUERY} characters"),
        ));
    }
    if q.is_empty() {
        return super::super::page(&SearchPage {
            q,
            searched: false,
            results: Vec::new(),
            total: 0,
            hidden: 0,
        });
    }
    let needle = q.to_lowercase();
    let (found, total) = state
        .run(move |conn| {
            let (found, total) = directory::search_names(conn, &needle, SHOWN)?;
            let ids: Vec<i64> = found.iter().map(|f| f.0).collect();
            let latest = directory::latest_version_numbers(conn, &ids)?;
            Ok((results(found, &latest), total))
        })
        .await?;
    super::super::page(&SearchPage {
        hidden: total - found.len() as i64,
        q,
        searched: true,
        results: found,
        total,
    })
}

fn results(
    found: Vec<(i64, String, Option<String>)>,
    latest: &std::collections::HashMap<i64, String>,
) -> Vec<ResultView> {
    found
        .into_iter()
        .map(|(id, name, display_name)| {
            let latest_version = latest.get(&id).cloned();
            ResultView {
                url: links::pacticipant(&name),
                network_url: links::network_focus(&name),
                can_i_deploy_url: latest_version
                    .as_ref()
                    .map(|v| links::can_i_deploy(&name, v, None)),
                latest_version,
                display_name,
                name,
            }
        })
        .collect()
}
