//! The one statement behind can-i-deploy to an environment (`matrix_env.sql`
//! on SQLite, `matrix_env_pg.sql` on PostgreSQL: the same facts, the latter
//! with LATERAL probes where PostgreSQL's planner would misjudge the CTEs'
//! sizes and hash whole tables, which SQLite cannot parse; its three binds,
//! in order, are the version number, the pacticipant name and the
//! environment name, each marker written as the backend spells it):
//! the pacticipant and version asked about, the environment, the
//! integrations, the live versions of the others, the publications and the
//! latest verifications in play, the branches, tags and environments of the
//! versions the rows show (PostgreSQL) or of every version in play (SQLite,
//! whose 3.54 refuses the text that names the rows' versions four times;
//! the answer looks details up by the rows' versions, so extra ones do not
//! show), the content shas and the version's last admission
//! transition — one tagged row per fact (`kind`, then generic columns),
//! read into [`EnvironmentFacts`]. `matrix::environment` turns the facts
//! into what the general path (`matrix::resolve`, `matrix::rows`) would
//! have loaded statement by statement, so the answer is the same.
//!
//! The statement is prepared once per connection and reused (diesel does
//! not cache a `sql_query`; [`EnvironmentQuery`] is the same text with a
//! static query id), so PostgreSQL plans it once and SQLite parses it once.

use chrono::NaiveDateTime;
use diesel::backend::Backend;
use diesel::prelude::*;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::sql_types::{BigInt, Bool, HasSqlType, Nullable, Text, Timestamp, Untyped};

use super::StoreError;
use super::matrix::{PublicationRow, VerificationRow, VersionRef};
use crate::db::AnyConnection;

/// The statement on SQLite; its three `?` are the version number, the
/// pacticipant name and the environment name, in that order.
const SQL: &str = include_str!("matrix_env.sql");

/// The same statement shaped for PostgreSQL's planner (keep the two in
/// step; `matrix_one_statement` checks both against the general path).
const SQL_PG: &str = include_str!("matrix_env_pg.sql");

/// The statement with its binds, cacheable as a prepared statement.
#[derive(Debug)]
struct EnvironmentQuery<'a> {
    sql: &'static str,
    binds: [&'a str; 3],
}

/// The statement's static id: one text per backend and a connection is of
/// one backend, so one prepared statement per connection.
#[derive(Debug)]
struct EnvironmentQueryId;

impl QueryId for EnvironmentQuery<'_> {
    type QueryId = EnvironmentQueryId;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl Query for EnvironmentQuery<'_> {
    type SqlType = Untyped;
}

impl<Conn> RunQueryDsl<Conn> for EnvironmentQuery<'_> {}

impl<DB> QueryFragment<DB> for EnvironmentQuery<'_>
where
    DB: Backend + HasSqlType<Text>,
    str: diesel::serialize::ToSql<Text, DB>,
{
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, DB>) -> QueryResult<()> {
        let mut pieces = self.sql.split('?');
        if let Some(first) = pieces.next() {
            out.push_sql(first);
        }
        for (bind, piece) in self.binds.iter().zip(pieces) {
            out.push_bind_param::<Text, str>(bind)?;
            out.push_sql(piece);
        }
        Ok(())
    }
}

/// One row of the statement: a fact of kind `kind` in generic columns.
#[derive(Debug, QueryableByName)]
struct Fact {
    #[diesel(sql_type = Text)]
    kind: String,
    #[diesel(sql_type = Nullable<BigInt>)]
    a: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    b: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    c: Option<i64>,
    #[diesel(sql_type = Nullable<BigInt>)]
    d: Option<i64>,
    #[diesel(sql_type = Nullable<Text>)]
    s1: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    s2: Option<String>,
    #[diesel(sql_type = Nullable<Bool>)]
    f1: Option<bool>,
    #[diesel(sql_type = Nullable<Bool>)]
    f2: Option<bool>,
    #[diesel(sql_type = Nullable<Timestamp>)]
    ts: Option<NaiveDateTime>,
}

/// The pacticipant asked about: id, name, and the version if it exists.
pub type Asked = (i64, String, Option<VersionRef>);

/// Everything can-i-deploy to an environment reads, from one statement.
#[derive(Debug, Default)]
pub struct EnvironmentFacts {
    /// None: no pacticipant has that name.
    pub asked: Option<Asked>,
    /// None: no environment has that name.
    pub environment_id: Option<i64>,
    /// (consumer, provider, required).
    pub integrations: Vec<(i64, i64, bool)>,
    /// (id, name) of the integrated pacticipants other than the one asked about.
    pub others: Vec<(i64, String)>,
    /// The versions in play: the one asked about and the others' live ones.
    pub scope: Vec<VersionRef>,
    pub publications: Vec<PublicationRow>,
    /// The latest verification per (content, provider version in play).
    pub verifications: Vec<VerificationRow>,
    /// (version id, order, branch name).
    pub branches: Vec<(i64, i64, String)>,
    /// (version id, order, tag name).
    pub tags: Vec<(i64, i64, String)>,
    /// (version id, environment name, deployed?).
    pub environments: Vec<(i64, String, bool)>,
    /// (content id, sha).
    pub shas: Vec<(i64, String)>,
    /// The asked version's last admission transition: (to state, reason).
    pub last_admission: Option<(String, String)>,
}

/// Runs the statement for `number` of `pacticipant` and `environment`.
pub fn load(
    conn: &mut AnyConnection,
    pacticipant: &str,
    number: &str,
    environment: &str,
) -> Result<EnvironmentFacts, StoreError> {
    let sql = match conn {
        AnyConnection::Sqlite(_) => SQL,
        AnyConnection::Postgresql(_) => SQL_PG,
    };
    let query = EnvironmentQuery {
        sql,
        binds: [number, pacticipant, environment],
    };
    let facts: Vec<Fact> = crate::on_backend!(conn, |c| query.load(c))?;
    let mut out = EnvironmentFacts::default();
    for fact in facts {
        read(&mut out, fact)?;
    }
    Ok(out)
}

/// A column the statement always fills for this kind of fact.
fn need<T>(value: Option<T>, kind: &str) -> Result<T, StoreError> {
    value.ok_or_else(|| StoreError::CorruptValue {
        what: "can-i-deploy fact",
        value: kind.to_owned(),
    })
}

fn read(out: &mut EnvironmentFacts, f: Fact) -> Result<(), StoreError> {
    let k = f.kind.as_str();
    match k {
        "sel" => read_asked(out, f)?,
        "integ" => out
            .integrations
            .push((need(f.a, k)?, need(f.b, k)?, need(f.f1, k)?)),
        "other" => out.others.push((need(f.a, k)?, need(f.s1, k)?)),
        "scope" => out.scope.push(VersionRef {
            id: need(f.a, k)?,
            pacticipant_id: need(f.b, k)?,
            number: need(f.s1, k)?,
        }),
        "pub" => out.publications.push(PublicationRow {
            consumer_version_id: need(f.a, k)?,
            consumer_id: need(f.b, k)?,
            provider_id: need(f.c, k)?,
            pact_content_id: need(f.d, k)?,
            created_at: need(f.ts, k)?,
        }),
        "ver" => out.verifications.push(VerificationRow {
            id: need(f.a, k)?,
            pact_content_id: need(f.b, k)?,
            provider_version_id: need(f.c, k)?,
            number: need(f.d, k)?,
            kind: f.s1,
            reason_codes: f.s2,
            success: need(f.f1, k)?,
            pact_view: need(f.f2, k)?,
            execution_date: need(f.ts, k)?,
        }),
        "branch" => out
            .branches
            .push((need(f.a, k)?, need(f.b, k)?, need(f.s1, k)?)),
        "tag" => out
            .tags
            .push((need(f.a, k)?, need(f.b, k)?, need(f.s1, k)?)),
        "env" => out
            .environments
            .push((need(f.a, k)?, need(f.s1, k)?, need(f.f1, k)?)),
        "sha" => out.shas.push((need(f.a, k)?, need(f.s1, k)?)),
        "admission" => out.last_admission = Some((need(f.s1, k)?, need(f.s2, k)?)),
        other => {
            return Err(StoreError::CorruptValue {
                what: "can-i-deploy fact kind",
                value: other.to_owned(),
            });
        }
    }
    Ok(())
}

fn read_asked(out: &mut EnvironmentFacts, f: Fact) -> Result<(), StoreError> {
    let id = need(f.a, "sel")?;
    let version = match (f.b, f.s2) {
        (Some(vid), Some(number)) => Some(VersionRef {
            id: vid,
            pacticipant_id: id,
            number,
        }),
        _ => None,
    };
    out.asked = Some((id, need(f.s1, "sel")?, version));
    out.environment_id = f.c;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::SQL;

    #[test]
    fn the_statement_has_exactly_its_three_binds() {
        assert_eq!(SQL.matches('?').count(), 3, "a ? in a comment or literal");
    }
}
