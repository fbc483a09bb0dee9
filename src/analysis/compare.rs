//! Two runs side by side: where two traces first part ways, and the default partner of a
//! comparison (the same scenario with the fence switched). Which lesson variants are worth
//! comparing is a teaching question: [`crate::teach::course::variants`].
//!
//! Both runs share the seed, so up to the first divergent entry they are the same run,
//! entry for entry; the divergence is the moment the variant's one change (a fence, a
//! durable counter, a stop-on-loss) first makes a difference — usually the decisive event.

use crate::model::scenario::Scenario;
use crate::model::trace::json::{about, kind};
use crate::model::trace::{Entry, Event, Trace};
use crate::vocab::ids::NodeId;

/// The first entry where the two runs do something different — another time, node, kind
/// of event or client it is about — or where one ends while the other goes on; `None` when
/// they never part. Details that only record state (storage's high-water mark beside an
/// accepted write, say) are not a difference a reader could see.
pub fn first_divergence(a: &Trace, b: &Trace) -> Option<usize> {
    let n = a.entries.len().min(b.entries.len());
    let same = |x: &Entry, y: &Entry| {
        x.t == y.t
            && x.node == y.node
            && kind(&x.event) == kind(&y.event)
            && about(&x.event) == about(&y.event)
    };
    (0..n)
        .find(|&i| !same(&a.entries[i], &b.entries[i]))
        .or_else(|| (a.entries.len() != b.entries.len()).then_some(n))
}

/// The default partner for a comparison: the same scenario with the fence switched (off
/// if on, monotone if off: [`crate::model::scenario::FenceMode::flipped`], as the fence switch does), on the same
/// seed.
pub fn fence_flipped(sc: &Scenario) -> Scenario {
    let mut b = sc.clone();
    b.storage.fence = sc.storage.fence.flipped();
    b
}

/// A moment both a model run and a recording of a real run have, and a reader would name:
/// who was granted the lock, whose write storage took, whose it refused. Messages, timers
/// and steps are left out: a real client library sends other messages than the model's,
/// and the recording has no timers to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    Granted(NodeId),
    WriteAccepted(NodeId),
    WriteRejected(NodeId),
}

impl Moment {
    pub fn of_entry(e: &Entry) -> Option<Moment> {
        match &e.event {
            Event::LeaseGranted { client, .. } => Some(Moment::Granted(*client)),
            Event::WriteAccepted { client, .. } => Some(Moment::WriteAccepted(*client)),
            Event::WriteRejected { client, .. } => Some(Moment::WriteRejected(*client)),
            _ => None,
        }
    }

    /// The moment in a few words ("the grant to client 2").
    pub fn words(self) -> String {
        match self {
            Moment::Granted(c) => format!("the grant to {}", c.name()),
            Moment::WriteAccepted(c) => format!("{}'s write, accepted", c.name()),
            Moment::WriteRejected(c) => format!("{}'s write, refused", c.name()),
        }
    }
}

/// How a model run and a recording of a real run of the same scenario agree: their key
/// moments ([`Moment`]) in order, matched pairwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agreement {
    /// The entries of each matched pair of moments (model, real), in order.
    pub matched: Vec<(usize, usize)>,
    /// The first moment where the two stories part: the model's entry and the real one's
    /// (`None` on a side that has no more moments); `None` when every moment matches.
    pub parts: Option<(Option<usize>, Option<usize>)>,
    /// The largest time difference between matched moments, ms, and where (model, real).
    pub largest_gap: Option<(i64, usize, usize)>,
    /// The first matched moment whose times differ by more than [`TARGET_MS`]: the
    /// difference, ms, and where (model, real).
    pub departs: Option<(i64, usize, usize)>,
}

/// How far apart, ms, a model's moment and the real one may be and still agree: the lab's
/// target (`tools/lab`), which a real service's scheduling noise stays well inside.
pub const TARGET_MS: i64 = 50;

/// Matches the key moments of `model` and `real` in order (times may differ: a real run
/// has scheduling noise, and its tokens are the service's own numbers).
pub fn agreement(model: &Trace, real: &Trace) -> Agreement {
    let moments = |t: &Trace| -> Vec<(usize, Moment)> {
        t.entries
            .iter()
            .enumerate()
            .filter_map(|(i, e)| Moment::of_entry(e).map(|m| (i, m)))
            .collect()
    };
    let (a, b) = (moments(model), moments(real));
    let mut matched = Vec::new();
    let mut largest_gap: Option<(i64, usize, usize)> = None;
    let mut departs = None;
    for (&(i, x), &(j, y)) in a.iter().zip(&b) {
        if x != y {
            break;
        }
        matched.push((i, j));
        let gap = (model.entries[i].t.0 - real.entries[j].t.0).abs();
        if largest_gap.is_none_or(|(g, ..)| gap > g) {
            largest_gap = Some((gap, i, j));
        }
        if gap > TARGET_MS && departs.is_none() {
            departs = Some((gap, i, j));
        }
    }
    let n = matched.len();
    let parts =
        (n < a.len() || n < b.len()).then(|| (a.get(n).map(|m| m.0), b.get(n).map(|m| m.0)));
    Agreement {
        matched,
        parts,
        largest_gap,
        departs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sim::simulate;
    use crate::teach::course;

    fn trace(sc: &Scenario) -> Trace {
        simulate(sc).unwrap()
    }

    #[test]
    fn fenced_and_unfenced_part_at_the_stale_write() {
        let a = course::open("gc-pause").unwrap();
        let ta = trace(&a);
        let tb = trace(&fence_flipped(&a));
        let i = first_divergence(&ta, &tb).expect("they differ");
        assert_eq!(kind(&ta.entries[i].event), "write_accepted");
        assert_eq!(kind(&tb.entries[i].event), "write_rejected");
        // Up to there, the same story: the same events at the same times.
        assert!(ta.entries[..i]
            .iter()
            .zip(&tb.entries[..i])
            .all(|(x, y)| x.t == y.t && kind(&x.event) == kind(&y.event)));
        assert_eq!(first_divergence(&ta, &ta), None);
    }
}
