//! Explore on several cores: the search's report is the same byte for byte
//! whatever the number of threads — and the same as the one-thread search gave before it
//! could use more (the fingerprints below were taken from `leaseline explore` before the
//! search was split into evaluations and an in-order merge, and retaken when the faults'
//! sentences were reworded and when the report gained its `standstill` field: the searches
//! themselves did not change, and each old fingerprint was checked to hold without the new
//! field before it was retaken). Several lessons and fixes,
//! one and two faults, complete searches and searches stopped by the budget.

use crate::common::cli;
use leaseline::analysis::explore::engine::{Chunk, Explorer};
use leaseline::analysis::explore::{explore_live, wire, Bounds, Ended};
use leaseline::teach::course::open;

const ALL: &str = "pause,partition,clock,delay,restart,failover,false-positive,fail-renewals";

/// (the arguments after `explore`, the FNV-1a 64 of the JSON report without its time).
/// The report's example links carry the whole scenario, its description too, so a case is
/// retaken when its lesson's text or fix changes (slow-client-clock/safety-margin and
/// ttl-shorter-than-work/watchdog were), always checked against two and three threads.
const CASES: [(&str, &str); 9] = [
    (
        "gc-pause --clean --max-faults 1 --faults ALL",
        "3e05c2523057d0f4",
    ),
    (
        "gc-pause-fenced --max-faults 1 --faults ALL",
        "7385d1e6f8e5adb1",
    ),
    (
        "release-lost --max-faults 1 --faults ALL",
        "6f5ff2c0ff436386",
    ),
    (
        "idempotent-job --max-faults 1 --faults ALL",
        "f5f00993490c7fa8",
    ),
    (
        "slow-client-clock/safety-margin --max-faults 2 --faults pause,clock",
        "27bd53d398b2026b",
    ),
    (
        "slow-client-clock/fencing --max-faults 2 --faults pause,clock --budget 20000",
        "4507ee42ac688013",
    ),
    (
        "ttl-shorter-than-work/watchdog --max-faults 2 --faults pause --budget 15000",
        "c5556f9008744664",
    ),
    (
        "gc-pause --clean --max-faults 2 --faults pause,delay --budget 25000",
        "0f59c2fbd3375a22",
    ),
    (
        "release-lost --max-faults 2 --budget 12000",
        "1896e7dc2ba1780c",
    ),
];

fn fnv(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// The JSON report of `leaseline explore ARGS --workers N`, without its elapsed time.
fn report(args: &str, workers: usize) -> String {
    let args = args.replace("ALL", ALL);
    let n = workers.to_string();
    let mut argv: Vec<&str> = vec!["explore"];
    argv.extend(args.split(' '));
    argv.extend(["--workers", &n, "--format", "json"]);
    let (code, out, err) = cli(&argv);
    assert_eq!(code, 0, "{args}: {err}");
    out.split('\n')
        .filter(|l| !l.contains("\"elapsed_ms\""))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_report_is_the_same_for_one_two_and_three_threads_and_as_before() {
    for (args, want) in CASES {
        let one = report(args, 1);
        assert_eq!(fnv(&one), want, "{args}: one thread differs from before");
        for workers in [2, 3] {
            assert_eq!(report(args, workers), one, "{args}: {workers} threads");
        }
    }
}

/// The browser's way: evaluations arrive in any order (here: the chunks handed out
/// backwards, crossing the wire as words) and are merged in job order — the same report
/// and the same progress, call by call, as the one-thread search.
#[test]
fn evaluations_merged_in_any_order_of_arrival_give_the_same_search() {
    let sc = open("gc-pause").unwrap();
    let mut b = Bounds::for_scenario(&sc);
    b.keep_scripted = false;
    b.max_faults = 2;
    b.budget = 9_000;
    let mut want = Vec::new();
    let plain = explore_live(&sc, &b, 64, &mut |p, cs| {
        want.push((*p, cs.len()));
        true
    });
    let mut got = Vec::new();
    let mut progress = |p: &leaseline::analysis::explore::Progress,
                        cs: &[leaseline::analysis::explore::Class]| {
        got.push((*p, cs.len()));
        true
    };
    let mut x = Explorer::new(&sc, &b);
    while x.ended().is_none() {
        let chunks: Vec<Chunk> = std::iter::from_fn(|| x.take(37)).take(6).collect();
        assert!(!chunks.is_empty(), "jobs while the search goes on");
        let mut words: Vec<Vec<i64>> = chunks
            .iter()
            .map(|c| {
                let c = wire::read_chunk(&wire::chunk(c)).unwrap();
                let e = x.evaluator().eval_all(&c.jobs);
                wire::evals(c.first, &e)
            })
            .collect();
        words.reverse();
        for w in words {
            let (first, evals) = wire::read_evals(&w).unwrap();
            x.give(first, evals);
            x.merge(64, &mut progress);
        }
    }
    assert_eq!(x.ended(), Some(Ended::Budget));
    let parted = x.finish(&mut progress);
    assert_eq!(format!("{parted:?}"), format!("{plain:?}"));
    assert_eq!(got, want);
}

#[test]
fn workers_out_of_range_are_refused_naming_the_option() {
    for bad in ["0", "65", "many", "-1"] {
        let (code, out, err) = cli(&["explore", "gc-pause", "--workers", bad]);
        assert_eq!((code, out.as_str()), (2, ""), "{bad}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("--workers"), "{err}");
    }
}
