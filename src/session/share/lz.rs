//! A small LZ77 compressor for scenario links.
//!
//! A custom scenario travels in the URL as compact JSON, which repeats its key names and
//! clock objects over and over; back-references alone shrink it severalfold. A general
//! library (deflate, zstd) would do better still but would cost more of the wasm bundle
//! than the saving is worth, so this is the least that works, in our own code.
//!
//! The stream: the decompressed length as a LEB128 varint, then operations until the
//! input ends. A byte `c < 0x80` is a run of `c + 1` literal bytes that follow it. A byte
//! `c >= 0x80` is a match of `(c & 0x7f) + 3` bytes copied from `distance` bytes back,
//! the distance following as a varint (a match may overlap its own output).
//!
//! Both sides start with [`DICT`] already in the window: a scenario's key names and common
//! values, so even the first client's fields are back-references (links come out about
//! half as long as without it). The dictionary is part of the link format: changing it
//! breaks every custom link ever shared, so a new one needs a new key (`sc2=`).
//!
//! Decompression trusts nothing: the declared length is checked against the caller's
//! limit before anything is allocated, every read and copy is bounds-checked, and the
//! output must come to exactly the declared length.

const MIN_MATCH: usize = 3;
const MAX_MATCH: usize = MIN_MATCH + 0x7f;
const MAX_LITERALS: usize = 0x80;
/// How far back a match may reach; scenarios are a few kilobytes, so this covers them.
const WINDOW: usize = 1 << 15;
const HASH_BITS: u32 = 12;
/// Candidates tried per position: enough for JSON's repetitive keys, bounded in time.
const CHAIN: usize = 48;
const NONE: u32 = u32::MAX;

/// The window's starting content (see the module notes): frozen.
pub const DICT: &[u8] = br#"{"version":1,"name":"","description":"","seed":1,"horizon_ms":60000,"max_events":100000,"coordinator":{"first_token":1,"counter":"durable","waiters":"queue","flavor":"","clock":{"offset_ms":0,"drift_ppm":0,"monotonic":false}},"storage":{"fence":"none","mark":"durable","check_gap_ms":0,"idempotency":false,"unfenced_keys":[],"network":{"default":{"min_delay_ms":5,"max_delay_ms":5,"loss_pct":0},"links":[]},"clients":[{"start_ms":0,"ttl_ms":10000,"margin_ms":0,"count_from":"request","on_loss":"abort","check_before_write":false,"fence_with":"token","retry":{"interval_ms":1000,"jitter_ms":0,"max_attempts":3},"timeout_ms":1000,"unreachable":"closed","job":[{"op":"acquire"},{"op":"work","ms":1000},{"op":"write","key":"","value":""},{"op":"release"}]}],"faults":[{"at_ms":0,"fault":"pause","node":"c1","for_ms":0}]}"#;

/// Why a stream was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Truncated, a copy from before the start, or a length that does not add up.
    Corrupt,
    /// The stream declares more than the limit (the declared size is given).
    TooLarge(u64),
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(0x80 | (v & 0x7f) as u8);
        v >>= 7;
    }
    out.push(v as u8);
}

/// At most five bytes (35 bits): more than any length or distance this format needs.
fn get_varint(data: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in [0, 7, 14, 21, 28] {
        let b = *data.get(*pos)?;
        *pos += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Some(v);
        }
    }
    None
}

fn varint_len(v: usize) -> usize {
    1 + usize::from(v >= 1 << 7) + usize::from(v >= 1 << 14) + usize::from(v >= 1 << 21)
}

fn hash(input: &[u8], i: usize) -> Option<usize> {
    let b = input.get(i..i + MIN_MATCH)?;
    let v = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
    Some((v.wrapping_mul(2_654_435_761) >> (32 - HASH_BITS)) as usize)
}

/// Hash chains: `head[h]` is the latest position with hash `h`, `prev[i]` the one before.
struct Chains {
    head: Vec<u32>,
    prev: Vec<u32>,
}

impl Chains {
    fn insert(&mut self, input: &[u8], i: usize) {
        if let (Some(h), Some(p)) = (hash(input, i), self.prev.get_mut(i)) {
            *p = self.head[h];
            self.head[h] = i as u32;
        }
    }

    /// The longest earlier match for position `i` worth its cost, as (length, distance).
    fn longest(&self, input: &[u8], i: usize) -> Option<(usize, usize)> {
        let mut cand = self.head[hash(input, i)?];
        let mut best: Option<(usize, usize)> = None;
        let rest = &input[i..];
        for _ in 0..CHAIN {
            if cand == NONE || i - cand as usize > WINDOW {
                break;
            }
            let (j, dist) = (cand as usize, i - cand as usize);
            let len = input[j..]
                .iter()
                .zip(rest)
                .take(MAX_MATCH)
                .take_while(|(a, b)| a == b)
                .count();
            // Only a match that saves bytes over literals, and longer than the best so far.
            if len > 1 + varint_len(dist) && best.is_none_or(|(l, _)| len > l) {
                best = Some((len, dist));
            }
            cand = self.prev[j];
        }
        best
    }
}

fn flush_literals(out: &mut Vec<u8>, lits: &[u8]) {
    for run in lits.chunks(MAX_LITERALS) {
        out.push((run.len() - 1) as u8);
        out.extend_from_slice(run);
    }
}

/// Compresses `input` (greedy parse with a one-step lazy check).
pub fn compress(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(input.len() / 3 + 8);
    put_varint(&mut out, input.len() as u64);
    let buf = [DICT, input].concat();
    let mut ch = Chains {
        head: vec![NONE; 1 << HASH_BITS],
        prev: vec![NONE; buf.len()],
    };
    (0..DICT.len()).for_each(|j| ch.insert(&buf, j));
    let (mut i, mut lit_start) = (DICT.len(), DICT.len());
    while i < buf.len() {
        let here = ch.longest(&buf, i);
        ch.insert(&buf, i);
        // Lazy: if the next position starts a longer match, emit this byte as a literal.
        let better_next =
            here.is_some_and(|(l, _)| ch.longest(&buf, i + 1).is_some_and(|(n, _)| n > l + 1));
        match here {
            Some((len, dist)) if !better_next => {
                flush_literals(&mut out, &buf[lit_start..i]);
                out.push(0x80 | (len - MIN_MATCH) as u8);
                put_varint(&mut out, dist as u64);
                (i + 1..i + len).for_each(|j| ch.insert(&buf, j));
                i += len;
                lit_start = i;
            }
            _ => i += 1,
        }
    }
    flush_literals(&mut out, &buf[lit_start..]);
    out
}

/// Decompresses a stream, refusing one that declares more than `limit` bytes.
pub fn decompress(data: &[u8], limit: usize) -> Result<Vec<u8>, Error> {
    let mut pos = 0;
    let declared = get_varint(data, &mut pos).ok_or(Error::Corrupt)?;
    let n = usize::try_from(declared)
        .ok()
        .filter(|&n| n <= limit)
        .ok_or(Error::TooLarge(declared))?;
    let end = n + DICT.len();
    let mut out = Vec::with_capacity(end);
    out.extend_from_slice(DICT);
    while let Some(&c) = data.get(pos) {
        pos += 1;
        if c < 0x80 {
            let count = usize::from(c) + 1;
            let lits = data.get(pos..pos + count).ok_or(Error::Corrupt)?;
            if out.len() + count > end {
                return Err(Error::Corrupt);
            }
            out.extend_from_slice(lits);
            pos += count;
        } else {
            let len = usize::from(c & 0x7f) + MIN_MATCH;
            let dist = get_varint(data, &mut pos)
                .and_then(|d| usize::try_from(d).ok())
                .filter(|&d| d >= 1 && d <= out.len())
                .ok_or(Error::Corrupt)?;
            if out.len() + len > end {
                return Err(Error::Corrupt);
            }
            for _ in 0..len {
                let b = *out.get(out.len() - dist).ok_or(Error::Corrupt)?;
                out.push(b);
            }
        }
    }
    if out.len() == end {
        Ok(out.split_off(DICT.len()))
    } else {
        Err(Error::Corrupt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_edge_cases() {
        let long: Vec<u8> = (0..5000u32).map(|i| (i * 7 % 13) as u8).collect();
        for input in [
            &b""[..],
            b"a",
            b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            b"{\"offset_ms\":0,\"drift_ppm\":0},{\"offset_ms\":0,\"drift_ppm\":0}",
            &long,
            &[0u8; 1000],
        ] {
            let c = compress(input);
            assert_eq!(decompress(&c, 1 << 20).as_deref(), Ok(input));
        }
    }

    #[test]
    fn refuses_bad_streams() {
        assert_eq!(decompress(&[], 10), Err(Error::Corrupt));
        assert_eq!(decompress(&[0xff; 6], 10), Err(Error::Corrupt));
        assert_eq!(
            decompress(&[0x80, 0x80, 0x80, 0x01], 10),
            Err(Error::TooLarge(1 << 21))
        );
        // A copy from before the start (the dictionary included); one out of it is fine.
        let copy = |dist: usize| {
            let mut v = vec![3, 0x80];
            put_varint(&mut v, dist as u64);
            v
        };
        assert_eq!(decompress(&copy(DICT.len() + 1), 10), Err(Error::Corrupt));
        assert_eq!(
            decompress(&copy(DICT.len()), 10).as_deref(),
            Ok(&b"{\"v"[..])
        );
        // Literals running past the end of the stream.
        assert_eq!(decompress(&[4, 3, b'a'], 10), Err(Error::Corrupt));
        // More output than declared.
        assert_eq!(decompress(&[1, 1, b'a', b'b'], 10), Err(Error::Corrupt));
        // Less output than declared.
        assert_eq!(decompress(&[3, 0, b'a'], 10), Err(Error::Corrupt));
    }
}
