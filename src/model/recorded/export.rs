//! The model's run written in the recorded format, so it can be stored beside a real run
//! and read back by the same reader.
//!
//! Only the events the format has are written: jobs, requests sent, beliefs (a client's
//! `BeliefStarted` is its `granted`), the lock service's expiries, pauses, cuts, storage's
//! answers and effects. The model's inner workings (receipts, timers, lease checks) have no
//! recorded equivalent and are left out; reading an export back gives the run's verdict
//! classes unchanged (`tests/it/recorded.rs`). Times are the model's ms × 1000.

use super::{MAX_TTL_MS, VERSION};
use crate::model::msg::{Msg, RejectReason};
use crate::model::trace::{AbortWhy, Event, LossHow, Trace};
use crate::vocab::ids::NodeId;
use crate::vocab::json::{write_compact, Json};

/// The node's name in an export: its lane title ("Client 1", "Lock service", "Storage").
fn name(n: NodeId) -> Json {
    Json::Str(n.lane().to_string())
}

fn role(n: NodeId) -> &'static str {
    match n {
        NodeId::Client(_) => "client",
        NodeId::Coord(_) => "lock service",
        NodeId::Storage => "storage",
    }
}

fn text(s: &str) -> Json {
    Json::Str(s.to_string())
}

/// Writes `trace` in the recorded format: a header (`"source":"model"`, `scenario` and
/// `service` as given) and one line per event the format has.
pub fn export(trace: &Trace, scenario: Option<&str>, service: &str) -> String {
    let mut out = String::new();
    let mut h = vec![("leaseline_trace".to_string(), Json::Int(VERSION))];
    if let Some(s) = scenario {
        h.push(("scenario".into(), text(s)));
    }
    h.push(("service".into(), text(service)));
    h.push(("source".into(), text("model")));
    let nodes = trace
        .nodes
        .iter()
        .map(|(n, _)| {
            Json::Obj(vec![
                ("name".into(), name(*n)),
                ("role".into(), text(role(*n))),
            ])
        })
        .collect();
    h.push(("nodes".into(), Json::Arr(nodes)));
    // What the lock protects, where the run declared a resource of several keys.
    let resources: Vec<Json> = trace
        .entries
        .iter()
        .filter_map(|e| match &e.event {
            Event::ResourceDeclared { resource, keys, .. } => Some(Json::Obj(vec![
                ("name".into(), text(resource)),
                (
                    "keys".into(),
                    Json::Arr(keys.iter().map(|k| text(k)).collect()),
                ),
            ])),
            _ => None,
        })
        .collect();
    if !resources.is_empty() {
        h.push(("resources".into(), Json::Arr(resources)));
    }
    write_compact(&mut out, &Json::Obj(h));
    out.push('\n');
    for e in &trace.entries {
        let Some((event, fields)) = line(&e.event, e.node, e.local) else {
            continue;
        };
        let mut kv = vec![
            ("t_us".to_string(), Json::Int(i128::from(e.t.0) * 1000)),
            ("node".into(), name(e.node)),
        ];
        if e.local != e.t.0 {
            kv.push(("local_us".into(), Json::Int(i128::from(e.local) * 1000)));
        }
        kv.push(("event".into(), text(event)));
        kv.extend(fields.into_iter().map(|(k, v)| (k.to_string(), v)));
        write_compact(&mut out, &Json::Obj(kv));
        out.push('\n');
    }
    out
}

type Fields = Vec<(&'static str, Json)>;

fn token(t: Option<u64>) -> Option<(&'static str, Json)> {
    t.filter(|t| *t != 0)
        .map(|t| ("token", Json::Int(i128::from(t))))
}

/// The TTL a belief starting at `local` until `deadline` amounts to, within the format's
/// range (a deadline already past is 0).
fn ttl(deadline: i64, local: i64) -> Json {
    Json::Int(i128::from(
        deadline.saturating_sub(local).clamp(0, MAX_TTL_MS),
    ))
}

/// The recorded event of a model event on `node`, if the format has one.
fn line(e: &Event, node: NodeId, local: i64) -> Option<(&'static str, Fields)> {
    let client = |c: NodeId| ("client", name(c));
    Some(match e {
        Event::JobStarted => ("job_started", vec![]),
        Event::JobFinished => ("job_finished", vec![]),
        Event::JobAborted {
            why: AbortWhy::Refused { times },
        } => (
            "job_aborted",
            vec![
                ("reason", text("refused")),
                ("refusals", Json::Int(i128::from(*times))),
            ],
        ),
        Event::JobAborted { why } => (
            "job_aborted",
            vec![(
                "reason",
                text(match why {
                    AbortWhy::LostLease => "lost_lease",
                    AbortWhy::CoordinatorUnreachable => "lock_service_unreachable",
                    AbortWhy::Refused { .. } => "refused",
                    AbortWhy::StorageUnreachable => "storage_unreachable",
                    AbortWhy::VersionConflicts { .. } => "version_conflicts",
                }),
            )],
        ),
        Event::Sent { msg, .. } if node.is_client() => match msg {
            Msg::Acquire { .. } => ("acquire_sent", vec![]),
            Msg::Renew { .. } => ("renew_sent", vec![]),
            Msg::Release { .. } => ("release_sent", vec![]),
            Msg::Write {
                key,
                value,
                token: t,
                ..
            } => {
                let mut f = vec![("key", text(key)), ("value", text(value))];
                f.extend(token(*t));
                ("write_sent", f)
            }
            _ => return None,
        },
        Event::BeliefStarted {
            token: t,
            deadline_local,
            ..
        } => {
            let mut f: Fields = token(Some(*t)).into_iter().collect();
            f.push(("ttl_ms", ttl(*deadline_local, local)));
            ("granted", f)
        }
        Event::DeadlineExtended { deadline_local, .. } => {
            ("renewed", vec![("ttl_ms", ttl(*deadline_local, local))])
        }
        Event::BeliefEnded {
            how: LossHow::Released,
            ..
        } => ("released", vec![]),
        Event::BeliefEnded { .. } => ("expiry_observed", vec![]),
        Event::LeaseExpired {
            client: c,
            token: t,
            ..
        } => {
            let mut f = vec![client(*c)];
            f.extend(token(Some(*t)));
            ("lease_expired", f)
        }
        Event::Paused { .. } => ("pause_began", vec![]),
        Event::Resumed => ("pause_ended", vec![]),
        Event::LinkCut { peer } => ("link_cut", vec![("peer", name(*peer))]),
        Event::LinkHealed { peer } => ("link_healed", vec![("peer", name(*peer))]),
        Event::WriteAccepted {
            client: c,
            key,
            value,
            token: t,
            ..
        } => {
            let mut f = vec![client(*c), ("key", text(key)), ("value", text(value))];
            f.extend(token(*t));
            ("write_accepted", f)
        }
        Event::WriteRejected {
            client: c,
            key,
            reason,
            ..
        } => {
            let mut f = vec![client(*c), ("key", text(key))];
            let int = |v: u64| Json::Int(i128::from(v));
            match reason {
                RejectReason::Lower { token, mark } => f.extend([
                    ("reason", text("stale_token")),
                    ("token", int(*token)),
                    ("mark", int(*mark)),
                ]),
                RejectReason::NotAbove { token, mark } => f.extend([
                    ("reason", text("not_above")),
                    ("token", int(*token)),
                    ("mark", int(*mark)),
                ]),
                RejectReason::NotCurrent { token, current } => {
                    f.extend([
                        ("reason", text("revision_mismatch")),
                        ("token", int(*token)),
                    ]);
                    f.extend(current.map(|c| ("current", int(c))));
                }
                RejectReason::NoToken => f.push(("reason", text("no_token"))),
                RejectReason::VersionChanged { read, now } => f.extend([
                    ("reason", text("version_changed")),
                    ("version", int(*read)),
                    ("current", int(*now)),
                ]),
            }
            ("write_rejected", f)
        }
        Event::ReadServed {
            client: c,
            key,
            version,
        } => (
            "read_served",
            vec![
                client(*c),
                ("key", text(key)),
                ("version", Json::Int(i128::from(*version))),
            ],
        ),
        Event::EffectPerformed { client: c, name: n } if node == NodeId::Storage => {
            ("effect", vec![client(*c), ("what", text(n))])
        }
        _ => return None,
    })
}
