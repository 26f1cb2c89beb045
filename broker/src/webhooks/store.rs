//! Webhook definitions in the database.

use diesel::prelude::*;

use super::model::{Definition, RequestTemplate, Selector};
use crate::db::AnyConnection;
use crate::schema::webhooks;
use crate::store::{StoreError, now};

/// A stored webhook.
#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = webhooks)]
pub struct Webhook {
    pub id: i64,
    pub uuid: String,
    pub description: Option<String>,
    pub consumer_name: Option<String>,
    pub consumer_label: Option<String>,
    pub provider_name: Option<String>,
    pub provider_label: Option<String>,
    pub events: String,
    pub request: String,
    pub enabled: bool,
    pub created_at: chrono::NaiveDateTime,
    pub updated_at: chrono::NaiveDateTime,
}

/// The event names of a stored `events` list.
pub fn parse_events(events: &str) -> Result<Vec<String>, StoreError> {
    serde_json::from_str(events).map_err(|source| StoreError::CorruptJson {
        what: "webhook events",
        source,
    })
}

impl Webhook {
    /// The event names it subscribes to.
    pub fn event_names(&self) -> Result<Vec<String>, StoreError> {
        parse_events(&self.events)
    }

    /// The request template (with the password).
    pub fn template(&self) -> Result<RequestTemplate, StoreError> {
        serde_json::from_str(&self.request).map_err(|source| StoreError::CorruptJson {
            what: "webhook request",
            source,
        })
    }

    /// The consumer selector.
    pub fn consumer(&self) -> Option<Selector> {
        selector(&self.consumer_name, &self.consumer_label)
    }

    /// The provider selector.
    pub fn provider(&self) -> Option<Selector> {
        selector(&self.provider_name, &self.provider_label)
    }

    /// Whether it matches this consumer and provider: each selector names
    /// the party or is one of its labels (no selector: anyone).
    pub fn matches(&self, consumer: Option<Party<'_>>, provider: Option<Party<'_>>) -> bool {
        fits(self.consumer().as_ref(), consumer) && fits(self.provider().as_ref(), provider)
    }
}

/// A pacticipant as a selector sees it: its name and its labels.
#[derive(Debug, Clone, Copy)]
pub struct Party<'a> {
    pub name: &'a str,
    pub labels: &'a [String],
}

impl Webhook {
    /// Whether it has no selector, or one of its selectors selects `party`
    /// by name or label (deployment, release and Accord's events: one
    /// pacticipant).
    pub fn names(&self, party: Party<'_>) -> bool {
        let (c, p) = (self.consumer(), self.provider());
        (c.is_none() && p.is_none())
            || (c.is_some() && fits(c.as_ref(), Some(party)))
            || (p.is_some() && fits(p.as_ref(), Some(party)))
    }
}

fn fits(selector: Option<&Selector>, party: Option<Party<'_>>) -> bool {
    match (selector, party) {
        (None, _) => true,
        (Some(Selector::Name(n)), Some(p)) => p.name == n,
        (Some(Selector::Label(l)), Some(p)) => p.labels.iter().any(|x| x == l),
        (Some(_), None) => false,
    }
}

fn selector(name: &Option<String>, label: &Option<String>) -> Option<Selector> {
    match (name, label) {
        (Some(n), _) => Some(Selector::Name(n.clone())),
        (None, Some(l)) => Some(Selector::Label(l.clone())),
        (None, None) => None,
    }
}

fn split(selector: &Option<Selector>) -> (Option<&str>, Option<&str>) {
    match selector {
        Some(Selector::Name(n)) => (Some(n.as_str()), None),
        Some(Selector::Label(l)) => (None, Some(l.as_str())),
        None => (None, None),
    }
}

fn json_text<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|source| StoreError::CorruptJson {
        what: "webhook",
        source,
    })
}

/// Creates a webhook with `uuid`.
pub fn insert(conn: &mut AnyConnection, uuid: &str, d: &Definition) -> Result<Webhook, StoreError> {
    let at = now();
    let (cn, cl) = split(&d.consumer);
    let (pn, pl) = split(&d.provider);
    Ok(diesel::insert_into(webhooks::table)
        .values((
            webhooks::uuid.eq(uuid),
            webhooks::description.eq(d.description.as_deref()),
            webhooks::consumer_name.eq(cn),
            webhooks::consumer_label.eq(cl),
            webhooks::provider_name.eq(pn),
            webhooks::provider_label.eq(pl),
            webhooks::events.eq(json_text(&d.events)?),
            webhooks::request.eq(json_text(&d.request)?),
            webhooks::enabled.eq(d.enabled),
            webhooks::created_at.eq(at),
            webhooks::updated_at.eq(at),
        ))
        .returning(webhooks::all_columns)
        .get_result(conn)?)
}

/// Replaces a webhook's definition.
pub fn update(conn: &mut AnyConnection, id: i64, d: &Definition) -> Result<Webhook, StoreError> {
    let (cn, cl) = split(&d.consumer);
    let (pn, pl) = split(&d.provider);
    Ok(diesel::update(webhooks::table.find(id))
        .set((
            webhooks::description.eq(d.description.as_deref()),
            webhooks::consumer_name.eq(cn),
            webhooks::consumer_label.eq(cl),
            webhooks::provider_name.eq(pn),
            webhooks::provider_label.eq(pl),
            webhooks::events.eq(json_text(&d.events)?),
            webhooks::request.eq(json_text(&d.request)?),
            webhooks::enabled.eq(d.enabled),
            webhooks::updated_at.eq(now()),
        ))
        .returning(webhooks::all_columns)
        .get_result(conn)?)
}

/// The webhook with this uuid.
pub fn find_by_uuid(conn: &mut AnyConnection, uuid: &str) -> Result<Option<Webhook>, StoreError> {
    Ok(webhooks::table
        .filter(webhooks::uuid.eq(uuid))
        .select(Webhook::as_select())
        .first(conn)
        .optional()?)
}

/// The webhook with this id.
pub fn find_by_id(conn: &mut AnyConnection, id: i64) -> Result<Option<Webhook>, StoreError> {
    Ok(webhooks::table
        .find(id)
        .select(Webhook::as_select())
        .first(conn)
        .optional()?)
}

/// Every webhook, oldest first.
pub fn list(conn: &mut AnyConnection) -> Result<Vec<Webhook>, StoreError> {
    Ok(webhooks::table
        .order(webhooks::id.asc())
        .select(Webhook::as_select())
        .load(conn)?)
}

/// The distinct `events` lists of the enabled webhooks that may select this
/// pair (no selector, the name, or a label: the worker checks labels when
/// it fans out; a label selector leaves the name NULL, and a name is never
/// empty, so "" matches no name): what a change reads to learn whether to
/// record an event, one row for many webhooks on the same events, matched
/// in SQL so that the webhooks of other pairs cost nothing but the scan.
pub fn event_lists_for_pair(
    conn: &mut AnyConnection,
    consumer: Option<&str>,
    provider: Option<&str>,
) -> Result<Vec<String>, StoreError> {
    Ok(webhooks::table
        .filter(webhooks::enabled.eq(true))
        .filter(
            webhooks::consumer_name
                .is_null()
                .or(webhooks::consumer_name.eq(consumer.unwrap_or(""))),
        )
        .filter(
            webhooks::provider_name
                .is_null()
                .or(webhooks::provider_name.eq(provider.unwrap_or(""))),
        )
        .select(webhooks::events)
        .distinct()
        .load(conn)?)
}

/// Whether an enabled webhook is subscribed to `event`, whoever it selects.
pub fn any_subscribed(conn: &mut AnyConnection, event: &str) -> Result<bool, StoreError> {
    let pattern = format!("%\"{event}\"%");
    let lists: Vec<String> = webhooks::table
        .filter(webhooks::enabled.eq(true))
        .filter(webhooks::events.like(pattern))
        .select(webhooks::events)
        .distinct()
        .load(conn)?;
    for list in lists {
        if parse_events(&list)?.iter().any(|e| e == event) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The enabled webhooks subscribed to `event`, whoever they select.
pub fn subscribed_any(conn: &mut AnyConnection, event: &str) -> Result<Vec<Webhook>, StoreError> {
    let pattern = format!("%\"{event}\"%");
    let candidates: Vec<Webhook> = webhooks::table
        .filter(webhooks::enabled.eq(true))
        .filter(webhooks::events.like(pattern))
        .order(webhooks::id.asc())
        .select(Webhook::as_select())
        .load(conn)?;
    let mut out = Vec::new();
    for w in candidates {
        if w.event_names()?.iter().any(|e| e == event) {
            out.push(w);
        }
    }
    Ok(out)
}

/// Deletes a webhook (its triggered webhooks and logs go with it).
pub fn delete(conn: &mut AnyConnection, id: i64) -> Result<(), StoreError> {
    diesel::delete(webhooks::table.find(id)).execute(conn)?;
    Ok(())
}
