use serde_json::json;

use super::*;

#[test]
fn credentials_are_hidden_wherever_they_sit() {
    let v = json!({"headers": {"Authorization": "Bearer abc", "X-Api-Key": ["k"]},
        "push": {"token": "push-token-1", "scheme": "Bearer"},
        "note": "sent Authorization: bearer xyz, twice", "credential": "expired", "tenant": "t"});
    let shown = redact(&v);
    let text = shown.to_string();
    for secret in ["abc", "\"k\"", "push-token-1", "xyz"] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    assert_eq!(shown["credential"], "expired");
    assert_eq!(shown["push"]["scheme"], "Bearer");
    assert_eq!(shown["tenant"], "t");
    assert_eq!(shown["note"], "sent Authorization: bearer (hidden), twice");
}

#[test]
fn secret_names_match_by_stem_in_any_word_ignoring_case() {
    for name in [
        "authToken",
        "X-Vault-Token",
        "Private-Token",
        "X-Amz-Security-Token",
        "apiSecret",
        "api_key",
        "API-KEY",
        "APIKey",
        "client_secret",
        "Proxy-Authorization",
        "Set-Cookie",
        "user.password",
        "JSESSIONID",
        "credentials",
        "pwd",
        "jwt",
        "X-Access-Key",
        "sig",
        "X-Hub-Signature-256",
        "passphrase",
        "keys",
        "private_key",
        "sid",
        "otp",
        "x-csrf-token",
        "refresh_token",
        "AUTHZ",
    ] {
        assert!(is_secret_name(name), "{name}");
    }
    for name in [
        "tenant",
        "max_tokens",
        "maxTokens",
        "tokenType",
        "scheme",
        "description",
        "author",
        "authorId",
        "signal",
        "design",
        "assignee",
        "keywords",
        "passed",
        "principal",
        "key",
    ] {
        assert!(!is_secret_name(name), "{name}");
    }
}

#[test]
fn any_whitespace_after_bearer_or_basic_still_hides_the_credential() {
    assert_eq!(redact_text("Bearer  abc"), "Bearer  (hidden)");
    assert_eq!(redact_text("Bearer\tabc"), "Bearer\t(hidden)");
    assert_eq!(redact_text("basic\n dXNlcjpw"), "basic\n (hidden)");
    assert_eq!(redact_text("scheme Bearer"), "scheme Bearer");
    assert_eq!(redact_text("x;Bearer abc;y"), "x;Bearer (hidden);y");
}

#[test]
fn bearer_and_basic_in_prose_are_words() {
    for prose in [
        "uses basic auth",
        "the bearer of the card",
        "a Bearer token is required",
        "basically fine",
        "the basic plan",
    ] {
        assert_eq!(redact_text(prose), prose);
    }
}

#[test]
fn secret_pairs_of_forms_paths_headers_and_urls_are_hidden() {
    assert_eq!(
        redact_text("client_secret=s1&password=p2&grant_type=client_credentials"),
        "client_secret=(hidden)&password=(hidden)&grant_type=client_credentials"
    );
    assert_eq!(
        redact_text("/callback?access_token=t0k&state=ok#x"),
        "/callback?access_token=(hidden)&state=ok#x"
    );
    assert_eq!(
        redact_text("see https://bob:hunter2@ci.example/b?apiKey=k9 now"),
        "see https://(hidden)@ci.example/b?apiKey=(hidden) now"
    );
    assert_eq!(redact_text("a=1&b==2"), "a=1&b==2");
    assert_eq!(
        redact_text("pwd=p3&sig=s4&user=bob"),
        "pwd=(hidden)&sig=(hidden)&user=bob"
    );
    assert_eq!(
        redact_text("X-Access-Key: k5\nAccept: text/plain"),
        "X-Access-Key: (hidden)\nAccept: text/plain"
    );
    assert_eq!(
        redact_text("Authorization: Token t6"),
        "Authorization: Token (hidden)"
    );
    assert_eq!(
        redact_text(r#"got {"jwt": "j7", "name":"bob"} at 12:30"#),
        r#"got {"jwt": "(hidden)", "name":"bob"} at 12:30"#
    );
    assert_eq!(
        redact_text("Cookie: sid=c8; theme=dark"),
        "Cookie: (hidden); theme=dark"
    );
}

#[test]
fn a_url_to_link_loses_its_user_info_and_secret_query_values() {
    assert_eq!(
        redact_url("https://user:ghp_x@ci.example/run/7?token=abc&page=2"),
        "https://ci.example/run/7?token=(hidden)&page=2"
    );
    assert_eq!(
        redact_url("https://ci.example/run/7"),
        "https://ci.example/run/7"
    );
    assert_eq!(
        redact_url("https://ci.example/run/7?X-Amz-Signature=abc123&X-Amz-Date=20240101T000000Z"),
        "https://ci.example/run/7?X-Amz-Signature=(hidden)&X-Amz-Date=20240101T000000Z"
    );
}

#[test]
fn secret_like_json_keys_are_hidden_but_accord_words_are_not() {
    let v = json!({"authToken": "a1", "X-Vault-Token": "v1", "apiSecret": "s1",
        "body": "password=p1", "credential": "expired", "auth": {"credential": "eyJ.x.y"},
        "pin": 1234, "credentials": {"user": "u2", "pass": "p2", "type": "basic"}});
    let shown = redact(&v);
    let text = shown.to_string();
    for secret in ["a1", "v1", "s1", "p1", "eyJ", "1234", "u2", "p2"] {
        assert!(!text.contains(secret), "{secret} in {text}");
    }
    assert!(text.contains("\"credential\":\"expired\""), "{text}");
    assert_eq!(shown["credentials"]["type"], "basic");
}

#[test]
fn accords_auth_expectation_is_read_as_names() {
    let v = json!({"auth": {"principal": "alice", "tenant": "t-1", "credential": "none",
        "probes": [{"principal": "bob", "tenant": "t-2"}]}});
    assert_eq!(redact(&v), v);
    let other = json!({"auth": {"user": "alice", "secret": "s"}});
    assert_eq!(redact(&other)["auth"]["user"], HIDDEN);
}

#[test]
fn secret_shaped_values_are_hidden_under_any_name() {
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    let secrets = [
        jwt,
        "ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
        "sk_live_51H8xY2eZvKYlo2C9a8b7c6d",
        "AKIAIOSFODNN7EXAMPLE",
        "xoxb-2048-1234-abcdefABCDEF",
        "aZ3kP9xQ2mLr7TbY1wVe8NcU",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "3f9a0c2b7e1d4f6a8b0c2d4e6f8a0b1c",
        "dGhpcyBpcyBhIHNlY3JldCB2YWx1ZQ==",
        "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP",
    ];
    for s in secrets {
        let v = json!({"note": format!("value {s} here"), "list": [s]});
        let text = redact(&v).to_string();
        assert!(!text.contains(s), "{s} in {text}");
    }
}

#[test]
fn ordinary_values_keep_their_shape() {
    let ordinary = [
        "550e8400-e29b-41d4-a716-446655440000",
        "task-550e8400-e29b-41d4-a716-446655440000",
        "2024-01-15T10:30:00.123Z",
        "https://api.example.com/v1/users/12345/orders/67890?page=2&sort=desc",
        "getUserProfileV2ByAccountId",
        "ORDER_STATUS_CONFIRMED_2024",
        "order-2024-000123-confirmation-email",
        "/var/lib/accord/contracts/shop-service.json",
        "The quick brown fox jumps over the lazy dog 42 times",
        "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "507f1f77bcf86cd799439011",
        "TASK_STATE_INPUT_REQUIRED",
        "application/vnd.accord.contract+json",
        "com.example.payments.RefundRequestedEvent",
    ];
    for s in ordinary {
        assert_eq!(redact_text(s), s, "{s}");
    }
    let digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    let v = json!({"_id": digest, "taskId": "aZ3kP9xQ2mLr7TbY1wVe8NcU", "sha": digest});
    assert_eq!(redact(&v), v);
}

#[test]
fn a_finding_text_loses_the_values_it_quotes() {
    let actual = json!("hunter22");
    let hidden = hidden_texts("X-Api-Key", &actual);
    assert_eq!(hidden, ["hunter22"]);
    assert_eq!(
        without("header was 'hunter22'", &hidden),
        "header was '(hidden)'"
    );
}

/// Measures redaction of a large contract (`--ignored --nocapture`): a
/// 1 MiB form body, a 1 MiB text of `Bearer` words, and a JSON document
/// of 20,000 headers-and-body entries.
#[test]
#[ignore]
fn measure_large_inputs() {
    let started = std::time::Instant::now();
    let form = "user=bob&pwd=hunter2&".repeat(50_000);
    let bearer = "bearer ".repeat(150_000);
    let quotes = "\"a:".repeat(300_000);
    for text in [&form, &bearer, &quotes] {
        let t = std::time::Instant::now();
        let shown = redact_text(text);
        eprintln!(
            "{} bytes → {} bytes in {:?}",
            text.len(),
            shown.len(),
            t.elapsed()
        );
    }
    let entries: Vec<Value> = (0..20_000)
        .map(|n| json!({"headers": {"X-Api-Key": format!("k{n}"), "Accept": "text/plain"},
            "body": {"note": format!("order {n} paid with ghp_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"),
                     "taskId": "550e8400-e29b-41d4-a716-446655440000"}}))
        .collect();
    let doc = Value::Array(entries);
    let t = std::time::Instant::now();
    let text = pretty(&doc);
    eprintln!(
        "{} entries → {} bytes pretty in {:?}",
        20_000,
        text.len(),
        t.elapsed()
    );
    eprintln!("total {:?}", started.elapsed());
}

#[test]
fn rules_are_keyed_by_paths_not_by_value_names() {
    let v = json!({"matchingRules": {"header": {"Authorization": {"combine": "AND",
        "matchers": [{"match": "regex", "regex": "^Bearer [a-z0-9]+$"}]}}},
        "metadata": {"key": "plan-1", "topic": "plans"},
        "generators": {"body": {"$.token": {"type": "ProviderState", "expression": "${token}"}}}});
    assert_eq!(redact(&v), v);
    let leaked = json!({"matchingRules": {"body": {"$.x": {"matchers": [{"match": "include",
        "value": "Bearer abc123"}]}}}});
    assert!(!redact(&leaked).to_string().contains("abc123"));
}

#[test]
fn a_pattern_after_bearer_is_shown_a_credential_of_any_alphabet_is_not() {
    for pattern in ["^Bearer [a-z0-9]+$", "Bearer {{token}}", "Bearer ${token}"] {
        assert_eq!(redact_text(pattern), pattern);
    }
    assert_eq!(redact_text("Basic bob:hunter2!"), "Basic (hidden)");
    assert_eq!(redact_text("Bearer s3cr3t%21."), "Bearer (hidden)");
}

/// Texts built to make a careless scanner quadratic: each must take about
/// as long as reading it (not asserted: printed with `--nocapture`).
#[test]
fn adversarial_texts_are_redacted_in_one_pass() {
    let n = 20_000;
    for text in [
        format!("bearer {}", ".bearer".repeat(n)),
        format!("bearer [{}", "bearer ".repeat(n)),
        "\"a:".repeat(n),
        "k=".repeat(n),
    ] {
        let t = std::time::Instant::now();
        let shown = redact_text(&text);
        eprintln!("{} bytes in {:?}", text.len(), t.elapsed());
        assert!(!shown.is_empty());
    }
}
