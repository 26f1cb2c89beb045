//! The pacticipant page shows its webhooks and latest deliveries, with no
//! credential anywhere.

use serde_json::json;

use super::{Receiver, each_backend_fast, hook, pacticipants};
use crate::pact_docs::{http, pact, publish_ok};
use crate::pages::{html_page, texts};

#[test]
fn the_pacticipant_page_lists_its_webhooks_and_deliveries_without_credentials() {
    each_backend_fast(|app| {
        let r = Receiver::start(&[]);
        pacticipants(app, &["Foo", "Bar"]);
        let mut body = hook(&r, &["contract_published"], Some("Foo"), None);
        body["description"] = json!("notify CI");
        body["request"]["url"] = json!(r.url.replace("http://", "http://ci:t0ps3cret@") + "/x");
        body["request"]["headers"]["Authorization"] = json!("Bearer s3cret");
        body["request"]["password"] = json!("pa55");
        body["request"]["username"] = json!("u");
        let created = app.post("/webhooks", &body);
        assert_eq!(created.status, 201);
        publish_ok(
            app,
            "1",
            None,
            &[],
            &[pact("Foo", "Bar", json!([http("/a", 200)]))],
        );
        r.wait_for(1);
        let uuid = created.json["uuid"].as_str().unwrap_or("");
        super::delivery::settled_logs(app, uuid);
        let reply = app.get_page("/ui/pacticipants/Foo");
        let doc = html_page(&reply, "pacticipant page");
        let hooks = texts(&doc, "tr.webhook td");
        assert_eq!(hooks[0], "notify CI");
        assert_eq!(hooks[1], "contract_published");
        assert_eq!(hooks[2], r.url.trim_start_matches("http://"));
        assert_eq!(hooks[3], "yes");
        assert_eq!(texts(&doc, "tr.delivery td")[1], "contract_published");
        for secret in ["t0ps3cret", "s3cret", "pa55"] {
            assert!(!reply.text.contains(secret), "{secret} on the page");
        }
        let other = html_page(&app.get_page("/ui/pacticipants/Bar"), "provider page");
        assert!(
            texts(&other, "tr.webhook").is_empty(),
            "the webhook names Foo only"
        );
        assert_eq!(
            texts(&other, "tr.delivery td")[2],
            "success",
            "but the delivery concerns Bar too"
        );
    });
}
