//! `inet` literals, as `InetAddress.getByName` reads IP-address text.

use std::net::Ipv6Addr;

/// The address bytes Cassandra stores: 4 for IPv4, 16 for IPv6.
///
/// Java turns an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) into the IPv4 address, so it
/// is stored as 4 bytes. Host names are refused: the server would resolve them through DNS,
/// which gives no fixed value.
pub(crate) fn parse_inet(text: &str) -> Result<Vec<u8>, &'static str> {
    if text.contains(':') {
        let inner = match text.strip_prefix('[') {
            Some(rest) => rest
                .strip_suffix(']')
                .ok_or("unbalanced '[' in IPv6 address")?,
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
    if let Some(v4) = java_ipv4(text) {
        return Ok(v4.to_vec());
    }
    if text.bytes().all(|b| b.is_ascii_digit() || b == b'.') && !text.is_empty() {
        return Err("not a valid IPv4 address");
    }
    Err("host names are resolved by the server; give an IP address")
}

/// `IPAddressUtil.textToNumericFormatV4`: one to four decimal parts (leading zeros are
/// decimal, not octal); the last part fills the remaining bytes (`1.2.3` is `1.2.0.3`).
fn java_ipv4(text: &str) -> Option<[u8; 4]> {
    if text.is_empty() || text.len() > 15 {
        return None;
    }
    let parts: Vec<&str> = text.split('.').collect();
    if parts.len() > 4 {
        return None;
    }
    let mut values = Vec::with_capacity(parts.len());
    for part in &parts {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        values.push(part.parse::<u64>().ok()?);
    }
    let (last, leading) = values.split_last()?;
    if leading.iter().any(|&v| v > 255) {
        return None;
    }
    let last_bytes = 4 - leading.len();
    if *last >= 1u64 << (8 * last_bytes) {
        return None;
    }
    let mut out = [0u8; 4];
    for (slot, &v) in out.iter_mut().zip(leading) {
        *slot = v as u8;
    }
    let tail = last.to_be_bytes();
    out[leading.len()..].copy_from_slice(&tail[8 - last_bytes..]);
    Some(out)
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
        assert!(parse_inet("256.1.1.1").is_err());
        assert!(parse_inet("1.2.3.256").is_err());
        assert!(parse_inet("1.2.3.4.5").is_err());
    }

    #[test]
    fn legacy_ipv4_forms_as_java_reads_them() {
        // Values printed by InetAddress.getByName(...).getAddress() on JDK 17.
        assert_eq!(parse_inet("01.2.3.4"), Ok(vec![1, 2, 3, 4]));
        assert_eq!(parse_inet("1.2.3"), Ok(vec![1, 2, 0, 3]));
        assert_eq!(parse_inet("1.65535"), Ok(vec![1, 0, 0xff, 0xff]));
        assert_eq!(parse_inet("4294967295"), Ok(vec![0xff; 4]));
        assert!(parse_inet("1.65536.1").is_err());
        assert!(parse_inet("fe80::1%eth0").is_err());
    }
}
