//! `GET /ui/can-i-deploy?pacticipant=&version=&environment=`: the form, and
//! once filled the same answer as `GET /can-i-deploy` and `accord
//! can-i-deploy` — parsed by `MatrixQuery::from_can_i_deploy` and decided
//! by `matrix::run` — with one line per integration, its verdict linking
//! to the verification page, the failing layers with their reason codes,
//! and the reasons ("Why"); the notices below are the API's other notices
//! (what was ignored, warnings), not the reasons again. Bad or unknown
//! input is the API's own 4xx.
//!
//! The pages link to a version's can-i-deploy without an environment (a
//! version page cannot know where it is going): with an application and a
//! version but no environment, the page answers for every environment
//! (the first [`MAX_ENVIRONMENTS`]), each linking to its whole answer.

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

/// The most environments answered for at once.
pub const MAX_ENVIRONMENTS: usize = 20;

/// The short answer for one environment.
#[derive(Debug, Clone)]
pub struct EnvironmentAnswer {
    pub environment: String,
    pub deployable: &'static str,
    pub class: &'static str,
    pub headline: String,
    pub href: String,
}

/// The answers for every environment, and how many were left out.
#[derive(Debug, Clone, Default)]
pub struct EveryEnvironment {
    pub answers: Vec<EnvironmentAnswer>,
    pub left_out: usize,
}

/// The can-i-deploy page.
#[derive(Debug, Template)]
#[template(path = "can_i_deploy.html")]
pub struct CanIDeployPage {
    pub form: CanIDeployForm,
    pub answer: Option<Answer>,
    /// With an application and a version but no environment.
    pub every: Option<EveryEnvironment>,
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
    let no_target = environment.is_empty() && rack.scalar("to").is_none_or(|t| t.trim().is_empty());
    if no_target && pacticipant.is_empty() && version.is_empty() {
        return Ok(CanIDeployPage {
            form,
            answer: None,
            every: None,
        });
    }
    if no_target && !pacticipant.is_empty() && !version.is_empty() {
        let names: Vec<&str> = form.environments.iter().map(|(n, _)| n.as_str()).collect();
        let every = every_environment(conn, &rack, &names)?;
        return Ok(CanIDeployPage {
            every: Some(every),
            form,
            answer: None,
        });
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
        every: None,
    })
}

/// The answer of `rack` (an application and a version) for each of the
/// first [`MAX_ENVIRONMENTS`] of `names`.
fn every_environment(
    conn: &mut AnyConnection,
    rack: &RackQuery,
    names: &[&str],
) -> Result<EveryEnvironment, BrokerError> {
    let text = |k: &str| rack.scalar(k).map(str::trim).unwrap_or_default().to_owned();
    let (pacticipant, version) = (text("pacticipant"), text("version"));
    let mut answers = Vec::new();
    for name in names.iter().take(MAX_ENVIRONMENTS) {
        let query = MatrixQuery::from_can_i_deploy(&rack.with_scalar("environment", name))?;
        let outcome = matrix::run(conn, &query, Fields::FLAT)?;
        let short = answer(
            &outcome.summary,
            Vec::new(),
            &format!("{pacticipant} {version}"),
            name,
        );
        answers.push(EnvironmentAnswer {
            environment: (*name).to_owned(),
            deployable: short.deployable,
            class: short.class,
            headline: short.headline,
            href: crate::web::home::links::can_i_deploy(&pacticipant, &version, Some(name)),
        });
    }
    Ok(EveryEnvironment {
        answers,
        left_out: names.len().saturating_sub(MAX_ENVIRONMENTS),
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
        // the API's notices begin with its reasons, which "Why" shows
        notices: s
            .notices
            .iter()
            .filter(|n| !s.reasons.contains(&n.text))
            .map(|n| (n.kind.as_str(), n.text.clone()))
            .collect(),
        rows,
        counts,
    }
}
