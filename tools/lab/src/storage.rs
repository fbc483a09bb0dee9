//! The protected resource: a small TCP server in the runner (a thread on its own loopback
//! port, never behind a proxy, so a client cut off from the lock service still reaches it).
//! One line per write — `W <client> <token|-> <key> <value>` — answered `A` (accepted),
//! `R <reason>` (refused by the fence) or `E <error>` (the backend did not answer). It records
//! each answer in the trace. Its fence is the scenario's:
//!
//! - `none`: every write lands;
//! - `monotone`: per key, a token below the highest accepted is refused; `strict`: a token
//!   not above it (check and write atomic);
//! - `exact`: the write is one etcd transaction that lands only while the lock key's create
//!   revision is the writer's token — the data lives beside the lock, as `exact` models;
//! - `non_atomic` (PostgreSQL only): the mark is read, then written `check_gap_ms` later.
//!
//! Where the data lives is the backend: the runner's memory (the default), etcd (`exact`), or
//! PostgreSQL (the scenario's `NAME.lab` says `storage = postgres`). In PostgreSQL each client
//! connection has its own database session, and the fence is SQL:
//!
//! - `monotone`/`strict`: ONE statement, `INSERT … ON CONFLICT (key) DO UPDATE … WHERE
//!   d.token <= new` (`<` for strict) — the first write inserts, later ones update only when
//!   the token passes, and the row lock PostgreSQL takes makes check and write atomic. No row
//!   written is the refusal; the mark it reports is read after (it only rises, so the refusal
//!   still holds against it);
//! - `non_atomic`: in a READ COMMITTED transaction, `SELECT token`, compare here, wait the gap,
//!   then an unconditional upsert and COMMIT — two statements, so another session's write can
//!   pass its own check in the gap, and the race happens in the real database.

use crate::etcd::Etcd;
use crate::noise::{timed, Samples};
use crate::pg::{literal, Pg};
use crate::record::Recorder;
use serde_json::json;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fence {
    None,
    Monotone,
    Strict,
    Exact,
    NonAtomic { gap_ms: i64 },
}

/// Where the data lives.
pub enum Backend {
    Memory,
    Etcd(Etcd),
    Postgres {
        addr: String,
        user: String,
        samples: Samples,
    },
}

impl Backend {
    pub fn word(&self) -> &'static str {
        match self {
            Backend::Memory => "lab",
            Backend::Etcd(_) => "etcd",
            Backend::Postgres { .. } => "postgres",
        }
    }
}

/// A fence's refusal: the trace format's `reason`, and its extra field (`mark`, `current`).
type Refusal = (&'static str, Option<(&'static str, i64)>);

/// The PostgreSQL table: one per cluster, each run's keys prefixed with its lock key.
const TABLE: &str = "lab_data";

pub struct Storage {
    fence: Fence,
    /// The highest token accepted per key (monotone).
    marks: Mutex<BTreeMap<String, i64>>,
    backend: Backend,
    lock_key: String,
    rec: Recorder,
}

/// Starts the storage on a free loopback port; its address.
pub fn start(
    fence: Fence,
    backend: Backend,
    lock_key: &str,
    rec: Recorder,
) -> Result<String, String> {
    let fits = match &backend {
        Backend::Memory => matches!(fence, Fence::None | Fence::Monotone | Fence::Strict),
        Backend::Etcd(_) => fence == Fence::Exact,
        Backend::Postgres { .. } => fence != Fence::Exact,
    };
    if !fits {
        return Err(format!(
            "the fence {fence:?} does not run on {} storage",
            backend.word()
        ));
    }
    if let Backend::Postgres { addr, user, .. } = &backend {
        let mut pg = Pg::connect(addr, user, Duration::from_secs(2))?;
        pg.query(&format!(
            "CREATE TABLE IF NOT EXISTS {TABLE} (key text PRIMARY KEY, value text NOT NULL, token bigint)"
        ))?;
    }
    let l = TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let addr = l.local_addr().map_err(|e| e.to_string())?.to_string();
    let st = Arc::new(Storage {
        fence,
        marks: Mutex::new(BTreeMap::new()),
        backend,
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
        // This connection's own database session (PostgreSQL), opened at its first write.
        let mut pg: Option<Pg> = None;
        for line in BufReader::new(s).lines() {
            let Ok(line) = line else { return };
            let answer = self.write(&line, &mut pg);
            if writeln!(w, "{answer}").is_err() {
                return;
            }
        }
    }

    fn write(&self, line: &str, pg: &mut Option<Pg>) -> String {
        let mut p = line.splitn(5, ' ');
        let (Some("W"), Some(client), Some(tok), Some(key), value) =
            (p.next(), p.next(), p.next(), p.next(), p.next())
        else {
            return "R malformed request".into();
        };
        let value = value.unwrap_or("");
        let token: Option<i64> = tok.parse().ok();
        // The refusal's reason in the trace format's words, with its extra field.
        let verdict: Result<(), Refusal> = match (&self.backend, self.fence, token) {
            (Backend::Memory, Fence::None, _) => Ok(()),
            (_, f, None) if f != Fence::None => Err(("no_token", None)),
            (Backend::Memory, f, Some(t)) => {
                let mut marks = self.marks.lock().unwrap();
                match marks.get(key).copied() {
                    Some(m) if t < m => Err(("stale_token", Some(("mark", m)))),
                    Some(m) if t == m && f == Fence::Strict => {
                        Err(("not_above", Some(("mark", m))))
                    }
                    m => {
                        marks.insert(key.to_string(), t.max(m.unwrap_or(t)));
                        Ok(())
                    }
                }
            }
            (Backend::Etcd(etcd), _, t) => {
                match etcd.put_if_holder(&self.lock_key, t.unwrap_or(0), key, value) {
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
            (
                Backend::Postgres {
                    addr,
                    user,
                    samples,
                },
                f,
                t,
            ) => {
                if pg.is_none() {
                    match Pg::connect(addr, user, Duration::from_secs(1)) {
                        Ok(c) => *pg = Some(c),
                        Err(e) => return format!("E {e}"),
                    }
                }
                let conn = pg.as_mut().expect("just opened");
                match self.postgres(conn, samples, f, key, value, t) {
                    Ok(v) => v,
                    Err(e) => {
                        // The session may be mid-transaction or broken: start afresh.
                        *pg = None;
                        return format!("E {e}");
                    }
                }
            }
            // Token-less writes under a fence were refused above.
            (Backend::Memory, _, None) => Ok(()),
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

    /// One write through PostgreSQL under `fence` (see the module's notes). Err: the database
    /// did not answer or refused the SQL itself — nothing is recorded.
    fn postgres(
        &self,
        pg: &mut Pg,
        samples: &Samples,
        fence: Fence,
        key: &str,
        value: &str,
        token: Option<i64>,
    ) -> Result<Result<(), Refusal>, String> {
        // Each run's keys apart from every other's.
        let k = literal(&format!("{}/{key}", self.lock_key));
        let (v, t) = (
            literal(value),
            token.map_or("NULL".to_string(), |t| t.to_string()),
        );
        let upsert = format!(
            "INSERT INTO {TABLE} AS d (key, value, token) VALUES ({k}, {v}, {t}) \
             ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, token = EXCLUDED.token"
        );
        let s = Some(samples);
        let mark = |pg: &mut Pg| -> Result<i64, String> {
            let a = timed(s, "postgres select", || {
                pg.query(&format!("SELECT token FROM {TABLE} WHERE key = {k}"))
            })?;
            Ok(a.first().and_then(|a| a.first_int()).unwrap_or(0))
        };
        match fence {
            Fence::None => {
                timed(s, "postgres upsert", || pg.query(&upsert))?;
                Ok(Ok(()))
            }
            Fence::Monotone | Fence::Strict => {
                // The fence itself: one statement, check and write together.
                let (op, reason) = if fence == Fence::Strict {
                    ("<", "not_above")
                } else {
                    ("<=", "stale_token")
                };
                let a = timed(s, "postgres fenced upsert", || {
                    pg.query(&format!("{upsert} WHERE d.token {op} EXCLUDED.token"))
                })?;
                if a.first().map_or(0, |a| a.count()) == 1 {
                    return Ok(Ok(()));
                }
                Ok(Err((reason, Some(("mark", mark(pg)?)))))
            }
            Fence::NonAtomic { gap_ms } => {
                let t = token.unwrap_or(0);
                let a = timed(s, "postgres begin+select", || {
                    pg.query(&format!(
                        "BEGIN ISOLATION LEVEL READ COMMITTED; SELECT token FROM {TABLE} WHERE key = {k}"
                    ))
                })?;
                match a.get(1).and_then(|a| a.first_int()) {
                    Some(m) if t < m => {
                        pg.query("ROLLBACK")?;
                        Ok(Err(("stale_token", Some(("mark", m)))))
                    }
                    _ => {
                        // The gap between check and write: another session's write can
                        // read the same old mark meanwhile.
                        std::thread::sleep(Duration::from_millis(gap_ms as u64));
                        timed(s, "postgres upsert+commit", || {
                            pg.query(&format!("{upsert}; COMMIT"))
                        })?;
                        Ok(Ok(()))
                    }
                }
            }
            Fence::Exact => Err("the exact fence is etcd's".into()),
        }
    }
}
