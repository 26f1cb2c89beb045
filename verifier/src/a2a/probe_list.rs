//! A probe's ListTasks, page by page: the prober must not see the task on
//! any page it is given.

use accord_dsl::model::accord::A2aOperation;
use serde_json::{Map, Value};

use super::{Watch, unchecked};
use crate::a2a::wire::{Answer, Client, Outcome};
use crate::finding::{Finding, Layer, codes};

/// ListTasks as the prober, following `nextPageToken` (at most
/// [`MAX_PAGES`]): the first page that lists task `id`, or that could not
/// be read, is the finding.
pub(super) async fn listed_on_any_page(
    client: &Client<'_>,
    watch: &mut Watch,
    id: &str,
    at: &str,
    who: &str,
) -> Option<Finding> {
    let mut params = Map::new();
    for _ in 0..MAX_PAGES {
        let answer = client
            .call(A2aOperation::ListTasks, params.clone())
            .await
            .ok();
        watch.scan(answer.as_ref(), at);
        let next = answer.as_ref().and_then(next_page);
        let found = listed(answer, id, at, who);
        let Some(token) = next.filter(|_| found.is_none()) else {
            return found;
        };
        params.insert("pageToken".into(), Value::String(token));
    }
    None
}

/// The most ListTasks pages a probe reads.
const MAX_PAGES: usize = 20;

/// A ListTasks answer's `nextPageToken`, when there is a next page.
fn next_page(answer: &Answer) -> Option<String> {
    let Outcome::Result(r) = &answer.outcome else {
        return None;
    };
    r["nextPageToken"]
        .as_str()
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
}

/// ListTasks as the prober must not list the task.
fn listed(answer: Option<Answer>, id: &str, at: &str, who: &str) -> Option<Finding> {
    let Some(answer) = answer else {
        return Some(unchecked(at));
    };
    let Outcome::Result(r) = &answer.outcome else {
        return None;
    };
    let listed = r["tasks"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|t| t["id"].as_str() == Some(id));
    listed.then(|| {
        let detail = format!("`{who}`'s ListTasks lists another principal's task");
        Finding::new(Layer::Authorization, codes::CROSS_TENANT_ACCESS, at, detail)
    })
}
