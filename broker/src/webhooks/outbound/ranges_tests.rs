use super::*;
use proptest::prelude::*;

fn class(text: &str) -> Class {
    classify(text.parse().expect("a test address"))
}

#[test]
fn ipv4_classes() {
    for (addr, want) in [
        ("127.0.0.1", Class::Loopback),
        ("127.255.0.9", Class::Loopback),
        ("10.1.2.3", Class::Private),
        ("172.16.0.1", Class::Private),
        ("172.31.255.255", Class::Private),
        ("192.168.1.1", Class::Private),
        ("169.254.169.254", Class::LinkLocal),
        ("100.64.0.1", Class::SharedCgnat),
        ("100.127.255.255", Class::SharedCgnat),
        ("224.0.0.1", Class::Multicast),
        ("239.255.255.250", Class::Multicast),
        ("0.0.0.0", Class::Unspecified),
        ("0.1.2.3", Class::Unspecified),
        ("255.255.255.255", Class::Broadcast),
        ("240.0.0.1", Class::Reserved),
        ("192.0.0.8", Class::Reserved),
        ("192.88.99.1", Class::Reserved),
        ("198.18.0.1", Class::Benchmarking),
        ("198.19.255.255", Class::Benchmarking),
        ("192.0.2.1", Class::Documentation),
        ("198.51.100.7", Class::Documentation),
        ("203.0.113.9", Class::Documentation),
        ("8.8.8.8", Class::Public),
        ("172.32.0.1", Class::Public),
        ("100.128.0.1", Class::Public),
        ("1.1.1.1", Class::Public),
    ] {
        assert_eq!(class(addr), want, "{addr}");
    }
}

#[test]
fn ipv6_classes() {
    for (addr, want) in [
        ("::1", Class::Loopback),
        ("::", Class::Unspecified),
        ("fc00::1", Class::Private),
        ("fd12:3456::1", Class::Private),
        ("fe80::1", Class::LinkLocal),
        ("fec0::1", Class::Private),
        ("ff02::1", Class::Multicast),
        ("2001:db8::1", Class::Documentation),
        ("::7f00:1", Class::Ipv4Compatible),
        ("::8.8.8.8", Class::Ipv4Compatible),
        ("100::1", Class::Reserved),
        ("2001::1", Class::Reserved),
        ("4000::1", Class::Reserved),
        ("2606:4700::1111", Class::Public),
        ("2a00:1450:4001::200e", Class::Public),
    ] {
        assert_eq!(class(addr), want, "{addr}");
    }
}

#[test]
fn ipv6_forms_of_ipv4_are_judged_as_the_ipv4_they_carry() {
    for (addr, want) in [
        ("::ffff:127.0.0.1", Class::Loopback),
        ("::ffff:10.0.0.1", Class::Private),
        ("::ffff:169.254.169.254", Class::LinkLocal),
        ("::ffff:8.8.8.8", Class::Public),
        ("64:ff9b::127.0.0.1", Class::Loopback),
        ("64:ff9b::7f00:1", Class::Loopback),
        ("64:ff9b::a9fe:a9fe", Class::LinkLocal),
        ("64:ff9b::8.8.8.8", Class::Public),
        ("64:ff9b:1::127.0.0.1", Class::Loopback),
        // local-use NAT64 only exists inside a network
        ("64:ff9b:1::8.8.8.8", Class::Private),
        ("2002:7f00:1::1", Class::Loopback),
        ("2002:a00:1::1", Class::Private),
        ("2002:808:808::1", Class::Public),
    ] {
        assert_eq!(class(addr), want, "{addr}");
    }
}

proptest! {
    /// Whatever std calls special is never public here.
    #[test]
    fn ipv4_agrees_with_std(bits in any::<u32>()) {
        let ip = Ipv4Addr::from(bits);
        let special = ip.is_loopback() || ip.is_private() || ip.is_link_local()
            || ip.is_multicast() || ip.is_broadcast() || ip.is_unspecified()
            || ip.is_documentation();
        if special {
            prop_assert!(!classify_v4(ip).is_public(), "{ip}");
        }
        prop_assert_eq!(ip.is_loopback(), classify_v4(ip) == Class::Loopback);
        prop_assert_eq!(ip.is_link_local(), classify_v4(ip) == Class::LinkLocal);
        prop_assert_eq!(ip.is_multicast(), classify_v4(ip) == Class::Multicast);
    }

    #[test]
    fn ipv6_agrees_with_std(bits in any::<u128>()) {
        let ip = Ipv6Addr::from(bits);
        let special = ip.is_loopback() || ip.is_unspecified() || ip.is_multicast()
            || ip.is_unique_local() || ip.is_unicast_link_local();
        if special {
            prop_assert!(!classify_v6(ip).is_public(), "{ip}");
        }
    }

    /// An IPv4-mapped address is exactly as public as the IPv4 it maps.
    #[test]
    fn mapped_is_the_ipv4(bits in any::<u32>()) {
        let ip = Ipv4Addr::from(bits);
        prop_assert_eq!(classify_v6(ip.to_ipv6_mapped()), classify_v4(ip));
    }

    /// Addresses near the special blocks, where a mask mistake would show.
    #[test]
    fn std_specials_among_near_addresses(a in prop::sample::select(vec![0u8, 10, 100, 127, 169, 172, 192, 198, 203, 224, 239, 240, 255]), rest in any::<[u8; 3]>()) {
        let ip = Ipv4Addr::new(a, rest[0], rest[1], rest[2]);
        if ip.is_private() || ip.is_loopback() || ip.is_link_local() || ip.is_documentation() {
            prop_assert!(!classify_v4(ip).is_public(), "{ip}");
        }
    }
}
