//! The decision table of §3.3, case by case.

use super::*;
use crate::store::matrix::VerificationRow;

const FOO: i64 = 1;
const BAR: i64 = 2;

fn v(id: i64, p: i64) -> VersionRef {
    VersionRef {
        id,
        pacticipant_id: p,
        number: format!("{id}"),
    }
}

fn names() -> HashMap<i64, String> {
    HashMap::from([(FOO, "Foo".to_owned()), (BAR, "Bar".to_owned())])
}

fn foo_v1() -> Resolved {
    Resolved {
        pacticipant_id: FOO,
        pacticipant_name: "Foo".into(),
        spec: VersionSpec::Number("1".into()),
        versions: Some(vec![v(1, FOO)]),
        specified: true,
    }
}

fn bar_in_prod(versions: Vec<VersionRef>) -> Resolved {
    Resolved {
        pacticipant_id: BAR,
        pacticipant_name: "Bar".into(),
        spec: VersionSpec::Environment("production".into()),
        versions: Some(versions),
        specified: false,
    }
}

fn row(pv: Option<i64>, success: bool) -> Row {
    let at = chrono::DateTime::from_timestamp(0, 0)
        .expect("epoch")
        .naive_utc();
    Row {
        consumer_id: FOO,
        consumer_version: v(1, FOO),
        provider_id: BAR,
        provider_version: pv.map(|id| v(id, BAR)),
        pact_content_id: 7,
        pact_created_at: at,
        verification: pv.map(|id| VerificationRow {
            id: id * 10,
            pact_content_id: 7,
            provider_version_id: id,
            success,
            execution_date: at,
            pact_view: false,
            number: 1,
            kind: None,
            reason_codes: None,
        }),
        unverified: Vec::new(),
    }
}

const REQUIRED: Integration = Integration {
    consumer_id: FOO,
    provider_id: BAR,
    required: true,
};

fn run(
    selectors: &[Resolved],
    integrations: &[Integration],
    considered: &[Row],
    ignored: &[Row],
) -> Summary {
    let names = names();
    decide(Input {
        selectors,
        integrations,
        considered,
        ignored,
        ignored_pacticipants: if ignored.is_empty() { &[] } else { &[BAR] },
        ignore_given: !ignored.is_empty(),
        warnings: Vec::new(),
        names: &names,
    })
}

#[test]
fn every_row_verified_successfully_is_deployable() {
    let s = run(
        &[foo_v1(), bar_in_prod(vec![v(56, BAR)])],
        &[REQUIRED],
        &[row(Some(56), true)],
        &[],
    );
    assert_eq!(s.deployable, Some(true));
    assert_eq!(s.reasons, [SUCCESS]);
    assert_eq!((s.success, s.failed, s.unknown, s.ignored), (1, 0, 0, None));
    assert_eq!(s.notices[0].kind, NoticeKind::Success);
}

#[test]
fn a_failed_verification_is_not_deployable() {
    let s = run(
        &[foo_v1(), bar_in_prod(vec![v(56, BAR)])],
        &[REQUIRED],
        &[row(Some(56), false)],
        &[],
    );
    assert_eq!(s.deployable, Some(false));
    assert_eq!(
        s.reasons,
        [
            "The verification for the pact between version 1 of Foo and the version of Bar currently in production (56) failed"
        ]
    );
}

#[test]
fn a_missing_verification_is_unknown_even_when_another_row_failed() {
    let prod = bar_in_prod(vec![v(57, BAR), v(56, BAR)]);
    let s = run(
        &[foo_v1(), prod],
        &[REQUIRED],
        &[row(Some(57), false), row(None, false)],
        &[],
    );
    assert_eq!(s.deployable, None);
    assert_eq!((s.failed, s.unknown), (1, 1));
    assert!(
        s.reasons
            .iter()
            .any(|r| r.starts_with("There is no verified pact between version 1 of Foo"))
    );
}

#[test]
fn a_provider_absent_from_the_environment_gives_the_no_version_text() {
    let s = run(
        &[foo_v1(), bar_in_prod(vec![])],
        &[REQUIRED],
        &[row(None, false)],
        &[],
    );
    assert_eq!(s.deployable, None);
    assert_eq!(
        s.reasons,
        [
            "There is no verified pact between version 1 of Foo and a version of Bar currently in production (no version is currently recorded as deployed/released in this environment)"
        ]
    );
}

#[test]
fn a_specified_version_that_does_not_exist_is_false_before_anything_else() {
    let mut missing = foo_v1();
    missing.versions = Some(vec![]);
    let s = run(&[missing], &[REQUIRED], &[row(None, false)], &[]);
    assert_eq!(s.deployable, Some(false));
    assert_eq!(
        s.reasons,
        ["No pacts or verifications have been published for version 1 of Foo"]
    );
}

#[test]
fn a_required_integration_without_a_row_is_unknown() {
    let s = run(
        &[foo_v1(), bar_in_prod(vec![v(56, BAR)])],
        &[REQUIRED],
        &[],
        &[],
    );
    assert_eq!(s.deployable, None);
    assert_eq!(s.unknown, 1);
}

#[test]
fn no_rows_and_nothing_required_means_no_missing_dependencies() {
    let optional = Integration {
        required: false,
        ..REQUIRED
    };
    let s = run(&[foo_v1()], &[optional], &[], &[]);
    assert_eq!(s.deployable, Some(true));
    assert_eq!(s.reasons, [NOTHING_MISSING]);
}

#[test]
fn ignored_failures_do_not_block_and_are_reported_as_ignoring() {
    let s = run(
        &[foo_v1(), bar_in_prod(vec![v(56, BAR)])],
        &[REQUIRED],
        &[],
        &[row(Some(56), false)],
    );
    assert_eq!(s.deployable, Some(true));
    assert_eq!(s.ignored, Some(1));
    assert!(s.notices.iter().any(|n| n.kind == NoticeKind::Info && n.text.starts_with("Ignoring: The verification")));
}

#[test]
fn selector_descriptions_follow_the_pact_broker_wording() {
    let tagged = Resolved {
        spec: VersionSpec::Tag {
            tag: "prod".into(),
            latest: true,
        },
        ..bar_in_prod(vec![v(7, BAR)])
    };
    assert_eq!(
        describe_selector(&tagged, None),
        "the latest version of Bar with tag prod (7)"
    );
    let none = Resolved {
        versions: Some(vec![]),
        ..tagged
    };
    assert_eq!(
        describe_selector(&none, None),
        "the latest version of Bar with tag prod (no such version exists)"
    );
    let many = bar_in_prod(vec![v(57, BAR), v(56, BAR)]);
    assert_eq!(
        describe_selector(&many, Some(&v(56, BAR))),
        "one of the versions of Bar currently in production (56)"
    );
}

#[test]
fn a_success_of_the_pact_view_only_is_unknown_and_names_the_unverified_parts() {
    let mut partial = row(Some(56), true);
    partial.unverified = vec![crate::contract::pact_view::AccordOnly::Interaction {
        kind: "MCP/ToolCall".into(),
        description: "draft a plan".into(),
        credential: false,
    }];
    let s = run(
        &[foo_v1(), bar_in_prod(vec![v(56, BAR)])],
        &[REQUIRED],
        &[partial],
        &[],
    );
    assert_eq!(s.deployable, None);
    assert_eq!((s.success, s.failed, s.unknown), (0, 0, 1));
    assert_eq!(
        s.reasons,
        [
            "The pact between version 1 of Foo and the version of Bar currently in production (56) was verified only in its Pact view (by a Pact verifier); its Accord-only parts are unverified: MCP/ToolCall 'draft a plan' (`accord verify` checks them)"
        ]
    );
}
