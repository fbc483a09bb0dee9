//! Believed against actual: for each lease a client believed in and the lock service
//! expired, where the client's clock put the lease's end, where the service ended it, and
//! where the client stopped believing — all three in true time, the diagram's axis.
//!
//! The spans are read off the projection's own fold ([`State::apply`]): a client's
//! belief (token and deadline on its clock) and its clock are the state's, so a span can
//! never disagree with what the state shows at any step. The fold adds only what a state
//! does not keep: each belief's deadline in true time, mapped with the client's clock as
//! it stood when the deadline was set. A later clock jump moves a deadline not yet
//! reached (the client will read its timer against the jumped clock); one already passed
//! stays where it passed, since the client's clock said "expired" there.

use crate::analysis::projection::{deadline_in_true_time, State};
use crate::model::trace::{Event, Trace};
use crate::vocab::ids::NodeId;
use crate::vocab::time::Time;
use crate::vocab::vecmap::VecMap;

/// One lease a client believed in and the lock service expired, in true time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BelievedSpan {
    pub client: NodeId,
    pub token: u64,
    /// Where the client's latest deadline for the token fell.
    pub believed: Time,
    /// When the lock service expired the lease.
    pub expired: Time,
    /// When the client stopped believing in the token: the run's end if it never did.
    pub stopped: Time,
    /// The index of the expiry's entry.
    pub entry: usize,
}

/// A belief in one token, from its start until the client gave it up.
#[derive(Clone, Copy)]
struct Belief {
    /// Its deadline in true time.
    ends: Time,
    /// When the client gave it up (`None`: it still holds).
    stopped: Option<Time>,
}

/// Believed vs actual for every lease a client believed in and the lock service expired
/// (only where both exist), in the order of the expiries: the client's latest deadline for
/// the token against the expiry, and when the client stopped believing — which, when it
/// went on believing past both (paused, it never looked at its clock), is after both.
/// One fold of the trace.
pub fn believed_spans(trace: &Trace) -> Vec<BelievedSpan> {
    let mut s = State::initial(trace);
    let mut beliefs: Vec<Belief> = Vec::new();
    // The latest belief in each (client, token), an index into `beliefs`: while the client
    // holds a token, the one it holds. A lookup that stays short however long the run.
    let mut latest: VecMap<(NodeId, u64), usize> = VecMap::new();
    // The expiries of leases: client, token, when, entry.
    let mut expiries: Vec<(NodeId, u64, Time, usize)> = Vec::new();
    for (i, e) in trace.entries.iter().enumerate() {
        if let Event::LeaseExpired { client, token, .. } = e.event {
            expiries.push((client, token, e.t, i));
        }
        // Only the entry's own node changes its belief or its clock.
        let n = e.node;
        let lane = s.clocks.iter().position(|(x, _)| *x == n);
        let clock = |s: &State| lane.map(|l| s.clocks[l].1);
        let was = (belief(&s, n), clock(&s));
        s.apply(trace, i);
        let now = (belief(&s, n), clock(&s));
        if was == now {
            continue;
        }
        let held = was
            .0
            .and_then(|(token, _)| latest.get(&(n, token)).copied());
        let ends = |local| deadline_in_true_time(&now.1.unwrap_or_default(), local);
        match (held, now.0) {
            // The same token: a deadline set anew, or a jump of the clock it is read on
            // before the client reached it.
            (Some(k), Some((token, local))) if was.0.is_some_and(|b| b.0 == token) => {
                if was.0 != now.0 || beliefs[k].ends > e.t {
                    beliefs[k].ends = ends(local);
                }
            }
            (_, next) => {
                // Giving a token up, or taking a new one, ends the belief in the old one.
                if let Some(k) = held {
                    beliefs[k].stopped = Some(e.t);
                }
                if let Some((token, local)) = next {
                    latest.insert((n, token), beliefs.len());
                    beliefs.push(Belief {
                        ends: ends(local),
                        stopped: None,
                    });
                }
            }
        }
    }
    let mut out = Vec::new();
    for (client, token, expired, entry) in expiries {
        let Some(&k) = latest.get(&(client, token)) else {
            continue;
        };
        let b = beliefs[k];
        out.push(BelievedSpan {
            client,
            token,
            believed: b.ends,
            expired,
            stopped: b.stopped.unwrap_or(trace.end),
            entry,
        });
    }
    out
}

/// What client `n` believes in state `s`: its token and deadline on its own clock.
fn belief(s: &State, n: NodeId) -> Option<(u64, i64)> {
    match n {
        NodeId::Client(i) => s.clients.get(usize::from(i))?.believes,
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scenario::{Fault, FaultKind, Scenario};
    use crate::model::sim::simulate;
    use crate::teach::course;
    use crate::teach::presets::preset;

    const C1: NodeId = NodeId::Client(0);

    /// Client 1 takes token 33 at 10 ms with a 30 s lease (its deadline: 30,010 on its
    /// clock, which is true), freezes from 10 s to 50 s; the lock service expires the lease
    /// at 30,005 and client 1 gives it up at 50,010, once awake.
    fn gc_pause() -> Scenario {
        preset("gc-pause").unwrap().scenario()
    }

    /// `sc` with client 1's clock jumped by `by_ms` at `at_ms`.
    fn jumped(mut sc: Scenario, at_ms: i64, by_ms: i64) -> Scenario {
        let kind = FaultKind::ClockJump { node: C1, by_ms };
        sc.faults.push(Fault {
            at_ms,
            kind,
            after: None,
        });
        sc
    }

    /// The one span of `sc`'s run, and the index of the run's one expiry.
    fn one_span(sc: &Scenario) -> (BelievedSpan, usize) {
        let t = simulate(sc).unwrap();
        let spans = believed_spans(&t);
        assert_eq!(spans.len(), 1, "{spans:?}");
        let expiries: Vec<usize> = (t.entries.iter().enumerate())
            .filter(|(_, e)| matches!(e.event, Event::LeaseExpired { .. }))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(expiries.len(), 1);
        (spans[0], expiries[0])
    }

    #[test]
    fn a_paused_client_believes_past_the_expiry_until_it_wakes() {
        let (span, expiry) = one_span(&gc_pause());
        let want = BelievedSpan {
            client: C1,
            token: 33,
            believed: Time(30_010),
            expired: Time(30_005),
            stopped: Time(50_010),
            entry: expiry,
        };
        assert_eq!(span, want);
    }

    #[test]
    fn a_jump_before_the_deadline_moves_it_with_the_clock() {
        // Set back 5 s at 5 s, client 1's clock reads 30,010 five seconds later in true
        // time; the lock service's expiry, on its own clock, does not move.
        let (span, _) = one_span(&jumped(gc_pause(), 5_000, -5_000));
        assert_eq!(span.believed, Time(35_010));
        assert_eq!((span.expired, span.stopped), (Time(30_005), Time(50_010)));
    }

    #[test]
    fn a_jump_after_the_deadline_leaves_it_where_it_passed() {
        // Paused, client 1 is still believing at 40 s; its clock said "expired" at 30,010.
        let (span, _) = one_span(&jumped(gc_pause(), 40_000, -20_000));
        assert_eq!(span.believed, Time(30_010));
    }

    #[test]
    fn a_coordinator_jump_moves_the_expiry_not_the_belief() {
        // The lock service's clock leaps 25 s at 10 s and expires the lease there; client
        // 1's deadline stays at 30,010 on its own, unjumped clock.
        let sc = course::open("coordinator-clock-jump").unwrap();
        let (span, _) = one_span(&sc);
        assert_eq!((span.client, span.token), (C1, 33));
        assert_eq!((span.believed, span.expired), (Time(30_010), Time(10_000)));
        assert!(
            span.stopped < span.believed,
            "it let go before its own deadline"
        );
    }

    #[test]
    fn a_run_with_no_expiry_has_no_span() {
        let mut sc = gc_pause();
        sc.faults.clear();
        let t = simulate(&sc).unwrap();
        assert!(t
            .entries
            .iter()
            .any(|e| matches!(e.event, Event::BeliefStarted { .. })));
        assert_eq!(believed_spans(&t), Vec::new());
    }
}
