//! Scenario ⇄ JSON, by hand, with the field path in every error.
//!
//! `decode` walks a parsed [`Json`] value and builds a [`Scenario`], refusing unknown
//! fields, wrong types and values that do not fit their integer type — each refusal names
//! the field (`clients[0].job[2].ms: expected a whole number, found a string`). Ranges and
//! cross-references are checked afterwards by `validate`. `encode` writes every field, so an
//! exported scenario documents itself.

use super::*;
use crate::vocab::ids::NodeId;
use crate::vocab::json::Json;

type R<T> = Result<T, ScenarioError>;

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The fields of one JSON object being decoded; remembers which keys were asked for so
/// that leftovers can be refused as unknown.
struct Fields<'a> {
    path: String,
    kv: &'a [(String, Json)],
    known: Vec<&'static str>,
}

fn fields<'a>(v: &'a Json, path: &str) -> R<Fields<'a>> {
    match v {
        Json::Obj(kv) => Ok(Fields {
            path: path.to_string(),
            kv,
            known: Vec::new(),
        }),
        other => Err(ScenarioError::new(
            path,
            format!("expected an object, found {}", other.kind()),
        )),
    }
}

fn int_of(v: &Json, path: &str) -> R<i128> {
    match v {
        Json::Int(n) => Ok(*n),
        other => Err(ScenarioError::new(
            path,
            format!("expected a whole number, found {}", other.kind()),
        )),
    }
}

fn fit<T: TryFrom<i128>>(n: i128, path: &str, what: &str) -> R<T> {
    T::try_from(n).map_err(|_| ScenarioError::new(path, format!("{n} does not fit {what}")))
}

impl<'a> Fields<'a> {
    fn at(&self, key: &str) -> String {
        join(&self.path, key)
    }

    fn take(&mut self, key: &'static str) -> Option<&'a Json> {
        self.known.push(key);
        self.kv
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .filter(|v| **v != Json::Null)
    }

    fn need(&mut self, key: &'static str) -> R<&'a Json> {
        let p = self.at(key);
        self.take(key)
            .ok_or_else(|| ScenarioError::new(&p, "missing field"))
    }

    fn i64_or(&mut self, key: &'static str, default: i64) -> R<i64> {
        match self.take(key) {
            Some(v) => fit(int_of(v, &self.at(key))?, &self.at(key), "a 64-bit integer"),
            None => Ok(default),
        }
    }

    fn i64(&mut self, key: &'static str) -> R<i64> {
        let v = self.need(key)?;
        fit(int_of(v, &self.at(key))?, &self.at(key), "a 64-bit integer")
    }

    fn opt_i64(&mut self, key: &'static str) -> R<Option<i64>> {
        match self.take(key) {
            Some(v) => Ok(Some(fit(
                int_of(v, &self.at(key))?,
                &self.at(key),
                "a 64-bit integer",
            )?)),
            None => Ok(None),
        }
    }

    fn u64(&mut self, key: &'static str, default: Option<u64>) -> R<u64> {
        match (self.take(key), default) {
            (Some(v), _) => fit(
                int_of(v, &self.at(key))?,
                &self.at(key),
                "an unsigned 64-bit integer",
            ),
            (None, Some(d)) => Ok(d),
            (None, None) => Err(ScenarioError::new(&self.at(key), "missing field")),
        }
    }

    fn u32_or(&mut self, key: &'static str, default: u32) -> R<u32> {
        match self.take(key) {
            Some(v) => fit(
                int_of(v, &self.at(key))?,
                &self.at(key),
                "an unsigned 32-bit integer",
            ),
            None => Ok(default),
        }
    }

    fn bool_or(&mut self, key: &'static str, default: bool) -> R<bool> {
        match self.take(key) {
            Some(Json::Bool(b)) => Ok(*b),
            Some(other) => Err(ScenarioError::new(
                &self.at(key),
                format!("expected true or false, found {}", other.kind()),
            )),
            None => Ok(default),
        }
    }

    fn string_or(&mut self, key: &'static str, default: &str) -> R<String> {
        match self.take(key) {
            Some(Json::Str(s)) => Ok(s.clone()),
            Some(other) => Err(ScenarioError::new(
                &self.at(key),
                format!("expected a string, found {}", other.kind()),
            )),
            None => Ok(default.to_string()),
        }
    }

    fn string(&mut self, key: &'static str) -> R<String> {
        match self.need(key)? {
            Json::Str(s) => Ok(s.clone()),
            other => Err(ScenarioError::new(
                &self.at(key),
                format!("expected a string, found {}", other.kind()),
            )),
        }
    }

    fn opt_string(&mut self, key: &'static str) -> R<Option<String>> {
        match self.take(key) {
            Some(_) => self.string(key).map(Some),
            None => Ok(None),
        }
    }

    /// One of a fixed set of words.
    fn word<T: Copy>(
        &mut self,
        key: &'static str,
        table: &[(&str, T)],
        default: Option<T>,
    ) -> R<T> {
        self.parsed(
            key,
            default,
            |s| table.iter().find(|(w, _)| *w == s).map(|(_, t)| *t),
            || {
                let words: Vec<&str> = table.iter().map(|(w, _)| *w).collect();
                words.join(", ")
            },
        )
    }

    /// A word that `parse` reads; `expected` lists the words for the error.
    fn parsed<T>(
        &mut self,
        key: &'static str,
        default: Option<T>,
        parse: impl FnOnce(&str) -> Option<T>,
        expected: impl FnOnce() -> String,
    ) -> R<T> {
        let p = self.at(key);
        let Some(v) = self.take(key) else {
            return default.ok_or_else(|| ScenarioError::new(&p, "missing field"));
        };
        let Json::Str(s) = v else {
            return Err(ScenarioError::new(
                &p,
                format!("expected a string, found {}", v.kind()),
            ));
        };
        parse(s).ok_or_else(|| {
            ScenarioError::new(
                &p,
                format!("unknown value \"{s}\" (expected one of: {})", expected()),
            )
        })
    }

    fn flavor(&mut self) -> R<Flavor> {
        let p = self.at("flavor");
        match self.take("flavor") {
            None => Ok(Flavor::Generic),
            Some(Json::Str(s)) => Flavor::parse(s).ok_or_else(|| {
                ScenarioError::new(
                    &p,
                    format!(
                        "unknown flavor \"{s}\" (expected one of {})",
                        Flavor::names()
                    ),
                )
            }),
            Some(other) => Err(ScenarioError::new(
                &p,
                format!("expected a string, found {}", other.kind()),
            )),
        }
    }

    /// A node, or nothing when the field is absent.
    fn opt_node(&mut self, key: &'static str) -> R<Option<NodeId>> {
        match self.kv.iter().any(|(k, v)| k == key && *v != Json::Null) {
            true => self.node(key).map(Some),
            false => {
                self.known.push(key);
                Ok(None)
            }
        }
    }

    fn node(&mut self, key: &'static str) -> R<NodeId> {
        let p = self.at(key);
        match self.need(key)? {
            Json::Str(s) => NodeId::parse(s).ok_or_else(|| {
                ScenarioError::new(
                    &p,
                    format!(
                        "unknown node \"{s}\" (expected c1..c8, coord, coord2..coord5 or storage)"
                    ),
                )
            }),
            other => Err(ScenarioError::new(
                &p,
                format!("expected a node name, found {}", other.kind()),
            )),
        }
    }

    fn obj<T>(
        &mut self,
        key: &'static str,
        f: impl FnOnce(&Json, &str) -> R<T>,
        default: impl FnOnce() -> T,
    ) -> R<T> {
        let p = self.at(key);
        match self.take(key) {
            Some(v) => f(v, &p),
            None => Ok(default()),
        }
    }

    fn list<T>(
        &mut self,
        key: &'static str,
        required: bool,
        limit: usize,
        f: impl Fn(&Json, &str) -> R<T>,
    ) -> R<Vec<T>> {
        let p = self.at(key);
        let items = match self.take(key) {
            Some(Json::Arr(a)) => a,
            Some(other) => {
                return Err(ScenarioError::new(
                    &p,
                    format!("expected an array, found {}", other.kind()),
                ))
            }
            None if required => return Err(ScenarioError::new(&p, "missing field")),
            None => return Ok(Vec::new()),
        };
        if items.len() > limit {
            return Err(ScenarioError::new(
                &p,
                format!("{} items; the limit is {limit}", items.len()),
            ));
        }
        items
            .iter()
            .enumerate()
            .map(|(i, v)| f(v, &format!("{p}[{i}]")))
            .collect()
    }

    /// Refuses any key that no decoder asked for.
    fn finish(self) -> R<()> {
        match self
            .kv
            .iter()
            .find(|(k, _)| !self.known.contains(&k.as_str()))
        {
            Some((k, _)) => Err(ScenarioError::new(
                &join(&self.path, if k.is_empty() { "\"\"" } else { k }),
                format!("unknown field (expected one of: {})", self.known.join(", ")),
            )),
            None => Ok(()),
        }
    }
}

const MARK_SCOPE: &[(&str, MarkScope)] =
    &[("key", MarkScope::Key), ("resource", MarkScope::Resource)];
/// The most resources and keys per resource a scenario may declare.
const MAX_RESOURCES: usize = 8;
const MAX_RESOURCE_KEYS: usize = 16;

/// One of `storage.resources`: `{ "name": …, "keys": [ … ] }`.
fn resource(v: &Json, p: &str) -> R<ResourceSpec> {
    let mut f = fields(v, p)?;
    let r = ResourceSpec {
        name: f.string("name")?,
        keys: f.list("keys", true, MAX_RESOURCE_KEYS, |v, p| match v {
            Json::Str(s) => Ok(s.clone()),
            other => Err(ScenarioError::new(
                p,
                format!("expected a string, found {}", other.kind()),
            )),
        })?,
    };
    f.finish()?;
    Ok(r)
}

const DURABILITY: &[(&str, Durability)] = &[
    ("durable", Durability::Durable),
    ("memory", Durability::Memory),
];
const INVALIDATION: &[(&str, Invalidation)] = &[
    ("random", Invalidation::Random),
    ("earliest", Invalidation::Earliest),
    ("latest", Invalidation::Latest),
];
const WAITERS: &[(&str, Waiters)] = &[("queue", Waiters::Queue), ("retry", Waiters::Retry)];
const COUNT_FROM: &[(&str, CountFrom)] =
    &[("request", CountFrom::Request), ("grant", CountFrom::Grant)];
const ON_LOSS: &[(&str, LossPolicy)] = &[
    ("continue", LossPolicy::Continue),
    ("abort", LossPolicy::Abort),
    ("reacquire", LossPolicy::Reacquire),
];
const FENCE_WITH: &[(&str, FenceWith)] = &[
    ("token", FenceWith::Token),
    ("owner_id", FenceWith::OwnerId),
];
const FAIL: &[(&str, FailMode)] = &[("open", FailMode::Open), ("closed", FailMode::Closed)];
/// The pause causes' words, from their one table (`vocab::names`).
const PAUSE_CAUSES: &[(&str, PauseCause)] = &PauseCause::WORDS;

/// The words of the events a fault may follow, from their one table (`anchor`).
const ANCHORS: &[(&str, AnchorEvent)] = &AnchorEvent::WORDS;

/// A fault's kind without its fields: what the word in `"fault"` names.
#[derive(Clone, Copy, PartialEq)]
enum FaultWord {
    Pause,
    Partition,
    Heal,
    Delay,
    ClockJump,
    Restart,
    FailRenewals,
    Failover,
    FalsePositive,
}

/// The fault words, read by the decoder and written by the encoder.
const FAULTS: &[(&str, FaultWord)] = &[
    ("pause", FaultWord::Pause),
    ("partition", FaultWord::Partition),
    ("heal", FaultWord::Heal),
    ("delay", FaultWord::Delay),
    ("clock_jump", FaultWord::ClockJump),
    ("restart", FaultWord::Restart),
    ("fail_renewals", FaultWord::FailRenewals),
    ("failover", FaultWord::Failover),
    ("false_positive", FaultWord::FalsePositive),
];

impl FaultWord {
    fn of(k: &FaultKind) -> FaultWord {
        match k {
            FaultKind::Pause { .. } => FaultWord::Pause,
            FaultKind::Partition { .. } => FaultWord::Partition,
            FaultKind::Heal { .. } => FaultWord::Heal,
            FaultKind::Delay { .. } => FaultWord::Delay,
            FaultKind::ClockJump { .. } => FaultWord::ClockJump,
            FaultKind::Restart { .. } => FaultWord::Restart,
            FaultKind::FailRenewals { .. } => FaultWord::FailRenewals,
            FaultKind::Failover { .. } => FaultWord::Failover,
            FaultKind::FalsePositive { .. } => FaultWord::FalsePositive,
        }
    }
}

fn word_of<T: Copy + PartialEq>(table: &[(&'static str, T)], t: T) -> Json {
    Json::Str(
        table
            .iter()
            .find(|(_, x)| *x == t)
            .map_or("", |(w, _)| *w)
            .to_string(),
    )
}

fn clock(v: &Json, p: &str) -> R<ClockSpec> {
    let mut f = fields(v, p)?;
    let c = ClockSpec {
        offset_ms: f.i64_or("offset_ms", 0)?,
        drift_ppm: f.i64_or("drift_ppm", 0)?,
        monotonic: f.bool_or("monotonic", false)?,
    };
    f.finish()?;
    Ok(c)
}

fn link(v: &Json, p: &str) -> R<LinkSpec> {
    let d = LinkSpec::default();
    let mut f = fields(v, p)?;
    let l = LinkSpec {
        min_delay_ms: f.i64_or("min_delay_ms", d.min_delay_ms)?,
        max_delay_ms: f.i64_or("max_delay_ms", d.max_delay_ms)?,
        loss_pct: f.u32_or("loss_pct", 0)?,
    };
    f.finish()?;
    Ok(l)
}

fn step(v: &Json, p: &str) -> R<Step> {
    let mut f = fields(v, p)?;
    let op = f.word(
        "op",
        &[
            ("acquire", 0u8),
            ("work", 1),
            ("check", 2),
            ("write", 3),
            ("effect", 4),
            ("release", 5),
            ("renew", 6),
            ("read", 7),
            ("update", 8),
        ],
        None,
    )?;
    let s = match op {
        0 => Step::Acquire,
        1 => Step::Work { ms: f.i64("ms")? },
        2 => Step::Check,
        3 => Step::Write {
            key: f.string("key")?,
            value: f.string("value")?,
        },
        4 => Step::Effect {
            name: f.string("name")?,
            idempotency_key: f.opt_string("idempotency_key")?,
        },
        5 => Step::Release,
        6 => Step::Renew,
        7 => Step::Read {
            key: f.string("key")?,
        },
        _ => Step::Update {
            key: f.string("key")?,
            value: f.string("value")?,
            if_unchanged: f.bool_or("if_unchanged", false)?,
        },
    };
    f.finish()?;
    Ok(s)
}

fn client(v: &Json, p: &str) -> R<ClientSpec> {
    let mut f = fields(v, p)?;
    let rd = RetrySpec::default();
    let c = ClientSpec {
        start_ms: f.i64_or("start_ms", 0)?,
        clock: f.obj("clock", clock, ClockSpec::default)?,
        ttl_ms: f.i64("ttl_ms")?,
        margin_ms: f.i64_or("margin_ms", 0)?,
        count_from: f.word("count_from", COUNT_FROM, Some(CountFrom::Request))?,
        renew_every_ms: f.opt_i64("renew_every_ms")?,
        on_loss: f.word("on_loss", ON_LOSS, Some(LossPolicy::Abort))?,
        check_before_write: f.bool_or("check_before_write", false)?,
        fence_with: f.word("fence_with", FENCE_WITH, Some(FenceWith::Token))?,
        retry: f.obj(
            "retry",
            |v, p| {
                let mut r = fields(v, p)?;
                let s = RetrySpec {
                    interval_ms: r.i64_or("interval_ms", rd.interval_ms)?,
                    jitter_ms: r.i64_or("jitter_ms", rd.jitter_ms)?,
                    max_attempts: r.u32_or("max_attempts", rd.max_attempts)?,
                };
                r.finish()?;
                Ok(s)
            },
            RetrySpec::default,
        )?,
        timeout_ms: f.i64_or("timeout_ms", 1_000)?,
        unreachable: f.word("unreachable", FAIL, Some(FailMode::Closed))?,
        job: f.list("job", true, LIMITS.max_steps, step)?,
    };
    f.finish()?;
    Ok(c)
}

fn authored_beat(v: &Json, p: &str) -> R<AuthoredBeat> {
    let mut f = fields(v, p)?;
    let b = AuthoredBeat {
        at_ms: f.i64("at_ms")?,
        text: f.string("text")?,
        highlight: f.opt_node("highlight")?,
    };
    f.finish()?;
    Ok(b)
}

fn authored_question(v: &Json, p: &str) -> R<AuthoredQuestion> {
    let mut f = fields(v, p)?;
    let outcomes: Vec<(&str, Outcome)> = Outcome::words().collect();
    let q = AuthoredQuestion {
        at_ms: f.i64("at_ms")?,
        prompt: f.string("prompt")?,
        choices: f.list("choices", true, LIMITS.max_choices, |v, p| {
            let mut c = fields(v, p)?;
            let choice = AuthoredChoice {
                text: c.string("text")?,
                outcome: c.word("outcome", &outcomes, None)?,
            };
            c.finish()?;
            Ok(choice)
        })?,
        explain: f.string_or("explain", "")?,
    };
    f.finish()?;
    Ok(q)
}

fn fault(v: &Json, p: &str) -> R<Fault> {
    let mut f = fields(v, p)?;
    let at_ms = f.i64("at_ms")?;
    let which = f.word("fault", FAULTS, None)?;
    let kind = match which {
        FaultWord::Pause => FaultKind::Pause {
            node: f.node("node")?,
            for_ms: f.i64("for_ms")?,
            cause: f.word("cause", PAUSE_CAUSES, Some(PauseCause::Gc))?,
        },
        FaultWord::Partition => FaultKind::Partition {
            a: f.node("a")?,
            b: f.node("b")?,
        },
        FaultWord::Heal => FaultKind::Heal {
            a: f.node("a")?,
            b: f.node("b")?,
        },
        FaultWord::Delay => FaultKind::Delay {
            from: f.node("from")?,
            to: f.node("to")?,
            extra_ms: f.i64("extra_ms")?,
        },
        FaultWord::ClockJump => FaultKind::ClockJump {
            node: f.node("node")?,
            by_ms: f.i64("by_ms")?,
        },
        FaultWord::Restart => FaultKind::Restart {
            node: f.node("node")?,
            down_ms: f.i64_or("down_ms", 0)?,
        },
        FaultWord::FailRenewals => FaultKind::FailRenewals {
            for_ms: f.i64("for_ms")?,
        },
        FaultWord::Failover => FaultKind::Failover {
            node: match f.take("node") {
                Some(_) => f.node("node")?,
                None => NodeId::COORD,
            },
            down_ms: f.i64_or("down_ms", 0)?,
        },
        FaultWord::FalsePositive => FaultKind::FalsePositive {
            node: f.node("node")?,
        },
    };
    let after = match f.take("after") {
        None => None,
        Some(_) => Some(Anchor {
            event: f.word("after", ANCHORS, None)?,
            client: f.node("client")?,
            nth: f.u32_or("nth", 1)?,
        }),
    };
    f.finish()?;
    Ok(Fault { at_ms, kind, after })
}

/// Builds a scenario from parsed JSON. Types and field names only; see `validate`.
pub fn decode(v: &Json) -> R<Scenario> {
    let mut f = fields(v, "")?;
    let cd = CoordinatorSpec::default();
    let sd = StorageSpec::default();
    let sc = Scenario {
        version: {
            let v = f.need("version")?;
            fit(
                int_of(v, "version")?,
                "version",
                "an unsigned 32-bit integer",
            )?
        },
        name: f.string_or("name", "")?,
        description: f.string_or("description", "")?,
        seed: f.u64("seed", None)?,
        horizon_ms: f.i64("horizon_ms")?,
        max_events: f.u32_or("max_events", 100_000)?,
        coordinator: f.obj(
            "coordinator",
            |v, p| {
                let mut c = fields(v, p)?;
                let s = CoordinatorSpec {
                    first_token: c.u64("first_token", Some(cd.first_token))?,
                    counter: c.word("counter", DURABILITY, Some(cd.counter))?,
                    waiters: c.word("waiters", WAITERS, Some(cd.waiters))?,
                    clock: c.obj("clock", clock, ClockSpec::default)?,
                    flavor: c.flavor()?,
                    clocks: c.list(
                        "clocks",
                        false,
                        usize::from(crate::vocab::ids::MAX_COORDS),
                        clock,
                    )?,
                    lock_delay_ms: c.opt_i64("lock_delay_ms")?,
                    grace_ms: c.i64_or("grace_ms", cd.grace_ms)?,
                    replica_lag_ms: c.i64_or("replica_lag_ms", cd.replica_lag_ms)?,
                    tick_ms: c.i64_or("tick_ms", cd.tick_ms)?,
                    restart_delay_ms: c.i64_or("restart_delay_ms", 0)?,
                    stop_on_disconnect: c.bool_or("stop_on_disconnect", false)?,
                    invalidation: c.word("invalidation", INVALIDATION, Some(cd.invalidation))?,
                    health_checks: c.bool_or("health_checks", cd.health_checks)?,
                };
                c.finish()?;
                Ok(s)
            },
            CoordinatorSpec::default,
        )?,
        storage: f.obj(
            "storage",
            |v, p| {
                let mut c = fields(v, p)?;
                let s = StorageSpec {
                    fence: c.parsed("fence", Some(sd.fence), FenceMode::parse, FenceMode::names)?,
                    mark: c.word("mark", DURABILITY, Some(sd.mark))?,
                    check_gap_ms: c.i64_or("check_gap_ms", 0)?,
                    idempotency: c.bool_or("idempotency", false)?,
                    unfenced_keys: c.list("unfenced_keys", false, 16, |v, p| match v {
                        Json::Str(s) => Ok(s.clone()),
                        other => Err(ScenarioError::new(
                            p,
                            format!("expected a string, found {}", other.kind()),
                        )),
                    })?,
                    clock: c.obj("clock", clock, ClockSpec::default)?,
                    resources: c.list("resources", false, MAX_RESOURCES, resource)?,
                    mark_per: c.word("mark_per", MARK_SCOPE, Some(sd.mark_per))?,
                };
                c.finish()?;
                Ok(s)
            },
            StorageSpec::default,
        )?,
        network: f.obj(
            "network",
            |v, p| {
                let mut n = fields(v, p)?;
                let s = NetworkSpec {
                    default: n.obj("default", link, LinkSpec::default)?,
                    links: n.list("links", false, LIMITS.max_links, |v, p| {
                        let mut l = fields(v, p)?;
                        let o = LinkOverride {
                            from: l.node("from")?,
                            to: l.node("to")?,
                            min_delay_ms: l.i64("min_delay_ms")?,
                            max_delay_ms: l.i64("max_delay_ms")?,
                            loss_pct: l.u32_or("loss_pct", 0)?,
                        };
                        l.finish()?;
                        Ok(o)
                    })?,
                };
                n.finish()?;
                Ok(s)
            },
            NetworkSpec::default,
        )?,
        clients: f.list("clients", true, usize::from(LIMITS.max_clients), client)?,
        faults: f.list("faults", false, LIMITS.max_faults, fault)?,
        walkthrough: f.list("walkthrough", false, LIMITS.max_beats, authored_beat)?,
        questions: f.list("questions", false, LIMITS.max_questions, authored_question)?,
    };
    f.finish()?;
    Ok(sc)
}

fn int(n: i64) -> Json {
    Json::Int(i128::from(n))
}

fn obj(kv: Vec<(&str, Json)>) -> Json {
    Json::Obj(kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

fn node(n: NodeId) -> Json {
    Json::Str(n.to_string())
}

fn clock_json(c: &ClockSpec) -> Json {
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
fn resource_fields(s: &StorageSpec) -> Vec<(&'static str, Json)> {
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

fn flavor_fields(c: &CoordinatorSpec) -> Vec<(&'static str, Json)> {
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
            ("fault", word_of(FAULTS, FaultWord::of(&f.kind))),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::teach::presets::preset;

    /// A beat's highlight names a node the scenario has, or is refused at its field.
    #[test]
    fn a_beats_highlight_is_a_node_of_the_scenario() {
        let mut sc = preset("gc-pause").unwrap().scenario();
        sc.walkthrough = vec![AuthoredBeat {
            at_ms: 0,
            text: "Watch storage.".into(),
            highlight: Some(NodeId::Storage),
        }];
        let text = sc.to_json_pretty();
        assert_eq!(Scenario::from_json(&text).unwrap(), sc);
        let to = |w: &str| text.replace("\"highlight\": \"storage\"", w);
        assert!(Scenario::from_json(&to("\"highlight\": \"c9\""))
            .unwrap_err()
            .to_string()
            .starts_with("walkthrough[0].highlight: unknown node \"c9\""));
        assert!(Scenario::from_json(&to("\"highlight\": \"c3\""))
            .unwrap_err()
            .to_string()
            .starts_with("walkthrough[0].highlight:"));
        assert_eq!(
            Scenario::from_json(&to("\"highlight\": null"))
                .unwrap()
                .walkthrough[0]
                .highlight,
            None
        );
    }

    /// An author's questions round-trip through the JSON, and each bad one is refused with
    /// the field that is wrong named.
    #[test]
    fn authored_questions_round_trip_and_bad_ones_name_their_field() {
        let mut sc = preset("gc-pause").unwrap().scenario();
        let choice = |text: &str, outcome| AuthoredChoice {
            text: text.into(),
            outcome,
        };
        sc.questions = vec![AuthoredQuestion {
            at_ms: 20_000,
            prompt: "Who writes last?".into(),
            choices: vec![
                choice("Client 1, and it lands", Outcome::WriteAccepted),
                choice("Nobody: they overlap", Outcome::TwoBelievers),
            ],
            explain: String::new(),
        }];
        let text = sc.to_json_pretty();
        assert!(
            !text.contains("explain"),
            "an empty explanation is not written"
        );
        assert_eq!(Scenario::from_json(&text).unwrap(), sc);
        let refused = |from: &str, to: &str| {
            assert!(text.contains(from), "{from}");
            Scenario::from_json(&text.replacen(from, to, 1))
                .unwrap_err()
                .to_string()
        };
        assert!(refused("\"two_believers\"", "\"nobody\"")
            .starts_with("questions[0].choices[1].outcome:"));
        assert!(refused("\"two_believers\"", "\"write_accepted\"")
            .starts_with("questions[0].choices[1].outcome: \"write_accepted\" is an earlier"));
        assert_eq!(
            refused("\"Who writes last?\"", "\" \""),
            "questions[0].prompt: empty: write what it says"
        );
        assert_eq!(
            refused("\"at_ms\": 20000", "\"at_ms\": 99999999"),
            "questions[0].at_ms: later than the horizon"
        );
        let mut one = sc.clone();
        one.questions[0].choices.pop();
        assert_eq!(
            one.validate().unwrap_err().to_string(),
            "questions[0].choices: 1 choices; a question offers 2 to 4"
        );
    }

    #[test]
    fn every_fault_word_is_written_and_read_back() {
        let c1 = NodeId::parse("c1").unwrap();
        let kinds = [
            FaultKind::Pause {
                node: c1,
                for_ms: 1,
                cause: PauseCause::VmMigration,
            },
            FaultKind::Partition {
                a: c1,
                b: NodeId::COORD,
            },
            FaultKind::Heal {
                a: c1,
                b: NodeId::COORD,
            },
            FaultKind::Delay {
                from: c1,
                to: NodeId::COORD,
                extra_ms: 1,
            },
            FaultKind::ClockJump { node: c1, by_ms: 1 },
            FaultKind::Restart {
                node: NodeId::COORD,
                down_ms: 1,
            },
            FaultKind::FailRenewals { for_ms: 1 },
            FaultKind::Failover {
                node: NodeId::COORD,
                down_ms: 1,
            },
            FaultKind::FalsePositive { node: c1 },
        ];
        assert_eq!(kinds.len(), FAULTS.len());
        let mut sc = preset("gc-pause").unwrap().scenario();
        sc.faults = kinds
            .iter()
            .map(|k| Fault {
                after: None,
                at_ms: 1,
                kind: k.clone(),
            })
            .collect();
        let Json::Obj(doc) = encode(&sc) else {
            panic!("an object")
        };
        let Some((_, Json::Arr(faults))) = doc.iter().find(|(k, _)| k == "faults") else {
            panic!("a fault list")
        };
        for ((w, _), f) in FAULTS.iter().zip(faults) {
            let Json::Obj(kv) = f else {
                panic!("an object")
            };
            assert!(
                kv.contains(&("fault".to_string(), Json::Str(w.to_string()))),
                "{w}"
            );
        }
        for (a, b) in faults.iter().zip(&sc.faults) {
            assert_eq!(&fault(a, "f").unwrap(), b);
        }
    }

    /// A pause's cause: absent reads as a GC pause (every file and link from before causes
    /// existed), a GC pause is written without one (so those files and links are written
    /// as they were), every other cause is written and read back, and an unknown word is
    /// refused naming its field.
    /// Sessions are tied to health checks unless a scenario says otherwise: the default is
    /// never written (so every file and link from before the field reads the same), `false`
    /// is written and read back, and anything but a boolean is refused naming the field.
    #[test]
    fn health_checks_default_on_round_trip_off_and_refuse_a_non_boolean() {
        let sc = crate::teach::presets::PRESETS[1].scenario();
        assert!(sc.coordinator.health_checks);
        let text = sc.to_json_pretty();
        assert!(
            !text.contains("health_checks"),
            "the default is not written"
        );
        let mut off = sc.clone();
        off.coordinator.health_checks = false;
        let written = off.to_json_pretty();
        assert!(written.contains("\"health_checks\": false"), "{written}");
        assert_eq!(Scenario::from_json(&written).unwrap(), off);
        let bad = written.replace("\"health_checks\": false", "\"health_checks\": \"no\"");
        let e = Scenario::from_json(&bad).unwrap_err().to_string();
        assert!(e.starts_with("coordinator.health_checks"), "{e}");
    }

    #[test]
    fn a_pause_cause_defaults_to_gc_and_an_unknown_one_is_refused_by_name() {
        let sc = crate::teach::presets::PRESETS[1].scenario();
        assert!(matches!(
            sc.faults[0].kind,
            FaultKind::Pause {
                cause: PauseCause::Gc,
                ..
            }
        ));
        let text = sc.to_json_pretty();
        assert!(!text.contains("\"cause\""), "a GC pause writes no cause");
        for cause in PauseCause::ALL {
            let mut one = sc.clone();
            if let FaultKind::Pause { cause: c, .. } = &mut one.faults[0].kind {
                *c = cause;
            }
            let text = one.to_json_pretty();
            assert_eq!(
                text.contains(&format!("\"cause\": \"{}\"", cause.name())),
                cause != PauseCause::Gc,
                "{text}"
            );
            assert_eq!(Scenario::from_json(&text).unwrap(), one);
            assert_eq!(PauseCause::parse(cause.name()), Some(cause));
        }
        let bad = text.replacen(
            "\"for_ms\": 40000",
            "\"for_ms\": 40000, \"cause\": \"gremlins\"",
            1,
        );
        assert_ne!(bad, text);
        let e = Scenario::from_json(&bad).unwrap_err().to_string();
        assert!(e.starts_with("faults[0].cause"), "{e}");
        assert!(e.contains("vm_migration") && e.contains("gremlins"), "{e}");
    }

    /// A job's own renewal reads and writes as `{"op": "renew"}`; a field it does not
    /// have, or a Redlock lock (whose lease the model never extends), is refused at the
    /// step; a scenario without one writes exactly as before.
    #[test]
    fn a_renew_step_round_trips_and_bad_ones_name_their_field() {
        let mut sc = preset("gc-pause").unwrap().scenario();
        let before = sc.to_json_pretty();
        assert!(!before.contains("\"renew\""));
        sc.clients[0].job.insert(2, Step::Renew);
        let text = sc.to_json_pretty();
        assert!(text.contains("\"op\": \"renew\""), "{text}");
        assert_eq!(Scenario::from_json(&text).unwrap(), sc);
        let extra = text.replacen("\"op\": \"renew\"", "\"op\": \"renew\", \"ms\": 5", 1);
        let e = Scenario::from_json(&extra).unwrap_err();
        assert_eq!(e.path, "clients[0].job[2].ms", "{e}");
        sc.coordinator.flavor = crate::model::flavors::Flavor::Redlock;
        sc.storage.fence = crate::model::scenario::FenceMode::None;
        let e = sc.validate().unwrap_err();
        assert_eq!(e.path, "clients[0].job[2].op", "{e}");
        assert!(e.to_string().contains("cannot renew"), "{e}");
    }
}
