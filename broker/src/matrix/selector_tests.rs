//! Parsing and validation of matrix and can-i-deploy queries.

use super::*;

fn matrix(raw: &str) -> Result<MatrixQuery, BrokerError> {
    MatrixQuery::from_matrix_query(&RackQuery::parse(raw))
}

fn field_of(err: BrokerError) -> String {
    match err {
        BrokerError::BadRequest { errors, .. } => errors[0].field.clone(),
        other => panic!("expected a 400, got {other:?}"),
    }
}

#[test]
fn the_pact_cli_query_to_an_environment_parses() {
    let q = matrix(
        "q[][pacticipant]=orchestrator&q[][version]=1.0.0&latestby=cvpv&environment=production",
    )
    .expect("valid");
    assert_eq!(q.selectors[0].spec, VersionSpec::Number("1.0.0".into()));
    assert_eq!(q.target, Some(Target::Environment("production".into())));
    assert_eq!(q.latestby, Some(LatestBy::Cvpv));
    assert_eq!(q.limit, None, "no default limit");
}

#[test]
fn the_pact_cli_query_to_a_tag_targets_the_latest_tagged_version() {
    let q = matrix(
        "q[][pacticipant]=orchestrator&q[][version]=1.0.0&tag=prod&latestby=cvp&latest=true",
    )
    .expect("valid");
    assert_eq!(
        q.target,
        Some(Target::Tag {
            tag: "prod".into(),
            latest: true
        })
    );
}

#[test]
fn selector_kinds_parse_to_their_specs() {
    let q = matrix("q[][pacticipant]=A&q[][latest]=true&q[][tag]=main&q[][pacticipant]=B&q[][branch]=feat&q[][pacticipant]=C&q[][mainBranch]=true&q[][pacticipant]=D")
        .expect("valid");
    let specs: Vec<_> = q.selectors.iter().map(|s| s.spec.clone()).collect();
    assert_eq!(
        specs,
        [
            VersionSpec::Tag {
                tag: "main".into(),
                latest: true
            },
            VersionSpec::Branch {
                branch: "feat".into(),
                latest: false
            },
            VersionSpec::MainBranch { latest: false },
            VersionSpec::Any,
        ]
    );
}

#[test]
fn each_validation_error_names_its_parameter() {
    assert_eq!(
        field_of(matrix("latestby=cvp").expect_err("no selectors")),
        "q"
    );
    assert_eq!(
        field_of(matrix("q[][version]=1").expect_err("no name")),
        "q[][pacticipant]"
    );
    assert_eq!(
        field_of(matrix("q[][pacticipant]=A&q[][version]=1&q[][latest]=true").expect_err("both")),
        "q[][latest]"
    );
    assert_eq!(
        field_of(matrix("q[][pacticipant]=A&tag=x&environment=y").expect_err("two targets")),
        "environment"
    );
    assert_eq!(
        field_of(matrix("q[][pacticipant]=A&latest=true&environment=y").expect_err("latest+env")),
        "latest"
    );
    assert_eq!(
        field_of(matrix("q[][pacticipant]=A&limit=0").expect_err("limit")),
        "limit"
    );
    assert_eq!(
        field_of(matrix("q[][pacticipant]=A&latestby=x").expect_err("latestby")),
        "latestby"
    );
}

#[test]
fn can_i_deploy_to_an_environment_uses_cvpv_and_to_a_tag_uses_cvp() {
    let env = MatrixQuery::from_can_i_deploy(&RackQuery::parse(
        "pacticipant=Foo&version=1&environment=production&ignore[]=Bar",
    ))
    .expect("valid");
    assert_eq!(env.latestby, Some(LatestBy::Cvpv));
    assert_eq!(
        env.ignore,
        [IgnoreSelector {
            pacticipant: "Bar".into(),
            version: None
        }]
    );
    let tag =
        MatrixQuery::from_can_i_deploy(&RackQuery::parse("pacticipant=Foo&version=1&to=prod"))
            .expect("valid");
    assert_eq!(tag.latestby, Some(LatestBy::Cvp));
    assert_eq!(
        tag.target,
        Some(Target::Tag {
            tag: "prod".into(),
            latest: true
        })
    );
    let missing = MatrixQuery::from_can_i_deploy(&RackQuery::parse("pacticipant=Foo&version=1"))
        .expect_err("no target");
    assert_eq!(field_of(missing), "environment");
}

#[test]
fn repeated_matrix_selectors_collapse_and_too_many_are_refused() {
    let twice = "q[][pacticipant]=a&q[][version]=1&".repeat(2) + "latestby=cvpv";
    assert_eq!(matrix(&twice).expect("valid").selectors.len(), 1);
    let many: String = (0..101)
        .map(|i| format!("q[][pacticipant]=a&q[][version]={i}&"))
        .collect();
    assert_eq!(field_of(matrix(&many).expect_err("refused")), "q");
}
