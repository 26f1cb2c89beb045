//! The consumers' CI builds: each consumer version publishes its
//! contracts, compiled from the demo's specs, through `accord publish`'s
//! code (files for the same provider merged, one `POST` per version).

use std::path::Path;

use anyhow::{Context, bail};

use super::scenario::{self, CONSUMERS, ConsumerVersion};
use crate::client::{BrokerClient, describe_error};
use crate::cmd::publish::{self, ContractFile, Release};

/// Publishes every consumer version's contracts; a line for each.
pub fn publish_all(client: &BrokerClient) -> anyhow::Result<Vec<String>> {
    let href = publish::publish_href(client)?;
    CONSUMERS
        .iter()
        .map(|consumer| publish_version(client, &href, consumer))
        .collect()
}

/// The contracts of `consumer`, and the interactions per provider.
type Compiled = (Vec<ContractFile>, Vec<(String, usize)>);

/// Compiles every spec of `consumer`.
fn compile_all(consumer: &ConsumerVersion) -> anyhow::Result<Compiled> {
    let mut files = Vec::new();
    let mut counts: Vec<(String, usize)> = Vec::new();
    for spec in consumer.specs {
        let (document, total) = scenario::compile(spec)?;
        let file = ContractFile::new(Path::new(&scenario::origin(spec)), document)?;
        match counts.iter_mut().find(|(p, _)| p == file.provider()) {
            Some((_, n)) => *n += total,
            None => counts.push((file.provider().to_owned(), total)),
        }
        files.push(file);
    }
    Ok((files, counts))
}

/// Publishes one consumer version: `name version (branch): provider (N
/// interactions), …`.
fn publish_version(
    client: &BrokerClient,
    href: &str,
    consumer: &ConsumerVersion,
) -> anyhow::Result<String> {
    let (files, counts) = compile_all(consumer)?;
    let release = Release {
        version: consumer.version.to_owned(),
        branch: Some(consumer.branch.to_owned()),
        ..Release::default()
    };
    for (name, files) in publish::group(files)? {
        let reply = publish::publish_group(client, href, &name, &files, &release)
            .with_context(|| format!("cannot publish the contracts of {name}"))?;
        if !(200..300).contains(&reply.status) {
            bail!(
                "publishing the contracts of {name} {} failed: {}",
                consumer.version,
                describe_error(&reply)
            );
        }
    }
    let pacts: Vec<String> = counts
        .iter()
        .map(|(provider, n)| {
            let s = if *n == 1 { "" } else { "s" };
            format!("{provider} ({n} interaction{s})")
        })
        .collect();
    Ok(format!(
        "{} {} ({}): {}",
        consumer.name,
        consumer.version,
        consumer.branch,
        pacts.join(", ")
    ))
}
