//! DNS-rebinding protection (pure), as the MCP spec asks of a local
//! server ("validate the `Origin` header") and the Python SDK does when it
//! listens on loopback: a mock on a loopback address answers only requests
//! whose `Host` (421) and `Origin` (403, when sent) name a loopback host.
//! A mock listening on another address (`--host 0.0.0.0` in a container,
//! reached by a service name) checks neither.

/// Why a request is refused: the status and the text, if it is.
pub(super) fn refusal(
    listen_host: &str,
    host: Option<&str>,
    origin: Option<&str>,
) -> Option<(u16, &'static str)> {
    if !loopback(listen_host.trim_start_matches('[').trim_end_matches(']')) {
        return None;
    }
    if host.is_some_and(|h| !loopback(host_name(h))) {
        return Some((421, "Invalid Host header"));
    }
    if origin.is_some_and(|o| o != "null" && !loopback(host_name(after_scheme(o)))) {
        return Some((403, "Invalid Origin header"));
    }
    None
}

fn after_scheme(url: &str) -> &str {
    url.split_once("://").map_or(url, |(_, rest)| rest)
}

fn loopback(host: &str) -> bool {
    matches!(
        host.to_ascii_lowercase().as_str(),
        "localhost" | "127.0.0.1" | "::1" | "[::1]"
    )
}

/// The host of `host[:port]`, `[v6][:port]` or a URL's authority and path.
fn host_name(authority: &str) -> &str {
    let authority = authority.split('/').next().unwrap_or_default();
    if authority.starts_with('[') {
        return authority.split_inclusive(']').next().unwrap_or(authority);
    }
    authority.split(':').next().unwrap_or(authority)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_loopback_only_loopback_hosts_and_origins_are_served() {
        let r = |host, origin| refusal("127.0.0.1", host, origin).map(|(s, _)| s);
        assert_eq!(r(Some("127.0.0.1:8080"), None), None);
        assert_eq!(
            r(Some("localhost:8080"), Some("http://localhost:3000")),
            None
        );
        assert_eq!(r(Some("[::1]:8080"), Some("http://[::1]:8080")), None);
        assert_eq!(r(None, None), None, "HTTP/1.0 sends no Host");
        assert_eq!(r(Some("evil.example.com"), None), Some(421));
        assert_eq!(
            r(Some("127.0.0.1:8080"), Some("http://evil.example.com")),
            Some(403)
        );
        assert_eq!(r(Some("127.0.0.1.evil.example.com"), None), Some(421));
    }

    #[test]
    fn a_mock_listening_elsewhere_checks_nothing() {
        assert_eq!(
            refusal("0.0.0.0", Some("mock:8080"), Some("http://app")),
            None
        );
        assert!(refusal("::1", Some("evil"), None).is_some());
    }
}
