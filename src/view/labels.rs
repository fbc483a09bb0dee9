//! Where the diagram's words go: every label is a box, and no box covers another label, a
//! marker, an arrowhead, a bar or a lane's line.
//!
//! A label's box is its text's width and height at the diagram's 11 px, measured from the
//! advance widths of the widest font the page's font stack may fall back to (DejaVu Sans,
//! bold), so the real text is never wider than the room kept for it. The drawing is a
//! raster of one-unit cells, one bit each; the shapes fill their cells first, then each
//! label, in order of importance (the alarm first, then faults and writes, then messages,
//! then bars), takes the first free spot of a short list: beside what it names, a row
//! above or below, the other side (a span's label only after the span's start: before it,
//! it would read as the label of what the lane drew there); then a little further off on a
//! leader line; then all of that again with its short form. What finds no room at all is
//! folded: the first label of a row that fails puts down a count at once (making room, if
//! need be, by taking in the last few labels placed beside it), and the labels that fail
//! close to it join it: "+3", whose hover text lists them. Testing a box costs one word per
//! 64 cells of each of its rows, so a run of 100,000 entries is laid out in well under a
//! second.

use crate::vocab::numbers::within;

/// The diagram's text size, in drawing units.
pub const FONT: f64 = 11.0;
/// Above and below the baseline, what a line of text covers (the font's ascent and descent
/// at [`FONT`], rounded up).
pub const ASCENT: f64 = 10.5;
pub const DESCENT: f64 = 3.0;
/// One row of labels: a box's height and a unit to spare.
pub const ROW: f64 = 14.0;

/// The width of `s` at [`FONT`]: the sum of its characters' advances (DejaVu Sans Bold's,
/// in hundredths of an em, grouped; anything beyond ASCII counts as a full em).
pub fn text_width(s: &str) -> f64 {
    let mut w = 0u32;
    for c in s.chars() {
        w += match c {
            ' ' | 'i' | 'j' | 'l' | '\'' | '.' | ',' | '|' => 38,
            'I' | 'J' | 'f' | ':' | ';' | '/' | '-' | 'r' | 't' => 50,
            '(' | ')' | '[' | ']' | '!' => 47,
            'm' | 'M' | 'W' | '%' | '@' => 111,
            'w' => 93,
            'A'..='Z' => 86,
            '0'..='9' | 'a'..='z' => 73,
            c if c.is_ascii() => 85,
            _ => 100,
        };
    }
    f64::from(w) * FONT / 100.0
}

/// The box of a label whose text of width `w` starts at (`x`, baseline `y`).
pub fn text_box(x: f64, y: f64, w: f64) -> Rect {
    (x - 1.0, y - ASCENT, x + w + 1.0, y + DESCENT)
}

/// The lowest rank a want may have.
pub const RANKS: u8 = 4;

#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// Where the text starts, on its baseline.
    pub x: f64,
    pub y: f64,
    /// The width kept for it ([`text_width`]): its box is [`text_box`].
    pub w: f64,
    pub text: String,
    /// A line from what it names to its box, when it had to sit further off: x0, y0, x1, y1.
    pub leader: Option<Rect>,
    /// The x of the moment it tells of (its mark, its message's arrival, its bar's start;
    /// for a count, the last of the labels it stands for): it is seen from there on and
    /// never before, wherever it was placed. A label placed left of it (mirrored, or on a
    /// leader line) is not revealed by the sweep of the cursor but appears whole at `at`
    /// ([`crate::view::layout::Diagram::labels_at`]).
    pub at: f64,
}

impl Label {
    /// Placed left of the moment it tells of: a reveal sweeping left to right would show
    /// it early, so it is drawn on its own once the cursor reaches `at`.
    pub fn early(&self) -> bool {
        self.x < self.at
    }
}

/// A box as (left, top, right, bottom).
pub type Rect = (f64, f64, f64, f64);

/// A label the layout wants drawn.
#[derive(Clone, Debug)]
pub struct Want {
    /// The point it names (a marker, an arrow's end, a bar's start): a leader line starts
    /// here.
    pub ax: f64,
    pub ay: f64,
    /// Where its text would best start (baseline).
    pub x: f64,
    pub y: f64,
    pub text: String,
    /// A shorter text for a tight spot ("exp 33" for "expired 33").
    pub short: Option<String>,
    /// A bar's label may slide right along its bar, up to here, before it leaves it.
    pub slide: Option<f64>,
    /// Placed in order of rank (0 first, up to [`RANKS`]), then in the order wanted.
    pub rank: u8,
    /// The x of the moment it tells of ([`Label::at`]); the anchor's, mostly.
    pub at: f64,
}

/// A count standing for labels that found no room (`Placer::fold`); its hover text lists
/// them.
#[derive(Clone, Debug, PartialEq)]
pub struct Fold {
    pub label: Label,
    pub items: Vec<String>,
}

/// The occupied cells of a drawing `cols` × `rows` units, one bit per cell.
pub struct Placer {
    cols: usize,
    rows: usize,
    words: usize,
    bits: Vec<u64>,
    /// No label starts right of this x (the end of the time axis: the reveal never shows a
    /// label that starts beyond it).
    pub last_x: f64,
}

impl Placer {
    pub fn new(width: f64, height: f64) -> Placer {
        let cols = width.max(1.0).ceil() as usize;
        let rows = height.max(1.0).ceil() as usize;
        let words = cols.div_ceil(64);
        Placer {
            cols,
            rows,
            words,
            bits: vec![0; words * rows],
            last_x: width,
        }
    }

    /// The cells `r` covers, clipped to the drawing: columns c0..c1, rows r0..r1; `None`
    /// if nothing of it is on the drawing.
    fn cells(&self, r: Rect) -> Option<(usize, usize, usize, usize)> {
        let c0 = r.0.floor().max(0.0) as usize;
        let c1 = (r.2.ceil().max(0.0) as usize).min(self.cols);
        let r0 = r.1.floor().max(0.0) as usize;
        let r1 = (r.3.ceil().max(0.0) as usize).min(self.rows);
        (c0 < c1 && r0 < r1).then_some((c0, c1, r0, r1))
    }

    /// Calls `f` with each word of each row under `r` and the mask of `r`'s cells in it;
    /// stops, returning false, when `f` does.
    fn each(
        &mut self,
        (c0, c1, r0, r1): (usize, usize, usize, usize),
        f: &mut dyn FnMut(&mut u64, u64) -> bool,
    ) -> bool {
        for row in r0..r1 {
            for wi in c0 / 64..=(c1 - 1) / 64 {
                let lo = c0.max(wi * 64) - wi * 64;
                let hi = c1.min(wi * 64 + 64) - wi * 64;
                let mask = if hi - lo == 64 {
                    u64::MAX
                } else {
                    ((1u64 << (hi - lo)) - 1) << lo
                };
                if !f(&mut self.bits[row * self.words + wi], mask) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether `r` lies wholly on the drawing and covers no occupied cell.
    pub fn free(&mut self, r: Rect) -> bool {
        if r.0 < 0.0 || r.1 < 0.0 || r.2 > self.cols as f64 || r.3 > self.rows as f64 {
            return false;
        }
        match self.cells(r) {
            Some(c) => self.each(c, &mut |w, m| *w & m == 0),
            None => false,
        }
    }

    /// Marks `r` occupied (a shape, or a placed label); what lies off the drawing is ignored.
    pub fn fill(&mut self, r: Rect) {
        if let Some(c) = self.cells(r) {
            self.each(c, &mut |w, m| {
                *w |= m;
                true
            });
        }
    }

    /// Frees `r` again (a label given up for a fold: its cells were free before it).
    fn clear(&mut self, r: Rect) {
        if let Some(c) = self.cells(r) {
            self.each(c, &mut |w, m| {
                *w &= !m;
                true
            });
        }
    }

    /// Takes the first free spot for `text` (width `w`) around `want`, as described in the
    /// module's prose; `None` if there is none.
    fn spot(&mut self, want: &Want, text: &str) -> Option<Label> {
        let w = text_width(text);
        let rows = [0.0, -ROW, ROW, -2.0 * ROW, 2.0 * ROW];
        // Beside what it names: the preferred start, slid along its bar (a bar's label),
        // or mirrored to the anchor's other side (any other).
        for dy in rows {
            let y = want.y + dy;
            let mut x = want.x;
            loop {
                if let Some(l) = self.take(x, y, w, text, None) {
                    return Some(l);
                }
                match want.slide {
                    Some(end) if x + 24.0 + w <= end => x += 24.0,
                    Some(_) => break,
                    None => {
                        let l = self.take(2.0 * want.ax - want.x - w, y, w, text, None);
                        if l.is_some() {
                            return l;
                        }
                        break;
                    }
                }
            }
        }
        // A little further off, on a leader line back to what it names: on either side of
        // a point; only after the start of a span (a bar, a band), since a label standing
        // before a span's start reads as the label of whatever is drawn there (the lease
        // the span's own replaced), leader line or not.
        let sides: &[f64] = if want.slide.is_some() {
            &[1.0]
        } else {
            &[1.0, -1.0]
        };
        for dx in [28.0, 56.0] {
            for dy in [0.0, -ROW, ROW, -2.0 * ROW, 2.0 * ROW, -3.0 * ROW, 3.0 * ROW] {
                for &side in sides {
                    let x = if side > 0.0 {
                        want.x + dx
                    } else {
                        want.ax - (want.x - want.ax) - dx - w
                    };
                    let y = want.y + dy;
                    let b = text_box(x, y, w);
                    let leader = (
                        want.ax,
                        want.ay,
                        within(want.ax, b.0, b.2),
                        within(want.ay, b.1, b.3),
                    );
                    if let Some(l) = self.take(x, y, w, text, Some(leader)) {
                        return Some(l);
                    }
                }
            }
        }
        None
    }

    /// Places `text` at (`x`, `y`) if its box is free.
    fn take(&mut self, x: f64, y: f64, w: f64, text: &str, leader: Option<Rect>) -> Option<Label> {
        let b = text_box(x, y, w);
        if x > self.last_x || !self.free(b) {
            return None;
        }
        self.fill(b);
        Some(Label {
            x,
            y,
            w,
            text: text.to_string(),
            leader,
            // The want's own, set by the caller.
            at: x,
        })
    }

    /// Places every want, the most important first; returns each one's label (or `None`,
    /// in the wants' order) and, with `fold`, the folds standing for those that found no
    /// room (without, such a label is left out).
    pub fn place_all(&mut self, wants: &[Want], fold: bool) -> (Vec<Option<Label>>, Vec<Fold>) {
        // Rank by rank, each in the order the layout asked (the order of the run): a few
        // passes instead of a sort, which would cost the first load a sorting routine.
        let mut order: Vec<usize> = Vec::with_capacity(wants.len());
        for rank in 0..=RANKS {
            order.extend((0..wants.len()).filter(|&i| wants[i].rank == rank));
        }
        let mut out: Vec<Option<Label>> = vec![None; wants.len()];
        // The folds and the points they stand at; the first label that finds no room
        // places one at once (while there is still room near it), and those that fail
        // close to it on the same row join it. (A label whose fold finds no room even
        // then is left out; its shape's hover text still says it.)
        let mut folds: Vec<Fold> = Vec::new();
        let mut at: Vec<(f64, f64)> = Vec::new();
        let mut recent: Vec<usize> = Vec::new();
        for i in order {
            let w = &wants[i];
            out[i] = self
                .spot(w, &w.text)
                .or_else(|| w.short.as_ref().and_then(|s| self.spot(w, s)));
            if let Some(l) = &mut out[i] {
                l.at = w.at;
            }
            if out[i].is_some() {
                recent.push(i);
                continue;
            }
            if !fold {
                continue;
            }
            let near = at
                .iter()
                .position(|&(x, y)| y == w.ay && (x - w.ax).abs() <= 48.0);
            let fold = near.or_else(|| {
                // Room for any count up to 999, so it never outgrows its box; where there
                // is none, the last few labels placed near it on its row (no more
                // important than it) make room and join the count.
                let mut gave: Vec<usize> = Vec::new();
                let mut label = self.spot(w, "+999");
                for &j in recent.iter().rev().take(64) {
                    if label.is_some() || gave.len() == 3 {
                        break;
                    }
                    let (o, Some(l)) = (&wants[j], out[j].as_ref()) else {
                        continue;
                    };
                    if o.ay == w.ay && (o.ax - w.ax).abs() <= 48.0 && o.rank >= w.rank {
                        self.clear(text_box(l.x, l.y, l.w));
                        gave.push(j);
                        label = self.spot(w, "+999");
                    }
                }
                let Some(label) = label else {
                    for &j in &gave {
                        let l = out[j].as_ref()?;
                        self.fill(text_box(l.x, l.y, l.w));
                    }
                    return None;
                };
                let mut items = Vec::new();
                let mut label = label;
                label.at = w.at;
                for &j in &gave {
                    out[j] = None;
                    items.push(wants[j].text.clone());
                    label.at = label.at.max(wants[j].at);
                }
                folds.push(Fold { label, items });
                at.push((w.ax, w.ay));
                Some(folds.len() - 1)
            });
            if let Some(f) = fold {
                // A count is seen once every label it stands for could be.
                folds[f].items.push(w.text.clone());
                folds[f].label.at = folds[f].label.at.max(w.at);
            }
        }
        for f in &mut folds {
            f.label.text = format!("+{}", f.items.len());
        }
        (out, folds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_is_free_until_something_covers_it() {
        let mut p = Placer::new(200.0, 100.0);
        let a = (10.0, 10.0, 80.5, 24.0);
        assert!(p.free(a));
        p.fill(a);
        assert!(!p.free(a));
        // Touching is not covering; one unit in is.
        assert!(p.free((81.0, 10.0, 150.0, 24.0)));
        assert!(!p.free((80.0, 10.0, 150.0, 24.0)));
        assert!(p.free((10.0, 24.0, 80.0, 40.0)));
        // Off the drawing is never free; a shape off it is ignored.
        assert!(!p.free((190.0, 10.0, 201.0, 20.0)));
        assert!(!p.free((-1.0, 10.0, 20.0, 20.0)));
        p.fill((-50.0, -50.0, -10.0, -10.0));
        // A box across a word boundary (columns 60..70).
        p.fill((60.0, 50.0, 70.0, 52.0));
        assert!(!p.free((65.0, 51.0, 66.0, 52.0)) && p.free((70.0, 50.0, 90.0, 52.0)));
    }

    #[test]
    fn a_crowded_label_moves_then_shortens_then_folds() {
        let mut p = Placer::new(300.0, 200.0);
        let want = |x: f64, text: &str, short: Option<&str>| Want {
            ax: x,
            ay: 100.0,
            x: x + 5.0,
            y: 120.0,
            text: text.into(),
            short: short.map(Into::into),
            slide: None,
            rank: 1,
            at: x,
        };
        let wants: Vec<Want> = (0..120)
            .map(|i| want(100.0 + (i / 2) as f64, "a long label here", Some("ab")))
            .collect();
        let (labels, folds) = p.place_all(&wants, true);
        let placed: Vec<&Label> = labels.iter().flatten().collect();
        assert!(
            placed.iter().any(|l| l.leader.is_some()),
            "some on a leader"
        );
        assert!(placed.iter().any(|l| l.text == "ab"), "some shortened");
        let folded: usize = folds.iter().map(|f| f.items.len()).sum();
        assert!(
            !folds.is_empty() && folded + placed.len() <= 120,
            "{folded} {}",
            placed.len()
        );
        assert!(folds
            .iter()
            .all(|f| f.label.text == format!("+{}", f.items.len())));
        // Nothing placed overlaps anything else placed.
        let boxes: Vec<Rect> = placed
            .iter()
            .map(|l| text_box(l.x, l.y, l.w))
            .chain(
                folds
                    .iter()
                    .map(|f| text_box(f.label.x, f.label.y, f.label.w)),
            )
            .collect();
        for (i, a) in boxes.iter().enumerate() {
            for b in &boxes[i + 1..] {
                assert!(
                    a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1,
                    "{a:?} {b:?}"
                );
            }
        }
    }
}
