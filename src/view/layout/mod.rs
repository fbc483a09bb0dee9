//! Geometry for the views: the space-time diagram and the stage, as numbers and labels.
//!
//! Components map these shapes to SVG and nothing more, so everything a learner sees —
//! where a lease bar ends, which arrow is a stale write, where the two-believers band
//! lies — is computed here from the trace and the verdict, and tested natively.
//!
//! The diagram is laid out once per run over the whole time axis. Playback reveals it up
//! to the cursor with a clip, so a message in flight shows as an arrow cut at the cursor;
//! nothing is re-laid-out per frame.

use crate::analysis::check::{Verdict, ViolationKind};
use crate::vocab::names::{token_words, PauseCause};
use crate::vocab::numbers::decimal;
use crate::vocab::numbers::within;

use crate::analysis::believed::{believed_spans, BelievedSpan};
use crate::analysis::projection::{Interval, Span, State};
use crate::model::trace::{Event, Trace};
use crate::vocab::ids::NodeId;
use crate::vocab::numbers::fmt_ms;
use crate::vocab::time::Time;
use crate::vocab::vecmap::VecMap;

use crate::view::labels::{text_width, Placer, Want};
pub use crate::view::labels::{Fold, Label, Rect};
use detail::{Detail, Full};

// The rooms of the drawing that stand on their own.
mod arrows;
mod bars;
pub mod detail;
mod gaps;
mod marks;
mod popover;
mod scale;
mod shapes;
mod stage;
pub use arrows::arrowhead_box;
use arrows::{labelled, sent};
use bars::interval_bar;
use gaps::gaps;
pub use gaps::GAP_H;
pub use lod::Lod;
pub(crate) use marks::stack;
pub use marks::STACK;
use marks::{marker, put_marker, told_until};
pub use marks::{Glyph, MarksEvents};
pub use popover::popover;
pub use scale::*;
pub use shapes::*;
#[cfg(test)]
use stage::pos;
pub use stage::*;

pub const DIAGRAM_WIDTH: f64 = 960.0;
/// The narrowest drawing laid out in a detail that keeps every tick of the axis (the
/// first load's [`detail::Plain`]): narrower, its ticks would touch, so a narrower box
/// shows it scaled down a little (on a 320 px phone, its words at 9.8 px).
pub const NARROWEST: f64 = 360.0;
/// The narrowest drawing laid out in a detail that thins its ticks where they would touch
/// ([`Detail::SPREADS`]: the players' and the whole app's): a 280 px embed's box, and a
/// page's column on a 320 px phone, are laid out at one unit a pixel, so their text stays
/// 11 px. (The label tests check every built-in run at this width.)
pub const NARROWEST_SPREAD: f64 = 260.0;

/// The width to lay the diagram out at, in the detail `D`, for a box `px` CSS pixels wide:
/// the box's own where it is narrower than [`DIAGRAM_WIDTH`] (a phone, a laptop's column),
/// so one unit is one pixel and the drawing's 11-unit text is 11 px — never shrunk below
/// legibility, never scrolled sideways — but no narrower than `D` lays out
/// ([`NARROWEST_SPREAD`], or [`NARROWEST`] for a detail that keeps every tick);
/// [`DIAGRAM_WIDTH`] in a wider box (or before the box is measured), which the drawing is
/// scaled up to fill.
pub fn fitted_width<D: Detail>(px: f64) -> f64 {
    if (1.0..DIAGRAM_WIDTH).contains(&px) {
        px.floor().max(narrowest::<D>())
    } else {
        DIAGRAM_WIDTH
    }
}

/// The narrowest drawing the detail `D` lays out ([`fitted_width`]).
pub const fn narrowest<D: Detail>() -> f64 {
    if D::SPREADS {
        NARROWEST_SPREAD
    } else {
        NARROWEST
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

/// Makes the whole hover text of a shape that spans time, where the detail tells it
/// ([`Detail::TELLS`]); else nothing, and the text is never made.
fn hover<D: Detail>(f: impl FnOnce() -> String) -> String {
    if D::TELLS {
        f()
    } else {
        String::new()
    }
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

/// What a layout reads from the whole run whatever its window and width: gathered once
/// per run (`session::Run` keeps it), so that a zoom, a pan or a narrower screen lays out
/// only what its window shows — a window of a 100,000-entry run costs what its own entries
/// cost, not a walk of the whole trace.
pub struct Index<D: Detail = Full> {
    /// The projection's intervals, in the order they end ([`crate::analysis::projection::intervals`]).
    spans: Vec<Interval>,
    /// When each message dropped on arrival was dropped, by id.
    dropped: VecMap<u32, Time>,
    /// The longest flight of any message (ms): a message sent more than this before a
    /// window cannot reach into it, so nothing earlier is looked at.
    longest_flight: i64,
    /// Believed vs actual, in true time ([`believed_spans`]).
    gaps: Vec<BelievedSpan>,
    /// Look only at the window's entries (always, but in the test that a window is drawn
    /// exactly as a walk of every entry would draw it: [`Index::uncut`]).
    cut: bool,
    /// The run's items sorted for windows drawn at a level of detail, made by the first
    /// such window (a short run never needs them); nothing where the detail does not merge.
    lod: D::Kept,
    /// A window of more entries than this is drawn at a level of detail.
    lod_above: usize,
}

impl<D: Detail> Index<D> {
    pub fn new(trace: &Trace) -> Self {
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
            gaps: believed_spans(trace),
            cut: true,
            lod: D::Kept::default(),
            lod_above: LOD_ENTRIES,
        }
    }

    /// The same index, but a layout with it walks every entry of the run and draws every
    /// shape (no level of detail): what a window's layout must come to
    /// (tests/it/labels.rs), and what a level of detail must stay true to
    /// (tests/it/layout_lod.rs).
    pub fn uncut(self) -> Self {
        Index { cut: false, ..self }
    }

    /// The same index, but drawing at a level of detail any window of more than `n`
    /// entries (the tests draw short runs so, to check what merging keeps).
    pub fn lod_above(self, n: usize) -> Self {
        Index {
            lod_above: n,
            ..self
        }
    }
}

/// Lays out the diagram of `trace` over its whole time span, [`DIAGRAM_WIDTH`] across,
/// in [`Full`] detail (as are [`layout`] and [`layout_in`]; a page picks its own with
/// [`layout_rows`]).
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
    layout_rows::<Full>(ix, trace, verdict, width, LANE_H, window)
}

/// [`layout_in`] with lanes `lane_h` units tall (see [`lane_height_for`]): what an embed in
/// a short frame draws, so that every lane is in view. Shapes keep their sizes; only the
/// lanes move closer together, and the labels are placed for the room that leaves. `D`:
/// how much the drawing adds beyond its shapes ([`detail`]).
pub fn layout_rows<D: Detail>(
    ix: &Index<D>,
    trace: &Trace,
    verdict: &Verdict,
    width: f64,
    lane_h: f64,
    window: Option<(i64, i64)>,
) -> Diagram<D> {
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
    let mut arrows: Vec<Arrow<D>> = Vec::new();
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
            label: hover::<D>(|| {
                format!(
                    "{} both believe they hold the lock, {} → {}",
                    who.join(" and "),
                    o.from,
                    o.to
                )
            }),
            open: D::open(|| {
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
    let unit = if D::MERGES {
        let lo = trace
            .entries
            .partition_point(|e| e.t.0 < t0.saturating_sub(ix.longest_flight));
        let hi = trace.entries.partition_point(|e| e.t.0 <= t1);
        (ix.cut && hi - lo > ix.lod_above)
            .then(|| (t1 - t0) as f64 / (scale.x1 - scale.x0).max(1.0))
    } else {
        None
    };
    // (`unit` is `None` where the detail does not merge, and so is its `lod`.)
    let lod = unit.and_then(|_| {
        D::lod(&ix.lod, || {
            lod::Lod::new::<D>(trace, &violation_at, &ix.spans, &ix.dropped)
        })
    });
    if let (Some(u), Some(lod)) = (unit, lod) {
        lod::body::<D>(
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
    let add_bar = |bars: &mut Vec<Bar<D>>, wants: &mut Wants, iv: &Interval, ended| {
        if iv.to.0 < t0 || iv.from.0 > t1 {
            return;
        }
        let (bar, want) = interval_bar::<D>(&scale, ly(iv.node), iv, ended);
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
            } else if arrives.is_some() && D::MERGES {
                // Unlabelled: it may join the bundle of its kind, if that is close.
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
                    a.open = D::open(|| {
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
                title: hover::<D>(|| {
                    format!("{} → {}: {} ({when})", n.name(), to.name(), msg.label())
                }),
                open: D::open(|| {
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
        put_marker::<D>(
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
        if D::MERGES && a.count >= 3 && client_y(a.y1) {
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
    let gaps = gaps::<D>(&ix.gaps, &scale, &ly, unit.map_or(0.0, |u| u));
    D::stack(&mut marks);

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
        if m.drawn_as() > 1 {
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
    let (placed, folds) = placer.place_all(&wants.v, D::MERGES);
    for (label, who) in placed.into_iter().zip(wants.who) {
        match who {
            Who::Band(i) => bands[i].tag = label,
            Who::Bar(i) => bars[i].label = label,
            Who::Arrow(i) => arrows[i].label = label,
            Who::Mark(i) => marks[i].label = label,
        }
    }

    let ticks = ticks_with::<D>(&scale);

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

/// A window holding more entries than this is drawn at a level of detail: its shapes
/// merged to what its units can show (see `lod`). Every built-in scenario's windows
/// hold fewer (the busiest, eight clients for 100 s, has about 1,700 entries in all), so
/// they are drawn shape for shape.
pub const LOD_ENTRIES: usize = 2_000;

/// At most this many arrows (single messages or bundles) in a window drawn at a level of
/// detail: its bundles widen until they fit, so a window's drawing stays a few thousand
/// SVG elements however long the run.
pub const LOD_ARROWS: usize = 240;

mod lod;

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

    /// In the usual stage and the narrow one ([`narrowed`]).
    #[test]
    fn stage_footprints_never_overlap_and_fit_the_stage() {
        for coords in [1u8, 5] {
            for k in 1u8..=8 {
                let mut ids: Vec<NodeId> = (0..k).map(NodeId::Client).collect();
                ids.extend((0..coords).map(NodeId::Coord));
                ids.push(NodeId::Storage);
                let usual = stage_nodes(&ids);
                let narrow = narrowed(&usual);
                for (nodes, width) in [(usual, STAGE_W), (narrow, STAGE_W_NARROW)] {
                    footprints_apart(&nodes, width, k, coords);
                }
            }
        }
    }

    fn footprints_apart(nodes: &[StageNode], width: f64, k: u8, coords: u8) {
        let h = stage_height(nodes);
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
                    b.0 >= 0.0 && b.1 >= 0.0 && b.2 <= width && b.3 <= h,
                    "{k} clients: {} off the stage: {b:?} in {width}×{h}",
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
