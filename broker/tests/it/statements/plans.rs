//! A statement's shape (its SQL without binds, SQLite's `IN (?, ?, …)`
//! lists shortened) and its query plan, normalised so the baseline diffs
//! stably: SQLite's `EXPLAIN QUERY PLAN` as an indented tree; PostgreSQL's
//! generic plan (`force_generic_plan`, the plan a prepared statement
//! settles on) without costs, with sequential scans discouraged so the
//! plan names the index that serves the statement whatever the table size
//! (a test database is tiny: left alone, PostgreSQL scans every table).

use std::collections::HashMap;

use accord_broker::db::AnyConnection;
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Text};

/// The statement's SQL on one line, `IN (?, ?, ?)` written `IN (?…)`.
pub fn shape(sql: &str) -> String {
    let one_line = sql.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::with_capacity(one_line.len());
    let mut rest = one_line.as_str();
    while let Some(at) = rest.find("IN (?, ?") {
        out.push_str(&rest[..at]);
        let tail = &rest[at + 4..];
        let end = tail.find(')').unwrap_or(tail.len());
        if tail[..end].split(", ").all(|p| p == "?") {
            out.push_str("IN (?…)");
            rest = tail.get(end + 1..).unwrap_or_default();
        } else {
            out.push_str("IN (");
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

/// Plans of statement shapes, each asked once.
pub struct Planner<'a> {
    conn: &'a mut AnyConnection,
    known: HashMap<String, Vec<String>>,
}

impl<'a> Planner<'a> {
    pub fn new(conn: &'a mut AnyConnection) -> Planner<'a> {
        if let AnyConnection::Postgresql(c) = conn {
            c.batch_execute("SET plan_cache_mode = force_generic_plan; SET enable_seqscan = off")
                .expect("planner settings");
        }
        Planner {
            conn,
            known: HashMap::new(),
        }
    }

    /// The plan's lines (none for a statement that is not a query, such as
    /// `BEGIN`); a statement the database cannot plan without its binds
    /// says why.
    pub fn plan(&mut self, shape: &str) -> Vec<String> {
        // past a leading `/* … */` comment (the one statement of can-i-deploy has one)
        let bare = match shape.strip_prefix("/*").and_then(|r| r.split_once("*/")) {
            Some((_, rest)) => rest.trim_start(),
            None => shape,
        };
        let verb = bare
            .trim_start_matches('(')
            .split(' ')
            .next()
            .unwrap_or_default();
        if !["SELECT", "INSERT", "UPDATE", "DELETE", "WITH"].contains(&verb) {
            return Vec::new();
        }
        if let Some(lines) = self.known.get(shape) {
            return lines.clone();
        }
        let lines = match &mut *self.conn {
            AnyConnection::Sqlite(c) => sqlite_plan(c, shape),
            AnyConnection::Postgresql(c) => postgres_plan(c, shape),
        }
        .unwrap_or_else(|e| vec![format!("(no plan: {})", first_line(&e.to_string()))]);
        self.known.insert(shape.to_owned(), lines.clone());
        lines
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

#[derive(QueryableByName)]
struct SqliteStep {
    #[diesel(sql_type = BigInt)]
    id: i64,
    #[diesel(sql_type = BigInt)]
    parent: i64,
    #[diesel(sql_type = Text)]
    detail: String,
}

/// `EXPLAIN QUERY PLAN` as a tree indented by depth (ids left out: they
/// move when SQLite changes).
fn sqlite_plan(c: &mut SqliteConnection, shape: &str) -> QueryResult<Vec<String>> {
    let sql = shape.replace("IN (?…)", "IN (?, ?)");
    let steps: Vec<SqliteStep> = diesel::sql_query(format!("EXPLAIN QUERY PLAN {sql}")).load(c)?;
    let mut depth: HashMap<i64, usize> = HashMap::new();
    Ok(steps
        .iter()
        .map(|s| {
            let d = depth.get(&s.parent).map_or(0, |d| d + 1);
            depth.insert(s.id, d);
            format!("{}{}", "  ".repeat(d), s.detail)
        })
        .collect())
}

#[derive(QueryableByName)]
struct PgLine {
    #[diesel(sql_type = Text, column_name = "QUERY PLAN")]
    line: String,
}

/// The generic plan of the prepared statement, binds all NULL (a generic
/// plan does not look at them).
fn postgres_plan(c: &mut PgConnection, shape: &str) -> QueryResult<Vec<String>> {
    let params = (1..=99)
        .take_while(|n| shape.contains(&format!("${n}")))
        .count();
    let nulls = vec!["NULL"; params].join(", ");
    let execute = if params == 0 {
        "EXECUTE accord_plan".to_owned()
    } else {
        format!("EXECUTE accord_plan({nulls})")
    };
    c.batch_execute(&format!("PREPARE accord_plan AS {shape}"))?;
    let lines: QueryResult<Vec<PgLine>> =
        diesel::sql_query(format!("EXPLAIN (COSTS OFF) {execute}")).load(c);
    c.batch_execute("DEALLOCATE accord_plan")?;
    Ok(lines?.into_iter().map(|l| l.line).collect())
}
