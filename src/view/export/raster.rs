//! A software rasterizer for recorded frames: the space-time diagram as of one cursor time,
//! drawn into a buffer of palette indices from the same [`Diagram`] the page draws.
//!
//! A recording must be the same file on every machine, so nothing here asks a browser or a
//! font renderer anything: shapes are filled rectangles, Bresenham lines (1 or 2 pixels,
//! dashed where the page dashes them), triangles for arrowheads, discs for marks, and text
//! from our own bitmap font ([`super::font`]). There is no anti-aliasing and no blending —
//! each colour of the page's light theme, translucent ones already laid over white, is one
//! entry of a fixed [`PALETTE`], so an encoder needs no quantization.
//!
//! A frame reveals the drawing up to the cursor as the timeline does: shapes are cut at
//! the cursor's x, a label that starts before it shows whole, and the cursor line, each
//! lane's clock at that moment and a caption strip below (the scenario's name, the time,
//! the latest notable event's sentence, and on the last frame the link) complete it.

use super::font;
use crate::analysis::check::Verdict;
use crate::analysis::projection::{step_at_time, Projection};
use crate::model::trace::Trace;
use crate::teach::narrate;
use crate::view::layout::{Diagram, Label, Tone, DIAGRAM_WIDTH, LEFT};
use crate::vocab::numbers::fmt_ms;
use crate::vocab::numbers::within;
use crate::vocab::time::Time;

/// The colours, as RGB, in palette order; [`Ink`] names each index.
pub const PALETTE: [[u8; 3]; 16] = [
    [0xff, 0xff, 0xff], // paper
    [0x1b, 0x1f, 0x24], // text
    [0x57, 0x60, 0x6a], // muted text
    [0xe7, 0xeb, 0xef], // grid
    [0xd0, 0xd7, 0xde], // lane line, border
    [0xdc, 0x26, 0x26], // alarm
    [0xfb, 0xe7, 0xe7], // the two-believers band: alarm at 11 % over white
    [0x25, 0x63, 0xeb], // belief
    [0x38, 0x93, 0x5a], // lease bar: lease green at 85 % over white
    [0xd4, 0xd8, 0xdf], // paused or down: slate at 28 % over white
    [0x64, 0x74, 0x8b], // message
    [0x15, 0x80, 0x3d], // lease green (grant arrows, accepted marks)
    [0x93, 0x33, 0xea], // effect
    [0xa2, 0xac, 0xb9], // renewal traffic: message grey at 60 % over white
    [0x1f, 0x4e, 0x79], // accent (cursor, title)
    [0xf6, 0xf7, 0xf9], // caption strip
];

/// Palette indices by meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Ink {
    Paper = 0,
    Text,
    Muted,
    Grid,
    Border,
    Alarm,
    BandFill,
    Belief,
    LeaseBar,
    PausedFill,
    Msg,
    Lease,
    Effect,
    Renew,
    Accent,
    Strip,
}

/// One frame: `width × height` palette indices, row by row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub width: usize,
    pub height: usize,
    pub px: Vec<u8>,
}

impl Frame {
    /// The frame as RGBA bytes (what a video encoder takes).
    pub fn rgba(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.px.len() * 4);
        for &i in &self.px {
            let [r, g, b] = PALETTE[i as usize];
            out.extend_from_slice(&[r, g, b, 255]);
        }
        out
    }
}

/// A frame being drawn: pixels, the layout-to-pixel scale, the font's pixel size, and the
/// right edge of the reveal (shapes right of it are not drawn).
struct Canvas {
    f: Frame,
    s: f64,
    k: i64,
    clip: i64,
}

impl Canvas {
    fn set(&mut self, x: i64, y: i64, c: Ink) {
        if x >= 0 && y >= 0 && x < self.clip && (x as usize) < self.f.width {
            if let Some(p) = self.f.px.get_mut(y as usize * self.f.width + x as usize) {
                if (y as usize) < self.f.height {
                    *p = c as u8;
                }
            }
        }
    }

    fn p(&self, v: f64) -> i64 {
        (v * self.s).round() as i64
    }

    /// Fills pixels `x0..x1 × y0..y1`.
    fn rect(&mut self, x0: i64, y0: i64, x1: i64, y1: i64, c: Ink) {
        for y in y0.max(0)..y1.min(self.f.height as i64) {
            for x in x0.max(0)..x1.min(self.clip).min(self.f.width as i64) {
                self.f.px[y as usize * self.f.width + x as usize] = c as u8;
            }
        }
    }

    /// A rectangle's outline, dashed `on`/`off` pixels when `on > 0`.
    fn outline(&mut self, x0: i64, y0: i64, x1: i64, y1: i64, c: Ink, dash: (i64, i64)) {
        self.line(x0, y0, x1 - 1, y0, c, 1, dash);
        self.line(x0, y1 - 1, x1 - 1, y1 - 1, c, 1, dash);
        self.line(x0, y0, x0, y1 - 1, c, 1, dash);
        self.line(x1 - 1, y0, x1 - 1, y1 - 1, c, 1, dash);
    }

    /// Bresenham's line, `w` pixels thick (1 or 2), dashed `on`/`off` when `on > 0`.
    #[allow(clippy::too_many_arguments)]
    fn line(&mut self, x0: i64, y0: i64, x1: i64, y1: i64, c: Ink, w: i64, dash: (i64, i64)) {
        let (dx, dy) = ((x1 - x0).abs(), -(y1 - y0).abs());
        let (sx, sy) = (if x0 < x1 { 1 } else { -1 }, if y0 < y1 { 1 } else { -1 });
        let steep = -dy > dx;
        let (mut x, mut y, mut err, mut n) = (x0, y0, dx + dy, 0i64);
        loop {
            if dash.0 == 0 || n % (dash.0 + dash.1) < dash.0 {
                self.set(x, y, c);
                if w > 1 {
                    // The second pixel across the line's run.
                    if steep {
                        self.set(x + 1, y, c);
                    } else {
                        self.set(x, y + 1, c);
                    }
                }
            }
            if x == x1 && y == y1 {
                break;
            }
            n += 1;
            let e2 = 2 * err;
            if e2 >= dy {
                err += dy;
                x += sx;
            }
            if e2 <= dx {
                err += dx;
                y += sy;
            }
        }
    }

    /// A filled triangle (arrowheads): every pixel centre inside the three edges.
    fn triangle(&mut self, a: (f64, f64), b: (f64, f64), c: (f64, f64), ink: Ink) {
        let edge = |p: (f64, f64), q: (f64, f64), x: f64, y: f64| {
            (q.0 - p.0) * (y - p.1) - (q.1 - p.1) * (x - p.0)
        };
        let (xa, xb) = (a.0.min(b.0).min(c.0).floor(), a.0.max(b.0).max(c.0).ceil());
        let (ya, yb) = (a.1.min(b.1).min(c.1).floor(), a.1.max(b.1).max(c.1).ceil());
        for y in ya as i64..=yb as i64 {
            for x in xa as i64..=xb as i64 {
                let (px, py) = (x as f64 + 0.5, y as f64 + 0.5);
                let (e0, e1, e2) = (edge(a, b, px, py), edge(b, c, px, py), edge(c, a, px, py));
                let inside =
                    (e0 >= 0.0 && e1 >= 0.0 && e2 >= 0.0) || (e0 <= 0.0 && e1 <= 0.0 && e2 <= 0.0);
                if inside {
                    self.set(x, y, ink);
                }
            }
        }
    }

    /// A disc of radius `r` pixels centred on (`cx`, `cy`).
    fn disc(&mut self, cx: i64, cy: i64, r: i64, c: Ink) {
        for y in -r..=r {
            for x in -r..=r {
                if x * x + y * y <= r * r + r {
                    self.set(cx + x, cy + y, c);
                }
            }
        }
    }

    /// Text with its baseline at pixel row `y`, starting at `x` (or centred on it); bold
    /// strikes each glyph twice, one pixel apart. Returns the x after the last glyph.
    fn text(&mut self, x: i64, y: i64, s: &str, c: Ink, bold: bool, centre: bool) -> i64 {
        let k = self.k;
        let w = (font::width(s) as i64 + i64::from(bold)) * k;
        let mut x = if centre { x - w / 2 } else { x };
        let top = y - font::CAP as i64 * k;
        for ch in s.chars() {
            let (gw, rows) = font::glyph(ch);
            for (r, bits) in rows.iter().enumerate() {
                for col in 0..5i64 {
                    if bits & (16 >> col) != 0 {
                        for b in 0..=i64::from(bold) {
                            let (px, py) = (x + (col + b) * k, top + r as i64 * k);
                            self.block(px, py, k, c);
                        }
                    }
                }
            }
            x += (i64::from(gw) + 1 + i64::from(bold)) * k;
        }
        x
    }

    /// A `k × k` block, honouring the reveal clip.
    fn block(&mut self, x: i64, y: i64, k: i64, c: Ink) {
        for yy in y..y + k {
            for xx in x..x + k {
                self.set(xx, yy, c);
            }
        }
    }
}

/// The ink of a shape's tone, for bars and marks.
fn tone_ink(t: Tone) -> Ink {
    match t {
        Tone::Lease => Ink::LeaseBar,
        Tone::Belief => Ink::Belief,
        Tone::Paused | Tone::Down => Ink::PausedFill,
        Tone::Accept => Ink::Lease,
        Tone::Stale | Tone::Duplicate | Tone::Reject | Tone::Expire | Tone::Fault => Ink::Alarm,
        Tone::Effect => Ink::Effect,
    }
}

/// The ink and thickness of a message arrow, by its family (as static/style.css draws it).
fn arrow_ink(class: &str) -> (Ink, bool) {
    match class {
        "grant" => (Ink::Lease, false),
        "write" => (Ink::Belief, true),
        "reject" => (Ink::Alarm, true),
        "effect" => (Ink::Effect, false),
        "renew" => (Ink::Renew, false),
        _ => (Ink::Msg, false),
    }
}

/// What is recorded and how: the run, its drawing, and what the caption says.
pub struct Scene {
    pub trace: Trace,
    pub verdict: Verdict,
    pub diagram: Diagram,
    /// The scenario's name, first on the caption.
    pub name: String,
    /// The link that reopens this run, shown on the last frame.
    pub link: String,
    /// The frame width in pixels.
    pub width: usize,
    projection: Projection,
    notable: Vec<usize>,
}

/// Lines of text in the caption strip below the drawing.
const CAPTION_LINES: i64 = 4;

impl Scene {
    /// The scene of a run, laid out as the page lays it out.
    pub fn new(trace: Trace, verdict: Verdict, name: &str, link: &str, width: usize) -> Scene {
        let diagram = crate::view::layout::diagram(&trace, &verdict);
        let projection = Projection::new(&trace);
        let notable = narrate::notable_steps(&trace);
        Scene {
            trace,
            verdict,
            diagram,
            name: name.to_string(),
            link: link.to_string(),
            width,
            projection,
            notable,
        }
    }

    fn scale(&self) -> f64 {
        self.width as f64 / DIAGRAM_WIDTH
    }

    /// The font's pixel size: one pixel per font cell up to 1.45× the layout, then more,
    /// so text stays about the page's 11 px relative to the drawing.
    fn font_k(&self) -> i64 {
        ((self.scale() * 11.0 / 8.0).floor() as i64).max(1)
    }

    /// The height of the drawing in pixels, and of the frame (an even number, which video
    /// encoders want).
    pub fn height(&self) -> usize {
        let drawing = (self.diagram.height * self.scale()).round() as i64;
        let strip = CAPTION_LINES * 11 * self.font_k() + 8;
        let h = (drawing + strip).max(2) as usize;
        h + h % 2
    }

    /// The caption's sentence at time `t`: the latest notable event at or before it, or how
    /// the run ended once the cursor is at its end.
    fn sentence(&self, t: i64) -> String {
        if t >= self.trace.end.0 {
            return narrate::ending(&self.verdict);
        }
        let step = step_at_time(&self.trace, Time(t));
        let idx = self.notable.partition_point(|&i| i < step);
        match idx.checked_sub(1).map(|j| self.notable[j]) {
            Some(i) => {
                let after = self.projection.state_at(&self.trace, i + 1);
                narrate::sentence(&self.trace, &self.verdict, i, &after).unwrap_or_default()
            }
            None => String::new(),
        }
    }

    /// The frame at true time `t` ms; `last` adds the link to the caption.
    pub fn frame(&self, t: i64, last: bool) -> Frame {
        let (w, h) = (self.width.max(1), self.height());
        let mut c = Canvas {
            f: Frame {
                width: w,
                height: h,
                px: vec![Ink::Paper as u8; w * h],
            },
            s: self.scale(),
            k: self.font_k(),
            clip: i64::MAX,
        };
        let d = &self.diagram;
        let sc = d.scale;
        let thick = if c.s >= 1.3 { 2 } else { 1 };
        let bottom = c.p(d.height - 8.0);
        // The axis: a faint line per tick and its label above.
        for tk in &d.ticks {
            let x = c.p(tk.x);
            c.line(x, c.p(20.0), x, bottom, Ink::Grid, 1, (0, 0));
            c.text(x, c.p(14.0), &tk.label, Ink::Muted, false, true);
        }
        for l in &d.lanes {
            let y = c.p(l.y);
            c.line(c.p(LEFT), y, c.p(sc.x1), y, Ink::Border, thick, (0, 0));
        }
        // The reveal: shapes up to the cursor.
        let cx = within(sc.x(t as f64), sc.x0, sc.x1);
        c.clip = c.p(cx + 0.5) + 1;
        self.body(&mut c, thick);
        c.clip = i64::MAX;
        self.labels(&mut c, cx + 0.5);
        // The lane names and each node's clock at the cursor, over the left margin.
        let state = self
            .projection
            .state_at(&self.trace, step_at_time(&self.trace, Time(t)));
        c.rect(0, c.p(20.0), c.p(LEFT), bottom + 1, Ink::Paper);
        for l in &d.lanes {
            c.text(c.p(8.0), c.p(l.y - 2.0), l.label, Ink::Text, true, false);
            let clock = format!("clock {}", fmt_ms(state.local(l.node, Time(t))));
            c.text(c.p(8.0), c.p(l.y + 13.0), &clock, Ink::Muted, false, false);
        }
        let x = c.p(cx);
        c.line(x, c.p(18.0), x, bottom, Ink::Accent, thick.max(2), (0, 0));
        // The caption strip.
        let top = (d.height * c.s).round() as i64;
        c.rect(0, top, w as i64, h as i64, Ink::Strip);
        c.line(0, top, w as i64 - 1, top, Ink::Border, 1, (0, 0));
        let (k, margin) = (c.k, 6 * c.k);
        let line_y = |i: i64| top + 3 + (i + 1) * 11 * k - 2 * k;
        let room = w as i64 - 2 * margin;
        let after = c.text(
            margin,
            line_y(0),
            &fit(&self.name, room / k),
            Ink::Accent,
            true,
            false,
        );
        c.text(
            after + 3 * k,
            line_y(0),
            &format!("t = {}", fmt_ms(t)),
            Ink::Text,
            false,
            false,
        );
        let sentence = self.sentence(t);
        for (i, line) in wrap(&sentence, room / k, 2).iter().enumerate() {
            c.text(margin, line_y(1 + i as i64), line, Ink::Text, false, false);
        }
        if last {
            let link = format!("leaseline {}", self.link);
            c.text(
                margin,
                line_y(3),
                &fit(&link, room / k),
                Ink::Accent,
                false,
                false,
            );
        }
        c.f
    }

    /// Bands, bars, arrows and marks, without their labels, clipped at the reveal.
    fn body(&self, c: &mut Canvas, thick: i64) {
        let d = &self.diagram;
        for b in &d.bands {
            let (x0, x1) = (c.p(b.x0), c.p(b.x1).max(c.p(b.x0) + 1));
            let (y0, y1) = (c.p(b.y0), c.p(b.y1));
            c.rect(x0, y0, x1, y1, Ink::BandFill);
            c.outline(x0, y0, x1, y1, Ink::Alarm, (4, 3));
        }
        for b in &d.bars {
            let (x0, y0) = (c.p(b.x0), c.p(b.y));
            let x1 = c.p(b.x1).max(x0 + 1);
            let y1 = c.p(b.y + b.h).max(y0 + 1);
            c.rect(x0, y0, x1, y1, tone_ink(b.tone));
            if b.tone == Tone::Paused {
                c.outline(x0, y0, x1, y1, Ink::Msg, (3, 3));
            }
        }
        for a in &d.arrows {
            let (ink, heavy) = arrow_ink(a.class);
            let w = if heavy { 2 } else { 1 }.max(thick);
            let dash = if a.dropped { (3, 3) } else { (0, 0) };
            let (x0, y0, x1, y1) = (c.p(a.x0), c.p(a.y0), c.p(a.x1), c.p(a.y1));
            c.line(x0, y0, x1, y1, ink, w, dash);
            let (ex, ey) = (a.x1 * c.s, a.y1 * c.s);
            if a.dropped {
                // A cross where the message was lost.
                let r = (3.0 * c.s).round().max(2.0) as i64;
                let (x, y) = (ex.round() as i64, ey.round() as i64);
                c.line(x - r, y - r, x + r, y + r, Ink::Alarm, 2, (0, 0));
                c.line(x + r, y - r, x - r, y + r, Ink::Alarm, 2, (0, 0));
            } else {
                // An arrowhead along the line, its tip at the end.
                let (vx, vy) = (a.x1 - a.x0, a.y1 - a.y0);
                let len = (vx * vx + vy * vy).sqrt().max(0.001);
                let (ux, uy) = (vx / len, vy / len);
                let (hl, hw) = (7.0 * c.s, 3.5 * c.s);
                let base = (ex - ux * hl, ey - uy * hl);
                c.triangle(
                    (ex, ey),
                    (base.0 - uy * hw, base.1 + ux * hw),
                    (base.0 + uy * hw, base.1 - ux * hw),
                    Ink::Msg,
                );
            }
        }
        for m in &d.marks {
            // A mark drawn by another at its spot (see `layout::Mark::stacked`).
            if m.stacked == 0 {
                continue;
            }
            let (x, y) = (c.p(m.x), c.p(m.y));
            let r = (7.0 * c.s).round().max(3.0) as i64;
            let filled = matches!(m.tone, Tone::Stale | Tone::Duplicate);
            let ring = match m.tone {
                Tone::Accept => Ink::Lease,
                Tone::Reject | Tone::Expire | Tone::Stale | Tone::Duplicate => Ink::Alarm,
                Tone::Effect => Ink::Effect,
                _ => Ink::Msg,
            };
            c.disc(x, y, r + i64::from(filled), ring);
            if !filled {
                c.disc(x, y, r - 1, Ink::Paper);
            }
            let glyph = if filled { Ink::Paper } else { Ink::Text };
            let gy = y + (font::CAP as i64 * c.k) / 2;
            c.text(x, gy, m.glyph, glyph, false, true);
        }
    }

    /// Every label seen with the reveal at `edge`, whole (a label the cursor is crossing
    /// reads in full, as on the page): one that starts at or before the edge and whose
    /// moment ([`Label::at`]) the edge has reached — a label placed left of its moment
    /// appears with it, never before.
    fn labels(&self, c: &mut Canvas, edge: f64) {
        let d = &self.diagram;
        let put = |c: &mut Canvas, l: &Option<Label>, alarm: bool| {
            if let Some(l) = l.as_ref().filter(|l| l.x <= edge && l.at <= edge) {
                let ink = if alarm { Ink::Alarm } else { Ink::Text };
                c.text(c.p(l.x), c.p(l.y), &l.text, ink, alarm, false);
            }
        };
        for b in &d.bands {
            put(c, &b.tag, true);
        }
        for b in &d.bars {
            put(c, &b.label, false);
        }
        for a in &d.arrows {
            put(c, &a.label, false);
        }
        for m in &d.marks {
            let alarm = matches!(m.tone, Tone::Stale | Tone::Duplicate | Tone::Reject);
            put(c, &m.label, alarm);
        }
    }
}

/// `s` cut to at most `cols` font columns, with "…" where it was cut.
fn fit(s: &str, cols: i64) -> String {
    if font::width(s) as i64 <= cols {
        return s.to_string();
    }
    let mut out = String::new();
    for ch in s.chars() {
        out.push(ch);
        if font::width(&out) as i64 + 6 > cols {
            out.pop();
            break;
        }
    }
    out.push('…');
    out
}

/// `s` broken at spaces into at most `lines` lines of `cols` columns; the last one cut
/// with "…" if the text runs on.
fn wrap(s: &str, cols: i64, lines: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let words: Vec<&str> = s.split(' ').collect();
    for (i, w) in words.iter().enumerate() {
        let candidate = if cur.is_empty() {
            w.to_string()
        } else {
            format!("{cur} {w}")
        };
        if font::width(&candidate) as i64 <= cols || cur.is_empty() {
            cur = candidate;
            continue;
        }
        out.push(std::mem::take(&mut cur));
        if out.len() == lines - 1 {
            cur = words[i..].join(" ");
            break;
        }
        cur = w.to_string();
    }
    if !cur.is_empty() {
        out.push(fit(&cur, cols));
    }
    out.truncate(lines);
    out
}

/// The frames of a recording: how many, and the cursor time of each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// From and to, true ms.
    pub from: i64,
    pub to: i64,
    pub fps: u32,
    pub seconds: u32,
}

impl Timing {
    pub fn frames(&self) -> usize {
        (self.fps as usize * self.seconds as usize).max(2)
    }

    /// Frame `i`'s cursor: from + (to − from)·i/(n − 1), in whole ms.
    pub fn time(&self, i: usize) -> i64 {
        let n = self.frames() as i64 - 1;
        self.from + (self.to - self.from) * i as i64 / n
    }

    /// Each frame's delay in hundredths of a second (GIF's unit), at least 2.
    pub fn delay_cs(&self) -> u16 {
        (100 / self.fps.max(1)).clamp(2, 100) as u16
    }
}
