//! A seeded generator of random scenarios for the sweep, determinism and fuzz tests.
//! It uses the project's own PRNG, so a failing case is reproduced by its index.

#![allow(dead_code)]

use leaseline::model::scenario::*;
use leaseline::model::sim::rng::Rng;
use leaseline::vocab::ids::NodeId;

fn pick<T: Copy>(r: &mut Rng, xs: &[T]) -> T {
    xs[r.range_i64(0, xs.len() as i64 - 1) as usize]
}

pub fn node(r: &mut Rng, clients: u8) -> NodeId {
    match r.range_i64(0, 3) {
        0 => NodeId::COORD,
        1 => NodeId::Storage,
        _ => NodeId::Client(r.range_i64(0, i64::from(clients) - 1) as u8),
    }
}

pub fn fault(r: &mut Rng, clients: u8, horizon: i64) -> Fault {
    let at_ms = r.range_i64(0, horizon);
    let client = NodeId::Client(r.range_i64(0, i64::from(clients) - 1) as u8);
    let kind = match r.range_i64(0, 7) {
        0 | 1 => FaultKind::Pause {
            node: if r.chance_pct(80) {
                client
            } else {
                node(r, clients)
            },
            for_ms: r.range_i64(1, 30_000),
            cause: PauseCause::Gc,
        },
        2 => FaultKind::Partition {
            a: client,
            b: pick(r, &[NodeId::COORD, NodeId::Storage]),
        },
        3 => FaultKind::Heal {
            a: client,
            b: pick(r, &[NodeId::COORD, NodeId::Storage]),
        },
        4 => FaultKind::Delay {
            from: client,
            to: pick(r, &[NodeId::COORD, NodeId::Storage]),
            extra_ms: r.range_i64(0, 20_000),
        },
        5 => FaultKind::ClockJump {
            node: node(r, clients),
            by_ms: r.range_i64(-20_000, 20_000),
        },
        6 => FaultKind::Restart {
            node: pick(r, &[NodeId::COORD, NodeId::Storage]),
            down_ms: r.range_i64(0, 3_000),
        },
        _ => FaultKind::FailRenewals {
            for_ms: r.range_i64(1, 20_000),
        },
    };
    Fault {
        at_ms,
        kind,
        after: None,
    }
}

fn clock(r: &mut Rng) -> ClockSpec {
    ClockSpec {
        offset_ms: if r.chance_pct(30) {
            r.range_i64(-5_000, 5_000)
        } else {
            0
        },
        drift_ppm: if r.chance_pct(30) {
            r.range_i64(-50_000, 50_000)
        } else {
            0
        },
        monotonic: r.chance_pct(30),
    }
}

fn step(r: &mut Rng) -> Step {
    match r.range_i64(0, 9) {
        0 | 1 => Step::Acquire,
        2 | 3 => Step::Work {
            ms: r.range_i64(0, 15_000),
        },
        4 => Step::Check,
        5..=7 => Step::Write {
            key: pick(r, &["a", "b"]).into(),
            value: format!("v{}", r.range_i64(0, 99)),
        },
        8 => Step::Effect {
            name: pick(r, &["email", "charge"]).into(),
            idempotency_key: r.chance_pct(50).then(|| "k".to_string()),
        },
        _ => Step::Release,
    }
}

fn client(r: &mut Rng) -> ClientSpec {
    let ttl_ms = r.range_i64(500, 20_000);
    let mut job = vec![Step::Acquire];
    for _ in 0..r.range_i64(1, 7) {
        job.push(step(r));
    }
    if r.chance_pct(70) {
        job.push(Step::Release);
    }
    ClientSpec {
        start_ms: r.range_i64(0, 5_000),
        clock: clock(r),
        ttl_ms,
        margin_ms: r.range_i64(0, ttl_ms / 4),
        count_from: pick(r, &[CountFrom::Request, CountFrom::Grant]),
        renew_every_ms: r.chance_pct(40).then(|| (ttl_ms / 3).max(1)),
        on_loss: pick(
            r,
            &[
                LossPolicy::Continue,
                LossPolicy::Abort,
                LossPolicy::Reacquire,
            ],
        ),
        check_before_write: r.chance_pct(50),
        fence_with: leaseline::model::scenario::FenceWith::Token,
        retry: RetrySpec {
            interval_ms: r.range_i64(50, 2_000),
            jitter_ms: r.range_i64(0, 500),
            max_attempts: r.range_i64(0, 4) as u32,
        },
        timeout_ms: r.range_i64(100, 2_000),
        unreachable: pick(r, &[FailMode::Open, FailMode::Closed]),
        job,
    }
}

/// A random scenario with random faults; `fence` and durable counter/mark as given.
pub fn scenario(seed: u64, fence: FenceMode) -> Scenario {
    let mut r = Rng::new(seed.wrapping_mul(0x9E37_79B9).wrapping_add(7));
    let n = if r.chance_pct(10) {
        r.range_i64(5, 8)
    } else {
        r.range_i64(1, 4)
    } as u8;
    let horizon_ms = 60_000;
    let lo = r.range_i64(0, 30);
    let faults = (0..r.range_i64(0, 6))
        .map(|_| fault(&mut r, n, horizon_ms))
        .collect();
    Scenario {
        version: FORMAT_VERSION,
        name: format!("random {seed}"),
        description: String::new(),
        seed,
        horizon_ms,
        max_events: 20_000,
        coordinator: CoordinatorSpec {
            first_token: r.range_i64(1, 100) as u64,
            counter: Durability::Durable,
            waiters: pick(&mut r, &[Waiters::Queue, Waiters::Retry]),
            clock: clock(&mut r),
            ..CoordinatorSpec::default()
        },
        storage: StorageSpec {
            fence,
            mark: Durability::Durable,
            check_gap_ms: r.range_i64(0, 50),
            idempotency: r.chance_pct(50),
            unfenced_keys: Vec::new(),
            clock: clock(&mut r),
            ..StorageSpec::default()
        },
        network: NetworkSpec {
            default: LinkSpec {
                min_delay_ms: lo,
                max_delay_ms: lo + r.range_i64(0, 50),
                loss_pct: if r.chance_pct(20) {
                    r.range_i64(0, 10) as u32
                } else {
                    0
                },
            },
            links: Vec::new(),
        },
        clients: (0..n).map(|_| client(&mut r)).collect(),
        faults,
        walkthrough: Vec::new(),
        questions: Vec::new(),
    }
}

/// Runs the command line in-process: (exit code, stdout, stderr).
pub fn cli(args: &[&str]) -> (i32, String, String) {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = leaseline::cli::run(&args, &mut out, &mut err);
    (
        code,
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// Every built-in scenario by the name that opens it: the presets, each lesson and each
/// lock-service preset, and each of their fixes (`lesson/fix`).
pub fn every_scenario() -> Vec<(String, Scenario)> {
    use leaseline::teach::{course, flavor_presets::FLAVOR_PRESETS, library::LESSONS};
    let mut v: Vec<(String, Scenario)> = leaseline::teach::presets::PRESETS
        .iter()
        .map(|p| (p.name.to_string(), p.scenario()))
        .collect();
    for l in LESSONS
        .iter()
        .chain(FLAVOR_PRESETS.iter().map(|p| &p.lesson))
    {
        v.push((l.id.to_string(), l.scenario()));
        for f in l.fixes {
            let name = format!("{}/{}", l.id, f.name);
            let sc = course::open(&name).unwrap_or_else(|| panic!("no scenario {name}"));
            v.push((name, sc));
        }
    }
    v
}

/// `sc` as it is, and, where it has no fence, with one too (a learner flips the switch):
/// each with its fence mode.
pub fn with_and_without_fence(sc: &Scenario) -> Vec<(FenceMode, Scenario)> {
    let fences = if sc.storage.fence == FenceMode::None {
        vec![FenceMode::None, FenceMode::Monotone]
    } else {
        vec![sc.storage.fence]
    };
    fences
        .into_iter()
        .map(|fence| {
            let mut sc = sc.clone();
            sc.storage.fence = fence;
            (fence, sc)
        })
        .collect()
}

/// A built-in scenario by name (a preset, a lesson or `lesson/fix`).
pub fn open(name: &str) -> Scenario {
    leaseline::teach::course::open(name).unwrap_or_else(|| panic!("no scenario {name}"))
}

/// The run of a built-in scenario.
pub fn run(name: &str) -> leaseline::model::trace::Trace {
    leaseline::model::sim::simulate(&open(name)).unwrap()
}

/// Each grant of the run: (client, token), in order.
pub fn grants(t: &leaseline::model::trace::Trace) -> Vec<(NodeId, u64)> {
    t.entries
        .iter()
        .filter_map(|e| match e.event {
            leaseline::model::trace::Event::LeaseGranted { client, token, .. } => {
                Some((client, token))
            }
            _ => None,
        })
        .collect()
}
