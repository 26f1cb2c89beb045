//! Address classes: which addresses a webhook may reach without being
//! allowlisted (only `Public` ones). IPv6 forms that carry an IPv4 address
//! (IPv4-mapped, NAT64, 6to4) are judged as the IPv4 address they carry,
//! so `::ffff:127.0.0.1` and `64:ff9b::7f00:1` are loopback.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// The class of an address; every class but `Public` is refused unless
/// the address is allowlisted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    Public,
    Loopback,
    Private,
    LinkLocal,
    SharedCgnat,
    Multicast,
    Unspecified,
    Broadcast,
    Documentation,
    Benchmarking,
    /// IANA special-purpose blocks that are not globally reachable
    /// (192.0.0.0/24, 240.0.0.0/4, 100::/64, 2001::/23, outside 2000::/3 …).
    Reserved,
    /// `::a.b.c.d` (deprecated IPv4-compatible IPv6).
    Ipv4Compatible,
}

impl Class {
    /// Whether a webhook may reach this class without an allowlist entry.
    pub fn is_public(self) -> bool {
        self == Class::Public
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Class::Public => "public",
            Class::Loopback => "loopback",
            Class::Private => "private",
            Class::LinkLocal => "link-local",
            Class::SharedCgnat => "shared (CGNAT, 100.64.0.0/10)",
            Class::Multicast => "multicast",
            Class::Unspecified => "unspecified",
            Class::Broadcast => "broadcast",
            Class::Documentation => "documentation",
            Class::Benchmarking => "benchmarking",
            Class::Reserved => "reserved (special-purpose)",
            Class::Ipv4Compatible => "IPv4-compatible IPv6",
        })
    }
}

/// The class of any address.
pub fn classify(ip: IpAddr) -> Class {
    match ip {
        IpAddr::V4(v4) => classify_v4(v4),
        IpAddr::V6(v6) => classify_v6(v6),
    }
}

/// Whether `ip` lies in `net/prefix`.
fn in_v4(ip: Ipv4Addr, net: [u8; 4], prefix: u32) -> bool {
    let mask = u32::MAX.checked_shl(32 - prefix).unwrap_or(0);
    u32::from(ip) & mask == u32::from(Ipv4Addr::from(net)) & mask
}

fn in_v6(ip: Ipv6Addr, net: [u16; 8], prefix: u32) -> bool {
    let mask = u128::MAX.checked_shl(128 - prefix).unwrap_or(0);
    u128::from(ip) & mask == u128::from(Ipv6Addr::from(net)) & mask
}

/// IPv4 blocks, most specific first (255.255.255.255 before 240/4).
const V4_BLOCKS: &[([u8; 4], u32, Class)] = &[
    ([255, 255, 255, 255], 32, Class::Broadcast),
    ([0, 0, 0, 0], 8, Class::Unspecified),
    ([10, 0, 0, 0], 8, Class::Private),
    ([100, 64, 0, 0], 10, Class::SharedCgnat),
    ([127, 0, 0, 0], 8, Class::Loopback),
    ([169, 254, 0, 0], 16, Class::LinkLocal),
    ([172, 16, 0, 0], 12, Class::Private),
    ([192, 0, 0, 0], 24, Class::Reserved),
    ([192, 0, 2, 0], 24, Class::Documentation),
    ([192, 88, 99, 0], 24, Class::Reserved),
    ([192, 168, 0, 0], 16, Class::Private),
    ([198, 18, 0, 0], 15, Class::Benchmarking),
    ([198, 51, 100, 0], 24, Class::Documentation),
    ([203, 0, 113, 0], 24, Class::Documentation),
    ([224, 0, 0, 0], 4, Class::Multicast),
    ([240, 0, 0, 0], 4, Class::Reserved),
];

fn classify_v4(ip: Ipv4Addr) -> Class {
    V4_BLOCKS
        .iter()
        .find(|(net, prefix, _)| in_v4(ip, *net, *prefix))
        .map_or(Class::Public, |(_, _, class)| *class)
}

/// IPv6 blocks that carry no IPv4 address, most specific first.
const V6_BLOCKS: &[([u16; 8], u32, Class)] = &[
    ([0, 0, 0, 0, 0, 0, 0, 0], 128, Class::Unspecified),
    ([0, 0, 0, 0, 0, 0, 0, 1], 128, Class::Loopback),
    ([0, 0, 0, 0, 0, 0, 0, 0], 96, Class::Ipv4Compatible),
    ([0x100, 0, 0, 0, 0, 0, 0, 0], 64, Class::Reserved),
    ([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32, Class::Documentation),
    ([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20, Class::Documentation),
    ([0x2001, 0x2, 0, 0, 0, 0, 0, 0], 48, Class::Benchmarking),
    ([0x2001, 0, 0, 0, 0, 0, 0, 0], 23, Class::Reserved),
    ([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7, Class::Private),
    ([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10, Class::LinkLocal),
    // deprecated site-local: private by intent
    ([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10, Class::Private),
    ([0xff00, 0, 0, 0, 0, 0, 0, 0], 8, Class::Multicast),
];

fn classify_v6(ip: Ipv6Addr) -> Class {
    if let Some(v4) = embedded_v4(ip) {
        let class = classify_v4(v4);
        // the local-use NAT64 prefix (RFC 8215) only exists inside a network
        let local_nat64 = in_v6(ip, [0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48);
        return if class.is_public() && local_nat64 {
            Class::Private
        } else {
            class
        };
    }
    if let Some((_, _, class)) = V6_BLOCKS
        .iter()
        .find(|(net, prefix, _)| in_v6(ip, *net, *prefix))
    {
        return *class;
    }
    // only 2000::/3 is global unicast
    if in_v6(ip, [0x2000, 0, 0, 0, 0, 0, 0, 0], 3) {
        Class::Public
    } else {
        Class::Reserved
    }
}

/// The IPv4 address an IPv6 address stands for: IPv4-mapped
/// (`::ffff:0:0/96`), NAT64 (`64:ff9b::/96`, `64:ff9b:1::/48`, the last
/// 32 bits) and 6to4 (`2002::/16`, bits 16–48).
pub fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let bits = u128::from(ip);
    let last = Ipv4Addr::from((bits & 0xffff_ffff) as u32);
    if in_v6(ip, [0, 0, 0, 0, 0, 0xffff, 0, 0], 96)
        || in_v6(ip, [0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96)
        || in_v6(ip, [0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48)
    {
        return Some(last);
    }
    if in_v6(ip, [0x2002, 0, 0, 0, 0, 0, 0, 0], 16) {
        return Some(Ipv4Addr::from(((bits >> 80) & 0xffff_ffff) as u32));
    }
    None
}

#[cfg(test)]
#[path = "ranges_tests.rs"]
mod tests;
