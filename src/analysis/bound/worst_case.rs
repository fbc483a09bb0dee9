//! The run that attains a bound: the scenario built from the client's settings with every
//! bound at its worst (the holder paused longest, its messages slowest, its clock slow and
//! the lock service's fast), placed so that the lease runs out where the lock service's
//! own rule ends it soonest.

use super::*;

/// The worst-case run, when it ends by `end`; a run longer than the format's horizon
/// cannot be built, so there is none then.
/// `e`: when the successor is granted; `build` makes the run ending by `end`.
pub(super) fn buildable_worst_case(
    end: Option<i64>,
    e: i64,
    build: impl FnOnce(i64) -> Scenario,
) -> Option<Scenario> {
    end.filter(|end| (*end).max(e) + 3_000 <= LIMITS.max_horizon_ms)
        .map(build)
        .map(on_an_expiry_scan)
}

/// A service that revokes an expired lease only when it next looks for one (etcd's
/// lessor, every 500 ms) or on its next tick (ZooKeeper with `coordinator.tick_ms`) grants
/// the successor up to a look or a tick later than the lease's end, so the worst case is
/// the run where the holder's lease runs out where that lag is least (on a look; 1 ms
/// before a tick, as ZooKeeper rounds strictly up, so there the run falls 1 ms short of
/// the bound). The coordinator's clock is set that much ahead: every reading on it moves
/// by the same amount, and nothing happens at another true time but the revocation.
pub(super) fn on_an_expiry_scan(mut sc: Scenario) -> Scenario {
    let (expiry, tick) = (sc.coordinator.flavor.model().expiry, sc.coordinator.tick_ms);
    let Some(every) = expiry.period(tick) else {
        return sc;
    };
    let Ok(trace) = simulate(&sc) else {
        return sc;
    };
    let c1 = NodeId::Client(0);
    let expires = trace
        .entries
        .iter()
        .take_while(|e| !matches!(e.event, Event::LeaseExpired { client, .. } if client == c1))
        .filter_map(|e| match e.event {
            Event::LeaseGranted {
                client,
                expires_local,
                ..
            }
            | Event::LeaseRenewed {
                client,
                expires_local,
                ..
            } if client == c1 => Some(expires_local),
            _ => None,
        })
        .last();
    if let Some(x) = expires {
        let lag = |t: i64| expiry.revoked_at(t, tick) - t;
        let ahead = (0..every).min_by_key(|s| lag(x + s)).unwrap_or(0);
        sc.coordinator.clock.offset_ms += ahead;
    }
    sc
}

/// What both formulas substitute: the lease's name (with a lock-delay when there is one),
/// P as written (∞ when unbounded), and the terms' values as a sum ("5 + 10000 − 30000").
pub(super) fn substituted(h: &Holder, env: &Env, terms: &[Term]) -> (&'static str, String, String) {
    let lease = if h.lock_delay_ms > 0 {
        "(TTL + lock_delay)"
    } else {
        "TTL"
    };
    let p = env.max_pause_ms.map_or("∞".to_string(), |p| p.to_string());
    let nums: Vec<String> = terms
        .iter()
        .filter(|t| t.ms != Some(0) || t.name == "pause")
        .map(|t| match t.ms {
            _ if t.name == "pause" => p.clone(),
            None => "∞".to_string(),
            Some(ms) if ms < 0 => format!("− {}", -ms),
            Some(ms) => ms.to_string(),
        })
        .collect();
    (lease, p, nums.join(" + ").replace("+ −", "−"))
}

/// The run that attains the bound: the holder `c1` (its acquire lands at once, every
/// answer to it takes D, its clock runs slow, the pause holds the answer to its write)
/// and a successor `c2` whose acquire lands the instant the lease (and any lock-delay)
/// is over and who holds the lock past the holder's end.
pub(super) fn worst_case(sc: &Scenario, h: &Holder, env: &Env, i: &Instants, end: i64) -> Scenario {
    let mut out = base_case(sc, h, env, i.e, end);
    let (c1, d) = (NodeId::Client(0), env.max_delay_ms);
    // The pause holds the write's answer (or, when the check fails, the check itself).
    let pause_at = if i.passes { i.t_w + 2 * d } else { i.t_w };
    if let Some(p) = env.max_pause_ms.filter(|p| *p > 0) {
        out.faults.push(Fault {
            after: None,
            at_ms: pause_at,
            kind: FaultKind::Pause {
                node: c1,
                for_ms: p,
                cause: PauseCause::Gc,
            },
        });
    }
    out
}

/// The worst case's common part: the holder `c1` (its clock slow, every answer to it
/// taking D), the successor `c2` arriving at `e`, the coordinator's clock fast; no faults.
pub(super) fn base_case(sc: &Scenario, h: &Holder, env: &Env, e: i64, end: i64) -> Scenario {
    let d = env.max_delay_ms;
    let rho = env.max_drift_ppm;
    let holder = ClientSpec {
        start_ms: 0,
        clock: ClockSpec {
            drift_ppm: -rho,
            ..ClockSpec::default()
        },
        ttl_ms: h.ttl_ms,
        margin_ms: h.margin_ms,
        count_from: h.count_from,
        renew_every_ms: h.renew_every_ms,
        on_loss: sc.clients.first().map(|c| c.on_loss).unwrap_or_default(),
        check_before_write: h.check_before_write,
        fence_with: FenceWith::Token,
        retry: RetrySpec::default(),
        timeout_ms: h.timeout_ms,
        unreachable: FailMode::Closed,
        job: vec![
            Step::Acquire,
            Step::Work { ms: h.work_ms },
            Step::Write {
                key: "x".into(),
                value: "c1".into(),
            },
            Step::Release,
        ],
    };
    // The successor holds the lock (its lease outlasting its work) past the holder's end.
    let hold = (end - e).max(0) + 1_000;
    let successor = ClientSpec {
        start_ms: e,
        clock: ClockSpec::default(),
        // Twice the hold: a fast coordinator clock must not end its lease first.
        ttl_ms: h.ttl_ms.max(2 * hold + 2_000).min(LIMITS.max_horizon_ms),
        margin_ms: 0,
        count_from: CountFrom::Request,
        renew_every_ms: None,
        on_loss: Default::default(),
        check_before_write: false,
        fence_with: FenceWith::Token,
        retry: RetrySpec {
            interval_ms: 1,
            jitter_ms: 0,
            max_attempts: 0,
        },
        timeout_ms: h.timeout_ms,
        unreachable: FailMode::Closed,
        job: vec![Step::Acquire, Step::Work { ms: hold }, Step::Release],
    };
    let (c1, c2) = (NodeId::Client(0), NodeId::Client(1));
    let link = |from, to, ms| LinkOverride {
        from,
        to,
        min_delay_ms: ms,
        max_delay_ms: ms,
        loss_pct: 0,
    };
    let mut links = Vec::new();
    for k in 0..h.flavor.nodes() {
        let co = NodeId::Coord(k);
        links.extend([
            link(c1, co, 0),
            link(co, c1, d),
            link(c2, co, 0),
            link(co, c2, 0),
        ]);
    }
    links.extend([link(c1, NodeId::Storage, d), link(NodeId::Storage, c1, d)]);
    let mut out = sc.clone();
    out.name = "The worst case".into();
    out.description = format!(
        "Built by the safety calculator: c1's lease ({} ms) is counted on a coordinator \
clock fast by {rho} ppm and c2 is granted the instant it is over; every answer to c1 takes \
{d} ms and its own clock runs slow; a pause of {} ms holds c1 where it waits. The two \
believe together for the stated worst-case overlap.",
        h.ttl_ms,
        env.max_pause_ms.unwrap_or(0)
    );
    out.clients = vec![holder, successor];
    out.coordinator.clock = ClockSpec {
        drift_ppm: rho,
        ..ClockSpec::default()
    };
    out.coordinator.clocks = Vec::new();
    // Chubby and Consul hold the lock back by default: a lock-delay of 0 must be said.
    out.coordinator.lock_delay_ms =
        (h.lock_delay_ms > 0 || h.flavor.model().lock_delay_ms > 0).then_some(h.lock_delay_ms);
    out.coordinator.stop_on_disconnect = h.stop_on_disconnect;
    out.coordinator.grace_ms = h.grace_ms;
    // Consul: the session ends at the earliest moment its docs allow, one TTL after the
    // last renewal (the run pins what the model would otherwise draw).
    if h.flavor.model().lazy_expiry {
        out.coordinator.invalidation = Invalidation::Earliest;
    }
    out.storage.clock = ClockSpec::default();
    out.network = NetworkSpec {
        default: LinkSpec {
            min_delay_ms: 0,
            max_delay_ms: d,
            loss_pct: 0,
        },
        links,
    };
    out.faults = Vec::new();
    out.horizon_ms = end.max(e) + 3_000;
    out
}
