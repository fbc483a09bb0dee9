//! The protected resource: a small TCP server in the runner (a thread on its own loopback
//! port, never behind a proxy, so a client cut off from the lock service still reaches it).
//! One line per write — `W <client> <token|-> <key> <value>` — answered `A` (accepted),
//! `R <reason>` (refused by the fence) or `E <error>` (the exact fence could not ask etcd). Its fence is the scenario's:
//!
//! - `none`: every write lands;
//! - `monotone`: per key, a token below the highest accepted is refused (check and write under
//!   one lock, so atomic);
//! - `exact`: the write is one etcd transaction that lands only while the lock key's create
//!   revision is the writer's token — the data lives beside the lock, as `exact` models.

use crate::etcd::Etcd;
use crate::record::Recorder;
use serde_json::json;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fence {
    None,
    Monotone,
    Exact,
}

/// A fence's refusal: the trace format's `reason`, and its extra field (`mark`, `current`).
type Refusal = (&'static str, Option<(&'static str, i64)>);

pub struct Storage {
    fence: Fence,
    /// The highest token accepted per key (monotone).
    marks: Mutex<BTreeMap<String, i64>>,
    etcd: Option<Etcd>,
    lock_key: String,
    rec: Recorder,
}

/// Starts the storage on a free loopback port; its address.
pub fn start(
    fence: Fence,
    etcd: Option<Etcd>,
    lock_key: &str,
    rec: Recorder,
) -> Result<String, String> {
    if fence == Fence::Exact && etcd.is_none() {
        return Err("the exact fence needs etcd".into());
    }
    let l = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let addr = l.local_addr().map_err(|e| e.to_string())?.to_string();
    let st = Arc::new(Storage {
        fence,
        marks: Mutex::new(BTreeMap::new()),
        etcd,
        lock_key: lock_key.to_string(),
        rec,
    });
    std::thread::spawn(move || {
        for s in l.incoming().flatten() {
            let st = st.clone();
            std::thread::spawn(move || st.serve(s));
        }
    });
    Ok(addr)
}

impl Storage {
    fn serve(&self, s: TcpStream) {
        let _ = s.set_nodelay(true);
        let Ok(mut w) = s.try_clone() else { return };
        for line in BufReader::new(s).lines() {
            let Ok(line) = line else { return };
            let answer = self.write(&line);
            if writeln!(w, "{answer}").is_err() {
                return;
            }
        }
    }

    fn write(&self, line: &str) -> String {
        let mut p = line.splitn(5, ' ');
        let (Some("W"), Some(client), Some(tok), Some(key), value) =
            (p.next(), p.next(), p.next(), p.next(), p.next())
        else {
            return "R malformed request".into();
        };
        let value = value.unwrap_or("");
        let token: Option<i64> = tok.parse().ok();
        // The refusal's reason in the trace format's words, with its extra field.
        let verdict: Result<(), Refusal> = match (self.fence, token) {
            (Fence::None, _) => Ok(()),
            (_, None) => Err(("no_token", None)),
            (Fence::Monotone, Some(t)) => {
                let mut marks = self.marks.lock().unwrap();
                match marks.get(key).copied() {
                    Some(m) if t < m => Err(("stale_token", Some(("mark", m)))),
                    m => {
                        marks.insert(key.to_string(), t.max(m.unwrap_or(t)));
                        Ok(())
                    }
                }
            }
            (Fence::Exact, Some(t)) => {
                let etcd = self.etcd.as_ref().expect("checked at start");
                match etcd.put_if_holder(&self.lock_key, t, key, value) {
                    Ok(Ok(())) => Ok(()),
                    // 0: no lock key at all, which the format writes as no `current`.
                    Ok(Err(cur)) => {
                        Err(("revision_mismatch", (cur > 0).then_some(("current", cur))))
                    }
                    // etcd did not answer: nothing was written; tell the client so, but
                    // the format has no reason for it, so the trace shows no answer.
                    Err(e) => return format!("E etcd: {e}"),
                }
            }
        };
        let mut f = json!({ "client": client, "key": key, "value": value });
        if let Some(t) = token {
            f["token"] = t.into();
        }
        match verdict {
            Ok(()) => {
                self.rec.note("write_accepted", f);
                "A".into()
            }
            Err((reason, extra)) => {
                f["reason"] = reason.into();
                if let Some((k, v)) = extra {
                    f[k] = v.into();
                }
                self.rec.note("write_rejected", f);
                format!("R {reason}")
            }
        }
    }
}
