//! Every preset's expected verdict, natively.

use leaseline::analysis::check::{check, ViolationKind};
use leaseline::model::sim::simulate;
use leaseline::teach::presets::{preset, PRESETS};

#[test]
fn every_preset_is_valid_and_runs() {
    for p in PRESETS {
        let sc = p.scenario();
        let trace = simulate(&sc).expect("valid");
        assert!(!trace.is_empty(), "{}", p.name);
    }
}

#[test]
fn clean_run_is_safe_with_no_overlap() {
    let v = check(&simulate(&preset("clean").unwrap().scenario()).unwrap());
    assert!(v.safe, "{}", v.summary());
    assert!(v.overlaps.is_empty());
    assert_eq!(v.stats.writes_accepted, 2);
}

#[test]
fn unfenced_gc_pause_accepts_the_stale_write() {
    let trace = simulate(&preset("gc-pause").unwrap().scenario()).unwrap();
    let v = check(&trace);
    println!("{}", v.summary());
    assert!(!v.safe);
    assert!(v.stats.stale_writes_accepted >= 1);
    assert!(v.stats.lost_updates >= 1);
    assert!(v.stats.double_holder_ms > 0);
    assert!(v
        .violations
        .iter()
        .any(|x| x.kind == ViolationKind::StaleWrite));
    let o = &v.overlaps[0];
    assert_eq!(o.clients.iter().map(|c| c.1).collect::<Vec<_>>(), [33, 34]);
}

#[test]
fn fenced_gc_pause_rejects_33_below_34_and_is_safe() {
    let unfenced = check(&simulate(&preset("gc-pause").unwrap().scenario()).unwrap());
    let v = check(&simulate(&preset("gc-pause-fenced").unwrap().scenario()).unwrap());
    println!("{}", v.summary());
    assert!(v.safe);
    assert_eq!(v.stats.stale_writes_accepted, 0);
    assert!(v.stats.stale_writes_rejected >= 1);
    assert_eq!(v.rejections[0].reason, "token 33 < 34");
    assert_eq!(v.stats.double_holder_ms, unfenced.stats.double_holder_ms);
}

#[test]
fn eight_clients_fence_the_frozen_holder() {
    let v = check(&simulate(&preset("eight-clients").unwrap().scenario()).unwrap());
    assert!(v.safe, "{}", v.summary());
    assert_eq!(
        v.rejections
            .iter()
            .map(|r| r.reason.as_str())
            .collect::<Vec<_>>(),
        ["token 3 < 4"]
    );
    assert!(v.stats.double_holder_ms > 0);
}
