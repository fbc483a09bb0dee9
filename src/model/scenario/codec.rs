//! Scenario ⇄ JSON, by hand, with the field path in every error.
//!
//! `decode` walks a parsed [`Json`] value and builds a [`Scenario`], refusing unknown
//! fields, wrong types and values that do not fit their integer type — each refusal names
//! the field (`clients[0].job[2].ms: expected a whole number, found a string`). Ranges and
//! cross-references are checked afterwards by `validate`. `encode` writes every field, so an
//! exported scenario documents itself.

mod encode;
pub use encode::encode;

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

/// The fault words, from their one table (`kind`).
const FAULTS: &[(&str, Kind)] = &Kind::WORDS;

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

pub(super) fn fault(v: &Json, p: &str) -> R<Fault> {
    let mut f = fields(v, p)?;
    let at_ms = f.i64("at_ms")?;
    let which = f.word("fault", FAULTS, None)?;
    let kind = match which {
        Kind::Pause => FaultKind::Pause {
            node: f.node("node")?,
            for_ms: f.i64("for_ms")?,
            cause: f.word("cause", PAUSE_CAUSES, Some(PauseCause::Gc))?,
        },
        Kind::Partition => FaultKind::Partition {
            a: f.node("a")?,
            b: f.node("b")?,
        },
        Kind::Heal => FaultKind::Heal {
            a: f.node("a")?,
            b: f.node("b")?,
        },
        Kind::Delay => FaultKind::Delay {
            from: f.node("from")?,
            to: f.node("to")?,
            extra_ms: f.i64("extra_ms")?,
        },
        Kind::ClockJump => FaultKind::ClockJump {
            node: f.node("node")?,
            by_ms: f.i64("by_ms")?,
        },
        Kind::Restart => FaultKind::Restart {
            node: f.node("node")?,
            down_ms: f.i64_or("down_ms", 0)?,
        },
        Kind::FailRenewals => FaultKind::FailRenewals {
            for_ms: f.i64("for_ms")?,
        },
        Kind::Failover => FaultKind::Failover {
            node: match f.take("node") {
                Some(_) => f.node("node")?,
                None => NodeId::COORD,
            },
            down_ms: f.i64_or("down_ms", 0)?,
        },
        Kind::FalsePositive => FaultKind::FalsePositive {
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
