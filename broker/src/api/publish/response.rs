//! The 200 body of `POST /contracts/publish`: `notices` (and the older
//! `logs` with `deprecationWarning`, which pact-broker-cli requires),
//! `_embedded.pacticipant`/`version` and the `pb:` links.

use serde_json::{Value, json};

use crate::hal::{BaseUrl, Link, Links};
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

/// The whole 200 body.
pub fn response_json(
    base: &BaseUrl,
    request: &VersionRequest,
    recorded: &RecordedVersion,
    published: &[PublishedContract],
) -> Value {
    let (consumer, version) = (&recorded.pacticipant.name, &recorded.version.number);
    let pacticipant_url = base.url(&["pacticipants", consumer]);
    let version_url = base.url(&["pacticipants", consumer, "versions", version]);
    let notices = notices(request, recorded, published);
    let tag_links: Vec<Link> = request
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
        .collect();
    let contract_links: Vec<Link> = published
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
        .collect();
    let links = Links::new()
        .add(
            "pb:pacticipant",
            Link::new(pacticipant_url.clone())
                .title("Pacticipant")
                .name(consumer.clone()),
        )
        .add(
            "pb:pacticipant-version",
            Link::new(version_url.clone())
                .title("Pacticipant version")
                .name(version.clone()),
        )
        .add_array("pb:pacticipant-version-tags", tag_links)
        .add_array("pb:contracts", contract_links);
    json!({
        "notices": notices.iter().map(|(t, text)| json!({"type": t, "text": text})).collect::<Vec<_>>(),
        "logs": notices.iter().map(|(t, text)| json!({"level": t, "message": text, "deprecationWarning": "Replaced by notices"})).collect::<Vec<_>>(),
        "_embedded": {
            "pacticipant": { "name": consumer, "_links": { "self": { "href": pacticipant_url } } },
            "version": {
                "number": version,
                "buildUrl": recorded.version.build_url,
                "_links": { "self": Link::new(version_url).title("Version").name(version.clone()).to_value() },
            },
        },
        "_links": links.into_value(),
    })
}
