//! The checks before a request is sent: scheme, method and host against
//! the allowlists, then every address the host resolves to.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use reqwest::Url;

use super::allow::{HostRule, normal_name, parse_method};
use super::ranges::{Class, classify, embedded_v4};
use super::{Policy, Refusal};

/// A URL that passed the static checks.
#[derive(Debug)]
pub struct Target {
    pub url: Url,
    pub method: String,
    pub host: TargetHost,
    pub port: u16,
    /// The host name matches a name or wildcard of the host allowlist:
    /// whatever it resolves to is allowed.
    pub name_allowed: bool,
}

/// The URL's host: an address literal, or a name to resolve.
#[derive(Debug)]
pub enum TargetHost {
    Ip(IpAddr),
    /// As the URL spells it (lower case, punycode).
    Name(String),
}

/// A URL's host as its parser normalised it (`127.1` and `2130706433`
/// are 127.0.0.1 by then).
#[derive(Debug)]
pub enum Host {
    Domain(String),
    Ipv4(Ipv4Addr),
    Ipv6(Ipv6Addr),
}

/// The URL's host, read back from the parser's normal form.
pub fn url_host(url: &Url) -> Option<Host> {
    let text = url.host_str()?;
    if let Some(v6) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
        return v6.parse().ok().map(Host::Ipv6);
    }
    Some(match text.parse::<Ipv4Addr>() {
        Ok(v4) => Host::Ipv4(v4),
        Err(_) => Host::Domain(text.to_owned()),
    })
}

/// Scheme, method and the host's name against the allowlists, without I/O.
pub fn statically(policy: &Policy, method: &str, url: &str) -> Result<Target, Refusal> {
    let url = Url::parse(url)
        .map_err(|e| Refusal::new(format!("the webhook URL is not a valid URL ({e})")))?;
    if !policy.schemes.iter().any(|s| s == url.scheme()) {
        return Err(Refusal::new(format!(
            "scheme {} is not in the webhook scheme allowlist ({})",
            url.scheme(),
            policy.schemes.join(", ")
        )));
    }
    let method = parse_method(method).map_err(Refusal::new)?;
    if !policy.methods.contains(&method) {
        return Err(Refusal::new(format!(
            "method {method} is not in the webhook method allowlist ({})",
            policy.methods.join(", ")
        )));
    }
    let host = match url_host(&url) {
        Some(Host::Domain(name)) => TargetHost::Name(name),
        Some(Host::Ipv4(ip)) => TargetHost::Ip(ip.into()),
        Some(Host::Ipv6(ip)) => TargetHost::Ip(ip.into()),
        None => return Err(Refusal::new("the webhook URL has no host")),
    };
    let port = url
        .port_or_known_default()
        .ok_or_else(|| Refusal::new("the webhook URL has no port"))?;
    let name_allowed = match &host {
        TargetHost::Name(name) => {
            let name = normal_name(name);
            policy.hosts.iter().any(|rule| rule.matches_name(&name))
        }
        TargetHost::Ip(_) => false,
    };
    let nets = policy.hosts.iter().any(|r| matches!(r, HostRule::Net(_)));
    if !policy.hosts.is_empty() && !name_allowed && !nets {
        return Err(not_listed(policy, &host));
    }
    Ok(Target {
        url,
        method,
        host,
        port,
        name_allowed,
    })
}

/// The host's addresses: the literal, or the name resolved once (bounded
/// by the connect timeout). Err: it did not resolve.
pub async fn resolve(policy: &Policy, target: &Target) -> Result<Vec<IpAddr>, String> {
    let name = match &target.host {
        TargetHost::Ip(ip) => return Ok(vec![*ip]),
        TargetHost::Name(name) => name,
    };
    let lookup = tokio::net::lookup_host((name.as_str(), target.port));
    let found = match tokio::time::timeout(policy.connect, lookup).await {
        Ok(Ok(found)) => found,
        Ok(Err(e)) => return Err(format!("{name} did not resolve: {e}")),
        Err(_) => {
            return Err(format!(
                "{name} did not resolve within {} ms (the webhook connect timeout)",
                policy.connect.as_millis()
            ));
        }
    };
    let mut addrs: Vec<IpAddr> = Vec::new();
    for addr in found {
        if !addrs.contains(&addr.ip()) {
            addrs.push(addr.ip());
        }
    }
    if addrs.is_empty() {
        return Err(format!("{name} resolved to no address"));
    }
    Ok(addrs)
}

/// Every address must pass: one refused address refuses the request.
pub fn addresses(policy: &Policy, target: &Target, addrs: &[IpAddr]) -> Result<(), Refusal> {
    if target.name_allowed {
        return Ok(());
    }
    for ip in addrs {
        let listed = policy.hosts.iter().any(|rule| match rule {
            HostRule::Net(cidr) => cidr.contains(*ip),
            _ => false,
        });
        let class = classify(*ip);
        if listed || (policy.hosts.is_empty() && class.is_public()) {
            continue;
        }
        if class.is_public() {
            return Err(not_listed(policy, &target.host));
        }
        return Err(refused_class(&target.host, *ip, class));
    }
    Ok(())
}

fn not_listed(policy: &Policy, host: &TargetHost) -> Refusal {
    let host = match host {
        TargetHost::Ip(ip) => ip.to_string(),
        TargetHost::Name(name) => name.clone(),
    };
    Refusal::new(format!(
        "host {host} is not in the webhook host allowlist ({})",
        policy.host_list()
    ))
}

fn refused_class(host: &TargetHost, ip: IpAddr, class: Class) -> Refusal {
    let article = if class
        .to_string()
        .starts_with(['a', 'e', 'i', 'o', 'u', 'I'])
    {
        "an"
    } else {
        "a"
    };
    let carried = match ip {
        IpAddr::V6(v6) => embedded_v4(v6)
            .map(|v4| format!(" (carrying {v4})"))
            .unwrap_or_default(),
        IpAddr::V4(_) => String::new(),
    };
    let what = format!("{article} {class} address");
    Refusal::new(match host {
        TargetHost::Ip(_) => {
            format!("{ip}{carried} is {what} and is not allowlisted (--webhook-host-allowlist)")
        }
        TargetHost::Name(name) => format!(
            "{name} resolves to {ip}{carried}, {what}, which is not allowlisted (--webhook-host-allowlist)"
        ),
    })
}
