//! Replay speed: one contract of N HTTP interactions, each with its own
//! provider state, against the stub provider on loopback (3 requests per
//! interaction: setup, the request, teardown).
//!
//! Run: `cargo bench -p accord-verifier --bench replay`.

use std::collections::HashMap;

use accord_dsl::Interaction;
use accord_dsl::model::{
    Body, Contract, HttpInteraction, HttpRequest, HttpResponse, InteractionMeta, Pacticipant,
    ProviderState,
};
use accord_fixtures::stub::{Canned, StubConfig, StubProvider};
use accord_verifier::{ContractSource, SourcedContract, VerifyConfig, verify_blocking};
use serde_json::json;

fn main() {
    divan::main();
}

fn setup(n: usize, jobs: usize) -> (StubProvider, VerifyConfig) {
    let mut routes = HashMap::new();
    let mut interactions = Vec::new();
    for i in 0..n {
        let path = format!("/items/{i}");
        let body = json!({"id": i, "name": "widget"});
        routes.insert(
            ("GET".to_string(), path.clone()),
            Canned {
                status: 200,
                headers: vec![("Content-Type".into(), "application/json".into())],
                body: body.to_string().into_bytes(),
            },
        );
        interactions.push(Interaction::Http(HttpInteraction {
            meta: InteractionMeta {
                description: format!("get item {i}"),
                provider_states: vec![ProviderState::named(format!("item {i} exists"))],
                ..InteractionMeta::default()
            },
            request: HttpRequest {
                method: "GET".into(),
                path,
                ..HttpRequest::default()
            },
            response: HttpResponse {
                status: 200,
                body: Body::json(body),
                ..HttpResponse::default()
            },
        }));
    }
    let stub = StubProvider::start(StubConfig {
        routes,
        ..StubConfig::default()
    })
    .expect("stub starts");
    let contract = Contract {
        consumer: Pacticipant {
            name: "web".into(),
            ..Pacticipant::default()
        },
        provider: Pacticipant {
            name: "items".into(),
            ..Pacticipant::default()
        },
        interactions,
        ..Contract::default()
    };
    let source = ContractSource::Loaded(vec![SourcedContract {
        contract,
        source: "bench".into(),
        pending: false,
        wip: false,
        linted: Default::default(),
    }]);
    let mut config = VerifyConfig::new("items", stub.base_url(), source);
    config.state_change_url = Some(stub.state_change_url());
    config.jobs = jobs;
    (stub, config)
}

#[divan::bench(args = [100, 1000], sample_count = 5)]
fn jobs_1(bencher: divan::Bencher, n: usize) {
    let (_stub, config) = setup(n, 1);
    bencher.bench(|| {
        let report = verify_blocking(&config).expect("runs");
        assert!(report.passed());
    });
}

#[divan::bench(args = [100, 1000], sample_count = 5)]
fn jobs_4(bencher: divan::Bencher, n: usize) {
    let (_stub, config) = setup(n, 4);
    bencher.bench(|| {
        let report = verify_blocking(&config).expect("runs");
        assert!(report.passed());
    });
}
