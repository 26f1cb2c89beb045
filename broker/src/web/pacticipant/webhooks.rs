//! The webhooks section of a pacticipant's page: the webhooks that name it
//! (description, events, target host — never a credential —, enabled) and
//! its latest deliveries with their status.

use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::store::pacticipants::Pacticipant;
use crate::web::home::links;
use crate::webhooks::queue::{self, Filter};
use crate::webhooks::store;

/// Deliveries listed (newest first).
const DELIVERIES_SHOWN: i64 = 10;

/// A webhook on the page.
#[derive(Debug)]
pub struct WebhookView {
    pub description: String,
    pub events: String,
    pub host: String,
    pub enabled: bool,
}

/// A delivery on the page.
#[derive(Debug)]
pub struct DeliveryView {
    pub webhook: String,
    pub event: String,
    pub status: String,
    pub attempts: i64,
    pub at: String,
}

/// The host (and port) of a URL template, without user info.
fn host(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    authority
        .rsplit_once('@')
        .map_or(authority, |(_, h)| h)
        .to_string()
}

/// The webhooks that name `p` and its latest deliveries.
pub fn load(
    conn: &mut AnyConnection,
    p: &Pacticipant,
) -> Result<(Vec<WebhookView>, Vec<DeliveryView>), BrokerError> {
    let all = store::list(conn)?;
    let labels = crate::store::labels::names_of(conn, p.id)?;
    let party = store::Party {
        name: &p.name,
        labels: &labels,
    };
    let mut hooks = Vec::new();
    for w in all
        .iter()
        .filter(|w| w.names(party) && (w.consumer().is_some() || w.provider().is_some()))
    {
        hooks.push(WebhookView {
            description: w.description.clone().unwrap_or_else(|| w.uuid.clone()),
            events: w.event_names()?.join(", "),
            host: host(&w.template()?.url),
            enabled: w.enabled,
        });
    }
    let mut deliveries = Vec::new();
    for t in queue::list(conn, Filter::Pacticipant(p.id), DELIVERIES_SHOWN)? {
        let webhook = all
            .iter()
            .find(|w| w.id == t.webhook_id)
            .map(|w| w.description.clone().unwrap_or_else(|| w.uuid.clone()))
            .unwrap_or_default();
        deliveries.push(DeliveryView {
            webhook,
            event: t.event_name,
            status: t.status,
            attempts: t.attempts,
            at: links::time(&t.updated_at),
        });
    }
    Ok((hooks, deliveries))
}

#[cfg(test)]
mod tests {
    use super::host;

    #[test]
    fn the_host_leaves_credentials_and_paths_out() {
        assert_eq!(
            host("https://u:p@ci.example:8443/job?x=1"),
            "ci.example:8443"
        );
        assert_eq!(host("http://127.0.0.1/x"), "127.0.0.1");
    }
}
