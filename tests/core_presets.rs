//! Every preset's expected verdict, natively.

use leaseline::analysis::check::{check, ViolationKind};
use leaseline::model::sim::simulate;
use leaseline::teach::presets::{preset, PRESETS};

#[test]
fn every_preset_is_valid_and_runs() {
    let lengths: Vec<_> = PRESETS
        .iter()
        .map(|p| (p.name, simulate(&p.scenario()).expect("valid").len()))
        .collect();
    assert_eq!(
        lengths,
        [
            ("clean", 49),
            ("gc-pause", 53),
            ("gc-pause-fenced", 47),
            ("eight-clients", 1707)
        ]
    );
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
    assert_eq!(v.stats.stale_writes_accepted, 1);
    assert_eq!(v.stats.lost_updates, 1);
    // c2 believes from its grant (30,010 ms) until c1 lets go after its write (50,010).
    assert_eq!(v.stats.double_holder_ms, 20_000);
    assert_eq!(
        v.violations
            .iter()
            .map(|x| (x.kind, x.at.0, x.entry))
            .collect::<Vec<_>>(),
        [
            // c1 resumes at 50,000 ms; its write reaches storage 5 ms later.
            (ViolationKind::StaleWrite, 50_005, 34),
            (ViolationKind::LostUpdate, 50_005, 34),
        ]
    );
    assert_eq!(v.overlaps.len(), 1);
    let o = &v.overlaps[0];
    assert_eq!((o.from.0, o.to.0), (30_010, 50_010));
    assert_eq!(o.clients.iter().map(|c| c.1).collect::<Vec<_>>(), [33, 34]);
}

#[test]
fn fenced_gc_pause_rejects_33_below_34_and_is_safe() {
    let unfenced = check(&simulate(&preset("gc-pause").unwrap().scenario()).unwrap());
    let v = check(&simulate(&preset("gc-pause-fenced").unwrap().scenario()).unwrap());
    println!("{}", v.summary());
    assert!(v.safe);
    assert_eq!(v.stats.stale_writes_accepted, 0);
    assert_eq!(v.stats.stale_writes_rejected, 1);
    assert_eq!(v.rejections.len(), 1);
    assert_eq!(v.rejections[0].at.0, 50_005);
    assert_eq!(v.rejections[0].reason, "token 33 < 34");
    assert_eq!(v.stats.double_holder_ms, 20_000);
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
    // c3 overlaps c4 from 12,557 to 16,569 ms, then c5 from 16,581 to 18,000.
    let spans: Vec<_> = v.overlaps.iter().map(|o| (o.from.0, o.to.0)).collect();
    assert_eq!(spans, [(12_557, 16_569), (16_581, 18_000)]);
    assert_eq!(v.stats.double_holder_ms, 4_012 + 1_419);
    assert_eq!(v.stats.double_holder_ms, 5_431);
}
