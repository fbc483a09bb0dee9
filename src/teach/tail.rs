//! Tail latency as a distribution: seed 004's interview question ("why is a TTL above the
//! p99 not enough?") asked of many runs instead of one.
//!
//! A lesson's scenario names one pause. Here the same scenario is run under many seeds,
//! each with its pauses drawn from one heavy-tailed distribution (90 % of pauses last
//! 10–200 ms, 9.5 % 0.2–3 s, 0.4 % 3–12 s and 0.1 % 12–60 s), and
//! the checker counts the runs that end unsafe. The walkthrough quotes the share, so the
//! learner sees the tail as a frequency, not a story. All integer arithmetic over our own
//! seeded generator: the same scenario gives the same share on every machine.

use crate::analysis::check::check;
use crate::model::scenario::{FaultKind, Scenario};
use crate::model::sim::rng::Rng;
use crate::model::trace::Trace;
use std::cell::RefCell;

/// How many seeded runs the share is computed over.
pub const RUNS: u64 = 1_000;

/// A pause length in ms: 90 % between 10 and 200 ms, 9.5 % up to 3 s, 0.4 % up to 12 s,
/// 0.1 % up to a minute. Its p99 is just under 3 s.
pub fn draw_pause(rng: &mut Rng) -> i64 {
    match rng.range_i64(0, 999) {
        0..=899 => rng.range_i64(10, 200),
        900..=994 => rng.range_i64(200, 3_000),
        995..=998 => rng.range_i64(3_000, 12_000),
        _ => rng.range_i64(12_000, 60_000),
    }
}

/// What the seeded runs showed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Share {
    pub runs: u64,
    pub unsafe_runs: u64,
    /// The 99th percentile of the pauses drawn (ms).
    pub p99_ms: i64,
}

thread_local! {
    /// The last scenario asked about and its answer: a walkthrough fills its beats on
    /// every render, and a thousand runs are worth doing once.
    static LAST: RefCell<Option<(Scenario, Option<Share>)>> = const { RefCell::new(None) };
}

/// `sc` run by `run` (a simulation: the page's, [`Facts::runs`](super::facts::Facts)) under
/// seeds 1 ..= [`RUNS`], every pause drawn from [`draw_pause`]; `None` if the scenario has
/// no pause to draw.
pub fn share(sc: &Scenario, run: fn(&Scenario) -> Trace) -> Option<Share> {
    if let Some(hit) = LAST.with(|l| {
        l.borrow()
            .as_ref()
            .and_then(|(s, v)| (s == sc).then_some(*v))
    }) {
        return hit;
    }
    let v = compute(sc, run);
    LAST.with(|l| *l.borrow_mut() = Some((sc.clone(), v)));
    v
}

/// Whether [`share`] has an answer for `sc`: it has a pause to draw. Cheap, unlike the share.
pub fn applies(sc: &Scenario) -> bool {
    sc.faults
        .iter()
        .any(|f| matches!(f.kind, FaultKind::Pause { .. }))
}

fn compute(sc: &Scenario, simulate: fn(&Scenario) -> Trace) -> Option<Share> {
    if !applies(sc) {
        return None;
    }
    let mut pauses = Vec::new();
    let mut unsafe_runs = 0;
    for seed in 1..=RUNS {
        let mut rng = Rng::new(seed ^ 0x7A11);
        let mut run = sc.clone();
        run.seed = seed;
        for f in &mut run.faults {
            if let FaultKind::Pause { for_ms, .. } = &mut f.kind {
                *for_ms = draw_pause(&mut rng);
                pauses.push(*for_ms);
            }
        }
        // The scenario on screen is valid (a built-in one by its tests, an edited one by
        // the editor), and a drawn pause (10 ms and up) keeps it so: no validation again.
        let trace = simulate(&run);
        unsafe_runs += u64::from(!check(&trace).safe);
    }
    pauses.sort_unstable();
    let p99_ms = pauses[pauses.len() * 99 / 100];
    Some(Share {
        runs: RUNS,
        unsafe_runs,
        p99_ms,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scenario::FenceMode;
    use crate::model::sim;
    use crate::teach::library::find;

    #[test]
    fn some_runs_outrun_a_ttl_above_the_p99() {
        let sc = find("tail-latency").unwrap();
        let s = share(&sc, sim::run).unwrap();
        assert_eq!(
            s,
            share(&sc, sim::run).unwrap(),
            "deterministic (and cached)"
        );
        assert_eq!(s.runs, RUNS);
        // The TTL (5 s) is above the p99 pause, and still some runs outrun it.
        assert!(s.p99_ms < 3_000, "{s:?}");
        assert!((1..=15).contains(&s.unsafe_runs), "{s:?}");
        // Fencing closes the tail: no seed ends unsafe.
        let mut fenced = sc.clone();
        fenced.storage.fence = FenceMode::Monotone;
        assert_eq!(share(&fenced, sim::run).unwrap().unsafe_runs, 0);
        // No pause, nothing to draw.
        let mut calm = sc;
        calm.faults.clear();
        assert_eq!(share(&calm, sim::run), None);
    }

    #[test]
    fn the_distribution_has_its_tail() {
        let mut rng = Rng::new(3);
        let mut d: Vec<i64> = (0..100_000).map(|_| draw_pause(&mut rng)).collect();
        d.sort_unstable();
        assert!(
            d[50_000] <= 200 && d[99_000] <= 3_000 && d[99_950] >= 12_000,
            "{} {}",
            d[99_000],
            d[99_950]
        );
    }
}
