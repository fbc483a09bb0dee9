//! The marks on a lane: a glyph and a label for each event worth one (a write accepted
//! or refused, an expiry, a fault), placed so that none is drawn before its time, and
//! those closer than a glyph's width drawn as one.

use super::*;
use crate::model::sim::{Kit, Pauses, Whole};

/// A marker's look and wanted label for entry `i` (`e`), if it draws one: tone, glyph, rank,
/// text, short text, hover title. One place for every kind of event (a copy per kind would
/// cost the first load).
#[allow(clippy::type_complexity)]
pub(super) fn marker<D: Detail>(
    i: usize,
    e: &crate::model::trace::Entry,
    violation_at: &VecMap<usize, ViolationKind>,
) -> Option<(Tone, &'static str, u8, String, Option<String>, String)> {
    let n = e.node;
    // One place builds a marker and its wanted label, whatever the event (a copy per
    // kind of event would cost the first load).
    match &e.event {
        Event::LeaseExpired { token, client, .. } => Some((
            Tone::Expire,
            "◔",
            2,
            // (Redlock's leases carry no token: "expired", never "expired 0".)
            if *token == 0 {
                "expired".into()
            } else {
                format!("expired {token}")
            },
            Some(if *token == 0 {
                "exp".into()
            } else {
                format!("exp {token}")
            }),
            format!(
                "{}: {}'s lease ({}) expired on the lock service's clock",
                e.t,
                client.name(),
                token_words(*token)
            ),
        )),
        Event::WriteAccepted {
            client,
            token,
            key,
            value,
            mark: high,
            ..
        } => {
            let tok = token.map_or("no token".to_string(), |t| t.to_string());
            let (tone, glyph, rank, text) = match violation_at.get(&i) {
                Some(ViolationKind::StaleWrite | ViolationKind::LostUpdate) => {
                    (Tone::Stale, "⚠", 1, format!("STALE {tok} accepted"))
                }
                _ => (
                    Tone::Accept,
                    "✓",
                    2,
                    match high {
                        Some(m) => format!("{tok} ✓ · mark {m}"),
                        None => format!("{tok} ✓"),
                    },
                ),
            };
            let short = match tone {
                Tone::Stale => format!("STALE {tok}"),
                _ => format!("{tok} ✓"),
            };
            let m = high.map_or(String::new(), |m| format!("; high-water mark {m}"));
            let title = format!(
                "{}: accepted {}'s write {key} = \"{value}\" with {}{m}",
                e.t,
                client.name(),
                token.map_or("no token".to_string(), token_words)
            );
            Some((tone, glyph, rank, text, Some(short), title))
        }
        Event::WriteRejected { client, reason, .. } => Some((
            Tone::Reject,
            "✕",
            1,
            format!("✕ {reason}"),
            Some("✕".into()),
            format!("{}: rejected {}'s write: {reason}", e.t, client.name()),
        )),
        Event::EffectPerformed { client, name } => {
            let dup = violation_at.get(&i) == Some(&ViolationKind::DuplicateEffect);
            let (tone, rank, text) = if dup {
                (Tone::Duplicate, 1, format!("⚠ {name} again"))
            } else {
                (Tone::Effect, 2, name.to_string())
            };
            let title = format!("{}: performed \"{name}\" for {}", e.t, client.name());
            Some((tone, "✉", rank, text, None, title))
        }
        // Faults and failure reactions, labelled above their lane.
        ev => fault_glyph::<D>(ev).map(|(glyph, text, short)| {
            let title = format!("{}: {} — {text}", e.t, n.name());
            (Tone::Fault, glyph, 1, text, short, title)
        }),
    }
}

/// Marks closer than this on one lane would print glyph on glyph (two circles of radius
/// 7): they are drawn as one.
pub const STACK: f64 = 14.0;

/// Draws the marks of a lane that stand closer than [`STACK`] to the one before them as
/// one mark ([`Mark::stacked`]): at the last of them, so that nothing is drawn before its
/// time; with the glyph, tone and entry of the most urgent (a violation, then a fault,
/// then the latest); its hover text every one's, in order. Each keeps its own label.
pub(crate) fn stack(marks: &mut [Mark]) {
    let urgency = |t: Tone| match t {
        Tone::Stale | Tone::Duplicate | Tone::Reject => 0,
        Tone::Fault => 1,
        _ => 2,
    };
    // The marks come in time order; a lane's run of close ones is found by its last.
    let mut open: Vec<(f64, Vec<usize>)> = Vec::new();
    let mut runs: Vec<Vec<usize>> = Vec::new();
    for (i, m) in marks.iter().enumerate() {
        match open.iter_mut().find(|(y, _)| *y == m.y) {
            Some((_, run)) if m.x - marks[*run.last().unwrap_or(&i)].x < STACK => run.push(i),
            Some((_, run)) => runs.push(std::mem::replace(run, vec![i])),
            None => open.push((m.y, vec![i])),
        }
    }
    runs.extend(open.into_iter().map(|(_, run)| run));
    for run in runs.into_iter().filter(|r| r.len() > 1) {
        let last_x = marks[run[run.len() - 1]].x;
        let mut lead = run[0];
        for &i in &run {
            if urgency(marks[i].tone) <= urgency(marks[lead].tone) {
                lead = i;
            }
        }
        let head = format!("{} events here:", run.len());
        let (mut title, mut open, mut until) = (head.clone(), head, last_x);
        let mut opens = false;
        let mut events = Vec::new();
        for &i in &run {
            let m = &mut marks[i];
            events.push(StackedEvent {
                entry: m.entry,
                title: m.title.clone(),
                open: m.open.clone(),
                until: m.until,
            });
            title = format!("{title}\n{}", m.title);
            let told = if m.open.is_empty() { &m.title } else { &m.open };
            open = format!("{open}\n{told}");
            opens |= !m.open.is_empty();
            until = until.max(m.until);
            m.stacked = 0;
        }
        let m = &mut marks[lead];
        m.stacked = run.len();
        m.x = last_x;
        m.title = title;
        m.until = until;
        m.open = if opens { open } else { String::new() };
        m.events = events;
    }
}

/// The moment an entry's label tells of: its own, but for a pause, whose label says how
/// long it lasts ("paused 40 s") and so tells of its end.
pub(super) fn told_until(e: &crate::model::trace::Entry) -> Time {
    match e.event {
        Event::Paused { for_ms, .. } => Time(e.t.0.saturating_add(for_ms)),
        _ => e.t,
    }
}

/// Adds entry `i`'s marker at `at.0` and the label it wants, seen from the x `at.1` on
/// (the moment it tells of, [`told_until`]): its own; or, where it stands for `n` events
/// of its lane (a level of detail's `folded`: `n` and their hover text), "+n-1" for the
/// others, after every label of its own (they are ranked first).
#[allow(clippy::too_many_arguments)]
pub(super) fn put_marker<D: Detail>(
    marks: &mut Vec<Mark<D>>,
    wants: &mut Wants,
    i: usize,
    e: &crate::model::trace::Entry,
    (at, until): ((f64, f64), f64),
    violation_at: &VecMap<usize, ViolationKind>,
    folded: Option<(usize, String)>,
) {
    let Some((tone, glyph, rank, text, short, title)) = marker::<D>(i, e, violation_at) else {
        return;
    };
    let who = Who::Mark(marks.len());
    let dy = if tone == Tone::Fault { -16.0 } else { 20.0 };
    let many = folded.is_some();
    let (n, rank, text, short, title) = match folded {
        None => (1, rank, text, short, title),
        Some((n, t)) => (n, 3, format!("+{}", n - 1), None, t),
    };
    wants.add(who, rank, at, (7.0, dy), text, short, None);
    let until = until.max(at.0);
    if let Some(w) = wants.v.last_mut() {
        w.at = until;
    }
    // A pause's hover text says how long it lasts, and a count's how many it stands
    // for: until then, only what has begun (where the detail tells it).
    let open = if until > at.0 {
        D::open(|| match many {
            true => format!("events on {} from {}, drawn as one", e.node.name(), e.t),
            false => format!("{}: {} — paused", e.t, e.node.name()),
        })
    } else {
        D::Open::default()
    };
    marks.push(Mark {
        x: at.0,
        y: at.1,
        tone,
        glyph,
        label: None,
        title,
        until,
        open,
        entry: i,
        count: n,
        stacked: 1,
        events: Default::default(),
    });
}

/// Faults and failure reactions get a glyph and a short label on their lane, and a shorter
/// one for a tight spot.
fn fault_glyph<D: Detail>(ev: &Event) -> Option<Glyph> {
    Some(match ev {
        // Drawn by the kit that makes them ([`MarksEvents`]): a build whose kit makes
        // none of them has none of their marks.
        crate::events_beyond_pauses!() => return D::Kit::beyond_pauses(ev),
        Event::Paused { for_ms, cause } => (
            "❄",
            match cause {
                PauseCause::Gc => format!("paused {}", fmt_ms(*for_ms)),
                c => format!("paused {}: {}", fmt_ms(*for_ms), c.prose()),
            },
            Some(fmt_ms(*for_ms)),
        ),
        Event::FailedOpen => ("!", "fails open".to_string(), None),
        _ => return None,
    })
}

/// A fault's glyph, its label and its label for a tight spot.
pub type Glyph = (&'static str, String, Option<String>);

/// How the faults of a run built with a kit are marked: [`Whole`] marks every fault,
/// [`Pauses`] only pauses, and a build drawing with it has none of the others' marks.
pub trait MarksEvents: Kit {
    /// The mark of an event only another lock service or a fault other than a pause
    /// makes ([`crate::events_beyond_pauses`]), if it is marked.
    fn beyond_pauses(ev: &Event) -> Option<Glyph>;
}

impl MarksEvents for Whole {
    fn beyond_pauses(ev: &Event) -> Option<Glyph> {
        Some(match ev {
            // Nodes by the names the lanes and the text give them ("lock service 4"),
            // never by their ids in links and JSON ("coord4").
            Event::LinkCut { peer } => {
                ("✂", format!("cut from {}", peer.name()), Some(peer.name()))
            }
            Event::LinkHealed { peer } => {
                ("⇄", format!("healed to {}", peer.name()), Some(peer.name()))
            }
            Event::ClockJumped { by_ms } => (
                "◷",
                format!(
                    "clock {}{}",
                    if *by_ms >= 0 { "+" } else { "" },
                    fmt_ms(*by_ms)
                ),
                None,
            ),
            Event::Crashed { .. } => ("✖", "crash".to_string(), None),
            Event::MessageHeld { .. } => ("⇢", "delay".to_string(), None),
            Event::RenewalsFailing { .. } => {
                ("!", "renewals fail".to_string(), Some("fail".into()))
            }
            _ => return None,
        })
    }
}

impl MarksEvents for Pauses {
    /// Nothing: a run of pauses makes none of these events (`model::sim::kit`'s tests).
    fn beyond_pauses(_: &Event) -> Option<Glyph> {
        None
    }
}
