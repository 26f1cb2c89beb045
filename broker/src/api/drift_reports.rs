//! `POST /drift-reports` (from a router, gateway or sidecar) and
//! `GET /drift-reports/{id}`. A report carries contract signals only: a
//! field that could carry content is refused with its JSON path before the
//! report is read, unknown fields by theirs, and a report naming a
//! provider, version or environment the broker does not know is a 422
//! naming the field. Nothing of a refused report is stored.

use actix_web::{HttpRequest, HttpResponse, web};
use serde_json::{Value, json};

use crate::api::body;
use crate::api::version_view::version_url;
use crate::db::AnyConnection;
use crate::drift::assess::{self, Assessment, Target};
use crate::drift::payload;
use crate::drift::report::{DriftReport, DriftReportRequest};
use crate::error::{BrokerError, FieldError};
use crate::hal::{self, BaseUrl, Link, Links};
use crate::state::AppState;
use crate::store::drift_reports::{self, DriftReportRow, NewDriftReport};
use crate::store::{StoreError, environments, pacticipants, versions};

/// Names of the report's provider, version and environment, for its JSON.
struct Names {
    provider_id: i64,
    provider: String,
    version: String,
    environment: String,
}

fn payload_refused(path: String) -> BrokerError {
    let message = "is a payload field: a drift report carries contract signals only \
                   (digests and counts), never request, response, argument, result or \
                   message content";
    BrokerError::bad_field(path, message)
}

fn unknown(field: &str, message: String) -> BrokerError {
    BrokerError::Unprocessable {
        detail: format!("{field}: {message}"),
        errors: vec![FieldError::new(field, message)],
    }
}

/// A version the provider does not have: the pair is wrong, so both
/// fields are named.
fn no_such_version(provider: &str, version: &str) -> BrokerError {
    let message = format!("'{provider}' has no version '{version}'");
    BrokerError::Unprocessable {
        detail: format!("$.version: {message}"),
        errors: vec![
            FieldError::new("$.version", message.clone()),
            FieldError::new("$.provider", message),
        ],
    }
}

/// Reads the body once: payload fields first (named even where the field
/// is also unknown), then the report's shape and checks, by path.
fn parse_report(req: &HttpRequest, bytes: &[u8]) -> Result<DriftReport, BrokerError> {
    let raw: Value = body::parse_value(req, bytes)?;
    if let Some(path) = payload::find(&raw) {
        return Err(payload_refused(path));
    }
    let request: DriftReportRequest = serde_path_to_error::deserialize(raw).map_err(|e| {
        let path = body::json_path(&e.path().to_string());
        BrokerError::bad_field(path, e.into_inner().to_string())
    })?;
    DriftReport::try_from(request)
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("maps of strings and numbers always serialise")
}

/// Stores `report` for a known provider version and environment.
fn record(
    conn: &mut AnyConnection,
    report: &DriftReport,
) -> Result<(DriftReportRow, Names), BrokerError> {
    let (provider, version, environment) = (&report.provider, &report.version, &report.environment);
    let p = pacticipants::find_by_name(conn, provider.as_str())?
        .ok_or_else(|| unknown("$.provider", format!("no pacticipant '{provider}'")))?;
    let v = versions::find_by_number(conn, p.id, version.as_str())?
        .ok_or_else(|| no_such_version(provider.as_str(), version.as_str()))?;
    let e = environments::find_by_name(conn, environment.as_str())?
        .ok_or_else(|| unknown("$.environment", format!("no environment '{environment}'")))?;
    let r = &report.request;
    let new = NewDriftReport {
        version_id: v.id,
        environment_id: e.id,
        window_start: r.window.start.naive_utc(),
        window_end: r.window.end.naive_utc(),
        source: r.source.as_ref().map(|s| s.as_str().to_owned()),
        agent_card_digest: r.agent_card_digest.as_ref().map(|d| d.as_str().to_owned()),
        tools_digests: to_json(&r.tools_digests),
        counts: to_json(&r.counts),
        observations: to_json(&r.observations),
    };
    let row = drift_reports::insert(conn, &new)?;
    let names = Names {
        provider_id: p.id,
        provider: p.name,
        version: v.number,
        environment: e.name,
    };
    Ok((row, names))
}

fn stored_json(what: &'static str, text: &str) -> Result<Value, BrokerError> {
    serde_json::from_str(text).map_err(|source| StoreError::CorruptJson { what, source }.into())
}

/// A stored report as the API shows it.
fn report_json(base: &BaseUrl, row: &DriftReportRow, n: &Names) -> Result<Value, BrokerError> {
    let links = Links::new()
        .add(
            "self",
            Link::new(base.url(&["drift-reports", &row.id.to_string()])).title("Drift report"),
        )
        .add(
            "pb:version",
            Link::new(version_url(base, &n.provider, &n.version, &[]))
                .title("Version")
                .name(n.version.clone()),
        )
        .add(
            "accord:admission",
            Link::new(version_url(base, &n.provider, &n.version, &["admission"]))
                .title("Admission"),
        );
    Ok(json!({
        "id": row.id,
        "provider": n.provider,
        "version": n.version,
        "environment": n.environment,
        "window": {"start": crate::api::time(row.window_start), "end": crate::api::time(row.window_end)},
        "source": row.source,
        "agentCardDigest": row.agent_card_digest,
        "toolsDigests": stored_json("drift report tools digests", &row.tools_digests)?,
        "counts": stored_json("drift report counts", &row.counts)?,
        "observations": stored_json("drift report observations", &row.observations)?,
        "receivedAt": crate::api::time(row.received_at),
        "_links": links.into_value(),
    }))
}

/// What the broker made of the report: the verified digests, what
/// differs, the live consumer contracts relying on it, the actions taken.
fn add_assessment(body: &mut Value, a: &Assessment) {
    let consumers: Vec<Value> = a.affected.iter().map(|c| c.to_json()).collect();
    let actions: Vec<Value> = a
        .steps
        .iter()
        .map(|s| {
            json!({
                "signal": s.signal.as_str(), "count": s.count, "threshold": s.threshold,
                "action": s.action.as_str(), "overThreshold": s.over_threshold,
                "reason": assess::step_reason(s),
            })
        })
        .collect();
    body["verified"] = json!({
        "agentCardDigests": a.verified.card,
        "toolsDigests": a.verified.tools,
    });
    body["drift"] = json!({"agentCardDiffers": a.card_differs, "toolsDiffer": a.tools_differ});
    body["consumers"] = json!(consumers);
    body["actions"] = json!(actions);
    body["admission"] = json!(a.admission.as_str());
}

/// `POST /drift-reports`.
pub async fn post_drift_report(
    state: web::Data<AppState>,
    base: BaseUrl,
    req: HttpRequest,
    bytes: web::Bytes,
) -> Result<HttpResponse, BrokerError> {
    let report = parse_report(&req, &bytes)?;
    let body = state
        .transaction(move |conn| {
            let (row, names) = record(conn, &report)?;
            let target = Target {
                provider_id: names.provider_id,
                environment: &names.environment,
            };
            let assessment = assess::assess(conn, target, &row, &report.request)?;
            let mut body = report_json(&base, &row, &names)?;
            add_assessment(&mut body, &assessment);
            Ok(body)
        })
        .await?;
    Ok(hal::created(&body))
}

/// The names a stored report refers to.
fn names_of(conn: &mut AnyConnection, row: &DriftReportRow) -> Result<Names, BrokerError> {
    let missing = |what, id| BrokerError::from(StoreError::MissingRow { what, id });
    let v = versions::find_by_id(conn, row.version_id)?
        .ok_or_else(|| missing("version", row.version_id))?;
    let p = pacticipants::find_by_id(conn, v.pacticipant_id)?
        .ok_or_else(|| missing("pacticipant", v.pacticipant_id))?;
    let e = environments::find_by_id(conn, row.environment_id)?
        .ok_or_else(|| missing("environment", row.environment_id))?;
    Ok(Names {
        provider_id: p.id,
        provider: p.name,
        version: v.number,
        environment: e.name,
    })
}

fn path_id(text: &str) -> Option<i64> {
    text.parse().ok()
}

/// `GET /drift-reports/{id}`.
pub async fn get_drift_report(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
) -> Result<HttpResponse, BrokerError> {
    let id_text = path.into_inner();
    let id = path_id(&id_text);
    let not_found = move || BrokerError::not_found(format!("Drift report '{id_text}'"));
    let id: i64 = id.ok_or_else(not_found.clone())?;
    let body = state
        .run(move |conn| {
            let row = drift_reports::find_by_id(conn, id)?.ok_or_else(not_found)?;
            let names = names_of(conn, &row)?;
            report_json(&base, &row, &names)
        })
        .await?;
    Ok(hal::ok(&body))
}
