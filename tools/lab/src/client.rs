//! A lab client: one real process that runs one client's job from the scenario file (the same
//! file the model runs) against the real lock service, and records what it does and learns.
//!
//! - Redis: `SET key value NX PX ttl` to acquire (retrying every `retry.interval_ms` while
//!   busy), no fencing token, and the documented compare-and-delete Lua script to release.
//! - etcd: wait until the lock key is absent, then a lease and a transaction that creates the
//!   key on it if it is still absent; the key's create revision is the token; keepalives every
//!   `renew_every_ms` (the model's etcd default: TTL/3); release revokes the lease.
//!
//! Like the model's client, it believes it holds the lock from the grant until it learns
//! otherwise: its keepalive loop sees its own deadline pass or a keepalive answered "no such
//! lease", storage refuses its write, or it releases. What it then does is `on_loss`:
//! `abort` stops the job, `continue` carries on (and still writes with its old token).
//! - ZooKeeper: Curator's lock recipe — a session (timeout = `ttl_ms`), an ephemeral
//!   sequential node under the lock's path, the lowest node holds the lock, a waiter watches
//!   the node just below its own; the token is its node's creation zxid. The session pings
//!   every `renew_every_ms` (TTL/3, the model's). When the connection drops the client
//!   re-attaches at once, as ZooKeeper's client does, and a refused re-attach is **Expired**:
//!   the loss. (Curator's LOST after a long Disconnected is not here: the lab cuts no link to
//!   ZooKeeper.) Release deletes the node — from a fresh session if the old one expired, so
//!   the refusal is ZooKeeper's own answer.
//!
//! A SIGSTOP freezes every thread of the process, the keepalive loop included — a GC pause.

use crate::clock::Epoch;
use crate::etcd::{Etcd, POLL_MS};
use crate::noise::Samples;
use crate::record::Recorder;
use crate::resp::{Conn, Reply};
use crate::zk::{self, Attach, Session};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// The documented safe release: delete the key only if it still holds our value.
const RELEASE_LUA: &str =
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Service {
    Redis,
    Etcd,
    ZooKeeper,
}

impl Service {
    pub fn word(self) -> &'static str {
        match self {
            Service::Redis => "redis",
            Service::Etcd => "etcd",
            Service::ZooKeeper => "zookeeper",
        }
    }

    pub fn parse(w: &str) -> Option<Service> {
        [Service::Redis, Service::Etcd, Service::ZooKeeper]
            .into_iter()
            .find(|s| s.word() == w)
    }
}

pub struct Config {
    pub name: String,
    pub spec: Value,
    pub service: Service,
    pub lock_addr: String,
    pub storage_addr: String,
    pub lock_key: String,
    pub epoch: Epoch,
    /// Where its noise samples go (crate::noise).
    pub samples: Samples,
    /// The scenario's network delay, one way (ms): the model's hop.
    pub hop_ms: i64,
    /// Storage's `check_gap_ms` under the non-atomic fence (else 0): a write's answer takes
    /// that much longer by design, which is not noise.
    pub gap_ms: i64,
}

/// What the client believes, shared with its keepalive loop.
#[derive(Default)]
struct State {
    /// Believed deadline (ns on the lab clock) while it believes it holds the lock.
    deadline: Option<i64>,
    /// The job must stop (a loss under `on_loss: abort`).
    abort: bool,
}

struct Client {
    cfg: Config,
    rec: Recorder,
    ttl_ms: i64,
    on_loss: String,
    state: Arc<(Mutex<State>, Condvar)>,
    timeout: Duration,
    redis: Option<Conn>,
    storage: Option<BufReader<TcpStream>>,
    /// The current grant's token (etcd) and lease, kept after a loss: a client that carries
    /// on still writes with it.
    token: Option<i64>,
    lease: Option<i64>,
    owner: String,
    /// ZooKeeper: the session, this grant's node, and whether the session expired.
    zk: Option<Arc<Session>>,
    zk_node: Option<String>,
    zk_expired: Arc<AtomicBool>,
}

fn ms(spec: &Value, path: &[&str], default: i64) -> i64 {
    let mut v = spec;
    for p in path {
        v = &v[*p];
    }
    v.as_i64().unwrap_or(default)
}

/// Runs the job; the process's exit code.
pub fn run(cfg: Config, out: &str) -> Result<(), String> {
    let rec = Recorder::create(out, &cfg.name, cfg.epoch)?;
    let ttl_ms = ms(&cfg.spec, &["ttl_ms"], 0);
    if ttl_ms <= 0 {
        return Err("ttl_ms is required".into());
    }
    if cfg.service == Service::Etcd && ttl_ms % 1000 != 0 {
        return Err("etcd leases are whole seconds: ttl_ms must be a multiple of 1000".into());
    }
    let on_loss = cfg.spec["on_loss"].as_str().unwrap_or("abort").to_string();
    if on_loss == "reacquire" {
        return Err("on_loss: reacquire is not in the lab yet".into());
    }
    let timeout = Duration::from_millis(ms(&cfg.spec, &["timeout_ms"], 1000) as u64);
    let owner = format!(
        "{}-{}-{}",
        cfg.name,
        std::process::id(),
        crate::clock::now_ns()
    );
    let mut c = Client {
        cfg,
        rec,
        ttl_ms,
        on_loss,
        state: Arc::default(),
        timeout,
        redis: None,
        storage: None,
        token: None,
        lease: None,
        owner,
        zk: None,
        zk_node: None,
        zk_expired: Arc::default(),
    };
    c.cfg
        .samples
        .sleep_until(ms(&c.cfg.spec, &["start_ms"], 0) * 1_000_000);
    c.rec.note("job_started", json!({}));
    let steps = c.cfg.spec["job"].as_array().cloned().unwrap_or_default();
    for step in &steps {
        if c.aborted() {
            c.rec.note("job_aborted", json!({ "reason": "lost_lease" }));
            return Ok(());
        }
        match step["op"].as_str().unwrap_or("") {
            "acquire" => {
                if !c.acquire()? {
                    c.rec.note(
                        "job_aborted",
                        json!({ "reason": "lock_service_unreachable" }),
                    );
                    return Ok(());
                }
            }
            "work" => c.work(step["ms"].as_i64().unwrap_or(0)),
            "check" => {
                let late =
                    matches!(c.state.0.lock().unwrap().deadline, Some(d) if c.cfg.epoch.now() >= d);
                if late {
                    c.lose();
                }
            }
            "write" => c.write(
                step["key"].as_str().unwrap_or(""),
                step["value"].as_str().unwrap_or(""),
            )?,
            "release" => c.release(),
            op => return Err(format!("step `{op}` is not in the lab")),
        }
    }
    if c.aborted() {
        c.rec.note("job_aborted", json!({ "reason": "lost_lease" }));
    } else {
        c.rec.note("job_finished", json!({}));
    }
    if let Some(s) = &c.zk {
        s.close();
    }
    Ok(())
}

impl Client {
    fn aborted(&self) -> bool {
        self.state.0.lock().unwrap().abort
    }

    fn etcd(&self) -> Etcd {
        Etcd {
            addr: self.cfg.lock_addr.clone(),
            timeout: self.timeout,
            samples: Some(self.cfg.samples.clone()),
        }
    }

    /// Works `ms` on its clock; a loss under `abort` cuts it short.
    fn work(&self, ms: i64) {
        let end = self.cfg.epoch.now() + ms * 1_000_000;
        let (m, cv) = &*self.state;
        let mut s = m.lock().unwrap();
        loop {
            let now = self.cfg.epoch.now();
            let left = end - now;
            if s.abort {
                return;
            }
            if left <= 0 {
                // How late the work's timer woke: scheduling noise.
                self.cfg.samples.add("timer", end, now);
                return;
            }
            s = cv
                .wait_timeout(s, Duration::from_nanos(left as u64))
                .unwrap()
                .0;
        }
    }

    /// The client learns its lease is gone: it stops believing, then applies `on_loss`.
    fn lose(&self) {
        lose(&self.state, &self.rec, &self.on_loss);
    }

    fn acquire(&mut self) -> Result<bool, String> {
        let interval = ms(&self.cfg.spec, &["retry", "interval_ms"], 1000);
        let max = ms(&self.cfg.spec, &["retry", "max_attempts"], 3);
        let token = match self.cfg.service {
            Service::Redis => {
                let mut failures = 0;
                // The model's client retries `interval` after the busy answer, which comes
                // back two network hops after the request; on loopback the answer takes a
                // fraction of a ms. So the attempts keep the model's cadence on the lab
                // clock, from the first one: they fall where the model's do, and a late
                // timer is sampled as noise instead of adding up over the retries.
                let cadence = (interval + 2 * self.cfg.hop_ms) * 1_000_000;
                let mut attempt = self.cfg.epoch.now();
                loop {
                    self.rec.note("acquire_sent", json!({}));
                    let (px, key, owner) = (
                        self.ttl_ms.to_string(),
                        self.cfg.lock_key.clone(),
                        self.owner.clone(),
                    );
                    let r = self.redis_call(&[
                        b"SET",
                        key.as_bytes(),
                        owner.as_bytes(),
                        b"NX",
                        b"PX",
                        px.as_bytes(),
                    ]);
                    if matches!(r, Ok(Reply::Simple(ref s)) if s == "OK") {
                        break None;
                    }
                    self.rec.note("acquire_failed", json!({}));
                    // Busy is an answer, not a failure: only unanswered tries count
                    // towards max_attempts, as in the model.
                    if r.is_err() {
                        failures += 1;
                        if max > 0 && failures >= max {
                            return Ok(false);
                        }
                        // Unanswered (a timeout): the cadence starts again from now.
                        attempt = self.cfg.epoch.now();
                    }
                    attempt += cadence;
                    self.cfg.samples.sleep_until(attempt);
                }
            }
            Service::Etcd => {
                self.rec.note("acquire_sent", json!({}));
                let etcd = self.etcd();
                let mut failures = 0;
                loop {
                    // The queue, emulated: wait until the key is gone, then try to create it.
                    let from = self.cfg.epoch.now();
                    let r = etcd
                        .create_revision(&self.cfg.lock_key)
                        .and_then(|cur| match cur {
                            Some(_) => Ok(None),
                            None => {
                                let id = etcd.grant(self.ttl_ms / 1000)?;
                                let tok =
                                    etcd.create_if_absent(&self.cfg.lock_key, &self.owner, id)?;
                                if tok.is_none() {
                                    let _ = etcd.revoke(id);
                                }
                                Ok(tok.map(|t| (t, id)))
                            }
                        });
                    match r {
                        Ok(Some((t, id))) => {
                            // The lock call as a whole, as the model's one request.
                            self.cfg.samples.add(
                                "etcd acquire (range+grant+txn)",
                                from,
                                self.cfg.epoch.now(),
                            );
                            self.lease = Some(id);
                            break Some(t);
                        }
                        Ok(None) => std::thread::sleep(Duration::from_millis(POLL_MS)),
                        Err(_) => {
                            failures += 1;
                            if max > 0 && failures >= max {
                                self.rec.note("acquire_failed", json!({}));
                                return Ok(false);
                            }
                            std::thread::sleep(Duration::from_millis(interval as u64));
                        }
                    }
                }
            }
            Service::ZooKeeper => {
                self.rec.note("acquire_sent", json!({}));
                let mut failures = 0;
                loop {
                    match self.zk_acquire() {
                        Ok(t) => break Some(t),
                        Err(e) if e.starts_with("zookeeper granted") => return Err(e),
                        Err(_) => {
                            failures += 1;
                            if max > 0 && failures >= max {
                                self.rec.note("acquire_failed", json!({}));
                                return Ok(false);
                            }
                            std::thread::sleep(Duration::from_millis(interval as u64));
                        }
                    }
                }
            }
        };
        self.token = token;
        let now = {
            let mut s = self.state.0.lock().unwrap();
            let mut f = json!({ "ttl_ms": self.ttl_ms });
            if let Some(t) = token {
                f["token"] = t.into();
            }
            let now = self.rec.note("granted", f);
            s.deadline = Some(now + self.ttl_ms * 1_000_000);
            now
        };
        if let Some(every) = self.renew_every() {
            if self.cfg.service == Service::Etcd {
                self.start_keepalive(now, every);
            }
        }
        Ok(true)
    }

    /// Curator's lock recipe: a session, an ephemeral sequential node, then wait until it is
    /// the lowest, watching the one just below. The token: the node's creation zxid.
    fn zk_acquire(&mut self) -> Result<i64, String> {
        let from = self.cfg.epoch.now();
        let samples = self.cfg.samples.clone();
        let s = Arc::new(samples.time("zookeeper connect", || {
            Session::open(&self.cfg.lock_addr, self.ttl_ms, self.timeout)
        })?);
        if i64::from(s.negotiated_ms()) != self.ttl_ms {
            return Err(format!(
                "zookeeper granted a session timeout of {} ms, not the scenario's ttl_ms {}",
                s.negotiated_ms(),
                self.ttl_ms
            ));
        }
        self.zk = Some(s.clone());
        self.start_zk_session(&s);
        let dir = format!("/{}", self.cfg.lock_key.trim_matches('/'));
        let mut at = String::new();
        for part in dir.trim_start_matches('/').split('/') {
            at = format!("{at}/{part}");
            match samples.time("zookeeper create", || s.create(&at, zk::PERSISTENT))? {
                Ok(_) | Err(zk::NODE_EXISTS) => {}
                Err(e) => return Err(format!("create {at}: error {e}")),
            }
        }
        let (node, czxid) = samples
            .time("zookeeper create", || {
                s.create(&format!("{dir}/lock-"), zk::EPHEMERAL_SEQUENTIAL)
            })?
            .map_err(|e| format!("create {dir}/lock-: error {e}"))?;
        let mine = node.rsplit('/').next().unwrap_or("").to_string();
        self.zk_node = Some(node);
        let mut waited = false;
        loop {
            let t0 = self.cfg.epoch.now();
            let mut kids = s.children(&dir)?;
            self.cfg
                .samples
                .add("zookeeper getChildren", t0, self.cfg.epoch.now());
            // The sequence suffix orders them (all share the prefix).
            kids.sort();
            let i = kids
                .iter()
                .position(|k| *k == mine)
                .ok_or("our lock node is gone")?;
            if i == 0 {
                break;
            }
            let below = format!("{dir}/{}", kids[i - 1]);
            if s.exists_watch(&below)? {
                waited = true;
                let ev = s.events.lock().unwrap();
                loop {
                    match ev.recv() {
                        Ok(Some(p)) if p == below => break,
                        Ok(Some(_)) => {}
                        _ => return Err("zookeeper: connection lost while waiting".into()),
                    }
                }
            }
        }
        if !waited {
            // The lock call as a whole, as the model's one request.
            self.cfg.samples.add(
                "zookeeper acquire (connect+creates+getChildren)",
                from,
                self.cfg.epoch.now(),
            );
        }
        Ok(czxid)
    }

    /// The session's two threads: pings every `renew_every_ms` from its start (recorded as
    /// renewals while the client believes it holds the lock: the session is the lease), and
    /// a re-attach as soon as the connection drops — refused: Expired, a loss.
    fn start_zk_session(&self, s: &Arc<Session>) {
        let every = self.renew_every().unwrap_or(self.ttl_ms / 3).max(1);
        let (state, rec, epoch, samples, ttl) = (
            self.state.clone(),
            self.rec.clone(),
            self.cfg.epoch,
            self.cfg.samples.clone(),
            self.ttl_ms,
        );
        let (ss, expired) = (s.clone(), self.zk_expired.clone());
        let start = epoch.now();
        std::thread::spawn(move || {
            let mut k = 1;
            loop {
                samples.sleep_until(start + k * every * 1_000_000);
                k += 1;
                if expired.load(Ordering::SeqCst) || ss.closed.load(Ordering::SeqCst) {
                    return;
                }
                let now = epoch.now();
                let believing = state.0.lock().unwrap().deadline.is_some();
                if believing {
                    rec.note("renew_sent", json!({}));
                }
                let r = samples.time("zookeeper ping", || ss.ping());
                let mut st = state.0.lock().unwrap();
                match (r, st.deadline.as_mut()) {
                    (Ok(()), Some(d)) if believing => {
                        *d = (*d).max(now + ttl * 1_000_000);
                        rec.note("renewed", json!({ "ttl_ms": ttl }));
                    }
                    (_, _) if believing => {
                        rec.note("renew_failed", json!({}));
                    }
                    _ => {}
                }
            }
        });
        let (ss, expired, state, rec, on_loss) = (
            s.clone(),
            self.zk_expired.clone(),
            self.state.clone(),
            self.rec.clone(),
            self.on_loss.clone(),
        );
        std::thread::spawn(move || {
            let drops = ss.drops.lock().unwrap();
            while drops.recv().is_ok() {
                if ss.closed.load(Ordering::SeqCst) {
                    return;
                }
                // Re-attach until the server answers one way or the other.
                loop {
                    match ss.reattach() {
                        Ok(Attach::Ok) => break,
                        Ok(Attach::Expired) => {
                            expired.store(true, Ordering::SeqCst);
                            lose(&state, &rec, &on_loss);
                            return;
                        }
                        Err(_) if ss.closed.load(Ordering::SeqCst) => return,
                        Err(_) => std::thread::sleep(Duration::from_millis(100)),
                    }
                }
            }
        });
    }

    /// The keepalive interval: the scenario's, else etcd's default (TTL/3); Redis none.
    fn renew_every(&self) -> Option<i64> {
        let own = self.cfg.spec["renew_every_ms"].as_i64();
        match self.cfg.service {
            Service::Etcd | Service::ZooKeeper => Some(own.unwrap_or((self.ttl_ms / 3).max(1))),
            Service::Redis => own,
        }
    }

    /// The keepalive loop, as the model's watchdog: every `every` ms from the grant it looks
    /// at its deadline (passed: the lease is gone, for all it knows) and sends a keepalive
    /// without waiting for the answer, which extends the deadline to send time + TTL.
    fn start_keepalive(&self, granted: i64, every: i64) {
        let Some(id) = self.lease else { return };
        let (state, rec, on_loss, epoch, samples, etcd, ttl) = (
            self.state.clone(),
            self.rec.clone(),
            self.on_loss.clone(),
            self.cfg.epoch,
            self.cfg.samples.clone(),
            self.etcd(),
            self.ttl_ms,
        );
        let etcd = Arc::new(etcd);
        std::thread::spawn(move || {
            let mut k = 1;
            loop {
                samples.sleep_until(granted + k * every * 1_000_000);
                k += 1;
                let now = epoch.now();
                match state.0.lock().unwrap().deadline {
                    None => return,
                    Some(d) if now >= d => {}
                    Some(_) => {
                        rec.note("renew_sent", json!({}));
                        let (state, rec, etcd) = (state.clone(), rec.clone(), etcd.clone());
                        let on_loss = on_loss.clone();
                        std::thread::spawn(move || match etcd.keepalive(id) {
                            Ok(left) if left > 0 => {
                                let mut s = state.0.lock().unwrap();
                                if let Some(d) = s.deadline.as_mut() {
                                    *d = (*d).max(now + ttl * 1_000_000);
                                    rec.note("renewed", json!({ "ttl_ms": ttl }));
                                } else {
                                    rec.note("renew_failed", json!({}));
                                }
                            }
                            Ok(_) => {
                                rec.note("renew_failed", json!({}));
                                lose(&state, &rec, &on_loss);
                            }
                            Err(_) => {
                                rec.note("renew_failed", json!({}));
                            }
                        });
                        continue;
                    }
                }
                lose(&state, &rec, &on_loss);
                return;
            }
        });
    }

    fn redis_call(&mut self, args: &[&[u8]]) -> Result<Reply, String> {
        if self.redis.is_none() {
            self.redis = Some(Conn::open(&self.cfg.lock_addr, self.timeout)?);
        }
        let what = format!("redis {}", String::from_utf8_lossy(args[0]));
        let conn = self.redis.as_mut().unwrap();
        let r = self.cfg.samples.time(&what, || conn.call(args));
        if r.is_err() {
            // A timed-out reply may still come later: never read it as the next one's.
            self.redis = None;
        }
        r
    }

    fn write(&mut self, key: &str, value: &str) -> Result<(), String> {
        if self.storage.is_none() {
            let s = TcpStream::connect(&self.cfg.storage_addr).map_err(|e| e.to_string())?;
            s.set_nodelay(true).map_err(|e| e.to_string())?;
            s.set_read_timeout(Some(self.timeout))
                .map_err(|e| e.to_string())?;
            self.storage = Some(BufReader::new(s));
        }
        let tok = self.token.map_or("-".to_string(), |t| t.to_string());
        let mut f = json!({ "key": key, "value": value });
        if let Some(t) = self.token {
            f["token"] = t.into();
        }
        let s = self.storage.as_mut().unwrap();
        self.rec.note("write_sent", f);
        let mut answer = String::new();
        let name = &self.cfg.name;
        let from = self.cfg.epoch.now();
        writeln!(s.get_mut(), "W {name} {tok} {key} {value}")
            .and_then(|_| s.read_line(&mut answer))
            .map_err(|e| e.to_string())?;
        // The non-atomic fence's gap is the scenario's, not noise.
        self.cfg.samples.add(
            "storage write",
            from + self.cfg.gap_ms * 1_000_000,
            self.cfg.epoch.now(),
        );
        if answer.starts_with('R') {
            // A refused write tells the client it is no longer the holder.
            if self.state.0.lock().unwrap().deadline.is_some() {
                self.lose();
            }
        }
        Ok(())
    }

    fn release(&mut self) {
        self.state.0.lock().unwrap().deadline = None;
        self.rec.note("release_sent", json!({}));
        // Some(deleted?) when the service answered; None when it did not (a cut link).
        let answer = match self.cfg.service {
            Service::Redis => {
                let (key, owner) = (self.cfg.lock_key.clone(), self.owner.clone());
                match self.redis_call(&[
                    b"EVAL",
                    RELEASE_LUA.as_bytes(),
                    b"1",
                    key.as_bytes(),
                    owner.as_bytes(),
                ]) {
                    Ok(Reply::Int(n)) => Some(n == 1),
                    _ => None,
                }
            }
            // Revoking the lease deletes the key attached to it; etcd answers 404 when the
            // lease has already expired.
            Service::Etcd => self.lease.and_then(|id| self.etcd().revoke(id).ok()),
            Service::ZooKeeper => self.zk_release(),
        };
        match answer {
            Some(true) => self.rec.note("released", json!({})),
            Some(false) => self.rec.note("release_refused", json!({})),
            None => 0,
        };
    }
}

impl Client {
    /// Deletes this grant's lock node: from its own session while that lives, else from a
    /// fresh one (the expired session's node is gone, and ZooKeeper says so).
    fn zk_release(&mut self) -> Option<bool> {
        let node = self.zk_node.clone()?;
        let live = self
            .zk
            .clone()
            .filter(|_| !self.zk_expired.load(Ordering::SeqCst));
        let samples = self.cfg.samples.clone();
        let s = match live {
            Some(s) => s,
            None => Arc::new(Session::open(&self.cfg.lock_addr, self.ttl_ms, self.timeout).ok()?),
        };
        let r = samples.time("zookeeper delete", || s.delete(&node)).ok();
        if !Arc::ptr_eq(&s, self.zk.as_ref()?) {
            s.close();
        }
        r
    }
}

/// A loss: the belief ends now (once), then `on_loss` applies.
fn lose(state: &Arc<(Mutex<State>, Condvar)>, rec: &Recorder, on_loss: &str) {
    let (m, cv) = &**state;
    let mut s = m.lock().unwrap();
    if s.deadline.take().is_none() {
        return;
    }
    rec.note("expiry_observed", json!({}));
    if on_loss == "abort" {
        s.abort = true;
        cv.notify_all();
    }
}
