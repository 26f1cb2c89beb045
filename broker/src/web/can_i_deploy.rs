//! `GET /ui/can-i-deploy?pacticipant=&version=&environment=`: the form, and
//! once filled the same answer as `GET /can-i-deploy` and `accord
//! can-i-deploy` — parsed by `MatrixQuery::from_can_i_deploy` and decided
//! by `matrix::run` — with one line per integration, its verdict, failing
//! layers and reason. Bad or unknown input is the API's own 4xx.

use actix_web::{HttpRequest, HttpResponse, web};
use askama::Template;

use crate::db::AnyConnection;
use crate::error::BrokerError;
use crate::matrix::decision::Summary;
use crate::matrix::query::RackQuery;
use crate::matrix::resolve::Fields;
use crate::matrix::selector::MatrixQuery;
use crate::matrix::{self, rows::Row};
use crate::state::AppState;
use crate::store::environments;
use crate::web::matrix::cells::{self, RowView};

/// The form's values.
#[derive(Debug, Clone, Default)]
pub struct CanIDeployForm {
    pub pacticipant: String,
    pub version: String,
    /// (environment name, selected?)
    pub environments: Vec<(String, bool)>,
}

/// The decision as shown.
#[derive(Debug, Clone)]
pub struct Answer {
    /// `true`, `false` or `unknown` (as the API's `deployable`).
    pub deployable: &'static str,
    /// `pass`, `fail` or `unverified`.
    pub class: &'static str,
    pub headline: String,
    pub reasons: Vec<String>,
    /// (kind, text) of each notice.
    pub notices: Vec<(&'static str, String)>,
    pub rows: Vec<RowView>,
    pub counts: String,
}

/// The can-i-deploy page.
#[derive(Debug, Template)]
#[template(path = "can_i_deploy.html")]
pub struct CanIDeployPage {
    pub form: CanIDeployForm,
    pub answer: Option<Answer>,
}

/// `GET /ui/can-i-deploy`.
pub async fn get_page(
    state: web::Data<AppState>,
    req: HttpRequest,
) -> Result<HttpResponse, BrokerError> {
    let raw = req.query_string().to_owned();
    let page = state.run(move |conn| build(conn, &raw)).await?;
    super::page(&page)
}

fn build(conn: &mut AnyConnection, raw: &str) -> Result<CanIDeployPage, BrokerError> {
    let rack = RackQuery::parse(raw);
    let text = |k: &str| rack.scalar(k).map(str::trim).unwrap_or_default().to_owned();
    let (pacticipant, version, environment) =
        (text("pacticipant"), text("version"), text("environment"));
    let form = CanIDeployForm {
        environments: environments::list(conn)?
            .into_iter()
            .map(|e| {
                let selected = e.name == environment;
                (e.name, selected)
            })
            .collect(),
        pacticipant: pacticipant.clone(),
        version: version.clone(),
    };
    let empty = [&pacticipant, &version, &environment]
        .iter()
        .all(|v| v.is_empty())
        && rack.scalar("to").is_none_or(|t| t.trim().is_empty());
    if empty {
        return Ok(CanIDeployPage { form, answer: None });
    }
    let query = MatrixQuery::from_can_i_deploy(&rack)?;
    let outcome = matrix::run(conn, &query, Fields::FLAT)?;
    let shown: Vec<&Row> = outcome
        .rows
        .iter()
        .filter(|r| !r.ignored)
        .map(|r| &r.row)
        .collect();
    let extras = cells::load_extras(conn, &shown)?;
    let rows = outcome
        .rows
        .iter()
        .map(|r| cells::row_view(&r.row, &outcome.details, &extras))
        .collect();
    let target = if environment.is_empty() {
        text("to")
    } else {
        environment
    };
    Ok(CanIDeployPage {
        answer: Some(answer(
            &outcome.summary,
            rows,
            &format!("{pacticipant} {version}"),
            &target,
        )),
        form,
    })
}

fn answer(s: &Summary, rows: Vec<RowView>, what: &str, target: &str) -> Answer {
    let (deployable, class, headline) = match s.deployable {
        Some(true) => (
            "true",
            "pass",
            format!("Yes: {what} can be deployed to {target}"),
        ),
        Some(false) => (
            "false",
            "fail",
            format!("No: {what} cannot be deployed to {target}"),
        ),
        None => (
            "unknown",
            "unverified",
            format!("Unknown, so no: {what} cannot be deployed to {target} yet"),
        ),
    };
    let mut counts = format!(
        "{} passed, {} failed, {} unknown",
        s.success, s.failed, s.unknown
    );
    if let Some(ignored) = s.ignored {
        counts.push_str(&format!(", {ignored} ignored"));
    }
    Answer {
        deployable,
        class,
        headline,
        reasons: s.reasons.clone(),
        notices: s
            .notices
            .iter()
            .map(|n| (n.kind.as_str(), n.text.clone()))
            .collect(),
        rows,
        counts,
    }
}
