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

/// A pause's cause is words, not behaviour: the GC pause case run with every cause is the
/// same run — the same events at the same times, the same verdict — but for the cause
/// the pause event carries, which the narration tells as what it is.
#[test]
fn a_pause_cause_changes_the_words_and_never_the_run() {
    use leaseline::analysis::projection::Projection;
    use leaseline::model::scenario::{FaultKind, PauseCause};
    use leaseline::model::trace::Event;
    use leaseline::teach::narrate;

    let base = preset("gc-pause").unwrap().scenario();
    let gc = simulate(&base).unwrap();
    let gc_verdict = check(&gc);
    for cause in PauseCause::ALL {
        let mut sc = base.clone();
        let FaultKind::Pause { cause: c, .. } = &mut sc.faults[0].kind else {
            panic!("gc-pause opens with a pause")
        };
        *c = cause;
        let trace = simulate(&sc).unwrap();
        assert_eq!(trace.len(), gc.len(), "{cause:?}");
        for (a, b) in trace.entries.iter().zip(&gc.entries) {
            assert_eq!((a.t, a.node, a.local), (b.t, b.node, b.local), "{cause:?}");
            match (&a.event, &b.event) {
                (
                    Event::Paused { for_ms, cause: got },
                    Event::Paused {
                        for_ms: gc_ms,
                        cause: PauseCause::Gc,
                    },
                ) => assert_eq!((for_ms, *got), (gc_ms, cause)),
                (x, y) => assert_eq!(x, y, "{cause:?}"),
            }
        }
        let v = check(&trace);
        assert_eq!(
            (v.safe, &v.violations, &v.overlaps),
            (
                gc_verdict.safe,
                &gc_verdict.violations,
                &gc_verdict.overlaps
            )
        );
        // The digest is the GC run's exactly when the cause is the default one.
        assert_eq!(
            trace.digest() == gc.digest(),
            cause == PauseCause::Gc,
            "{cause:?}"
        );
        let told: Vec<String> = narrate::transcript(&trace, &v, &Projection::new(&trace))
            .into_iter()
            .map(|l| l.text)
            .filter(|t| t.starts_with("client 1 froze"))
            .collect();
        assert_eq!(
            told,
            [format!(
                "client 1 froze ({}); its clock keeps running",
                cause.prose()
            )]
        );
        if cause != PauseCause::Gc {
            assert!(told.iter().all(|t| !t.contains("GC")), "{told:?}");
        }
    }
}

/// A link made before pauses had a cause still opens, and its pause is a GC pause; the
/// same scenario is linked today with the very same fragment.
#[test]
fn a_link_from_before_pause_causes_opens_as_a_gc_pause() {
    use leaseline::model::scenario::{FaultKind, PauseCause};
    use leaseline::session::share::{decode, encode, Source};

    const OLD: &str = "#sc=zg6SsAYCR0MggjgLIGxvbmdlciB0aGFugAUEZSBUVEyOzAYXS2xlcHBtYW5uIDIwMTYncyBjYXNlLiBDgvEDByAxIHRha2Vzgj6B8QUBICiCgwMEIDMzKSCBlAMHIGEgMzAgcyCC0QEEIGFuZCCCngQAc4AYADGBGApqb2IuIEF0IHQgPYMRAGGAIQJvcC2AUA4td29ybGQgR0MgZnJlZXqAZQdpdCBmb3IgNIAohjWCXoJ-gmIEZXhwaXKAKwFvboeTARJzZXJ2aWNlLCB3aGljaCBoYW5kiLEBAnRvIIO9BQEgMoa9AQI0KTuHFYKxA4dxADWBcYQdAjEgd4H-AQcsIG5ldmVyIIKmBYAOgecBgzaDhAKFkwICLiBXgA8Db3V0IIG1BQRpbmcsIITtBwYgYWNjZXB0guMBgT6FfREncyB1cGRhdGUgaXMgbG9zdDuDUo5ABHJlamVjgkAAOoZvBSA8IDM0LoaMCgA0i4wKADmzjAoBMzOljQr_gQqXgQq2nAHougqzpAGH8goAM57yCgNncmFu__AK0_AKlfEKAWFjgoMCAjo0Moj7CgdiYWxhbmNlPYA5BCAoYzEpkosLACyJoAODqQH_owP_owPOkw6aogMBMjWBogMBMimSVQAyivgDncYOhJIRocoOADSCWQFdfQ&t=50005";
    let v = decode(OLD).unwrap();
    let Source::Custom(sc) = &v.source else {
        panic!("a custom scenario")
    };
    assert!(matches!(
        sc.faults[0].kind,
        FaultKind::Pause {
            for_ms: 40_000,
            cause: PauseCause::Gc,
            ..
        }
    ));
    assert_eq!(encode(&v), OLD);
}
