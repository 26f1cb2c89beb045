//! `/integrations` lists consumer/provider pairs with a contract; `/metrics`
//! counts what the broker holds. Publications are seeded through the store
//! (publishing over HTTP is tested elsewhere).

use accord_broker::names::{PacticipantName, VersionNumber};
use accord_broker::store::{pacticipants, pacts, versions};
use serde_json::json;

use crate::support::{TestApp, each_backend};

fn publish(app: &TestApp, consumer: &str, version: &str, provider: &str, sha: &str) {
    let pool = accord_broker::db::connect(&app.database.url, 1).expect("pool");
    let mut conn = pool.get().expect("connection");
    let name = |n: &str| PacticipantName::parse(n).expect("name");
    let c = pacticipants::find_or_create(&mut conn, &name(consumer)).expect("consumer");
    let p = pacticipants::find_or_create(&mut conn, &name(provider)).expect("provider");
    let number = VersionNumber::parse(version).expect("number");
    let v = versions::find_or_create(&mut conn, c.id, &number).expect("version");
    let content = pacts::find_or_insert_content(
        &mut conn,
        &pacts::NewContent {
            sha,
            consumer_id: c.id,
            provider_id: p.id,
            content: "{}",
            interactions_count: 0,
        },
    )
    .expect("content");
    pacts::publish(&mut conn, v.id, c.id, p.id, content.id).expect("publication");
}

#[test]
fn integrations_are_the_pairs_with_a_contract() {
    each_backend(|app| {
        publish(app, "Web", "1", "API", &"a".repeat(64));
        publish(app, "Web", "2", "API", &"b".repeat(64));
        publish(app, "Web", "2", "Agent", &"c".repeat(64));
        app.put("/pacticipants/Loner/versions/1", &json!({}));
        let reply = app.get("/integrations");
        assert_eq!(reply.status, 200, "{}", reply.text);
        let list = reply.json["_embedded"]["integrations"]
            .as_array()
            .expect("list");
        let pairs: Vec<(String, String)> = list
            .iter()
            .map(|i| {
                let name = |k: &str| i[k]["name"].as_str().expect("name").to_owned();
                (name("consumer"), name("provider"))
            })
            .collect();
        assert_eq!(pairs.len(), 2, "{pairs:?}");
        assert!(pairs.contains(&("Web".into(), "API".into())));
        assert!(pairs.contains(&("Web".into(), "Agent".into())));
        assert!(list[0]["latestPactCreatedAt"].is_string());

        let versions = app.get("/pacticipants/Web/versions/2").json;
        assert_eq!(
            versions["_links"]["pb:pact-versions"]
                .as_array()
                .map(Vec::len),
            Some(2)
        );

        let metrics = app.get("/metrics").json;
        assert_eq!(metrics["integrations"]["count"], 2);
        assert_eq!(metrics["pacticipants"]["count"], 4);
        assert_eq!(metrics["pactPublications"]["count"], 3);
        assert_eq!(metrics["pactVersions"]["count"], 3);
        assert_eq!(metrics["pacticipantVersions"]["count"], 3);
        assert_eq!(
            metrics["matrix"]["count"], 3,
            "three unverified publications"
        );
        assert_eq!(metrics["deployedVersions"]["count"], 0);
    });
}
