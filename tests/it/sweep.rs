//! Seeded sweeps over random scenarios with random faults: the safety property of atomic
//! monotone fencing, the checker's ability to fail, determinism, and fault causality.

use crate::common;
use leaseline::analysis::check::check;
use leaseline::model::scenario::FenceMode;
use leaseline::model::sim::run;

const N: u64 = 10_000;

#[test]
fn monotone_fencing_never_accepts_a_stale_write_and_no_fencing_does() {
    let mut unfenced_stale = 0u32;
    let mut overlaps = 0u32;
    for seed in 0..N {
        let mut sc = common::scenario(seed, FenceMode::Monotone);
        sc.validate()
            .unwrap_or_else(|e| panic!("seed {seed}: generator made an invalid scenario: {e}"));
        let v = check(&run(&sc));
        assert_eq!(
            v.stats.stale_writes_accepted,
            0,
            "seed {seed}: {}",
            v.summary()
        );
        assert_eq!(v.stats.lost_updates, 0, "seed {seed}");
        overlaps += u32::from(!v.overlaps.is_empty());
        sc.storage.fence = FenceMode::None;
        unfenced_stale += check(&run(&sc)).stats.stale_writes_accepted;
    }
    println!("{N} scenarios: {overlaps} with two believers; {unfenced_stale} stale writes accepted without fencing");
    assert!(
        overlaps > 100,
        "the sweep must actually create double holders"
    );
    assert!(
        unfenced_stale > 100,
        "without fencing the checker must find stale writes"
    );
}

#[test]
fn same_scenario_same_digest() {
    for seed in 0..2_000 {
        let sc = common::scenario(seed, FenceMode::None);
        assert_eq!(run(&sc).digest(), run(&sc).digest(), "seed {seed}");
    }
}

#[test]
fn a_fault_at_t_leaves_the_trace_before_t_unchanged() {
    let mut changed_after = 0;
    for seed in 0..3_000u64 {
        let sc = common::scenario(seed, FenceMode::Monotone);
        let base = run(&sc);
        let mut r = leaseline::model::sim::rng::Rng::new(seed ^ 0xFA17);
        let f = common::fault(&mut r, sc.client_count(), sc.horizon_ms);
        let t = f.at_ms;
        let mut forked = sc.clone();
        forked.faults.push(f);
        let other = run(&forked);
        let before = |tr: &leaseline::model::trace::Trace| {
            tr.entries
                .iter()
                .take_while(|e| e.t.0 < t)
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(
            before(&base),
            before(&other),
            "seed {seed}: fault at {t} changed the past"
        );
        changed_after += u32::from(base.digest() != other.digest());
    }
    assert!(
        changed_after > 1_000,
        "faults must change the future ({changed_after})"
    );
}

#[test]
fn exact_and_strict_fences_are_safe_too() {
    for seed in 0..2_000 {
        for fence in [FenceMode::Strict, FenceMode::Exact] {
            let v = check(&run(&common::scenario(seed, fence)));
            assert_eq!(
                v.stats.stale_writes_accepted,
                0,
                "seed {seed} {fence:?}: {}",
                v.summary()
            );
        }
    }
}
