use super::*;

fn list(items: &[&str]) -> Vec<String> {
    items.iter().map(|s| (*s).to_owned()).collect()
}

fn hosts(items: &[&str]) -> Policy {
    Policy::from_lists(&[], &list(items), &[]).expect("a valid policy")
}

async fn check(policy: &Policy, url: &str) -> Result<(), Refusal> {
    check_definition(policy, "POST", url).await
}

#[test]
fn defaults() {
    let policy = Policy::default();
    assert_eq!(policy.schemes, ["https"]);
    assert!(policy.hosts.is_empty());
    assert_eq!(policy.methods, ["POST"]);
    assert_eq!(policy.connect, Duration::from_secs(5));
    assert_eq!(policy.total, Duration::from_secs(10));
    assert_eq!(policy.read_cap, 64 * 1024);
    assert_eq!(policy.excerpt_cap, 4 * 1024);
}

#[test]
fn lists_accept_repeats_and_commas_and_name_the_bad_item() {
    let policy = Policy::from_lists(
        &list(&["https", "http,HTTPS"]),
        &list(&["localhost,10.0.0.0/8", "*.example.com"]),
        &list(&["post", "PUT,Post"]),
    )
    .expect("valid");
    assert_eq!(policy.schemes, ["https", "http"]);
    assert_eq!(policy.methods, ["POST", "PUT"]);
    assert_eq!(policy.host_list(), "localhost, 10.0.0.0/8, *.example.com");
    let bad = Policy::from_lists(&[], &list(&["10.0.0.0/33"]), &[]).expect_err("bad CIDR");
    assert!(
        bad.contains("--webhook-host-allowlist") && bad.contains("33"),
        "{bad}"
    );
    let bad = Policy::from_lists(&list(&["gopher"]), &[], &[]).expect_err("bad scheme");
    assert!(
        bad.contains("--webhook-scheme-allowlist") && bad.contains("gopher"),
        "{bad}"
    );
    let bad = Policy::from_lists(&[], &[], &list(&["PO ST"])).expect_err("bad method");
    assert!(
        bad.contains("--webhook-method-allowlist") && bad.contains("PO ST"),
        "{bad}"
    );
}

#[test]
fn describe_says_each_list() {
    let text = Policy::default().describe();
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(text.contains("scheme allowlist: https"), "{text}");
    assert!(text.contains("any public address"), "{text}");
    assert!(text.contains("method allowlist: POST"), "{text}");
    let text = hosts(&["localhost"]).describe();
    assert!(
        text.contains("host allowlist: localhost (only these hosts)"),
        "{text}"
    );
}

#[tokio::test]
async fn literal_refused_addresses_are_refused_at_creation() {
    let policy = Policy::default();
    for (url, class) in [
        ("https://127.0.0.1/hook", "loopback"),
        ("https://10.0.0.1/hook", "private"),
        ("https://169.254.169.254/latest/meta-data", "link-local"),
        ("https://[::ffff:127.0.0.1]/hook", "loopback"),
        ("https://[64:ff9b::7f00:1]/hook", "loopback"),
        ("https://[::1]/hook", "loopback"),
        ("https://100.64.0.1/hook", "CGNAT"),
        ("https://0.0.0.0/hook", "unspecified"),
        ("https://[fe80::1]/hook", "link-local"),
    ] {
        let refusal = check(&policy, url).await.expect_err(url);
        assert!(refusal.reason.contains(class), "{url}: {refusal}");
        assert!(
            refusal.reason.contains("--webhook-host-allowlist"),
            "{refusal}"
        );
    }
    let refusal = check(&policy, "https://127.0.0.1/")
        .await
        .expect_err("loopback");
    assert_eq!(
        refusal.to_string(),
        "refused: 127.0.0.1 is a loopback address and is not allowlisted (--webhook-host-allowlist)"
    );
}

#[tokio::test]
async fn unusual_ipv4_spellings_are_the_address_they_mean() {
    let policy = Policy::default();
    for url in [
        "https://2130706433/",
        "https://0177.0.0.1/",
        "https://0x7f.1/",
        "https://127.1/",
        "https://0x7f000001/",
        "https://017700000001/",
    ] {
        let refusal = check(&policy, url).await.expect_err(url);
        assert!(
            refusal.reason.starts_with("127.0.0.1 is a loopback"),
            "{url}: {refusal}"
        );
    }
    let refusal = check(&policy, "https://0xa9.0xfe.0xa9.0xfe/")
        .await
        .expect_err("metadata");
    assert!(
        refusal
            .reason
            .starts_with("169.254.169.254 is a link-local"),
        "{refusal}"
    );
}

#[tokio::test]
async fn scheme_and_method_are_checked_at_creation() {
    let policy = Policy::default();
    let refusal = check(&policy, "http://93.184.215.14/")
        .await
        .expect_err("http");
    assert_eq!(
        refusal.reason,
        "scheme http is not in the webhook scheme allowlist (https)"
    );
    let refusal = check_definition(&policy, "get", "https://93.184.215.14/")
        .await
        .expect_err("GET");
    assert_eq!(
        refusal.reason,
        "method GET is not in the webhook method allowlist (POST)"
    );
    assert!(check(&policy, "not a url").await.is_err());
    assert!(check(&policy, "https://93.184.215.14/").await.is_ok());
}

#[tokio::test]
async fn names_resolving_to_loopback_are_refused_and_unresolvable_ones_accepted() {
    let policy = Policy::default();
    let refusal = check(&policy, "https://localhost/hook")
        .await
        .expect_err("localhost");
    assert!(
        refusal.reason.starts_with("localhost resolves to ") && refusal.reason.contains("loopback"),
        "{refusal}"
    );
    // `.invalid` never resolves (RFC 6761): checked again at delivery
    assert!(
        check(&policy, "https://hooks.accord-test.invalid/")
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn allowlisted_hosts_pass_whatever_their_class() {
    assert!(
        check(&hosts(&["localhost"]), "https://localhost/")
            .await
            .is_ok()
    );
    assert!(
        check(&hosts(&["LOCALHOST."]), "https://localhost./")
            .await
            .is_ok()
    );
    assert!(
        check(&hosts(&["127.0.0.0/8"]), "https://localhost/")
            .await
            .is_ok()
    );
    assert!(
        check(&hosts(&["127.0.0.1"]), "https://[::ffff:127.0.0.1]/")
            .await
            .is_ok()
    );
    assert!(
        check(&hosts(&["10.0.0.0/8"]), "https://10.9.9.9/")
            .await
            .is_ok()
    );
    assert!(
        check(&hosts(&["169.254.169.254"]), "https://169.254.169.254/")
            .await
            .is_ok()
    );
    // a non-empty allowlist allows only its hosts, public or not
    let refusal = check(&hosts(&["*.example.com"]), "https://93.184.215.14/")
        .await
        .expect_err("not listed");
    assert_eq!(
        refusal.reason,
        "host 93.184.215.14 is not in the webhook host allowlist (*.example.com)"
    );
    let refusal = check(&hosts(&["*.example.com"]), "https://example.org/")
        .await
        .expect_err("not listed");
    assert!(
        refusal.reason.starts_with("host example.org is not in"),
        "{refusal}"
    );
    assert!(
        check(&hosts(&["*.example.com"]), "https://a.example.com/")
            .await
            .is_ok()
    );
    let refusal = check(&hosts(&["10.0.0.0/8"]), "https://127.0.0.1/")
        .await
        .expect_err("loopback");
    assert!(refusal.reason.contains("loopback"), "{refusal}");
}

#[test]
fn excerpts_are_capped_on_a_char_boundary() {
    assert_eq!(send::excerpt(b"hello", 4), "hell");
    // "é" is two bytes: a cut in its middle drops it
    assert_eq!(send::excerpt("abé".as_bytes(), 3), "ab");
    assert_eq!(send::excerpt("€€".as_bytes(), 4), "€");
    assert_eq!(send::excerpt(b"ok", 4096), "ok");
    // invalid bytes become U+FFFD but never push the excerpt past the cap
    let text = send::excerpt(&[0xff, 0xff, 0xff, b'a'], 4);
    assert!(text.len() <= 4, "{text:?}");
}

#[test]
fn only_200_to_206_succeeds() {
    let with = |status| Attempt {
        status: Some(status),
        ..Attempt::empty(Instant::now())
    };
    assert!(with(200).succeeded());
    assert!(with(206).succeeded());
    assert!(!with(207).succeeded());
    assert!(!with(302).succeeded());
    assert!(!with(500).succeeded());
}

#[tokio::test]
async fn connections_go_only_to_the_pinned_addresses() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let port = listener.local_addr().expect("address").port();
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let mut buf = [0u8; 1024];
            let _ = stream.read(&mut buf).await;
            let answer =
                b"HTTP/1.1 204 No Content\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
            let _ = stream.write_all(answer).await;
        }
    });
    let policy = Policy::from_lists(&list(&["http"]), &list(&["*.accord-test.invalid"]), &[])
        .expect("valid");
    // a name no DNS knows: only the pin can take the client to the receiver
    let url = format!("http://pinned.accord-test.invalid:{port}/hook");
    let target = check::statically(&policy, "POST", &url).expect("allowed");
    let loopback = ["127.0.0.1".parse().expect("ip")];
    let client = send::pinned_client(&policy, &target, &loopback).expect("client");
    let answer = client.post(url).send().await.expect("pinned");
    assert_eq!(answer.status().as_u16(), 204);
    // any other name is never resolved by this client
    let other = client
        .post(format!("http://localhost:{port}/"))
        .send()
        .await;
    let error = send::describe(&other.expect_err("not pinned"));
    assert!(error.contains("localhost was not checked"), "{error}");
}

#[test]
fn one_refused_address_refuses_the_request() {
    let ip = |text: &str| text.parse().expect("ip");
    let target = check::statically(&Policy::default(), "POST", "https://hooks.example.com/")
        .expect("allowed");
    let public = [ip("93.184.215.14"), ip("2606:4700::1111")];
    assert!(check::addresses(&Policy::default(), &target, &public).is_ok());
    // a public and a private answer: no picking the good one
    let mixed = [ip("93.184.215.14"), ip("10.0.0.7")];
    let refusal = check::addresses(&Policy::default(), &target, &mixed).expect_err("mixed");
    assert_eq!(
        refusal.reason,
        "hooks.example.com resolves to 10.0.0.7, a private address, which is not allowlisted (--webhook-host-allowlist)"
    );
    let mapped = [ip("::ffff:169.254.169.254")];
    let refusal = check::addresses(&Policy::default(), &target, &mapped).expect_err("mapped");
    assert!(
        refusal
            .reason
            .contains("(carrying 169.254.169.254), a link-local"),
        "{refusal}"
    );
    // a block covers only its addresses
    let tens = hosts(&["10.0.0.0/8"]);
    let target = check::statically(&tens, "POST", "https://hooks.example.com/").expect("ok");
    assert!(check::addresses(&tens, &target, &[ip("10.0.0.7")]).is_ok());
    assert!(check::addresses(&tens, &target, &mixed).is_err());
}

#[tokio::test]
async fn headers_that_are_not_http_headers_are_refused_before_anything_is_sent() {
    let policy = hosts(&["127.0.0.1"]);
    for (name, value) in [("X-Ok", "a\r\nHost: evil"), ("Bad Name", "x"), ("", "x")] {
        let request = OutboundRequest {
            method: "POST".into(),
            url: "https://127.0.0.1:9/hook".into(),
            headers: vec![(name.into(), value.into())],
            body: None,
            basic_auth: None,
        };
        let attempt = deliver(&policy, &request).await;
        let refusal = attempt.refused.expect("refused");
        assert!(refusal.reason.contains("header"), "{refusal}");
        assert!(attempt.error.is_none() && attempt.status.is_none());
    }
}
