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
//! A SIGSTOP freezes every thread of the process, the keepalive loop included — a GC pause.

use crate::clock::Epoch;
use crate::etcd::{Etcd, POLL_MS};
use crate::noise::Samples;
use crate::record::Recorder;
use crate::resp::{Conn, Reply};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// The documented safe release: delete the key only if it still holds our value.
const RELEASE_LUA: &str =
    "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Service {
    Redis,
    Etcd,
}

impl Service {
    pub fn word(self) -> &'static str {
        match self {
            Service::Redis => "redis",
            Service::Etcd => "etcd",
        }
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
            self.start_keepalive(now, every);
        }
        Ok(true)
    }

    /// The keepalive interval: the scenario's, else etcd's default (TTL/3); Redis none.
    fn renew_every(&self) -> Option<i64> {
        let own = self.cfg.spec["renew_every_ms"].as_i64();
        match self.cfg.service {
            Service::Etcd => Some(own.unwrap_or((self.ttl_ms / 3).max(1))),
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
        self.cfg
            .samples
            .time("storage write", || {
                writeln!(s.get_mut(), "W {name} {tok} {key} {value}")?;
                s.read_line(&mut answer)
            })
            .map_err(|e| e.to_string())?;
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
        };
        match answer {
            Some(true) => self.rec.note("released", json!({})),
            Some(false) => self.rec.note("release_refused", json!({})),
            None => 0,
        };
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
