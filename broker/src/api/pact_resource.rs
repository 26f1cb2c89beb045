//! The pact resource: the stored contract JSON — whole for Accord's client,
//! the Pact view for everyone else (`audience.rs`) — with `createdAt` and
//! the `_links` Pact clients follow (`pb:publish-verification-results`
//! keeps the metadata segment the pact was fetched with, marked when the
//! view served leaves Accord-only parts out), and the links and titles the
//! pact collections share.

use actix_web::HttpResponse;
use actix_web::http::header;
use serde_json::{Value, json};

use crate::audience::{Audience, VARY_BY_CLIENT, VIEW_HEADER};
use crate::contract::pact_view::pact_view;
use crate::error::BrokerError;
use crate::hal::{self, BaseUrl, Link, Links};
use crate::metadata::PactMetadata;
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

/// The pact resource as `audience` is served it. Fetched by sha, `self`
/// keeps the metadata segment it was fetched with; so does the
/// verification-results link, marked as the Pact view's when the view
/// leaves Accord-only parts out (a 400 naming `metadata` when that segment
/// cannot be read, as publishing through it would be).
pub fn pact_json(
    base: &BaseUrl,
    named: &NamedPact,
    via: Via<'_>,
    audience: Audience,
) -> Result<Value, BrokerError> {
    let stored: Value = serde_json::from_str(&named.pact.content.content).map_err(|source| {
        BrokerError::from(StoreError::CorruptJson {
            what: "pact content",
            source,
        })
    })?;
    let (mut document, partial) = match audience {
        Audience::Accord => (stored, false),
        Audience::Pact => {
            let view = pact_view(stored);
            let partial = !view.accord_only.is_empty();
            (view.document, partial)
        }
    };
    let fetched_with = match via {
        Via::Version => None,
        Via::Sha { metadata } => metadata,
    };
    let publish_with = publish_metadata(fetched_with, partial)?;
    if let Value::Object(map) = &mut document {
        map.insert(
            "createdAt".into(),
            json!(crate::api::time(named.pact.publication.created_at)),
        );
        let links = pact_links(base, named, via, publish_with.as_deref());
        map.insert("_links".into(), links.into_value());
    }
    Ok(document)
}

/// 200 (or `status`) with the pact document, saying which view it is.
pub fn pact_response(
    status: actix_web::http::StatusCode,
    body: &Value,
    audience: Audience,
) -> HttpResponse {
    let mut response = hal::respond(status, body);
    let headers = response.headers_mut();
    headers.insert(
        header::VARY,
        header::HeaderValue::from_static(VARY_BY_CLIENT),
    );
    headers.insert(
        header::HeaderName::from_static(VIEW_HEADER),
        header::HeaderValue::from_static(audience.view_name()),
    );
    response
}

/// The metadata segment of `pb:publish-verification-results`: the one the
/// pact was fetched with, marked as the Pact view's when the document
/// served leaves Accord-only parts out, unmarked otherwise.
fn publish_metadata(fetched: Option<&str>, partial: bool) -> Result<Option<String>, BrokerError> {
    let decode = |segment: &str| {
        PactMetadata::decode(segment).map_err(|e| BrokerError::bad_field("metadata", e.to_string()))
    };
    if partial {
        let mut m = fetched.map(decode).transpose()?.unwrap_or_default();
        m.pact_view = true;
        return Ok(Some(m.encode()));
    }
    Ok(match fetched {
        Some(segment) => match PactMetadata::decode(segment) {
            Ok(mut m) if m.pact_view => {
                m.pact_view = false;
                (m != PactMetadata::default()).then(|| m.encode())
            }
            _ => Some(segment.to_owned()),
        },
        None => None,
    })
}

/// The links of the pact resource; results are published with metadata
/// `publish_with`.
fn pact_links(
    base: &BaseUrl,
    named: &NamedPact,
    via: Via<'_>,
    publish_with: Option<&str>,
) -> Links {
    let self_url = match via {
        Via::Version => named.version_url(base),
        Via::Sha { metadata } => named.sha_url(base, metadata),
    };
    let sha_url = named.sha_url(base, publish_with);
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
            "pb:pact-webhooks",
            Link::new(named.pair_url(base, &["webhooks"]))
                .title("Webhooks for the pact between this consumer and provider"),
        )
        .add(
            "pb:consumer-webhooks",
            Link::new(base.url(&["webhooks", "consumer", &named.consumer]))
                .title("Webhooks for all pacts with this consumer"),
        )
        .add(
            "pb:triggered-webhooks",
            Link::new(format!("{}/triggered-webhooks", named.version_url(base)))
                .title("Webhooks triggered by the publication of this pact"),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(segment: Option<String>) -> PactMetadata {
        PactMetadata::decode(&segment.expect("a segment")).expect("decodes")
    }

    #[test]
    fn the_pact_views_results_link_is_marked_and_keeps_what_it_was_fetched_with() {
        let fetched = PactMetadata {
            consumer_version_numbers: vec!["1.0.0".into()],
            pending: true,
            ..PactMetadata::default()
        };
        let marked = decoded(publish_metadata(Some(&fetched.encode()), true).expect("ok"));
        assert!(marked.pact_view && marked.pending);
        assert_eq!(marked.consumer_version_numbers, ["1.0.0"]);
        let bare = decoded(publish_metadata(None, true).expect("ok"));
        assert!(bare.pact_view);
        assert!(
            publish_metadata(Some("!!"), true).is_err(),
            "unreadable: 400"
        );
    }

    #[test]
    fn the_whole_contracts_results_link_is_never_marked() {
        assert_eq!(publish_metadata(None, false).expect("ok"), None);
        let only_marked = PactMetadata {
            pact_view: true,
            ..PactMetadata::default()
        };
        assert_eq!(
            publish_metadata(Some(&only_marked.encode()), false).expect("ok"),
            None
        );
        let with_more = PactMetadata {
            wip: true,
            ..only_marked
        };
        let unmarked = decoded(publish_metadata(Some(&with_more.encode()), false).expect("ok"));
        assert!(unmarked.wip && !unmarked.pact_view);
        // what it cannot read is passed on: publishing through it says why
        assert_eq!(
            publish_metadata(Some("!!"), false).expect("ok").as_deref(),
            Some("!!")
        );
    }
}
