//! `accord pacticipant create|list`: manage pacticipants on a broker.

use clap::{Args, Subcommand};
use serde_json::{Map, Value, json};

use super::Outcome;
use crate::client::{BrokerArgs, BrokerClient, link, print_list, segment, text_field};

/// Create, update or list pacticipants (consumers and providers) on a broker.
#[derive(Debug, Args)]
pub struct PacticipantArgs {
    #[command(flatten)]
    broker: BrokerArgs,
    #[command(subcommand)]
    command: PacticipantCommand,
}

#[derive(Debug, Subcommand)]
enum PacticipantCommand {
    /// Create a pacticipant, or update the attributes of an existing one.
    Create {
        /// Its name.
        #[arg(long)]
        name: String,
        /// A display name.
        #[arg(long)]
        display_name: Option<String>,
        /// Its main branch (used by `mainBranch` selectors).
        #[arg(long)]
        main_branch: Option<String>,
        /// Its repository URL.
        #[arg(long)]
        repository_url: Option<String>,
    },
    /// List pacticipants.
    List {
        /// Print the broker's JSON instead of a table.
        #[arg(long, value_parser = ["text", "json"], default_value = "text")]
        output: String,
    },
}

/// Runs a pacticipant subcommand.
pub fn run(args: PacticipantArgs) -> anyhow::Result<Outcome> {
    let client = BrokerClient::from_args(&args.broker)?;
    match args.command {
        PacticipantCommand::Create {
            name,
            display_name,
            main_branch,
            repository_url,
        } => {
            let mut body = Map::new();
            body.insert("name".into(), json!(name));
            for (key, value) in [
                ("displayName", display_name),
                ("mainBranch", main_branch),
                ("repositoryUrl", repository_url),
            ] {
                if let Some(v) = value {
                    body.insert(key.into(), json!(v));
                }
            }
            create_or_update(&client, &name, &Value::Object(body))?;
        }
        PacticipantCommand::List { output } => {
            let body = client.get("/pacticipants")?;
            print_list(
                &body,
                &output,
                "pacticipants",
                "NAME\tMAIN BRANCH\tREPOSITORY",
                |p| {
                    ["name", "mainBranch", "repositoryUrl"]
                        .map(|k| text_field(p, k))
                        .to_vec()
                },
            )?;
        }
    }
    Ok(Outcome::Pass)
}

/// Posts a new pacticipant, or patches the one already called `name`.
fn create_or_update(client: &BrokerClient, name: &str, body: &Value) -> anyhow::Result<()> {
    let path = format!("/pacticipants/{}", segment(name));
    let existing = client.send(reqwest::Method::GET, &path, None)?;
    if existing.status == 404 {
        client.post("/pacticipants", body)?;
        println!("created pacticipant {name}");
    } else {
        let href = link(&existing.body, "self", None)
            .unwrap_or(&path)
            .to_owned();
        client.expect_ok(reqwest::Method::PATCH, &href, Some(body))?;
        println!("updated pacticipant {name}");
    }
    Ok(())
}
