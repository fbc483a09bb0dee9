//! The scheduling noise of one lab run, measured while it runs: how long the things the
//! model takes as instant or as a fixed 1 ms hop really took on this machine.
//!
//! - each request a client makes and gets an answer to: Redis `SET`/`EVAL`, etcd's range,
//!   lease grant, transaction, keepalive and revoke, a whole etcd acquire (range, grant,
//!   transaction: the lock call), and a write to storage;
//! - each SIGSTOP and SIGCONT: from `kill` until /proc shows the process stopped, or no
//!   longer stopped;
//! - each timer: how late a sleep woke (the runner's fault times, a client's start and its
//!   work's end).
//!
//! Every process appends its samples to its own file (`Samples`), the runner gathers them
//! (`band`). A sample that overlaps a pause or a cut of its own client is left out: a request
//! frozen by SIGSTOP for 3 s is the fault, not noise. The band is the largest sample left.

use crate::clock::Epoch;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// A process's sample file; cloned freely between its threads.
#[derive(Clone)]
pub struct Samples {
    out: Arc<Mutex<File>>,
    epoch: Epoch,
}

impl Samples {
    pub fn create(path: &str, epoch: Epoch) -> Result<Samples, String> {
        let f = File::create(path).map_err(|e| format!("{path}: {e}"))?;
        Ok(Samples {
            out: Arc::new(Mutex::new(f)),
            epoch,
        })
    }

    /// One sample: `what` took from `from_ns` to `to_ns` (lab clock).
    pub fn add(&self, what: &str, from_ns: i64, to_ns: i64) {
        let mut f = self.out.lock().unwrap();
        let _ = writeln!(f, "{what}\t{from_ns}\t{to_ns}");
    }

    /// Runs `f`, a request; samples it when it was answered.
    pub fn time<T, E>(&self, what: &str, f: impl FnOnce() -> Result<T, E>) -> Result<T, E> {
        let from = self.epoch.now();
        let r = f();
        if r.is_ok() {
            self.add(what, from, self.epoch.now());
        }
        r
    }

    /// Sleeps until `at_ns` and samples how late it woke.
    pub fn sleep_until(&self, at_ns: i64) {
        self.epoch.sleep_until(at_ns);
        let now = self.epoch.now();
        if now >= at_ns {
            self.add("timer", at_ns, now);
        }
    }
}

/// Samples `f` with an optional sampler (the storage's etcd has none of its own).
pub fn timed<T, E>(
    s: Option<&Samples>,
    what: &str,
    f: impl FnOnce() -> Result<T, E>,
) -> Result<T, E> {
    match s {
        Some(s) => s.time(what, f),
        None => f(),
    }
}

/// The measured band of a run.
pub struct Band {
    /// The largest sample, µs.
    pub max_us: i64,
    /// Per kind: its largest sample (µs) and how many.
    pub kinds: BTreeMap<String, (i64, usize)>,
    pub samples: usize,
    /// Samples left out because they overlapped their client's pause or cut.
    pub left_out: usize,
}

impl Band {
    /// "12.3 ms (max of SIGCONT 0.1, etcd txn 12.3, …; 140 samples)".
    pub fn words(&self) -> String {
        let kinds: Vec<String> = self
            .kinds
            .iter()
            .map(|(k, (m, _))| format!("{k} {}", tenths(*m)))
            .collect();
        format!(
            "{} ms (largest of {} samples; per kind, ms: {}; {} overlapping a pause or cut left out)",
            tenths(self.max_us),
            self.samples,
            kinds.join(", "),
            self.left_out
        )
    }
}

/// µs as ms with one decimal, rounded up (a band never reads smaller than measured).
pub fn tenths(us: i64) -> String {
    let t = (us + 99) / 100;
    format!("{}.{}", t / 10, t % 10)
}

/// A client's pause (true) or cut (false), from and to (ns, lab clock).
pub type Fault = (i64, i64, bool);

/// Reads sample files. `faults` are per file (same order): the intervals (ns) during which
/// that file's process was paused (true) or cut off (false). Samples overlapping a pause are
/// left out; of a cut, only requests' (a cut does not stop a timer).
pub fn band(files: &[(String, Vec<Fault>)]) -> Result<Band, String> {
    let mut b = Band {
        max_us: 0,
        kinds: BTreeMap::new(),
        samples: 0,
        left_out: 0,
    };
    for (path, faults) in files {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(format!("{path}: {e}")),
        };
        for l in text.lines() {
            let mut p = l.split('\t');
            let (Some(what), Some(from), Some(to)) = (p.next(), p.next(), p.next()) else {
                continue;
            };
            let (Ok(from), Ok(to)) = (from.parse::<i64>(), to.parse::<i64>()) else {
                continue;
            };
            let timer = what == "timer";
            if faults
                .iter()
                .any(|&(a, z, pause)| from <= z && to >= a && (pause || !timer))
            {
                b.left_out += 1;
                continue;
            }
            let us = (to - from).max(0) / 1000;
            b.samples += 1;
            b.max_us = b.max_us.max(us);
            let k = b.kinds.entry(what.to_string()).or_insert((0, 0));
            k.0 = k.0.max(us);
            k.1 += 1;
        }
    }
    Ok(b)
}

/// Waits until /proc says the process is stopped (`stopped`) or running again, at most 1 s
/// after `sent_ns`: the lab time it saw so, the end of the signal's latency.
pub fn signal_seen(pid: i32, stopped: bool, sent_ns: i64, epoch: Epoch) -> i64 {
    let path = format!("/proc/{pid}/stat");
    loop {
        let state = std::fs::read_to_string(&path).ok().and_then(|s| {
            // The state follows the command name's closing parenthesis.
            let after = &s[s.rfind(')')? + 1..];
            after.trim_start().chars().next()
        });
        let now = epoch.now();
        let is_stopped = matches!(state, Some('T' | 't'));
        if state.is_none() || is_stopped == stopped || now - sent_ns > 1_000_000_000 {
            return now;
        }
        std::thread::yield_now();
    }
}
