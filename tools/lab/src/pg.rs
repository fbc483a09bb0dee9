//! PostgreSQL's wire protocol (version 3), as much of it as the lab's storage needs: the
//! startup message under trust authentication (the lab's own cluster trusts loopback), the
//! simple query ('Q') and its answers — rows ('D'), the command tag ('C', e.g. `INSERT 0 1`:
//! how many rows a statement wrote), errors ('E') and ReadyForQuery ('Z'). Blocking std::net,
//! one connection per storage session, each read bounded by a timeout.
//!
//! The simple query carries no parameters, so values go into the SQL as literals
//! (`literal`): single-quoted with quotes doubled, which is all that standard-conforming
//! strings (PostgreSQL's default since 9.1) need.

use std::io::{BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// What one statement answered: its command tag and its rows (each column text or NULL).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    pub tag: String,
    pub rows: Vec<Vec<Option<String>>>,
}

impl Answer {
    /// How many rows the statement wrote or read: the tag's last number (`INSERT 0 1` → 1).
    pub fn count(&self) -> i64 {
        self.tag
            .rsplit(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    }

    /// The first row's first column as a number (NULL or no row: None).
    pub fn first_int(&self) -> Option<i64> {
        self.rows.first()?.first()?.as_ref()?.parse().ok()
    }
}

/// A SQL string literal for `s`.
pub fn literal(s: &str) -> String {
    format!("'{}'", s.replace('\0', "").replace('\'', "''"))
}

pub struct Pg {
    r: BufReader<TcpStream>,
}

fn frame(kind: Option<u8>, body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 5);
    out.extend(kind);
    out.extend_from_slice(&(body.len() as i32 + 4).to_be_bytes());
    out.extend_from_slice(body);
    out
}

/// The error message's human part ('M') and SQLSTATE ('C').
fn error_text(body: &[u8]) -> String {
    let (mut msg, mut code) = (String::new(), String::new());
    for field in body.split(|&b| b == 0) {
        match field.first() {
            Some(b'M') => msg = String::from_utf8_lossy(&field[1..]).into_owned(),
            Some(b'C') => code = String::from_utf8_lossy(&field[1..]).into_owned(),
            _ => {}
        }
    }
    format!("postgres: {msg} ({code})")
}

impl Pg {
    /// Connects as `user` to database `postgres` and waits until the server is ready.
    pub fn connect(addr: &str, user: &str, timeout: Duration) -> Result<Pg, String> {
        let sa = addr.parse().map_err(|e| format!("{addr}: {e}"))?;
        let s = TcpStream::connect_timeout(&sa, timeout).map_err(|e| format!("{addr}: {e}"))?;
        s.set_read_timeout(Some(timeout))
            .map_err(|e| e.to_string())?;
        s.set_write_timeout(Some(timeout))
            .map_err(|e| e.to_string())?;
        s.set_nodelay(true).map_err(|e| e.to_string())?;
        let mut body = 196_608i32.to_be_bytes().to_vec(); // protocol 3.0
        for (k, v) in [("user", user), ("database", "postgres")] {
            body.extend_from_slice(k.as_bytes());
            body.push(0);
            body.extend_from_slice(v.as_bytes());
            body.push(0);
        }
        body.push(0);
        let mut pg = Pg {
            r: BufReader::new(s),
        };
        pg.r.get_mut()
            .write_all(&frame(None, &body))
            .map_err(|e| e.to_string())?;
        loop {
            let (kind, body) = pg.read()?;
            match kind {
                b'R' if body.get(..4) == Some(&[0, 0, 0, 0]) => {}
                b'R' => {
                    return Err(
                        "postgres asks for a password: the lab's cluster should trust loopback"
                            .into(),
                    )
                }
                b'E' => return Err(error_text(&body)),
                b'Z' => return Ok(pg),
                _ => {} // ParameterStatus, BackendKeyData, notices
            }
        }
    }

    fn read(&mut self) -> Result<(u8, Vec<u8>), String> {
        let mut head = [0u8; 5];
        self.r.read_exact(&mut head).map_err(|e| e.to_string())?;
        let len = i32::from_be_bytes([head[1], head[2], head[3], head[4]]);
        if !(4..=64 << 20).contains(&len) {
            return Err(format!("postgres: bad message length {len}"));
        }
        let mut body = vec![0; len as usize - 4];
        self.r.read_exact(&mut body).map_err(|e| e.to_string())?;
        Ok((head[0], body))
    }

    /// Runs `sql` (one or more statements) as a simple query: each statement's answer, or the
    /// first error (PostgreSQL then skips the rest).
    pub fn query(&mut self, sql: &str) -> Result<Vec<Answer>, String> {
        let mut body = sql.as_bytes().to_vec();
        body.push(0);
        self.r
            .get_mut()
            .write_all(&frame(Some(b'Q'), &body))
            .map_err(|e| e.to_string())?;
        let (mut out, mut cur, mut err) = (Vec::new(), Answer::default(), None);
        loop {
            let (kind, body) = self.read()?;
            match kind {
                b'D' => cur.rows.push(data_row(&body)?),
                b'C' => {
                    cur.tag = String::from_utf8_lossy(body.strip_suffix(&[0]).unwrap_or(&body))
                        .into_owned();
                    out.push(std::mem::take(&mut cur));
                }
                b'E' => err = Some(error_text(&body)),
                b'Z' => return err.map_or(Ok(out), Err),
                _ => {} // RowDescription, EmptyQueryResponse, notices
            }
        }
    }
}

impl Drop for Pg {
    fn drop(&mut self) {
        // Terminate: the server ends the session at once instead of on its next read.
        let _ = self.r.get_mut().write_all(&frame(Some(b'X'), &[]));
    }
}

fn data_row(body: &[u8]) -> Result<Vec<Option<String>>, String> {
    let short = || "postgres: short data row".to_string();
    let n = i16::from_be_bytes(body.get(..2).ok_or_else(short)?.try_into().unwrap());
    let (mut at, mut row) = (2usize, Vec::new());
    for _ in 0..n {
        let len = i32::from_be_bytes(body.get(at..at + 4).ok_or_else(short)?.try_into().unwrap());
        at += 4;
        if len < 0 {
            row.push(None);
            continue;
        }
        let v = body.get(at..at + len as usize).ok_or_else(short)?;
        row.push(Some(String::from_utf8_lossy(v).into_owned()));
        at += len as usize;
    }
    Ok(row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_literals_and_reads_rows_and_tags() {
        assert_eq!(literal("it's"), "'it''s'");
        let row = [0, 2, 0, 0, 0, 2, b'4', b'2', 0xff, 0xff, 0xff, 0xff];
        assert_eq!(data_row(&row).unwrap(), vec![Some("42".into()), None]);
        assert!(data_row(&[0, 1, 0, 0, 0, 9]).is_err());
        let a = Answer {
            tag: "INSERT 0 1".into(),
            rows: vec![],
        };
        assert_eq!(a.count(), 1);
        assert_eq!(frame(Some(b'Q'), b"x\0"), vec![b'Q', 0, 0, 0, 6, b'x', 0]);
    }
}
