//! A new consumer version's first publication in one statement, on
//! PostgreSQL (`first_publication_pg.sql`): the most common publish CI
//! makes (a new commit, its branch known, its pact unchanged since the
//! last one) was six round trips to the database — `BEGIN`, the read of
//! the pacticipants, the version, the branch entry, the publication,
//! `COMMIT` — each a wake-up of a backend and of a broker thread; one
//! data-modifying statement is one round trip and its own transaction.
//! The statement writes nothing unless that is the whole publish (see the
//! file's comment); when it does not publish, its rows are what publishing
//! reads first (`versions::find_with_pacticipant`) and whether only the
//! content was missing, so the caller can try again with the content's
//! text, or go on statement by statement without asking again.
//!
//! SQLite answers in-process and has no data-modifying `WITH`: it never
//! takes this path.

use chrono::NaiveDateTime;
use diesel::connection::{AnsiTransactionManager, TransactionManager};
use diesel::dsl::SqlTypeOf;
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::result::DatabaseErrorKind;
use diesel::sql_types::{BigInt, Bool, Nullable, Text, Timestamp};

use super::Publication;
use crate::db::AnyConnection;
use crate::schema::{pact_publications, pacticipants, versions};
use crate::store::StoreError;
use crate::store::pacticipants::Pacticipant;
use crate::store::versions::{FoundForPublish, Version};

/// The statement; each bind is written as `$` and its name
/// ([`Bind::named`]), one of [`FirstPublication`]'s fields.
const SQL_PG: &str = include_str!("first_publication_pg.sql");

/// A bind of the statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bind {
    Consumer,
    Provider,
    Sha,
    Content,
    Interactions,
    Branch,
    Number,
    BuildUrl,
    At,
    Candidate,
}

impl Bind {
    const ALL: [Bind; 10] = [
        Bind::Consumer,
        Bind::Provider,
        Bind::Sha,
        Bind::Content,
        Bind::Interactions,
        Bind::Branch,
        Bind::Number,
        Bind::BuildUrl,
        Bind::At,
        Bind::Candidate,
    ];

    fn named(self) -> &'static str {
        match self {
            Bind::Consumer => "consumer",
            Bind::Provider => "provider",
            Bind::Sha => "sha",
            Bind::Content => "content",
            Bind::Interactions => "interactions",
            Bind::Branch => "branch",
            Bind::Number => "number",
            Bind::BuildUrl => "build_url",
            Bind::At => "at",
            Bind::Candidate => "candidate",
        }
    }
}

/// The statement cut at its binds, once per process: the text before each
/// bind, then the text after the last.
struct Pieces {
    binds: Vec<(&'static str, Bind)>,
    tail: &'static str,
}

/// `sql` cut at each `$name`; a `$` not followed by a bind's name is an
/// error naming it.
fn cut(sql: &'static str) -> Result<Pieces, String> {
    let mut binds = Vec::new();
    let mut rest = sql;
    while let Some(at) = rest.find('$') {
        let after = &rest[at + 1..];
        let len = after
            .find(|c: char| !(c.is_ascii_lowercase() || c == '_'))
            .unwrap_or(after.len());
        let name = &after[..len];
        let bind = Bind::ALL
            .into_iter()
            .find(|b| b.named() == name)
            .ok_or_else(|| format!("no bind is named {name:?}"))?;
        binds.push((&rest[..at], bind));
        rest = &after[len..];
    }
    Ok(Pieces { binds, tail: rest })
}

static PIECES: std::sync::LazyLock<Result<Pieces, String>> =
    std::sync::LazyLock::new(|| cut(SQL_PG));

/// What the publication needs: a new version `number` of `consumer`,
/// published for `provider` with the content `sha`.
#[derive(Debug, Clone)]
pub struct FirstPublication<'a> {
    pub consumer: &'a str,
    pub provider: &'a str,
    pub sha: &'a str,
    /// The content's text, stored when no content has `sha`; None: the
    /// content must be stored already (its text is not sent).
    pub content: Option<&'a str>,
    /// The content's number of interactions (with `content`).
    pub interactions: Option<i64>,
    /// The branch to put the version on; it must exist already.
    pub branch: Option<&'a str>,
    pub number: &'a str,
    pub build_url: Option<&'a str>,
    pub at: NaiveDateTime,
    /// Whether the request names a branch or tag that would become the
    /// consumer's main branch if it has none (`branches::MAIN_BRANCH_CANDIDATES`):
    /// then the consumer must have one already.
    pub candidate: bool,
}

/// The statement's static id: one text, so one prepared statement per
/// connection, planned once.
#[derive(Debug)]
pub struct FirstPublicationId;

impl QueryId for FirstPublication<'_> {
    type QueryId = FirstPublicationId;
    const HAS_STATIC_QUERY_ID: bool = true;
}

type PacticipantRow = SqlTypeOf<<pacticipants::table as diesel::Table>::AllColumns>;
type VersionRow = SqlTypeOf<<versions::table as diesel::Table>::AllColumns>;
type PublicationRow = SqlTypeOf<<pact_publications::table as diesel::Table>::AllColumns>;

impl Query for FirstPublication<'_> {
    type SqlType = (
        PacticipantRow,
        Nullable<VersionRow>,
        Nullable<PacticipantRow>,
        Nullable<PublicationRow>,
        Bool,
        Bool,
        Bool,
    );
}

impl RunQueryDsl<diesel::PgConnection> for FirstPublication<'_> {}

impl QueryFragment<Pg> for FirstPublication<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        let pieces = PIECES.as_ref().map_err(|e| {
            diesel::result::Error::QueryBuilderError(
                format!("first_publication_pg.sql: {e}").into(),
            )
        })?;
        for (before, bind) in &pieces.binds {
            out.push_sql(before);
            match bind {
                Bind::Consumer => out.push_bind_param::<Text, _>(&self.consumer)?,
                Bind::Provider => out.push_bind_param::<Text, _>(&self.provider)?,
                Bind::Sha => out.push_bind_param::<Text, _>(&self.sha)?,
                Bind::Content => out.push_bind_param::<Nullable<Text>, _>(&self.content)?,
                Bind::Interactions => {
                    out.push_bind_param::<Nullable<BigInt>, _>(&self.interactions)?;
                }
                Bind::Branch => out.push_bind_param::<Nullable<Text>, _>(&self.branch)?,
                Bind::Number => out.push_bind_param::<Text, _>(&self.number)?,
                Bind::BuildUrl => out.push_bind_param::<Nullable<Text>, _>(&self.build_url)?,
                Bind::At => out.push_bind_param::<Timestamp, _>(&self.at)?,
                Bind::Candidate => out.push_bind_param::<Bool, _>(&self.candidate)?,
            }
        }
        out.push_sql(pieces.tail);
        Ok(())
    }
}

/// One row: published (the consumer, the new version, the provider, the
/// publication), or not (a pacticipant, the consumer's version if any);
/// then whether a webhook may select the pair, whether the content is
/// stored, and whether all else allows the one statement.
type Row = (
    Pacticipant,
    Option<Version>,
    Option<Pacticipant>,
    Option<Publication>,
    bool,
    bool,
    bool,
);

/// What kept the statement from publishing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// Only the content: stored nowhere, and its text was not sent.
    Content,
    /// Something else (the version exists, a webhook may select the pair,
    /// a pacticipant or the branch is missing, a main branch is to be set):
    /// the statement-by-statement path's work.
    More,
}

/// What the statement did.
#[derive(Debug)]
pub enum FirstOutcome {
    /// Everything is stored and committed.
    Published {
        consumer: Pacticipant,
        version: Version,
        provider: Pacticipant,
        publication: Publication,
    },
    /// Nothing was written; what publishing reads first, as read now.
    NotPublished(FoundForPublish, Missing),
    /// Not on this backend, or the statement was undone: nothing was
    /// written and nothing is known.
    NotAsked,
}

/// Runs the statement on PostgreSQL, outside any transaction (it is its
/// own, and its refusal must not abort a caller's); on SQLite or inside a
/// transaction, `NotAsked`.
pub fn publish(
    conn: &mut AnyConnection,
    first: FirstPublication<'_>,
) -> Result<FirstOutcome, StoreError> {
    let AnyConnection::Postgresql(pg) = conn else {
        return Ok(FirstOutcome::NotAsked);
    };
    let status = AnsiTransactionManager::transaction_manager_status_mut(pg);
    if status.transaction_depth()?.is_some() {
        return Ok(FirstOutcome::NotAsked);
    }
    let (consumer_name, provider_name) = (first.consumer, first.provider);
    let rows: Vec<Row> = match first.load(pg) {
        Ok(rows) => rows,
        // content stored meanwhile, or a row it needs deleted: nothing was
        // written, and the statement-by-statement path decides
        Err(diesel::result::Error::DatabaseError(
            DatabaseErrorKind::UniqueViolation | DatabaseErrorKind::ForeignKeyViolation,
            _,
        )) => return Ok(FirstOutcome::NotAsked),
        Err(other) => return Err(other.into()),
    };
    let (mut found, mut missing) = (FoundForPublish::default(), Missing::More);
    for (pacticipant, version, provider, publication, hooked, stored, ready) in rows {
        let version = match (version, provider, publication) {
            (Some(version), Some(provider), Some(publication)) => {
                return Ok(FirstOutcome::Published {
                    consumer: pacticipant,
                    version,
                    provider,
                    publication,
                });
            }
            (version, _, _) => version,
        };
        if ready && !stored {
            missing = Missing::Content;
        }
        found.add(consumer_name, provider_name, pacticipant, version, hooked);
    }
    Ok(FirstOutcome::NotPublished(found, missing))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_statement_names_every_bind_and_only_binds() {
        let pieces = cut(SQL_PG).expect("every $name is a bind");
        for bind in Bind::ALL {
            assert!(
                pieces.binds.iter().any(|(_, b)| *b == bind),
                "{} is not used",
                bind.named()
            );
        }
        assert!(!pieces.tail.contains('$'));
        assert_eq!(
            cut("SELECT $nobody").err().as_deref(),
            Some("no bind is named \"nobody\"")
        );
        let two = cut("a = $sha AND b = $sha;").expect("cut");
        assert_eq!(two.binds, [("a = ", Bind::Sha), (" AND b = ", Bind::Sha)]);
        assert_eq!(two.tail, ";");
    }
}
