//! What the safety calculator's figure means and what to change, in words (the bound
//! itself is `analysis::bound`'s). The page's calculator panel and `leaseline bound` both
//! say it, so they cannot disagree.
//!
//! Two ideas are kept apart, because a reader who mixes them sees a contradiction: an
//! **overlap** is a window when two clients both believe they hold the lock (a hazard, the
//! figure the bound computes), and **damage** is a stale write that storage accepts (the
//! checker's violation). An overlap leads to damage only when the old holder's write lands
//! late and no fence refuses it; so a run can have a long overlap and no violation.

use crate::analysis::bound::{margin_needed, pause_allowed, ttl_needed, Bound, Damage, Guard};
use crate::model::flavors::Tokens;
use crate::model::scenario::{CountFrom, FenceMode, LossPolicy};
use crate::vocab::numbers::decimal;

/// What an overlap is, in one plain sentence or two.
pub const OVERLAP_MEANS: &str = "A window of time when two clients both believe they hold \
the lock. On its own it changes no data.";

/// What damage is, in one plain sentence or two.
pub const DAMAGE_MEANS: &str = "A stale write that storage accepts: the old holder's write \
landing after the lock has moved on. Whether an overlap leads to it depends on the fence.";

/// What the worst-case run shows, and why its own verdict may read "no violation".
pub const WORST_CASE_NOTE: &str = "The run shows the longest overlap (the two-believers \
band). The next client writes nothing in it, so the run's verdict, which counts damage, can \
read \u{201c}no violation\u{201d} while the overlap is there.";

/// The calculator's verdict in words: a headline saying which of overlap and damage these
/// numbers give, and each of them for these numbers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub headline: String,
    pub overlap: String,
    pub damage: String,
}

/// Seconds with three decimals: "8.169 s".
fn s3(ms: i64) -> String {
    format!("{} s", decimal(ms, 3))
}

/// The verdict for `b`. Safe exactly when `b.safe`: no overlap, or a fence.
pub fn bound_verdict(b: &Bound) -> Verdict {
    let overlap_is = match b.worst_overlap_ms {
        Some(o) if o > 0 => format!("up to {}", s3(o)),
        Some(_) => "none".to_string(),
        None => "without bound".to_string(),
    };
    let damage = b.damage();
    let headline = match (b.worst_overlap_ms, damage) {
        (Some(o), d) if o <= 0 && d.possible() => "Unsafe: no overlap, but damage is \
possible: the old holder's write can land after the next grant."
            .to_string(),
        (Some(o), _) if o <= 0 => "Safe: no overlap, so no damage.".to_string(),
        (_, Damage::Fenced) if b.holder.guard == Guard::Idempotent => format!(
            "Safe from damage: overlap {overlap_is}, but the effect's idempotency key makes a repeat do nothing."
        ),
        (_, Damage::Fenced) if b.holder.guard == Guard::RefusesAll => format!(
            "Safe from damage: overlap {overlap_is}, but the fence refuses every write: {} \
issues no token, so nothing gets done.",
            b.holder.flavor.name()
        ),
        (_, Damage::Fenced) => {
            format!("Safe from damage: overlap {overlap_is}, but the fence refuses the late write.")
        }
        (_, d) if d.possible() => format!("Unsafe: overlap {overlap_is}, and damage is possible."),
        _ => format!("Unsafe: overlap {overlap_is}; no damage from this job's write."),
    };
    let overlap = match b.worst_overlap_ms {
        Some(o) if o > 0 => format!(
            "Up to {} here: the old holder can go on believing that long after the next \
client is granted.",
            s3(o)
        ),
        Some(0) => "None here: the old holder stops believing by the time the next client \
is granted."
            .to_string(),
        Some(o) => format!(
            "None here: the old holder stops believing at least {} before the next client is \
granted.",
            s3(-o)
        ),
        None => "Without bound here: a pause can last any time, and the old holder believes \
through it."
            .to_string(),
    };
    let damage = match damage {
        Damage::Fenced if b.holder.guard == Guard::Idempotent => "None here: storage keeps \
the effect's idempotency key, so a second one with that key, late or not, does nothing."
            .to_string(),
        Damage::Fenced if b.holder.guard == Guard::RefusesAll => format!(
            "None here: {} issues no token and storage's fence refuses every write that \
carries none, so no write lands, late or on time.",
            b.holder.flavor.name()
        ),
        Damage::Fenced => "None here: storage checks the lock's ordered token, so a late write \
from the old holder is refused."
            .to_string(),
        Damage::NeverWrites => "None from this job: its check before the write always finds \
the lease over, so it never writes."
            .to_string(),
        Damage::InTime { .. } => "None from this job's write: it always reaches storage \
before the next client is granted. Anything else the old holder does while it still believes \
is unchecked."
            .to_string(),
        Damage::Late { by_ms } if b.holder.effect => format!(
            "Possible here: the old holder's effect can happen up to {} after the next client \
is granted, and nothing refuses it.",
            s3(by_ms)
        ),
        Damage::Late { by_ms } => format!(
            "Possible here: the old holder's write can reach storage up to {} after the next \
client is granted, and no fence refuses it.",
            s3(by_ms)
        ),
        Damage::LateUnbounded if b.holder.effect => "Possible here: with no bound on pauses \
the old holder's effect can happen any time later, and nothing refuses it."
            .to_string(),
        Damage::LateUnbounded => "Possible here: with no bound on pauses the old holder's \
write can arrive any time later, and no fence refuses it."
            .to_string(),
    };
    Verdict {
        headline,
        overlap,
        damage,
    }
}

/// What to change, in words, for the calculator's answer.
pub fn bound_advice(b: &Bound) -> String {
    let h = &b.holder;
    let p = b.env.max_pause_ms;
    let mut v: Vec<String> = Vec::new();
    if h.guard == Guard::Token {
        v.push(
            "Storage checks an ordered token: a superseded holder's write is refused, so \
the overlap cannot reach the data."
                .into(),
        );
    }
    if h.guard == Guard::RefusesAll {
        v.push(format!(
            "Storage's fence refuses every write that carries no token, and {} issues none: \
the data is safe, but no job's write ever lands. A lock service that issues an ordered token \
lets the fence refuse only a superseded holder's write.",
            h.flavor.name()
        ));
    }
    // What guards a kept idempotency key comes first, as the token's does.
    let guard_first = h.guard == Guard::Idempotent;
    if guard_first {
        v.extend(h.escapes_fence.clone());
    }
    match (b.worst_overlap_ms, p) {
        (None, _) => v.push(
            "No margin or TTL is safe without a bound on pauses: only a fencing token that \
storage checks makes the late holder harmless."
                .into(),
        ),
        (Some(o), Some(_)) if o <= 0 && b.damage().possible() => {
            v.push(if h.on_loss == LossPolicy::Continue {
                format!(
                    "The holder stops believing at least {} ms before the next grant, but it \
carries on with its job when it learns (on_loss: continue), so its write can still land after \
the grant: stop the job on loss (on_loss: abort).",
                    -o
                )
            } else {
                "The holder stops believing by the next grant, but a write it sends just \
before can land after it, and only a fence at storage refuses it."
                    .to_string()
            })
        }
        (Some(o), Some(p)) if o <= 0 => v.push(format!(
            "Safe while pauses never exceed {p} ms: the holder stops believing at least \
{} ms before the next grant.",
            -o
        )),
        (Some(_), Some(p)) => {
            match ttl_needed(h, &b.env) {
                Some(t) => v.push(format!(
                    "A TTL of ≥ {t} ms makes it safe if pauses never exceed {p} ms (the \
largest term is the {}).",
                    b.dominant
                )),
                None => v.push("No TTL up to a day makes it safe with these bounds.".into()),
            }
            if let Some(a) = pause_allowed(h, &b.env) {
                v.push(format!(
                    "With this TTL, pauses of ≤ {a} ms make it safe: no overlap."
                ));
            }
            if b.latest_write_ms.is_some_and(|w| w > 0) {
                if let Some(m) = margin_needed(h, &b.env) {
                    v.push(format!(
                        "A margin of ≥ {m} ms keeps its write from reaching storage after the \
next grant (its belief still overlaps)."
                    ));
                }
            }
            if h.check_before_write && h.count_from == CountFrom::Grant && p > 0 {
                v.push(
                    "Counting the lease from the grant lets a pause before the grant is read \
move the deadline with it: count from the request."
                        .into(),
                );
            }
            if !h.check_before_write {
                v.push(
                    "The holder never checks its lease before writing: nothing but the end \
of its job ends its belief."
                        .into(),
                );
            }
        }
        (Some(_), None) => {}
    }
    if let Some(why) = &h.escapes_fence {
        // Whatever the fence's mode, it does not see this action: advice to switch it on
        // would be false.
        if !guard_first {
            v.push(why.clone());
        }
    } else if !h.fenced {
        if h.flavor.model().tokens == Tokens::None {
            v.push(format!(
                "{} issues no ordered token, so storage has nothing to fence with.",
                h.flavor.name()
            ));
        } else {
            v.push(format!(
                "A fence at storage set to \u{201c}{}\u{201d} ({}) makes any overlap harmless \
to the data.",
                FenceMode::Monotone.label(),
                FenceMode::Monotone.name()
            ));
        }
    }
    v.join(" ")
}
