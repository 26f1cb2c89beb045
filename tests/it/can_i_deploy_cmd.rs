//! `accord can-i-deploy` against a real `accord serve`, on data written
//! through the broker's store before the server starts.

use accord_broker::db;
use accord_broker::names::{EnvironmentName, PacticipantName, TagName, VersionNumber};
use accord_broker::store::{environments, pacticipants, pacts, tags, verifications, versions};
use predicates::prelude::PredicateBooleanExt;
use predicates::str::contains;

use crate::broker::BrokerProcess;
use crate::support::{accord, temp_dir};

/// Foo 1 → Bar; Bar 2 (tag prod) verified it successfully, Bar 3 (tag
/// broken) failed it (findings on the schema and declaration layers); a
/// production environment exists with nobody in it.
pub fn seeded_broker() -> BrokerProcess {
    let url = temp_dir("cid")
        .join("accord.db")
        .to_string_lossy()
        .into_owned();
    let pool = db::connect(&url, 1).expect("database");
    let mut conn = pool.get().expect("connection");
    db::run_migrations(&mut conn).expect("migrations");
    let c = &mut conn;
    let p = |c: &mut _, n: &str| {
        pacticipants::insert(
            c,
            &PacticipantName::parse(n).expect("name"),
            &Default::default(),
        )
        .expect("pacticipant")
    };
    let (consumer, provider) = (p(c, "Foo"), p(c, "Bar"));
    let version = |c: &mut _, id: i64, n: &str, tag: Option<&str>| {
        let v = versions::insert(c, id, &VersionNumber::parse(n).expect("number"), None)
            .expect("version");
        if let Some(t) = tag {
            tags::add(c, &v, &TagName::parse(t).expect("tag")).expect("tag");
        }
        v.id
    };
    let foo_1 = version(c, consumer.id, "1", None);
    let bar_2 = version(c, provider.id, "2", Some("prod"));
    let bar_3 = version(c, provider.id, "3", Some("broken"));
    let content = pacts::find_or_insert_content(
        c,
        &pacts::NewContent {
            sha: SHA,
            consumer_id: consumer.id,
            provider_id: provider.id,
            content: "{}",
            interactions_count: 1,
        },
    )
    .expect("content");
    pacts::publish(c, foo_1, consumer.id, provider.id, content.id).expect("publication");
    let broken = r#"[{"layer":"schema","reasonCode":"CONTENT_MODE_MISMATCH","interactionDescription":"get item 7","path":"$.body","expected":"application/json","actual":"text/plain"},
        {"layer":"schema","reasonCode":"RESPONSE_MISMATCH","interactionDescription":"get item 8"},
        {"layer":"declaration","reasonCode":"TOOL_NOT_DECLARED","interactionDescription":"lookup"}]"#;
    for (pv, success, findings) in [(bar_2, true, "[]"), (bar_3, false, broken)] {
        verifications::insert(
            c,
            &verifications::NewVerification {
                pact_content_id: content.id,
                provider_version_id: pv,
                consumer_id: consumer.id,
                provider_id: provider.id,
                success,
                build_url: None,
                test_results: None,
                verified_by: None,
                findings: findings.into(),
                wip: false,
                pending: false,
                selectors: None,
                execution_date: accord_broker::store::now(),
                pact_view: false,
                declarations: None,
            },
        )
        .expect("verification");
    }
    let attrs = environments::EnvironmentAttributes {
        name: EnvironmentName::parse("production").expect("env"),
        display_name: None,
        production: true,
        contacts: None,
    };
    environments::insert(c, "env-uuid-1", &attrs).expect("environment");
    drop(conn);
    BrokerProcess::start_on(&url, &[])
}

/// The sha of Foo 1's pact.
const SHA: &str = "ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12";

fn cid(broker: &BrokerProcess, extra: &[&str]) -> assert_cmd::assert::Assert {
    accord()
        .args([
            "can-i-deploy",
            "--broker-url",
            &broker.url,
            "--pacticipant",
            "Foo",
            "--version",
            "1",
        ])
        .args(extra)
        .assert()
}

#[test]
fn can_i_deploy_exits_by_the_answer_and_prints_rows_and_reason() {
    let broker = seeded_broker();
    cid(&broker, &["--to", "prod"])
        .code(0)
        .stdout(contains("Computer says yes"))
        .stdout(contains("Foo\t1\tBar\t2\ttrue"))
        .stdout(contains(
            "All required verification results are published and successful",
        ));
    cid(&broker, &["--to", "broken"])
        .code(1)
        .stdout(contains("Computer says no"))
        .stdout(contains("The verification for the pact between version 1 of Foo and the latest version of Bar with tag broken (3) failed"))
        .stdout(contains(format!(
            "Blocking:\n  Foo 1 with Bar 3: failed (declaration: TOOL_NOT_DECLARED; schema: CONTENT_MODE_MISMATCH, RESPONSE_MISMATCH)\n    {}/ui/pacts/provider/Bar/consumer/Foo/pact-version/{SHA}/verification-results/",
            broker.url
        )));
    cid(&broker, &["--to", "broken", "--ignore", "Bar"])
        .code(0)
        .stdout(contains("[ignored]"))
        .stdout(contains("Blocking").not());
    cid(&broker, &["--to-environment", "production"])
        .code(1)
        .stdout(contains(
            "no version is currently recorded as deployed/released in this environment",
        ))
        .stdout(contains("Blocking:\n  Foo 1 with Bar: not verified\n"));
}

#[test]
fn json_output_is_the_broker_body_and_still_exits_1_when_not_deployable() {
    let broker = seeded_broker();
    let out = accord()
        .args([
            "can-i-deploy",
            "--broker-url",
            &broker.url,
            "-a",
            "Foo",
            "-e",
            "1",
            "--to",
            "broken",
            "-o",
            "json",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let body: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json on stdout");
    assert_eq!(body["summary"]["deployable"], false);
    assert_eq!(body["matrix"][0]["provider"]["version"]["number"], "3");
}

#[test]
fn unknown_is_retried_then_not_deployable_and_errors_exit_2() {
    let broker = seeded_broker();
    accord()
        .args([
            "can-i-deploy",
            "--broker-url",
            &broker.url,
            "-a",
            "Foo",
            "-e",
            "1",
        ])
        .args([
            "--to-environment",
            "production",
            "--retry-while-unknown",
            "1",
            "--retry-interval",
            "0",
        ])
        .assert()
        .code(1)
        .stderr(contains("Waiting for 1 verification result(s)"));
    cid(&broker, &["--to-environment", "nowhere"])
        .code(2)
        .stderr(contains("HTTP 400"));
    accord()
        .args([
            "can-i-deploy",
            "--broker-url",
            &broker.url,
            "-a",
            "Foo",
            "-e",
            "1",
        ])
        .assert()
        .code(2);
}
