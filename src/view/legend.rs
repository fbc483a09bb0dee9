//! The diagram's key: one table of every kind of shape the space-time diagram draws — the
//! lease and belief bars, the two-believers band, the message arrows, the marks on a lane —
//! each with a name and what it means in plain words.
//!
//! It is the only list of them. The app's "Legend" panel and the exported picture both read
//! it, and both draw each entry's sample with the diagram's own writer
//! ([`crate::view::export::svg::swatch`]) and classes, so a sample cannot look different from
//! the shape it explains. [`kinds`] names what a laid-out diagram holds, the [`Kind`]s that
//! [`Entry::covers`] answers for; the tests lay out every built-in run and require an entry for every
//! kind, so a new shape without a legend entry fails them.

use crate::view::layout::{Diagram, Tone};

/// A sample of one kind of shape, drawn small.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swatch {
    /// The two-believers band.
    Band,
    /// A bar on a lane (lease, belief, paused, down).
    Bar(Tone),
    /// A message arrow of one family (`Msg::class`); `dropped`: lost on the way.
    Arrow { class: &'static str, dropped: bool },
    /// A mark on a lane, with its glyph.
    Mark(Tone, &'static str),
    /// Believed vs actual on a client lane; `danger`: the client believes past the expiry.
    Gap { danger: bool },
}

/// One row of the legend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub swatch: Swatch,
    pub name: &'static str,
    pub meaning: &'static str,
    /// Other message families drawn exactly like this sample (grey arrows).
    pub also: &'static [&'static str],
}

const fn bar(tone: Tone, name: &'static str, meaning: &'static str) -> Entry {
    Entry {
        swatch: Swatch::Bar(tone),
        name,
        meaning,
        also: &[],
    }
}

const fn arrow(class: &'static str, name: &'static str, meaning: &'static str) -> Entry {
    Entry {
        swatch: Swatch::Arrow {
            class,
            dropped: false,
        },
        name,
        meaning,
        also: &[],
    }
}

const fn mark(tone: Tone, glyph: &'static str, name: &'static str, meaning: &'static str) -> Entry {
    Entry {
        swatch: Swatch::Mark(tone, glyph),
        name,
        meaning,
        also: &[],
    }
}

/// Every entry, in reading order: who holds and who thinks it holds, the danger, the
/// messages, then what happened at storage and the faults.
pub const ENTRIES: &[Entry] = &[
    bar(
        Tone::Lease,
        "Lease held",
        "The coordinator's record of who holds the lock and with which token, until it expires, is released or is replaced.",
    ),
    bar(
        Tone::Belief,
        "Believes it holds the lock",
        "A client thinks the lock is its own, going by its own clock. It can be wrong.",
    ),
    Entry {
        swatch: Swatch::Band,
        name: "Two believers",
        meaning: "Two clients think they hold the lock at the same time: the danger a fencing token is there to catch.",
        also: &[],
    },
    bar(
        Tone::Paused,
        "Paused",
        "The process is frozen (a GC pause, say): it does nothing, yet its clock keeps running.",
    ),
    bar(
        Tone::Down,
        "Down",
        "The node has crashed or is restarting, and answers nothing.",
    ),
    arrow(
        "grant",
        "Grant",
        "The coordinator answers an acquire: the lock with its token, or queued, or busy.",
    ),
    arrow(
        "write",
        "Write",
        "A client's write on its way to storage, carrying its token.",
    ),
    arrow(
        "reject",
        "Refusal",
        "A no: storage refuses a write, or the coordinator a renewal.",
    ),
    arrow(
        "renew",
        "Renewal",
        "A client asks to extend its lease, and the coordinator's reply (drawn faint).",
    ),
    arrow(
        "effect",
        "Side effect",
        "A call storage cannot fence, such as sending an email or charging a card.",
    ),
    Entry {
        swatch: Swatch::Arrow {
            class: "acquire",
            dropped: false,
        },
        name: "Other message",
        meaning: "Acquire, release, read or acknowledgement: an arrow runs from when it is sent to when it arrives.",
        also: &["release", "ack", "read"],
    },
    Entry {
        swatch: Swatch::Arrow {
            class: "acquire",
            dropped: true,
        },
        name: "Lost message",
        meaning: "Dotted with a cross at the end: lost on the way, or thrown away on arrival.",
        also: &[],
    },
    mark(
        Tone::Accept,
        "✓",
        "Write accepted",
        "Storage took the write; the label gives its token (and the highest token seen).",
    ),
    mark(
        Tone::Reject,
        "✕",
        "Write rejected",
        "Storage refused the write, saying why: usually its token is older than one it has seen.",
    ),
    mark(
        Tone::Stale,
        "⚠",
        "Stale write accepted",
        "A violation: storage took a write from a client whose lease had already gone.",
    ),
    mark(
        Tone::Effect,
        "✉",
        "Side effect done",
        "The outside world acted on a client's request (the email went out).",
    ),
    mark(
        Tone::Duplicate,
        "✉",
        "Done twice",
        "A violation: the same side effect happened a second time.",
    ),
    mark(
        Tone::Expire,
        "◔",
        "Lease expired",
        "The lease ran out on the coordinator's clock, so it may grant the lock again.",
    ),
    Entry {
        swatch: Swatch::Gap { danger: true },
        name: "Believes past expiry",
        meaning: "Dashed: where a client thinks its lease ends, by its own clock; solid: where the lock service let it expire. Red between: it trusts a lease already gone.",
        also: &[],
    },
    Entry {
        swatch: Swatch::Gap { danger: false },
        name: "Safe margin",
        meaning: "The client stops trusting its lease (dashed) before the lock service lets it expire (solid).",
        also: &[],
    },
    mark(
        Tone::Fault,
        "❄",
        "Fault",
        "Something that went wrong: ❄ pause, ✂ link cut, ⇄ link healed, ◷ clock jump, ✖ crash, ⇢ delay, ! renewals fail or the client goes on without the lock.",
    ),
];

/// A kind of shape, as the legend tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Band,
    Bar(Tone),
    /// A delivered message of one family (`Msg::class`).
    Arrow(&'static str),
    /// A lost message, whatever its family.
    Lost,
    Mark(Tone),
    /// Believed vs actual; `true`: the danger kind.
    Gap(bool),
}

impl Entry {
    /// Whether this entry explains shapes of kind `k`.
    pub fn covers(&self, k: Kind) -> bool {
        match (self.swatch, k) {
            (Swatch::Band, Kind::Band) => true,
            (Swatch::Bar(a), Kind::Bar(b)) | (Swatch::Mark(a, _), Kind::Mark(b)) => a == b,
            (Swatch::Arrow { dropped: true, .. }, Kind::Lost) => true,
            (Swatch::Gap { danger }, Kind::Gap(d)) => danger == d,
            (
                Swatch::Arrow {
                    class,
                    dropped: false,
                },
                Kind::Arrow(c),
            ) => class == c || self.also.contains(&c),
            _ => false,
        }
    }
}

/// The kinds of shape `d` draws, each once, in a fixed order (bands, bars, arrows, marks,
/// believed-vs-actual gaps).
pub fn kinds(d: &Diagram) -> Vec<Kind> {
    let bands = d.bands.first().map(|_| Kind::Band);
    let bars = d.bars.iter().map(|b| Kind::Bar(b.tone));
    let arrows = d
        .arrows
        .iter()
        .flat_map(|a| std::iter::once(Kind::Arrow(a.class)).chain(a.dropped.then_some(Kind::Lost)));
    let marks = d.marks.iter().map(|m| Kind::Mark(m.tone));
    let marks = marks.chain(d.gaps.iter().map(|g| Kind::Gap(g.danger)));
    let mut out: Vec<Kind> = Vec::new();
    for k in bands.into_iter().chain(bars).chain(arrows).chain(marks) {
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

/// The entries for what `d` actually draws, in the table's order: a legend for one
/// picture lists only its own shapes.
pub fn used(d: &Diagram) -> Vec<&'static Entry> {
    let drawn = kinds(d);
    ENTRIES
        .iter()
        .filter(|e| drawn.iter().any(|&k| e.covers(k)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::layout::diagram;

    /// Every tone the layout can give a shape. The match has no wildcard: a new tone does
    /// not compile until it is listed here, and then the test below asks for its entry.
    fn tones() -> Vec<Tone> {
        let all = [
            Tone::Lease,
            Tone::Belief,
            Tone::Paused,
            Tone::Down,
            Tone::Accept,
            Tone::Stale,
            Tone::Reject,
            Tone::Effect,
            Tone::Duplicate,
            Tone::Fault,
            Tone::Expire,
        ];
        for t in all {
            match t {
                Tone::Lease
                | Tone::Belief
                | Tone::Paused
                | Tone::Down
                | Tone::Accept
                | Tone::Stale
                | Tone::Reject
                | Tone::Effect
                | Tone::Duplicate
                | Tone::Fault
                | Tone::Expire => {}
            }
        }
        all.to_vec()
    }

    #[test]
    fn every_tone_and_every_shape_of_every_built_in_run_has_an_entry() {
        let covered = |k: Kind| ENTRIES.iter().any(|e| e.covers(k));
        for t in tones() {
            assert!(
                covered(Kind::Bar(t)) || covered(Kind::Mark(t)),
                "tone {} has no legend entry",
                t.class()
            );
        }
        let runs = crate::teach::presets::PRESETS
            .iter()
            .map(|p| p.scenario())
            .chain(crate::teach::library::LESSONS.iter().map(|l| l.scenario()));
        let mut seen: Vec<Kind> = Vec::new();
        for sc in runs {
            let t = crate::model::sim::simulate(&sc).unwrap();
            let v = crate::analysis::check::check(&t);
            let d = diagram(&t, &v);
            for k in kinds(&d) {
                assert!(covered(k), "{}: {k:?} has no legend entry", sc.name);
                if !seen.contains(&k) {
                    seen.push(k);
                }
            }
            let used = used(&d);
            assert!(!used.is_empty() && used.len() <= ENTRIES.len());
        }
        // The common shapes really occur, so the sweep above checks something.
        for k in [
            Kind::Band,
            Kind::Bar(Tone::Lease),
            Kind::Bar(Tone::Belief),
            Kind::Arrow("write"),
            Kind::Lost,
            Kind::Mark(Tone::Stale),
            Kind::Gap(true),
        ] {
            assert!(seen.contains(&k), "no built-in run draws {k:?}");
        }
    }

    #[test]
    fn entries_are_distinct_and_short_enough_for_a_slide() {
        for (i, e) in ENTRIES.iter().enumerate() {
            assert!(ENTRIES[..i]
                .iter()
                .all(|o| o.name != e.name && o.swatch != e.swatch));
            assert!(e.name.chars().count() <= 28, "{}", e.name);
            assert!(e.meaning.chars().count() <= 160, "{}", e.meaning);
        }
    }
}
