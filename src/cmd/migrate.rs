//! `accord migrate`: apply the embedded migrations and stop.

use anyhow::Context;
use clap::Args;

use super::Outcome;
use super::serve::DEFAULT_DATABASE_URL;

/// Apply the broker's database migrations (`accord serve` also does this at start).
#[derive(Debug, Args)]
pub struct MigrateArgs {
    /// Database: a SQLite file name (default `accord.db`) or a postgres:// URL.
    // (`--help` does not print the variable's value: it may hold a password)
    #[arg(long, env = "DATABASE_URL", default_value = DEFAULT_DATABASE_URL, hide_env_values = true)]
    database_url: String,
}

/// Runs the migrations and prints what it applied.
pub fn run(args: MigrateArgs) -> anyhow::Result<Outcome> {
    let backend = accord_broker::db::Backend::of_url(&args.database_url);
    let pool =
        accord_broker::db::connect(&args.database_url, 1).context("cannot open the database")?;
    let mut conn = pool.get().context("cannot open the database")?;
    let applied = accord_broker::db::run_migrations(&mut conn).context("migration failed")?;
    if applied.is_empty() {
        println!("{}: the schema is up to date", backend.name());
    } else {
        for version in &applied {
            println!("{}: applied {version}", backend.name());
        }
    }
    Ok(Outcome::Pass)
}
