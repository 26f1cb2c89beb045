//! The client's pure parts: credentials in URLs, error descriptions.

use super::*;

#[test]
fn credentials_in_the_broker_url_become_basic_and_leave_the_url() {
    let client =
        BrokerClient::new("http://ci:p%40ss@127.0.0.1:9292/", Credentials::None).expect("a URL");
    assert_eq!(client.url("/"), "http://127.0.0.1:9292/");
    assert!(matches!(
        &client.credentials,
        Credentials::Basic(u, p) if u == "ci" && p == "p@ss"
    ));
    let err = BrokerClient::new("http://ci:s3cret@[::1", Credentials::None).expect_err("not a URL");
    assert!(!err.to_string().contains("s3cret"), "{err}");
}

#[test]
fn a_failed_reply_says_how_often_it_was_retried() {
    let reply = Reply {
        status: 503,
        body: Value::Null,
        retries: 3,
        role: None,
    };
    assert_eq!(describe_error(&reply), "HTTP 503 (after 3 retries)");
}

#[test]
fn a_refused_credential_says_how_to_pass_one() {
    let reply = |status| Reply {
        status,
        body: serde_json::json!({"detail": "a token is required"}),
        retries: 0,
        role: None,
    };
    let unauthorized = describe_error(&reply(401));
    assert!(
        unauthorized.starts_with("HTTP 401: a token is required — pass a token with --token"),
        "{unauthorized}"
    );
    assert!(unauthorized.contains("ACCORD_BROKER_TOKEN"));
    assert!(describe_error(&reply(403)).contains("role"));
    assert!(!describe_error(&reply(404)).contains(" — "));
}
