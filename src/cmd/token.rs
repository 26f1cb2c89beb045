//! `accord token create|list|revoke`: API tokens, managed directly in the
//! broker's database (whoever can reach the database is its administrator;
//! this is how the first token is made), or with `--broker-url` through a
//! running broker's `/tokens` with an admin token ([`api`]).

use accord_broker::auth::{Role, hash_secret, new_secret};
use accord_broker::db;
use accord_broker::names::TokenName;
use accord_broker::store::tokens;
use anyhow::{Context, bail};
use clap::{Args, Subcommand, ValueEnum};

use super::Outcome;
use super::serve::DEFAULT_DATABASE_URL;

#[path = "token_api.rs"]
mod api;

/// Manage the broker's API tokens (stored hashed; the secret is printed once).
#[derive(Debug, Args)]
pub struct TokenArgs {
    /// The broker's database: a SQLite file name (default `accord.db`) or a
    /// postgres:// URL, as given to `accord serve`. A SQLite file that does not
    /// exist is refused, not created.
    // (`--help` does not print the variable's value: it may hold a password)
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = DEFAULT_DATABASE_URL,
        global = true,
        hide_env_values = true
    )]
    database_url: String,
    /// Manage the tokens of this running broker through its `/tokens` API
    /// instead of its database (needs an admin token: --token).
    #[arg(long, value_name = "URL", global = true)]
    broker_url: Option<String>,
    /// With --broker-url: an admin token [env: ACCORD_BROKER_TOKEN, or PACT_BROKER_TOKEN].
    #[arg(long, value_name = "TOKEN", global = true, requires = "broker_url")]
    token: Option<String>,
    #[command(subcommand)]
    command: TokenCommand,
}

#[derive(Debug, Subcommand)]
pub(super) enum TokenCommand {
    /// Create a token and print its secret (once).
    Create {
        /// What it may do: read, write (publish, record deployments, verify) or admin.
        #[arg(long, value_enum)]
        role: RoleArg,
        /// A unique name (also the HTTP Basic user name for this token).
        #[arg(long)]
        name: String,
    },
    /// List tokens (names, roles, state; never secrets).
    List,
    /// Revoke a token by name.
    Revoke {
        /// The token's name.
        name: String,
    },
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(super) enum RoleArg {
    Read,
    Write,
    Admin,
}

impl From<RoleArg> for Role {
    fn from(r: RoleArg) -> Role {
        match r {
            RoleArg::Read => Role::Read,
            RoleArg::Write => Role::Write,
            RoleArg::Admin => Role::Admin,
        }
    }
}

/// Runs a token subcommand, on the broker's API with `--broker-url`, else
/// on its database.
pub fn run(args: TokenArgs) -> anyhow::Result<Outcome> {
    if let Some(url) = &args.broker_url {
        if database_url_on_command_line(&args.database_url) {
            bail!(
                "give either --broker-url (the broker's API) or --database-url (its database), not both"
            );
        }
        return api::run(url, args.token.clone(), args.command);
    }
    refuse_a_missing_sqlite_file(&args.database_url)?;
    let pool = db::connect(&args.database_url, 1).context("cannot open the database")?;
    let mut conn = pool.get().context("cannot open the database")?;
    db::run_migrations(&mut conn).context("migration failed")?;
    match args.command {
        TokenCommand::Create { role, name } => {
            if let Err(e) = TokenName::parse_token(&name) {
                bail!("--name {e}");
            }
            let secret = new_secret();
            let role = Role::from(role);
            match tokens::insert(&mut conn, &name, role.as_str(), &hash_secret(&secret)) {
                Err(e) if e.is_unique_violation() => bail!("a token named '{name}' already exists"),
                other => other.context("cannot store the token")?,
            };
            eprintln!(
                "created token '{name}' with role {}; this is the only time its secret is shown:",
                role.as_str()
            );
            println!("{secret}");
        }
        TokenCommand::List => {
            for t in tokens::list(&mut conn)? {
                let state = if t.revoked_at.is_some() {
                    "revoked"
                } else {
                    "active"
                };
                println!(
                    "{}\t{}\t{}\tcreated {}",
                    t.name,
                    t.role,
                    state,
                    t.created_at.and_utc().to_rfc3339()
                );
            }
        }
        TokenCommand::Revoke { name } => {
            if !tokens::revoke(&mut conn, &name)? {
                bail!("no active token named '{name}'");
            }
            println!("revoked token '{name}'");
        }
    }
    Ok(Outcome::Pass)
}

/// A token in a SQLite file that no broker uses is a token no broker
/// knows: `accord serve` creates the database, token commands only use it.
fn refuse_a_missing_sqlite_file(url: &str) -> anyhow::Result<()> {
    if db::Backend::of_url(url) != db::Backend::Sqlite {
        return Ok(());
    }
    let path = std::path::Path::new(db::sqlite_path(url));
    if path.as_os_str() == ":memory:" || path.exists() {
        return Ok(());
    }
    let shown = std::env::current_dir().map_or_else(|_| path.to_path_buf(), |d| d.join(path));
    bail!(
        "no broker database at {}: `accord serve` creates it; run this next to the broker's database, pass --database-url (or DATABASE_URL), or use a running broker's API with --broker-url URL --token ADMIN_TOKEN",
        shown.display()
    )
}

/// True when `--database-url` came from the command line: neither the
/// default nor `DATABASE_URL` (a broker host often has it set; it must not
/// make `--broker-url` fail).
fn database_url_on_command_line(url: &str) -> bool {
    url != DEFAULT_DATABASE_URL && std::env::var("DATABASE_URL").ok().as_deref() != Some(url)
}
