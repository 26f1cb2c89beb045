//! The two migration folders must stay in step.

use std::collections::BTreeSet;
use std::path::Path;

fn folders(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .expect("migrations folder")
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn sqlite_and_postgres_migrations_have_the_same_folders() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations");
    let sqlite = folders(&root.join("sqlite"));
    let postgres = folders(&root.join("postgres"));
    assert!(!sqlite.is_empty(), "no migrations found");
    assert_eq!(
        sqlite, postgres,
        "migrations/sqlite and migrations/postgres differ"
    );
    for name in &sqlite {
        for file in ["up.sql", "down.sql"] {
            assert!(
                root.join("sqlite").join(name).join(file).is_file(),
                "sqlite/{name}/{file} missing"
            );
            assert!(
                root.join("postgres").join(name).join(file).is_file(),
                "postgres/{name}/{file} missing"
            );
        }
    }
}

/// Statements, with the backend-specific spelling of an id column evened out.
fn statements(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).expect("migration file");
    text.lines()
        .filter(|l| !l.trim_start().starts_with("--"))
        .collect::<Vec<_>>()
        .join("\n")
        .replace("INTEGER PRIMARY KEY AUTOINCREMENT", "ID")
        .replace("BIGSERIAL PRIMARY KEY", "ID")
        .split(';')
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|s| !s.is_empty())
        .collect()
}

#[test]
fn sqlite_and_postgres_migrations_define_the_same_schema() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations");
    for name in folders(&root.join("sqlite")) {
        for file in ["up.sql", "down.sql"] {
            let a = statements(&root.join("sqlite").join(&name).join(file));
            let b = statements(&root.join("postgres").join(&name).join(file));
            assert_eq!(
                a, b,
                "{name}/{file} differs between the backends beyond the id column type"
            );
        }
    }
}
