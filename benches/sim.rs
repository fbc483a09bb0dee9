//! Benchmarks (not tests: nothing here asserts on time). Run by the README's test command:
//! `cargo bench --bench sim --no-default-features`.
//!
//! Prints simulated trace entries per second on a long scenario, and the time to project
//! the state at an arbitrary step of a 100,000-entry trace (targets: ≥ 5 M entries/s, a
//! seek ≤ 1 ms).

use leaseline::analysis::check::check;
use leaseline::analysis::projection::Projection;
use leaseline::model::scenario::{
    ClientSpec, Fault, FaultKind, FenceMode, LinkSpec, LossPolicy, PauseCause, RetrySpec, Scenario,
    Step,
};
use leaseline::model::sim::rng::Rng;
use leaseline::model::sim::run;
use leaseline::vocab::ids::NodeId;
use std::hint::black_box;
use std::time::Instant;

/// Eight clients contending for the lock for an hour, renewing every 40 ms, with pauses.
fn long_scenario(max_events: u32) -> Scenario {
    let mut sc = leaseline::teach::presets::preset("gc-pause")
        .map(|p| p.scenario())
        .unwrap_or_else(|| unreachable!());
    sc.horizon_ms = 3_600_000;
    sc.max_events = max_events;
    sc.storage.fence = FenceMode::Monotone;
    sc.network.default = LinkSpec {
        min_delay_ms: 1,
        max_delay_ms: 9,
        loss_pct: 1,
    };
    let mut job = Vec::new();
    for i in 0..15 {
        job.extend([
            Step::Acquire,
            Step::Work { ms: 20_000 },
            Step::Write {
                key: format!("k{}", i % 3),
                value: format!("v{i}"),
            },
            Step::Release,
        ]);
    }
    let c = ClientSpec {
        renew_every_ms: Some(40),
        ttl_ms: 120,
        on_loss: LossPolicy::Reacquire,
        retry: RetrySpec {
            interval_ms: 50,
            jitter_ms: 50,
            max_attempts: 0,
        },
        ..sc.clients[0].clone()
    };
    sc.clients = (0..8)
        .map(|i| ClientSpec {
            start_ms: i * 37,
            job: job.clone(),
            ..c.clone()
        })
        .collect();
    sc.faults = (0..50)
        .map(|i| Fault {
            after: None,
            at_ms: 5_000 + i * 20_000,
            kind: FaultKind::Pause {
                node: NodeId::Client((i % 8) as u8),
                for_ms: 300,
                cause: PauseCause::Gc,
            },
        })
        .collect();
    sc
}

/// Times `f` `iters` times after `warmup` untimed calls and returns the median in ms with
/// the last result. Each result is dropped after its timer stops, so freeing a
/// million-entry trace is not counted as making it.
fn median_ms<T>(warmup: usize, iters: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    for _ in 0..warmup {
        drop(black_box(f()));
    }
    let mut ms = Vec::with_capacity(iters);
    let mut last = None;
    for _ in 0..iters {
        let t0 = Instant::now();
        let out = black_box(f());
        ms.push(t0.elapsed().as_secs_f64() * 1e3);
        last = Some(out); // the previous result is dropped here, outside the timing
    }
    ms.sort_by(f64::total_cmp);
    (ms[ms.len() / 2], last.expect("at least one iteration"))
}

fn main() {
    // Simulation throughput: median of 5 runs after a warm-up.
    let sc = long_scenario(1_000_000);
    sc.validate().expect("bench scenario is valid");
    let (run_ms, trace) = median_ms(1, 5, || run(&sc));
    let entries = trace.len();
    drop(trace);
    println!(
        "bench simulate: {entries} entries per run, {:.2} M entries/s ({run_ms:.1} ms per run, median of 5)",
        entries as f64 / (run_ms / 1e3) / 1e6,
    );

    // Projection over a 100,000-entry trace.
    let trace = run(&long_scenario(100_000));
    let t0 = Instant::now();
    let proj = Projection::new(&trace);
    let build_ms = t0.elapsed().as_secs_f64() * 1e3;
    let mut rng = Rng::new(42);
    let seeks = 20_000;
    let mut us: Vec<f64> = (0..seeks)
        .map(|_| {
            let k = rng.range_i64(0, trace.len() as i64) as usize;
            let s = Instant::now();
            black_box(proj.state_at(&trace, k));
            s.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    us.sort_by(f64::total_cmp);
    let pct = |p: usize| us[(us.len() - 1) * p / 100];
    println!(
        "bench seek: {} entries, keyframes built in {build_ms:.1} ms; state_at p50 {:.1} µs, p99 {:.1} µs, max {:.1} µs over {seeks} random steps",
        trace.len(),
        pct(50),
        pct(99),
        pct(100)
    );

    let (check_ms, v) = median_ms(2, 9, || check(&trace));
    println!(
        "bench check: {} entries judged in {check_ms:.1} ms, median of 9 ({} overlaps)",
        trace.len(),
        v.overlaps.len()
    );
    let (layout_ms, d) = median_ms(1, 5, || leaseline::view::layout::diagram(&trace, &v));
    println!(
        "bench layout: {} entries laid out in {layout_ms:.1} ms, median of 5 ({} arrows, {} marks drawn)",
        trace.len(),
        d.arrows.len(),
        d.marks.len()
    );
    let (digest_ms, _) = median_ms(2, 9, || trace.digest());
    println!(
        "bench digest: {digest_ms:.1} ms for {} entries, median of 9",
        trace.len()
    );
}
