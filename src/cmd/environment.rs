//! `accord environment create|list`: the environments deployments and
//! releases are recorded to (found from the broker's `pb:environments`
//! index relation, as the Pact CLI does).

use clap::{Args, Subcommand};
use serde_json::{Map, Value, json};

use super::Outcome;
use crate::client::{BrokerArgs, BrokerClient, link, print_list, text_field};

/// Create or list the environments of a broker (production, staging …).
#[derive(Debug, Args)]
pub struct EnvironmentArgs {
    #[command(flatten)]
    broker: BrokerArgs,
    #[command(subcommand)]
    command: EnvironmentCommand,
}

#[derive(Debug, Subcommand)]
enum EnvironmentCommand {
    /// Create an environment; prints its UUID.
    #[command(
        after_help = "Example:\n  accord environment create --name production --display-name Production --production --contact-name Ops --contact-email ops@example.com"
    )]
    Create {
        /// Its name: what record-deployment, record-release and
        /// can-i-deploy --to-environment refer to (no spaces).
        #[arg(long)]
        name: String,
        /// A name for people to read.
        #[arg(long)]
        display_name: Option<String>,
        /// Mark it as a production environment.
        #[arg(long)]
        production: bool,
        /// Who to contact about it (a person or team).
        #[arg(long, requires = "contact_email")]
        contact_name: Option<String>,
        /// The contact's e-mail address.
        #[arg(long, requires = "contact_name")]
        contact_email: Option<String>,
        /// Mark it for an admission stage: recording a deployment of an
        /// admitted provider version here moves it to CANARY or ACTIVE.
        #[arg(long, value_parser = ["canary", "active"])]
        admission_stage: Option<String>,
    },
    /// List the environments (UUID, name, display name, production, admission stage).
    List {
        /// Print the broker's JSON instead of a table.
        #[arg(long, value_parser = ["text", "json"], default_value = "text")]
        output: String,
    },
}

/// The `pb:environments` href from the index (Pact brokers before 2.80 have none).
pub(crate) fn environments_href(client: &BrokerClient) -> anyhow::Result<String> {
    let index = client.index()?.body;
    link(&index, "pb:environments", None)
        .map(str::to_owned)
        .ok_or_else(|| {
            anyhow::anyhow!(
                "the broker does not support environments (no pb:environments relation)"
            )
        })
}

/// Runs an environment subcommand.
pub fn run(args: EnvironmentArgs) -> anyhow::Result<Outcome> {
    let client = BrokerClient::from_args(&args.broker)?;
    let href = environments_href(&client)?;
    match args.command {
        EnvironmentCommand::Create {
            name,
            display_name,
            production,
            contact_name,
            contact_email,
            admission_stage,
        } => {
            let mut body =
                create_body(&name, display_name, production, contact_name, contact_email);
            if let Some(stage) = admission_stage {
                body["admissionStage"] = json!(stage);
            }
            let uuid = create(&client, &href, &body)?;
            println!("Created environment {name} with UUID {uuid}");
        }
        EnvironmentCommand::List { output } => {
            let body = client.get(&href)?;
            print_list(
                &body,
                &output,
                "environments",
                "UUID\tNAME\tDISPLAY NAME\tPRODUCTION\tSTAGE",
                |e| {
                    vec![
                        text_field(e, "uuid"),
                        text_field(e, "name"),
                        text_field(e, "displayName"),
                        e["production"].as_bool().unwrap_or(false).to_string(),
                        e["admissionStage"].as_str().unwrap_or("-").to_owned(),
                    ]
                },
            )?;
        }
    }
    Ok(Outcome::Pass)
}

/// Creates the environment `body` describes (see [`create_body`]) at
/// `href` (see [`environments_href`]); its UUID.
pub(crate) fn create(client: &BrokerClient, href: &str, body: &Value) -> anyhow::Result<String> {
    let created = client.post(href, body)?;
    Ok(created["uuid"].as_str().unwrap_or("(none)").to_owned())
}

/// The body of `POST /environments` (contacts only with both name and email).
pub(crate) fn create_body(
    name: &str,
    display_name: Option<String>,
    production: bool,
    contact_name: Option<String>,
    contact_email: Option<String>,
) -> Value {
    let mut body = Map::new();
    body.insert("name".into(), json!(name));
    if let Some(d) = display_name {
        body.insert("displayName".into(), json!(d));
    }
    body.insert("production".into(), json!(production));
    if let (Some(n), Some(e)) = (contact_name, contact_email) {
        body.insert(
            "contacts".into(),
            json!([{ "name": n, "details": { "emailAddress": e } }]),
        );
    }
    Value::Object(body)
}
