//! Where credentials may go: pure.
//!
//! The provider under test chooses some URLs (its Agent Card's interfaces);
//! the user chooses origins (`--provider-base-url`, `--agent-card-url`,
//! `--allow-origin`). Credentials — the principals' tokens, an
//! `Authorization`, every `--header` — go only to an origin the user chose.
//! A URL the provider chose on another origin is never sent credentials;
//! it is used without them only when the user allows it
//! ([`OtherOrigin::WithoutCredentials`]), and never when it names an
//! internal address (loopback, private, link-local, cloud metadata) other
//! than the given origin's own host: a card must not turn the verifier
//! into a probe of the network it runs in. Host names are judged as
//! written, not resolved.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::error::VerifyError;

/// An origin: scheme, host and port (the scheme's default when absent).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Origin {
    scheme: String,
    host: String,
    port: u16,
}

impl Origin {
    /// The origin of an `http`/`https` URL with a host.
    pub fn of(url: &str) -> Option<Origin> {
        let url = reqwest::Url::parse(url).ok()?;
        if !matches!(url.scheme(), "http" | "https") {
            return None;
        }
        Some(Origin {
            scheme: url.scheme().to_owned(),
            host: url.host_str()?.trim_end_matches('.').to_owned(),
            port: url.port_or_known_default()?,
        })
    }

    /// `--allow-origin`: a URL whose origin the user trusts.
    pub fn parse(text: &str) -> Result<Origin, VerifyError> {
        Origin::of(text).ok_or_else(|| VerifyError::InvalidUrl {
            what: "an allowed origin",
            url: text.to_owned(),
        })
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}:{}", self.scheme, self.host, self.port)
    }
}

/// What to do with an interface the card names on another origin
/// (`--other-origin-interface`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OtherOrigin {
    /// Nothing is sent there (the finding says why).
    #[default]
    Refuse,
    /// Replayed on, without credentials or `--header` values.
    WithoutCredentials,
}

/// What may be sent to a URL the provider chose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reach {
    /// An origin the user chose: with credentials.
    Given,
    /// Another origin, allowed without credentials.
    Uncredentialed(Origin),
    /// Not sent to at all: why.
    Refused(String),
}

/// The origins credentials may go to, and the rule for the others.
#[derive(Debug, Clone, Default)]
pub struct Origins {
    given: Vec<Origin>,
    /// The provider base URL's host: its internal address is the test
    /// setup, not a probe.
    home: Option<String>,
    other: OtherOrigin,
}

impl Origins {
    /// The base URL's origin, the Agent Card URL's (the user named both)
    /// and the allowed ones.
    pub fn new(base_url: &str, card_url: &str, allowed: &[Origin], other: OtherOrigin) -> Self {
        let home = Origin::of(base_url);
        let mut given: Vec<Origin> = Vec::new();
        let named = home.iter().cloned().chain(Origin::of(card_url));
        for origin in named.chain(allowed.iter().cloned()) {
            if !given.contains(&origin) {
                given.push(origin);
            }
        }
        Origins {
            given,
            home: home.map(|o| o.host),
            other,
        }
    }

    /// The origins credentials go to, for the report.
    pub fn given(&self) -> String {
        let list: Vec<String> = self.given.iter().map(Origin::to_string).collect();
        list.join(", ")
    }

    /// What may be sent to `url`.
    pub fn reach(&self, url: &str) -> Reach {
        let Some(origin) = Origin::of(url) else {
            return Reach::Refused("it is not an http(s) URL with a host".to_owned());
        };
        if self.given.iter().any(|g| same_listener(g, &origin)) {
            return Reach::Given;
        }
        let home = self.home.as_deref() == Some(origin.host.as_str());
        if let Some(what) = internal(&origin.host).filter(|_| !home) {
            return Reach::Refused(format!("it names {what}"));
        }
        match self.other {
            OtherOrigin::WithoutCredentials => Reach::Uncredentialed(origin),
            OtherOrigin::Refuse => Reach::Refused(format!(
                "it is on another origin ({origin}) and --other-origin-interface is `refuse`"
            )),
        }
    }
}

/// `b` is `a`, or names the same port of this machine by another loopback
/// spelling (`localhost`, `127.0.0.1`, `[::1]`, `0.0.0.0`): an agent
/// started on `localhost` that is verified through `127.0.0.1` names its
/// own listener, and credentials sent there never leave the machine.
fn same_listener(a: &Origin, b: &Origin) -> bool {
    a == b
        || (a.scheme == b.scheme
            && a.port == b.port
            && internal(&a.host) == Some(LOOPBACK)
            && internal(&b.host) == Some(LOOPBACK))
}

const LOOPBACK: &str = "a loopback address";

/// What kind of internal address a host is, if it is one.
fn internal(host: &str) -> Option<&'static str> {
    let name = host.to_ascii_lowercase();
    if name == "localhost" || name.ends_with(".localhost") {
        return Some(LOOPBACK);
    }
    if matches!(name.as_str(), "metadata" | "metadata.google.internal") {
        return Some("a cloud metadata address");
    }
    match name.trim_start_matches('[').trim_end_matches(']').parse() {
        Ok(IpAddr::V4(ip)) => internal_v4(ip),
        Ok(IpAddr::V6(ip)) => match ip.to_ipv4_mapped() {
            Some(v4) => internal_v4(v4),
            None => internal_v6(ip),
        },
        Err(_) => None,
    }
}

fn internal_v4(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, ..] = ip.octets();
    if ip == Ipv4Addr::new(169, 254, 169, 254) || ip == Ipv4Addr::new(100, 100, 100, 200) {
        Some("a cloud metadata address")
    } else if ip.is_link_local() {
        Some("a link-local address")
    } else if ip.is_loopback() || a == 0 {
        Some(LOOPBACK)
    } else if ip.is_private() || (a == 100 && (64..128).contains(&b)) {
        Some("a private address")
    } else {
        None
    }
}

fn internal_v6(ip: Ipv6Addr) -> Option<&'static str> {
    let first = ip.segments()[0];
    if ip == Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254) {
        Some("a cloud metadata address")
    } else if ip.is_loopback() || ip.is_unspecified() {
        Some(LOOPBACK)
    } else if first & 0xffc0 == 0xfe80 {
        Some("a link-local address")
    } else if first & 0xfe00 == 0xfc00 {
        Some("a private address")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origins(other: OtherOrigin) -> Origins {
        let allowed = [Origin::parse("https://agents.example").expect("a URL")];
        Origins::new(
            "http://127.0.0.1:8080/base",
            "http://127.0.0.1:8080/.well-known/agent-card.json",
            &allowed,
            other,
        )
    }

    #[test]
    fn the_given_and_allowed_origins_get_credentials() {
        let o = origins(OtherOrigin::Refuse);
        assert_eq!(o.reach("http://127.0.0.1:8080/a2a"), Reach::Given);
        assert_eq!(o.reach("https://agents.example:443/rpc"), Reach::Given);
        assert_eq!(
            o.given(),
            "http://127.0.0.1:8080, https://agents.example:443"
        );
    }

    /// An agent that names itself `localhost` (or its bind address
    /// `0.0.0.0`) while it is verified through `127.0.0.1` names the same
    /// listener: no false alarm, and credentials stay on this machine.
    #[test]
    fn another_loopback_spelling_of_the_given_port_is_the_given_origin() {
        let o = origins(OtherOrigin::Refuse);
        for url in [
            "http://localhost:8080/a2a",
            "http://0.0.0.0:8080/",
            "http://[::1]:8080/rest",
            "http://127.0.0.5:8080/",
        ] {
            assert_eq!(o.reach(url), Reach::Given, "{url}");
        }
    }

    #[test]
    fn another_port_or_host_is_another_origin() {
        let refuse = origins(OtherOrigin::Refuse);
        assert!(
            matches!(refuse.reach("http://127.0.0.1:9090/a2a"), Reach::Refused(w) if w.contains("another origin"))
        );
        assert!(matches!(
            refuse.reach("http://agents.example/a2a"),
            Reach::Refused(_)
        ));
        let open = origins(OtherOrigin::WithoutCredentials);
        assert_eq!(
            open.reach("http://127.0.0.1:9090/a2a"),
            Reach::Uncredentialed(Origin::parse("http://127.0.0.1:9090").expect("a URL"))
        );
        assert!(matches!(
            open.reach("https://other.example/a2a"),
            Reach::Uncredentialed(_)
        ));
    }

    #[test]
    fn internal_addresses_other_than_the_home_host_are_refused_even_without_credentials() {
        let open = origins(OtherOrigin::WithoutCredentials);
        for (url, what) in [
            ("http://169.254.169.254/a2a", "cloud metadata"),
            ("http://[fd00:ec2::254]/a2a", "cloud metadata"),
            ("http://metadata.google.internal/a2a", "cloud metadata"),
            ("http://169.254.1.1/a2a", "link-local"),
            ("http://[fe80::1]/a2a", "link-local"),
            ("http://localhost:9090/a2a", "loopback"),
            ("http://127.0.0.2/a2a", "loopback"),
            ("http://[::1]/a2a", "loopback"),
            ("http://0.0.0.0:9090/a2a", "loopback"),
            ("https://localhost:8080/a2a", "loopback"),
            ("http://10.0.0.5/a2a", "private"),
            ("http://172.16.3.4/a2a", "private"),
            ("http://192.168.1.1/a2a", "private"),
            ("http://[fc00::1]/a2a", "private"),
            ("http://[::ffff:10.1.2.3]/a2a", "private"),
            ("file:///etc/passwd", "not an http"),
        ] {
            match open.reach(url) {
                Reach::Refused(why) => assert!(why.contains(what), "{url}: {why}"),
                other => panic!("{url}: {other:?}"),
            }
        }
        let allowed = [Origin::parse("http://10.0.0.5").expect("a URL")];
        let trusted = Origins::new("http://127.0.0.1:1", "", &allowed, OtherOrigin::Refuse);
        assert_eq!(trusted.reach("http://10.0.0.5:80/a2a"), Reach::Given);
    }
}
