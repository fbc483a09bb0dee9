//! An explore report in words and as JSON: what `leaseline explore` prints (text or
//! `--format json`), what the explore worker sends the page (each class as it is found,
//! then the whole report), and what the Explore panel reads back. One place, so the command
//! line, the worker and the page cannot disagree on a field.
//!
//! A counterexample's link is the page's business (`session::share::counterexample_link`),
//! a floor above this one: the callers pass it in as `link`.

use super::hole::Hole;
use super::{Bounds, Class, Counterexample, Ended, Report};
use crate::vocab::numbers::fmt_ms;

/// How a caller makes a counterexample's link.
pub type Link<'a> = &'a dyn Fn(&Counterexample) -> String;

/// One sentence: what was added, and what broke.
pub fn summary(c: &Class) -> String {
    let faults: Vec<String> = c.example.faults.iter().map(|f| f.describe()).collect();
    let what = if faults.is_empty() {
        "With no fault added".to_string()
    } else {
        let mut s = faults.join(", then ");
        if let Some(first) = s.get(..1) {
            let up = first.to_ascii_uppercase();
            s.replace_range(..1, &up);
        }
        s
    };
    let mut s = format!("{what}: {}.", c.example.first.cause);
    // A fence that is on and still let a stale write through: say which part broke.
    if let Some(h) = c.example.through.as_ref().filter(|h| **h != Hole::NoFence) {
        s.push_str(&format!(" Let through because {}.", h.describe()));
    }
    s
}

fn bounds_words(b: &Bounds) -> String {
    let kinds: Vec<&str> = b.classes.iter().map(|c| c.name()).collect();
    format!(
        "up to {} added fault{} ({}), lengths up to {}{}",
        b.max_faults,
        if b.max_faults == 1 { "" } else { "s" },
        kinds.join(", "),
        fmt_ms(b.max_len_ms),
        if b.keep_scripted {
            ""
        } else {
            ", without the scenario's own faults"
        }
    )
}

/// The text report of `leaseline explore`.
pub fn text(target: &str, r: &Report, elapsed_ms: u64, link: Link) -> String {
    let mut s = format!(
        "explore {target}: {}\n{} schedules, {} distinct runs, {} orderings, {} violating, {} class{} ({} ms)\n",
        bounds_words(&r.bounds),
        r.schedules,
        r.distinct_runs,
        r.orderings,
        r.violating,
        r.classes.len(),
        if r.classes.len() == 1 { "" } else { "es" },
        elapsed_ms
    );
    if r.breaks_as_given {
        s.push_str("The scenario breaks as given, with no fault added.\n");
    }
    for (i, c) in r.classes.iter().enumerate() {
        let kinds: Vec<&str> = c.kinds.iter().map(|k| k.name()).collect();
        let who: Vec<String> = c.clients.iter().map(|n| n.to_string()).collect();
        s.push_str(&format!(
            "{}. {} ({}), {} added fault{}, {} distinct run{}:\n   {}\n   run: digest {}, first violation at {}; open: {}\n",
            i + 1,
            kinds.join(" + "),
            who.join(", "),
            c.example.faults.len(),
            if c.example.faults.len() == 1 { "" } else { "s" },
            c.runs,
            if c.runs == 1 { "" } else { "s" },
            summary(c),
            c.example.digest,
            fmt_ms(c.example.first.at.0),
            link(&c.example)
        ));
    }
    match r.ended {
        Ended::Complete if r.classes.is_empty() => s.push_str(&format!(
            "SAFE WITHIN THESE BOUNDS: {} schedules, {}. Not a proof: longer faults, or more of them, were not tried.\n",
            r.schedules,
            bounds_words(&r.bounds)
        )),
        Ended::Complete => {}
        Ended::Budget => s.push_str(&format!(
            "INCOMPLETE: stopped at the budget of {} schedules; what was not tried is unknown.\n",
            r.bounds.budget
        )),
        Ended::Cancelled => s.push_str("INCOMPLETE: cancelled.\n"),
    }
    if let Some(n) = r.standstill {
        s.push_str(&standstill_words(n));
        s.push('\n');
    }
    s
}

/// What a report whose scenario gets nothing done says of it ([`Report::standstill`]),
/// in the command line's report and the Explore panel alike.
pub fn standstill_words(refused: u32) -> String {
    let writes = match refused {
        1 => "the one write".to_string(),
        2 => "both writes".to_string(),
        n => format!("all {n} writes"),
    };
    format!(
        "Nothing gets done as given: with no fault added, the fence refuses {writes} sent and \
         storage accepts none, so the run is safe because no write lands."
    )
}

/// One class of `leaseline explore --format json`'s report (the explore worker also posts
/// each class as it is found, in this form).
pub fn class_json(c: &Class, link: Link) -> serde_json::Value {
    let e = &c.example;
    let scenario: serde_json::Value =
        serde_json::from_str(&crate::vocab::json::compact(&e.scenario.to_json_value()))
            .unwrap_or_default();
    serde_json::json!({
        "kinds": c.kinds.iter().map(|k| k.name()).collect::<Vec<_>>(),
        "clients": c.clients,
        "fault_kinds": c.fault_kinds.iter().map(|k| k.name()).collect::<Vec<_>>(),
        "faults": e.faults.iter().map(|f| f.describe()).collect::<Vec<_>>(),
        "added_faults": e.faults.len(),
        "fault_ms": e.cost,
        "runs": c.runs,
        "summary": summary(c),
        // What let a stale write through a fence that is on (null: no such write, or no
        // fence at all).
        "let_through": e.through.as_ref().filter(|h| **h != Hole::NoFence).map(Hole::describe),
        "first_violation": e.first,
        "digest": e.digest,
        "link": link(e),
        "scenario": scenario,
    })
}

/// The JSON report of `leaseline explore --format json`, and of the explore worker.
pub fn json(r: &Report, elapsed_ms: u64, link: Link) -> serde_json::Value {
    use serde_json::json;
    let classes: Vec<serde_json::Value> = r.classes.iter().map(|c| class_json(c, link)).collect();
    let b = &r.bounds;
    json!({
        "schedules": r.schedules,
        "distinct_runs": r.distinct_runs,
        "orderings": r.orderings,
        "violating": r.violating,
        "breaks_as_given": r.breaks_as_given,
        // The writes the fence refused where it accepted none (null: a write landed).
        "standstill": r.standstill,
        "classes": classes,
        "safe_within_bounds": r.safe_within_bounds(),
        "ended": match r.ended {
            Ended::Complete => "complete",
            Ended::Budget => "budget",
            Ended::Cancelled => "cancelled",
        },
        "bounds": {
            "max_faults": b.max_faults,
            "max_pause_ms": b.max_len_ms,
            "faults": b.classes.iter().map(|c| c.name()).collect::<Vec<_>>(),
            "budget": b.budget,
            "scripted_faults": b.keep_scripted,
        },
        "elapsed_ms": elapsed_ms,
    })
}
