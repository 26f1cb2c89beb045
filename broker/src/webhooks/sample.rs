//! The parameters of a test run (`POST /webhooks/{uuid}/execute`): the
//! latest pact the webhook matches, with its latest verification, or
//! placeholders when there is none.

use diesel::prelude::*;

use super::model::{Definition, Selector};
use super::params::Params;
use crate::db::AnyConnection;
use crate::hal::encode_segment;
use crate::schema::{pact_contents, pact_publications, versions as vt};
use crate::store::pacts::PactContent;
use crate::store::verifications;
use crate::store::versions::{self, Version};
use crate::store::{StoreError, pacticipants};

fn named(s: &Option<Selector>) -> Option<&str> {
    match s {
        Some(Selector::Name(n)) => Some(n.as_str()),
        _ => None,
    }
}

/// The parameters a test run of `d` renders with.
pub fn params(conn: &mut AnyConnection, base: &str, d: &Definition) -> Result<Params, StoreError> {
    let event = d
        .events
        .first()
        .map(String::as_str)
        .unwrap_or("contract_content_changed");
    let mut params = Params::new(event);
    let consumer = named(&d.consumer)
        .map(|n| pacticipants::find_by_name(conn, n))
        .transpose()?
        .flatten();
    let provider = named(&d.provider)
        .map(|n| pacticipants::find_by_name(conn, n))
        .transpose()?
        .flatten();
    let latest = latest_generic(
        conn,
        consumer.as_ref().map(|c| c.id),
        provider.as_ref().map(|p| p.id),
    )?;
    let Some((version, content)) = latest else {
        placeholders(&mut params);
        return Ok(params);
    };
    fill(conn, base, &mut params, &version, &content)?;
    Ok(params)
}

fn latest_generic(
    conn: &mut AnyConnection,
    consumer_id: Option<i64>,
    provider_id: Option<i64>,
) -> Result<Option<(Version, PactContent)>, StoreError> {
    let rows: Vec<(Version, PactContent)> = pact_publications::table
        .inner_join(vt::table)
        .inner_join(pact_contents::table)
        .filter(
            pact_publications::consumer_id
                .eq(consumer_id.unwrap_or(0))
                .or(consumer_id.is_none().into_sql::<diesel::sql_types::Bool>()),
        )
        .filter(
            pact_publications::provider_id
                .eq(provider_id.unwrap_or(0))
                .or(provider_id.is_none().into_sql::<diesel::sql_types::Bool>()),
        )
        .order(pact_publications::id.desc())
        .select((Version::as_select(), PactContent::as_select()))
        .limit(1)
        .load(conn)?;
    Ok(rows.into_iter().next())
}

fn fill(
    conn: &mut AnyConnection,
    base: &str,
    params: &mut Params,
    version: &Version,
    content: &PactContent,
) -> Result<(), StoreError> {
    let consumer =
        pacticipants::find_by_id(conn, content.consumer_id)?.ok_or(StoreError::MissingRow {
            what: "pacticipant",
            id: content.consumer_id,
        })?;
    let provider =
        pacticipants::find_by_id(conn, content.provider_id)?.ok_or(StoreError::MissingRow {
            what: "pacticipant",
            id: content.provider_id,
        })?;
    params.consumer(conn, &consumer, version)?;
    params.pact_url(base, &consumer.name, &provider.name, &content.sha, version);
    let verification = verifications::latest_for_content(conn, content.id)?;
    let provider_version = match &verification {
        Some(v) => versions::find_by_id(conn, v.provider_version_id)?,
        None => None,
    };
    params.provider(conn, &provider, provider_version.as_ref())?;
    if let Some(v) = verification {
        params.verification_status(Some(v.success));
        params.set("buildUrl", v.build_url.clone().unwrap_or_default());
        params.set(
            "verificationResultUrl",
            format!(
                "{base}/pacts/provider/{}/consumer/{}/pact-version/{}/verification-results/{}",
                encode_segment(&provider.name),
                encode_segment(&consumer.name),
                encode_segment(&content.sha),
                v.number
            ),
        );
    }
    Ok(())
}

fn placeholders(params: &mut Params) {
    for (name, value) in [
        ("consumerName", "placeholder-consumer"),
        ("providerName", "placeholder-provider"),
        (
            "consumerVersionNumber",
            "placeholder-consumer-version-number",
        ),
        (
            "providerVersionNumber",
            "placeholder-provider-version-number",
        ),
        ("pactUrl", "http://placeholder/pact-url"),
        (
            "verificationResultUrl",
            "http://placeholder/verification-result-url",
        ),
    ] {
        params.set(name, value);
    }
}
