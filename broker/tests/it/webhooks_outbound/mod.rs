//! The SSRF-safe outbound client against real loopback receivers: every
//! refusal issue 24 names, each allowed again when allowlisted, and the
//! bounds (timeouts, capped body, no redirects).

mod receiver;

use std::time::Duration;

use accord_broker::webhooks::outbound::{
    Attempt, EXCERPT_CAP, OutboundRequest, Policy, check_definition, deliver,
};
use receiver::{Answer, Receiver};

fn list(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

/// Plain http allowed (loopback receivers speak no TLS), these hosts allowlisted.
fn policy(hosts: &[&str]) -> Policy {
    Policy::from_lists(&list(&["http"]), &list(hosts), &[])
        .expect("a valid policy")
        .with_timeouts(Duration::from_millis(500), Duration::from_secs(20))
}

fn post(url: String) -> OutboundRequest {
    OutboundRequest {
        method: "POST".into(),
        url,
        headers: vec![("Content-Type".into(), "application/json".into())],
        body: Some(r#"{"event":"test"}"#.into()),
        basic_auth: None,
    }
}

fn refusal(attempt: &Attempt) -> String {
    let refused = attempt
        .refused
        .as_ref()
        .unwrap_or_else(|| panic!("not refused: {attempt:?}"));
    assert!(
        attempt.status.is_none() && attempt.error.is_none(),
        "{attempt:?}"
    );
    refused.reason.clone()
}

/// Refused under `hosts` = [], delivered (200) under `allow`; the receiver
/// sees only the allowed request.
async fn refused_then_allowed(host: &str, class: &str, allow: &str) {
    let receiver = Receiver::start(Answer::Ok("thanks")).await;
    let url = receiver.url(&format!("http://{host}"));
    let reason = refusal(&deliver(&policy(&[]), &post(url.clone())).await);
    assert!(
        reason.contains(class) && reason.contains("not allowlisted"),
        "{host}: {reason}"
    );
    assert!(
        receiver.received().is_empty(),
        "{host}: the refused request reached the receiver"
    );
    let attempt = deliver(&policy(&[allow]), &post(url)).await;
    assert_eq!(
        attempt.status,
        Some(200),
        "{host} allowlisted as {allow}: {attempt:?}"
    );
    assert!(attempt.succeeded());
    assert_eq!(attempt.body_excerpt, "thanks");
    assert_eq!(receiver.received().len(), 1);
}

#[tokio::test]
async fn loopback_is_refused_unless_allowlisted() {
    refused_then_allowed("127.0.0.1", "loopback", "127.0.0.1").await;
    refused_then_allowed("127.0.0.1", "loopback", "127.0.0.0/8").await;
}

#[tokio::test]
async fn ipv4_mapped_loopback_is_refused_unless_allowlisted() {
    refused_then_allowed("[::ffff:127.0.0.1]", "loopback", "127.0.0.1").await;
}

#[tokio::test]
async fn unusual_spellings_of_loopback_are_refused_unless_allowlisted() {
    for host in ["2130706433", "0177.0.0.1", "0x7f.1", "127.1"] {
        refused_then_allowed(host, "loopback", "127.0.0.1").await;
    }
}

#[tokio::test]
async fn a_name_resolving_to_loopback_is_refused_unless_allowlisted() {
    refused_then_allowed("localhost", "localhost resolves to", "localhost").await;
    // by the block its addresses are in (localhost may also be ::1)
    refused_then_allowed("localhost", "loopback", "127.0.0.0/8,::1/128").await;
}

/// Addresses no test can listen on: refused, then (allowlisted) tried —
/// whatever answers there (or nothing), it is not refused.
async fn refused_then_tried(url: &str, class: &str, allow: &str) {
    let reason = refusal(&deliver(&policy(&[]), &post(url.into())).await);
    assert!(reason.contains(class), "{url}: {reason}");
    let attempt = deliver(&policy(&[allow]), &post(url.into())).await;
    assert!(
        attempt.refused.is_none(),
        "{url} allowlisted as {allow}: {attempt:?}"
    );
    assert!(
        attempt.error.is_some() || attempt.status.is_some(),
        "{attempt:?}"
    );
}

#[tokio::test]
async fn private_and_metadata_addresses_are_refused_unless_allowlisted() {
    refused_then_tried("http://10.0.0.1:9/hook", "private", "10.0.0.0/8").await;
    refused_then_tried(
        "http://169.254.169.254/latest/meta-data/",
        "link-local",
        "169.254.169.254",
    )
    .await;
}

#[tokio::test]
async fn http_is_refused_under_the_https_default() {
    let receiver = Receiver::start(Answer::Ok("thanks")).await;
    let url = receiver.url("http://127.0.0.1");
    let strict = Policy::from_lists(&[], &list(&["127.0.0.1"]), &[]).expect("valid");
    let reason = refusal(&deliver(&strict, &post(url.clone())).await);
    assert_eq!(
        reason,
        "scheme http is not in the webhook scheme allowlist (https)"
    );
    assert!(receiver.received().is_empty());
    assert_eq!(
        deliver(&policy(&["127.0.0.1"]), &post(url)).await.status,
        Some(200)
    );
}

#[tokio::test]
async fn methods_outside_the_allowlist_are_refused() {
    let receiver = Receiver::start(Answer::Ok("thanks")).await;
    let mut request = post(receiver.url("http://127.0.0.1"));
    request.method = "put".into();
    let reason = refusal(&deliver(&policy(&["127.0.0.1"]), &request).await);
    assert_eq!(
        reason,
        "method PUT is not in the webhook method allowlist (POST)"
    );
    let puts = Policy::from_lists(
        &list(&["http"]),
        &list(&["127.0.0.1"]),
        &list(&["post,put"]),
    )
    .expect("valid");
    assert_eq!(deliver(&puts, &request).await.status, Some(200));
    assert!(receiver.received()[0].starts_with("PUT /hook HTTP/1.1"));
}

#[tokio::test]
async fn a_redirect_is_the_answer_and_is_not_followed() {
    let target = Receiver::start(Answer::Ok("followed")).await;
    let redirecting = Receiver::start(Answer::Redirect(target.url("http://127.0.0.1"))).await;
    let attempt = deliver(
        &policy(&["127.0.0.1"]),
        &post(redirecting.url("http://127.0.0.1")),
    )
    .await;
    assert_eq!(attempt.status, Some(302), "{attempt:?}");
    assert!(!attempt.succeeded());
    assert!(target.received().is_empty(), "the redirect was followed");
    // to a private address: the same, the 3xx is the answer
    let private = Receiver::start(Answer::Redirect("http://10.0.0.1/hook".into())).await;
    let attempt = deliver(
        &policy(&["127.0.0.1"]),
        &post(private.url("http://127.0.0.1")),
    )
    .await;
    assert_eq!(attempt.status, Some(302), "{attempt:?}");
    assert!(attempt.error.is_none(), "{attempt:?}");
}

#[tokio::test]
async fn the_request_arrives_whole_with_its_credentials() {
    let receiver = Receiver::start(Answer::Ok("thanks")).await;
    let mut request = post(receiver.url("http://127.0.0.1"));
    request.basic_auth = Some(("ci".into(), "s3cret".into()));
    request
        .headers
        .push(("X-Event".into(), "contract_published".into()));
    let attempt = deliver(&policy(&["127.0.0.1"]), &request).await;
    assert_eq!(attempt.status, Some(200));
    assert!(
        attempt
            .response_headers
            .iter()
            .any(|(n, v)| n == "x-receiver" && v == "yes")
    );
    let got = receiver.received().join("").to_ascii_lowercase();
    // base64("ci:s3cret")
    assert!(got.contains("authorization: basic y2k6cznjcmv0"), "{got}");
    assert!(got.contains("x-event: contract_published"), "{got}");
    assert!(got.ends_with(r#"{"event":"test"}"#), "{got}");
}

#[tokio::test]
async fn a_receiver_that_never_answers_times_out() {
    let receiver = Receiver::start(Answer::Silent).await;
    let quick = policy(&["127.0.0.1"])
        .with_timeouts(Duration::from_millis(500), Duration::from_millis(700));
    let attempt = deliver(&quick, &post(receiver.url("http://127.0.0.1"))).await;
    let error = attempt
        .error
        .as_deref()
        .unwrap_or_else(|| panic!("no error: {attempt:?}"));
    assert!(error.contains("timed out after 700 ms"), "{error}");
    assert!(attempt.status.is_none() && attempt.refused.is_none());
}

#[tokio::test]
async fn an_endless_body_is_read_up_to_the_cap() {
    let receiver = Receiver::start(Answer::Endless).await;
    // a total timeout far away: the read stops at the cap, not the clock
    let patient =
        policy(&["127.0.0.1"]).with_timeouts(Duration::from_secs(5), Duration::from_secs(600));
    let attempt = deliver(&patient, &post(receiver.url("http://127.0.0.1"))).await;
    assert_eq!(attempt.status, Some(200), "{attempt:?}");
    assert!(attempt.error.is_none(), "{:?}", attempt.error);
    assert_eq!(attempt.body_excerpt.len(), EXCERPT_CAP);
}

#[tokio::test]
async fn a_connection_refused_is_an_error_not_a_refusal() {
    let receiver = Receiver::start(Answer::Ok("")).await;
    let port = receiver.addr.port();
    drop(receiver);
    // a port nothing listens on: bind one and free it
    let free = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!(
        "http://127.0.0.1:{}/hook",
        free.local_addr().expect("addr").port()
    );
    drop(free);
    let attempt = deliver(&policy(&["127.0.0.1"]), &post(url)).await;
    assert!(attempt.refused.is_none(), "{attempt:?}");
    let error = attempt.error.unwrap_or_default();
    assert!(error.starts_with("could not connect"), "{error} ({port})");
}

#[tokio::test]
async fn check_definition_refuses_private_literals_and_loopback_names() {
    let policy = Policy::default();
    let refused = check_definition(&policy, "POST", "https://10.1.2.3/hook").await;
    assert!(refused.expect_err("private").reason.contains("private"));
    let refused = check_definition(&policy, "POST", "https://localhost:8443/hook").await;
    assert!(refused.expect_err("localhost").reason.contains("loopback"));
    assert!(
        check_definition(&policy, "POST", "https://nowhere.accord-test.invalid/hook")
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn an_unresolvable_name_at_delivery_is_an_error() {
    let attempt = deliver(
        &Policy::default(),
        &post("https://nowhere.accord-test.invalid/hook".into()),
    )
    .await;
    assert!(attempt.refused.is_none(), "{attempt:?}");
    assert!(
        attempt
            .error
            .unwrap_or_default()
            .contains("did not resolve")
    );
}

/// Measures (prints, asserts nothing about time): 1,000 deliveries to a
/// loopback receiver, one after another and 16 at a time. Run with
/// `cargo test --release -p accord-broker --test it -- --ignored outbound_speed --nocapture`.
#[tokio::test(flavor = "multi_thread")]
#[ignore = "a measurement, not a check"]
async fn outbound_speed() {
    let receiver = Receiver::start(Answer::Ok("ok")).await;
    let policy = policy(&["127.0.0.1", "localhost"]);
    for host in ["127.0.0.1", "localhost"] {
        let url = receiver.url(&format!("http://{host}"));
        let start = std::time::Instant::now();
        for _ in 0..1000 {
            assert!(deliver(&policy, &post(url.clone())).await.succeeded());
        }
        println!(
            "{host}: 1000 sequential deliveries in {:?}",
            start.elapsed()
        );
        let start = std::time::Instant::now();
        let mut tasks = tokio::task::JoinSet::new();
        for worker in 0..16 {
            let (policy, url) = (policy.clone(), url.clone());
            tasks.spawn(async move {
                for _ in (worker..1000).step_by(16) {
                    assert!(deliver(&policy, &post(url.clone())).await.succeeded());
                }
            });
        }
        while let Some(done) = tasks.join_next().await {
            done.expect("worker");
        }
        println!(
            "{host}: 1000 deliveries 16 at a time in {:?}",
            start.elapsed()
        );
    }
}

/// The variable that makes `proxy_child` deliver (it is run in a process
/// of its own, where the proxy variables are set).
const CHILD_URL: &str = "ACCORD_TEST_WEBHOOK_URL";

#[tokio::test(flavor = "multi_thread")]
async fn proxies_from_the_environment_are_ignored() {
    let target = Receiver::start(Answer::Ok("target")).await;
    let proxy = Receiver::start(Answer::Ok("proxy")).await;
    let proxy_url = format!("http://{}", proxy.addr);
    let mut child = std::process::Command::new(std::env::current_exe().expect("test binary"));
    child
        .args(["webhooks_outbound::proxy_child", "--exact", "--ignored"])
        .env(CHILD_URL, target.url("http://127.0.0.1"))
        .env_remove("NO_PROXY")
        .env_remove("no_proxy");
    for name in [
        "HTTP_PROXY",
        "http_proxy",
        "HTTPS_PROXY",
        "https_proxy",
        "ALL_PROXY",
        "all_proxy",
    ] {
        child.env(name, &proxy_url);
    }
    let out = tokio::task::spawn_blocking(move || child.output().expect("the child runs"))
        .await
        .expect("joined");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && text.contains("1 passed"), "{text}");
    assert!(
        proxy.received().is_empty(),
        "the webhook went through HTTP_PROXY"
    );
    assert_eq!(target.received().len(), 1);
}

#[tokio::test]
#[ignore = "run by proxies_from_the_environment_are_ignored in a process of its own"]
async fn proxy_child() {
    let Ok(url) = std::env::var(CHILD_URL) else {
        return;
    };
    let attempt = deliver(&policy(&["127.0.0.1"]), &post(url)).await;
    assert_eq!(attempt.body_excerpt, "target", "{attempt:?}");
}

/// TLS on a pinned connection is for the URL's name: the ClientHello sent
/// to the checked address names `localhost` (SNI), which is what the
/// certificate is verified against.
#[tokio::test]
async fn tls_over_a_pinned_connection_is_for_the_urls_name() {
    // a plain TCP receiver: it records the ClientHello and never answers it
    let receiver = Receiver::start(Answer::Ok("not TLS")).await;
    let https = Policy::from_lists(&[], &list(&["localhost"]), &[])
        .expect("valid")
        .with_timeouts(Duration::from_millis(500), Duration::from_secs(1));
    let attempt = deliver(&https, &post(receiver.url("https://localhost"))).await;
    assert!(
        attempt.refused.is_none() && attempt.status.is_none(),
        "{attempt:?}"
    );
    assert!(attempt.error.is_some(), "{attempt:?}");
    // the receiver logs once the client has given up and closed
    let mut hello = Vec::new();
    for _ in 0..100 {
        hello = receiver.received();
        if !hello.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let hello = hello.first().cloned().unwrap_or_default();
    assert!(
        hello.contains("localhost"),
        "no SNI for localhost in {hello:?}"
    );
}
