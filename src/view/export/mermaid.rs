//! The run as a Mermaid `sequenceDiagram`, for pasting into a README, an issue or a slide.
//!
//! One participant per lane, in lane order; one arrow per message at the moment it was
//! handled (`-x` for one that was dropped); a note for each notable event that no arrow
//! already tells — pauses, faults, expiries, lost beliefs — in the trace's own wording; and
//! a note over the nodes involved for each violation the checker found, with its cause.
//! Message kinds and tokens come from the canonical JSON form (`trace_json::msg`), and
//! which events matter from `narrate::is_notable`, so this adds no table of its own.

use crate::analysis::check::Verdict;
use crate::model::msg::Msg;
use crate::model::trace::{Event, Trace};
use crate::teach::narrate::is_notable;
use crate::vocab::ids::NodeId;
use crate::vocab::json::Json;
use crate::vocab::numbers::secs;
use crate::vocab::vecmap::VecMap;

/// Appends `head`, then `text` with what Mermaid cannot take in a message replaced by its
/// entity codes (`;` `#` `<` `>`) or a space (line breaks), then a newline.
fn line(out: &mut String, head: &str, text: &str) {
    out.push_str(head);
    for c in text.chars() {
        match c {
            ';' => out.push_str("#59;"),
            '#' => out.push_str("#35;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out.push('\n');
}

/// "granted token 34", "write token 33", "write rejected: token 33 < 34": the message's
/// JSON tag, its token if it carries one, and the detail of its short label.
fn msg_label(m: &Msg) -> String {
    let j = crate::model::trace::json::msg(m);
    let mut s = match j.get("msg") {
        Some(Json::Str(k)) => k.replace('_', " "),
        _ => String::new(),
    };
    if let Some(Json::Int(t)) = j.get("token").filter(|t| **t != Json::Int(0)) {
        s.push_str(&format!(" token {t}"));
    }
    if let Some((_, detail)) = m.label().split_once(": ") {
        s.push_str(": ");
        s.push_str(detail);
    }
    s
}

/// Notable events that an arrow already shows (the grant, the release, the write and its
/// answer), so they get no note of their own.
fn told_by_arrow(e: &Event) -> bool {
    use Event::*;
    matches!(
        e,
        LeaseGranted { .. }
            | LeaseReleased { .. }
            | WriteAccepted { .. }
            | WriteRejected { .. }
            | EffectPerformed { .. }
            | EffectDeduplicated { .. }
    )
}

/// The Mermaid sequence diagram of `trace`, with `verdict`'s violations as notes.
pub fn sequence(trace: &Trace, verdict: &Verdict) -> String {
    let mut out = String::from("sequenceDiagram\n");
    for (node, _) in &trace.nodes {
        line(&mut out, &format!("participant {node} as "), &node.name());
    }
    // Messages sent and not yet handled or dropped: id → (sender, message).
    let mut in_flight: VecMap<u32, (NodeId, &Msg)> = VecMap::new();
    for (i, e) in trace.entries.iter().enumerate() {
        match &e.event {
            Event::Sent { id, msg, .. } => {
                in_flight.insert(*id, (e.node, msg));
            }
            Event::Received { id, .. } | Event::Dropped { id, .. } => {
                let (to, arrow, tail) = match e.event {
                    Event::Dropped { to, .. } => (to, "-x", " (dropped)"),
                    _ => (e.node, "->>", ""),
                };
                if let Some((from, msg)) = in_flight.remove(id) {
                    let label = msg_label(msg) + tail;
                    line(&mut out, &format!("{from}{arrow}{to}: "), &label);
                }
            }
            ev if is_notable(ev) && !told_by_arrow(ev) => {
                let text = format!("{}: {ev}", secs(e.t.0));
                line(&mut out, &format!("Note over {}: ", e.node), &text);
            }
            _ => {}
        }
        for v in verdict.violations.iter().filter(|v| v.entry as usize == i) {
            let lo = v.nodes.iter().min().copied().unwrap_or(e.node);
            let hi = v.nodes.iter().max().copied().unwrap_or(e.node);
            let over = if lo == hi {
                lo.to_string()
            } else {
                format!("{lo},{hi}")
            };
            line(
                &mut out,
                &format!("Note over {over}: "),
                &format!("⚠ {}", v.cause),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::check::check;
    use crate::model::sim::simulate;
    use crate::teach::presets::preset;

    #[test]
    fn escapes_what_mermaid_cannot_take() {
        let mut s = String::new();
        line(&mut s, "A->>B: ", "a; #1 <2>\nb");
        assert_eq!(s, "A->>B: a#59; #35;1 #lt;2#gt; b\n");
    }

    #[test]
    fn fenced_gc_pause_shows_the_rejection_arrow() {
        let t = simulate(&preset("gc-pause-fenced").unwrap().scenario()).unwrap();
        let m = sequence(&t, &check(&t));
        assert!(m.contains("c1->>storage: write token 33\n"), "{m}");
        assert!(
            m.contains("storage->>c1: write rejected: token 33 #lt; 34\n"),
            "{m}"
        );
        assert!(!m.contains('⚠'));
    }
}
