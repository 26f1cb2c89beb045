//! `GET /matrix` and `GET /matrix/provider/{p}/consumer/{c}`: the
//! compatibility matrix in the Pact Broker's shape (summary, notices,
//! matrix rows), shared with `/can-i-deploy`.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, SelfLink};
use crate::matrix::decision::{Notice, Summary};
use crate::matrix::query::RackQuery;
use crate::matrix::resolve::Fields;
use crate::matrix::rows::Row;
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
    Ok(hal::ok_bytes(outcome_body(
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
    Ok(hal::ok_bytes(outcome_body(&base, &outcome, &self_path)))
}

/// The whole body: summary, notices, rows, self link — written straight
/// from the outcome by `Serialize` (no `Value` tree: this is most of
/// can-i-deploy's answer), keys in the order the Pact Broker writes them.
pub fn outcome_body(base: &BaseUrl, outcome: &Outcome, self_path: &str) -> Vec<u8> {
    let body = Body {
        summary: SummaryJson(&outcome.summary),
        notices: NoticesJson(&outcome.summary.notices),
        matrix: RowsJson(base, outcome),
        links: SelfLink::to(base.raw(self_path)),
    };
    serde_json::to_vec(&body).expect("a matrix body serialises")
}

#[derive(Serialize)]
struct Body<'a> {
    summary: SummaryJson<'a>,
    notices: NoticesJson<'a>,
    matrix: RowsJson<'a>,
    #[serde(rename = "_links")]
    links: SelfLink,
}

struct SummaryJson<'a>(&'a Summary);

impl Serialize for SummaryJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let s = self.0;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("deployable", &s.deployable)?;
        map.serialize_entry("reason", &s.reasons.join("\n"))?;
        map.serialize_entry("success", &s.success)?;
        map.serialize_entry("failed", &s.failed)?;
        map.serialize_entry("unknown", &s.unknown)?;
        if let Some(ignored) = s.ignored {
            map.serialize_entry("ignored", &ignored)?;
        }
        map.end()
    }
}

struct NoticesJson<'a>(&'a [Notice]);

impl Serialize for NoticesJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct One<'a> {
            #[serde(rename = "type")]
            kind: &'static str,
            text: &'a str,
        }
        serializer.collect_seq(self.0.iter().map(|n| One {
            kind: n.kind.as_str(),
            text: &n.text,
        }))
    }
}

struct RowsJson<'a>(&'a BaseUrl, &'a Outcome);

impl Serialize for RowsJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (base, outcome) = (self.0, self.1);
        serializer.collect_seq(outcome.rows.iter().map(|shown| RowJson {
            base,
            details: &outcome.details,
            shown,
        }))
    }
}

/// One row: consumer, provider, pact, verificationResult (and `ignored`).
struct RowJson<'a> {
    base: &'a BaseUrl,
    details: &'a Details,
    shown: &'a ShownRow,
}

impl Serialize for RowJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (base, d, r) = (self.base, self.details, &self.shown.row);
        let empty = String::new();
        let name = |id: i64| d.names.get(&id).unwrap_or(&empty).as_str();
        let (consumer, provider) = (name(r.consumer_id), name(r.provider_id));
        let side = |name, version| SideJson {
            base,
            details: d,
            name,
            version,
        };
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("consumer", &side(consumer, Some(&r.consumer_version)))?;
        map.serialize_entry("provider", &side(provider, r.provider_version.as_ref()))?;
        #[derive(Serialize)]
        struct Pact {
            #[serde(rename = "createdAt")]
            created_at: String,
            #[serde(rename = "_links")]
            links: SelfLink,
        }
        let pact_href = base.url(&[
            "pacts",
            "provider",
            provider,
            "consumer",
            consumer,
            "version",
            &r.consumer_version.number,
        ]);
        let pact = Pact {
            created_at: crate::api::time(r.pact_created_at),
            links: SelfLink::to(pact_href),
        };
        map.serialize_entry("pact", &pact)?;
        let verification = match (&r.verification, d.shas.get(&r.pact_content_id)) {
            (Some(v), Some(sha)) => Some(VerificationJson {
                row: r,
                verified_at: crate::api::time(v.execution_date),
                href: base.url(&[
                    "pacts",
                    "provider",
                    provider,
                    "consumer",
                    consumer,
                    "pact-version",
                    sha,
                    "verification-results",
                    &v.number.to_string(),
                ]),
            }),
            _ => None,
        };
        map.serialize_entry("verificationResult", &verification)?;
        if self.shown.ignored {
            map.serialize_entry("ignored", &true)?;
        }
        map.end()
    }
}

/// A row's verification; a success of the Pact view only is unknown for
/// the whole contract and says which parts went unverified.
struct VerificationJson<'a> {
    row: &'a Row,
    verified_at: String,
    href: String,
}

impl Serialize for VerificationJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let r = self.row;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("success", &r.success())?;
        map.serialize_entry("verifiedAt", &self.verified_at)?;
        map.serialize_entry("_links", &SelfLink::to(self.href.clone()))?;
        if r.partial() {
            map.serialize_entry("pactViewOnly", &true)?;
            let unverified: Vec<String> = r.unverified.iter().map(ToString::to_string).collect();
            map.serialize_entry("unverified", &unverified)?;
        }
        map.end()
    }
}

/// A pacticipant of a row, with its version (or null).
struct SideJson<'a> {
    base: &'a BaseUrl,
    details: &'a Details,
    name: &'a str,
    version: Option<&'a VersionRef>,
}

impl Serialize for SideJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (base, name) = (self.base, self.name);
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("name", name)?;
        map.serialize_entry("_links", &SelfLink::to(base.url(&["pacticipants", name])))?;
        let version = self.version.map(|v| VersionJson {
            base,
            details: self.details,
            name,
            version: v,
        });
        map.serialize_entry("version", &version)?;
        map.end()
    }
}

struct VersionJson<'a> {
    base: &'a BaseUrl,
    details: &'a Details,
    name: &'a str,
    version: &'a VersionRef,
}

impl Serialize for VersionJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Named<'a> {
            name: &'a str,
        }
        #[derive(Serialize)]
        struct Environment<'a> {
            name: &'a str,
            deployed: bool,
            released: bool,
        }
        #[derive(Serialize)]
        struct Tag<'a> {
            name: &'a str,
            #[serde(rename = "_links")]
            links: SelfLink,
        }
        let (base, d, name, v) = (self.base, self.details, self.name, self.version);
        let none: &[String] = &[];
        let branches = d.branches.get(&v.id).map_or(none, Vec::as_slice);
        let tags = d.tags.get(&v.id).map_or(none, Vec::as_slice);
        let environments = d.environments.get(&v.id).map_or(&[][..], Vec::as_slice);
        let named = || branches.iter().map(|b| Named { name: b });
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("number", &v.number)?;
        map.serialize_entry("branch", &branches.last())?;
        map.serialize_entry("branches", &Seq(named))?;
        map.serialize_entry("branchVersions", &Seq(named))?;
        let environments = || {
            environments.iter().map(|(env, deployed)| Environment {
                name: env,
                deployed: *deployed,
                released: !deployed,
            })
        };
        map.serialize_entry("environments", &Seq(environments))?;
        let tags = || {
            tags.iter().map(|t| Tag {
                name: t,
                links: SelfLink::to(base.url(&[
                    "pacticipants",
                    name,
                    "versions",
                    &v.number,
                    "tags",
                    t,
                ])),
            })
        };
        map.serialize_entry("tags", &Seq(tags))?;
        map.serialize_entry(
            "_links",
            &SelfLink::to(base.url(&["pacticipants", name, "versions", &v.number])),
        )?;
        map.end()
    }
}

/// A sequence written from an iterator made on demand.
struct Seq<F>(F);

impl<F, I> Serialize for Seq<F>
where
    F: Fn() -> I,
    I: Iterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}
