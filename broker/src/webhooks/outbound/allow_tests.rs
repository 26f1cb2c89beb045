use super::*;

fn rule(item: &str) -> HostRule {
    HostRule::parse(item).expect("a valid rule")
}

#[test]
fn names_are_lower_case_without_trailing_dot() {
    assert_eq!(
        rule("Hooks.Example.COM."),
        HostRule::Name("hooks.example.com".into())
    );
    assert!(rule("hooks.example.com").matches_name("hooks.example.com"));
    assert!(!rule("hooks.example.com").matches_name("evil-hooks.example.com"));
    assert!(!rule("example.com").matches_name("a.example.com"));
}

#[test]
fn wildcards_match_subdomains_only() {
    let wild = rule("*.Example.com");
    assert_eq!(wild, HostRule::Wildcard("example.com".into()));
    assert!(wild.matches_name("a.example.com"));
    assert!(wild.matches_name("a.b.example.com"));
    assert!(!wild.matches_name("example.com"));
    assert!(!wild.matches_name("badexample.com"));
    assert!(!wild.matches_name(".example.com"));
}

#[test]
fn addresses_and_blocks() {
    let ten = rule("10.0.0.0/8");
    let HostRule::Net(ten) = ten else {
        panic!("a block")
    };
    assert!(ten.contains("10.200.0.1".parse().expect("ip")));
    assert!(!ten.contains("11.0.0.1".parse().expect("ip")));
    // the IPv4-mapped form of an address in the block is in it too
    assert!(ten.contains("::ffff:10.0.0.1".parse().expect("ip")));
    let HostRule::Net(one) = rule("::1/128") else {
        panic!("a block")
    };
    assert!(one.contains("::1".parse().expect("ip")));
    assert_eq!(rule("[::1]"), rule("::1/128"));
    assert_eq!(rule("127.0.0.1"), rule("127.0.0.1/32"));
    // host bits are cleared
    assert_eq!(rule("10.1.2.3/8").to_string(), "10.0.0.0/8");
    let HostRule::Net(mapped) = rule("::ffff:127.0.0.1") else {
        panic!("a block")
    };
    assert!(mapped.contains("127.0.0.1".parse().expect("ip")));
}

#[test]
fn unusual_ipv4_spellings_in_the_allowlist_are_the_address() {
    for spelling in ["127.1", "2130706433", "0x7f.1", "0177.0.0.1"] {
        assert_eq!(rule(spelling), rule("127.0.0.1"), "{spelling}");
    }
}

#[test]
fn bad_host_items_are_refused() {
    for bad in [
        "10.0.0.0/33",
        "::1/129",
        "10.0.0.0/x",
        "nonsense/8",
        "host:8080",
        "user@host",
        "a b",
        "*.",
        "*.10.0.0.1",
        "http://x",
        "..",
    ] {
        assert!(HostRule::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn schemes_and_methods() {
    assert_eq!(parse_scheme("HTTPS"), Ok("https".into()));
    assert_eq!(parse_scheme("http"), Ok("http".into()));
    assert!(parse_scheme("ftp").is_err());
    assert!(parse_scheme("1http").is_err());
    assert!(parse_scheme("ht tp").is_err());
    assert_eq!(parse_method("put"), Ok("PUT".into()));
    assert!(parse_method("PO ST").is_err());
    assert!(parse_method("").is_err());
    assert!(parse_method("GET\n").is_err());
}

#[test]
fn items_split_commas_and_trim() {
    let values = vec!["https, http".to_owned(), "".to_owned(), "x,".to_owned()];
    let got: Vec<&str> = items(&values).collect();
    assert_eq!(got, ["https", "http", "x"]);
}
