//! The whole content of a test database as one text, so a test can say
//! "this refused request changed no table" on either backend without
//! knowing the tables: every table the migrations made (not diesel's own),
//! every row in id order.

use accord_broker::db::{self, AnyConnection, Pool};
use diesel::QueryableByName;
use diesel::RunQueryDsl;
use diesel::sql_types::{Nullable, Text};

use crate::support::TestApp;

#[derive(QueryableByName)]
struct One {
    #[diesel(sql_type = Nullable<Text>)]
    v: Option<String>,
}

fn texts(conn: &mut AnyConnection, sql: &str) -> Vec<String> {
    diesel::sql_query(sql)
        .load::<One>(conn)
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .into_iter()
        .map(|r| r.v.unwrap_or_default())
        .collect()
}

/// Tables the webhook worker writes off any request's path: only their
/// columns a request writes are compared
/// (`triggered_webhooks` and `webhook_executions`: none, the worker's
/// fan-out of the outbox writes the first, its deliveries the second;
/// `webhook_events`: all but `consumed_at`).
const WORKER_WRITES: &[(&str, &[&str])] = &[
    (
        "webhook_events",
        &[
            "id",
            "event_name",
            "context",
            "matching",
            "consumer_id",
            "provider_id",
            "pact_publication_id",
            "verification_id",
            "version_id",
            "created_at",
        ],
    ),
    ("triggered_webhooks", &[]),
    ("webhook_executions", &[]),
];

/// A connection to a test broker's database that reads all of it.
pub struct Snapshot {
    pool: Pool,
    /// One query that reads every row of every table as text, in id order.
    query: String,
}

impl Snapshot {
    /// Connects to `app`'s database and prepares the query.
    pub fn new(app: &TestApp) -> Snapshot {
        let pool = db::connect(&app.database.url, 1).expect("snapshot connects");
        let mut conn = pool.get().expect("connection");
        let postgres = matches!(&*conn, AnyConnection::Postgresql(_));
        let sql = if postgres {
            "SELECT tablename AS v FROM pg_tables WHERE schemaname = current_schema() \
             AND tablename NOT LIKE '\\_\\_%' ORDER BY tablename"
        } else {
            "SELECT name AS v FROM sqlite_master WHERE type = 'table' \
             AND name NOT LIKE '\\_\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        };
        let tables = texts(&mut conn, sql);
        assert!(tables.len() >= 10, "the broker's tables: {tables:?}");
        let parts: Vec<String> = tables
            .iter()
            .map(|table| {
                if let Some((_, columns)) = WORKER_WRITES.iter().find(|(t, _)| t == table) {
                    return only_columns(table, columns, postgres);
                }
                if postgres {
                    format!(
                        "'{table}' || E'\\n' || coalesce((SELECT string_agg(t::text, E'\\n' ORDER BY id) FROM {table} t), '')"
                    )
                } else {
                    let columns = texts(
                        &mut conn,
                        &format!("SELECT name AS v FROM pragma_table_info('{table}') ORDER BY cid"),
                    );
                    let row: Vec<String> = columns.iter().map(|c| format!("quote(\"{c}\")")).collect();
                    format!(
                        "'{table}' || char(10) || coalesce((SELECT group_concat(r, char(10)) FROM \
                         (SELECT {} AS r FROM \"{table}\" ORDER BY id)), '')",
                        row.join(" || ',' || ")
                    )
                }
            })
            .collect();
        let joiner = if postgres {
            " || E'\\n' || "
        } else {
            " || char(10) || "
        };
        let query = format!("SELECT {} AS v", parts.join(joiner));
        drop(conn);
        Snapshot { pool, query }
    }

    /// Every row of every table, as text.
    pub fn take(&self) -> String {
        let mut conn = self.pool.get().expect("connection");
        texts(&mut conn, &self.query).concat()
    }
}

/// The query part reading only `columns` of `table` (none: only its name).
fn only_columns(table: &str, columns: &[&str], postgres: bool) -> String {
    if columns.is_empty() {
        return format!("'{table}'");
    }
    let row = if postgres {
        let cols: Vec<String> = columns
            .iter()
            .map(|c| format!("coalesce({c}::text, '')"))
            .collect();
        format!("concat_ws(',', {})", cols.join(", "))
    } else {
        let cols: Vec<String> = columns.iter().map(|c| format!("quote(\"{c}\")")).collect();
        cols.join(" || ',' || ")
    };
    if postgres {
        format!(
            "'{table}' || E'\\n' || coalesce((SELECT string_agg({row}, E'\\n' ORDER BY id) FROM {table}), '')"
        )
    } else {
        format!(
            "'{table}' || char(10) || coalesce((SELECT group_concat(r, char(10)) FROM (SELECT {row} AS r FROM \"{table}\" ORDER BY id)), '')"
        )
    }
}
