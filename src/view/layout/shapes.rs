//! What a layout hands the views: the diagram's shapes (lanes, bars, arrows, marks,
//! bands, gaps, ticks) as numbers and words, and what the diagram answers about them
//! (the shape at a point, what is told up to a time).

use super::*;

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
pub struct Bar<D: Detail = Full> {
    pub x0: f64,
    pub x1: f64,
    pub y: f64,
    pub h: f64,
    pub tone: Tone,
    pub label: Option<Label>,
    pub title: String,
    /// Its hover text while it runs on past the cursor ([`Diagram::told`]).
    pub open: D::Open,
    /// How many bars it stands for: more than one where a long run's window merges bars
    /// of one kind on one lane that lie less than a unit apart (it covers exactly their
    /// union and the gaps between them). (Only where the detail merges.)
    pub count: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Arrow<D: Detail = Full> {
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
    pub open: D::Open,
    /// How many messages it stands for: more than one is a bundle of one kind of message
    /// between the same two nodes in a short burst, drawn from this arrow to the last one,
    /// whose start and end x are `last` (for one message, this arrow's own).
    pub count: usize,
    pub last: (f64, f64),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Mark<D: Detail = Full> {
    pub x: f64,
    pub y: f64,
    pub tone: Tone,
    pub glyph: &'static str,
    pub label: Option<Label>,
    pub title: String,
    /// The x of the last moment its hover text tells of: its own, but a pause's end (its
    /// text says how long it lasts). Before then it says `open` ([`Diagram::told`]).
    pub until: f64,
    pub open: D::Open,
    /// The trace entry it marks (a click jumps there).
    pub entry: usize,
    /// How many events it stands for: more than one where a long run's window folds the
    /// events of a lane closer than a label's width into one marker and a count ("+n").
    /// Never a violation: those are drawn one by one.
    pub count: usize,
    /// How many marks of its lane it is drawn as: 1; more where marks stand closer than a
    /// glyph (events at one spot, which would stack glyph on glyph), drawn as this one
    /// mark with their count, its glyph the most urgent of theirs, its hover text all of
    /// theirs; 0 for a mark drawn by another (its label is still its own). See
    /// `stack`. (Always 1 where the detail does not merge.)
    pub stacked: usize,
    /// A stacked mark's events, in time order, for the inspector's list
    /// ([`Diagram::stack_listing`]); empty for any other mark.
    pub events: D::Events,
}

impl<D: Detail> Mark<D> {
    /// How many marks it is drawn as ([`Mark::stacked`]): always 1 in a detail that does
    /// not merge, which then has none of the drawing of stacks.
    pub fn drawn_as(&self) -> usize {
        if D::MERGES {
            self.stacked
        } else {
            1
        }
    }
}

/// One of the events a stacked mark is drawn for ([`Mark::stacked`]).
#[derive(Clone, Debug, PartialEq)]
pub struct StackedEvent {
    pub entry: usize,
    /// Its hover text, and what it says until `until` (empty: the same).
    pub title: String,
    pub open: String,
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
pub struct Band<D: Detail = Full> {
    pub x0: f64,
    pub x1: f64,
    pub y0: f64,
    pub y1: f64,
    /// The short tag drawn inside the band, if there is room for it.
    pub tag: Option<Label>,
    pub label: String,
    /// Its hover text while it runs on past the cursor ([`Diagram::told`]).
    pub open: D::Open,
    pub entry: usize,
}

/// Believed vs actual on a client lane: where the client believes its lease ends (its
/// latest deadline, read on its own clock and mapped to true time) and where the lock
/// service actually let that lease expire, with the gap between them.
#[derive(Clone, Debug, PartialEq)]
pub struct Gap<D: Detail = Full> {
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
    pub open: D::Open,
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
pub struct Diagram<D: Detail = Full> {
    pub width: f64,
    pub height: f64,
    /// The height of each lane ([`LANE_H`] unless the box asked for shorter ones).
    pub lane_h: f64,
    pub scale: Scale,
    pub lanes: Vec<Lane>,
    pub bands: Vec<Band<D>>,
    pub bars: Vec<Bar<D>>,
    pub arrows: Vec<Arrow<D>>,
    pub marks: Vec<Mark<D>>,
    /// Believed vs actual, per lease a client believed in and the lock service expired.
    pub gaps: Vec<Gap<D>>,
    /// Counts standing for labels that found no room.
    pub folds: Vec<Fold>,
    pub ticks: Vec<Tick>,
}

impl<D: Detail> Diagram<D> {
    /// Where a lane's clock reading sits, under its name over the left margin: closer
    /// under it on a short lane, so that it stays on its lane.
    pub fn clock_y(&self, lane: &Lane) -> f64 {
        lane.y + if self.lane_h < 34.0 { 10.0 } else { 13.0 }
    }

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
    /// happened: its `open` text, which names its start and never its end. A drawing
    /// whose detail does not tell ([`Detail::TELLS`]) has none.
    pub fn told<'a>(&'a self) -> Vec<Told<'a>> {
        let mut v = Vec::new();
        let mut add = |until: f64, open: &'a str, full: &'a str| {
            if !open.is_empty() {
                v.push(Told { until, open, full });
            }
        };
        for b in &self.bands {
            add(b.x1, b.open.as_ref(), &b.label);
        }
        for g in &self.gaps {
            add(
                g.believed.max(g.expired).max(g.until),
                g.open.as_ref(),
                &g.title,
            );
        }
        for b in &self.bars {
            add(b.x1, b.open.as_ref(), &b.title);
        }
        for a in &self.arrows {
            add(a.x1.max(a.last.1), a.open.as_ref(), &a.title);
        }
        for m in &self.marks {
            // (A mark drawn by another has no hover text of its own.)
            if m.stacked == 0 {
                continue;
            }
            add(m.until, m.open.as_ref(), &m.title);
        }
        v
    }
}

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
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Told<'a> {
    /// From here (drawing units) the whole text is true.
    pub until: f64,
    /// What it says before then.
    pub open: &'a str,
    pub full: &'a str,
}

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
