//! A small JSON reader and writer for scenarios.
//!
//! Why not serde_json here: scenarios arrive from URL fragments and imported files, and
//! every refusal must name the field (`clients[1].ttl_ms`). Tracking that path through a
//! derived deserializer costs more wasm than the whole rest of the model, so scenarios go
//! through this reader instead: text → [`Json`] (with line and column on syntax errors) →
//! typed values by hand in `decode`, path in hand. Only whole numbers exist in the format,
//! so numbers are `i128` (wide enough for any `u64` and `i64`).
//!
//! Limits: input length is bounded by the caller; nesting is bounded here ([`MAX_DEPTH`]),
//! so no input can overflow the stack.

use std::fmt::Write;

/// Deepest nesting accepted. Scenarios need 5.
pub const MAX_DEPTH: u32 = 32;

#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Int(i128),
    Str(String),
    Arr(Vec<Json>),
    /// Keys in document order (duplicates are refused while parsing).
    Obj(Vec<(String, Json)>),
}

impl Json {
    pub fn kind(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Int(_) => "a number",
            Json::Str(_) => "a string",
            Json::Arr(_) => "an array",
            Json::Obj(_) => "an object",
        }
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(kv) => kv.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
}

/// Parses `text` as one JSON value. The error says what and where ("line 3, column 7").
pub fn parse(text: &str) -> Result<Json, String> {
    let mut p = Parser {
        b: text.as_bytes(),
        i: 0,
    };
    p.ws();
    let v = p.value(0)?;
    p.ws();
    if p.i < p.b.len() {
        return Err(p.err("unexpected text after the end of the document"));
    }
    Ok(v)
}

struct Parser<'a> {
    b: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn err(&self, what: &str) -> String {
        let upto = &self.b[..self.i.min(self.b.len())];
        let line = upto.iter().filter(|&&c| c == b'\n').count() + 1;
        let col = upto.iter().rev().take_while(|&&c| c != b'\n').count() + 1;
        format!("{what} at line {line}, column {col}")
    }

    fn ws(&mut self) {
        while matches!(self.b.get(self.i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.b.get(self.i) == Some(&c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn word(&mut self, w: &str, v: Json) -> Result<Json, String> {
        if self.b[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Ok(v)
        } else {
            Err(self.err("invalid value"))
        }
    }

    fn value(&mut self, depth: u32) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err(self.err("nested too deeply"));
        }
        match self.b.get(self.i) {
            None => Err(self.err("unexpected end of input")),
            Some(b'{') => {
                self.i += 1;
                let mut kv: Vec<(String, Json)> = Vec::new();
                self.ws();
                if self.eat(b'}') {
                    return Ok(Json::Obj(kv));
                }
                loop {
                    self.ws();
                    if self.b.get(self.i) != Some(&b'"') {
                        return Err(self.err("expected a \"key\""));
                    }
                    let k = self.string()?;
                    if kv.iter().any(|(x, _)| *x == k) {
                        return Err(self.err(&format!("duplicate key \"{k}\"")));
                    }
                    self.ws();
                    if !self.eat(b':') {
                        return Err(self.err("expected ':'"));
                    }
                    self.ws();
                    let v = self.value(depth + 1)?;
                    kv.push((k, v));
                    self.ws();
                    if self.eat(b'}') {
                        return Ok(Json::Obj(kv));
                    }
                    if !self.eat(b',') {
                        return Err(self.err("expected ',' or '}'"));
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut v = Vec::new();
                self.ws();
                if self.eat(b']') {
                    return Ok(Json::Arr(v));
                }
                loop {
                    self.ws();
                    v.push(self.value(depth + 1)?);
                    self.ws();
                    if self.eat(b']') {
                        return Ok(Json::Arr(v));
                    }
                    if !self.eat(b',') {
                        return Err(self.err("expected ',' or ']'"));
                    }
                }
            }
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'n') => self.word("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.err("invalid value")),
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.i;
        let neg = self.eat(b'-');
        let digits = self.i;
        let mut n: i128 = 0;
        while let Some(d @ b'0'..=b'9') = self.b.get(self.i).copied() {
            // 30 digits is beyond every field's range; stop growing before i128 overflows.
            if self.i - digits < 30 {
                n = n * 10 + i128::from(d - b'0');
            }
            self.i += 1;
        }
        if self.i == digits {
            return Err(self.err("expected a digit"));
        }
        if self.b[digits] == b'0' && self.i - digits > 1 {
            self.i = start;
            return Err(self.err("numbers may not start with 0"));
        }
        if matches!(self.b.get(self.i), Some(b'.' | b'e' | b'E')) {
            return Err(self.err("expected a whole number (times are integer milliseconds)"));
        }
        if self.i - digits >= 30 {
            return Err(self.err("number too large"));
        }
        Ok(Json::Int(if neg { -n } else { n }))
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let h = self
            .b
            .get(self.i..self.i + 4)
            .ok_or_else(|| self.err("bad \\u escape"))?;
        let s = std::str::from_utf8(h).map_err(|_| self.err("bad \\u escape"))?;
        let v = u32::from_str_radix(s, 16).map_err(|_| self.err("bad \\u escape"))?;
        self.i += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<String, String> {
        self.i += 1; // the opening quote
        let mut out = Vec::new();
        loop {
            let Some(&c) = self.b.get(self.i) else {
                return Err(self.err("unterminated string"));
            };
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let Some(&e) = self.b.get(self.i) else {
                        return Err(self.err("unterminated string"));
                    };
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hi = self.hex4()?;
                            let code = if (0xD800..0xDC00).contains(&hi) {
                                if !(self.eat(b'\\') && self.eat(b'u')) {
                                    return Err(self.err("lone surrogate in \\u escape"));
                                }
                                let lo = self.hex4()?;
                                if !(0xDC00..0xE000).contains(&lo) {
                                    return Err(self.err("lone surrogate in \\u escape"));
                                }
                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                            } else {
                                hi
                            };
                            char::from_u32(code).ok_or_else(|| self.err("bad \\u escape"))?
                        }
                        _ => return Err(self.err("bad escape")),
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                0..=0x1f => return Err(self.err("control character in string")),
                _ => out.push(c),
            }
        }
        // The input was a &str and escapes produce valid UTF-8, so this cannot fail.
        String::from_utf8(out).map_err(|_| self.err("invalid UTF-8"))
    }
}

/// Writes `v` as indented JSON (two spaces), objects in their stored order.
pub fn pretty(v: &Json) -> String {
    let mut s = String::new();
    write_value(&mut s, v, Some(0));
    s.push('\n');
    s
}

/// Writes `v` on one line with no spaces: the canonical form (digests hash it).
pub fn compact(v: &Json) -> String {
    let mut s = String::new();
    write_compact(&mut s, v);
    s
}

/// Appends the compact form of `v` to `s`.
pub fn write_compact(s: &mut String, v: &Json) {
    write_value(s, v, None);
}

/// Starts a new line at `depth` when indenting; nothing in compact form.
fn indent(s: &mut String, depth: Option<usize>) {
    if let Some(n) = depth {
        s.push('\n');
        for _ in 0..n {
            s.push_str("  ");
        }
    }
}

/// Writes `n` in decimal with 64-bit arithmetic only. Core's formatting of an `i128`, and
/// the 128-bit division under it, weigh a couple of kilobytes of the first load's wasm,
/// which writes JSON (its hand-over to the whole app) but no number wider than 64 bits.
fn write_int(s: &mut String, n: i128) {
    if n < 0 {
        s.push('-');
    }
    let m = n.unsigned_abs();
    let mut limbs = [
        (m >> 96) as u32,
        (m >> 64) as u32,
        (m >> 32) as u32,
        m as u32,
    ];
    // Digits in groups of nine, least significant first: 2^128 < 10^39, so at most five.
    let mut groups = [0u32; 5];
    let mut count = 0;
    loop {
        // Long division of the four 32-bit limbs by 10^9; each step fits in 64 bits.
        let mut rem = 0u64;
        for limb in &mut limbs {
            let cur = (rem << 32) | u64::from(*limb);
            *limb = (cur / 1_000_000_000) as u32;
            rem = cur % 1_000_000_000;
        }
        groups[count] = rem as u32;
        count += 1;
        if limbs == [0; 4] {
            break;
        }
    }
    let _ = write!(s, "{}", groups[count - 1]);
    for g in groups[..count - 1].iter().rev() {
        let _ = write!(s, "{g:09}");
    }
}

/// `depth` is the indentation level, or `None` for the compact form.
fn write_value(s: &mut String, v: &Json, depth: Option<usize>) {
    let inner = depth.map(|d| d + 1);
    match v {
        Json::Null => s.push_str("null"),
        Json::Bool(b) => s.push_str(if *b { "true" } else { "false" }),
        Json::Int(n) => write_int(s, *n),
        Json::Str(x) => write_str(s, x),
        Json::Arr(a) if a.is_empty() => s.push_str("[]"),
        Json::Obj(o) if o.is_empty() => s.push_str("{}"),
        Json::Arr(a) => {
            s.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                indent(s, inner);
                write_value(s, x, inner);
            }
            indent(s, depth);
            s.push(']');
        }
        Json::Obj(o) => {
            s.push('{');
            for (i, (k, x)) in o.iter().enumerate() {
                if i > 0 {
                    s.push(',');
                }
                indent(s, inner);
                write_str(s, k);
                s.push_str(if depth.is_some() { ": " } else { ":" });
                write_value(s, x, inner);
            }
            indent(s, depth);
            s.push('}');
        }
    }
}

fn write_str(s: &mut String, x: &str) {
    s.push('"');
    for c in x.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_round_trips() {
        let text =
            r#"{"a": [1, -2, {"b": "x\"\\\u00e9\ud83d\ude00"}], "c": true, "d": null, "e": {}}"#;
        let v = parse(text).unwrap();
        assert_eq!(v.get("c"), Some(&Json::Bool(true)));
        assert_eq!(parse(&pretty(&v)).unwrap(), v);
        assert_eq!(
            v.get("a")
                .map(|a| matches!(a, Json::Arr(x) if x[1] == Json::Int(-2))),
            Some(true)
        );
    }

    #[test]
    fn integers_are_written_as_core_writes_them() {
        let mut cases = vec![
            0,
            1,
            -1,
            999_999_999,
            1_000_000_000,
            -1_000_000_000,
            i128::from(i64::MIN),
            i128::from(u64::MAX),
            10i128.pow(18),
            10i128.pow(27) - 1,
            10i128.pow(36),
            i128::MAX,
            i128::MIN,
            i128::MIN + 1,
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..2_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let wide = (i128::from(x) << 64 | i128::from(x.rotate_left(17))) >> (x % 120);
            cases.push(if x.is_multiple_of(2) { wide } else { -wide });
        }
        for n in cases {
            let mut s = String::new();
            write_int(&mut s, n);
            assert_eq!(s, n.to_string());
        }
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(
            parse("{\n  \"a\": 1,\n  \"a\": 2}").unwrap_err(),
            "duplicate key \"a\" at line 3, column 6"
        );
        assert!(parse("{\"a\": 1.5}")
            .unwrap_err()
            .starts_with("expected a whole number"));
        assert!(parse("[1,]").is_err());
        assert!(parse("\"abc").is_err());
        assert!(parse("01").is_err());
        assert!(parse("1 2").is_err());
        assert!(parse(&"[".repeat(100))
            .unwrap_err()
            .starts_with("nested too deeply"));
        assert!(parse(&"9".repeat(40))
            .unwrap_err()
            .starts_with("number too large"));
        assert!(parse("\"\\ud800\"").is_err());
        assert!(parse("").is_err());
    }
}
