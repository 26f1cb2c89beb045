//! `GET /matrix` and `GET /matrix/provider/{p}/consumer/{c}`: the
//! compatibility matrix in the Pact Broker's shape (summary, notices,
//! matrix rows), shared with `/can-i-deploy`.

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Value, json};

use crate::error::BrokerError;
use crate::hal::{self, BaseUrl};
use crate::matrix::query::RackQuery;
use crate::matrix::resolve::Fields;
use crate::matrix::selector::{MatrixQuery, Selector, VersionSpec};
use crate::matrix::{self, Details, Outcome, ShownRow};
use crate::names::PacticipantName;
use crate::state::AppState;
use crate::store::matrix::VersionRef;

/// Validation errors of `/matrix` name the `q[]` parameters.
const MATRIX_FIELDS: Fields = Fields {
    pacticipant: "q[][pacticipant]",
    environment: "environment",
};

/// `GET /matrix?q[][pacticipant]=…` (Rack nested parameters, §1.7).
pub async fn get_matrix(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
) -> Result<HttpResponse, BrokerError> {
    let raw = req.query_string().to_owned();
    let query = MatrixQuery::from_matrix_query(&RackQuery::parse(&raw))?;
    let outcome = state
        .run(move |conn| matrix::run(conn, &query, MATRIX_FIELDS))
        .await?;
    Ok(hal::ok(&outcome_json(
        &base,
        &outcome,
        &format!("/matrix?{raw}"),
    )))
}

/// `GET /matrix/provider/{p}/consumer/{c}`: every row of one integration.
pub async fn get_matrix_for_pair(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, BrokerError> {
    let (provider, consumer) = path.into_inner();
    let parse = |field: &str, text: &str| {
        PacticipantName::parse(text).map_err(|e| BrokerError::bad_field(field, e.to_string()))
    };
    let query = MatrixQuery {
        selectors: vec![
            Selector {
                pacticipant: parse("consumer", &consumer)?,
                spec: VersionSpec::Any,
            },
            Selector {
                pacticipant: parse("provider", &provider)?,
                spec: VersionSpec::Any,
            },
        ],
        ..MatrixQuery::default()
    };
    let outcome = state
        .run(move |conn| matrix::run(conn, &query, Fields::FLAT))
        .await?;
    let self_path = format!(
        "/matrix/provider/{}/consumer/{}",
        hal::encode_segment(&provider),
        hal::encode_segment(&consumer)
    );
    Ok(hal::ok(&outcome_json(&base, &outcome, &self_path)))
}

/// The whole body: summary, notices, rows, self link.
pub fn outcome_json(base: &BaseUrl, outcome: &Outcome, self_path: &str) -> Value {
    let s = &outcome.summary;
    let mut summary = json!({
        "deployable": s.deployable,
        "reason": s.reasons.join("\n"),
        "success": s.success,
        "failed": s.failed,
        "unknown": s.unknown,
    });
    if let (Some(ignored), Value::Object(map)) = (s.ignored, &mut summary) {
        map.insert("ignored".into(), json!(ignored));
    }
    let notices: Vec<Value> = s
        .notices
        .iter()
        .map(|n| json!({ "type": n.kind.as_str(), "text": n.text }))
        .collect();
    let rows: Vec<Value> = outcome
        .rows
        .iter()
        .map(|r| row_json(base, &outcome.details, r))
        .collect();
    json!({
        "summary": summary,
        "notices": notices,
        "matrix": rows,
        "_links": { "self": { "href": base.raw(self_path) } },
    })
}

fn row_json(base: &BaseUrl, d: &Details, shown: &ShownRow) -> Value {
    let r = &shown.row;
    let name = |id: i64| d.names.get(&id).cloned().unwrap_or_default();
    let (consumer, provider) = (name(r.consumer_id), name(r.provider_id));
    let pact_href = base.url(&[
        "pacts",
        "provider",
        &provider,
        "consumer",
        &consumer,
        "version",
        &r.consumer_version.number,
    ]);
    let mut verification = match (&r.verification, d.shas.get(&r.pact_content_id)) {
        (Some(v), Some(sha)) => json!({
            "success": r.success(),
            "verifiedAt": crate::api::time(v.execution_date),
            "_links": { "self": { "href": base.url(&[
                "pacts", "provider", &provider, "consumer", &consumer, "pact-version", sha,
                "verification-results", &v.number.to_string(),
            ]) } },
        }),
        _ => Value::Null,
    };
    // a success of the Pact view only: unknown for the whole contract
    if let (true, Value::Object(map)) = (r.partial(), &mut verification) {
        map.insert("pactViewOnly".into(), Value::Bool(true));
        let unverified: Vec<String> = r.unverified.iter().map(ToString::to_string).collect();
        map.insert("unverified".into(), json!(unverified));
    }
    let mut row = json!({
        "consumer": side_json(base, d, &consumer, Some(&r.consumer_version)),
        "provider": side_json(base, d, &provider, r.provider_version.as_ref()),
        "pact": {
            "createdAt": crate::api::time(r.pact_created_at),
            "_links": { "self": { "href": pact_href } },
        },
        "verificationResult": verification,
    });
    if let (true, Value::Object(map)) = (shown.ignored, &mut row) {
        map.insert("ignored".into(), Value::Bool(true));
    }
    row
}

fn side_json(base: &BaseUrl, d: &Details, name: &str, version: Option<&VersionRef>) -> Value {
    json!({
        "name": name,
        "_links": { "self": { "href": base.url(&["pacticipants", name]) } },
        "version": version.map(|v| version_json(base, d, name, v)),
    })
}

fn version_json(base: &BaseUrl, d: &Details, name: &str, v: &VersionRef) -> Value {
    let empty = Vec::new();
    let branches = d.branches.get(&v.id).unwrap_or(&empty);
    let tags = d.tags.get(&v.id).unwrap_or(&empty);
    let environments: Vec<Value> = d
        .environments
        .get(&v.id)
        .map(|list| {
            list.iter()
                .map(|(env, deployed)| json!({ "name": env, "deployed": deployed, "released": !deployed }))
                .collect()
        })
        .unwrap_or_default();
    json!({
        "number": v.number,
        "branch": branches.last(),
        "branches": branches.iter().map(|b| json!({ "name": b })).collect::<Vec<_>>(),
        "branchVersions": branches.iter().map(|b| json!({ "name": b })).collect::<Vec<_>>(),
        "environments": environments,
        "tags": tags.iter().map(|t| json!({
            "name": t,
            "_links": { "self": { "href": base.url(&["pacticipants", name, "versions", &v.number, "tags", t]) } },
        })).collect::<Vec<_>>(),
        "_links": { "self": { "href": base.url(&["pacticipants", name, "versions", &v.number]) } },
    })
}
