//! The 200 body of `POST /contracts/publish`: `notices` (and the older
//! `logs` with `deprecationWarning`, which pact-broker-cli requires),
//! `_embedded.pacticipant`/`version` and the `pb:` links.

use serde::Serialize;

use crate::hal::{BaseUrl, Link, SelfLink};
use crate::publishing::{Change, PublishedContract, RecordedVersion, VersionRequest};

/// The notices of a publication, in the order they happened.
fn notices(
    request: &VersionRequest,
    recorded: &RecordedVersion,
    published: &[PublishedContract],
) -> Vec<(&'static str, String)> {
    let (consumer, version) = (&recorded.pacticipant.name, &recorded.version.number);
    let mut what = Vec::new();
    if let Some(b) = &request.branch {
        what.push(format!("branch {b}"));
    }
    if !request.tags.is_empty() {
        let tags: Vec<&str> = request.tags.iter().map(|t| t.as_str()).collect();
        what.push(format!("tags {}", tags.join(", ")));
    }
    let verb = if recorded.created {
        "Created"
    } else {
        "Updated"
    };
    let mut text = format!("{verb} {consumer} version {version}");
    if !what.is_empty() {
        text.push_str(&format!(" with {}", what.join(" and ")));
    }
    let mut out = vec![("info", text)];
    for p in published {
        let provider = &p.provider.name;
        let text = match p.change {
            Change::Created => format!(
                "Pact successfully published for {consumer} version {version} and provider {provider}."
            ),
            Change::Unchanged => format!(
                "Pact successfully published for {consumer} version {version} and provider {provider} (the same content was published before)."
            ),
            Change::Merged => format!(
                "Pact successfully merged for {consumer} version {version} and provider {provider}."
            ),
        };
        out.push(("success", text));
    }
    if request.branch.is_none() {
        out.push(("warning", "No branch was given. Publish with a branch (--branch) so that consumer version selectors such as mainBranch find this version.".to_owned()));
    }
    out
}

/// The whole 200 body, written straight from its parts (no `Value`
/// tree: a publication is answered thousands of times a second).
pub fn response_body(
    base: &BaseUrl,
    request: &VersionRequest,
    recorded: &RecordedVersion,
    published: &[PublishedContract],
) -> Vec<u8> {
    let (consumer, version) = (&recorded.pacticipant.name, &recorded.version.number);
    let pacticipant_url = base.url(&["pacticipants", consumer]);
    let version_url = base.url(&["pacticipants", consumer, "versions", version]);
    let notices = notices(request, recorded, published);
    let body = Body {
        notices: notices
            .iter()
            .map(|(kind, text)| Notice { kind, text })
            .collect(),
        logs: notices
            .iter()
            .map(|(level, message)| Log {
                level,
                message,
                deprecation_warning: "Replaced by notices",
            })
            .collect(),
        embedded: Embedded {
            pacticipant: EmbeddedPacticipant {
                name: consumer,
                links: SelfLink::to(pacticipant_url.clone()),
            },
            version: EmbeddedVersion {
                number: version,
                build_url: recorded.version.build_url.as_deref(),
                links: SelfLink {
                    this: Link::new(version_url.clone())
                        .title("Version")
                        .name(version.clone()),
                },
            },
        },
        links: PublishLinks {
            pacticipant: Link::new(pacticipant_url)
                .title("Pacticipant")
                .name(consumer.clone()),
            version: Link::new(version_url)
                .title("Pacticipant version")
                .name(version.clone()),
            tags: tag_links(base, request, consumer, version),
            contracts: contract_links(base, published, consumer, version),
        },
    };
    serde_json::to_vec(&body).unwrap_or_default()
}

fn tag_links(base: &BaseUrl, request: &VersionRequest, consumer: &str, version: &str) -> Vec<Link> {
    request
        .tags
        .iter()
        .map(|t| {
            Link::new(base.url(&[
                "pacticipants",
                consumer,
                "versions",
                version,
                "tags",
                t.as_str(),
            ]))
            .title("Tag")
            .name(t.as_str())
        })
        .collect()
}

fn contract_links(
    base: &BaseUrl,
    published: &[PublishedContract],
    consumer: &str,
    version: &str,
) -> Vec<Link> {
    published
        .iter()
        .map(|p| {
            let provider = &p.provider.name;
            Link::new(base.url(&[
                "pacts", "provider", provider, "consumer", consumer, "version", version,
            ]))
            .title("Pact")
            .name(format!(
                "Pact between {consumer} ({version}) and {provider}"
            ))
        })
        .collect()
}

#[derive(Serialize)]
struct Body<'a> {
    notices: Vec<Notice<'a>>,
    logs: Vec<Log<'a>>,
    #[serde(rename = "_embedded")]
    embedded: Embedded<'a>,
    #[serde(rename = "_links")]
    links: PublishLinks,
}

#[derive(Serialize)]
struct Notice<'a> {
    #[serde(rename = "type")]
    kind: &'a str,
    text: &'a str,
}

#[derive(Serialize)]
struct Log<'a> {
    level: &'a str,
    message: &'a str,
    #[serde(rename = "deprecationWarning")]
    deprecation_warning: &'static str,
}

#[derive(Serialize)]
struct Embedded<'a> {
    pacticipant: EmbeddedPacticipant<'a>,
    version: EmbeddedVersion<'a>,
}

#[derive(Serialize)]
struct EmbeddedPacticipant<'a> {
    name: &'a str,
    #[serde(rename = "_links")]
    links: SelfLink,
}

#[derive(Serialize)]
struct EmbeddedVersion<'a> {
    number: &'a str,
    #[serde(rename = "buildUrl")]
    build_url: Option<&'a str>,
    #[serde(rename = "_links")]
    links: SelfLink,
}

#[derive(Serialize)]
struct PublishLinks {
    #[serde(rename = "pb:pacticipant")]
    pacticipant: Link,
    #[serde(rename = "pb:pacticipant-version")]
    version: Link,
    #[serde(rename = "pb:pacticipant-version-tags")]
    tags: Vec<Link>,
    #[serde(rename = "pb:contracts")]
    contracts: Vec<Link>,
}

#[cfg(test)]
#[path = "response_tests.rs"]
mod tests;
