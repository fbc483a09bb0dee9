//! What to change, in words: the advice beside the safety calculator's figure (the bound
//! itself is `analysis::bound`'s). The page's calculator panel and `leaseline bound` both
//! say it, so they cannot disagree.

use crate::analysis::bound::{margin_needed, ttl_needed, Bound};
use crate::model::flavors::Tokens;
use crate::model::scenario::CountFrom;

/// What to change, in words, for the calculator's answer.
pub fn bound_advice(b: &Bound) -> String {
    let h = &b.holder;
    let p = b.env.max_pause_ms;
    let mut v: Vec<String> = Vec::new();
    if h.fenced {
        v.push(
            "Storage checks an ordered token: a superseded holder's write is refused, so \
the overlap cannot reach the data."
                .into(),
        );
    }
    match (b.worst_overlap_ms, p) {
        (None, _) => v.push(
            "No margin or TTL is safe without a bound on pauses: only a fencing token that \
storage checks makes the late holder harmless."
                .into(),
        ),
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
    if !h.fenced {
        if h.flavor.model().tokens == Tokens::None {
            v.push(format!(
                "{} issues no ordered token, so storage has nothing to fence with.",
                h.flavor.name()
            ));
        } else {
            v.push("A fence (--fence monotone) makes any overlap harmless to the data.".into());
        }
    }
    v.join(" ")
}
