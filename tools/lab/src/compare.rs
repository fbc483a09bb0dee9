//! Model beside reality: the model's run of the same scenario file and the recorded trace,
//! reduced to the same verdict classes and key event times.
//!
//! The model's side comes from the core itself (`leaseline run FILE --format json` and its
//! trace). The real side is classified here, by the recorded-trace format's own rules
//! (docs/trace-format.md, "What the checker makes of it"): each `granted` is a new epoch, a
//! write carries its client's latest epoch, a client believes from `granted` until
//! `expiry_observed`/`released`/`release_refused`. This is a small stand-in for
//! `leaseline check-trace`, which reads the same file with the core's checker.

use serde_json::Value;
use std::collections::BTreeMap;

/// The verdict classes the lab compares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classes {
    pub two_believers: bool,
    pub stale_accepted: bool,
    pub stale_rejected: bool,
    /// Per key, the client whose write storage accepted last.
    pub last_writer: BTreeMap<String, String>,
    pub tokens_increase: bool,
}

impl Classes {
    pub fn words(&self) -> String {
        let mut w = vec![if self.stale_accepted {
            "UNSAFE"
        } else {
            "SAFE"
        }
        .to_string()];
        w.push(
            if self.two_believers {
                "two believers"
            } else {
                "one believer"
            }
            .into(),
        );
        if self.stale_accepted {
            w.push("stale write accepted".into());
        }
        if self.stale_rejected {
            w.push("stale write rejected".into());
        }
        for (k, c) in &self.last_writer {
            w.push(format!("{k} last by {c}"));
        }
        if !self.tokens_increase {
            w.push("token regression".into());
        }
        w.join(", ")
    }
}

/// A key event: (what, node, n-th such) → true time in µs.
pub type Times = BTreeMap<(String, String, usize), i64>;

fn add(times: &mut Times, what: &str, node: &str, t_us: i64) {
    let n = times.keys().filter(|k| k.0 == what && k.1 == node).count();
    times.insert((what.to_string(), node.to_string(), n), t_us);
}

/// The model's run: its classes and key times.
pub fn model(path: &str) -> Result<(Classes, Times, String), String> {
    use leaseline::model::scenario::Scenario;
    let args: Vec<String> = ["run", path, "--format", "json"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    if leaseline::cli::run(&args, &mut out, &mut err) != 0 {
        return Err(String::from_utf8_lossy(&err).into_owned());
    }
    let report: Value = serde_json::from_slice(&out).map_err(|e| e.to_string())?;
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let sc = Scenario::from_json(&text).map_err(|e| e.to_string())?;
    let trace = leaseline::model::sim::simulate(&sc).map_err(|e| e.to_string())?;
    let mut times = Times::new();
    let mut last_writer = BTreeMap::new();
    for e in &trace.entries {
        let v: Value = serde_json::from_str(&leaseline::vocab::json::compact(
            &leaseline::model::trace::json::entry(e),
        ))
        .map_err(|e| e.to_string())?;
        let (node, ev, t) = (
            v["node"].as_str().unwrap_or(""),
            &v["event"],
            v["t"].as_i64().unwrap_or(0) * 1000,
        );
        let client = ev["client"].as_str().unwrap_or("");
        match ev["kind"].as_str().unwrap_or("") {
            "belief_started" => add(&mut times, "granted", node, t),
            "belief_ended" if !matches!(ev["how"].as_str(), Some("released" | "job_ended")) => {
                add(&mut times, "expiry_observed", node, t)
            }
            "write_accepted" => {
                last_writer.insert(
                    ev["key"].as_str().unwrap_or("").to_string(),
                    client.to_string(),
                );
                add(&mut times, "write arrived", client, t);
            }
            "write_rejected" => add(&mut times, "write arrived", client, t),
            "paused" => add(&mut times, "pause_began", node, t),
            "resumed" => add(&mut times, "pause_ended", node, t),
            _ => {}
        }
    }
    let stats = &report["stats"];
    let classes = Classes {
        two_believers: report["overlaps"].as_array().is_some_and(|o| !o.is_empty()),
        stale_accepted: stats["stale_writes_accepted"].as_i64().unwrap_or(0) > 0,
        stale_rejected: stats["stale_writes_rejected"].as_i64().unwrap_or(0) > 0,
        last_writer,
        tokens_increase: !report["violations"]
            .as_array()
            .is_some_and(|v| v.iter().any(|v| v["kind"] == "token_regression")),
    };
    Ok((classes, times, String::from_utf8_lossy(&out).into_owned()))
}

/// The recorded trace (header first): its classes and key times.
pub fn real(trace: &[String]) -> Result<(Classes, Times), String> {
    let mut times = Times::new();
    let mut epoch = 0; // grants so far
    let mut latest: BTreeMap<String, i64> = BTreeMap::new(); // client → its latest epoch
    let mut believing: BTreeMap<String, i64> = BTreeMap::new();
    let mut two_believers = false;
    let mut marks: BTreeMap<String, i64> = BTreeMap::new(); // key → highest accepted epoch
    let (mut stale_accepted, mut stale_rejected) = (false, false);
    let mut last_writer = BTreeMap::new();
    let mut last_token = 0;
    let mut tokens_increase = true;
    for l in trace.iter().skip(1) {
        let v: Value = serde_json::from_str(l).map_err(|e| e.to_string())?;
        let (node, t) = (
            v["node"].as_str().unwrap_or("").to_string(),
            v["t_us"].as_i64().unwrap_or(0),
        );
        let client = v["client"].as_str().unwrap_or("").to_string();
        match v["event"].as_str().unwrap_or("") {
            "granted" => {
                epoch += 1;
                latest.insert(node.clone(), epoch);
                believing.insert(node.clone(), epoch);
                two_believers |= believing.len() > 1;
                if let Some(tok) = v["token"].as_i64() {
                    tokens_increase &= tok > last_token;
                    last_token = tok;
                }
                add(&mut times, "granted", &node, t);
            }
            "expiry_observed" => {
                believing.remove(&node);
                add(&mut times, "expiry_observed", &node, t);
            }
            "released" | "release_refused" => {
                believing.remove(&node);
            }
            ev @ ("write_accepted" | "write_rejected") => {
                let e = latest.get(&client).copied().unwrap_or(0);
                let key = v["key"].as_str().unwrap_or("").to_string();
                if ev == "write_accepted" {
                    stale_accepted |= marks.get(&key).is_some_and(|&m| e < m);
                    let m = marks.entry(key.clone()).or_insert(e);
                    *m = (*m).max(e);
                    last_writer.insert(key, client.clone());
                } else {
                    stale_rejected |= e < epoch;
                }
                add(&mut times, "write arrived", &client, t);
            }
            ev @ ("pause_began" | "pause_ended") => add(&mut times, ev, &node, t),
            _ => {}
        }
    }
    Ok((
        Classes {
            two_believers,
            stale_accepted,
            stale_rejected,
            last_writer,
            tokens_increase,
        },
        times,
    ))
}

/// The largest difference between the key events both runs have, and which one; events
/// only one run has are listed apart.
pub fn largest_gap(model: &Times, real: &Times) -> (i64, String, Vec<String>) {
    let mut worst = (0, String::new());
    let mut unmatched = Vec::new();
    for (k, m) in model {
        match real.get(k) {
            Some(r) => {
                let d = (r - m).abs();
                if d >= worst.0 {
                    worst = (
                        d,
                        format!("{} {}#{} ({:+} ms)", k.1, k.0, k.2 + 1, (r - m) / 1000),
                    );
                }
            }
            None => unmatched.push(format!("model only: {} {}", k.1, k.0)),
        }
    }
    unmatched.extend(
        real.keys()
            .filter(|k| !model.contains_key(k))
            .map(|k| format!("real only: {} {}", k.1, k.0)),
    );
    (worst.0, worst.1, unmatched)
}
