//! A bounded reader of the small part of EDN (and of JSON) that a Jepsen history uses.
//!
//! Jepsen writes a history as EDN maps — `{:type :ok, :f :acquire, :process 3, …}` — one a
//! line, or all inside one vector; its JSON form has the same keys as strings. This reads
//! both into [`Edn`] values with the line each top-level value starts on, so a refusal can
//! name it. What it reads: maps, vectors, lists, sets, keywords, symbols, strings, whole
//! numbers, `nil`, `true`, `false`, `;` comments, and commas as whitespace; a number with
//! a fraction or an exponent is kept as its text. Tagged literals (`#inst …`), characters
//! (`\a`) and metadata are refused: a lock history has none.
//!
//! Why not a crate: `edn-format` pulls in chrono, uuid (whose v4 feature needs a random
//! source that wasm32-unknown-unknown lacks without extra configuration), num-bigint,
//! bigdecimal and four more for a page that only reads maps of keywords and integers;
//! `edn-rs` is marked deprecated by its authors. Neither bounds nesting depth nor tells the
//! line a value starts on. This reader does both, and bounds every string, every
//! operation's size and how many operations it keeps (the limits in [`super`]).

use super::{RecordedError, MAX_LINE, MAX_LINES, MAX_TEXT};

/// Deepest nesting of collections read (an operation is a map of small values).
pub const MAX_DEPTH: usize = 8;

/// One value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edn {
    Nil,
    Bool(bool),
    Int(i128),
    /// A number with a fraction or an exponent, as written.
    Num(String),
    Str(String),
    /// A keyword, without its colon.
    Kw(String),
    Sym(String),
    Vec(Vec<Edn>),
    List(Vec<Edn>),
    Set(Vec<Edn>),
    Map(Vec<(Edn, Edn)>),
}

impl Edn {
    /// What it is, in a refusal.
    pub fn kind(&self) -> &'static str {
        match self {
            Edn::Nil => "nil",
            Edn::Bool(_) => "a boolean",
            Edn::Int(_) => "a whole number",
            Edn::Num(_) => "a number with a fraction",
            Edn::Str(_) => "a string",
            Edn::Kw(_) => "a keyword",
            Edn::Sym(_) => "a symbol",
            Edn::Vec(_) => "a vector",
            Edn::List(_) => "a list",
            Edn::Set(_) => "a set",
            Edn::Map(_) => "a map",
        }
    }

    /// As a refusal shows it: `:acquire`, `"x"`, `42`, else its kind.
    pub fn shown(&self) -> String {
        let cut = |s: &str| {
            let mut end = s.len().min(40);
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            format!("{}{}", &s[..end], if end < s.len() { "…" } else { "" })
        };
        match self {
            Edn::Nil => "nil".into(),
            Edn::Bool(b) => b.to_string(),
            Edn::Int(n) => n.to_string(),
            Edn::Num(s) | Edn::Sym(s) => cut(s),
            Edn::Str(s) => format!("\"{}\"", cut(s)),
            Edn::Kw(k) => format!(":{}", cut(k)),
            other => other.kind().into(),
        }
    }
}

/// A top-level value and the line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Top {
    pub line: u32,
    pub value: Edn,
}

/// Reads every top-level value of `text`: either a sequence of values, or one vector (or
/// list) whose elements are the values — the two shapes a history is written in. With
/// `json`, map keys are strings followed by `:`, and keywords are refused.
pub fn parse_all(text: &str, json: bool) -> Result<Vec<Top>, RecordedError> {
    let mut p = Parser {
        b: text.as_bytes(),
        text,
        pos: 0,
        line: 1,
        line_start: 0,
        json,
        op_start: 0,
    };
    let mut out = Vec::new();
    p.skip_ws()?;
    // One collection of maps (or an empty one): its elements are the operations.
    let mut close = None;
    if let Some(o @ (b'[' | b'(')) = p.peek() {
        let save = (p.pos, p.line, p.line_start);
        let end = if o == b'[' { b']' } else { b')' };
        p.pos += 1;
        p.skip_ws()?;
        if matches!(p.peek(), Some(c) if c == b'{' || c == end) {
            close = Some(end);
        } else {
            (p.pos, p.line, p.line_start) = save;
        }
    }
    loop {
        p.skip_ws()?;
        match (p.peek(), close) {
            (None, None) => break,
            (None, Some(c)) => {
                return Err(p.err(format!(
                    "the history ends before its closing `{}`",
                    c as char
                )))
            }
            (Some(c), Some(want)) if c == want => {
                p.pos += 1;
                p.skip_ws()?;
                if p.peek().is_some() {
                    return Err(p.err("more after the history's closing bracket"));
                }
                break;
            }
            _ => {}
        }
        if out.len() >= MAX_LINES {
            return Err(p.err(format!("more than {MAX_LINES} operations")));
        }
        p.op_start = p.pos;
        let line = p.line;
        let value = p.value(0)?;
        out.push(Top { line, value });
    }
    Ok(out)
}

struct Parser<'a> {
    b: &'a [u8],
    text: &'a str,
    pos: usize,
    line: u32,
    line_start: usize,
    json: bool,
    /// Where the current top-level value began (its size is bounded).
    op_start: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn err(&self, message: impl Into<String>) -> RecordedError {
        RecordedError::at(self.line, None, message)
    }

    /// A syntax error at the cursor, with its column (in characters).
    fn syntax(&self, what: &str) -> RecordedError {
        let upto = self.pos.min(self.b.len());
        let col = self
            .text
            .get(self.line_start..upto)
            .map_or(1, |s| s.chars().count() + 1);
        let lang = if self.json { "JSON" } else { "EDN" };
        self.err(format!("not valid {lang}: {what} at column {col}"))
    }

    fn newline(&mut self) {
        self.line = self.line.saturating_add(1);
        self.line_start = self.pos + 1;
    }

    /// Skips whitespace, commas and comments; bounds the operation's size on the way.
    fn skip_ws(&mut self) -> Result<(), RecordedError> {
        while let Some(c) = self.peek() {
            match c {
                b'\n' => {
                    self.newline();
                    self.pos += 1;
                }
                b' ' | b'\t' | b'\r' | b',' => self.pos += 1,
                b';' if !self.json => {
                    while self.peek().is_some_and(|c| c != b'\n') {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
        Ok(())
    }

    fn bounded(&self) -> Result<(), RecordedError> {
        if self.pos - self.op_start > MAX_LINE {
            return Err(self.err(format!("an operation longer than {MAX_LINE} bytes")));
        }
        Ok(())
    }

    fn value(&mut self, depth: usize) -> Result<Edn, RecordedError> {
        self.skip_ws()?;
        self.bounded()?;
        let Some(c) = self.peek() else {
            return Err(self.syntax("unexpected end"));
        };
        let open = |p: &mut Self, close: u8| -> Result<Vec<Edn>, RecordedError> {
            if depth >= MAX_DEPTH {
                return Err(p.err(format!("nested deeper than {MAX_DEPTH}")));
            }
            p.pos += 1;
            let mut items = Vec::new();
            loop {
                p.skip_ws()?;
                p.bounded()?;
                match p.peek() {
                    None => return Err(p.syntax(&format!("expected `{}`", close as char))),
                    Some(c) if c == close => {
                        p.pos += 1;
                        return Ok(items);
                    }
                    _ => items.push(p.value(depth + 1)?),
                }
            }
        };
        match c {
            b'[' => Ok(Edn::Vec(open(self, b']')?)),
            b'(' if !self.json => Ok(Edn::List(open(self, b')')?)),
            b'#' if !self.json && self.b.get(self.pos + 1) == Some(&b'{') => {
                self.pos += 1;
                Ok(Edn::Set(open(self, b'}')?))
            }
            b'{' => self.map(depth),
            b'"' => Ok(Edn::Str(self.string()?)),
            b':' if !self.json => {
                self.pos += 1;
                let w = self.word()?;
                if w.is_empty() {
                    return Err(self.syntax("a keyword with no name"));
                }
                Ok(Edn::Kw(w))
            }
            b'-' | b'+' | b'0'..=b'9' => self.number(),
            _ => {
                let w = self.word()?;
                match w.as_str() {
                    "" => Err(self.syntax(&format!("unexpected `{}`", self.shown_char()))),
                    "nil" | "null" => Ok(Edn::Nil),
                    "true" => Ok(Edn::Bool(true)),
                    "false" => Ok(Edn::Bool(false)),
                    _ if self.json => Err(self.syntax("expected a value")),
                    _ => Ok(Edn::Sym(w)),
                }
            }
        }
    }

    fn shown_char(&self) -> String {
        self.text
            .get(self.pos..)
            .and_then(|s| s.chars().next())
            .map_or(String::new(), |c| c.escape_debug().to_string())
    }

    fn map(&mut self, depth: usize) -> Result<Edn, RecordedError> {
        if depth >= MAX_DEPTH {
            return Err(self.err(format!("nested deeper than {MAX_DEPTH}")));
        }
        self.pos += 1;
        let mut kv = Vec::new();
        loop {
            self.skip_ws()?;
            self.bounded()?;
            match self.peek() {
                None => return Err(self.syntax("expected `}`")),
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Edn::Map(kv));
                }
                _ => {}
            }
            let k = if self.json {
                if self.peek() != Some(b'"') {
                    return Err(self.syntax("expected a key in quotes"));
                }
                let k = Edn::Str(self.string()?);
                self.skip_ws()?;
                if self.peek() != Some(b':') {
                    return Err(self.syntax("expected `:` after the key"));
                }
                self.pos += 1;
                k
            } else {
                self.value(depth + 1)?
            };
            self.skip_ws()?;
            if self.peek() == Some(b'}') {
                return Err(self.syntax("a key with no value"));
            }
            let v = self.value(depth + 1)?;
            if kv.iter().any(|(x, _)| *x == k) {
                return Err(self.err(format!("the key {} is written twice", k.shown())));
            }
            kv.push((k, v));
        }
    }

    /// A symbol's or keyword's characters (up to a delimiter).
    fn word(&mut self) -> Result<String, RecordedError> {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if c.is_ascii_whitespace() || b",;()[]{}\"".contains(&c) {
                break;
            }
            if c == b'\\' || c == b'#' && self.pos == start {
                return Err(self.syntax("a tagged literal or character (not read here)"));
            }
            self.pos += 1;
            if self.pos - start > MAX_TEXT {
                return Err(self.err(format!("a name longer than {MAX_TEXT} bytes")));
            }
        }
        // Cut only at ASCII delimiters, so the slice is on character boundaries.
        Ok(self.text[start..self.pos].to_string())
    }

    fn number(&mut self) -> Result<Edn, RecordedError> {
        let w = self.word()?;
        let digits = w.strip_suffix('N').unwrap_or(&w);
        let body = digits.strip_prefix(['-', '+']).unwrap_or(digits);
        if body.is_empty() && !self.json {
            // `-` and `+` alone are symbols.
            return Ok(Edn::Sym(w));
        }
        if !body.is_empty() && body.bytes().all(|c| c.is_ascii_digit()) {
            if body.len() > 30 {
                return Err(self.err(format!("the number {} is too large", Edn::Sym(w).shown())));
            }
            return digits
                .parse::<i128>()
                .map(Edn::Int)
                .map_err(|_| self.syntax("a malformed number"));
        }
        let float = body.bytes().next().is_some_and(|c| c.is_ascii_digit())
            && body
                .bytes()
                .all(|c| c.is_ascii_digit() || b".eE+-M".contains(&c));
        match float {
            true => Ok(Edn::Num(w)),
            false => Err(self.syntax("a malformed number")),
        }
    }

    fn string(&mut self) -> Result<String, RecordedError> {
        self.pos += 1;
        let mut s = String::new();
        loop {
            if s.len() > MAX_TEXT {
                return Err(self.err(format!("a string longer than {MAX_TEXT} bytes")));
            }
            let Some(c) = self.text.get(self.pos..).and_then(|r| r.chars().next()) else {
                return Err(self.syntax("a string with no closing quote"));
            };
            self.pos += c.len_utf8();
            match c {
                '"' => return Ok(s),
                '\n' if self.json => return Err(self.syntax("a line break inside a string")),
                '\n' => {
                    self.line = self.line.saturating_add(1);
                    self.line_start = self.pos;
                    s.push(c)
                }
                '\\' => {
                    let e = self
                        .peek()
                        .ok_or_else(|| self.syntax("a string with no closing quote"))?;
                    self.pos += 1;
                    s.push(match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'n' => '\n',
                        b't' => '\t',
                        b'r' => '\r',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'u' => {
                            let hex = self
                                .text
                                .get(self.pos..self.pos + 4)
                                .and_then(|h| u32::from_str_radix(h, 16).ok())
                                .and_then(char::from_u32)
                                .ok_or_else(|| self.syntax("a bad \\u escape"))?;
                            self.pos += 4;
                            hex
                        }
                        _ => return Err(self.syntax("an unknown escape")),
                    });
                }
                c => s.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kw(s: &str) -> Edn {
        Edn::Kw(s.into())
    }

    #[test]
    fn reads_maps_one_a_line_and_in_one_vector() {
        let lines = "{:type :invoke, :f :acquire, :process 0, :time 5}\n\n{:type :ok :value 3}\n";
        let tops = parse_all(lines, false).unwrap();
        assert_eq!(tops.len(), 2);
        assert_eq!(tops[1].line, 3);
        let Edn::Map(kv) = &tops[0].value else {
            panic!()
        };
        assert_eq!(kv[0], (kw("type"), kw("invoke")));
        assert_eq!(kv[3], (kw("time"), Edn::Int(5)));
        let one = "[{:type :invoke}\n {:type :ok, :value [1 \"a\" nil]}]";
        let tops = parse_all(one, false).unwrap();
        assert_eq!(tops.len(), 2);
        assert_eq!(tops[1].line, 2);
        assert!(parse_all("[]", false).unwrap().is_empty());
    }

    #[test]
    fn reads_the_json_form() {
        let t = "[{\"type\":\"ok\",\"process\":2,\"value\":null},\n{\"type\":\"info\",\"process\":\"nemesis\"}]";
        let tops = parse_all(t, true).unwrap();
        assert_eq!(tops.len(), 2);
        let Edn::Map(kv) = &tops[0].value else {
            panic!()
        };
        assert_eq!(kv[2], (Edn::Str("value".into()), Edn::Nil));
        assert!(parse_all("{\"type\" \"ok\"}", true).is_err());
        assert!(parse_all("{\"type\": :ok}", true).is_err());
    }

    #[test]
    fn refusals_name_the_line_and_never_nest_without_bound() {
        let e = parse_all("{:a 1}\n{:b }", false).unwrap_err();
        assert_eq!(e.line, 2);
        let deep = "[".repeat(100_000);
        let e = parse_all(&format!("{{:a {deep}}}"), false).unwrap_err();
        assert!(e.message.contains("nested deeper"), "{e}");
        let e = parse_all(&format!("{{:a \"{}\"}}", "x".repeat(300)), false).unwrap_err();
        assert!(e.message.contains("longer than"), "{e}");
        let e = parse_all(&format!("{{:a [{}]}}", "1 ".repeat(3000)), false).unwrap_err();
        assert!(e.message.contains("operation longer"), "{e}");
        assert!(parse_all("{:a #inst \"2020\"}", false).is_err());
        assert!(parse_all("{:a 1 :a 2}", false).is_err());
        assert!(parse_all("[{:a 1}", false).is_err());
        assert_eq!(parse_all("{:x 1.5e3}", false).unwrap().len(), 1);
    }
}
