//! A minimal HTTP/1.1 client for etcd's v3 JSON gateway: one POST per connection
//! (`Connection: close`), a JSON body out, a JSON body back. A request that goes through a
//! cut proxy simply times out, as a real client's would. Handles `Content-Length` and
//! chunked replies (the gateway streams keepalive answers chunked).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::time::Duration;

/// POSTs `body` to `http://addr{path}`; the status and the reply's body.
pub fn post(
    addr: &str,
    path: &str,
    body: &str,
    timeout: Duration,
) -> Result<(u16, String), String> {
    let sa = addr.parse().map_err(|e| format!("{addr}: {e}"))?;
    let s = TcpStream::connect_timeout(&sa, timeout).map_err(|e| e.to_string())?;
    s.set_read_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    s.set_write_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    s.set_nodelay(true).map_err(|e| e.to_string())?;
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut r = BufReader::new(s);
    r.get_mut()
        .write_all(req.as_bytes())
        .map_err(|e| e.to_string())?;
    read_reply(&mut r)
}

fn line(r: &mut impl BufRead) -> Result<String, String> {
    let mut l = String::new();
    let n = r.read_line(&mut l).map_err(|e| e.to_string())?;
    if n == 0 {
        return Err("connection closed".into());
    }
    Ok(l.trim_end().to_string())
}

fn read_reply(r: &mut impl BufRead) -> Result<(u16, String), String> {
    let status = line(r)?;
    let code = status
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("bad status line `{status}`"))?;
    let (mut len, mut chunked) = (None, false);
    loop {
        let h = line(r)?;
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':').unwrap_or((&h, ""));
        let (k, v) = (k.trim().to_ascii_lowercase(), v.trim());
        if k == "content-length" {
            len = v.parse::<usize>().ok();
        } else if k == "transfer-encoding" && v.eq_ignore_ascii_case("chunked") {
            chunked = true;
        }
    }
    let mut body = Vec::new();
    if chunked {
        // The first chunk is enough: the gateway sends one JSON message per chunk, and the
        // lab asks for one answer per request.
        loop {
            let size = usize::from_str_radix(line(r)?.split(';').next().unwrap_or(""), 16)
                .map_err(|_| "bad chunk size".to_string())?;
            if size == 0 {
                break;
            }
            let mut buf = vec![0; size + 2];
            r.read_exact(&mut buf).map_err(|e| e.to_string())?;
            body.extend_from_slice(&buf[..size]);
            if body.ends_with(b"\n") || body.ends_with(b"}") {
                break;
            }
        }
    } else if let Some(n) = len {
        body.resize(n, 0);
        r.read_exact(&mut body).map_err(|e| e.to_string())?;
    } else {
        r.read_to_end(&mut body).map_err(|e| e.to_string())?;
    }
    Ok((code, String::from_utf8_lossy(&body).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_length_and_chunked_replies() {
        let mut r: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}";
        assert_eq!(read_reply(&mut r).unwrap(), (200, "{}".into()));
        let mut r: &[u8] =
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n{\"a\":1}\r\n0\r\n\r\n";
        assert_eq!(read_reply(&mut r).unwrap(), (200, "{\"a\":1}".into()));
        let mut r: &[u8] = b"garbage";
        assert!(read_reply(&mut r).is_err());
    }
}
