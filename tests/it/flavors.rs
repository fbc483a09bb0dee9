//! The real lock services (`sim::flavors`): every flavor preset and remedy reaches its
//! verdict, runs reproducibly, and each flavor shows the behaviour that defines it.

use crate::common;
use leaseline::analysis::check::{check, Verdict};
use leaseline::model::flavors::{consul, etcd, redlock};
use leaseline::model::msg::Msg;
use leaseline::model::scenario::{Flavor, Scenario};
use leaseline::model::sim::coordinator::consul_invalidation_after;
use leaseline::model::sim::rng::Rng;
use leaseline::model::sim::simulate;
use leaseline::model::trace::json as trace_json;
use leaseline::model::trace::{Event, LossHow, Trace};
use leaseline::teach::flavor_presets::{self, FLAVOR_PRESETS};
use leaseline::teach::library::Expect;
use leaseline::vocab::ids::NodeId;
use leaseline::vocab::json;
use leaseline::vocab::time::Time;

fn run(name: &str) -> (Trace, Verdict) {
    let sc = flavor_presets::find(name).unwrap_or_else(|| panic!("no preset {name}"));
    let t = simulate(&sc).unwrap_or_else(|e| panic!("{name}: invalid: {e}"));
    let v = check(&t);
    (t, v)
}

fn holds(name: &str, e: &Expect) {
    let (_, v) = run(name);
    let kinds: Vec<_> = v.violations.iter().map(|x| x.kind).collect();
    assert_eq!(v.safe, e.safe, "{name}: safe?\n{}", v.summary());
    for k in e.must {
        assert!(kinds.contains(k), "{name}: expected {k:?}\n{}", v.summary());
    }
    for k in e.must_not {
        assert!(!kinds.contains(k), "{name}: did not expect {k:?}");
    }
    assert_eq!(
        !v.rejections.is_empty(),
        e.rejected,
        "{name}: fence rejections?\n{}",
        v.summary()
    );
}

/// When the first entry matching `f` happened (and on which node).
fn first(t: &Trace, f: impl Fn(&Event) -> bool) -> Option<(Time, NodeId)> {
    t.entries
        .iter()
        .find(|e| f(&e.event))
        .map(|e| (e.t, e.node))
}

/// When client `i` (0-based) was first granted the lock.
fn granted(t: &Trace, i: u8) -> Time {
    first(
        t,
        |e| matches!(e, Event::LeaseGranted { client, .. } if *client == NodeId::Client(i)),
    )
    .unwrap()
    .0
}

#[test]
fn every_flavor_preset_and_remedy_reaches_its_verdict() {
    let all = flavor_presets::all();
    for (name, e) in &all {
        holds(name, e);
    }
    assert_eq!(FLAVOR_PRESETS.len(), 10);
    // Every flavor but the generic one has a preset.
    for f in Flavor::ALL.into_iter().skip(1) {
        assert!(FLAVOR_PRESETS.iter().any(|p| p.flavor == f), "{}", f.name());
    }
    for p in FLAVOR_PRESETS {
        assert_eq!(p.scenario().coordinator.flavor, p.flavor, "{}", p.name());
    }
    println!(
        "{} flavor presets, {} variants",
        FLAVOR_PRESETS.len(),
        all.len()
    );
}

#[test]
fn every_flavor_preset_is_deterministic() {
    for (name, _) in flavor_presets::all() {
        let (a, _) = run(&name);
        let (b, _) = run(&name);
        assert_eq!(a.digest(), b.digest(), "{name}");
        // Every entry, new kinds included, has its canonical JSON with its `kind`.
        for e in &a.entries {
            let text = json::compact(&trace_json::entry(e));
            let back = json::parse(&text).unwrap();
            let kind = back.get("event").and_then(|v| v.get("kind"));
            assert_eq!(
                kind,
                Some(&json::Json::Str(trace_json::kind(&e.event).into())),
                "{text}"
            );
        }
        // And it survives a trip through JSON.
        let sc = flavor_presets::find(&name).unwrap();
        let back = Scenario::from_json(&sc.to_json_pretty()).unwrap();
        assert_eq!(back, sc, "{name}");
    }
}

#[test]
fn redis_expires_on_the_jumped_wall_clock_even_when_asked_for_monotonic() {
    let (t, v) = run("redis-clock-jump");
    assert!(
        flavor_presets::find("redis-clock-jump")
            .unwrap()
            .coordinator
            .clock
            .monotonic
    );
    // The 30 s key, set at 5 ms, lasts until 30.005 s on the server's clock, which the
    // 25 s jump at 5 s brings to 5.005 s true time (a monotonic clock would say 30.005 s).
    let (at, _) = first(&t, |e| matches!(e, Event::LeaseExpired { .. })).unwrap();
    assert_eq!(at, Time(5_005));
    assert!(!v.safe);
    // No grant carried a token.
    assert!(t
        .entries
        .iter()
        .all(|e| !matches!(e.event, Event::LeaseGranted { token, .. } if token != 0)));
}

#[test]
fn redis_failover_loses_a_key_younger_than_the_replica_lag() {
    let (t, _) = run("redis-failover");
    assert!(first(&t, |e| matches!(
        e,
        Event::FailedOver {
            lost: Some(NodeId::Client(0))
        }
    ))
    .is_some());
    // With no lag, the replica had the key: one holder at a time, safe.
    let mut sc = flavor_presets::find("redis-failover").unwrap();
    sc.coordinator.replica_lag_ms = 0;
    let v = check(&simulate(&sc).unwrap());
    assert!(v.safe && v.overlaps.is_empty(), "{}", v.summary());
}

#[test]
fn redlock_takes_a_majority_and_subtracts_elapsed_and_drift() {
    assert_eq!(redlock::validity_ms(10_000, 40), 9_858);
    let (t, _) = run("redlock-clock-jump");
    // Two of five masters are cut off: the round ends at the 50 ms timeout with 3 grants.
    let got: Vec<(u32, i64)> = t
        .entries
        .iter()
        .filter_map(|e| match e.event {
            Event::QuorumAcquired {
                granted,
                validity_ms,
            } => Some((granted, validity_ms)),
            _ => None,
        })
        .collect();
    assert_eq!(got, [(3, 10_000 - 50 - 102), (3, 10_000 - 50 - 102)]);
    // Five masters are five lanes.
    let coords = t
        .nodes
        .iter()
        .filter(|(n, _)| matches!(n, NodeId::Coord(_)))
        .count();
    assert_eq!(coords, 5);
}

#[test]
fn redlock_pause_in_flight_is_refused_by_the_validity_check() {
    let (t, _) = run("redlock-pause-in-flight");
    let failed = t.entries.iter().find_map(|e| match e.event {
        Event::QuorumFailed {
            granted,
            validity_ms,
        } if e.node == NodeId::Client(0) => Some((granted, validity_ms)),
        _ => None,
    });
    // All five said OK, but the round took 15 s of a 10 s TTL.
    assert_eq!(failed, Some((5, 10_000 - 15_007 - 102)));
}

#[test]
fn redlock_retry_delay_comes_from_the_seed() {
    let delays = |seed: u64| {
        let mut sc = flavor_presets::find("redlock-pause-in-flight").unwrap();
        sc.seed = seed;
        let t = simulate(&sc).unwrap();
        t.entries
            .iter()
            .filter(|e| {
                e.node == NodeId::Client(0) && matches!(e.event, Event::QuorumFailed { .. })
            })
            .map(|e| e.t.0)
            .collect::<Vec<_>>()
    };
    assert_eq!(delays(2), delays(2));
    assert!(
        (1..20).any(|s| delays(s) != delays(2)),
        "jitter varies with the seed"
    );
}

/// Curator on a ZooKeeper client before 3.9.3: Disconnected
/// (SUSPENDED) after two thirds of the session timeout, then LOST once that has lasted the
/// timeout — before the link heals, after the ensemble expired the session — and the
/// code, which only logs a loss, writes anyway.
#[test]
fn zookeeper_client_hears_curators_lost_after_a_session_timeout_of_suspended() {
    let (t, _) = run("zookeeper-partition");
    let c1 = NodeId::Client(0);
    let (disc, _) = first(&t, |e| matches!(e, Event::Disconnected)).unwrap();
    let granted2 = granted(&t, 1);
    let (healed, _) = first(&t, |e| matches!(e, Event::LinkHealed { .. })).unwrap();
    let ended: Vec<(Time, LossHow)> = t
        .entries
        .iter()
        .filter(|e| e.node == c1)
        .filter_map(|e| match e.event {
            Event::BeliefEnded { how, .. } => Some((e.t, how)),
            _ => None,
        })
        .collect();
    assert!(disc < granted2, "Disconnected before the session is gone");
    assert_eq!(ended.len(), 1, "{ended:?}");
    assert_eq!(ended[0].1, LossHow::Lost);
    assert_eq!(
        ended[0].0 .0 - disc.0,
        6_000,
        "LOST a session timeout after SUSPENDED"
    );
    assert!(granted2 < ended[0].0 && ended[0].0 < healed);
    assert!(t
        .entries
        .iter()
        .any(|e| e.node == c1 && matches!(e.event, Event::LossIgnored)));
    // The fence is the creation zxid: c2's node was created (zxid 2) before c1's deleted.
    assert!(first(&t, |e| matches!(
        e,
        Event::LeaseGranted {
            client: NodeId::Client(1),
            token: 2,
            ..
        }
    ))
    .is_some());
}

#[test]
fn etcd_keeps_alive_every_third_of_the_ttl_and_refuses_short_leases() {
    assert_eq!(etcd::keepalive_ms(6_000), 2_000);
    let mut sc = flavor_presets::find("etcd-leader-change").unwrap();
    sc.faults.clear();
    sc.clients[0].ttl_ms = 6_000;
    let t = simulate(&sc).unwrap();
    let renews: Vec<i64> = t
        .entries
        .iter()
        .filter(|e| e.node == NodeId::Client(0))
        .filter_map(|e| match e.event {
            Event::Sent {
                msg: Msg::Renew { .. },
                ..
            } => Some(e.t.0),
            _ => None,
        })
        .collect();
    assert_eq!(renews.len(), 10, "{renews:?}");
    // The first tick 2 s after the grant arrived, then every 2 s.
    assert!(
        renews.windows(2).all(|w| w[1] - w[0] == 2_000),
        "{renews:?}"
    );

    sc.clients[0].ttl_ms = etcd::MIN_TTL_MS - 1;
    let err = sc.validate().unwrap_err().to_string();
    assert_eq!(
        err,
        "clients[0].ttl_ms: etcd runs no lease shorter than 2000 ms"
    );
    sc.clients[0].ttl_ms = etcd::MIN_TTL_MS;
    assert!(sc.validate().is_ok());
}

#[test]
fn etcd_leader_change_extends_the_dead_holders_lease() {
    let (t, v) = run("etcd-leader-change");
    let granted2 = granted(&t, 1);
    // Without the leader change the lease (last kept alive at 1.681 s) ends at 6.681 s;
    // the new leader at 4 s gives it a full 5 s TTL plus the 1 s election timeout.
    assert_eq!(granted2, Time(4_000 + 5_000 + etcd::ELECTION_TIMEOUT_MS));
    assert!(v.safe);
    let mut sc = flavor_presets::find("etcd-leader-change").unwrap();
    sc.faults.pop();
    let t = simulate(&sc).unwrap();
    let natural = granted(&t, 1);
    assert!(natural < granted2, "{natural} < {granted2}");
}

#[test]
fn consul_invalidates_between_ttl_and_twice_ttl() {
    let ttl = 15_000;
    let mut seen = (i64::MAX, i64::MIN);
    for seed in 0..2_000 {
        let d = consul_invalidation_after(&mut Rng::new(seed), ttl);
        assert!((ttl..=2 * ttl).contains(&d), "seed {seed}: {d}");
        seen = (seen.0.min(d), seen.1.max(d));
    }
    assert!(seen.0 < ttl + 1_000 && seen.1 > 2 * ttl - 1_000, "{seen:?}");
    // In runs: a holder that stops renewing loses its session within [TTL, 2 TTL].
    for seed in 0..50 {
        let mut sc = flavor_presets::find("consul-false-positive").unwrap();
        sc.seed = seed;
        sc.faults.clear();
        sc.clients[0].renew_every_ms = Some(40_000);
        sc.clients[0].job[1] = leaseline::model::scenario::Step::Work { ms: 40_000 };
        let t = simulate(&sc).unwrap();
        let granted = first(&t, |e| matches!(e, Event::LeaseGranted { .. }))
            .unwrap()
            .0;
        let expired = first(&t, |e| matches!(e, Event::LeaseExpired { .. }))
            .unwrap()
            .0;
        let after = expired.0 - granted.0;
        assert!((ttl..=2 * ttl).contains(&after), "seed {seed}: {after}");
    }
}

#[test]
fn consul_invalidation_can_be_pinned_and_round_trips() {
    use leaseline::model::scenario::Invalidation;
    let ttl = 15_000;
    for (word, inv, want) in [
        ("earliest", Invalidation::Earliest, ttl),
        ("latest", Invalidation::Latest, 2 * ttl),
    ] {
        let mut sc = flavor_presets::find("consul-false-positive").unwrap();
        sc.faults.clear();
        sc.clients[0].renew_every_ms = Some(40_000);
        sc.clients[0].job[1] = leaseline::model::scenario::Step::Work { ms: 40_000 };
        sc.coordinator.invalidation = inv;
        // Pinned: the same moment whatever the seed.
        for seed in 0..10 {
            sc.seed = seed;
            let t = simulate(&sc).unwrap();
            let granted = first(&t, |e| matches!(e, Event::LeaseGranted { .. })).unwrap();
            let expired = first(&t, |e| matches!(e, Event::LeaseExpired { .. })).unwrap();
            assert_eq!(expired.0 .0 - granted.0 .0, want, "{word}, seed {seed}");
        }
        // Written out (only when not the default) and read back.
        let text = sc.to_json_pretty();
        assert!(text.contains(&format!("\"{word}\"")), "{text}");
        assert_eq!(Scenario::from_json(&text).unwrap(), sc);
        let bad = text.replace(&format!("\"{word}\""), "\"soon\"");
        let err = Scenario::from_json(&bad).unwrap_err().to_string();
        assert!(err.starts_with("coordinator.invalidation: "), "{err}");
        assert!(err.contains("random, earliest, latest"), "{err}");
    }
    // The default is random and is not written, so every existing scenario encodes as before.
    let sc = flavor_presets::find("consul-false-positive").unwrap();
    assert_eq!(sc.coordinator.invalidation, Invalidation::Random);
    assert!(!sc.to_json_pretty().contains("invalidation"));
    // Other flavors accept the field and ignore it (switching flavor keeps a scenario valid).
    for name in [
        "etcd-leader-change",
        "chubby-failover",
        "zookeeper-partition",
    ] {
        let sc = flavor_presets::find(name).unwrap();
        let mut pinned = sc.clone();
        pinned.coordinator.invalidation = Invalidation::Earliest;
        pinned.validate().unwrap();
        assert_eq!(
            simulate(&pinned).unwrap().entries,
            simulate(&sc).unwrap().entries,
            "{name}"
        );
    }
}

#[test]
fn consul_lock_delay_holds_the_lock_after_a_false_positive() {
    let (t, _) = run("consul-false-positive/lock-delay");
    let (inv, _) = first(&t, |e| {
        matches!(e, Event::SessionInvalidated { token: Some(1), .. })
    })
    .unwrap();
    let granted2 = granted(&t, 1);
    assert_eq!(granted2.0 - inv.0, consul::LOCK_DELAY_MS);
}

#[test]
fn chubby_client_rides_out_a_failover_in_jeopardy() {
    let (t, v) = run("chubby-failover");
    let (jeopardy, _) = first(&t, |e| matches!(e, Event::Jeopardy { .. })).unwrap();
    let (safe, _) = first(&t, |e| matches!(e, Event::Safe)).unwrap();
    let (extended, _) = first(&t, |e| matches!(e, Event::LeaseExtended { .. })).unwrap();
    assert!(jeopardy < extended && extended < safe);
    assert!(v.safe && v.overlaps.is_empty(), "{}", v.summary());
    // Client 1 never lost its lock: its only belief ends with its own release.
    assert!(t.entries.iter().all(|e| !matches!(
        e.event,
        Event::BeliefEnded { how, .. } if e.node == NodeId::Client(0) && how != LossHow::Released
    )));
}

#[test]
fn a_bad_flavor_names_the_field() {
    let sc = flavor_presets::find("redis-failover").unwrap();
    let text = sc.to_json_pretty().replace("\"redis\"", "\"foo\"");
    let err = Scenario::from_json(&text).unwrap_err().to_string();
    assert!(
        err.starts_with(
            "coordinator.flavor: unknown flavor \"foo\" (expected one of generic|redis|redlock"
        ),
        "{err}"
    );
    // Masters exist only with Redlock.
    let mut sc = flavor_presets::find("zookeeper-partition").unwrap();
    sc.faults[0].kind = leaseline::model::scenario::FaultKind::Partition {
        a: NodeId::Client(0),
        b: NodeId::Coord(2),
    };
    assert_eq!(
        sc.validate().unwrap_err().to_string(),
        "faults[0].b: no node `coord3` in this scenario"
    );
}

#[test]
fn cli_switches_flavor_and_refuses_an_unknown_one() {
    use crate::common::cli;
    let (code, _, err) = cli(&["run", "gc-pause", "--flavor", "foo"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--flavor: `foo` is not one of generic|redis|"),
        "{err}"
    );
    let (code, out, _) = cli(&["run", "gc-pause", "--flavor", "redis"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("flavor redis") && out.contains("no token"),
        "{out}"
    );
    let (code, out, _) = cli(&["run", "redlock-restart/delayed-restart"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("SAFE"));
    let (_, out, _) = cli(&["presets"]);
    assert!(out.contains("zookeeper-partition") && out.contains("zxid-fence"));
    // A mistyped lesson is offered its name, and told where every name is listed.
    let (code, _, err) = cli(&["run", "slow-client-clocks"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("did you mean `slow-client-clock`?") && err.contains("`leaseline presets`"),
        "{err}"
    );
}

#[test]
fn random_scenarios_run_reproducibly_under_every_flavor() {
    use leaseline::model::scenario::{Fault, FaultKind, FenceMode};
    let mut failed_over = 0;
    for seed in 0..60 {
        for f in Flavor::ALL {
            let mut sc = common::scenario(seed, FenceMode::Monotone);
            sc.coordinator.flavor = f;
            // Keep within what the flavor accepts.
            for c in &mut sc.clients {
                c.ttl_ms = c.ttl_ms.max(f.model().min_ttl_ms);
                c.margin_ms = c.margin_ms.min(c.ttl_ms - 1);
                if f.nodes() > 1 {
                    c.renew_every_ms = None;
                }
            }
            let last = NodeId::Coord(f.nodes() - 1);
            sc.faults.extend([
                Fault {
                    after: None,
                    at_ms: 5_000,
                    kind: FaultKind::Failover {
                        node: last,
                        down_ms: 3_000,
                    },
                },
                Fault {
                    after: None,
                    at_ms: 7_000,
                    kind: FaultKind::FalsePositive {
                        node: NodeId::Client(0),
                    },
                },
                Fault {
                    after: None,
                    at_ms: 9_000,
                    kind: FaultKind::ClockJump {
                        node: last,
                        by_ms: 20_000,
                    },
                },
                Fault {
                    after: None,
                    at_ms: 11_000,
                    kind: FaultKind::Restart {
                        node: last,
                        down_ms: 1_000,
                    },
                },
            ]);
            let a = simulate(&sc).unwrap_or_else(|e| panic!("seed {seed} {}: {e}", f.name()));
            let b = simulate(&sc).unwrap();
            assert_eq!(a.digest(), b.digest(), "seed {seed} {}", f.name());
            let v = check(&a);
            let p = leaseline::analysis::projection::Projection::new(&a);
            for i in leaseline::teach::narrate::notable_steps(&a) {
                let st = p.state_at(&a, i + 1);
                assert!(leaseline::teach::narrate::sentence(&a, &v, i, &st).is_some());
            }
            // The diagram draws a lane per node, a band per overlap, an arrow per message (a
            // bundle of renewals stands for its count of them).
            let d = leaseline::view::layout::diagram(&a, &v);
            let sent = a
                .entries
                .iter()
                .filter(|e| matches!(e.event, Event::Sent { .. }))
                .count();
            assert_eq!(
                (
                    d.lanes.len(),
                    d.bands.len(),
                    d.arrows.iter().map(|a| a.count).sum::<usize>()
                ),
                (a.nodes.len(), v.overlaps.len(), sent),
                "seed {seed} {}",
                f.name()
            );
            failed_over += a.entries.iter().any(|e| {
                e.t == Time(5_000)
                    && e.node == last
                    && matches!(e.event, Event::FailingOver { down_ms: 3_000 })
            }) as u32;
        }
    }
    // The failover injected at 5 s shows in every one of the 60 × 7 runs.
    assert_eq!(failed_over, 60 * 7);
}
