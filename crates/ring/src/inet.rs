//! `inet` literals, as `InetAddress.getByName` reads IP-address text.

use std::net::{Ipv4Addr, Ipv6Addr};

/// The address bytes Cassandra stores: 4 for IPv4, 16 for IPv6.
///
/// Java turns an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) into the IPv4 address, so it
/// is stored as 4 bytes. Host names are refused: the server would resolve them through DNS,
/// which gives no fixed value.
pub(crate) fn parse_inet(text: &str) -> Result<Vec<u8>, &'static str> {
    if text.contains(':') {
        let inner = match text.strip_prefix('[') {
            Some(rest) => rest.strip_suffix(']').ok_or("unbalanced '[' in IPv6 address")?,
            None => text,
        };
        if inner.contains('%') {
            return Err("IPv6 scope identifiers are not supported");
        }
        let addr: Ipv6Addr = inner.parse().map_err(|_| "not a valid IPv6 address")?;
        return Ok(match addr.to_ipv4_mapped() {
            Some(v4) => v4.octets().to_vec(),
            None => addr.octets().to_vec(),
        });
    }
    if text.bytes().all(|b| b.is_ascii_digit() || b == b'.') && !text.is_empty() {
        // Rust's parser only takes the plain dotted quad without leading zeros, which is
        // the form Java accepts without ambiguity.
        let addr: Ipv4Addr = text
            .parse()
            .map_err(|_| "not a dotted-quad IPv4 address (short and zero-padded forms are not supported)")?;
        return Ok(addr.octets().to_vec());
    }
    Err("host names are resolved by the server; give an IP address")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        assert_eq!(parse_inet("10.0.0.1"), Ok(vec![10, 0, 0, 1]));
        assert_eq!(parse_inet("::1").map(|v| v.len()), Ok(16));
        assert_eq!(parse_inet("[::1]"), parse_inet("::1"));
        assert_eq!(parse_inet("::ffff:1.2.3.4"), Ok(vec![1, 2, 3, 4]));
        let compat = parse_inet("::1.2.3.4").expect("valid");
        assert_eq!(compat.len(), 16);
        assert_eq!(&compat[12..], &[1, 2, 3, 4]);
        assert!(parse_inet("localhost").is_err());
        assert!(parse_inet("1.2.3").is_err());
        assert!(parse_inet("01.2.3.4").is_err());
        assert!(parse_inet("256.1.1.1").is_err());
        assert!(parse_inet("fe80::1%eth0").is_err());
    }
}
