//! `GET /pacticipants/{p}/coverage[?version=V]`: the coverage report of a
//! provider version (`crate::coverage`): every declared operation with its
//! risk class, the case kinds the policy asks of it and those the live
//! consumer contracts have, the gaps, and the interactions tagged
//! `incident` (kept).
//!
//! Without `version`, the newest version of the provider (by creation)
//! that has declared anything; a version that declares nothing, or a
//! provider none of whose versions does, is a 404 (coverage is of
//! declared operations).

use actix_web::{HttpResponse, web};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::pacticipants::find_required;
use crate::api::version_view::{parse_number, version_url};
use crate::coverage::{self, Gap, Kept, Operation, Report, report};
use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::state::AppState;
use crate::store::{declarations, versions};

/// The query string.
#[derive(Debug, Deserialize)]
pub struct CoverageQuery {
    /// The provider version; default: the newest that declares anything.
    pub version: Option<String>,
}

/// A provider version's coverage, as the API and the page show it.
#[derive(Debug)]
pub struct CoverageView {
    pub provider: String,
    pub version: String,
    pub report: Report,
}

/// The coverage of `version` (or the newest declaring version) of `name`.
pub fn load(
    conn: &mut AnyConnection,
    name: &str,
    version: Option<&str>,
) -> Result<CoverageView, BrokerError> {
    let p = find_required(conn, name)?;
    let v = match version {
        Some(n) => {
            parse_number("version", n)?;
            versions::find_by_number(conn, p.id, n)?.ok_or_else(|| {
                BrokerError::not_found(format!("Version '{n}' of pacticipant '{name}'"))
            })?
        }
        None => declarations::latest_declaring_version(conn, p.id)?
            .map(|id| versions::find_by_id(conn, id))
            .transpose()?
            .flatten()
            .ok_or_else(|| {
                BrokerError::not_found(format!(
                    "A version of '{name}' that declares an Agent Card or MCP tools"
                ))
            })?,
    };
    if declarations::current(conn, v.id)?.is_empty() {
        return Err(BrokerError::not_found(format!(
            "Declarations of version '{}' of '{name}' (coverage is of declared operations)",
            v.number
        )));
    }
    let report = coverage::for_version(conn, p.id, v.id)?;
    Ok(CoverageView {
        provider: p.name,
        version: v.number,
        report,
    })
}

/// `GET /pacticipants/{pacticipant}/coverage`.
pub async fn get_coverage(
    state: web::Data<AppState>,
    base: BaseUrl,
    path: web::Path<String>,
    query: web::Query<CoverageQuery>,
) -> Result<HttpResponse, BrokerError> {
    let name = path.into_inner();
    let version = query.into_inner().version;
    let body = state
        .run(move |conn| {
            let view = load(conn, &name, version.as_deref())?;
            Ok(coverage_json(&base, &view))
        })
        .await?;
    Ok(hal::ok(&body))
}

/// The sentence of a gap.
pub fn gap_detail(g: &Gap) -> String {
    let what = format!("{} {} ({})", g.kind.as_str(), g.name, g.risk.as_str());
    match g.missing {
        None => format!("{what} is used by no live consumer contract"),
        Some(case) => format!(
            "{what}: no live consumer contract has a {} case",
            case.as_str().replace('_', "-")
        ),
    }
}

fn names(cases: &[coverage::cases::Case]) -> Vec<&'static str> {
    cases.iter().map(|c| c.as_str()).collect()
}

fn operation_json(o: &Operation) -> Value {
    let mut out = json!({
        "kind": o.kind.as_str(),
        "name": o.name,
        "risk": o.risk.as_str(),
        "riskFrom": o.risk_from,
        "required": names(&o.required),
        "present": names(&o.present),
        "consumers": o.consumers,
        "interactions": o.interactions,
    });
    if o.kind == coverage::cases::OpKind::Tool {
        out["profiles"] = json!(o.profiles);
    }
    out
}

fn gap_json(g: &Gap) -> Value {
    json!({"kind": g.kind.as_str(), "operation": g.name, "risk": g.risk.as_str(),
        "missing": g.missing_name(), "code": g.code(), "detail": gap_detail(g)})
}

fn kept_json(k: &Kept) -> Value {
    json!({"consumer": k.consumer, "interaction": k.interaction,
        "kind": k.operation.as_ref().map(|(kind, _)| kind.as_str()),
        "operation": k.operation.as_ref().map(|(_, n)| n),
        "declared": k.declared})
}

/// The policy, as data: the case kinds each risk class needs.
fn policy_json() -> Value {
    use coverage::risk::Risk;
    let of = |r: Risk| names(&report::required(r));
    json!({"destructive": of(Risk::Destructive), "write": of(Risk::Write),
        "read-only": of(Risk::ReadOnly)})
}

/// The report on the wire.
pub fn coverage_json(base: &BaseUrl, view: &CoverageView) -> Value {
    let (p, v, r) = (&view.provider, &view.version, &view.report);
    let me = base.url(&["pacticipants", p, "coverage"]);
    let links = Links::new()
        .add(
            "self",
            Link::new(format!("{me}?version={}", hal::encode_segment(v))).title("Coverage"),
        )
        .add(
            "pb:pacticipant",
            Link::new(base.url(&["pacticipants", p]))
                .title("Pacticipant")
                .name(p),
        )
        .add(
            "pb:version",
            Link::new(version_url(base, p, v, &[]))
                .title("Version")
                .name(v),
        )
        .add(
            "pb:declarations",
            Link::new(version_url(base, p, v, &["declarations"])).title("Its declarations"),
        );
    json!({
        "provider": p,
        "version": v,
        "covered": r.gaps.is_empty(),
        "policy": policy_json(),
        "operations": r.operations.iter().map(operation_json).collect::<Vec<_>>(),
        "gaps": r.gaps.iter().map(gap_json).collect::<Vec<_>>(),
        "kept": r.kept.iter().map(kept_json).collect::<Vec<_>>(),
        "_links": links.into_value(),
    })
}
