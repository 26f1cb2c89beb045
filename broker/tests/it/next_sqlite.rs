//! can-i-deploy's one SQLite statement on the next SQLite (3.54).
//!
//! The broker bundles SQLite 3.53 (libsqlite3-sys 0.38, the newest diesel
//! 2.3 accepts). SQLite 3.54 counts every SELECT a statement expands to —
//! each CTE reference through every path of the CTE graph — against
//! `SQLITE_LIMIT_EXPR_DEPTH` (at most 1000) and refuses more: the statement
//! as first written needed well over 1000 and can-i-deploy would have
//! failed on every ask once the bundled SQLite moved. This test prepares and
//! runs the statement on a migrated database with apsw (SQLite's Python
//! binding, which bundles its own SQLite) at 3.54 or later, through
//! `ACCORD_PYTHON` (`.ci/run` installs apsw there), and prepares every other
//! statement the statement baseline records for SQLite (its snapshot: the
//! request shapes of `statements/`); without apsw the test says it skipped,
//! except under `CI=true`.

use std::process::Command;

use accord_broker::db;

use crate::support::{TestDatabase, TestDb};

const SQL: &str = include_str!("../../src/store/matrix_env.sql");

/// The statements of the baseline's request shapes on SQLite.
const BASELINE: &str = include_str!("statements/snapshots/it__statements__sqlite.snap");

/// What the script prints: the SQLite version, the baseline's statements
/// that fail to prepare (none, or a line each), then the lowest expression
/// depth limit can-i-deploy's statement prepares under (at most the
/// build's maximum).
const SCRIPT: &str = r#"
import re, sys, apsw
db, sql, baseline = sys.argv[1], open(sys.argv[2]).read(), open(sys.argv[3]).read()
c = apsw.Connection(db)
print(apsw.sqlite_lib_version())
texts = sorted(set(m.group(1) for m in re.finditer(r"^\d+\. (.*)$", baseline, re.M)))
refused = 0
for text in texts:
    text = text.replace("IN (?\u2026)", "IN (?)")
    try:
        c.execute("EXPLAIN " + text, (None,) * text.count("?")).fetchall()
    except apsw.Error as e:
        refused += 1
        print("refused:", e, text[:200])
print("baseline", len(texts), refused)
binds = ("1.0.0", "Orders", "production")
c.execute(sql, binds).fetchall()
top = c.limit(apsw.SQLITE_LIMIT_EXPR_DEPTH, -1)
low, high = 1, top
while low < high:
    mid = (low + high) // 2
    c.limit(apsw.SQLITE_LIMIT_EXPR_DEPTH, mid)
    try:
        c.execute("EXPLAIN " + sql, binds).fetchall()
        high = mid
    except apsw.SQLError:
        low = mid + 1
print(low, top)
"#;

/// A Python with apsw on SQLite 3.54 or later, or None (a printed skip).
fn python_with_apsw() -> Option<String> {
    let in_ci = std::env::var("CI").is_ok_and(|v| v == "true");
    let Some(python) = std::env::var("ACCORD_PYTHON")
        .ok()
        .filter(|p| !p.is_empty())
    else {
        assert!(!in_ci, "CI=true but ACCORD_PYTHON is not set");
        eprintln!("skipped SQLite 3.54: ACCORD_PYTHON is not set");
        return None;
    };
    let probe = Command::new(&python)
        .args(["-c", "import apsw; print(apsw.sqlite_lib_version())"])
        .output()
        .expect("run ACCORD_PYTHON");
    let version = String::from_utf8_lossy(&probe.stdout).trim().to_owned();
    let parts: Vec<u32> = version.split('.').filter_map(|p| p.parse().ok()).collect();
    if !probe.status.success() || parts.len() < 2 || (parts[0], parts[1]) < (3, 54) {
        assert!(
            !in_ci,
            "CI=true but ACCORD_PYTHON has no apsw on SQLite 3.54+ ({version:?}): pip install apsw"
        );
        eprintln!("skipped SQLite 3.54: no apsw on SQLite 3.54+ in ACCORD_PYTHON ({version:?})");
        return None;
    }
    Some(python)
}

#[test]
fn can_i_deploy_statement_prepares_and_runs_on_sqlite_3_54() {
    let Some(python) = python_with_apsw() else {
        return;
    };
    let database = TestDatabase::create(TestDb::Sqlite);
    {
        let pool = db::connect(&database.url, 1).expect("database");
        let mut conn = pool.get().expect("connection");
        db::run_migrations(&mut conn).expect("migrations");
    }
    let dir = std::path::Path::new(&database.url)
        .parent()
        .expect("the database's folder")
        .to_owned();
    let (sql, script) = (dir.join("matrix_env.sql"), dir.join("prepare.py"));
    let baseline = dir.join("baseline.snap");
    std::fs::write(&sql, SQL).expect("write the statement");
    std::fs::write(&script, SCRIPT).expect("write the script");
    std::fs::write(&baseline, BASELINE).expect("write the baseline");
    let out = Command::new(&python)
        .arg(&script)
        .arg(&database.url)
        .arg(&sql)
        .arg(&baseline)
        .output()
        .expect("run the script");
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "can-i-deploy's SQLite statement fails on the next SQLite:\n{printed}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let version = printed.lines().next().unwrap_or_default();
    let refused: Vec<&str> = printed
        .lines()
        .filter(|l| l.starts_with("refused:"))
        .collect();
    assert!(
        refused.is_empty(),
        "on SQLite {version}:\n{}",
        refused.join("\n")
    );
    let baseline: Vec<u32> = printed
        .lines()
        .find_map(|l| l.strip_prefix("baseline "))
        .expect("the baseline line")
        .split(' ')
        .map(|n| n.parse().expect("a number"))
        .collect();
    assert!(
        baseline[0] > 50 && baseline[1] == 0,
        "the baseline's statements: {baseline:?} (found, refused)"
    );
    let depth: Vec<u32> = printed
        .lines()
        .last()
        .expect("the depth line")
        .split(' ')
        .map(|n| n.parse().expect("a number"))
        .collect();
    eprintln!(
        "SQLite {version}: the baseline's {} statements prepare; can-i-deploy's needs an expression depth of {} (limit {})",
        baseline[0], depth[0], depth[1]
    );
    assert!(depth[0] <= depth[1]);
}
