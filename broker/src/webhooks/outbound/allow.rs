//! The three allowlists (`--webhook-scheme-allowlist`, `…-host-…`,
//! `…-method-…`): parsed once from the flags, then matched per request.

use std::fmt;
use std::net::IpAddr;

use reqwest::Url;

use super::check::{Host, url_host};

/// An address block: `10.0.0.0/8`, `::1/128` (a lone address is a /32 or /128).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    net: IpAddr,
    prefix: u32,
}

impl Cidr {
    /// The block `net/prefix`, host bits cleared; `None` when the prefix is too long.
    pub fn new(net: IpAddr, prefix: u32) -> Option<Cidr> {
        let net = match net {
            IpAddr::V4(v4) if prefix <= 32 => IpAddr::V4((u32::from(v4) & mask32(prefix)).into()),
            IpAddr::V6(v6) if prefix <= 128 => {
                IpAddr::V6((u128::from(v6) & mask128(prefix)).into())
            }
            _ => return None,
        };
        Some(Cidr { net, prefix })
    }

    fn contains_exactly(&self, ip: IpAddr) -> bool {
        match (self.net, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                u32::from(ip) & mask32(self.prefix) == u32::from(net)
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                u128::from(ip) & mask128(self.prefix) == u128::from(net)
            }
            _ => false,
        }
    }

    /// Whether `ip` is in the block; an IPv4-mapped IPv6 address and the
    /// IPv4 address it maps are the same address here.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let mapped = match ip {
            IpAddr::V4(v4) => IpAddr::V6(v4.to_ipv6_mapped()),
            IpAddr::V6(_) => ip.to_canonical(),
        };
        self.contains_exactly(ip) || self.contains_exactly(mapped)
    }
}

fn mask32(prefix: u32) -> u32 {
    u32::MAX.checked_shl(32 - prefix).unwrap_or(0)
}

fn mask128(prefix: u32) -> u128 {
    u128::MAX.checked_shl(128 - prefix).unwrap_or(0)
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.net, self.prefix)
    }
}

/// One entry of the host allowlist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostRule {
    /// An exact name, lower case, no trailing dot.
    Name(String),
    /// `*.example.com`: the subdomains of `example.com` (not itself).
    Wildcard(String),
    /// An address or a block of them.
    Net(Cidr),
}

impl fmt::Display for HostRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HostRule::Name(name) => f.write_str(name),
            HostRule::Wildcard(suffix) => write!(f, "*.{suffix}"),
            HostRule::Net(cidr) => cidr.fmt(f),
        }
    }
}

/// A host name as it is compared: lower case, no trailing dot.
pub fn normal_name(name: &str) -> String {
    name.trim_end_matches('.').to_ascii_lowercase()
}

impl HostRule {
    /// Parses one item: a name, `*.name`, an IP literal (`[::1]` too) or a CIDR.
    pub fn parse(item: &str) -> Result<HostRule, String> {
        if let Some((ip, prefix)) = item.split_once('/') {
            let ip: IpAddr = ip
                .trim_start_matches('[')
                .trim_end_matches(']')
                .parse()
                .map_err(|_| format!("`{ip}` is not an IP address"))?;
            let prefix: u32 = prefix
                .parse()
                .map_err(|_| format!("`{prefix}` is not a prefix length"))?;
            return Cidr::new(ip, prefix)
                .map(HostRule::Net)
                .ok_or_else(|| format!("prefix length {prefix} is too long for {ip}"));
        }
        if let Ok(ip) = item.parse::<IpAddr>() {
            return Ok(HostRule::Net(Cidr::new(ip, full(ip)).ok_or("bad address")?));
        }
        if let Some(suffix) = item.strip_prefix("*.") {
            return match parse_host(suffix)? {
                Host::Domain(name) => Ok(HostRule::Wildcard(name)),
                _ => Err("a wildcard needs a name after `*.`".into()),
            };
        }
        match parse_host(item)? {
            Host::Domain(name) => Ok(HostRule::Name(name)),
            Host::Ipv4(ip) => Ok(HostRule::Net(Cidr {
                net: ip.into(),
                prefix: 32,
            })),
            Host::Ipv6(ip) => Ok(HostRule::Net(Cidr {
                net: ip.into(),
                prefix: 128,
            })),
        }
    }

    /// Whether this rule names `name` (already normal).
    pub fn matches_name(&self, name: &str) -> bool {
        match self {
            HostRule::Name(rule) => rule == name,
            HostRule::Wildcard(suffix) => name
                .strip_suffix(suffix.as_str())
                .is_some_and(|head| head.len() > 1 && head.ends_with('.')),
            HostRule::Net(_) => false,
        }
    }
}

fn full(ip: IpAddr) -> u32 {
    if ip.is_ipv4() { 32 } else { 128 }
}

/// A host as a URL's parser reads it (so `127.1` is 127.0.0.1 and
/// `Bücher.example` its punycode), names normalised.
fn parse_host(item: &str) -> Result<Host, String> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_.[]:".contains(c) || !c.is_ascii();
    if item.is_empty() || !item.chars().all(plain) {
        return Err(format!("`{item}` is not a host name, IP address or CIDR"));
    }
    let url = Url::parse(&format!("http://{item}/"))
        .map_err(|e| format!("`{item}` is not a host name, IP address or CIDR: {e}"))?;
    if url.port().is_some() {
        return Err(format!("`{item}`: a host allowlist entry has no port"));
    }
    match url_host(&url) {
        Some(Host::Domain(name)) => {
            let name = normal_name(&name);
            let valid = !name.is_empty()
                && name
                    .split('.')
                    .all(|label| !label.is_empty() && label.len() <= 63);
            if valid {
                Ok(Host::Domain(name))
            } else {
                Err(format!("`{item}` is not a valid host name"))
            }
        }
        Some(Host::Ipv4(ip)) => Ok(Host::Ipv4(ip)),
        Some(Host::Ipv6(ip)) => Ok(Host::Ipv6(ip)),
        None => Err(format!("`{item}` is not a host")),
    }
}

/// A scheme allowlist item: `http` or `https` (what webhooks are sent over).
pub fn parse_scheme(item: &str) -> Result<String, String> {
    let scheme = item.to_ascii_lowercase();
    let syntax = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
    if !syntax {
        return Err(format!("`{item}` is not a URL scheme"));
    }
    if scheme != "http" && scheme != "https" {
        return Err(format!(
            "`{item}`: webhooks are sent over http or https only"
        ));
    }
    Ok(scheme)
}

/// A method allowlist item: an HTTP method token, upper-cased.
pub fn parse_method(item: &str) -> Result<String, String> {
    let tchar = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
    if item.is_empty() || !item.chars().all(tchar) {
        return Err(format!("`{item}` is not an HTTP method"));
    }
    Ok(item.to_ascii_uppercase())
}

/// Splits flag values (each one value or a comma list) into trimmed items.
pub fn items(values: &[String]) -> impl Iterator<Item = &str> {
    values
        .iter()
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

#[cfg(test)]
#[path = "allow_tests.rs"]
mod tests;
