//! Benchmark of the explore search (not a test: nothing here asserts on time). Run:
//! `cargo bench --bench explore --no-default-features`.
//!
//! Prints, for a few presets and lessons, the schedules simulated per second on one core
//! and how many distinct traces and orderings they produced (issue #15's target: ≥ 50,000
//! schedules/s natively for a two-client lesson).

use leaseline::analysis::explore::fault::FaultClass;
use leaseline::analysis::explore::{explore, Bounds};
use leaseline::teach::course::open;
use std::time::Instant;

fn main() {
    let cases: [(&str, u8, &[FaultClass], bool); 5] = [
        ("gc-pause", 1, &FaultClass::ALL, false),
        ("gc-pause-fenced", 1, &FaultClass::ALL, true),
        ("check-then-write/fencing", 1, &FaultClass::ALL, true),
        ("starved-renewal/abort-on-loss", 1, &FaultClass::ALL, true),
        (
            "gc-pause-fenced",
            2,
            &[FaultClass::Pause, FaultClass::Delay],
            true,
        ),
    ];
    for (name, k, classes, keep) in cases {
        let sc = open(name).expect("a built-in scenario");
        let mut b = Bounds::for_scenario(&sc);
        b.max_faults = k;
        b.classes = classes.to_vec();
        b.keep_scripted = keep;
        let t0 = Instant::now();
        let r = explore(&sc, &b, 4096, &mut |_| true);
        let s = t0.elapsed().as_secs_f64();
        println!(
            "bench explore {name} (K = {k}, {} kinds{}): {} schedules in {:.2} s = {:.0} schedules/s; {} distinct traces, {} orderings, {} violating, {} classes{}",
            classes.len(),
            if keep { "" } else { ", clean" },
            r.schedules,
            s,
            r.schedules as f64 / s,
            r.distinct_runs,
            r.orderings,
            r.violating,
            r.classes.len(),
            if r.safe_within_bounds() { ", safe within bounds" } else { "" }
        );
    }
}
