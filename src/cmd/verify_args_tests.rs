//! Pact verifier's flag names parse into the same `VerifyArgs` fields as
//! Accord's own, `--hostname`/`--port`/`--scheme`/`--base-path` assemble
//! the base URL, and `--help` lists each alias once.

use clap::{CommandFactory, Parser};

use super::VerifyArgs;
use super::config_of::base_url;
use crate::cmd::{Cli, Command};

fn parse(extra: &[&str]) -> Result<VerifyArgs, clap::Error> {
    let argv = ["accord", "verify"].iter().chain(extra);
    match Cli::try_parse_from(argv)?.command {
        Command::Verify(args) => Ok(*args),
        other => panic!("not verify: {other:?}"),
    }
}

fn parsed(extra: &[&str]) -> VerifyArgs {
    parse(extra).unwrap_or_else(|e| panic!("{extra:?} does not parse: {e}"))
}

const BASE: [&str; 2] = ["--provider-base-url", "http://127.0.0.1:8080"];

/// `args` with the provider and base URL every run needs.
fn with_base<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut all = vec!["--provider", "items"];
    all.extend_from_slice(&BASE);
    all.extend_from_slice(args);
    all
}

#[test]
fn the_provider_is_named_by_provider_name_or_n() {
    for flag in ["--provider", "--provider-name", "-n"] {
        let args = parsed(&[flag, "items", BASE[0], BASE[1], "--contract", "a.json"]);
        assert_eq!(args.provider, "items", "{flag}");
    }
}

#[test]
fn pact_files_and_directories_are_contracts() {
    for flag in ["--contract", "--file", "-f", "--dir", "-d"] {
        let args = parsed(&with_base(&[flag, "pacts/a.json", flag, "pacts"]));
        let got: Vec<_> = args
            .contracts
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        assert_eq!(got, ["pacts/a.json", "pacts"], "{flag}");
    }
}

#[test]
fn pact_urls_are_given_by_url_or_u() {
    for flag in ["--pact-url", "--url", "-u"] {
        let args = parsed(&with_base(&[flag, "http://b/pacts/1"]));
        assert_eq!(args.pact_urls, ["http://b/pacts/1"], "{flag}");
    }
}

#[test]
fn broker_options_take_pact_verifier_names() {
    let args = parsed(&with_base(&["-b", "http://broker", "-t", "secret"]));
    assert_eq!(args.broker.broker_url.as_deref(), Some("http://broker"));
    assert_eq!(args.broker.token.as_deref(), Some("secret"));
    let args = parsed(&with_base(&["--user", "u", "--password", "p"]));
    assert_eq!(args.broker.broker_username.as_deref(), Some("u"));
    assert_eq!(args.broker.broker_password.as_deref(), Some("p"));
}

#[test]
fn branch_tags_and_wip_take_pact_verifier_names() {
    let args = parsed(&with_base(&[
        "--provider-version-branch",
        "main",
        "--provider-tags",
        "a,b",
        "--include-wip-pacts-since",
        "2026-01-01",
    ]));
    assert_eq!(args.provider_branch.as_deref(), Some("main"));
    assert_eq!(args.provider_tags, ["a", "b"]);
    assert_eq!(args.include_wip_since.as_deref(), Some("2026-01-01"));
}

#[test]
fn states_consumers_and_timeout_take_pact_verifier_names() {
    let args = parsed(&with_base(&[
        "-s",
        "http://p/_state",
        "-c",
        "web",
        "--request-timeout",
        "1500",
        "--contract",
        "a.json",
    ]));
    assert_eq!(args.state_change_url.as_deref(), Some("http://p/_state"));
    assert_eq!(args.filter_consumers, ["web"]);
    assert_eq!(args.request_timeout_ms, 1500);
}

#[test]
fn hostname_port_scheme_and_base_path_make_the_base_url() {
    let url = |extra: &[&str]| {
        let mut all = vec!["--provider", "items", "--contract", "a.json"];
        all.extend_from_slice(extra);
        base_url(&parsed(&all))
    };
    assert_eq!(url(&["--hostname", "h", "--port", "81"]), "http://h:81");
    assert_eq!(url(&["-p", "8080"]), "http://localhost:8080");
    assert_eq!(url(&["--hostname", "h"]), "http://h");
    assert_eq!(
        url(&["--transport", "https", "--hostname", "h"]),
        "https://h"
    );
    assert_eq!(
        url(&["--scheme", "https", "-p", "8443"]),
        "https://localhost:8443"
    );
    assert_eq!(
        url(&["-p", "80", "--base-path", "/api/"]),
        "http://localhost:80/api"
    );
    assert_eq!(
        url(&["-p", "80", "--base-path", "api"]),
        "http://localhost:80/api"
    );
    assert_eq!(url(&["--hostname", "::1", "-p", "80"]), "http://[::1]:80");
    assert_eq!(url(BASE.as_slice()), "http://127.0.0.1:8080");
}

#[test]
fn a_base_url_and_its_pact_parts_together_are_refused_by_name() {
    for (part, named) in [
        (["--hostname", "h"], "--hostname"),
        (["--port", "80"], "--port"),
        (["--scheme", "https"], "--scheme"),
        (["--transport", "https"], "--scheme"),
        (["--base-path", "/api"], "--base-path"),
    ] {
        let err = parse(&with_base(&part)).expect_err("refused");
        assert_eq!(err.kind(), clap::error::ErrorKind::ArgumentConflict);
        let text = err.to_string();
        assert!(
            text.contains("--provider-base-url") && text.contains(named),
            "{text}"
        );
    }
}

#[test]
fn without_a_base_url_or_its_parts_verify_asks_for_one() {
    let err = parse(&["--provider", "items", "--contract", "a.json"]).expect_err("refused");
    assert_eq!(err.kind(), clap::error::ErrorKind::MissingRequiredArgument);
    assert!(err.to_string().contains("--provider-base-url"), "{err}");
}

#[test]
fn help_lists_each_pact_name_once_as_an_alias() {
    let mut cli = Cli::command();
    let verify = cli.find_subcommand_mut("verify").expect("verify");
    let help = verify.render_long_help().to_string();
    let words = help.split_whitespace().collect::<Vec<_>>().join(" ");
    for alias in [
        "--provider-name",
        "--url",
        "--file",
        "--dir",
        "--user",
        "--password",
        "--transport",
        "--request-timeout",
        "--provider-version-branch",
        "--provider-tags",
        "--include-wip-pacts-since",
    ] {
        let listed = words
            .split(['[', ']', ' ', ','])
            .filter(|w| *w == alias)
            .count();
        assert_eq!(listed, 1, "{alias} is listed {listed} times: {help}");
    }
    for short in ["-n", "-f", "-d", "-u", "-b", "-t", "-p", "-s", "-c"] {
        assert!(
            words.contains(&format!("{short},")) || words.contains(&format!("{short}]")),
            "{short} is not listed as an alias: {help}"
        );
    }
}

#[test]
fn the_guards_become_the_configs_origins_and_stream_deadline() {
    let source = || accord_verifier::ContractSource::Files(Vec::new());
    let args = parsed(&with_base(&["--contract", "a.json"]));
    let config = super::config_of::config(&args, source()).expect("a config");
    assert!(config.allowed_origins.is_empty());
    assert_eq!(config.other_origin, accord_verifier::OtherOrigin::Refuse);
    assert_eq!(config.limits.stream_timeout.as_secs(), 120);
    let args = parsed(&with_base(&[
        "--allow-origin",
        "http://127.0.0.1:9090/a2a",
        "--other-origin-interface",
        "without-credentials",
        "--stream-timeout",
        "5",
        "--contract",
        "a.json",
    ]));
    let config = super::config_of::config(&args, source()).expect("a config");
    let allowed = accord_verifier::Origin::parse("http://127.0.0.1:9090").expect("an origin");
    assert_eq!(config.allowed_origins, [allowed]);
    assert_eq!(
        config.other_origin,
        accord_verifier::OtherOrigin::WithoutCredentials
    );
    assert_eq!(config.limits.stream_timeout.as_secs(), 5);
    let bad = parsed(&with_base(&[
        "--allow-origin",
        "ftp://x",
        "--contract",
        "a.json",
    ]));
    assert!(super::config_of::config(&bad, source()).is_err());
}

/// `args` publishing to a broker.
fn publishing<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut all = vec![
        "--broker-url",
        "http://127.0.0.1:9292",
        "--provider-version",
        "2.0",
        "--publish",
    ];
    all.extend_from_slice(args);
    with_base(&all)
}

#[test]
fn the_producer_digest_and_evidence_ttl_parse_within_their_bounds() {
    let digest = format!("sha256:{}", "a".repeat(64));
    let args = parsed(&publishing(&["--producer-digest", &digest]));
    assert_eq!(args.producer_digest.as_deref(), Some(digest.as_str()));
    assert_eq!(args.evidence_ttl, None, "the broker's default, 7 days");
    for (text, seconds) in [
        ("90m", 5400),
        ("36h", 129_600),
        ("7d", 604_800),
        ("90d", 7_776_000),
    ] {
        let args = parsed(&publishing(&["--evidence-ttl", text]));
        assert_eq!(args.evidence_ttl, Some(seconds), "{text}");
    }
}

#[test]
fn a_bad_producer_digest_or_evidence_ttl_is_a_clear_usage_error() {
    let refused = |extra: &[&str], says: &str| {
        let err = parse(&publishing(extra)).expect_err("refused").to_string();
        assert!(err.contains(says), "{extra:?}: {err}");
    };
    refused(
        &["--producer-digest", "sha256:XYZ"],
        "64 lower-case hex digits",
    );
    refused(&["--producer-digest", "md5:abc"], "--producer-digest");
    for text in ["0m", "91d", "30s", "1.5h", "d", "99999999999999999999d"] {
        refused(&["--evidence-ttl", text], "--evidence-ttl");
    }
    refused(&["--evidence-ttl=-1d"], "--evidence-ttl");
    refused(&["--evidence-ttl", "91d"], "90 days");
    refused(&["--evidence-ttl", "30s"], "a unit (m, h or d)");
    // without --publish there is nothing to send them with
    let digest = format!("sha256:{}", "a".repeat(64));
    let err = parse(&with_base(&[
        "--contract",
        "a.json",
        "--producer-digest",
        &digest,
    ]));
    assert!(err.is_err());
}
