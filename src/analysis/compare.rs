//! Two runs side by side: where two traces first part ways, and the default partner of a
//! comparison (the same scenario with the fence switched). Which lesson variants are worth
//! comparing is a teaching question: [`crate::teach::course::variants`].
//!
//! Both runs share the seed, so up to the first divergent entry they are the same run,
//! entry for entry; the divergence is the moment the variant's one change (a fence, a
//! durable counter, a stop-on-loss) first makes a difference — usually the decisive event.

use crate::model::scenario::Scenario;
use crate::model::trace::json::{about, kind};
use crate::model::trace::{Entry, Trace};

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
