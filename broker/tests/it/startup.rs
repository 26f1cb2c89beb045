//! Start-up: a fresh database gets every migration in one commit (one
//! that fails leaves none applied), with diesel's bookkeeping table
//! complete; the pool opens one connection before serving, not `pool_size`.

use std::path::Path;
use std::time::{Duration, Instant};

use accord_broker::db::{self, AnyConnection};
use diesel::QueryableByName;
use diesel::RunQueryDsl;
use diesel::sql_types::BigInt;

use crate::support::{TestApp, TestDatabase, TestDb, backends};

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

fn count(conn: &mut AnyConnection, sql: &str) -> i64 {
    diesel::sql_query(sql)
        .get_result::<Count>(conn)
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .n
}

fn migration_folders() -> i64 {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations/sqlite");
    let dirs = std::fs::read_dir(root).expect("migrations folder");
    let n = dirs
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .count();
    i64::try_from(n).expect("a count")
}

#[test]
fn a_fresh_database_records_every_migration_once() {
    for db in backends() {
        let app = TestApp::start(db, |_| {});
        let pool = db::connect(&app.database.url, 1).expect("connect");
        let mut conn = pool.get().expect("connection");
        let recorded = count(
            &mut conn,
            "SELECT COUNT(*) AS n FROM __diesel_schema_migrations",
        );
        assert_eq!(recorded, migration_folders(), "{db:?}");
        // a second start finds nothing to apply and records nothing twice
        let again = TestApp::serve(db, app.database.shared(), config(&app.database.url));
        assert_eq!(again.get("/diagnostic/status/heartbeat").status, 200);
        let recorded_again = count(
            &mut conn,
            "SELECT COUNT(*) AS n FROM __diesel_schema_migrations",
        );
        assert_eq!(recorded_again, recorded, "{db:?}");
    }
}

/// Tables of the database's own schema with this name.
fn tables_named(db: TestDb, conn: &mut AnyConnection, name: &str) -> i64 {
    let sql = match db {
        TestDb::Sqlite => format!("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = '{name}'"),
        TestDb::Postgres => format!(
            "SELECT COUNT(*) AS n FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_name = '{name}'"
        ),
    };
    count(conn, &sql)
}

#[test]
fn a_migration_that_fails_leaves_none_applied() {
    for db in backends() {
        let database = TestDatabase::create(db);
        let pool = db::connect(&database.url, 1).expect("connect");
        let mut conn = pool.get().expect("connection");
        // the last migration creates `labels`: a table of that name makes it fail
        diesel::sql_query("CREATE TABLE labels (x INTEGER)")
            .execute(&mut conn)
            .expect("create labels");
        let failed = db::run_migrations(&mut conn);
        assert!(failed.is_err(), "{db:?}: migrations passed over a clash");
        // all of them were one commit: the first migration's tables are not there
        assert_eq!(tables_named(db, &mut conn, "pacticipants"), 0, "{db:?}");
        let recorded = tables_named(db, &mut conn, "__diesel_schema_migrations");
        if recorded > 0 {
            let sql = "SELECT COUNT(*) AS n FROM __diesel_schema_migrations";
            assert_eq!(count(&mut conn, sql), 0, "{db:?}");
        }
    }
}

fn config(url: &str) -> accord_broker::BrokerConfig {
    let mut config = accord_broker::BrokerConfig::new(url.to_owned());
    config.bind = "127.0.0.1:0".into();
    config.workers = Some(1);
    config
}

/// The connections the broker holds open: SQLite files this process has
/// open under the database's name, PostgreSQL sessions that name.
fn open_connections(db: TestDb, url: &str, name: &str) -> i64 {
    match db {
        TestDb::Sqlite => {
            let fds = std::fs::read_dir("/proc/self/fd").expect("/proc/self/fd");
            let target = Path::new(url);
            let n = fds
                .filter_map(Result::ok)
                .filter(|fd| std::fs::read_link(fd.path()).is_ok_and(|p| p == target))
                .count();
            i64::try_from(n).expect("a count")
        }
        TestDb::Postgres => {
            let admin = std::env::var("ACCORD_TEST_DATABASE_URL").expect("admin URL");
            let pool = db::connect(&admin, 1).expect("connect");
            let mut conn = pool.get().expect("connection");
            let sql = format!(
                "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE application_name = '{name}'"
            );
            count(&mut conn, &sql)
        }
    }
}

#[cfg(target_os = "linux")]
#[test]
fn the_pool_opens_connections_when_requests_need_them() {
    for db in backends() {
        let name = format!("accord_start_{}", std::process::id());
        let app = TestApp::start(db, |c| {
            c.pool_size = 8;
            if db == TestDb::Postgres {
                c.database_url
                    .push_str(&format!("&application_name={name}"));
            }
        });
        assert_eq!(app.get("/diagnostic/status/heartbeat").status, 200);
        // the one kept idle and, while it was lent for the migrations, the
        // one opened to replace it (a closed session may linger a moment)
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut open = open_connections(db, &app.database.url, &name);
        while open > 2 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
            open = open_connections(db, &app.database.url, &name);
        }
        assert!(
            (1..=2).contains(&open),
            "{db:?}: {open} connections open at idle"
        );
        // requests still get answers, from the connections opened for them
        assert_eq!(app.get("/pacticipants").status, 200, "{db:?}");
    }
}

#[derive(QueryableByName)]
struct Setting {
    #[diesel(sql_type = diesel::sql_types::Text)]
    jit: String,
}

#[test]
fn postgres_connections_run_without_jit() {
    // can-i-deploy's one statement is planned with guessed CTE sizes; a
    // guess past `jit_above_cost` spent 1.5 s compiling for 3 ms of work
    for db in backends().into_iter().filter(|db| *db == TestDb::Postgres) {
        let app = TestApp::start(db, |_| {});
        let pool = db::connect(&app.database.url, 2).expect("connect");
        let mut conn = pool.get().expect("connection");
        let shown = diesel::sql_query("SHOW jit")
            .get_result::<Setting>(&mut conn)
            .expect("SHOW jit");
        assert_eq!(shown.jit, "off");
    }
}

#[test]
fn postgres_prepared_statements_run_on_generic_plans() {
    // PostgreSQL plans a prepared statement anew for its first five runs
    // (and after, if those looked cheaper): for can-i-deploy's statement
    // that planning cost more than the answer
    for db in backends().into_iter().filter(|db| *db == TestDb::Postgres) {
        let app = TestApp::start(db, |_| {});
        let pool = db::connect(&app.database.url, 2).expect("connect");
        let mut conn = pool.get().expect("connection");
        for _ in 0..7 {
            accord_broker::store::matrix_env::load(&mut conn, "Orders", "1.0.0", "production")
                .expect("can-i-deploy's statement");
        }
        let mut plans = |column: &str| {
            let sql = format!(
                "SELECT coalesce(sum({column}), 0)::bigint AS n FROM pg_prepared_statements \
                 WHERE statement LIKE '%''sel'' AS kind%'"
            );
            count(&mut conn, &sql)
        };
        assert_eq!(plans("custom_plans"), 0, "no custom plan");
        assert_eq!(plans("generic_plans"), 7, "one generic plan per run");
    }
}

#[test]
fn sqlite_connections_keep_temporary_tables_in_memory() {
    // every materialized sub-query of can-i-deploy's one statement is a
    // temporary table: on SQLite's default (a temporary file each, with its
    // own pager) the statement took 4-8x the CPU
    for db in backends().into_iter().filter(|db| *db == TestDb::Sqlite) {
        let database = TestDatabase::create(db);
        let pool = db::connect(&database.url, 2).expect("connect");
        let mut conn = pool.get().expect("connection");
        // 2 = MEMORY (0 = the compiled-in default, 1 = FILE)
        let mode = count(&mut conn, "SELECT temp_store AS n FROM pragma_temp_store");
        assert_eq!(mode, 2);
    }
}
