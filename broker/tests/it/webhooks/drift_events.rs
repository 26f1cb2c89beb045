//! Accord's own events from runtime drift and admission: a report fires
//! `drift_detected` once per action it caused, each admission move fires
//! `admission_changed` once, with `${accord.*}` rendered; a webhook for
//! other events hears nothing of them.

use serde_json::{Value, json};

use super::{Receiver, each_backend_fast, hook, queued};
use crate::drift_actions::{P, card, digest, report, seed, verify};
use crate::support::TestApp;

fn accord_hook(app: &TestApp, receiver: &Receiver) {
    let mut h = hook(
        receiver,
        &["drift_detected", "admission_changed"],
        None,
        Some(P),
    );
    h["request"]["body"] = json!({
        "event": "${pactbroker.eventName}", "provider": "${pactbroker.providerName}",
        "version": "${pactbroker.providerVersionNumber}", "env": "${accord.environment}",
        "action": "${accord.driftAction}", "state": "${accord.admissionState}"
    });
    let created = app.post("/webhooks", &h);
    assert_eq!(created.status, 201, "{}", created.text);
}

fn bodies(receiver: &Receiver, n: usize) -> Vec<Value> {
    let mut got: Vec<Value> = receiver.wait_for(n).iter().map(|r| r.json()).collect();
    got.sort_by_key(|b| b.to_string());
    got
}

#[test]
fn a_quarantining_report_fires_drift_detected_per_action_and_admission_changed_once() {
    each_backend_fast(|app| {
        seed(app);
        let receiver = Receiver::start(&[]);
        accord_hook(app, &receiver);
        let other = Receiver::start(&[]);
        let created = app.post(
            "/webhooks",
            &hook(&other, &["contract_published"], None, Some(P)),
        );
        assert_eq!(created.status, 201, "{}", created.text);

        let posted = app.post("/drift-reports", &report('b', 1));
        assert_eq!(posted.status, 201, "{}", posted.text);
        assert_eq!(queued(app, "drift_detected"), 2, "quarantine and warn");
        assert_eq!(queued(app, "admission_changed"), 1);
        let base = json!({"provider": P, "version": "2.0.0", "env": "production",
                          "state": "QUARANTINED"});
        let with = |event: &str, action: &str| {
            let mut b = base.clone();
            b["event"] = json!(event);
            b["action"] = json!(action);
            b
        };
        let mut admission = with("admission_changed", "");
        admission["env"] = json!("");
        let mut want = vec![
            admission,
            with("drift_detected", "quarantine"),
            with("drift_detected", "warn"),
        ];
        want.sort_by_key(|b| b.to_string());
        assert_eq!(bodies(&receiver, 3), want);

        verify(app, json!([card(&digest('b'))]));
        assert_eq!(queued(app, "admission_changed"), 2, "the clearing move");
        let last = bodies(&receiver, 4);
        assert!(
            last.iter()
                .any(|b| b["event"] == "admission_changed" && b["state"] == "DRAFT"),
            "{last:?}"
        );
        assert!(other.received().is_empty(), "{:?}", other.received());
    });
}

#[test]
fn a_report_that_changes_nothing_fires_nothing() {
    each_backend_fast(|app| {
        seed(app);
        let receiver = Receiver::start(&[]);
        accord_hook(app, &receiver);
        let posted = app.post("/drift-reports", &report('a', 0));
        assert_eq!(posted.status, 201, "{}", posted.text);
        assert_eq!(queued(app, "drift_detected"), 0, "{}", posted.text);
        assert_eq!(queued(app, "admission_changed"), 0);
    });
}
