//! The space-time diagram as SVG text.
//!
//! [`diagram_body`] writes the same elements, classes and hover titles as the timeline's
//! body component, so the page can inject it as raw markup (one string instead of a
//! virtual-DOM node per shape) and its stylesheet styles it as it styles the component; the
//! shapes a learner can click carry `data-entry`, the trace entry to seek to, for one
//! delegated handler. [`standalone`] wraps it with the axis, the lanes, the arrow markers
//! and the light theme's colours written out: the bare diagram as a document of its own.
//! [`swatch`] draws one shape alone, through the same writer, as a sample for the legend.
//!
//! Coordinates go through `tenths`: integer formatting only, no float formatter in the
//! WebAssembly bundle.

use crate::vocab::numbers::tenths as n;
use std::cell::Cell;

use crate::view::layout::detail::Detail;
use crate::view::layout::{Arrow, Band, Bar, Diagram, Label, Lane, Mark, Scale, Tone, LEFT};
use crate::view::legend::Swatch;

/// Appends `s` with the five XML-special characters escaped (for text and attributes).
pub fn escape_into(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// Writes `<tag attrs…>body</tag>`, or `<tag attrs…/>` if `body` writes nothing.
/// Attributes whose value is empty are left out.
pub(super) fn el(out: &mut String, tag: &str, attrs: &[(&str, &str)], body: &dyn Fn(&mut String)) {
    out.push('<');
    out.push_str(tag);
    for (k, v) in attrs.iter().filter(|(_, v)| !v.is_empty()) {
        out.push(' ');
        out.push_str(k);
        out.push_str("=\"");
        escape_into(out, v);
        out.push('"');
    }
    out.push('>');
    let start = out.len();
    body(out);
    if out.len() == start {
        out.pop();
        out.push_str("/>");
    } else {
        out.push_str("</");
        out.push_str(tag);
        out.push('>');
    }
}

/// A `<text>` element with escaped content.
pub(super) fn text(out: &mut String, class: &str, x: f64, y: f64, s: &str) {
    el(
        out,
        "text",
        &[("class", class), ("x", &n(x)), ("y", &n(y))],
        &|o| escape_into(o, s),
    );
}

/// A label, after its leader line if it has one.
fn label(out: &mut String, class: &str, l: Option<&Label>) {
    if let Some(l) = l {
        if let Some((x0, y0, x1, y1)) = l.leader {
            let (x0, y0, x1, y1) = (n(x0), n(y0), n(x1), n(y1));
            let attrs = [
                ("class", "leader"),
                ("x1", &*x0),
                ("y1", &*y0),
                ("x2", &*x1),
                ("y2", &*y1),
            ];
            el(out, "line", &attrs, &|_| {});
        }
        text(out, class, l.x, l.y, &l.text);
    }
}

/// A hover text: the `<title>` child of a shape.
fn title(s: &str) -> impl Fn(&mut String) + '_ {
    move |o: &mut String| el(o, "title", &[], &|o| escape_into(o, s))
}

/// The hover text of a shape that spans time ([`Diagram::told`]): in the saved drawing, its
/// whole text; in play, while the cursor is inside the shape, only what has begun — its
/// `open` text, numbered (`data-told`, in `Diagram::told`'s order) for the timeline to
/// swap for the whole text once the cursor passes its end. A drawing whose detail does not
/// tell ([`Detail::TELLS`], the first load's) has neither text for a shape that spans time
/// and shows none in play; a mark's, true once it is seen, it shows.
fn told<D: Detail>(
    o: &mut String,
    in_play: bool,
    k: &Cell<usize>,
    full: &str,
    open: &str,
    spans: bool,
) {
    if !D::TELLS {
        if !(in_play && spans) {
            title(full)(o);
        }
    } else if in_play && !open.is_empty() {
        el(o, "title", &[("data-told", &k.get().to_string())], &|o| {
            escape_into(o, open)
        });
        k.set(k.get() + 1);
    } else {
        title(full)(o);
    }
}

/// The diagram's shapes — bands, bars, arrows (a bundle as the band between its first and
/// last arrow), marks, and the counts of folded labels — as the `<g class="body">` element
/// the timeline draws. Bands and marks carry `data-entry="N"`, their trace entry; a label
/// placed away from what it names has a leader line (`class="leader"`).
pub fn diagram_body<D: Detail>(d: &Diagram<D>) -> String {
    body::<D>(d, false)
}

/// [`diagram_body`] as the timeline reveals it while a run plays: without the labels
/// placed left of the moment they tell of ([`Label::early`]), which the timeline draws
/// itself once the cursor reaches that moment (a sweep left to right would show them
/// early). `D`: the detail `d` was laid out in ([`crate::view::layout::detail`]).
pub fn diagram_body_in_play<D: Detail>(d: &Diagram<D>) -> String {
    body::<D>(d, true)
}

/// The drawing in play leaves out labels placed left of their moment (the timeline draws
/// them once their moment is revealed); the saved and first-paint drawings, of the whole
/// run, have them all.
fn body<D: Detail>(d: &Diagram<D>, in_play: bool) -> String {
    let label = |o: &mut String, class: &str, l: Option<&Label>| {
        label(o, class, l.filter(|l| !(in_play && l.early())));
    };
    let k = Cell::new(0);
    let told = |o: &mut String, full: &str, open: &str, spans: bool| {
        told::<D>(o, in_play, &k, full, open, spans)
    };
    let mut out = String::with_capacity(256 * (d.bars.len() + d.arrows.len() + d.marks.len()));
    el(&mut out, "g", &[("class", "body")], &|o| {
        for b in &d.bands {
            let attrs = [("class", "band"), ("data-entry", &b.entry.to_string())];
            el(o, "g", &attrs, &|o| {
                let attrs = [
                    ("x", n(b.x0)),
                    ("y", n(b.y0)),
                    ("width", n((b.x1 - b.x0).max(1.0))),
                    ("height", n(b.y1 - b.y0)),
                ];
                el(o, "rect", &pairs(&attrs), &|o| {
                    told(o, &b.label, b.open.as_ref(), true)
                });
                label(o, "band-label", b.tag.as_ref());
            });
        }
        // Believed vs actual, under the bars: the tint between the two ticks (alarm when the
        // believed end is the later), the alarm's tint on to where the client stopped
        // believing if it went on past both, the dashed tick where it believes its lease
        // ends and the solid one where the lease expired.
        for g in &d.gaps {
            let kind = if g.danger { "gap danger" } else { "gap margin" };
            let attrs = [("class", kind), ("data-entry", &g.entry.to_string())];
            el(o, "g", &attrs, &|o| {
                told(o, &g.title, g.open.as_ref(), true);
                let h = crate::view::layout::GAP_H;
                let (x0, x1) = (g.believed.min(g.expired), g.believed.max(g.expired));
                let late = if g.believed > g.expired { "late" } else { "" };
                for (class, a, b) in [(late, x0, x1), ("overrun", x1, g.until)] {
                    if b > a {
                        let r = [
                            ("class", class.to_string()),
                            ("x", n(a)),
                            ("y", n(g.y - h)),
                            ("width", n((b - a).max(1.0))),
                            ("height", n(2.0 * h)),
                        ];
                        el(o, "rect", &pairs(&r), &|_| {});
                    }
                }
                for (class, x) in [("believed", g.believed), ("expired", g.expired)] {
                    let x = n(x);
                    let l = [
                        ("class", class.to_string()),
                        ("x1", x.clone()),
                        ("y1", n(g.y - h)),
                        ("x2", x),
                        ("y2", n(g.y + h)),
                    ];
                    el(o, "line", &pairs(&l), &|_| {});
                }
            });
        }
        for b in &d.bars {
            el(
                o,
                "g",
                &[("class", &format!("bar {}", b.tone.class()))],
                &|o| {
                    let attrs = [
                        ("x", n(b.x0)),
                        ("y", n(b.y)),
                        ("width", n((b.x1 - b.x0).max(1.5))),
                        ("height", n(b.h)),
                        ("rx", "3".into()),
                    ];
                    el(o, "rect", &pairs(&attrs), &|o| {
                        told(o, &b.title, b.open.as_ref(), true)
                    });
                    label(o, "", b.label.as_ref());
                },
            );
        }
        for a in &d.arrows {
            let class = format!(
                "arrow {}{}",
                a.class,
                if a.dropped { " dropped" } else { "" }
            );
            el(o, "g", &[("class", &class)], &|o| {
                let end = format!("url(#{})", if a.dropped { "x-end" } else { "arrow-end" });
                let line = |o: &mut String, x0: f64, x1: f64, body: &dyn Fn(&mut String)| {
                    let attrs = [
                        ("x1", n(x0)),
                        ("y1", n(a.y0)),
                        ("x2", n(x1)),
                        ("y2", n(a.y1)),
                        ("marker-end", end.clone()),
                    ];
                    el(o, "line", &pairs(&attrs), body);
                };
                if D::MERGES && a.count > 1 {
                    // A bundle: the band its messages sweep, its first and last arrows.
                    told(o, &a.title, a.open.as_ref(), true);
                    let (l0, l1) = a.last;
                    let mut points = String::new();
                    for (x, y) in [(a.x0, a.y0), (l0, a.y0), (l1, a.y1), (a.x1, a.y1)] {
                        points.push_str(&n(x));
                        points.push(',');
                        points.push_str(&n(y));
                        points.push(' ');
                    }
                    el(o, "polygon", &[("points", &points)], &|_| {});
                    line(o, a.x0, a.x1, &|_| {});
                    line(o, l0, l1, &|_| {});
                } else {
                    line(o, a.x0, a.x1, &|o| told(o, &a.title, a.open.as_ref(), true));
                }
                label(o, "", a.label.as_ref());
            });
        }
        for (k, m) in d.marks.iter().enumerate() {
            // A mark drawn for several events: a click lists them in the inspector.
            let stacked = m.drawn_as();
            let attrs = [
                ("class", format!("mark {}", m.tone.class())),
                ("data-entry", m.entry.to_string()),
            ];
            let mut attrs = pairs(&attrs);
            let stack = if stacked > 1 {
                k.to_string()
            } else {
                String::new()
            };
            if stacked > 1 {
                attrs.push(("data-stack", &stack));
            }
            el(o, "g", &attrs, &|o| {
                // A mark drawn by another at its spot keeps only its label; one drawn for
                // several says how many, above its glyph.
                let stacked = m.drawn_as();
                if stacked > 0 {
                    let c = [("cx", n(m.x)), ("cy", n(m.y)), ("r", "7".into())];
                    let spans = m.until > m.x;
                    el(o, "circle", &pairs(&c), &|o| {
                        told(o, &m.title, m.open.as_ref(), spans)
                    });
                    text(o, "glyph", m.x, m.y + 4.0, m.glyph);
                }
                // Above the glyph, clear of the marks beside it on the lane, and starting
                // at the mark's own moment, so the reveal shows none of it earlier.
                if stacked > 1 {
                    text(o, "mark-count", m.x + 1.0, m.y - 10.0, &stacked.to_string());
                }
                label(o, "mark-label", m.label.as_ref());
            });
        }
        // A count is a button (focus or click shows its list in the inspector, ui::panels),
        // named by its own text and the labels it stands for. Out of the tab order and
        // hidden from a screen reader until the cursor reveals it: the page's timeline puts
        // the revealed ones in (so Tab never reads what the run has not yet shown).
        for (k, f) in d.folds.iter().enumerate().filter(|_| D::MERGES) {
            let list = format!("{} more here: {}", f.items.len(), f.items.join("; "));
            let name = format!("{}: {list}", f.label.text);
            let attrs = [
                ("class", "fold"),
                ("data-fold", &k.to_string()),
                ("aria-hidden", "true"),
                ("role", "button"),
                ("aria-label", &name),
            ];
            el(o, "g", &attrs, &|o| {
                title(&list)(o);
                // (Kept in play too: the timeline hides a count until its moment.)
                self::label(o, "fold-label", Some(&f.label));
            });
        }
    });
    out
}

/// Where each shape [`diagram_body_in_play`] draws begins on the left, in the order of
/// the body's children: its bands, gaps, bars, arrows and marks (the counts of folded
/// labels come after them and are not here; the timeline shows each from its moment).
/// The reveal's clip shows a shape from there on, and the timeline hides every shape
/// beyond it from a screen reader and from the page's find as well, which read what the
/// clip leaves out: before a question is answered, the run's rest must not be heard
/// either. A shape begins at the leftmost of its lines, its label and its label's leader
/// (a mark drawn for several carries the first one's label, left of its circle; one
/// drawn by another at its spot, only its label).
pub fn shape_starts<D: Detail>(d: &Diagram<D>) -> Vec<f64> {
    // A label drawn in play: one placed left of its moment the timeline draws itself.
    let with = |x: f64, l: Option<&Label>| match l.filter(|l| !l.early()) {
        Some(l) => {
            let x = x.min(l.x);
            l.leader.map_or(x, |(x0, _, x1, _)| x.min(x0).min(x1))
        }
        None => x,
    };
    let mut v = Vec::with_capacity(
        d.bands.len() + d.gaps.len() + d.bars.len() + d.arrows.len() + d.marks.len(),
    );
    for b in &d.bands {
        v.push(with(b.x0, b.tag.as_ref()));
    }
    for g in &d.gaps {
        v.push(g.believed.min(g.expired));
    }
    for b in &d.bars {
        v.push(with(b.x0, b.label.as_ref()));
    }
    for a in &d.arrows {
        v.push(with(a.x0.min(a.last.0), a.label.as_ref()));
    }
    for m in &d.marks {
        let circle = if m.drawn_as() > 0 {
            m.x - MARK_R
        } else {
            f64::INFINITY
        };
        v.push(with(circle, m.label.as_ref()));
    }
    v
}

/// A mark's circle's radius (its `r` in [`body`]).
const MARK_R: f64 = 7.0;

/// Borrows owned attribute values for [`el`].
pub(super) fn pairs<'a>(a: &'a [(&'a str, String)]) -> Vec<(&'a str, &'a str)> {
    a.iter().map(|(k, v)| (*k, v.as_str())).collect()
}

/// The rules of static/style.css that the diagram uses, with the light theme's values
/// written in (no custom properties, so any viewer draws it the same), and the alarm
/// drawn still, as with reduced motion.
pub(super) const STYLE: &str = concat!(
    r#"svg{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Helvetica Neue",Arial,sans-serif}"#,
    "text{font-size:11px;fill:#1b1f24}",
    ".axis line{stroke:#e7ebef}",
    ".axis text{fill:#57606a;text-anchor:middle}",
    ".lane line{stroke:#d0d7de;stroke-width:1.5}",
    ".lane-name{font-size:13px;font-weight:600}",
    ".band rect{fill:rgba(220,38,38,.11);stroke:#dc2626;stroke-dasharray:4 3}",
    ".band-label{fill:#dc2626;font-weight:700}",
    ".bar.belief rect{fill:#2563eb}",
    ".bar.lease rect{fill:#15803d;opacity:.85}",
    ".bar.paused rect{fill:rgba(100,116,139,.28);stroke:#64748b;stroke-dasharray:3 3}",
    ".bar.down rect{fill:rgba(100,116,139,.28)}",
    ".arrow line{stroke:#64748b;stroke-width:1.2}",
    ".arrow.grant line{stroke:#15803d}",
    ".arrow.write line{stroke:#2563eb;stroke-width:1.6}",
    ".arrow.reject line{stroke:#dc2626;stroke-width:1.6}",
    ".arrow.effect line{stroke:#9333ea}",
    ".arrow.renew line{opacity:.6}",
    ".arrow.dropped line{stroke-dasharray:3 3}",
    ".arrow polygon{fill:#64748b;opacity:.09}",
    ".leader{stroke:#57606a;stroke-width:.7}",
    ".fold-label{fill:#57606a;font-weight:700}",
    ".arrowhead{fill:#64748b}",
    ".x-head{stroke:#dc2626;stroke-width:2;fill:none}",
    ".mark circle{fill:#fff;stroke:#64748b;stroke-width:1.5}",
    ".glyph{font-size:10px;text-anchor:middle}",
    ".mark-count{font-size:10px;font-weight:700;fill:#57606a}",
    ".mark.accept circle{stroke:#15803d}",
    ".mark.reject circle,.mark.expire circle{stroke:#dc2626}",
    ".mark.effect circle{stroke:#9333ea}",
    ".mark.stale circle,.mark.duplicate circle{fill:#dc2626;stroke:#dc2626;stroke-width:4}",
    ".mark.stale .mark-label,.mark.duplicate .mark-label,.mark.reject .mark-label{fill:#dc2626;font-weight:700}",
    ".mark.stale .glyph{fill:#fff}",
    ".gap rect{fill:rgba(100,116,139,.14)}",
    ".gap .late,.gap .overrun{fill:rgba(220,38,38,.16)}",
    ".gap line{stroke:#1b1f24;stroke-width:1.5}",
    ".gap .believed{stroke-dasharray:3 2}",
    ".gap.danger .expired{stroke:#dc2626}",
);

/// The arrowheads the body's lines refer to, as the timeline defines them.
pub(crate) const DEFS: &str = concat!(
    r#"<defs><marker id="arrow-end" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">"#,
    r#"<path d="M0 0L10 5L0 10z" class="arrowhead"/></marker>"#,
    r#"<marker id="x-end" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="8" markerHeight="8">"#,
    r#"<path d="M1 1L9 9M9 1L1 9" class="x-head"/></marker></defs>"#,
);

/// A complete SVG document of the diagram: title, embedded style, white background, time
/// axis, lanes with their names, and the body. It references nothing outside itself.
pub fn standalone(d: &Diagram, title_text: &str) -> String {
    document(d.width, d.height, title_text, "", &|o| drawing(o, d))
}

/// The root `<svg>` of an exported document `w` × `h`, with its title, the diagram's style
/// (and `extra_style`), the arrowheads and a white background, then what `body` writes.
pub(super) fn document(
    w: f64,
    h: f64,
    title_text: &str,
    extra_style: &str,
    body: &dyn Fn(&mut String),
) -> String {
    let (w, h) = (n(w), n(h));
    let attrs = [
        ("xmlns", "http://www.w3.org/2000/svg"),
        ("class", "timeline"),
        ("viewBox", &format!("0 0 {w} {h}")),
        ("width", &w),
        ("height", &h),
        ("role", "img"),
        ("aria-label", title_text),
    ];
    let mut out = String::new();
    el(&mut out, "svg", &attrs, &|o| {
        title(title_text)(o);
        el(o, "style", &[], &|o| {
            o.push_str(STYLE);
            o.push_str(extra_style);
        });
        o.push_str(DEFS);
        let bg = [("width", "100%"), ("height", "100%"), ("fill", "#fff")];
        el(o, "rect", &bg, &|_| {});
        body(o);
    });
    out
}

/// The diagram itself: the time axis, the lanes with their names, and the body.
pub(crate) fn drawing(o: &mut String, d: &Diagram) {
    frame(o, d);
    o.push_str(&diagram_body(d));
}

/// A lane's class: `lane`, and `client` on a client's (the stylesheet draws them apart).
pub(crate) fn lane_class(l: &Lane) -> &'static str {
    if l.node.is_client() {
        "lane client"
    } else {
        "lane"
    }
}

/// The diagram's frame: the time axis and the lanes with their names.
fn frame(o: &mut String, d: &Diagram) {
    let bottom = n(d.height - 8.0);
    el(o, "g", &[("class", "axis")], &|o| {
        for t in &d.ticks {
            el(o, "g", &[], &|o| {
                let x = n(t.x);
                let l = [("x1", &*x), ("y1", "20"), ("x2", &*x), ("y2", &*bottom)];
                el(o, "line", &l, &|_| {});
                el(o, "text", &[("x", &x), ("y", "14")], &|o| {
                    escape_into(o, &t.label)
                });
            });
        }
    });
    for l in &d.lanes {
        el(o, "g", &[("class", lane_class(l))], &|o| {
            let y = n(l.y);
            let a = [
                ("x1", n(LEFT)),
                ("y1", y.clone()),
                ("x2", n(d.scale.x1)),
                ("y2", y),
            ];
            el(o, "line", &pairs(&a), &|_| {});
            text(o, "lane-name", 8.0, l.y - 2.0, l.label);
        });
    }
}

/// The width and height of a legend sample ([`swatch`]).
pub const SWATCH_W: f64 = 48.0;
pub const SWATCH_H: f64 = 24.0;

/// A legend sample, [`SWATCH_W`] × [`SWATCH_H`]: one shape of the kind `s`, written by
/// [`diagram_body`] itself (a diagram of that one shape), so it carries the same element,
/// classes and look as the shapes it explains. `name` becomes its hover title.
pub fn swatch(s: Swatch, name: &str) -> String {
    let (w, h) = (SWATCH_W, SWATCH_H);
    let mut d: Diagram = Diagram {
        width: w,
        height: h,
        lane_h: h,
        scale: Scale {
            t0: 0.0,
            t1: 1.0,
            x0: 0.0,
            x1: w,
        },
        lanes: Vec::new(),
        bands: Vec::new(),
        bars: Vec::new(),
        arrows: Vec::new(),
        marks: Vec::new(),
        gaps: Vec::new(),
        folds: Vec::new(),
        ticks: Vec::new(),
    };
    let title = name.to_string();
    match s {
        Swatch::Band => d.bands.push(Band {
            x0: 3.0,
            x1: w - 3.0,
            y0: 2.0,
            y1: h - 2.0,
            tag: None,
            label: title,
            open: Default::default(),
            entry: 0,
        }),
        Swatch::Bar(tone) => {
            // The bar's height on a lane, as the layout draws it.
            let bh = match tone {
                Tone::Lease => 14.0,
                Tone::Belief => 10.0,
                _ => 20.0,
            };
            d.bars.push(Bar {
                x0: 4.0,
                x1: w - 4.0,
                y: (h - bh) / 2.0,
                h: bh,
                tone,
                label: None,
                title,
                open: Default::default(),
                count: 1,
            });
        }
        Swatch::Arrow { class, dropped } => d.arrows.push(Arrow {
            x0: 4.0,
            y0: 5.0,
            x1: w - 8.0,
            y1: h - 5.0,
            class,
            dropped,
            label: None,
            title,
            open: Default::default(),
            count: 1,
            last: (4.0, w - 8.0),
        }),
        Swatch::Gap { danger } => d.gaps.push(crate::view::layout::Gap {
            believed: if danger { w - 8.0 } else { 8.0 },
            expired: if danger { 8.0 } else { w - 8.0 },
            until: w - 8.0,
            y: h / 2.0,
            danger,
            title,
            open: Default::default(),
            entry: 0,
        }),
        Swatch::Mark(tone, glyph) => d.marks.push(Mark {
            x: w / 2.0,
            y: h / 2.0,
            tone,
            glyph,
            label: None,
            title,
            until: w / 2.0,
            open: Default::default(),
            entry: 0,
            count: 1,
            stacked: 1,
            events: Vec::new(),
        }),
    }
    diagram_body(&d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_the_five_characters_and_self_closes_empty_elements() {
        let mut s = String::new();
        el(&mut s, "a", &[("t", "<&\"'>"), ("skip", "")], &|_| {});
        assert_eq!(s, r#"<a t="&lt;&amp;&quot;&#39;&gt;"/>"#);
        s.clear();
        text(&mut s, "", 1.25, -2.0, "a < b & c");
        assert_eq!(s, r#"<text x="1.3" y="-2.0">a &lt; b &amp; c</text>"#);
    }
}
