//! The benchmark's long run, generated (tests/e2e/bench-frames.mjs, `bigScenario`), for
//! the tests of a window's level of detail (layout_lod.rs) and of its labels
//! (labels.rs), which use it. On its own it tests nothing.

#![allow(dead_code)]

use leaseline::analysis::check::{check, Verdict};
use leaseline::model::scenario::Scenario;
use leaseline::model::sim::simulate;
use leaseline::model::trace::Trace;

/// Eight clients renewing every 40 ms, a pause every 20 s, stopped at `max` entries;
/// `fence`: the storage's fence mode ("monotone" as in the benchmark, "none").
pub fn big(max: usize, fence: &str) -> (Trace, Verdict) {
    let mut job = Vec::new();
    for i in 0..15 {
        job.push(r#"{"op":"acquire"}"#.to_string());
        job.push(r#"{"op":"work","ms":40000}"#.to_string());
        job.push(format!(
            r#"{{"op":"write","key":"k{}","value":"v{i}"}}"#,
            i % 3
        ));
        job.push(r#"{"op":"release"}"#.to_string());
    }
    let job = job.join(",");
    let clients: Vec<String> = (0..8)
        .map(|i| {
            format!(
                r#"{{"start_ms":{},"ttl_ms":120,"renew_every_ms":40,"on_loss":"reacquire","retry":{{"interval_ms":50,"jitter_ms":50,"max_attempts":0}},"job":[{job}]}}"#,
                i * 37
            )
        })
        .collect();
    let faults: Vec<String> = (0..50)
        .map(|i| {
            format!(
                r#"{{"at_ms":{},"fault":"pause","node":"c{}","for_ms":300}}"#,
                5_000 + i * 20_000,
                (i % 8) + 1
            )
        })
        .collect();
    let json = format!(
        r#"{{"version":1,"name":"bench","seed":1,"horizon_ms":3600000,"max_events":{max},"storage":{{"fence":"{fence}"}},"network":{{"default":{{"min_delay_ms":1,"max_delay_ms":9,"loss_pct":1}}}},"clients":[{}],"faults":[{}]}}"#,
        clients.join(","),
        faults.join(",")
    );
    let sc = Scenario::from_json(&json).unwrap();
    let t = simulate(&sc).unwrap();
    let v = check(&t);
    (t, v)
}
