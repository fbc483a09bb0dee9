//! Model beside reality, judged by the core: the model's run of a scenario file and the
//! recorded trace of the real run go through the same checker (`leaseline::analysis::check`,
//! what `leaseline run` and `leaseline check-trace` print), and both verdicts are reduced to
//! the classes the lab compares, with the key events' times beside them.
//!
//! The real run is read with the core's own reader and converted to the model's trace
//! (`leaseline::model::recorded`), so both sides are a `Trace` and one function reads both.
//! This file uses only the core and std: tests/it/lab_fixtures.rs includes it to check the
//! committed recordings' verdicts without the services.

use leaseline::analysis::check::{check, Refusal, Verdict, ViolationKind};
use leaseline::model::recorded;
use leaseline::model::scenario::Scenario;
use leaseline::model::sim::simulate;
use leaseline::model::trace::{Event, LossHow, Trace};
use leaseline::vocab::ids::NodeId;

/// The verdict classes the lab compares between the two runs. Tokens and times are left
/// out: a real etcd numbers its revisions its own way, and times are compared apart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classes {
    pub safe: bool,
    /// The clients that believed they held the lock at once (empty: never two).
    pub believers: Vec<NodeId>,
    /// Whose stale writes storage accepted, in order.
    pub stale_accepted: Vec<NodeId>,
    /// Whose stale writes the fence refused, in order.
    pub stale_rejected: Vec<NodeId>,
    /// Whose stale writes overwrote a newer holder's value.
    pub lost_updates: Vec<NodeId>,
    /// A grant's token not above an earlier one.
    pub token_regression: bool,
    /// An unfenceable effect performed twice.
    pub duplicate_effect: bool,
}

/// The classes of a checked run.
pub fn classes(v: &Verdict) -> Classes {
    let nodes = |k: ViolationKind| -> Vec<NodeId> {
        v.violations
            .iter()
            .filter(|x| x.kind == k)
            .filter_map(|x| x.nodes.first().copied())
            .collect()
    };
    let mut believers: Vec<NodeId> = v
        .overlaps
        .iter()
        .flat_map(|o| o.clients.iter().map(|c| c.0))
        .collect();
    believers.sort();
    believers.dedup();
    Classes {
        safe: v.safe,
        believers,
        stale_accepted: nodes(ViolationKind::StaleWrite),
        stale_rejected: v
            .rejections
            .iter()
            .filter(|r| r.why == Refusal::Stale)
            .map(|r| r.client)
            .collect(),
        lost_updates: nodes(ViolationKind::LostUpdate),
        token_regression: !nodes(ViolationKind::TokenRegression).is_empty(),
        duplicate_effect: !nodes(ViolationKind::DuplicateEffect).is_empty(),
    }
}

fn names(n: &[NodeId]) -> String {
    n.iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl Classes {
    /// As the lab prints them.
    pub fn words(&self) -> String {
        let mut w = vec![if self.safe { "SAFE" } else { "UNSAFE" }.to_string()];
        w.push(if self.believers.len() > 1 {
            format!("two believers ({})", names(&self.believers))
        } else {
            "one believer at a time".into()
        });
        if !self.stale_accepted.is_empty() {
            w.push(format!(
                "stale write accepted ({})",
                names(&self.stale_accepted)
            ));
        }
        if !self.stale_rejected.is_empty() {
            w.push(format!(
                "stale write rejected ({})",
                names(&self.stale_rejected)
            ));
        }
        if !self.lost_updates.is_empty() {
            w.push(format!("lost update ({})", names(&self.lost_updates)));
        }
        w.push(
            if self.token_regression {
                "token regression"
            } else {
                "tokens in order"
            }
            .into(),
        );
        if self.duplicate_effect {
            w.push("duplicate effect".into());
        }
        w.join(", ")
    }
}

/// The model's run of a scenario file: its trace and verdict.
pub fn model(scenario_json: &str) -> Result<(Trace, Verdict), String> {
    let sc = Scenario::from_json(scenario_json).map_err(|e| e.to_string())?;
    let trace = simulate(&sc).map_err(|e| e.to_string())?;
    let v = check(&trace);
    Ok((trace, v))
}

/// A recorded trace (the format's text), read and converted by the core: its trace and
/// verdict.
pub fn real(ndjson: &str) -> Result<(Trace, Verdict), String> {
    let rec = recorded::parse(ndjson).map_err(|e| e.to_string())?;
    let trace = recorded::to_trace(&rec);
    let v = check(&trace);
    Ok((trace, v))
}

/// A key event of a run, matched between the runs by (what, node, n-th).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyEvent {
    pub what: &'static str,
    pub node: NodeId,
    /// 0 for the node's first such event.
    pub nth: usize,
    pub t_ms: i64,
    /// It comes after a lease ran out at the lock service (rather than a release): the
    /// client was granted only once the service noticed the expiry, and everything it does
    /// from then on shifts with that moment.
    pub after_expiry: bool,
}

impl KeyEvent {
    pub fn label(&self) -> String {
        format!("{} {}#{}", self.node, self.what, self.nth + 1)
    }
}

/// The key events of a run: each grant a client hears of, each loss of belief it did not
/// choose (expiry observed), and each write's arrival at storage (accepted or refused).
pub fn key_events(t: &Trace) -> Vec<KeyEvent> {
    let mut out: Vec<KeyEvent> = Vec::new();
    // How the lock last became free: by a lease running out (true) or a release.
    let mut freed_by_expiry = false;
    // Clients granted after an expiry.
    let mut late: Vec<NodeId> = Vec::new();
    let mut add = |what: &'static str, node: NodeId, t_ms: i64, late: &[NodeId]| {
        let nth = out
            .iter()
            .filter(|k| k.what == what && k.node == node)
            .count();
        out.push(KeyEvent {
            what,
            node,
            nth,
            t_ms,
            after_expiry: late.contains(&node),
        });
    };
    for e in &t.entries {
        match &e.event {
            Event::LeaseExpired { .. } => freed_by_expiry = true,
            Event::LeaseReleased { .. } => freed_by_expiry = false,
            Event::LeaseGranted { client, .. } if freed_by_expiry && !late.contains(client) => {
                late.push(*client)
            }
            Event::BeliefStarted { .. } => add("granted", e.node, e.t.0, &late),
            Event::BeliefEnded { how, .. }
                if !matches!(how, LossHow::Released | LossHow::JobEnded) =>
            {
                add("expiry observed", e.node, e.t.0, &late)
            }
            Event::WriteAccepted { client, .. } | Event::WriteRejected { client, .. } => {
                add("write arrived", *client, e.t.0, &late)
            }
            _ => {}
        }
    }
    out
}
