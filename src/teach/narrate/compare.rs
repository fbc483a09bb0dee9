//! The words of a comparison of two runs: where they first part, and each side named by
//! its lock service, its fence, and whatever else sets it apart from the other.

use super::*;

/// Where two runs part, at entry `at` of either (`None`: they never do): a heading
/// ("First difference at t = 40.000s: ") and what each run did there.
pub fn divergence(a: &Trace, b: &Trace, at: Option<usize>) -> (String, String) {
    let Some(i) = at else {
        return (String::new(), "The two runs are identical.".to_string());
    };
    let did = |r: &Trace| {
        r.entries.get(i).map_or("the run ends".to_string(), |e| {
            format!(
                "{}: {}",
                e.node.name(),
                crate::model::trace::json::kind(&e.event).replace('_', " ")
            )
        })
    };
    let t = a.entries.get(i).or(b.entries.get(i)).map_or(0, |e| e.t.0);
    (
        format!("First difference at t = {}: ", fmt_ms(t)),
        format!("A — {}; B — {}. ", did(a), did(b)),
    )
}

/// One side of a comparison: the scenario, its lock service, its fence, what else sets it
/// apart from `other` (the other side), and its verdict in a few words. Two runs of one
/// scenario (before and after an edit) share a name: what differs tells them apart.
pub fn side_line(sc: &Scenario, v: &Verdict, other: &Scenario) -> String {
    let mut about = vec![
        format!("lock service: {}", sc.coordinator.flavor.name()),
        fence_words(sc.storage.fence),
    ];
    about.extend(differences(sc, other));
    format!("{} ({}) — {}", sc.name, about.join("; "), verdict_line(v))
}

/// The compare bar's name for side B, by what it was chosen as: the run before the last
/// edit (`before`, the session's word for it), the fence switched (`""`), or a variant.
pub fn side_b(with: &str, before: &str) -> &'static str {
    if with == before {
        "B, before your last edit: "
    } else if with.is_empty() {
        "B, the fence switched: "
    } else {
        "B: "
    }
}

/// What sets `sc` apart from `other` beyond its service and fence, in `sc`'s own values
/// where they are short (a seed, a count of faults, a TTL) and by name where they are not.
pub(super) fn differences(sc: &Scenario, other: &Scenario) -> Vec<String> {
    let mut out = Vec::new();
    if sc.seed != other.seed {
        out.push(format!("seed {}", sc.seed));
    }
    let (c, o) = (&sc.coordinator, &other.coordinator);
    if c.flavor == o.flavor && c != o {
        out.push("other lock-service settings".to_string());
    }
    if sc.clients.len() != other.clients.len() {
        out.push(format!("{} clients", sc.clients.len()));
    } else {
        for (i, (a, b)) in sc.clients.iter().zip(&other.clients).enumerate() {
            if a == b {
                continue;
            }
            let who = NodeId::Client(i as u8).name();
            if a.ttl_ms != b.ttl_ms {
                out.push(format!("{who}'s TTL {}", fmt_ms(a.ttl_ms)));
            }
            if a.check_before_write != b.check_before_write {
                let does = if a.check_before_write {
                    "checks"
                } else {
                    "does not check"
                };
                out.push(format!("{who} {does} its lease before writing"));
            }
            if a.on_loss != b.on_loss {
                let does = match a.on_loss {
                    LossPolicy::Continue => "carries on",
                    LossPolicy::Abort => "stops its job",
                    LossPolicy::Reacquire => "takes the lock again",
                };
                out.push(format!("{who} {does} when it loses the lease"));
            }
            let rest = |c: &crate::model::scenario::ClientSpec| {
                let mut c = c.clone();
                c.ttl_ms = 0;
                c.check_before_write = false;
                c.on_loss = LossPolicy::default();
                c
            };
            if rest(a) != rest(b) {
                out.push(format!("other settings of {who}"));
            }
        }
    }
    if sc.faults != other.faults {
        let n = sc.faults.len();
        out.push(if n == other.faults.len() {
            format!("other faults ({n})")
        } else {
            format!("{n} fault{}", if n == 1 { "" } else { "s" })
        });
    }
    if sc.storage.fence == other.storage.fence && sc.storage != other.storage {
        out.push("other storage settings".to_string());
    }
    if sc.network != other.network {
        out.push("other network settings".to_string());
    }
    if sc.horizon_ms != other.horizon_ms {
        out.push(format!("runs to {}", fmt_ms(sc.horizon_ms)));
    }
    out
}
