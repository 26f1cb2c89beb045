//! `accord token … --broker-url URL`: the same commands through a running
//! broker's `/tokens` (admin role), for a broker whose database is out of
//! reach (another host, a container). The output is the database mode's.

use accord_broker::auth::Role;
use anyhow::bail;
use reqwest::Method;
use serde_json::{Value, json};

use super::TokenCommand;
use crate::client::{BrokerArgs, BrokerClient, describe_error, segment};
use crate::cmd::Outcome;

/// Runs `command` against the broker at `url`, authenticated by `token`
/// (or `ACCORD_BROKER_TOKEN` / `PACT_BROKER_TOKEN`).
pub(super) fn run(
    url: &str,
    token: Option<String>,
    command: TokenCommand,
) -> anyhow::Result<Outcome> {
    let client = BrokerClient::from_args(&BrokerArgs {
        broker_url: Some(url.to_owned()),
        token,
        broker_username: None,
        broker_password: None,
    })?;
    match command {
        TokenCommand::Create { role, name } => create(&client, Role::from(role), &name),
        TokenCommand::List => list(&client),
        TokenCommand::Revoke { name } => revoke(&client, &name),
    }?;
    Ok(Outcome::Pass)
}

fn create(client: &BrokerClient, role: Role, name: &str) -> anyhow::Result<()> {
    let body = json!({ "name": name, "role": role.as_str() });
    let created = client.post("/tokens", &body)?;
    let Some(secret) = created.get("token").and_then(Value::as_str) else {
        bail!("the broker created token '{name}' but sent no secret: revoke it and try again");
    };
    eprintln!(
        "created token '{name}' with role {}; this is the only time its secret is shown:",
        role.as_str()
    );
    println!("{secret}");
    Ok(())
}

fn list(client: &BrokerClient) -> anyhow::Result<()> {
    let page = client.get("/tokens")?;
    let empty = Vec::new();
    let all = page["_embedded"]["tokens"].as_array().unwrap_or(&empty);
    for t in all {
        let text = |key: &str| t[key].as_str().unwrap_or("").to_owned();
        let state = if t["active"].as_bool().unwrap_or(false) {
            "active"
        } else {
            "revoked"
        };
        println!(
            "{}\t{}\t{}\tcreated {}",
            text("name"),
            text("role"),
            state,
            text("createdAt")
        );
    }
    Ok(())
}

fn revoke(client: &BrokerClient, name: &str) -> anyhow::Result<()> {
    let path = format!("/tokens/{}", segment(name));
    let reply = client.send(Method::DELETE, &path, None)?;
    match reply.status {
        200..=299 => println!("revoked token '{name}'"),
        // Accord's own 404 is a problem with a detail; a bare 404 is a
        // broker without `/tokens` (a Pact Broker)
        404 if reply.body.get("detail").is_some() => bail!("no active token named '{name}'"),
        _ => bail!(
            "DELETE {} failed: {}",
            client.url(&path),
            describe_error(&reply)
        ),
    }
    Ok(())
}
