//! base64url without padding (RFC 4648 §5): the alphabet that survives a URL fragment
//! untouched, so a link can be copied, pasted and mailed without escaping.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

pub fn encode(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .zip([16, 8, 0])
            .fold(0u32, |acc, (&b, shift)| acc | u32::from(b) << shift);
        // One byte gives two characters, two give three, three give four.
        for k in 0..=chunk.len() {
            s.push(char::from(ALPHABET[(n >> (18 - 6 * k)) as usize & 63]));
        }
    }
    s
}

fn sextet(c: u8) -> Option<u32> {
    Some(u32::from(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    }))
}

/// `None` for a character outside the alphabet or a length no encoding produces.
pub fn decode(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    if b.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(b.len() / 4 * 3 + 2);
    for chunk in b.chunks(4) {
        let mut n = 0u32;
        for (&c, shift) in chunk.iter().zip([18, 12, 6, 0]) {
            n |= sextet(c)? << shift;
        }
        for shift in [16, 8, 0].iter().take(chunk.len() - 1) {
            out.push((n >> shift) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc4648_vectors_without_padding() {
        for (raw, enc) in [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(raw.as_bytes()), enc);
            assert_eq!(decode(enc).as_deref(), Some(raw.as_bytes()));
        }
        assert_eq!(encode(&[0xfb, 0xff]), "-_8");
        assert_eq!(decode("Zm9v+"), None);
        assert_eq!(decode("Z"), None);
        assert_eq!(decode("Zm=="), None);
    }
}
