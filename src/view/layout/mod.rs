//! Geometry for the views: the space-time diagram and the stage, as numbers and labels.
//!
//! Components map these shapes to SVG and nothing more, so everything a learner sees —
//! where a lease bar ends, which arrow is a stale write, where the two-believers band
//! lies — is computed here from the trace and the verdict, and tested natively.
//!
//! The diagram is laid out once per run over the whole time axis. Playback reveals it up
//! to the cursor with a clip, so a message in flight shows as an arrow cut at the cursor;
//! nothing is re-laid-out per frame.

// On the first load an `Open` hover text is nothing (`()`): the lets that make one bind it.
#![cfg_attr(feature = "lite", allow(clippy::let_unit_value))]

use crate::analysis::check::{Verdict, ViolationKind};
use crate::vocab::names::{token_words, PauseCause};
use crate::vocab::numbers::decimal;
use crate::vocab::numbers::within;

use crate::analysis::projection::{Interval, Span, State};
use crate::model::trace::{Event, Trace};
use crate::vocab::ids::NodeId;
use crate::vocab::numbers::fmt_ms;
use crate::vocab::time::Time;
use crate::vocab::vecmap::VecMap;

use crate::view::labels::{text_width, Placer, Want};
pub use crate::view::labels::{Fold, Label, Rect};

// The rooms of the drawing that stand on their own.
mod gaps;
mod popover;
mod stage;
pub use gaps::GAP_H;
use gaps::{gap_spans, gaps, GapSpan};
pub use popover::popover;
pub use stage::*;
#[cfg(test)]
use stage::pos;

pub const DIAGRAM_WIDTH: f64 = 960.0;
/// The narrowest drawing laid out (a phone's screen, as the label tests check it); a
/// narrower box shows it scaled down a little.
pub const NARROWEST: f64 = 360.0;
/// The narrowest drawing an embed lays out: a 320 px frame's box, at one unit a pixel, so
/// its text stays 11 px (the whole app's floor of [`NARROWEST`] would scale it to 9).
pub const EMBED_NARROWEST: f64 = 300.0;

/// The width to lay the diagram out at for a box `px` CSS pixels wide: the box's own where
/// it is narrower than [`DIAGRAM_WIDTH`] (a phone, a laptop's column), so one unit is one
/// pixel and the drawing's 11-unit text is 11 px — never shrunk below legibility, never
/// scrolled sideways; [`DIAGRAM_WIDTH`] in a wider box (or before the box is measured),
/// which the drawing is scaled up to fill.
pub fn fitted_width(px: f64) -> f64 {
    if (1.0..DIAGRAM_WIDTH).contains(&px) {
        px.floor().max(NARROWEST)
    } else {
        DIAGRAM_WIDTH
    }
}
/// A lane's height, where the box has room for it.
pub const LANE_H: f64 = 58.0;
/// The shortest lane drawn: a lane's name and its clock reading (two lines of 10–11 px
/// text) still fit one above the other, and the tallest shape on a lane (a pause, 28
/// units) reaches into its neighbours by two. An embed in a short frame
/// shortens its lanes down to this before it cuts any ([`lane_height_for`]).
pub const LANE_H_MIN: f64 = 24.0;
pub const LEFT: f64 = 112.0;
pub const RIGHT: f64 = 24.0;
pub const TOP: f64 = 30.0;

/// The lane height that fits `lanes` lanes in `room` units of height: the usual
/// [`LANE_H`] where there is room for it, shorter where there is not, never under
/// [`LANE_H_MIN`] (below which the box scrolls instead); whole units, so the drawing of a
/// box a pixel taller or shorter is the same one.
pub fn lane_height_for(lanes: usize, room: f64) -> f64 {
    let spare = room - TOP - BOTTOM;
    within((spare / lanes.max(1) as f64).floor(), LANE_H_MIN, LANE_H)
}

/// The drawing's height below its last lane (the axis's ticks run into it).
pub const BOTTOM: f64 = 10.0;

/// Maps true time to x and back.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    pub t0: f64,
    pub t1: f64,
    pub x0: f64,
    pub x1: f64,
}

impl Scale {
    pub fn x(&self, t: f64) -> f64 {
        self.x0 + (t - self.t0) * (self.x1 - self.x0) / (self.t1 - self.t0).max(1.0)
    }
    pub fn t(&self, x: f64) -> f64 {
        self.t0 + (x - self.x0) * (self.t1 - self.t0) / (self.x1 - self.x0).max(1.0)
    }
    /// The horizontal stretch `(a, b)` that carries a drawing made at this scale onto
    /// `view`: a point drawn at `x` belongs at `a · x + b` (the zoom's stand-in drawing,
    /// moved while a gesture goes on).
    pub fn onto(&self, view: &Scale) -> (f64, f64) {
        let a = (self.t1 - self.t0) / (self.x1 - self.x0).max(1.0) * (view.x1 - view.x0)
            / (view.t1 - view.t0).max(1.0);
        (a, view.x(self.t(0.0)))
    }
}

/// How a shape is styled; the view turns it into a CSS class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    Lease,
    Belief,
    Paused,
    Down,
    Accept,
    Stale,
    Reject,
    Effect,
    Duplicate,
    Fault,
    Expire,
}

impl Tone {
    pub fn class(self) -> &'static str {
        match self {
            Tone::Lease => "lease",
            Tone::Belief => "belief",
            Tone::Paused => "paused",
            Tone::Down => "down",
            Tone::Accept => "accept",
            Tone::Stale => "stale",
            Tone::Reject => "reject",
            Tone::Effect => "effect",
            Tone::Duplicate => "duplicate",
            Tone::Fault => "fault",
            Tone::Expire => "expire",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    pub node: NodeId,
    pub name: String,
    /// The lane's title: "Client 1", "Lock service", "Lock service 2" (fits the margin),
    /// "Storage".
    pub label: &'static str,
    pub y: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    pub x0: f64,
    pub x1: f64,
    pub y: f64,
    pub h: f64,
    pub tone: Tone,
    pub label: Option<Label>,
    pub title: String,
    /// Its hover text while it runs on past the cursor ([`Diagram::told`]).
    pub open: Open,
    /// How many bars it stands for: more than one where a long run's window merges bars
    /// of one kind on one lane that lie less than a unit apart (it covers exactly their
    /// union and the gaps between them). (Not on the first load.)
    #[cfg(not(feature = "lite"))]
    pub count: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Arrow {
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
    /// Message family (`Msg::class`).
    pub class: &'static str,
    /// Lost, or dropped on arrival.
    pub dropped: bool,
    pub label: Option<Label>,
    pub title: String,
    /// Its hover text while it is on its way at the cursor ([`Diagram::told`]).
    pub open: Open,
    /// How many messages it stands for: more than one is a bundle of one kind of message
    /// between the same two nodes in a short burst, drawn from this arrow to the last one,
    /// whose start and end x are `last` (for one message, this arrow's own).
    pub count: usize,
    pub last: (f64, f64),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    pub x: f64,
    pub y: f64,
    pub tone: Tone,
    pub glyph: &'static str,
    pub label: Option<Label>,
    pub title: String,
    /// The x of the last moment its hover text tells of: its own, but a pause's end (its
    /// text says how long it lasts). Before then it says `open` ([`Diagram::told`]).
    pub until: f64,
    pub open: Open,
    /// The trace entry it marks (a click jumps there).
    pub entry: usize,
    /// How many events it stands for: more than one where a long run's window folds the
    /// events of a lane closer than a label's width into one marker and a count ("+n").
    /// Never a violation: those are drawn one by one. (Not on the first load, which
    /// draws two short runs.)
    #[cfg(not(feature = "lite"))]
    pub count: usize,
    /// How many marks of its lane it is drawn as: 1; more where marks stand closer than a
    /// glyph (events at one spot, which would stack glyph on glyph), drawn as this one
    /// mark with their count, its glyph the most urgent of theirs, its hover text all of
    /// theirs; 0 for a mark drawn by another (its label is still its own). See
    /// [`stack`]. (Not on the first load, whose two runs stack none.)
    #[cfg(not(feature = "lite"))]
    pub stacked: usize,
    /// A stacked mark's events, in time order, for the inspector's list
    /// ([`Diagram::stack_listing`]); empty for any other mark.
    #[cfg(not(feature = "lite"))]
    pub events: Vec<StackedEvent>,
}

/// One of the events a stacked mark is drawn for ([`Mark::stacked`]).
#[cfg(not(feature = "lite"))]
#[derive(Clone, Debug, PartialEq)]
pub struct StackedEvent {
    pub entry: usize,
    /// Its hover text, and what it says until `until` (empty: the same).
    pub title: String,
    pub open: Open,
    pub until: f64,
}

/// A list the inspector shows for something on the diagram the reader focused or clicked:
/// a count of folded labels, or a mark drawn for several events.
#[derive(Clone, Debug, PartialEq)]
pub struct Listing {
    pub heading: String,
    pub items: Vec<String>,
    /// The true time (ms) by which all of it has happened (the cursor's, for the reveal's
    /// edge to reach it): before it the list is not shown.
    pub at: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    pub x0: f64,
    pub x1: f64,
    pub y0: f64,
    pub y1: f64,
    /// The short tag drawn inside the band, if there is room for it.
    pub tag: Option<Label>,
    pub label: String,
    /// Its hover text while it runs on past the cursor ([`Diagram::told`]).
    pub open: Open,
    pub entry: usize,
}

/// Believed vs actual on a client lane: where the client believes its lease ends (its
/// latest deadline, read on its own clock and mapped to true time) and where the lock
/// service actually let that lease expire, with the gap between them.
#[derive(Clone, Debug, PartialEq)]
pub struct Gap {
    /// The x of the believed end (drawn as a dashed tick).
    pub believed: f64,
    /// The x of the lock service's expiry (drawn as a solid tick).
    pub expired: f64,
    /// Where the client stopped believing, when that is past both ticks (it never looked
    /// at its clock: paused, say); else the later tick.
    pub until: f64,
    /// The client's lane.
    pub y: f64,
    /// The client believes past the expiry, by its clock or for want of looking at it:
    /// for that stretch the lock may be someone else's. Otherwise the gap is a safe margin.
    pub danger: bool,
    pub title: String,
    /// Its hover text while it runs on past the cursor ([`Diagram::told`]).
    pub open: Open,
    /// The expiry's trace entry (a click jumps there).
    pub entry: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Tick {
    pub x: f64,
    pub label: String,
}

/// The whole space-time diagram of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagram {
    pub width: f64,
    pub height: f64,
    /// The height of each lane ([`LANE_H`] unless the box asked for shorter ones).
    pub lane_h: f64,
    pub scale: Scale,
    pub lanes: Vec<Lane>,
    pub bands: Vec<Band>,
    pub bars: Vec<Bar>,
    pub arrows: Vec<Arrow>,
    pub marks: Vec<Mark>,
    /// Believed vs actual, per lease a client believed in and the lock service expired.
    pub gaps: Vec<Gap>,
    /// Counts standing for labels that found no room.
    pub folds: Vec<Fold>,
    pub ticks: Vec<Tick>,
}

/// The unit of a time axis, chosen once for the whole axis from the run's length so that
/// no two ticks mix units ("800 s" beside "10 min" reads as a jump): milliseconds under a
/// second, seconds under five minutes, minutes under five hours, then hours. Returns the
/// unit's length in ms and its name.
fn axis_unit(span_ms: i64) -> (i64, &'static str) {
    if span_ms < 1_000 {
        (1, "ms")
    } else if span_ms < 300_000 {
        (1_000, "s")
    } else if span_ms < 18_000_000 {
        (60_000, "min")
    } else {
        (3_600_000, "h")
    }
}

/// The ticks of an axis over `0..=span_ms`: a step of 1, 2 or 5 × 10^k in the axis's unit
/// (tenths of a unit allowed, so a one-second run counts 0.2 s at a time) giving at most
/// about eight ticks, every label in that one unit; the first reads a bare "0".
pub fn axis_ticks(span_ms: i64) -> Vec<(i64, String)> {
    axis_ticks_in(0, span_ms)
}

/// The ticks of an axis over the window `from..=to` (ms), chosen as [`axis_ticks`] chooses
/// them for the window's length: each a whole multiple of the step, labelled with its
/// time since the start of the run.
pub fn axis_ticks_in(from: i64, to: i64) -> Vec<(i64, String)> {
    let span = (to - from).max(1);
    let (unit, name) = axis_unit(span);
    // Tenths of a unit are the finest step (milliseconds cannot be split).
    let tenth = (unit / 10).max(1);
    let raw = (span + 7) / 8;
    let mut mag = tenth;
    let step = 'found: loop {
        for m in [1, 2, 5] {
            if m * mag >= raw {
                break 'found m * mag;
            }
        }
        mag = mag.saturating_mul(10);
    };
    let first = from.div_euclid(step) * step + if from.rem_euclid(step) > 0 { step } else { 0 };
    (0..)
        .map(|i: i64| first + i * step)
        .take_while(|t| *t <= from + span)
        .map(|t| {
            let label = if t == 0 {
                "0".to_string()
            } else if unit == 1 {
                format!("{t} {name}")
            } else {
                format!("{} {name}", decimal(t / tenth, 1))
            };
            (t, label)
        })
        .collect()
}

impl Diagram {
    pub fn lane_y(&self, node: NodeId) -> f64 {
        self.lanes
            .iter()
            .find(|l| l.node == node)
            .map_or(0.0, |l| l.y)
    }

    /// The labels the page draws over the revealed drawing for a reveal up to `edge`, the
    /// rule being that a label is seen from the moment it tells of ([`Label::at`]) and
    /// never before:
    /// - one that starts at or after its moment and that the edge crosses (it starts at or
    ///   before the edge and may run on past it) is drawn once more beyond the edge, so it
    ///   shows whole from the moment it starts — never "two believ". The reach past the
    ///   start is generous (the font's real width varies); a label wholly left of the edge
    ///   only costs a text the clip hides;
    /// - one placed left of its moment ([`Label::early`]: mirrored, or on a leader line)
    ///   is left out of the page's revealed drawing ([`crate::view::export::svg::diagram_body_in_play`])
    ///   and drawn here whole, with its leader, once its moment is at or before the edge.
    ///
    /// A count of folded labels stays in the drawing, and the timeline shows it only from
    /// its moment on (its list names them all). A band's tag, set a little inside the band,
    /// shows from the band's first moment, wholly beyond the edge: a cursor placed where
    /// two clients begin to believe (the calculator's worst case, a click on the band) has
    /// the tag there, not a few units later.
    pub fn labels_at<'a>(&'a self, edge: f64) -> Vec<LabelAcross<'a>> {
        // Plain loops rather than an iterator chain: this runs in the browser, where each
        // chain's adapters would cost wasm bytes.
        let mut v = Vec::new();
        let mut add = |l: Option<&'a Label>, alarm: bool, fold: bool, from_start: bool| {
            let Some(label) = l else { return };
            if label.at > edge {
                return;
            }
            if label.early() && !fold {
                v.push(LabelAcross {
                    label,
                    alarm,
                    whole: true,
                });
            } else if (from_start || label.x <= edge) && edge < label.x + label.w * 1.2 + 12.0 {
                // The width kept for a label is its widest font's: reaching a little past
                // it covers bold text and any rounding.
                v.push(LabelAcross {
                    label,
                    alarm,
                    whole: false,
                });
            }
        };
        for b in &self.bands {
            add(b.tag.as_ref(), true, false, true);
        }
        for b in &self.bars {
            add(b.label.as_ref(), false, false, false);
        }
        for a in &self.arrows {
            add(a.label.as_ref(), false, false, false);
        }
        for m in &self.marks {
            let alarm = matches!(m.tone, Tone::Stale | Tone::Duplicate | Tone::Reject);
            add(m.label.as_ref(), alarm, false, false);
        }
        for f in &self.folds {
            add(Some(&f.label), false, true, false);
        }
        v
    }

    /// Every label of the drawing (bands' tags, bars', arrows', marks', and the counts of
    /// folded labels), for the checks that read them all.
    pub fn labels(&self) -> Vec<&Label> {
        let mut v: Vec<&Label> = Vec::new();
        v.extend(self.bands.iter().filter_map(|b| b.tag.as_ref()));
        v.extend(self.bars.iter().filter_map(|b| b.label.as_ref()));
        v.extend(self.arrows.iter().filter_map(|a| a.label.as_ref()));
        v.extend(self.marks.iter().filter_map(|m| m.label.as_ref()));
        v.extend(self.folds.iter().map(|f| &f.label));
        v
    }

    /// The hover texts of the shapes that span time — bands, gaps, bars, arrows, in that
    /// order (the order the drawing in play numbers them, `data-told`) — each with the x
    /// from which its whole text is true. Before that x the cursor is inside the shape
    /// (a lease still held, a message on its way), and the shape tells only what has
    /// happened: its `open` text, which names its start and never its end. The first load
    /// leaves these out (its drawing in play has no hover text on them).
    #[cfg(not(feature = "lite"))]
    pub fn told<'a>(&'a self) -> Vec<Told<'a>> {
        let mut v = Vec::new();
        let mut add = |until: f64, open: &'a str, full: &'a str| {
            if !open.is_empty() {
                v.push(Told { until, open, full });
            }
        };
        for b in &self.bands {
            add(b.x1, &b.open, &b.label);
        }
        for g in &self.gaps {
            add(g.believed.max(g.expired).max(g.until), &g.open, &g.title);
        }
        for b in &self.bars {
            add(b.x1, &b.open, &b.title);
        }
        for a in &self.arrows {
            add(a.x1.max(a.last.1), &a.open, &a.title);
        }
        for m in &self.marks {
            // (A mark drawn by another has no hover text of its own.)
            #[cfg(not(feature = "lite"))]
            if m.stacked == 0 {
                continue;
            }
            add(m.until, &m.open, &m.title);
        }
        v
    }
}

#[cfg(not(feature = "lite"))]
impl Diagram {
    /// The inspector's list for a count of folded labels.
    pub fn fold_listing(&self, k: usize) -> Option<Listing> {
        let f = self.folds.get(k)?;
        Some(Listing {
            heading: format!("{} labels folded into “{}”", f.items.len(), f.label.text),
            items: f.items.clone(),
            at: self.scale.t(f.label.at - 0.5),
        })
    }

    /// The inspector's list for the mark `k` when it stands for several events, with the
    /// reveal's edge at `edge`: each event's hover text as it reads then (a pause not yet
    /// over does not say how long it lasts).
    pub fn stack_listing(&self, k: usize, edge: f64) -> Option<Listing> {
        let m = self.marks.get(k).filter(|m| m.stacked > 1)?;
        let items = m.events.iter().map(|e| {
            let told = Told {
                until: e.until,
                open: &e.open,
                full: &e.title,
            };
            told.at(edge).to_string()
        });
        Some(Listing {
            heading: format!("{} events at one spot", m.events.len()),
            items: items.collect(),
            at: self.scale.t(m.x - 0.5),
        })
    }

    /// The trace entry of a stacked mark's last event: where its moment is (a click goes
    /// there, so that every event it stands for has happened).
    pub fn stack_end(&self, k: usize) -> Option<usize> {
        self.marks.get(k)?.events.last().map(|e| e.entry)
    }
}

/// One shape's hover text for the reveal ([`Diagram::told`]).
#[cfg(not(feature = "lite"))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Told<'a> {
    /// From here (drawing units) the whole text is true.
    pub until: f64,
    /// What it says before then.
    pub open: &'a str,
    pub full: &'a str,
}

#[cfg(not(feature = "lite"))]
impl<'a> Told<'a> {
    /// What it says with the reveal's edge at `edge` (with no open text, its whole text).
    pub fn at(&self, edge: f64) -> &'a str {
        if edge >= self.until || self.open.is_empty() {
            self.full
        } else {
            self.open
        }
    }
}

/// A shape's hover text while it runs on past the cursor ([`Diagram::told`]); empty where
/// its whole text is true whenever it is seen. Nothing on the first load, whose drawing in
/// play shows no hover text on shapes that span time.
#[cfg(not(feature = "lite"))]
pub type Open = String;
#[cfg(feature = "lite")]
pub type Open = ();

/// Makes a shape's whole hover text: on the first load, nothing (it shows no hover text in
/// play, and its whole run drawn before the wasm arrives is drawn natively).
fn hover(f: impl FnOnce() -> String) -> String {
    if cfg!(feature = "lite") {
        String::new()
    } else {
        f()
    }
}

/// Makes an [`Open`] text (on the first load, nothing).
fn open_text(f: impl FnOnce() -> String) -> Open {
    #[cfg(not(feature = "lite"))]
    return f();
    #[cfg(feature = "lite")]
    let _ = f;
}

/// A label the page draws over the revealed drawing ([`Diagram::labels_at`]); `alarm`:
/// drawn in the alarm's colour and weight, as the two-believers tag and a stale write's
/// label are; `whole`: drawn whole (it is not in the revealed drawing), with its leader,
/// else only the part beyond the edge.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelAcross<'a> {
    pub label: &'a Label,
    pub alarm: bool,
    pub whole: bool,
}

/// Who a wanted label belongs to, so that its placed label finds its way back.
#[derive(Clone, Copy)]
enum Who {
    Band(usize),
    Bar(usize),
    Arrow(usize),
    Mark(usize),
}

/// The labels the shapes want, gathered while the shapes are built and placed once all of
/// them are known (a label must keep off shapes drawn after it, too).
#[derive(Default)]
struct Wants {
    v: Vec<Want>,
    who: Vec<Who>,
}

impl Wants {
    /// A label for `who` about the point `at`, best started `off` from it; `slide`: a
    /// bar's end, up to which its label may move along it.
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        who: Who,
        rank: u8,
        at: (f64, f64),
        off: (f64, f64),
        text: String,
        short: Option<String>,
        slide: Option<f64>,
    ) {
        self.v.push(Want {
            ax: at.0,
            ay: at.1,
            x: at.0 + off.0,
            y: at.1 + off.1,
            text,
            short,
            slide,
            rank,
            at: at.0,
        });
        self.who.push(who);
    }
}

/// Messages of one kind between the same two nodes sent within this many units of each
/// other are drawn as one bundle (renewal traffic): its first and last arrows and the
/// band between them, with a count.
const BURST: f64 = 8.0;

/// The box an arrowhead covers at the end (`x1`, `y1`) of a line from (`x0`, `y0`): the
/// marker's triangle reaches about 10 units back along the line (at the widest stroke),
/// 6 to each side, and a unit past the end.
pub fn arrowhead_box(x0: f64, y0: f64, x1: f64, y1: f64) -> Rect {
    let (dx, dy) = (x1 - x0, y1 - y0);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / len, dy / len);
    let pts = [
        (x1 + ux * 1.5, y1 + uy * 1.5),
        (x1 - ux * 10.0 - uy * 6.0, y1 - uy * 10.0 + ux * 6.0),
        (x1 - ux * 10.0 + uy * 6.0, y1 - uy * 10.0 - ux * 6.0),
    ];
    let mut r = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (x, y) in pts {
        r = (r.0.min(x), r.1.min(y), r.2.max(x), r.3.max(y));
    }
    r
}

/// What a layout reads from the whole run whatever its window and width: gathered once
/// per run (`session::Run` keeps it), so that a zoom, a pan or a narrower screen lays out
/// only what its window shows — a window of a 100,000-entry run costs what its own entries
/// cost, not a walk of the whole trace.
pub struct Index {
    /// The projection's intervals, in the order they end ([`crate::analysis::projection::intervals`]).
    spans: Vec<Interval>,
    /// When each message dropped on arrival was dropped, by id.
    dropped: VecMap<u32, Time>,
    /// The longest flight of any message (ms): a message sent more than this before a
    /// window cannot reach into it, so nothing earlier is looked at.
    longest_flight: i64,
    /// Believed vs actual, in true time (see [`gap_spans`]).
    gaps: Vec<GapSpan>,
    /// Look only at the window's entries (always, but in the test that a window is drawn
    /// exactly as a walk of every entry would draw it: [`Index::uncut`]).
    cut: bool,
    /// The run's items sorted for windows drawn at a level of detail, made by the first
    /// such window (a short run never needs them).
    #[cfg(not(feature = "lite"))]
    lod: std::cell::OnceCell<lod::Lod>,
    /// A window of more entries than this is drawn at a level of detail.
    #[cfg(not(feature = "lite"))]
    lod_above: usize,
}

impl Index {
    pub fn new(trace: &Trace) -> Index {
        let mut dropped = VecMap::new();
        let mut longest_flight = 0;
        for e in &trace.entries {
            match e.event {
                Event::Dropped { id, .. } => {
                    dropped.insert(id, e.t);
                }
                Event::Sent {
                    arrives: Some(a), ..
                } => longest_flight = longest_flight.max(a.0 - e.t.0),
                _ => {}
            }
        }
        Index {
            spans: crate::analysis::projection::intervals(trace),
            dropped,
            longest_flight,
            gaps: gap_spans(trace),
            cut: true,
            #[cfg(not(feature = "lite"))]
            lod: std::cell::OnceCell::new(),
            #[cfg(not(feature = "lite"))]
            lod_above: LOD_ENTRIES,
        }
    }

    /// The same index, but a layout with it walks every entry of the run and draws every
    /// shape (no level of detail): what a window's layout must come to
    /// (tests/it/labels.rs), and what a level of detail must stay true to
    /// (tests/it/layout_lod.rs).
    pub fn uncut(self) -> Index {
        Index { cut: false, ..self }
    }

    /// The same index, but drawing at a level of detail any window of more than `n`
    /// entries (the tests draw short runs so, to check what merging keeps).
    #[cfg(not(feature = "lite"))]
    pub fn lod_above(self, n: usize) -> Index {
        Index {
            lod_above: n,
            ..self
        }
    }
}

/// The scale of a drawing `width` units across over `window` (ms, from and to; `None`:
/// the whole run, `0..=end`).
pub fn scale_of(end: i64, width: f64, window: Option<(i64, i64)>) -> Scale {
    let (t0, t1) = window.unwrap_or((0, end));
    Scale {
        t0: t0 as f64,
        t1: t1.max(t0 + 1) as f64,
        x0: LEFT,
        x1: width - RIGHT,
    }
}

/// The time axis's ticks for `scale`'s window ([`axis_ticks_in`]), placed on it.
/// On a narrow drawing (a phone's), only every second (or fifth…) of them, so that no two
/// labels of the axis touch: each is centred on its tick and kept a few units apart.
pub fn ticks(scale: &Scale) -> Vec<Tick> {
    let all = axis_ticks_in(scale.t0 as i64, scale.t1 as i64);
    let widest = all.iter().map(|(_, l)| text_width(l)).fold(0.0, f64::max);
    let pitch = match all.as_slice() {
        [(a, _), (b, _), ..] => scale.x(*b as f64) - scale.x(*a as f64),
        _ => f64::MAX,
    };
    let mut stride = 1;
    // (The first load's two runs need no thinning at any width: it leaves it out.)
    while !cfg!(feature = "lite") && pitch * (stride as f64) < widest + 6.0 && stride < all.len() {
        stride += 1;
    }
    all.into_iter()
        .enumerate()
        .filter(|(i, _)| i % stride == 0)
        .map(|(_, (t, label))| Tick {
            x: scale.x(t as f64),
            label,
        })
        .collect()
}

/// Lays out the diagram of `trace` over its whole time span, [`DIAGRAM_WIDTH`] across.
pub fn diagram(trace: &Trace, verdict: &Verdict) -> Diagram {
    layout(trace, verdict, DIAGRAM_WIDTH, None)
}

/// Lays out the diagram of `trace` `width` units across, over the window of true time
/// `window` (ms, from and to; `None`: the whole run). Only what the window shows is drawn
/// (a bar is cut at its edges), and the labels are placed for it: a closer window has
/// room for more of them.
pub fn layout(trace: &Trace, verdict: &Verdict, width: f64, window: Option<(i64, i64)>) -> Diagram {
    layout_in(&Index::new(trace), trace, verdict, width, window)
}

/// [`layout`], reading the run's [`Index`] (built from this `trace`) instead of walking
/// the whole trace again: only the entries from a flight before the window to its end
/// are looked at.
pub fn layout_in(
    ix: &Index,
    trace: &Trace,
    verdict: &Verdict,
    width: f64,
    window: Option<(i64, i64)>,
) -> Diagram {
    layout_rows(ix, trace, verdict, width, LANE_H, window)
}

/// [`layout_in`] with lanes `lane_h` units tall (see [`lane_height_for`]): what an embed in
/// a short frame draws, so that every lane is in view. Shapes keep their sizes; only the
/// lanes move closer together, and the labels are placed for the room that leaves.
pub fn layout_rows(
    ix: &Index,
    trace: &Trace,
    verdict: &Verdict,
    width: f64,
    lane_h: f64,
    window: Option<(i64, i64)>,
) -> Diagram {
    let lanes: Vec<Lane> = trace
        .nodes
        .iter()
        .enumerate()
        .map(|(i, (n, _))| Lane {
            node: *n,
            name: n.name(),
            label: n.lane(),
            y: TOP + lane_h * (i as f64 + 0.5),
        })
        .collect();
    let height = TOP + lane_h * lanes.len() as f64 + BOTTOM;
    let scale = scale_of(trace.end.0, width, window);
    let (t0, t1) = (scale.t0 as i64, scale.t1 as i64);
    let seen = |t: Time| t0 <= t.0 && t.0 <= t1;
    let y_of: VecMap<NodeId, f64> = lanes.iter().map(|l| (l.node, l.y)).collect();
    let ly = |n: NodeId| y_of.get(&n).copied().unwrap_or(0.0);
    let x = |t: Time| scale.x(t.0 as f64);
    let xc = |t: Time| within(x(t), scale.x0, scale.x1);
    let mut wants = Wants::default();
    let mut bars = Vec::new();
    let mut arrows: Vec<Arrow> = Vec::new();
    let mut marks = Vec::new();

    let mut violation_at: VecMap<usize, ViolationKind> = VecMap::new();
    for v in &verdict.violations {
        violation_at.get_or_insert_with(v.entry as usize, || v.kind);
    }
    let dropped_on_arrival = &ix.dropped;

    let client_lanes: Vec<f64> = lanes
        .iter()
        .filter(|l| l.node.is_client())
        .map(|l| l.y)
        .collect();
    let (y0, y1) = (
        client_lanes.first().copied().unwrap_or(TOP) - lane_h / 2.0 + 2.0,
        client_lanes.last().copied().unwrap_or(TOP) + lane_h / 2.0 - 2.0,
    );
    let mut bands = Vec::new();
    for o in &verdict.overlaps {
        if o.to.0 < t0 || o.from.0 > t1 {
            continue;
        }
        let who: Vec<String> = o
            .clients
            .iter()
            .map(|(c, t)| format!("{} ({})", c.name(), token_words(*t)))
            .collect();
        let (bx0, bx1) = (xc(o.from), xc(o.to));
        let tag = "two believers";
        if bx1 - bx0 > text_width(tag) + 8.0 {
            let who = Who::Band(bands.len());
            let slide = Some(bx1 - 4.0);
            wants.add(
                who,
                0,
                (bx0, y0 + 12.0),
                (4.0, 0.0),
                tag.into(),
                None,
                slide,
            );
        }
        bands.push(Band {
            x0: bx0,
            x1: bx1,
            y0,
            y1,
            tag: None,
            label: hover(|| {
                format!(
                    "{} both believe they hold the lock, {} → {}",
                    who.join(" and "),
                    o.from,
                    o.to
                )
            }),
            open: open_text(|| {
                format!(
                    "{} both believe they hold the lock, from {}",
                    who.join(" and "),
                    o.from
                )
            }),
            entry: o.entry as usize,
        });
    }

    // The intervals (beliefs, pauses, down times, leases) are the projection's; each bar
    // is drawn when its interval ends, so the bars are in the order of the run.
    // The first entry that can show: nothing sent before it arrives in the window.
    let first = match window {
        Some(_) if ix.cut => trace
            .entries
            .partition_point(|e| e.t.0 < t0.saturating_sub(ix.longest_flight)),
        _ => 0,
    };
    // A window of more entries than its drawing can show is drawn at a level of detail
    // (`unit`: ms per drawing unit); else shape for shape, walking its entries.
    #[cfg(not(feature = "lite"))]
    let unit = {
        let lo = trace
            .entries
            .partition_point(|e| e.t.0 < t0.saturating_sub(ix.longest_flight));
        let hi = trace.entries.partition_point(|e| e.t.0 <= t1);
        (ix.cut && hi - lo > ix.lod_above)
            .then(|| (t1 - t0) as f64 / (scale.x1 - scale.x0).max(1.0))
    };
    #[cfg(feature = "lite")]
    let unit: Option<f64> = None;
    #[cfg(not(feature = "lite"))]
    if let Some(u) = unit {
        let lod = ix
            .lod
            .get_or_init(|| lod::Lod::new(trace, &violation_at, &ix.spans, &ix.dropped));
        lod::body(
            lod,
            ix,
            trace,
            &violation_at,
            &scale,
            u,
            &ly,
            &mut bars,
            &mut arrows,
            &mut marks,
            &mut wants,
        );
    }
    let mut spans = ix.spans.iter().peekable();
    if unit.is_some() {
        // (Drawn above: nothing is left to walk.)
        while spans.next().is_some() {}
    }
    // An interval that ended before `first` ended before the window.
    while spans
        .next_if(|iv| iv.ended_by.is_some_and(|j| j < first))
        .is_some()
    {}
    let add_bar = |bars: &mut Vec<Bar>, wants: &mut Wants, iv: &Interval, ended| {
        if iv.to.0 < t0 || iv.from.0 > t1 {
            return;
        }
        let (bar, want) = interval_bar(&scale, ly(iv.node), iv, ended);
        if let Some((text, short)) = want {
            let who = Who::Bar(bars.len());
            let (at, end) = ((bar.x0, ly(iv.node)), Some(bar.x1));
            wants.add(who, 3, at, (4.0, -12.0), text, short, end);
        }
        bars.push(bar);
    };
    // The open bundle of each kind of message between two nodes: its key, its arrow, when
    // its first message was sent.
    type Key = (NodeId, NodeId, &'static str, bool);
    let mut open: Vec<(Key, usize, Time)> = Vec::new();
    let walk = if unit.is_some() {
        0
    } else {
        trace.entries.len()
    };
    for (i, e) in trace.entries.iter().enumerate().take(walk).skip(first) {
        if ix.cut && e.t.0 > t1 {
            // Past the window: nothing more shows but the intervals still going.
            break;
        }
        let n = e.node;
        while let Some(iv) = spans.next_if(|iv| iv.ended_by == Some(i)) {
            add_bar(&mut bars, &mut wants, iv, Some(&e.event));
        }
        if let Some((to, msg, arrives, dropped)) = sent(e, dropped_on_arrival) {
            if e.t.0 > t1 || arrives.unwrap_or(e.t).0 < t0 {
                continue;
            }
            let (x0, y0) = (x(e.t), ly(n));
            let (x1, y1) = match arrives {
                Some(a) => (x(a), ly(to)),
                None => (x0 + 4.0, y0 + (ly(to) - y0) * 0.35),
            };
            let important = labelled(msg);
            let key = (n, to, msg.class(), dropped);
            if important && !dropped && seen(arrives.unwrap_or(e.t)) {
                let who = Who::Arrow(arrows.len());
                let dy = if y1 > y0 { -14.0 } else { 18.0 };
                wants.add(who, 2, (x1, y1), (5.0, dy), msg.label(), None, None);
            } else if arrives.is_some() && !cfg!(feature = "lite") {
                // Unlabelled: it may join the bundle of its kind, if that is close. (The
                // first load's two runs have no bursts: it leaves bundling out, for size.)
                let near = open.iter().position(|(k, j, _)| {
                    let a = &arrows[*j];
                    *k == key && x0 - a.last.0 <= BURST && (x1 - a.last.1).abs() <= BURST
                });
                if let Some(p) = near {
                    let (_, j, first) = open[p];
                    let a = &mut arrows[j];
                    a.count += 1;
                    a.last = (x0, x1);
                    a.title = format!(
                        "{} → {}: {} {} messages, sent {first} to {}",
                        n.name(),
                        to.name(),
                        a.count,
                        msg.class(),
                        e.t
                    );
                    a.open = open_text(|| {
                        format!(
                            "{} → {}: {} messages, sent from {first}",
                            n.name(),
                            to.name(),
                            msg.class()
                        )
                    });
                    continue;
                }
                match open.iter_mut().find(|(k, _, _)| *k == key) {
                    Some(o) => *o = (key, arrows.len(), e.t),
                    None => open.push((key, arrows.len(), e.t)),
                }
            }
            let when = match arrives {
                Some(a) => format!("sent {}, arrives {a}", e.t),
                None => format!("sent {}, lost", e.t),
            };
            arrows.push(Arrow {
                x0,
                y0,
                x1,
                y1,
                class: msg.class(),
                dropped,
                label: None,
                title: hover(|| format!("{} → {}: {} ({when})", n.name(), to.name(), msg.label())),
                open: open_text(|| {
                    format!(
                        "{} → {}: {} (sent {})",
                        n.name(),
                        to.name(),
                        msg.label(),
                        e.t
                    )
                }),
                count: 1,
                last: (x0, x1),
            });
            continue;
        }
        if !seen(e.t) {
            continue;
        }
        // A marker on the lane, with its label below it (a fault's above; rank: the alarm
        // first).
        let at = (x(e.t), ly(n));
        let until = x(told_until(e));
        put_marker(
            &mut marks,
            &mut wants,
            i,
            e,
            (at, until),
            &violation_at,
            None,
        );
    }
    // Whatever is still open at the window's end runs on past it (to the end of the run,
    // or to the entry that ends it).
    for iv in spans {
        let ended = iv.ended_by.and_then(|j| trace.entries.get(j));
        add_bar(&mut bars, &mut wants, iv, ended.map(|e| &e.event));
    }
    // A bundle of three or more arriving at a client says how many messages it stands
    // for, beside the client's bar ("8 renew"); its requests' bundle, the other way, has
    // as many and stays quiet.
    let client_y = |y: f64| lanes.iter().any(|l| l.y == y && l.node.is_client());
    for (j, a) in arrows.iter().enumerate() {
        if a.count >= 3 && client_y(a.y1) && !cfg!(feature = "lite") {
            let mid = ((a.x1 + a.last.1) / 2.0, a.y1);
            let dy = if a.y1 > a.y0 { -14.0 } else { 18.0 };
            let text = a.count.to_string() + " " + a.class;
            let short = Some(format!("{}×", a.count));
            wants.add(Who::Arrow(j), 4, mid, (5.0, dy), text, short, None);
            // The count tells of every message in the bundle: seen once the last arrives.
            if let Some(w) = wants.v.last_mut() {
                w.at = a.x1.max(a.last.1);
            }
        }
    }

    // (A margin of one client is merged with the next only at a level of detail.)
    let gaps = gaps(&ix.gaps, &scale, &ly, unit.map_or(0.0, |u| u));
    #[cfg(not(feature = "lite"))]
    stack(&mut marks);

    // The shapes take their cells first, then the labels theirs, the most important first.
    let mut placer = Placer::new(width, height);
    placer.last_x = scale.x1;
    placer.fill((0.0, 0.0, LEFT, height));
    placer.fill((0.0, 0.0, width, 20.0));
    for l in &lanes {
        placer.fill((LEFT, l.y - 1.0, scale.x1, l.y + 1.0));
    }
    for b in &bars {
        placer.fill((b.x0, b.y, b.x1.max(b.x0 + 1.5), b.y + b.h));
    }
    for m in &marks {
        let r = if matches!(m.tone, Tone::Stale | Tone::Duplicate) {
            10.0
        } else {
            8.0
        };
        placer.fill((m.x - r, m.y - r, m.x + r, m.y + r));
        // A stacked mark's count, above its glyph.
        #[cfg(not(feature = "lite"))]
        if m.stacked > 1 {
            let w = text_width(&m.stacked.to_string());
            placer.fill((m.x, m.y - 21.0, m.x + w + 2.0, m.y - 7.0));
        }
    }
    for a in &arrows {
        for (x0, x1) in [(a.x0, a.x1), a.last] {
            if a.dropped {
                placer.fill((x1 - 6.0, a.y1 - 6.0, x1 + 6.0, a.y1 + 6.0));
            } else {
                placer.fill(arrowhead_box(x0, a.y0, x1, a.y1));
            }
        }
    }
    // A gap's two ticks keep labels off them; its tint may lie under a label.
    for g in &gaps {
        for gx in [g.believed, g.expired] {
            placer.fill((gx - 1.0, g.y - GAP_H, gx + 1.0, g.y + GAP_H));
        }
    }
    let (placed, folds) = placer.place_all(&wants.v);
    for (label, who) in placed.into_iter().zip(wants.who) {
        match who {
            Who::Band(i) => bands[i].tag = label,
            Who::Bar(i) => bars[i].label = label,
            Who::Arrow(i) => arrows[i].label = label,
            Who::Mark(i) => marks[i].label = label,
        }
    }

    let ticks = ticks(&scale);

    Diagram {
        width,
        height,
        lane_h,
        scale,
        lanes,
        bands,
        bars,
        arrows,
        marks,
        gaps,
        folds,
        ticks,
    }
}

/// A marker's look and wanted label for entry `i` (`e`), if it draws one: tone, glyph, rank,
/// text, short text, hover title. One place for every kind of event (a copy per kind would
/// cost the first load).
#[allow(clippy::type_complexity)]
fn marker(
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
        ev => fault_glyph(ev).map(|(glyph, text, short)| {
            let title = format!("{}: {} — {text}", e.t, n.name());
            (Tone::Fault, glyph, 1, text, short, title)
        }),
    }
}

/// A window holding more entries than this is drawn at a level of detail: its shapes
/// merged to what its units can show (see [`lod`]). Every built-in scenario's windows
/// hold fewer (the busiest, eight clients for 100 s, has about 1,700 entries in all), so
/// they are drawn shape for shape.
#[cfg(not(feature = "lite"))]
pub const LOD_ENTRIES: usize = 2_000;

/// At most this many arrows (single messages or bundles) in a window drawn at a level of
/// detail: its bundles widen until they fit, so a window's drawing stays a few thousand
/// SVG elements however long the run.
#[cfg(not(feature = "lite"))]
pub const LOD_ARROWS: usize = 240;

#[cfg(not(feature = "lite"))]
mod lod;

/// Marks closer than this on one lane would print glyph on glyph (two circles of radius
/// 7): they are drawn as one.
#[cfg(not(feature = "lite"))]
pub const STACK: f64 = 14.0;

/// Draws the marks of a lane that stand closer than [`STACK`] to the one before them as
/// one mark ([`Mark::stacked`]): at the last of them, so that nothing is drawn before its
/// time; with the glyph, tone and entry of the most urgent (a violation, then a fault,
/// then the latest); its hover text every one's, in order. Each keeps its own label.
#[cfg(not(feature = "lite"))]
fn stack(marks: &mut [Mark]) {
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
fn told_until(e: &crate::model::trace::Entry) -> Time {
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
fn put_marker(
    marks: &mut Vec<Mark>,
    wants: &mut Wants,
    i: usize,
    e: &crate::model::trace::Entry,
    (at, until): ((f64, f64), f64),
    violation_at: &VecMap<usize, ViolationKind>,
    folded: Option<(usize, String)>,
) {
    let Some((tone, glyph, rank, text, short, title)) = marker(i, e, violation_at) else {
        return;
    };
    let who = Who::Mark(marks.len());
    let dy = if tone == Tone::Fault { -16.0 } else { 20.0 };
    #[cfg(not(feature = "lite"))]
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
    // for: until then, only what has begun.
    #[cfg(not(feature = "lite"))]
    let open = if until > at.0 {
        match many {
            true => format!("events on {} from {}, drawn as one", e.node.name(), e.t),
            false => format!("{}: {} — paused", e.t, e.node.name()),
        }
    } else {
        Open::default()
    };
    #[cfg(feature = "lite")]
    let open = ();
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
        #[cfg(not(feature = "lite"))]
        count: n,
        #[cfg(not(feature = "lite"))]
        stacked: 1,
        #[cfg(not(feature = "lite"))]
        events: Vec::new(),
    });
    let _ = n; // (The first load keeps no count.)
}

/// A message sent at `e`: to whom, what, when it arrives (`None`: lost on the way), and
/// whether it is drawn as lost (on the way, or dropped on arrival: `dropped`, by id).
fn sent<'a>(
    e: &'a crate::model::trace::Entry,
    dropped: &VecMap<u32, Time>,
) -> Option<(NodeId, &'a crate::model::msg::Msg, Option<Time>, bool)> {
    match &e.event {
        Event::Sent {
            id,
            to,
            msg,
            arrives,
        } => Some((
            *to,
            msg,
            *arrives,
            arrives.is_none() || dropped.get(id).is_some(),
        )),
        _ => None,
    }
}

/// Whether a delivered message is labelled on its arrow: a grant, a write, a rejection
/// (not a queued reply, which says only "wait").
fn labelled(msg: &crate::model::msg::Msg) -> bool {
    matches!(msg.class(), "grant" | "write" | "reject")
        && !matches!(msg, crate::model::msg::Msg::Queued { .. })
}

/// Faults and failure reactions get a glyph and a short label on their lane, and a shorter
/// one for a tight spot.
// The first load's arm makes the later arms of its events unreachable there.
#[cfg_attr(feature = "lite", allow(unreachable_patterns))]
fn fault_glyph(ev: &Event) -> Option<(&'static str, String, Option<String>)> {
    Some(match ev {
        // Events the first load never sees (`model::trace::left_out_events`).
        #[cfg(feature = "lite")]
        crate::left_out_events!() => return None,
        Event::Paused { for_ms, cause } => (
            "❄",
            match cause {
                PauseCause::Gc => format!("paused {}", fmt_ms(*for_ms)),
                c => format!("paused {}: {}", fmt_ms(*for_ms), c.prose()),
            },
            Some(fmt_ms(*for_ms)),
        ),
        // Nodes by the names the lanes and the text give them ("lock service 4"), never
        // by their ids in links and JSON ("coord4").
        Event::LinkCut { peer } => ("✂", format!("cut from {}", peer.name()), Some(peer.name())),
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
        Event::RenewalsFailing { .. } => ("!", "renewals fail".to_string(), Some("fail".into())),
        Event::FailedOpen => ("!", "fails open".to_string(), None),
        _ => return None,
    })
}

/// The bar of one of the projection's intervals, cut to the scale's axis, and the label it
/// wants (its text and short form); `ended`: the event that ended it (`None`: it runs to
/// the end of the run), which the bar's title names.
fn interval_bar(
    scale: &Scale,
    y: f64,
    iv: &Interval,
    ended: Option<&Event>,
) -> (Bar, Option<(String, Option<String>)>) {
    let (t0, t1) = (iv.from, iv.to);
    let x0 = within(scale.x(t0.0 as f64), scale.x0, scale.x1);
    let x1 = within(scale.x(t1.0 as f64), scale.x0, scale.x1);
    let bar = |dy: f64, h: f64, tone, title, open| Bar {
        x0,
        x1,
        y: y + dy,
        h,
        tone,
        label: None,
        title,
        open,
        #[cfg(not(feature = "lite"))]
        count: 1,
    };
    match iv.span {
        Span::Belief { token } => {
            let how = match ended {
                Some(Event::BeliefEnded { how, .. }) => how.to_string(),
                Some(_) => "it took another token".to_string(),
                None => "still believing at the end".to_string(),
            };
            let title = hover(|| {
                format!(
                    "believes it holds the lock ({}) from {t0} to {t1} (then {how})",
                    token_words(token)
                )
            });
            let open = open_text(|| {
                format!(
                    "believes it holds the lock ({}) from {t0}",
                    token_words(token)
                )
            });
            let text = format!("believes {}", token_words(token));
            let want = (x1 - x0 > 50.0).then(|| (text, Some(token_words(token))));
            (bar(-5.0, 10.0, Tone::Belief, title, open), want)
        }
        Span::Paused => {
            let title =
                hover(|| format!("paused from {t0} to {t1}: handlers frozen, clock running"));
            let open = open_text(|| format!("paused from {t0}: handlers frozen, clock running"));
            (bar(-14.0, 28.0, Tone::Paused, title, open), None)
        }
        Span::Down => {
            let title = hover(|| match ended {
                Some(_) => format!("{} down from {t0} to {t1}", iv.node.name()),
                None => format!("{} down from {t0}", iv.node.name()),
            });
            let open = open_text(|| format!("{} down from {t0}", iv.node.name()));
            (bar(-12.0, 24.0, Tone::Down, title, open), None)
        }
        Span::Lease { client, token } => {
            let how = match ended {
                Some(Event::LeaseGranted { .. }) => "replaced",
                Some(Event::LeaseReleased { .. }) => "released",
                Some(Event::SessionInvalidated { .. }) => "invalidated",
                Some(Event::LeaseExpired { .. }) => "expired",
                Some(Event::Crashed { .. }) => "lock service crashed",
                Some(Event::FailedOver { .. }) => "lost in failover",
                Some(_) => "ended",
                None => "still held at the end",
            };
            let who = client.name().replace("client ", "c");
            let text = format!("{who} · {}", token_words(token));
            let want = (x1 - x0 > 40.0).then(|| (text, Some(format!("{who} · {token}"))));
            let title = hover(|| {
                format!(
                    "lease ({}) held by {} from {t0} to {t1} ({how})",
                    token_words(token),
                    client.name()
                )
            });
            let open = open_text(|| {
                format!(
                    "lease ({}) held by {} from {t0}",
                    token_words(token),
                    client.name()
                )
            });
            (bar(-7.0, 14.0, Tone::Lease, title, open), want)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::check::check;
    use crate::analysis::projection::{step_at_time, Projection};
    use crate::model::sim::simulate;
    use crate::teach::presets::preset;

    /// gc-pause: client 1's lease (token 33) runs out at the lock service at ≈ 30 s while
    /// the client is frozen (10–50 s); its own clock puts the end at ≈ 30 s too, but it
    /// believes on until it wakes at 50 s. Its lane shows the dashed tick (its deadline),
    /// the solid one (the expiry) and the danger from there to where it stops believing —
    /// drawn from the start of the run, before client 2 gets the lock.
    #[test]
    fn gc_pause_marks_what_client_1_believes_against_the_expiry() {
        let (t, _, d) = gc("gc-pause");
        let c1 = NodeId::Client(0);
        let find = |f: &dyn Fn(&Event) -> Option<i64>| {
            t.entries
                .iter()
                .enumerate()
                .find_map(|(i, e)| {
                    (e.node == c1
                        || matches!(e.event, Event::LeaseExpired { client, .. } if client == c1))
                    .then(|| f(&e.event).map(|v| (i, e.t, v)))
                    .flatten()
                })
                .unwrap()
        };
        let (_, _, deadline) = find(&|ev| match ev {
            Event::BeliefStarted {
                token: 33,
                deadline_local,
                ..
            } => Some(*deadline_local),
            _ => None,
        });
        let (expiry, at, _) =
            find(&|ev| matches!(ev, Event::LeaseExpired { token: 33, .. }).then_some(0));
        let (_, woke, _) =
            find(&|ev| matches!(ev, Event::BeliefEnded { token: 33, .. }).then_some(0));
        // Client 1's clock is true: its deadline on its clock is the true time.
        let clock = t.nodes.iter().find(|(n, _)| *n == c1).unwrap().1;
        let believed = crate::analysis::projection::deadline_in_true_time(&clock, deadline);
        assert!((29_900..=30_100).contains(&believed.0), "{believed}");
        assert!((29_900..=30_100).contains(&at.0), "{at}");
        assert!(woke.0 >= 50_000, "{woke}");
        let x = |t: Time| d.scale.x(t.0 as f64);
        let gaps: Vec<&Gap> = d.gaps.iter().filter(|g| g.y == d.lane_y(c1)).collect();
        assert_eq!(gaps.len(), 1, "{:?}", d.gaps);
        let g = gaps[0];
        assert_eq!(
            (g.believed, g.expired, g.until),
            (x(believed), x(at), x(woke))
        );
        assert_eq!(g.entry, expiry);
        assert!(g.danger, "{g:?}");
        assert!(g.title.contains("went on believing until"), "{}", g.title);
        // Client 2 is granted the lock only at the expiry: the danger starts no later.
        let grant = t
            .entries
            .iter()
            .find(|e| matches!(e.event, Event::BeliefStarted { token: 34, .. }))
            .unwrap();
        assert!(g.believed.min(g.expired) <= x(grant.t));
    }

    /// In every preset each gap stands at a lease's expiry, and it is the alarm exactly
    /// when the client believes past that expiry (by its clock, or for want of looking).
    #[test]
    fn every_gap_matches_its_expiry_and_the_danger_is_believing_past_it() {
        for p in crate::teach::presets::PRESETS {
            let (t, _, d) = gc(p.name);
            for g in &d.gaps {
                assert!(matches!(
                    t.entries[g.entry].event,
                    Event::LeaseExpired { .. }
                ));
                let later = g.believed.max(g.until);
                assert_eq!(g.danger, later > g.expired, "{}: {g:?}", p.name);
                assert!(g.until >= g.believed.max(g.expired), "{}: {g:?}", p.name);
            }
        }
    }

    fn gc(name: &str) -> (Trace, Verdict, Diagram) {
        let t = simulate(&preset(name).unwrap().scenario()).unwrap();
        let v = check(&t);
        let d = diagram(&t, &v);
        (t, v, d)
    }

    #[test]
    fn the_bars_are_the_projections_intervals() {
        for name in ["gc-pause", "gc-pause-fenced", "eight-clients"] {
            let (t, _, d) = gc(name);
            let iv = crate::analysis::projection::intervals(&t);
            assert_eq!(d.bars.len(), iv.len(), "{name}");
            for (bar, iv) in d.bars.iter().zip(&iv) {
                let tone = match iv.span {
                    Span::Belief { .. } => Tone::Belief,
                    Span::Paused => Tone::Paused,
                    Span::Down => Tone::Down,
                    Span::Lease { .. } => Tone::Lease,
                };
                assert_eq!(bar.tone, tone, "{name}: {iv:?}");
                assert_eq!(bar.x0, d.scale.x(iv.from.0 as f64), "{name}: {iv:?}");
                assert_eq!(bar.x1, d.scale.x(iv.to.0 as f64), "{name}: {iv:?}");
            }
        }
    }

    #[test]
    fn one_lane_per_node_in_order() {
        let (_, _, d) = gc("gc-pause");
        let names: Vec<&str> = d.lanes.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(
            names,
            ["client 1", "client 2", "the lock service", "storage"]
        );
        assert!(d.lanes.windows(2).all(|w| w[1].y > w[0].y));
    }

    #[test]
    fn gc_pause_has_the_band_the_alarm_and_token_labels() {
        let (_, _, d) = gc("gc-pause");
        let s = d.scale;
        assert_eq!(d.bands.len(), 1);
        let b = &d.bands[0];
        assert!((s.t(b.x0) - 30_010.0).abs() < 1.0 && (s.t(b.x1) - 50_010.0).abs() < 1.0);
        assert!(d.marks.iter().any(|m| m.tone == Tone::Stale
            && m.label
                .as_ref()
                .is_some_and(|l| l.text.contains("STALE 33"))));
        let leases: Vec<&str> = d
            .bars
            .iter()
            .filter(|b| b.tone == Tone::Lease)
            .filter_map(|b| b.label.as_ref().map(|l| l.text.as_str()))
            .collect();
        assert_eq!(leases, ["c1 · token 33", "c2 · token 34"]);
        // The paused stretch of client 1 covers 10 s → 50 s.
        let p = d.bars.iter().find(|b| b.tone == Tone::Paused).unwrap();
        assert!((s.t(p.x0) - 10_000.0).abs() < 1.0 && (s.t(p.x1) - 50_000.0).abs() < 1.0);
        assert!(d
            .bars
            .iter()
            .all(|b| b.x0 <= b.x1 && b.x0 >= LEFT - 0.01 && b.x1 <= DIAGRAM_WIDTH - RIGHT + 0.01));
    }

    #[test]
    fn fenced_gc_pause_draws_the_rejection_with_its_reason() {
        let (_, _, d) = gc("gc-pause-fenced");
        assert!(d.marks.iter().any(|m| m.tone == Tone::Reject
            && m.label
                .as_ref()
                .is_some_and(|l| l.text == "✕ token 33 < 34")));
        assert!(!d.marks.iter().any(|m| m.tone == Tone::Stale));
    }

    #[test]
    fn the_labels_the_reveal_edge_crosses_are_the_ones_it_would_cut() {
        let (_, _, d) = gc("gc-pause");
        let tag = d.bands[0].tag.as_ref().unwrap();
        let texts = |edge: f64| -> Vec<(String, bool)> {
            d.labels_at(edge)
                .iter()
                .map(|c| (c.label.text.clone(), c.alarm))
                .collect()
        };
        // Just before the band starts, nothing of its tag; from the band's first moment
        // (the tag is set a little inside it), the tag (in the alarm's style) among the
        // labels that start there too.
        assert!(tag.at < tag.x);
        assert!(!texts(tag.at - 1.0)
            .iter()
            .any(|(t, _)| t == "two believers"));
        assert!(texts(tag.at).contains(&("two believers".into(), true)));
        assert!(texts(tag.x + 3.0).contains(&("two believers".into(), true)));
        // Long after, it is wholly revealed and no longer crosses the edge.
        assert!(!texts(tag.x + 200.0)
            .iter()
            .any(|(t, _)| t == "two believers"));
        let stale = d.marks.iter().find(|m| m.tone == Tone::Stale).unwrap();
        let l = stale.label.as_ref().unwrap();
        assert_eq!(texts(l.x + 1.0).last(), Some(&(l.text.clone(), true)));
    }

    #[test]
    fn labels_never_overlap() {
        let (_, _, d) = gc("gc-pause");
        let labels: Vec<&Label> = d
            .bars
            .iter()
            .filter_map(|b| b.label.as_ref())
            .chain(d.marks.iter().filter_map(|m| m.label.as_ref()))
            .chain(d.arrows.iter().filter_map(|a| a.label.as_ref()))
            .collect();
        assert!(labels.len() >= 8 && d.folds.is_empty(), "{labels:?}");
        for (i, a) in labels.iter().enumerate() {
            let ab = crate::view::labels::text_box(a.x, a.y, a.w);
            for b in &labels[i + 1..] {
                let bb = crate::view::labels::text_box(b.x, b.y, b.w);
                let apart = ab.2 <= bb.0 || bb.2 <= ab.0 || ab.3 <= bb.1 || bb.3 <= ab.1;
                assert!(apart, "{:?} overlaps {:?}", a.text, b.text);
            }
        }
    }

    #[test]
    fn a_window_draws_what_it_shows_with_its_own_ticks() {
        let t = simulate(&preset("gc-pause").unwrap().scenario()).unwrap();
        let v = check(&t);
        // 28 s → 36 s: client 2's grant and write, not the stale write at 50 s.
        let d = layout(&t, &v, 640.0, Some((28_000, 36_000)));
        assert_eq!((d.width, d.scale.x1), (640.0, 640.0 - RIGHT));
        assert!(d.marks.iter().all(|m| m.x >= LEFT && m.x <= d.scale.x1));
        assert!(!d.marks.iter().any(|m| m.tone == Tone::Stale));
        assert!(d.bars.iter().all(|b| b.x0 >= LEFT && b.x1 <= d.scale.x1));
        let ticks: Vec<&str> = d.ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(
            ticks,
            ["28 s", "29 s", "30 s", "31 s", "32 s", "33 s", "34 s", "35 s", "36 s"]
        );
        assert_eq!(axis_ticks_in(1_500, 2_500)[0], (1_600, "1.6 s".into()));
    }

    #[test]
    fn renewal_traffic_is_drawn_as_bundles_that_count_every_message() {
        for name in ["eight-clients", "gc-pause"] {
            let t = simulate(&preset(name).unwrap().scenario()).unwrap();
            let d = diagram(&t, &check(&t));
            let sent = t
                .entries
                .iter()
                .filter(|e| matches!(e.event, Event::Sent { .. }))
                .count();
            assert_eq!(
                d.arrows.iter().map(|a| a.count).sum::<usize>(),
                sent,
                "{name}"
            );
            for a in d.arrows.iter().filter(|a| a.count > 1) {
                assert!(a.label.is_none() || a.count >= 3, "{name}: {a:?}");
                assert!(a
                    .title
                    .contains(&format!("{} {} messages", a.count, a.class)));
            }
        }
        let t = simulate(&preset("eight-clients").unwrap().scenario()).unwrap();
        let d = diagram(&t, &check(&t));
        assert!(d.arrows.iter().any(|a| a.count >= 3), "the comb is bundled");
    }

    #[test]
    fn every_tick_of_an_axis_is_in_one_unit_with_a_one_two_five_step() {
        let labels = |span| {
            axis_ticks(span)
                .into_iter()
                .map(|(_, l)| l)
                .collect::<Vec<_>>()
                .join(", ")
        };
        assert_eq!(labels(1_000), "0, 0.2 s, 0.4 s, 0.6 s, 0.8 s, 1 s");
        assert_eq!(labels(60_005), "0, 10 s, 20 s, 30 s, 40 s, 50 s, 60 s");
        assert_eq!(labels(100_000), "0, 20 s, 40 s, 60 s, 80 s, 100 s");
        assert_eq!(
            labels(1_501_000),
            "0, 5 min, 10 min, 15 min, 20 min, 25 min"
        );
        assert_eq!(
            labels(25 * 60_000),
            "0, 5 min, 10 min, 15 min, 20 min, 25 min"
        );
        assert_eq!(
            labels(800),
            "0, 100 ms, 200 ms, 300 ms, 400 ms, 500 ms, 600 ms, 700 ms, 800 ms"
        );
        assert_eq!(
            labels(6 * 60_000),
            "0, 1 min, 2 min, 3 min, 4 min, 5 min, 6 min"
        );
        assert_eq!(labels(299_000), "0, 50 s, 100 s, 150 s, 200 s, 250 s");
        assert_eq!(labels(5 * 60_000), "0, 1 min, 2 min, 3 min, 4 min, 5 min");
        assert_eq!(labels(3_000), "0, 0.5 s, 1 s, 1.5 s, 2 s, 2.5 s, 3 s");
        assert_eq!(labels(12 * 3_600_000), "0, 2 h, 4 h, 6 h, 8 h, 10 h, 12 h");
        assert_eq!(labels(0), "0, 1 ms");
        // Whatever the length: one unit, an even step, at most nine ticks, the last within a
        // step of the end.
        for span in [
            1, 7, 999, 1_000, 1_001, 59_999, 60_000, 299_999, 300_000, 1_501_000, 86_400_000,
        ] {
            let t = axis_ticks(span);
            let units: Vec<&str> = t[1..]
                .iter()
                .map(|(_, l)| l.rsplit(' ').next().unwrap())
                .collect();
            assert!(units.windows(2).all(|w| w[0] == w[1]), "{span}: {t:?}");
            let step = t[1].0;
            assert!(
                t.iter()
                    .enumerate()
                    .all(|(i, (ms, _))| *ms == i as i64 * step),
                "{span}"
            );
            assert!(
                t.len() <= 9 && t.last().unwrap().0 <= span.max(1),
                "{span}: {t:?}"
            );
            assert!(t.last().unwrap().0 + step > span, "{span}: {t:?}");
        }
        assert_eq!(decimal(250, 3), "0.25");
        assert_eq!(decimal(-30_000, 3), "-30");
    }

    #[test]
    fn redlock_masters_get_a_lane_and_a_stage_node_each() {
        let sc = crate::teach::flavor_presets::find("redlock-clock-jump").unwrap();
        let t = simulate(&sc).unwrap();
        let d = diagram(&t, &check(&t));
        let names: Vec<&str> = d.lanes.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "client 1",
                "client 2",
                "the lock service",
                "lock service 2",
                "lock service 3",
                "lock service 4",
                "lock service 5",
                "storage"
            ]
        );
        assert_eq!(d.lanes[6].label, "Lock service 5");
        // Each master's lease is drawn on its own lane.
        let lease_ys: Vec<f64> = d
            .bars
            .iter()
            .filter(|b| b.tone == Tone::Lease)
            .map(|b| b.y)
            .collect();
        for m in 0..5 {
            let y = d.lane_y(NodeId::Coord(m)) - 7.0;
            assert!(lease_ys.contains(&y), "no lease bar on master {m}");
        }
        let nodes = stage_nodes(&t.nodes.iter().map(|n| n.0).collect::<Vec<_>>());
        assert_eq!(nodes.len(), 2 + 5 + 1);
        let ys: Vec<f64> = nodes
            .iter()
            .filter(|n| matches!(n.node, NodeId::Coord(_)))
            .map(|n| n.y)
            .collect();
        assert!(ys.windows(2).all(|w| w[1] > w[0]), "{ys:?}");
        let p = Projection::new(&t);
        let s = p.state_at(&t, t.entries.len());
        assert_eq!(stage_links(&nodes, &s).len(), 2 * 6);
    }

    #[test]
    fn stage_footprints_never_overlap_and_fit_the_stage() {
        for coords in [1u8, 5] {
            for k in 1u8..=8 {
                let mut ids: Vec<NodeId> = (0..k).map(NodeId::Client).collect();
                ids.extend((0..coords).map(NodeId::Coord));
                ids.push(NodeId::Storage);
                let nodes = stage_nodes(&ids);
                let h = stage_height(&nodes);
                let boxes: Vec<(f64, f64, f64, f64)> = nodes
                    .iter()
                    .map(|s| {
                        // Only a client carries a token label above its circle.
                        let above = if s.node.is_client() { NODE_ABOVE } else { 23.0 };
                        let b = (
                            s.x - NODE_HALF_W,
                            s.y - above,
                            s.x + NODE_HALF_W,
                            s.y + NODE_BELOW,
                        );
                        assert!(
                            b.0 >= 0.0 && b.1 >= 0.0 && b.2 <= STAGE_W && b.3 <= h,
                            "{k} clients: {} off the stage: {b:?} in {STAGE_W}×{h}",
                            s.name
                        );
                        b
                    })
                    .collect();
                for (i, a) in boxes.iter().enumerate() {
                    for (j, b) in boxes.iter().enumerate().skip(i + 1) {
                        let apart = a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1;
                        assert!(
                            apart,
                            "{k} clients, {coords} coordinators: {} and {} overlap",
                            nodes[i].name, nodes[j].name
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_popover_opens_beside_its_shape_and_inside_the_view() {
        let view = (0.0, 0.0, 1366.0, 860.0);
        let inside = |(x, y): (f64, f64), w: f64, h: f64, v: Rect| {
            x >= v.0 && y >= v.1 && x + w <= v.2 && y + h <= v.3
        };
        // The storage node low on a laptop's screen, its menu 260×130: to its left, centred
        // on it, then lifted to stay above the fold.
        let node = (300.0, 780.0, 344.0, 824.0);
        let (x, y) = popover(node, 260.0, 130.0, view, true);
        assert_eq!(x, 300.0 - 8.0 - 260.0);
        assert_eq!(y, 860.0 - 8.0 - 130.0);
        assert!(inside((x, y), 260.0, 130.0, view));
        // Preferring the right, and there is room: to its right, centred on it.
        let mid = (300.0, 400.0, 344.0, 444.0);
        assert_eq!(popover(mid, 260.0, 130.0, view, false), (352.0, 357.0));
        // A phone: no room on either side, so below the node, or above it when that is full.
        let phone = (0.0, 0.0, 360.0, 640.0);
        let low = (150.0, 560.0, 194.0, 604.0);
        let (x, y) = popover(low, 260.0, 130.0, phone, true);
        assert!(
            inside((x, y), 260.0, 130.0, phone) && y + 130.0 <= 560.0,
            "{x},{y}"
        );
        let high = (150.0, 40.0, 194.0, 84.0);
        assert_eq!(popover(high, 260.0, 130.0, phone, false).1, 92.0);
        // A frame smaller than the menu: its top-left corner stays in view.
        let tiny = (0.0, 0.0, 200.0, 100.0);
        assert_eq!(
            popover((80.0, 30.0, 120.0, 70.0), 260.0, 130.0, tiny, false),
            (8.0, 8.0)
        );
    }

    #[test]
    fn a_drawing_stretched_onto_another_window_puts_each_time_where_that_window_does() {
        let drawn = scale_of(60_000, DIAGRAM_WIDTH, None);
        let view = scale_of(60_000, DIAGRAM_WIDTH, Some((20_000, 35_000)));
        let (a, b) = drawn.onto(&view);
        for t in [0.0, 20_000.0, 27_500.0, 35_000.0, 60_000.0] {
            assert!((a * drawn.x(t) + b - view.x(t)).abs() < 1e-9, "{t}");
        }
        let (a, b) = drawn.onto(&drawn);
        assert!((a - 1.0).abs() < 1e-12 && b.abs() < 1e-9, "{a} {b}");
    }

    #[test]
    fn scale_round_trips() {
        let s = Scale {
            t0: 0.0,
            t1: 60_000.0,
            x0: LEFT,
            x1: 936.0,
        };
        for t in [0.0, 123.0, 59_999.0] {
            assert!((s.t(s.x(t)) - t).abs() < 1e-6);
        }
    }

    #[test]
    fn packets_move_along_their_links_and_partitioned_links_are_cut() {
        let t = simulate(&preset("gc-pause").unwrap().scenario()).unwrap();
        let p = Projection::new(&t);
        let nodes = stage_nodes(&t.nodes.iter().map(|n| n.0).collect::<Vec<_>>());
        // At 31.012 s client 2's write (31.010 → 31.015) is 40 % of the way to storage.
        let s = p.state_at(&t, step_at_time(&t, Time(31_012)));
        let pk = packets(&nodes, &t, &s, 31_012.0);
        assert_eq!(pk.len(), 1);
        assert_eq!(pk[0].label, "write 34");
        let (c2, st) = (pos(&nodes, NodeId::Client(1)), pos(&nodes, NodeId::Storage));
        assert!((pk[0].x - (c2.0 + (st.0 - c2.0) * 0.4)).abs() < 1e-9);
        assert!(stage_links(&nodes, &s).iter().all(|l| !l.cut));

        // partition-duplicate-effects cuts c1 from the coordinator at 20 s and heals it at
        // 140 s: exactly that link is cut in between, and no other link ever is.
        let sc = crate::teach::library::find("partition-duplicate-effects").unwrap();
        let t = simulate(&sc).unwrap();
        let p = Projection::new(&t);
        let nodes = stage_nodes(&t.nodes.iter().map(|n| n.0).collect::<Vec<_>>());
        let cut_at = |ms| {
            let s = p.state_at(&t, step_at_time(&t, Time(ms)));
            stage_links(&nodes, &s)
                .iter()
                .filter(|l| l.cut)
                .map(|l| (l.a, l.b))
                .collect::<Vec<_>>()
        };
        let c1_coord = [(NodeId::Client(0), NodeId::COORD)];
        assert_eq!(cut_at(19_999), []);
        assert_eq!(cut_at(20_000), c1_coord);
        assert_eq!(cut_at(139_999), c1_coord);
        assert_eq!(cut_at(140_000), []);
    }
}
