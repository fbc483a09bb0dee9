//! The faults worth adding to one run: each kind of the vocabulary, at the run's critical
//! instants (see [`super::instants`]), with lengths that end it in each later gap.
//!
//! Per kind:
//! - a **pause** of a client starts in a gap of that client's own events and resumes so
//!   that it, or any message it sends later, falls in each later gap (before or after each
//!   deadline and each event of the others);
//! - a **partition** of a client from the lock service, storage or both starts in a gap of
//!   the nodes it cuts apart and heals in any later gap;
//! - a **delay** holds one message sent in the run so that it arrives in each later gap;
//! - a **clock jump** of a node with a wall-clock timer moves one of its deadlines, just
//!   after it was set, into each gap (earlier or later); a **drift** changes the node's
//!   rate so that the deadline lands in each gap;
//! - a **restart** or **failover** starts in a gap of that node's events and lasts until
//!   each later gap (or restarts at once);
//! - a **false positive** on a client happens in a gap of the lock service's events;
//! - **failed renewals** (only when the run renews) start in a gap of the lock service's
//!   events and last until each later gap.
//!
//! Lengths are capped by the bound on pauses and delays; everything is within the horizon
//! and the validation limits, so every candidate scenario is valid.

use super::fault::{Added, Cut, FaultClass};
use super::instants::Instants;
use crate::model::scenario::{Scenario, LIMITS};
use crate::model::trace::{Event, Trace};
use crate::vocab::ids::NodeId;

/// Every candidate fault for extending `trace` (a run of `sc`), in a fixed order.
pub fn candidates(
    sc: &Scenario,
    trace: &Trace,
    classes: &[FaultClass],
    max_len: i64,
) -> Vec<Added> {
    let ins = Instants::of(trace, sc.horizon_ms);
    let clients: Vec<NodeId> = (0..sc.client_count()).map(NodeId::Client).collect();
    let coords = sc.coord_nodes();
    let mut out = Vec::new();
    for class in classes {
        match class {
            FaultClass::Pause => {
                for &c in &clients {
                    for at in ins.node_gaps(trace, &[c]) {
                        for ms in ins.shifted_lengths(at, &sends_after(trace, c, at), max_len) {
                            out.push(Added::Pause { node: c, at, ms });
                        }
                    }
                }
            }
            FaultClass::Partition => {
                for &client in &clients {
                    for cut in [Cut::LockService, Cut::Storage, Cut::Both] {
                        let mut apart = vec![client];
                        if cut != Cut::Storage {
                            apart.extend(&coords);
                        }
                        if cut != Cut::LockService {
                            apart.push(NodeId::Storage);
                        }
                        for at in ins.node_gaps(trace, &apart) {
                            for len in ins.lengths(at, max_len) {
                                if at + len <= ins.horizon() {
                                    out.push(Added::Partition {
                                        client,
                                        cut,
                                        at,
                                        heal: at + len,
                                    });
                                }
                            }
                        }
                    }
                }
            }
            FaultClass::Delay => {
                for e in &trace.entries {
                    if let Event::Sent {
                        to,
                        arrives: Some(a),
                        ..
                    } = e.event
                    {
                        for extra in ins.lengths(a.0, max_len) {
                            out.push(Added::Delay {
                                from: e.node,
                                to,
                                at: e.t.0,
                                extra,
                            });
                        }
                    }
                }
            }
            FaultClass::Clock => clock(trace, &ins, max_len, &mut out),
            FaultClass::Restart => {
                for &node in coords.iter().chain([&NodeId::Storage]) {
                    outages(trace, &ins, node, max_len, &mut out, |at, down| {
                        Added::Restart { node, at, down }
                    });
                }
            }
            FaultClass::Failover => {
                for &node in &coords {
                    outages(trace, &ins, node, max_len, &mut out, |at, down| {
                        Added::Failover { node, at, down }
                    });
                }
            }
            FaultClass::FalsePositive => {
                for &client in &clients {
                    for at in ins.node_gaps(trace, &coords) {
                        out.push(Added::FalsePositive { client, at });
                    }
                }
            }
            FaultClass::FailRenewals => {
                let renews = trace.entries.iter().any(|e| {
                    matches!(
                        e.event,
                        Event::LeaseRenewed { .. } | Event::LeaseExtended { .. }
                    )
                });
                if renews {
                    for at in ins.node_gaps(trace, &coords) {
                        for ms in ins.lengths(at, max_len) {
                            out.push(Added::FailRenewals { at, ms });
                        }
                    }
                }
            }
        }
    }
    out
}

/// When `node` sends after `at`, as offsets from its first event at or after `at`: a pause
/// from `at` shifts each of these sends by the same amount.
fn sends_after(trace: &Trace, node: NodeId, at: i64) -> Vec<i64> {
    let mut mine = trace
        .entries
        .iter()
        // In a run that already has this pause, count from its resume, not its start.
        .filter(|e| e.node == node && e.t.0 >= at && !matches!(e.event, Event::Paused { .. }));
    let Some(first) = mine.next().map(|e| e.t.0) else {
        return vec![0];
    };
    let mut v: Vec<i64> = std::iter::once(0)
        .chain(
            mine.filter(|e| matches!(e.event, Event::Sent { .. }))
                .map(|e| e.t.0 - first),
        )
        .collect();
    v.sort();
    v.dedup();
    v
}

/// A restart or failover of `node` in each gap of its events, down until each later gap,
/// or back at once.
fn outages(
    trace: &Trace,
    ins: &Instants,
    node: NodeId,
    max_len: i64,
    out: &mut Vec<Added>,
    make: impl Fn(i64, i64) -> Added,
) {
    for at in ins.node_gaps(trace, &[node]) {
        out.push(make(at, 0));
        for down in ins.lengths(at, max_len) {
            out.push(make(at, down));
        }
    }
}

/// Clock faults: for each deadline a node set, a jump just after it was set that moves it
/// into each gap (wall-clock timers only: a monotonic one ignores jumps), and a drift of
/// the node's rate that does the same from the start.
fn clock(trace: &Trace, ins: &Instants, max_len: i64, out: &mut Vec<Added>) {
    let mut drifts = Vec::new();
    for d in &ins.deadlines {
        let Some(clock) = trace
            .nodes
            .iter()
            .find(|(n, _)| *n == d.node)
            .map(|(_, c)| *c)
        else {
            continue;
        };
        let at = d.set_at + 1;
        for &g in &ins.gaps {
            if g <= d.set_at || g == d.due {
                continue;
            }
            // A forward jump of J brings the deadline J ms sooner.
            let by = d.due - g;
            if !clock.monotonic && at <= ins.horizon() && by != 0 && by.abs() <= max_len {
                out.push(Added::Jump {
                    node: d.node,
                    at,
                    by,
                });
            }
            // The rate at which `local_left` local ms take `g - set_at` true ms.
            let rate = i128::from(d.local_left) * 1_000_000 / i128::from(g - d.set_at);
            let ppm = rate - 1_000_000;
            let delta = ppm - i128::from(clock.drift_ppm);
            if ppm.abs() <= i128::from(LIMITS.max_drift_ppm) && delta != 0 {
                drifts.push((d.node, delta as i64));
            }
        }
    }
    drifts.sort();
    drifts.dedup();
    out.extend(
        drifts
            .into_iter()
            .map(|(node, ppm)| Added::Drift { node, ppm }),
    );
}
