//! Believed against actual: for each lease a client believed in and the lock service
//! expired, where the client's clock put its end and where the service ended it, cut to
//! a window and drawn as a gap on the client's lane.

use super::*;
use crate::teach::narrate;

/// How far a gap's ticks reach above and below its lane.
pub const GAP_H: f64 = 16.0;

/// One lease's believed vs actual, in true time: the client's latest deadline for the
/// token, the lock service's expiry, and where the client stopped believing.
pub(super) struct GapSpan {
    client: NodeId,
    believed: Time,
    expired: Time,
    stopped: Time,
    title: String,
    entry: usize,
}

/// Believed vs actual for every lease a client believed in and the lock service expired
/// (only where both exist): the client's latest deadline for the token, mapped from its own
/// timer reading to true time with its clock as it stood (a later jump moves a deadline not
/// yet reached), against the expiry's true time; and, when the client went on believing
/// past both (paused, it never looked at its clock), where it stopped. One walk of the
/// trace per run ([`Index`]); [`gaps`] cuts them to a window.
pub(super) fn gap_spans(trace: &Trace) -> Vec<GapSpan> {
    use crate::analysis::projection::deadline_in_true_time;
    let mut clocks = trace.nodes.clone();
    // Every (client, token) believed in: its deadline on the client's clock, that deadline
    // in true time, and when the belief ended (`None`: it still holds).
    let mut beliefs: Vec<(NodeId, u64, i64, Time, Option<Time>)> = Vec::new();
    // The belief each client holds now (an index into `beliefs`), and the latest belief
    // in each (client, token): lookups that stay short however long the run.
    let mut holding: VecMap<NodeId, usize> = VecMap::new();
    let mut latest: VecMap<(NodeId, u64), usize> = VecMap::new();
    // The expiries of believed leases: client, token, when, entry.
    let mut expiries: Vec<(NodeId, u64, Time, usize)> = Vec::new();
    for (i, e) in trace.entries.iter().enumerate() {
        let n = e.node;
        // The belief client `n` holds now, if any.
        let held = holding.get(&n).copied();
        // A deadline to (re)map: a new or extended one, or one not yet reached when the
        // clock jumped (it moves with a wall-clock jump).
        let deadline = match &e.event {
            Event::BeliefStarted {
                token,
                deadline_local,
                ..
            }
            | Event::DeadlineExtended {
                token,
                deadline_local,
            } => Some((*token, *deadline_local)),
            Event::ClockJumped { by_ms } => {
                if let Some((_, c)) = clocks.iter_mut().find(|(x, _)| *x == n) {
                    c.jump(*by_ms);
                }
                held.map(|k| beliefs[k])
                    .filter(|b| b.3 > e.t)
                    .map(|b| (b.1, b.2))
            }
            Event::BeliefEnded { .. } => {
                if let Some(k) = held {
                    beliefs[k].4 = Some(e.t);
                    holding.remove(&n);
                }
                None
            }
            Event::LeaseExpired { client, token, .. } => {
                expiries.push((*client, *token, e.t, i));
                None
            }
            _ => None,
        };
        if let Some((token, local)) = deadline {
            let clock = clocks
                .iter()
                .find(|(x, _)| *x == n)
                .map(|(_, c)| *c)
                .unwrap_or_default();
            let end = deadline_in_true_time(&clock, local);
            match held {
                Some(k) if beliefs[k].1 == token => (beliefs[k].2, beliefs[k].3) = (local, end),
                _ => {
                    // A new token ends the belief in the old one.
                    if let Some(k) = held {
                        beliefs[k].4 = Some(e.t);
                    }
                    holding.insert(n, beliefs.len());
                    latest.insert((n, token), beliefs.len());
                    beliefs.push((n, token, local, end, None));
                }
            }
        }
    }
    let mut out = Vec::new();
    for (client, token, at, entry) in expiries {
        let Some(b) = latest.get(&(client, token)).map(|&k| beliefs[k]) else {
            continue;
        };
        let believed = b.3;
        let stopped = b.4.unwrap_or(trace.end);
        let title = hover(|| narrate::gap_title(client, token, believed, at, stopped));
        out.push(GapSpan {
            client,
            believed,
            expired: at,
            stopped,
            title,
            entry,
        });
    }
    out
}

/// The gaps of [`gap_spans`] that reach into the scale's window, in its units.
pub(super) fn gaps(
    spans: &[GapSpan],
    scale: &Scale,
    ly: &dyn Fn(NodeId) -> f64,
    merge: f64,
) -> Vec<Gap> {
    let x = |t: Time| within(scale.x(t.0 as f64), scale.x0, scale.x1);
    let mut out: Vec<Gap> = Vec::new();
    // At a level of detail, a client's safe margins less than `merge` ms apart are drawn
    // as one: per client, its last margin drawn (index into `out`), where it ends (ms) and
    // how many it stands for.
    let mut open: VecMap<NodeId, (usize, i64, usize)> = VecMap::new();
    for g in spans {
        // How long it went on believing after the expiry, by its clock or for want of
        // looking at it.
        let last = g.believed.max(g.stopped);
        let (from, to) = (g.believed.min(g.expired), last.max(g.expired));
        if to.0 < scale.t0 as i64 || from.0 > scale.t1 as i64 {
            continue;
        }
        let danger = last > g.expired;
        if merge > 0.0 && !danger {
            let until = g.stopped.max(g.believed.max(g.expired));
            if let Some((k, end, n)) = open.get(&g.client).copied() {
                if ((from.0 - end) as f64) < merge {
                    let m = &mut out[k];
                    m.believed = m.believed.min(x(g.believed));
                    m.expired = m.expired.max(x(g.expired));
                    m.until = m.until.max(x(until));
                    m.title = narrate::gaps_merged_title(n + 1, g.client);
                    open.insert(g.client, (k, end.max(until.0), n + 1));
                    continue;
                }
            }
            open.insert(g.client, (out.len(), until.0, 1));
        }
        out.push(Gap {
            believed: x(g.believed),
            expired: x(g.expired),
            until: x(g.stopped.max(g.believed.max(g.expired))),
            y: ly(g.client),
            danger,
            title: g.title.clone(),
            open: open_text(|| narrate::gap_legend(g.client)),
            entry: g.entry,
        });
    }
    out
}
