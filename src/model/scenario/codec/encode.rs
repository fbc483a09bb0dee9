//! A scenario written as JSON: every field, in the order the format documents them, with
//! the flavor's own fields only where they differ from its defaults, and a fault's event
//! only when it is placed by one — so a scenario of fixed times is written as it always was.

use super::*;

pub(super) fn int(n: i64) -> Json {
    Json::Int(i128::from(n))
}

pub(super) fn obj(kv: Vec<(&str, Json)>) -> Json {
    Json::Obj(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

pub(super) fn node(n: NodeId) -> Json {
    Json::Str(n.to_string())
}

pub(super) fn clock_json(c: &ClockSpec) -> Json {
    obj(vec![
        ("offset_ms", int(c.offset_ms)),
        ("drift_ppm", int(c.drift_ppm)),
        ("monotonic", Json::Bool(c.monotonic)),
    ])
}

impl Json {
    /// Appends fields to an object (anything else is returned as it is).
    fn with(self, more: Vec<(&str, Json)>) -> Json {
        match self {
            Json::Obj(mut kv) => {
                kv.extend(more.into_iter().map(|(k, v)| (k.to_string(), v)));
                Json::Obj(kv)
            }
            other => other,
        }
    }
}

/// The flavor's fields, written only when they differ from their defaults, so a generic
/// scenario encodes exactly as it did before flavors existed (shared links stay the same).
/// Storage's resources and mark scope, written only when set: a scenario without them
/// reads (and links) exactly as before they existed.
pub(super) fn resource_fields(s: &StorageSpec) -> Vec<(&'static str, Json)> {
    let mut kv = Vec::new();
    if !s.resources.is_empty() {
        let each = s.resources.iter().map(|r| {
            let keys = r.keys.iter().map(|k| Json::Str(k.clone())).collect();
            obj(vec![
                ("name", Json::Str(r.name.clone())),
                ("keys", Json::Arr(keys)),
            ])
        });
        kv.push(("resources", Json::Arr(each.collect())));
    }
    if s.mark_per != MarkScope::Key {
        kv.push(("mark_per", word_of(MARK_SCOPE, s.mark_per)));
    }
    kv
}

pub(super) fn flavor_fields(c: &CoordinatorSpec) -> Vec<(&'static str, Json)> {
    let d = CoordinatorSpec::default();
    let mut kv = Vec::new();
    if c.flavor != d.flavor {
        kv.push(("flavor", Json::Str(c.flavor.name().into())));
    }
    if !c.clocks.is_empty() {
        kv.push((
            "clocks",
            Json::Arr(c.clocks.iter().map(clock_json).collect()),
        ));
    }
    if let Some(l) = c.lock_delay_ms {
        kv.push(("lock_delay_ms", int(l)));
    }
    for (k, v, dv) in [
        ("grace_ms", c.grace_ms, d.grace_ms),
        ("replica_lag_ms", c.replica_lag_ms, d.replica_lag_ms),
        ("tick_ms", c.tick_ms, d.tick_ms),
        ("restart_delay_ms", c.restart_delay_ms, d.restart_delay_ms),
    ] {
        if v != dv {
            kv.push((k, int(v)));
        }
    }
    if c.stop_on_disconnect {
        kv.push(("stop_on_disconnect", Json::Bool(true)));
    }
    if c.invalidation != d.invalidation {
        kv.push(("invalidation", word_of(INVALIDATION, c.invalidation)));
    }
    // Written only when off, so every scenario and link from before the field reads the
    // same.
    if c.health_checks != d.health_checks {
        kv.push(("health_checks", Json::Bool(c.health_checks)));
    }
    kv
}

/// Writes every field of `sc` (the flavor's only when not at their defaults).
pub fn encode(sc: &Scenario) -> Json {
    let step = |s: &Step| match s {
        Step::Acquire => obj(vec![("op", Json::Str("acquire".into()))]),
        Step::Work { ms } => obj(vec![("op", Json::Str("work".into())), ("ms", int(*ms))]),
        Step::Check => obj(vec![("op", Json::Str("check".into()))]),
        Step::Write { key, value } => obj(vec![
            ("op", Json::Str("write".into())),
            ("key", Json::Str(key.clone())),
            ("value", Json::Str(value.clone())),
        ]),
        Step::Effect {
            name,
            idempotency_key,
        } => {
            let mut kv = vec![
                ("op", Json::Str("effect".into())),
                ("name", Json::Str(name.clone())),
            ];
            if let Some(k) = idempotency_key {
                kv.push(("idempotency_key", Json::Str(k.clone())));
            }
            obj(kv)
        }
        Step::Release => obj(vec![("op", Json::Str("release".into()))]),
        Step::Renew => obj(vec![("op", Json::Str("renew".into()))]),
        Step::Read { key } => obj(vec![
            ("op", Json::Str("read".into())),
            ("key", Json::Str(key.clone())),
        ]),
        Step::Update {
            key,
            value,
            if_unchanged,
        } => obj(vec![
            ("op", Json::Str("update".into())),
            ("key", Json::Str(key.clone())),
            ("value", Json::Str(value.clone())),
            ("if_unchanged", Json::Bool(*if_unchanged)),
        ]),
    };
    let client = |c: &ClientSpec| {
        let mut kv = vec![
            ("start_ms", int(c.start_ms)),
            ("clock", clock_json(&c.clock)),
            ("ttl_ms", int(c.ttl_ms)),
            ("margin_ms", int(c.margin_ms)),
            ("count_from", word_of(COUNT_FROM, c.count_from)),
        ];
        if let Some(r) = c.renew_every_ms {
            kv.push(("renew_every_ms", int(r)));
        }
        kv.extend([
            ("on_loss", word_of(ON_LOSS, c.on_loss)),
            ("check_before_write", Json::Bool(c.check_before_write)),
            ("fence_with", word_of(FENCE_WITH, c.fence_with)),
            (
                "retry",
                obj(vec![
                    ("interval_ms", int(c.retry.interval_ms)),
                    ("jitter_ms", int(c.retry.jitter_ms)),
                    ("max_attempts", int(i64::from(c.retry.max_attempts))),
                ]),
            ),
            ("timeout_ms", int(c.timeout_ms)),
            ("unreachable", word_of(FAIL, c.unreachable)),
            ("job", Json::Arr(c.job.iter().map(step).collect())),
        ]);
        obj(kv)
    };
    let fault = |f: &Fault| {
        let rest: Vec<(&str, Json)> = match &f.kind {
            FaultKind::Pause {
                node: n,
                for_ms,
                cause,
            } => {
                let mut kv = vec![("node", node(*n)), ("for_ms", int(*for_ms))];
                // The default is left out, so a GC pause is written (and linked) as it
                // was before causes existed.
                if *cause != PauseCause::Gc {
                    kv.push(("cause", word_of(PAUSE_CAUSES, *cause)));
                }
                kv
            }
            FaultKind::Partition { a, b } | FaultKind::Heal { a, b } => {
                vec![("a", node(*a)), ("b", node(*b))]
            }
            FaultKind::Delay { from, to, extra_ms } => vec![
                ("from", node(*from)),
                ("to", node(*to)),
                ("extra_ms", int(*extra_ms)),
            ],
            FaultKind::ClockJump { node: n, by_ms } => {
                vec![("node", node(*n)), ("by_ms", int(*by_ms))]
            }
            FaultKind::Restart { node: n, down_ms } | FaultKind::Failover { node: n, down_ms } => {
                vec![("node", node(*n)), ("down_ms", int(*down_ms))]
            }
            FaultKind::FailRenewals { for_ms } => vec![("for_ms", int(*for_ms))],
            FaultKind::FalsePositive { node: n } => vec![("node", node(*n))],
        };
        let mut kv = vec![
            ("at_ms", int(f.at_ms)),
            ("fault", Json::Str(f.kind.kind().word().to_string())),
        ];
        kv.extend(rest);
        // Left out when absent, so a scenario of fixed times is written as it always was.
        if let Some(a) = f.after {
            kv.push(("after", word_of(ANCHORS, a.event)));
            kv.push(("client", node(a.client)));
            kv.push(("nth", int(i64::from(a.nth))));
        }
        obj(kv)
    };
    let link = |l: &LinkSpec| {
        obj(vec![
            ("min_delay_ms", int(l.min_delay_ms)),
            ("max_delay_ms", int(l.max_delay_ms)),
            ("loss_pct", int(i64::from(l.loss_pct))),
        ])
    };
    let mut fields = vec![
        ("version", int(i64::from(sc.version))),
        ("name", Json::Str(sc.name.clone())),
        ("description", Json::Str(sc.description.clone())),
        ("seed", Json::Int(i128::from(sc.seed))),
        ("horizon_ms", int(sc.horizon_ms)),
        ("max_events", int(i64::from(sc.max_events))),
        (
            "coordinator",
            obj(vec![
                (
                    "first_token",
                    Json::Int(i128::from(sc.coordinator.first_token)),
                ),
                ("counter", word_of(DURABILITY, sc.coordinator.counter)),
                ("waiters", word_of(WAITERS, sc.coordinator.waiters)),
                ("clock", clock_json(&sc.coordinator.clock)),
            ])
            .with(flavor_fields(&sc.coordinator)),
        ),
        (
            "storage",
            obj(vec![
                ("fence", Json::Str(sc.storage.fence.name().into())),
                ("mark", word_of(DURABILITY, sc.storage.mark)),
                ("check_gap_ms", int(sc.storage.check_gap_ms)),
                ("idempotency", Json::Bool(sc.storage.idempotency)),
                (
                    "unfenced_keys",
                    Json::Arr(
                        sc.storage
                            .unfenced_keys
                            .iter()
                            .map(|k| Json::Str(k.clone()))
                            .collect(),
                    ),
                ),
                ("clock", clock_json(&sc.storage.clock)),
            ])
            .with(resource_fields(&sc.storage)),
        ),
        (
            "network",
            obj(vec![
                ("default", link(&sc.network.default)),
                (
                    "links",
                    Json::Arr(
                        sc.network
                            .links
                            .iter()
                            .map(|l| {
                                obj(vec![
                                    ("from", node(l.from)),
                                    ("to", node(l.to)),
                                    ("min_delay_ms", int(l.min_delay_ms)),
                                    ("max_delay_ms", int(l.max_delay_ms)),
                                    ("loss_pct", int(i64::from(l.loss_pct))),
                                ])
                            })
                            .collect(),
                    ),
                ),
            ]),
        ),
        (
            "clients",
            Json::Arr(sc.clients.iter().map(client).collect()),
        ),
        ("faults", Json::Arr(sc.faults.iter().map(fault).collect())),
    ];
    // Written only where there is one, so a scenario without stays as it always was.
    if !sc.walkthrough.is_empty() {
        let beats = sc.walkthrough.iter().map(|b| {
            let mut kv = vec![("at_ms", int(b.at_ms)), ("text", Json::Str(b.text.clone()))];
            if let Some(n) = b.highlight {
                kv.push(("highlight", node(n)));
            }
            obj(kv)
        });
        fields.push(("walkthrough", Json::Arr(beats.collect())));
    }
    if !sc.questions.is_empty() {
        let questions = sc.questions.iter().map(|q| {
            let choices = q.choices.iter().map(|c| {
                obj(vec![
                    ("text", Json::Str(c.text.clone())),
                    ("outcome", Json::Str(c.outcome.name().to_string())),
                ])
            });
            let mut kv = vec![
                ("at_ms", int(q.at_ms)),
                ("prompt", Json::Str(q.prompt.clone())),
                ("choices", Json::Arr(choices.collect())),
            ];
            if !q.explain.is_empty() {
                kv.push(("explain", Json::Str(q.explain.clone())));
            }
            obj(kv)
        });
        fields.push(("questions", Json::Arr(questions.collect())));
    }
    obj(fields)
}
