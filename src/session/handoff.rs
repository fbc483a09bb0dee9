//! Handing the page over from a player to the whole app.
//!
//! The browser first loads a smaller build — a player: the first load (the `lite`
//! feature: the default page's run, its walkthrough and the stage's edits) or the links'
//! player (`player`: any built-in run, lesson or question) — so a reader on a phone
//! network can play the run sooner; the whole app (the lessons menu, editor, exports,
//! sharing, comparing) loads when the reader first asks for one of them. The player then
//! hands its session over: a
//! [`Handoff`] says what the whole app must rebuild — the edits made so far (each scenario
//! of the undo history, so Undo and "Compare with before my edit" still work), the cursor,
//! and what the reader asked for — and `Session::resumed` rebuilds it. Nothing the reader
//! did is lost, and the request that needed the whole app is carried out once it is there.
//! This module is the handoff as data and text; `session::resume` makes and follows it.
//!
//! The handoff travels as text (the two builds are separate wasm modules sharing only the
//! page): one `key value` per line. The first load carries no scenario codec (that is part
//! of its saving), so the history travels as the fence of each step and a stage action as
//! its own few words ([`edit_words`]); the whole app applies them through its validating
//! edits. A handoff that does not parse opens the page the address names, with the message.

use crate::model::scenario::{Fault, FaultKind, FenceMode, Kind, PauseCause};
use crate::session::edit::Edit;
use crate::session::{Menu, Panel};
use crate::vocab::ids::NodeId;

/// What the whole app must rebuild to continue where a player stopped.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Handoff {
    /// A link to follow instead of rebuilding the default page (opening another scenario,
    /// a deep link, a quiz).
    pub link: Option<String>,
    /// The built-in scenario the player had open, when not the default page's (a lesson,
    /// its fix opened from the walkthrough).
    pub base: Option<String>,
    /// The fence of each scenario of the undo history after the default one, oldest first
    /// (the last is the scenario on screen): a player's only edit of its own is the
    /// fence switch; any other edit is handed over as [`edit`](Self::edit).
    pub fences: Vec<FenceMode>,
    /// A stage action to carry out once rebuilt (a fault added at the cursor, a resume).
    pub edit: Option<Edit>,
    /// The cursor: the number of trace entries it is past.
    pub step: usize,
    /// The cursor's time, in whole ms (a scrub can stop between two entries).
    pub t_ms: i64,
    /// The open menu by its link name (`Menu::name`).
    pub menu: Option<String>,
    /// Compare with this (`""` = the fence switched, `@before` = before the last edit).
    pub compare: Option<String>,
    /// Start a search in the Explore panel once it is drawn.
    pub explore: bool,
    /// A panel of the page to open once it is drawn.
    pub panel: Option<Panel>,
    /// The diagram's zoom window, from and to in ms.
    pub zoom: Option<(i64, i64)>,
    /// The stage's node or link whose actions to show (a click on the stage: the first
    /// load has no action menu of its own).
    pub selected: Option<crate::session::edit::Target>,
    /// An interview question under way (the links' player asks them), where it stands.
    pub quiz: Option<QuizAt>,
    /// The page is an embed in a host's page (the links' player plays a plain embed link).
    pub embed: bool,
    /// The embed's link asked to play on load (`autoplay=1`): kept in the whole app's
    /// address as it was in the player's.
    pub autoplay: bool,
    /// The embed shows the diagram, its controls and the caption only (`view=diagram`).
    pub diagram_only: bool,
    /// The host origins allowed to drive the embed (`origins=`): the whole app obeys no
    /// other, as the player did not.
    pub origins: Vec<String>,
    /// The stretch of the run the link let the reader play (`from=`, `to=`).
    pub span: crate::session::zoom::Span,
    /// A host's `load` message of a scenario of its own, checked by the player, for the
    /// whole app to carry out, as one line of JSON text.
    pub host: Option<String>,
}

/// Where a built-in interview question stands: which one, at which stop, what was picked
/// there and whether its answer is out (`teach::course::Quiz`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuizAt {
    pub question: usize,
    pub stop: usize,
    pub picked: Option<usize>,
    pub revealed: bool,
    pub shown: bool,
}

const MAGIC: &str = "leaseline-handoff 1";

impl Handoff {
    /// This handoff, asked for earlier, with the page as it stands `now` (another
    /// handoff, asking nothing): the reader may have played, stepped, switched the fence,
    /// opened another built-in run or answered a question while the whole app loaded.
    /// What was asked for (a link, an edit, a panel, a menu, a search, a selection, a
    /// zoom) is kept as it was asked.
    pub fn caught_up(&self, now: &Handoff) -> Handoff {
        Handoff {
            base: now.base.clone(),
            fences: now.fences.clone(),
            step: now.step,
            t_ms: now.t_ms,
            quiz: now.quiz,
            ..self.clone()
        }
    }

    pub fn encode(&self) -> String {
        let mut out = String::from(MAGIC);
        let mut line = |k: &str, v: &str| {
            out.push('\n');
            out.push_str(k);
            out.push(' ');
            out.push_str(v);
        };
        if let Some(l) = &self.link {
            line("link", l);
        }
        if let Some(b) = &self.base {
            line("base", b);
        }
        for f in &self.fences {
            line("fence", f.name());
        }
        if let Some(e) = self.edit.as_ref().and_then(edit_words) {
            line("edit", &e);
        }
        line("step", &self.step.to_string());
        line("t", &self.t_ms.to_string());
        if let Some(m) = &self.menu {
            line("menu", m);
        }
        if let Some(c) = &self.compare {
            line("compare", c);
        }
        if let Some(p) = &self.panel {
            line("panel", p.name());
        }
        if self.explore {
            line("explore", "run");
        }
        if let Some((a, b)) = self.zoom {
            line("z", &format!("{a} {b}"));
        }
        match self.selected {
            Some(crate::session::edit::Target::Node(n)) => line("select", &n.to_string()),
            Some(crate::session::edit::Target::Link(a, b)) => line("select", &format!("{a} {b}")),
            None => {}
        }
        // The first load asks no question and is never embedded (`Session::handoff` never
        // sets these there), so it carries none of this.
        #[cfg(not(feature = "lite"))]
        if self.embed {
            line("embed", "1");
        }
        #[cfg(not(feature = "lite"))]
        if self.autoplay {
            line("autoplay", "1");
        }
        #[cfg(not(feature = "lite"))]
        if self.diagram_only {
            line("view", "diagram");
        }
        #[cfg(not(feature = "lite"))]
        if !self.origins.is_empty() {
            line("origins", &self.origins.join(","));
        }
        #[cfg(not(feature = "lite"))]
        if self.span != Default::default() {
            let end = |t: Option<i64>| t.map_or("-".to_string(), |t| t.to_string());
            line(
                "span",
                &format!("{} {}", end(self.span.from), end(self.span.to)),
            );
        }
        #[cfg(not(feature = "lite"))]
        if let Some(m) = &self.host {
            // JSON allows a line break only between its tokens, where a space does as well.
            line("host", &m.replace(['\n', '\r'], " "));
        }
        #[cfg(not(feature = "lite"))]
        if let Some(q) = self.quiz {
            let picked = q.picked.map_or("-".to_string(), |p| p.to_string());
            let flag = |b: bool| if b { "1" } else { "0" };
            line(
                "quiz",
                &format!(
                    "{} {} {picked} {} {}",
                    q.question,
                    q.stop,
                    flag(q.revealed),
                    flag(q.shown)
                ),
            );
        }
        out
    }

    /// Reads [`encode`](Self::encode)'s text back; an error names the line at fault.
    pub fn decode(text: &str) -> Result<Handoff, String> {
        let mut lines = text.lines();
        if lines.next() != Some(MAGIC) {
            return Err("handoff: not a handoff (line 1)".to_string());
        }
        let mut h = Handoff::default();
        for (i, l) in lines.enumerate() {
            let (k, v) = l.split_once(' ').unwrap_or((l, ""));
            let bad = || format!("handoff: line {}: bad {k}", i + 2);
            match k {
                "link" => h.link = Some(v.to_string()),
                "base" => h.base = Some(v.to_string()),
                "fence" => h.fences.push(fence_named(v).ok_or_else(bad)?),
                "edit" => h.edit = Some(edit_from_words(v).ok_or_else(bad)?),
                "step" => h.step = v.parse().map_err(|_| bad())?,
                "t" => h.t_ms = v.parse().map_err(|_| bad())?,
                "explore" if v == "run" => h.explore = true,
                "menu" if Menu::named(v).is_some() => h.menu = Some(v.to_string()),
                "compare" => h.compare = Some(v.to_string()),
                "panel" => h.panel = Some(Panel::named(v).ok_or_else(bad)?),
                "select" => {
                    use crate::session::edit::Target;
                    use crate::vocab::ids::NodeId;
                    let ids: Option<Vec<NodeId>> = v.split(' ').map(NodeId::parse).collect();
                    h.selected = Some(match ids.as_deref() {
                        Some([n]) => Target::Node(*n),
                        Some([a, b]) => Target::Link(*a, *b),
                        _ => return Err(bad()),
                    });
                }
                "quiz" => {
                    let w: Vec<&str> = v.split(' ').collect();
                    let num = |i: usize| w.get(i).and_then(|s| s.parse::<usize>().ok());
                    let flag = |i: usize| match w.get(i) {
                        Some(&"1") => Some(true),
                        Some(&"0") => Some(false),
                        _ => None,
                    };
                    let picked = match w.get(2) {
                        Some(&"-") => None,
                        _ => Some(num(2).ok_or_else(bad)?),
                    };
                    if w.len() != 5 {
                        return Err(bad());
                    }
                    h.quiz = Some(QuizAt {
                        question: num(0).ok_or_else(bad)?,
                        stop: num(1).ok_or_else(bad)?,
                        picked,
                        revealed: flag(3).ok_or_else(bad)?,
                        shown: flag(4).ok_or_else(bad)?,
                    });
                }
                "embed" if v == "1" => h.embed = true,
                "autoplay" if v == "1" => h.autoplay = true,
                "view" if v == "diagram" => h.diagram_only = true,
                "origins" => {
                    h.origins = crate::session::share::parse_origins(v).map_err(|_| bad())?
                }
                "host" => h.host = Some(v.to_string()),
                "span" => {
                    let end = |t: &str| match t {
                        "-" => Some(None),
                        t => t.parse().ok().map(Some),
                    };
                    let (a, b) = v.split_once(' ').ok_or_else(bad)?;
                    let (a, b) = (end(a).ok_or_else(bad)?, end(b).ok_or_else(bad)?);
                    h.span = crate::session::zoom::Span::checked(a, b).map_err(|_| bad())?;
                }
                "z" => {
                    let (a, b) = v.split_once(' ').ok_or_else(bad)?;
                    h.zoom = Some((a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?));
                }
                _ => return Err(bad()),
            }
        }
        Ok(h)
    }
}

pub fn fence_named(word: &str) -> Option<FenceMode> {
    use FenceMode::*;
    [None, Monotone, Strict, Exact, NonAtomic]
        .into_iter()
        .find(|f| f.name() == word)
}

/// A stage action in a few words (`pause c1 12000 5000`): the edits the stage's menu makes
/// (`edit::actions_for`); `None` for any other, which the first load never hands over. A
/// fault is its kind's JSON word ([`Kind::word`]), its nodes, its time and its length.
pub fn edit_words(e: &Edit) -> Option<String> {
    Some(match e {
        Edit::ResumeAt { node, at_ms } => format!("resume {node} {at_ms}"),
        Edit::AddFault(Fault {
            at_ms,
            kind,
            after: None,
        }) => match *kind {
            // The words are written out rather than read from the kinds' table, which the
            // first load (which writes these) would otherwise carry whole; a test reads
            // every one back through the table.
            FaultKind::Pause {
                node,
                for_ms,
                cause: PauseCause::Gc,
            } => format!("pause {node} {at_ms} {for_ms}"),
            FaultKind::ClockJump { node, by_ms } => format!("clock_jump {node} {at_ms} {by_ms}"),
            FaultKind::Restart { node, down_ms } => format!("restart {node} {at_ms} {down_ms}"),
            FaultKind::Partition { a, b } => format!("partition {a} {b} {at_ms}"),
            FaultKind::Heal { a, b } => format!("heal {a} {b} {at_ms}"),
            FaultKind::Delay { from, to, extra_ms } => {
                format!("delay {from} {to} {at_ms} {extra_ms}")
            }
            // The stage's menu adds GC pauses only, and none of these.
            FaultKind::Pause { .. }
            | FaultKind::FailRenewals { .. }
            | FaultKind::Failover { .. }
            | FaultKind::FalsePositive { .. } => return None,
        },
        _ => return None,
    })
}

/// Reads [`edit_words`] back.
pub fn edit_from_words(s: &str) -> Option<Edit> {
    let w: Vec<&str> = s.split(' ').collect();
    let node = |i: usize| w.get(i).and_then(|s| NodeId::parse(s));
    let int = |i: usize| w.get(i).and_then(|s| s.parse::<i64>().ok());
    if w[0] == "resume" {
        return (w.len() == 3).then_some(Edit::ResumeAt {
            node: node(1)?,
            at_ms: int(2)?,
        });
    }
    // How many words the kind's line has, its time, and the fault.
    let (n, at_ms, kind) = match Kind::parse(w[0])? {
        Kind::Pause => (
            4,
            int(2)?,
            FaultKind::Pause {
                node: node(1)?,
                for_ms: int(3)?,
                cause: PauseCause::Gc,
            },
        ),
        Kind::ClockJump => (
            4,
            int(2)?,
            FaultKind::ClockJump {
                node: node(1)?,
                by_ms: int(3)?,
            },
        ),
        Kind::Restart => (
            4,
            int(2)?,
            FaultKind::Restart {
                node: node(1)?,
                down_ms: int(3)?,
            },
        ),
        Kind::Partition => (
            4,
            int(3)?,
            FaultKind::Partition {
                a: node(1)?,
                b: node(2)?,
            },
        ),
        Kind::Heal => (
            4,
            int(3)?,
            FaultKind::Heal {
                a: node(1)?,
                b: node(2)?,
            },
        ),
        Kind::Delay => (
            5,
            int(3)?,
            FaultKind::Delay {
                from: node(1)?,
                to: node(2)?,
                extra_ms: int(4)?,
            },
        ),
        // Never handed over (see `edit_words`).
        Kind::FailRenewals | Kind::Failover | Kind::FalsePositive => return None,
    };
    (w.len() == n).then_some(Edit::AddFault(Fault {
        at_ms,
        kind,
        after: None,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_handoff_names_its_line() {
        for (text, want) in [
            ("nope", "line 1"),
            ("leaseline-handoff 1\nstep x", "line 2"),
            ("leaseline-handoff 1\nstep 1\npanel nowhere", "line 3"),
            ("leaseline-handoff 1\nmenu nowhere", "line 2"),
            ("leaseline-handoff 1\nfence sideways", "line 2"),
            ("leaseline-handoff 1\nedit pause c9 1 2", "line 2"),
        ] {
            let e = Handoff::decode(text).expect_err(text);
            assert!(e.contains(want), "{text}: {e}");
        }
    }
}
