//! A client with a renewal watchdog: `renew_every_ms`, or the flavor's default keepalive
//! (etcd, ZooKeeper, Chubby: every TTL/3; Consul: every TTL/2, its session invalidated at
//! the earliest moment, the TTL). The watchdog ticks every R on the client's clock from
//! the grant; a renewal that lands in time pushes the expiry a TTL further, so the lease
//! runs out only when no renewal lands for a TTL on the coordinator's clock. The first gap is the longest (the grant's flight comes before the
//! first tick), so the worst case holds the first tick `x0` with the pause:
//!
//! ```text
//! overlap = D + R/(1 − ρ) + 2D + P − (TTL + lock_delay)/(1 + ρ)   (the refusal is read)
//! overlap = D + R/(1 − ρ) + P − (TTL + lock_delay)/(1 + ρ)        (its own deadline)
//! ```
//!
//! and a job that writes before the first tick ends its belief by itself (the plain
//! bound). The derivation, and what it refuses, is in `docs/safety-bound.md`.

use super::*;

/// How the holder's belief ends in the worst case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Path {
    /// The job's write is answered (or its check fails) before the first tick: the
    /// watchdog plays no part and the plain bound holds.
    Job,
    /// Even a whole pause at the first tick lets its renewal land before the expiry.
    KeptAlive,
    /// The first tick is held until its renewal lands after the expiry; the rest of
    /// the pause holds the refusal.
    Refusal,
    /// The first tick, held for the whole pause, finds the believed deadline passed.
    Watchdog,
}

/// The instants of the worst case: the acquire lands at once (so the lease starts at
/// 0), every answer to the holder takes D, and so does its late renewal.
pub(super) struct Instants {
    /// The lease runs out on the coordinator.
    pub t_exp: i64,
    /// The successor's grant (after any lock-delay).
    pub e: i64,
    /// The first watchdog tick, when nothing holds it.
    pub x0: i64,
    /// When the held tick resumes: the earliest instant whose renewal, taking D,
    /// lands at or after the expiry.
    pub y: i64,
    /// The first pause, `y − x0`.
    pub p_a: i64,
    /// The holder's work ends (its write or check).
    pub t_w: i64,
    /// The ticks that send a renewal between the resume and the refusal's arrival
    /// (`y` first): each renewal takes D, so the first refusal is the first back.
    pub ticks: Vec<i64>,
    pub path: Path,
}

pub(super) fn instants(h: &Holder, env: &Env) -> Result<Instants, Refusal> {
    let d = env.max_delay_ms;
    let r = h.renew_period().unwrap_or(h.ttl_ms);
    let slow = clock(-env.max_drift_ppm);
    let reads = |t: i64| slow.timer_reading(Time(t));
    let (t_exp, e) = lease_end(h, env);
    let at_grant = reads(d);
    let x0 = slow.true_time_of(at_grant + r, Time(d)).0;
    let t_w = slow.true_time_of(at_grant + h.work_ms, Time(d)).0;
    let y = x0.max(t_exp - d);
    let deadline = match h.count_from {
        CountFrom::Request => h.ttl_ms - h.margin_ms,
        CountFrom::Grant => at_grant + h.ttl_ms - h.margin_ms,
    };
    let passes = !h.check_before_write || reads(t_w) < deadline;
    // Whether a tick run at this local reading ends the belief, when no answer has come
    // since the grant (`Client::on_renew_tick`): past the deadline (generic, Redis,
    // etcd); ZooKeeper only with stop_on_disconnect, once silent for 2/3 of the
    // session timeout; Chubby never at its first late tick, which enters jeopardy and
    // renews.
    let ends_at_tick = |now: i64| match h.flavor.model().on_expiry {
        OnExpiry::Lose => now >= deadline,
        OnExpiry::Disconnect => h.stop_on_disconnect && now - at_grant >= h.ttl_ms * 2 / 3,
        OnExpiry::Jeopardy => false,
    };
    // The deadline the job's check compares with once the held tick has run: Chubby's
    // tick enters jeopardy there, which moves the deadline a grace later.
    let check_deadline = if h.flavor.model().on_expiry == OnExpiry::Jeopardy && reads(y) >= deadline
    {
        deadline.saturating_add(h.grace_ms)
    } else {
        deadline
    };
    let refuse = |reason: String| Refusal {
        option: "renew_every_ms",
        reason,
    };
    let path = if h.work_ms < r {
        // Work and watchdog count on the same clock from the same grant, so the
        // write's check comes before the first tick whatever the drift and delays.
        if !passes || t_w + 2 * d < x0 {
            Path::Job
        } else {
            return Err(refuse(format!(
                "the job's write (after {} ms of work) is answered about when the \
watchdog first renews ({} ms after the grant): which comes first depends on the delays, and \
the calculator does not bound that race yet",
                h.work_ms, r
            )));
        }
    } else if env.max_pause_ms.is_some_and(|p| y - x0 > p) {
        Path::KeptAlive
    } else if ends_at_tick(reads(y))
        || (h.check_before_write && t_w <= y && reads(y) >= check_deadline)
    {
        // The held tick (or the job's check, held with it) ends the belief when the
        // whole pause is over.
        Path::Watchdog
    } else {
        // Between the resumed tick and the refusal's arrival nothing else may end the
        // belief: a later tick (its deadline passed; ZooKeeper: Disconnected with
        // stop_on_disconnect, or LOST a session timeout after Disconnected; Chubby: the
        // grace over), or the write's check.
        let next = slow.true_time_of(reads(y) + r, Time(y)).0;
        let later = reads(y + 2 * d);
        let tick_ok = next > y + 2 * d
            || match h.flavor.model().on_expiry {
                OnExpiry::Lose => later < deadline,
                OnExpiry::Disconnect => !ends_at_tick(later) && later - reads(y) < h.ttl_ms,
                OnExpiry::Jeopardy => later < deadline.saturating_add(h.grace_ms),
            };
        let check_ok =
            !h.check_before_write || t_w >= y + 2 * d || reads(t_w.max(y)) < check_deadline;
        if !(tick_ok && check_ok) {
            return Err(refuse(format!(
                "the believed deadline (TTL {} ms − margin {} ms) passes while the late \
renewal's refusal is on its way, and a {} ends the belief first; the calculator does not \
bound that case yet",
                h.ttl_ms,
                h.margin_ms,
                if tick_ok {
                    "check before the write"
                } else {
                    "watchdog tick"
                }
            )));
        }
        Path::Refusal
    };
    let mut ticks = Vec::new();
    if path == Path::Refusal {
        let mut t = y;
        while t < y + 2 * d {
            if ticks.len() >= MAX_DELAYED {
                return Err(refuse(format!(
                    "the watchdog renews every {r} ms, more than {MAX_DELAYED} times in one \
round trip of 2 × {d} ms: the worst case would need a delay fault per renewal"
                )));
            }
            ticks.push(t);
            t = slow.true_time_of(reads(t) + r, Time(t)).0;
        }
    }
    Ok(Instants {
        t_exp,
        e,
        x0,
        y,
        p_a: y - x0,
        t_w,
        ticks,
        path,
    })
}

/// The most renewals the worst case delays one by one (a fault each, within the
/// format's limit of 256 faults).
const MAX_DELAYED: usize = 250;

pub(super) fn overlap_of(h: &Holder, env: &Env) -> Option<i64> {
    let i = instants(h, env).ok()?;
    let p = env.max_pause_ms?;
    let d = env.max_delay_ms;
    Some(match i.path {
        Path::Job => plain_overlap(h, env)?,
        Path::KeptAlive => i.x0 + p + d - i.t_exp,
        Path::Refusal => i.x0 + p + 2 * d - i.e,
        Path::Watchdog => i.x0 + p - i.e,
    })
}

pub(super) fn bound(sc: &Scenario, h: &Holder, env: &Env) -> Result<Bound, Refusal> {
    let i = instants(h, env)?;
    let d = env.max_delay_ms;
    let r = h.renew_period().unwrap_or(0);
    let whose = if h.renew_every_ms.is_some() {
        "its watchdog's".to_string()
    } else {
        format!("the {} client's default keepalive: its", h.flavor.name())
    };
    if i.path == Path::Job {
        let mut b = plain_bound(sc, h, env)?;
        b.terms.push(Term {
            name: "renewal",
            ms: Some(0),
            why: format!(
                "{whose} first renewal comes {r} ms after the grant, after the job's \
write is answered (or its check fails): the watchdog plays no part"
            ),
        });
        return Ok(b);
    }
    let mut terms = vec![
        Term {
            name: "grant delay",
            ms: Some(d),
            why: format!(
                "the lease starts when the acquire lands; the grant takes D = {d} ms to \
reach the holder, whose watchdog starts counting only then"
            ),
        },
        Term {
            name: "renewal period",
            ms: Some(i.x0 - d),
            why: format!(
                "{whose} first renewal leaves {r} ms after the grant on a holder clock \
running slow by {} ppm",
                env.max_drift_ppm
            ),
        },
        Term {
            name: "renewal round trip",
            ms: Some(if i.path == Path::Watchdog { 0 } else { 2 * d }),
            why: if i.path == Path::Watchdog {
                "when the held tick runs, the holder's own clock already reads past its \
believed deadline (TTL − margin): the watchdog ends the belief there, sending nothing"
                    .into()
            } else {
                format!(
                    "the late renewal takes D = {d} ms to be refused and the refusal D to \
come back; the holder believes until it reads it"
                )
            },
        },
    ];
    let pause_why = if i.path == Path::Watchdog {
        "a pause freezes the holder's watchdog: held at its first tick, it learns nothing \
until the pause ends"
    } else {
        "a pause freezes the holder's watchdog: part of it holds back the first renewal \
until the lease has run out, the rest holds the refusal"
    };
    terms.push(pause_term(env, pause_why));
    terms.extend(lease_terms(
        h,
        env,
        " with no renewal; a waiting client is granted at once",
    ));
    let worst_overlap_ms = overlap_of(h, env);
    if let (Some(o), Some(p)) = (worst_overlap_ms, env.max_pause_ms) {
        if i.path == Path::KeptAlive {
            let sum: i64 = terms.iter().filter_map(|t| t.ms).sum();
            terms.push(Term {
                name: "kept alive",
                ms: Some(o - sum),
                why: format!(
                    "even a pause of {p} ms at the first tick lets its renewal land \
before the lease runs out, and every later gap is shorter: no successor is granted while \
the holder renews"
                ),
            });
        }
    }
    let end = worst_overlap_ms.map(|o| o + i.e);
    // A write leaves after the work and at most P of pause; a holder that checks before
    // it sends it only while it believes, and so does one that stops its job when its
    // watchdog or keepalive learns the lease is gone (`on_loss: abort`): it never writes
    // after its belief ends.
    let checks = (h.check_before_write && h.on_loss != LossPolicy::Continue)
        || h.on_loss == LossPolicy::Abort;
    let latest_write_ms = match (env.max_pause_ms, worst_overlap_ms) {
        (Some(p), Some(o)) => {
            let unchecked = i.t_w + p + d - i.t_exp;
            Some(if checks {
                unchecked.min(o + d)
            } else {
                unchecked
            })
        }
        _ => None,
    };
    // No overlap is not yet safe: a holder that carries on after it learns the lease is
    // gone (`on_loss: continue`) can still write after the next grant.
    let safe = h.fenced
        || (worst_overlap_ms.is_some_and(|o| o <= 0) && latest_write_ms.is_none_or(|w| w <= 0));
    let dominant = dominant(&terms);
    let (lease, p, sum) = substituted(h, env, &terms);
    let total = worst_overlap_ms.map_or("∞".to_string(), |t| t.to_string());
    let trip = if i.path == Path::Watchdog {
        ""
    } else {
        " + 2D"
    };
    let formula = format!(
        "overlap = D + R/(1 − ρ){trip} + P − {lease}/(1 + ρ) with D = {d} ms, R = {r} ms, \
P = {p} ms, ρ = {} ppm, TTL = {} ms: {} = {total} ms",
        env.max_drift_ppm, h.ttl_ms, sum
    );
    let worst_case = buildable_worst_case(end, i.e, |end| worst_case(sc, h, env, &i, end));
    Ok(Bound {
        holder: h.clone(),
        env: *env,
        safe,
        worst_overlap_ms,
        latest_write_ms,
        write_never: false,
        terms,
        formula,
        dominant,
        worst_case,
        successor_at_ms: i.e,
        holder_ends_ms: end,
        validity_ms: None,
    })
}

/// The run: the acquire lands at once; a pause holds the first tick (until its
/// renewal, delayed D, lands after the expiry — or for all of P), and the rest of the
/// pause holds the refusal.
fn worst_case(sc: &Scenario, h: &Holder, env: &Env, i: &Instants, end: i64) -> Scenario {
    let mut out = base_case(sc, h, env, i.e, end);
    let p = env.max_pause_ms.unwrap_or(0);
    let d = env.max_delay_ms;
    let c1 = NodeId::Client(0);
    let pauses = match i.path {
        Path::Refusal => {
            if d > 0 {
                // The acquire went out at 0 on a link of delay 0; each renewal sent
                // before the refusal is back is the next message on it after a delay
                // fault, and takes D.
                let mut after = 1;
                for t in &i.ticks {
                    out.faults.push(Fault {
                        after: None,
                        at_ms: after,
                        kind: FaultKind::Delay {
                            from: c1,
                            to: NodeId::COORD,
                            extra_ms: d,
                        },
                    });
                    after = t + 1;
                }
            }
            [(i.x0, i.p_a), (i.y + 2 * d, p - i.p_a)]
        }
        _ => [(i.x0, p), (0, 0)],
    };
    for (at_ms, for_ms) in pauses {
        if for_ms > 0 {
            out.faults.push(Fault {
                after: None,
                at_ms,
                kind: FaultKind::Pause {
                    node: c1,
                    for_ms,
                    cause: PauseCause::Gc,
                },
            });
        }
    }
    out.faults.sort_by_key(|f| f.at_ms);
    out
}
