//! The body written from its parts is the bytes the `Value` writer it
//! replaced wrote (kept here as the oracle), for every shape of answer;
//! and the content's base64 read with or without line breaks.

use serde_json::{Value, json};

use super::*;
use crate::hal::Links;

/// The writer `response_body` replaced (its `Value` tree).
fn response_json(
    base: &BaseUrl,
    request: &VersionRequest,
    recorded: &RecordedVersion,
    published: &[PublishedContract],
) -> Value {
    let (consumer, version) = (&recorded.pacticipant.name, &recorded.version.number);
    let pacticipant_url = base.url(&["pacticipants", consumer]);
    let version_url = base.url(&["pacticipants", consumer, "versions", version]);
    let notices = notices(request, recorded, published);
    // the links themselves are built as before by the same helpers: what
    // is compared here is the writer
    let tag_links = tag_links(base, request, consumer, version);
    let contract_links = contract_links(base, published, consumer, version);
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

fn pacticipant(id: i64, name: &str) -> crate::store::pacticipants::Pacticipant {
    crate::store::pacticipants::Pacticipant {
        id,
        name: name.into(),
        display_name: None,
        repository_url: None,
        repository_name: None,
        repository_namespace: None,
        main_branch: None,
        created_at: chrono::NaiveDateTime::default(),
        updated_at: chrono::NaiveDateTime::default(),
    }
}

fn published(provider: &str, change: Change) -> PublishedContract {
    PublishedContract {
        provider: pacticipant(2, provider),
        publication: crate::store::pacts::Publication {
            id: 1,
            consumer_version_id: 1,
            consumer_id: 1,
            provider_id: 2,
            pact_content_id: 1,
            revision: 1,
            created_at: chrono::NaiveDateTime::default(),
            updated_at: chrono::NaiveDateTime::default(),
        },
        sha: "abc".into(),
        content: None,
        change,
    }
}

/// One answer's inputs: consumer, version, branch, tags, build URL,
/// whether the version was created, and the publications.
struct Shape(
    &'static str,
    &'static str,
    Option<&'static str>,
    &'static [&'static str],
    Option<&'static str>,
    bool,
    Vec<PublishedContract>,
);

#[test]
fn the_body_is_the_bytes_the_value_writer_wrote() {
    use crate::names::{BranchName, PacticipantName, TagName, VersionNumber};
    let base = BaseUrl("http://broker.example/x".into());
    let shapes = [
        Shape(
            "web",
            "1.0.0",
            Some("main"),
            &["prod", "a b"],
            Some("https://ci/1"),
            true,
            vec![
                published("items", Change::Created),
                published("orders", Change::Merged),
            ],
        ),
        Shape(
            "web app",
            "2/ü",
            None,
            &[],
            None,
            false,
            vec![published("items", Change::Unchanged)],
        ),
        Shape("web", "3", Some("feat/x"), &[], None, true, vec![]),
        Shape(
            "a\"b",
            "4",
            None,
            &["t\\"],
            Some("q\"u"),
            false,
            vec![published("p\"q", Change::Created)],
        ),
    ];
    for Shape(consumer, number, branch, tags, build_url, created, published) in shapes {
        let request = VersionRequest {
            pacticipant: PacticipantName::parse(consumer).expect("name"),
            number: VersionNumber::parse(number).expect("number"),
            branch: branch.map(|b| BranchName::parse(b).expect("branch")),
            tags: tags
                .iter()
                .map(|t| TagName::parse(t).expect("tag"))
                .collect(),
            build_url: build_url.map(str::to_owned),
        };
        let recorded = RecordedVersion {
            pacticipant: pacticipant(1, consumer),
            version: crate::store::versions::Version {
                id: 1,
                pacticipant_id: 1,
                number: number.into(),
                build_url: build_url.map(str::to_owned),
                created_at: chrono::NaiveDateTime::default(),
            },
            created,
            provider: None,
            unhooked_provider: None,
        };
        let old = response_json(&base, &request, &recorded, &published).to_string();
        let new = response_body(&base, &request, &recorded, &published);
        assert_eq!(
            String::from_utf8(new).expect("UTF-8"),
            old,
            "{consumer} {number}"
        );
    }
}

#[test]
fn wrapped_base64_content_decodes_as_the_unwrapped_and_bad_base64_is_named() {
    use super::super::{Problems, decode_content};
    use base64::Engine;
    let doc = json!({"consumer": {"name": "ü"}, "provider": {"name": "p"}});
    let encoded = base64::engine::general_purpose::STANDARD.encode(doc.to_string());
    let wrapped: String = encoded
        .as_bytes()
        .chunks(7)
        .map(|c| format!("{}\r\n \t", std::str::from_utf8(c).expect("ASCII")))
        .collect();
    for text in [encoded.as_str(), wrapped.as_str()] {
        let mut problems = Problems(Vec::new());
        assert_eq!(
            decode_content("content", text, &mut problems),
            Some(doc.clone())
        );
        assert!(problems.0.is_empty());
    }
    for bad in ["ü", "abc$", "a b c"] {
        let mut problems = Problems(Vec::new());
        assert_eq!(decode_content("content", bad, &mut problems), None);
        let said = format!("{:?}", problems.0);
        assert!(said.contains("is not valid base64"), "{bad}: {said}");
    }
}
