//! `GET /ui/pacticipants/{name}/coverage[?version=V]`: the coverage report
//! of a provider version, read through the API's own `api::coverage::load`
//! (the same version default, the same 404s): each declared operation with
//! its risk class, the case kinds the policy asks of it and those the live
//! contracts have; every gap named; the interactions tagged `incident`.

use actix_web::{HttpResponse, web};
use askama::Template;

use super::home::links;
use crate::api::coverage::{CoverageQuery, CoverageView, gap_detail, load};
use crate::coverage::cases::Case;
use crate::error::BrokerError;
use crate::state::AppState;

/// One operation as the page shows it.
#[derive(Debug)]
struct OperationRow {
    kind: &'static str,
    name: String,
    profiles: String,
    risk: &'static str,
    risk_from: String,
    required: String,
    present: String,
    consumers: String,
    covered: bool,
}

/// One kept interaction.
#[derive(Debug)]
struct KeptRow {
    consumer: String,
    interaction: String,
    operation: String,
}

/// The coverage page.
#[derive(Debug, Template)]
#[template(path = "coverage.html")]
struct CoveragePage {
    provider: String,
    version: String,
    provider_url: String,
    candidate_url: String,
    operations: Vec<OperationRow>,
    gaps: Vec<(&'static str, String)>,
    kept: Vec<KeptRow>,
}

fn words(cases: &[Case]) -> String {
    let names: Vec<String> = cases.iter().map(|c| c.as_str().replace('_', "-")).collect();
    names.join(", ")
}

fn view(v: CoverageView) -> CoveragePage {
    let r = &v.report;
    let operations = r
        .operations
        .iter()
        .map(|o| OperationRow {
            kind: o.kind.as_str(),
            name: o.name.clone(),
            profiles: o.profiles.join(", "),
            risk: o.risk.as_str(),
            risk_from: o.risk_from.clone(),
            required: words(&o.required),
            present: words(&o.present),
            consumers: o.consumers.join(", "),
            covered: !r.gaps.iter().any(|g| g.kind == o.kind && g.name == o.name),
        })
        .collect();
    let kept = r
        .kept
        .iter()
        .map(|k| KeptRow {
            consumer: k.consumer.clone(),
            interaction: k.interaction.clone(),
            operation: match (&k.operation, k.declared) {
                (Some((kind, n)), true) => format!("{} {n}", kind.as_str()),
                (Some((kind, n)), false) => format!("{} {n} (not declared)", kind.as_str()),
                (None, _) => String::new(),
            },
        })
        .collect();
    CoveragePage {
        provider_url: links::pacticipant(&v.provider),
        candidate_url: links::candidate(&v.provider, &v.version),
        gaps: r.gaps.iter().map(|g| (g.code(), gap_detail(g))).collect(),
        operations,
        kept,
        provider: v.provider,
        version: v.version,
    }
}

/// `GET /ui/pacticipants/{pacticipant}/coverage`.
pub async fn get_page(
    state: web::Data<AppState>,
    path: web::Path<String>,
    query: web::Query<CoverageQuery>,
) -> Result<HttpResponse, BrokerError> {
    let name = path.into_inner();
    let version = query.into_inner().version;
    let loaded = state
        .run(move |conn| load(conn, &name, version.as_deref()))
        .await?;
    super::page(&view(loaded))
}
