//! RESP, Redis's wire protocol, as much of it as a lock needs: commands go out as arrays of
//! bulk strings; replies come back as simple strings, errors, integers, bulk strings (or
//! nil) and arrays. Blocking std::net, one connection per client, each read bounded by the
//! client's timeout — a silent partition shows up as a timed-out read, as it would for a
//! real client library.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::Duration;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    Simple(String),
    Error(String),
    Int(i64),
    Bulk(Option<Vec<u8>>),
    Array(Option<Vec<Reply>>),
}

/// A command as RESP: `*<n>\r\n` then `$<len>\r\n<bytes>\r\n` per argument.
pub fn encode(args: &[&[u8]]) -> Vec<u8> {
    let mut out = format!("*{}\r\n", args.len()).into_bytes();
    for a in args {
        out.extend_from_slice(format!("${}\r\n", a.len()).as_bytes());
        out.extend_from_slice(a);
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// Reads one reply (recursively for arrays).
pub fn decode(r: &mut impl BufRead) -> Result<Reply, String> {
    let mut line = Vec::new();
    r.read_until(b'\n', &mut line).map_err(|e| e.to_string())?;
    if line.len() < 3 || !line.ends_with(b"\r\n") {
        return Err("connection closed or short reply".into());
    }
    let body = String::from_utf8_lossy(&line[1..line.len() - 2]).into_owned();
    let int = |s: &str| {
        s.parse::<i64>()
            .map_err(|_| format!("bad RESP length `{s}`"))
    };
    match line[0] {
        b'+' => Ok(Reply::Simple(body)),
        b'-' => Ok(Reply::Error(body)),
        b':' => Ok(Reply::Int(int(&body)?)),
        b'$' => {
            let n = int(&body)?;
            if n < 0 {
                return Ok(Reply::Bulk(None));
            }
            let mut buf = vec![0; n as usize + 2];
            r.read_exact(&mut buf).map_err(|e| e.to_string())?;
            buf.truncate(n as usize);
            Ok(Reply::Bulk(Some(buf)))
        }
        b'*' => {
            let n = int(&body)?;
            if n < 0 {
                return Ok(Reply::Array(None));
            }
            (0..n)
                .map(|_| decode(r))
                .collect::<Result<_, _>>()
                .map(|v| Reply::Array(Some(v)))
        }
        c => Err(format!("unknown RESP type byte {c}")),
    }
}

/// One connection to Redis.
pub struct Conn {
    r: BufReader<TcpStream>,
}

impl Conn {
    pub fn open(addr: &str, timeout: Duration) -> Result<Conn, String> {
        let s =
            TcpStream::connect_timeout(&addr.parse().map_err(|e| format!("{addr}: {e}"))?, timeout)
                .map_err(|e| e.to_string())?;
        s.set_read_timeout(Some(timeout))
            .map_err(|e| e.to_string())?;
        s.set_write_timeout(Some(timeout))
            .map_err(|e| e.to_string())?;
        s.set_nodelay(true).map_err(|e| e.to_string())?;
        Ok(Conn {
            r: BufReader::new(s),
        })
    }

    pub fn call(&mut self, args: &[&[u8]]) -> Result<Reply, String> {
        self.r
            .get_mut()
            .write_all(&encode(args))
            .map_err(|e| e.to_string())?;
        decode(&mut self.r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_and_decodes() {
        assert_eq!(encode(&[b"GET", b"k"]), b"*2\r\n$3\r\nGET\r\n$1\r\nk\r\n");
        let mut r: &[u8] = b"*3\r\n+OK\r\n$-1\r\n:7\r\n";
        assert_eq!(
            decode(&mut r).unwrap(),
            Reply::Array(Some(vec![
                Reply::Simple("OK".into()),
                Reply::Bulk(None),
                Reply::Int(7)
            ]))
        );
        let mut r: &[u8] = b"$5\r\nhello\r\n-ERR x\r\n";
        assert_eq!(
            decode(&mut r).unwrap(),
            Reply::Bulk(Some(b"hello".to_vec()))
        );
        assert_eq!(decode(&mut r).unwrap(), Reply::Error("ERR x".into()));
        let mut r: &[u8] = b"";
        assert!(decode(&mut r).is_err());
    }
}
