//! ZooKeeper's wire protocol (jute, big-endian, each packet framed by its length), as much
//! of it as the lock recipe needs: connect (and re-attach to a session), create with a
//! returned stat (`create2`), getChildren, exists with a watch, delete, ping, closeSession,
//! and the watch notifications the server pushes. Blocking std::net: a reader thread hands
//! each reply to the call waiting for its xid, and watch events to whoever waits for one.
//!
//! A session outlives its connection: when the connection drops, [`Session::reattach`]
//! connects again with the session's id and password, and the server either takes it back
//! or answers with a timeout of 0 — the session has expired (its ephemeral nodes are gone).

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub const DELETE: i32 = 2;
pub const EXISTS: i32 = 3;
pub const GET_CHILDREN: i32 = 8;
pub const PING: i32 = 11;
pub const CREATE2: i32 = 15;
pub const CLOSE: i32 = -11;

/// The server's error codes the recipe meets.
pub const NO_NODE: i32 = -101;
pub const NODE_EXISTS: i32 = -110;

/// Create flags.
pub const PERSISTENT: i32 = 0;
pub const EPHEMERAL_SEQUENTIAL: i32 = 3;

const PING_XID: i32 = -2;
const WATCH_XID: i32 = -1;

/// Jute encoding of a request body.
#[derive(Default)]
pub struct Out(pub Vec<u8>);

impl Out {
    pub fn int(mut self, v: i32) -> Self {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }
    pub fn long(mut self, v: i64) -> Self {
        self.0.extend_from_slice(&v.to_be_bytes());
        self
    }
    pub fn bool(mut self, v: bool) -> Self {
        self.0.push(u8::from(v));
        self
    }
    pub fn buf(self, v: &[u8]) -> Self {
        let mut o = self.int(v.len() as i32);
        o.0.extend_from_slice(v);
        o
    }
    pub fn str(self, v: &str) -> Self {
        self.buf(v.as_bytes())
    }
}

/// Jute decoding of a reply body.
pub struct In<'a>(pub &'a [u8]);

impl In<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], String> {
        if self.0.len() < n {
            return Err("zookeeper: short reply".into());
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }
    pub fn int(&mut self) -> Result<i32, String> {
        Ok(i32::from_be_bytes(self.take(4)?.try_into().unwrap()))
    }
    pub fn long(&mut self) -> Result<i64, String> {
        Ok(i64::from_be_bytes(self.take(8)?.try_into().unwrap()))
    }
    pub fn buf(&mut self) -> Result<Vec<u8>, String> {
        let n = self.int()?;
        if n < 0 {
            return Ok(Vec::new());
        }
        Ok(self.take(n as usize)?.to_vec())
    }
    pub fn str(&mut self) -> Result<String, String> {
        Ok(String::from_utf8_lossy(&self.buf()?).into_owned())
    }
}

/// A reply: the server's error code (0: ok), the zxid it answered at, the body.
pub type Reply = (i32, i64, Vec<u8>);

type Waiters = Arc<Mutex<BTreeMap<i32, Sender<Reply>>>>;

/// One TCP connection and its reader thread.
struct Conn {
    w: TcpStream,
    waiting: Waiters,
}

/// What a connect attempt learned.
pub enum Attach {
    Ok,
    /// The server no longer has the session.
    Expired,
}

pub struct Session {
    addr: String,
    timeout: Duration,
    /// The session's id (0 until the server gave one), password, and timeout (asked for,
    /// then granted, ms).
    ident: Mutex<(i64, Vec<u8>, i32)>,
    conn: Mutex<Option<Conn>>,
    xid: AtomicI32,
    /// Watch notifications (the node's path), and `None` when the connection dropped.
    events_tx: Sender<Option<String>>,
    pub events: Mutex<Receiver<Option<String>>>,
    /// The connection dropped (set by the reader thread).
    pub dropped: Arc<AtomicBool>,
    /// One message per dropped connection, for whoever re-attaches.
    drops_tx: Sender<()>,
    pub drops: Mutex<Receiver<()>>,
    /// Closed on purpose: a drop then is no news.
    pub closed: AtomicBool,
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = (body.len() as i32).to_be_bytes().to_vec();
    out.extend_from_slice(body);
    out
}

fn read_frame(r: &mut TcpStream) -> Result<Vec<u8>, String> {
    let mut len = [0u8; 4];
    r.read_exact(&mut len).map_err(|e| e.to_string())?;
    let n = i32::from_be_bytes(len);
    if !(0..=16 << 20).contains(&n) {
        return Err(format!("zookeeper: bad packet length {n}"));
    }
    let mut body = vec![0; n as usize];
    r.read_exact(&mut body).map_err(|e| e.to_string())?;
    Ok(body)
}

impl Session {
    /// A new session asking for `timeout_ms`.
    pub fn open(addr: &str, timeout_ms: i64, timeout: Duration) -> Result<Session, String> {
        let (tx, rx) = channel();
        let (dtx, drx) = channel();
        let s = Session {
            addr: addr.to_string(),
            timeout,
            ident: Mutex::new((0, vec![0; 16], timeout_ms as i32)),
            conn: Mutex::new(None),
            xid: AtomicI32::new(1),
            events_tx: tx,
            events: Mutex::new(rx),
            dropped: Arc::new(AtomicBool::new(false)),
            drops_tx: dtx,
            drops: Mutex::new(drx),
            closed: AtomicBool::new(false),
        };
        match s.attach()? {
            Attach::Ok => Ok(s),
            Attach::Expired => Err("zookeeper refused a new session".into()),
        }
    }

    /// Connects (again) and sends the connect request: a new session while `id` is 0, else
    /// re-attaches to this one.
    pub fn reattach(&self) -> Result<Attach, String> {
        self.attach()
    }

    /// The timeout the server granted, ms.
    pub fn negotiated_ms(&self) -> i32 {
        self.ident.lock().unwrap().2
    }

    fn attach(&self) -> Result<Attach, String> {
        let (id, pw, asked) = self.ident.lock().unwrap().clone();
        let sa = self
            .addr
            .parse()
            .map_err(|e| format!("{}: {e}", self.addr))?;
        let mut s = TcpStream::connect_timeout(&sa, self.timeout).map_err(|e| e.to_string())?;
        s.set_nodelay(true).map_err(|e| e.to_string())?;
        s.set_read_timeout(Some(self.timeout))
            .map_err(|e| e.to_string())?;
        let req = Out::default()
            .int(0) // protocol version
            .long(0) // last zxid seen: the lab reads nothing it must not miss
            .int(asked)
            .long(id)
            .buf(&pw)
            .bool(false);
        s.write_all(&frame(&req.0)).map_err(|e| e.to_string())?;
        let reply = match read_frame(&mut s) {
            Ok(r) => r,
            // The server closes at once on an expired session, sometimes before answering.
            Err(_) if id != 0 => return Ok(Attach::Expired),
            Err(e) => return Err(e),
        };
        let mut r = In(&reply);
        let (_version, granted, new_id, passwd) = (r.int()?, r.int()?, r.long()?, r.buf()?);
        if granted <= 0 {
            return Ok(Attach::Expired);
        }
        if id == 0 {
            *self.ident.lock().unwrap() = (new_id, passwd, granted);
        }
        // Replies are waited for with their own timeout; the reader blocks for as long as
        // it takes (a paused process's reader simply reads on after SIGCONT).
        s.set_read_timeout(None).map_err(|e| e.to_string())?;
        let waiting: Waiters = Arc::default();
        let (mut r, wt, tx, dropped, drops) = (
            s.try_clone().map_err(|e| e.to_string())?,
            waiting.clone(),
            self.events_tx.clone(),
            self.dropped.clone(),
            self.drops_tx.clone(),
        );
        dropped.store(false, Ordering::SeqCst);
        std::thread::spawn(move || {
            while let Ok(p) = read_frame(&mut r) {
                let mut i = In(&p);
                let (Ok(xid), Ok(zxid), Ok(err)) = (i.int(), i.long(), i.int()) else {
                    break;
                };
                if xid == WATCH_XID {
                    // WatcherEvent: type, state, path.
                    let (_, _, path) = (i.int(), i.int(), i.str());
                    let _ = tx.send(path.ok());
                    continue;
                }
                if let Some(w) = wt.lock().unwrap().remove(&xid) {
                    let _ = w.send((err, zxid, i.0.to_vec()));
                }
            }
            dropped.store(true, Ordering::SeqCst);
            // Every call still waiting fails now (its sender is dropped).
            wt.lock().unwrap().clear();
            let _ = tx.send(None);
            let _ = drops.send(());
        });
        *self.conn.lock().unwrap() = Some(Conn { w: s, waiting });
        Ok(Attach::Ok)
    }

    /// One request: its reply, or Err when the connection dropped or the reply is late.
    pub fn call(&self, op: i32, body: Out) -> Result<Reply, String> {
        let xid = if op == PING {
            PING_XID
        } else {
            self.xid.fetch_add(1, Ordering::SeqCst)
        };
        let (tx, rx) = channel();
        {
            let mut c = self.conn.lock().unwrap();
            let c = c.as_mut().ok_or("zookeeper: not connected")?;
            c.waiting.lock().unwrap().insert(xid, tx);
            let mut p = Out::default().int(xid).int(op);
            p.0.extend_from_slice(&body.0);
            c.w.write_all(&frame(&p.0)).map_err(|e| e.to_string())?;
        }
        rx.recv_timeout(self.timeout)
            .map_err(|_| "zookeeper: connection lost or no answer".to_string())
    }

    /// Creates `path` with `flags`; Ok((path created, its creation zxid)) or Err(code).
    pub fn create(&self, path: &str, flags: i32) -> Result<Result<(String, i64), i32>, String> {
        let body = Out::default()
            .str(path)
            .buf(&[])
            .int(1) // one ACL: world:anyone, all permissions
            .int(31)
            .str("world")
            .str("anyone")
            .int(flags);
        let (err, _, b) = self.call(CREATE2, body)?;
        if err != 0 {
            return Ok(Err(err));
        }
        let mut r = In(&b);
        let created = r.str()?;
        let czxid = r.long()?; // the stat's first field
        Ok(Ok((created, czxid)))
    }

    pub fn children(&self, path: &str) -> Result<Vec<String>, String> {
        let (err, _, b) = self.call(GET_CHILDREN, Out::default().str(path).bool(false))?;
        if err != 0 {
            return Err(format!("getChildren {path}: error {err}"));
        }
        let mut r = In(&b);
        (0..r.int()?.max(0)).map(|_| r.str()).collect()
    }

    /// Whether `path` exists, leaving a watch on it (fires when it is deleted).
    pub fn exists_watch(&self, path: &str) -> Result<bool, String> {
        let (err, _, _) = self.call(EXISTS, Out::default().str(path).bool(true))?;
        match err {
            0 => Ok(true),
            NO_NODE => Ok(false),
            e => Err(format!("exists {path}: error {e}")),
        }
    }

    /// Deletes `path` (any version): true if it was there.
    pub fn delete(&self, path: &str) -> Result<bool, String> {
        let (err, _, _) = self.call(DELETE, Out::default().str(path).int(-1))?;
        match err {
            0 => Ok(true),
            NO_NODE => Ok(false),
            e => Err(format!("delete {path}: error {e}")),
        }
    }

    pub fn ping(&self) -> Result<(), String> {
        self.call(PING, Out::default()).map(|_| ())
    }

    /// Ends the session at once (its ephemeral nodes go with it).
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        let _ = self.call(CLOSE, Out::default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_and_decodes_jute() {
        let o = Out::default().int(1).str("ab").bool(true).long(-1);
        assert_eq!(
            o.0,
            [0, 0, 0, 1, 0, 0, 0, 2, b'a', b'b', 1, 255, 255, 255, 255, 255, 255, 255, 255]
        );
        let mut i = In(&o.0);
        assert_eq!(i.int().unwrap(), 1);
        assert_eq!(i.str().unwrap(), "ab");
        assert_eq!(i.0.len(), 9); // the bool and the long
        assert!(In(&[0, 0, 1]).int().is_err());
        assert_eq!(frame(&[7]), [0, 0, 0, 1, 7]);
    }
}
