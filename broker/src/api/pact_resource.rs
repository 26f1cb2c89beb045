//! The pact resource: the stored contract JSON with `createdAt` and the
//! `_links` Pact clients follow (`pb:publish-verification-results` keeps
//! the metadata segment the pact was fetched with), and the links and
//! titles the pact collections share.

use serde_json::{Value, json};

use crate::error::BrokerError;
use crate::hal::{BaseUrl, Link, Links};
use crate::store::StoreError;
use crate::store::pacts::PublishedPact;

/// A pact with the names of its consumer and provider.
#[derive(Debug, Clone)]
pub struct NamedPact {
    pub consumer: String,
    pub provider: String,
    pub pact: PublishedPact,
}

impl NamedPact {
    /// The consumer version number.
    pub fn version(&self) -> &str {
        &self.pact.consumer_version.number
    }

    /// The content sha.
    pub fn sha(&self) -> &str {
        &self.pact.content.sha
    }

    /// `Pact between C (V) and P`.
    pub fn title(&self) -> String {
        format!(
            "Pact between {} ({}) and {}",
            self.consumer,
            self.version(),
            self.provider
        )
    }

    /// `/pacts/provider/P/consumer/C/…rest`.
    pub fn pair_url(&self, base: &BaseUrl, rest: &[&str]) -> String {
        pair_url(base, &self.provider, &self.consumer, rest)
    }

    /// The pact of this consumer version (`…/version/V`).
    pub fn version_url(&self, base: &BaseUrl) -> String {
        self.pair_url(base, &["version", self.version()])
    }

    /// The pact by content sha, with the metadata segment if given.
    pub fn sha_url(&self, base: &BaseUrl, metadata: Option<&str>) -> String {
        match metadata {
            Some(m) => self.pair_url(base, &["pact-version", self.sha(), "metadata", m]),
            None => self.pair_url(base, &["pact-version", self.sha()]),
        }
    }

    /// A link to this pact by consumer version, titled and named as Pact's.
    pub fn link(&self, base: &BaseUrl) -> Link {
        Link::new(self.version_url(base))
            .title(self.title())
            .name(self.consumer.clone())
    }
}

/// `/pacts/provider/P/consumer/C/…rest`, segments encoded.
pub fn pair_url(base: &BaseUrl, provider: &str, consumer: &str, rest: &[&str]) -> String {
    let mut segments = vec!["pacts", "provider", provider, "consumer", consumer];
    segments.extend_from_slice(rest);
    base.url(&segments)
}

/// How a pact was addressed: by consumer version (or "latest"), or by
/// content sha with an optional `/metadata/{m}` segment.
#[derive(Debug, Clone, Copy)]
pub enum Via<'a> {
    Version,
    Sha { metadata: Option<&'a str> },
}

/// The pact resource. Fetched by sha, `self` and the verification-results
/// link keep the metadata segment it was fetched with.
pub fn pact_json(base: &BaseUrl, named: &NamedPact, via: Via<'_>) -> Result<Value, BrokerError> {
    let mut document: Value =
        serde_json::from_str(&named.pact.content.content).map_err(|source| {
            BrokerError::from(StoreError::CorruptJson {
                what: "pact content",
                source,
            })
        })?;
    if let Value::Object(map) = &mut document {
        map.insert(
            "createdAt".into(),
            json!(crate::api::time(named.pact.publication.created_at)),
        );
        map.insert("_links".into(), pact_links(base, named, via).into_value());
    }
    Ok(document)
}

/// The links of the pact resource.
fn pact_links(base: &BaseUrl, named: &NamedPact, via: Via<'_>) -> Links {
    let metadata = match via {
        Via::Version => None,
        Via::Sha { metadata } => metadata,
    };
    let self_url = match via {
        Via::Version => named.version_url(base),
        Via::Sha { metadata } => named.sha_url(base, metadata),
    };
    let sha_url = named.sha_url(base, metadata);
    let consumer_url = base.url(&["pacticipants", &named.consumer]);
    Links::new()
        .add(
            "self",
            Link::new(self_url).title("Pact").name(named.title()),
        )
        .add(
            "pb:consumer",
            Link::new(consumer_url.clone())
                .title("Consumer")
                .name(named.consumer.clone()),
        )
        .add(
            "pb:consumer-version",
            Link::new(base.url(&["pacticipants", &named.consumer, "versions", named.version()]))
                .title("Consumer version")
                .name(named.version().to_owned()),
        )
        .add(
            "pb:provider",
            Link::new(base.url(&["pacticipants", &named.provider]))
                .title("Provider")
                .name(named.provider.clone()),
        )
        .add(
            "pb:pact-version",
            Link::new(named.sha_url(base, None))
                .title("Pact content version permalink")
                .name(named.sha().to_owned()),
        )
        .add(
            "pb:latest-pact-version",
            Link::new(named.pair_url(base, &["latest"])).title("Latest version of this pact"),
        )
        .add(
            "pb:all-pact-versions",
            Link::new(named.pair_url(base, &["versions"])).title("All versions of this pact"),
        )
        .add(
            "pb:latest-untagged-pact-version",
            Link::new(named.pair_url(base, &["latest-untagged"]))
                .title("Latest untagged version of this pact"),
        )
        .add(
            "pb:latest-tagged-pact-version",
            Link::new(format!("{}/{{tag}}", named.pair_url(base, &["latest"])))
                .title("Latest tagged version of this pact")
                .templated(),
        )
        .add(
            "pb:publish-verification-results",
            Link::new(format!("{sha_url}/verification-results"))
                .title("Publish verification results"),
        )
        .add(
            "pb:latest-verification-results",
            Link::new(format!(
                "{}/verification-results/latest",
                named.sha_url(base, None)
            ))
            .title("Latest verification results"),
        )
        .add(
            "pb:tag-version",
            Link::new(format!(
                "{}/tags/{{tag}}",
                base.url(&["pacticipants", &named.consumer, "versions", named.version()])
            ))
            .title("Tag consumer version")
            .templated(),
        )
}
