//! What is drawn for a cursor at t is what has happened by t: no word of the space-time
//! diagram is seen before the moment it tells of, wherever the label placer put it. Read
//! for every built-in run (presets, lessons, lock-service presets, their fixes; the fence
//! on and off), at the desktop's and a phone's width, at twelve cursor times each.
//!
//! What the page shows at an edge is read as the page draws it: the drawing in play
//! (`svg::diagram_body_in_play`) revealed by a clip up to the edge, and the labels the
//! timeline draws over it (`Diagram::labels_at`). Each seen text is then traced back to
//! its shape — a mark's trace entry, a message's arrival, a bar's or a band's start — and
//! that moment must be at or before the cursor. The moment is read from the shape, not from
//! the label's own `at`, so a label stamped with the wrong moment fails here.
//!
//! And labels stand by what they name: within three rows of text of their shape, or, where
//! the placer had to go further, on a leader line back to it within five; no glyph of the
//! drawing prints on another (marks at one spot are drawn as one, with a count), nor any
//! ✂ of the stage on another.

use crate::common::{every_scenario, with_and_without_fence};
use leaseline::analysis::check::check;
use leaseline::model::sim::simulate;
use leaseline::view::layout::{self, Diagram, Label, Rect};

/// Whose label it is, and the true time (ms) of the moment it tells of, read from the shape.
fn moments(
    d: &Diagram,
    trace: &leaseline::model::trace::Trace,
) -> Vec<(*const Label, f64, String)> {
    let s = &d.scale;
    let mut v = Vec::new();
    for b in &d.bands {
        if let Some(l) = &b.tag {
            v.push((l as *const Label, s.t(b.x0), format!("band {:?}", l.text)));
        }
    }
    for b in &d.bars {
        if let Some(l) = &b.label {
            v.push((l as *const Label, s.t(b.x0), format!("bar {:?}", l.text)));
        }
    }
    for a in &d.arrows {
        if let Some(l) = &a.label {
            // A bundle's count tells of its last message too.
            let arrives = if a.count > 1 {
                a.x1.max(a.last.1)
            } else {
                a.x1
            };
            v.push((
                l as *const Label,
                s.t(arrives),
                format!("arrow {:?}", l.text),
            ));
        }
    }
    for m in &d.marks {
        if let Some(l) = &m.label {
            // A pause's label says how long it lasts: it tells of the pause's end.
            let e = &trace.entries[m.entry];
            let t = match e.event {
                leaseline::model::trace::Event::Paused { for_ms, .. } => (e.t.0 + for_ms) as f64,
                _ => e.t.0 as f64,
            };
            v.push((
                l as *const Label,
                t,
                format!("mark {:?} (entry {})", l.text, m.entry),
            ));
        }
    }
    v
}

/// The labels seen with the reveal's edge at `edge`: those of the drawing in play that the
/// clip shows a part of, and those the timeline draws over it.
fn seen(d: &Diagram, edge: f64) -> Vec<*const Label> {
    let mut v: Vec<*const Label> = d
        .labels()
        .into_iter()
        .filter(|l| !l.early() && l.x < edge)
        .map(|l| l as *const Label)
        .collect();
    v.extend(d.labels_at(edge).iter().map(|c| c.label as *const Label));
    v
}

/// Every built-in run's drawing, with the fence on and off, at the desktop's and a
/// phone's width: what it is ("gc-pause (None) at 960"), its trace and its drawing.
fn drawings() -> Vec<(String, leaseline::model::trace::Trace, Diagram)> {
    let mut v = Vec::new();
    for (name, sc) in every_scenario() {
        for (fence, sc) in with_and_without_fence(&sc) {
            let t = simulate(&sc).unwrap();
            let verdict = check(&t);
            for width in [layout::DIAGRAM_WIDTH, layout::NARROWEST] {
                let d = layout::layout(&t, &verdict, width, None);
                v.push((format!("{name} ({fence:?}) at {width}"), t.clone(), d));
            }
        }
    }
    v
}

/// Fails with the list of what went wrong, if anything did.
fn none(bad: &[String], what: &str) {
    assert!(bad.is_empty(), "{} {what}:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn no_label_is_seen_before_the_moment_it_tells_of() {
    let (mut runs, mut checked, mut early) = (0, 0, 0);
    let mut bad = Vec::new();
    for (name, t, d) in drawings() {
        runs += 1;
        early += d.labels().iter().filter(|l| l.early()).count();
        let owners = moments(&d, &t);
        let end = t.end.0.max(1) as f64;
        for k in 0..12 {
            // Twelve cursor times across the run, and each mark's own moment just
            // before it happens (where a question stops).
            let cursor = end * f64::from(k) / 11.0;
            let edge = d.scale.x(cursor) + 0.5;
            for l in seen(&d, edge) {
                checked += 1;
                let Some((_, at, what)) = owners.iter().find(|o| o.0 == l) else {
                    continue;
                };
                // Half a unit of the edge is a fraction of a millisecond to a few.
                let slack = d.scale.t(edge) - cursor;
                if *at > cursor + slack + 0.01 {
                    bad.push(format!(
                        "{name}: at {cursor:.0} ms, {what} of {at:.0} ms is seen"
                    ));
                }
            }
        }
        for m in &d.marks {
            let at = t.entries[m.entry].t.0 as f64;
            let edge = d.scale.x(at) - 9.0;
            for l in seen(&d, edge) {
                if Some(l) == m.label.as_ref().map(|l| l as *const Label) {
                    bad.push(format!(
                        "{name}: mark {:?} seen before it happens",
                        m.label.as_ref().map(|l| &l.text)
                    ));
                }
            }
        }
    }
    println!(
        "{runs} drawings, {checked} seen labels traced to their moment, {early} placed left of it"
    );
    assert!(runs > 150 && checked > 10_000, "{runs} {checked}");
    none(&bad, "seen early");
}

/// How far a box lies from a rectangle (0 when they touch or meet).
fn apart(b: Rect, r: Rect) -> f64 {
    let dx = (r.0 - b.2).max(b.0 - r.2).max(0.0);
    let dy = (r.1 - b.3).max(b.1 - r.3).max(0.0);
    dx.hypot(dy)
}

/// Every label with the shape it names, as a rectangle, and what it is.
fn owned(d: &Diagram) -> Vec<(&Label, Rect, String)> {
    let mut v = Vec::new();
    for b in &d.bands {
        if let Some(l) = &b.tag {
            v.push((l, (b.x0, b.y0, b.x1, b.y1), format!("band {:?}", l.text)));
        }
    }
    for b in &d.bars {
        if let Some(l) = &b.label {
            v.push((l, (b.x0, b.y, b.x1, b.y + b.h), format!("bar {:?}", l.text)));
        }
    }
    for a in &d.arrows {
        if let Some(l) = &a.label {
            let (x0, x1) = if a.count > 1 {
                (a.x1.min(a.last.1), a.x1.max(a.last.1))
            } else {
                (a.x1, a.x1)
            };
            v.push((l, (x0, a.y1, x1, a.y1), format!("arrow {:?}", l.text)));
        }
    }
    for m in &d.marks {
        if let Some(l) = &m.label {
            // A mark drawn for several stands at the last of them: it covers their spot.
            let spot = 7.0 + layout::STACK * m.stacked.saturating_sub(1) as f64;
            v.push((
                l,
                (m.x - spot, m.y - 7.0, m.x + 7.0, m.y + 7.0),
                format!("mark {:?}", l.text),
            ));
        }
    }
    v
}

/// A label sits within three rows of text of what it names; one the placer had to put
/// further off is on a leader line back to it, and still within five rows' reach.
const NEAR: f64 = 3.0 * leaseline::view::labels::ROW;
const LEADER_REACH: f64 = 5.0 * leaseline::view::labels::ROW;

#[test]
fn labels_stand_by_what_they_name() {
    let mut bad = Vec::new();
    let (mut n, mut led, mut far) = (0, 0, 0.0f64);
    for (name, sc) in every_scenario() {
        let t = simulate(&sc).unwrap();
        let v = check(&t);
        for width in [layout::DIAGRAM_WIDTH, layout::NARROWEST] {
            let d = layout::layout(&t, &v, width, None);
            for (l, r, what) in owned(&d) {
                n += 1;
                let b = leaseline::view::labels::text_box(l.x, l.y, l.w);
                let off = apart(b, r);
                far = far.max(off);
                let reach = if l.leader.is_some() {
                    led += 1;
                    LEADER_REACH
                } else {
                    NEAR
                };
                if off > reach {
                    bad.push(format!("{name} at {width}: {what} is {off:.1} units off"));
                }
            }
        }
    }
    println!("{n} labels, {led} on a leader line; the farthest {far:.1} units from what it names");
    assert!(n > 1_000, "{n}");
    none(&bad, "labels far from their marks");
}

/// No two glyphs print on each other: marks at one spot are drawn as one, with a count.
#[test]
fn no_glyph_stands_on_another() {
    let (mut stacks, mut bad) = (0, Vec::new());
    for (name, _, d) in drawings() {
        let drawn: Vec<_> = d.marks.iter().filter(|m| m.stacked > 0).collect();
        stacks += drawn.iter().filter(|m| m.stacked > 1).count();
        for (i, a) in drawn.iter().enumerate() {
            for b in &drawn[i + 1..] {
                // Two circles of radius 7 on one lane.
                if a.y == b.y && (a.x - b.x).abs() < 14.0 - 0.01 {
                    bad.push(format!(
                        "{name}: {} on {} at x {:.1}",
                        a.glyph, b.glyph, a.x
                    ));
                }
            }
        }
        // Every event keeps its mark's entry in the drawing: one drawn for several
        // counts them all.
        let stood: usize = d.marks.iter().map(|m| m.stacked).sum();
        assert_eq!(stood, d.marks.len(), "{name}");
    }
    println!("{stacks} marks drawn for several");
    assert!(stacks > 20, "{stacks}");
    none(&bad, "glyphs on glyphs");
}

/// On the stage, no two ✂ of cut links print on each other, at any moment of any built-in
/// run (Redlock's client links fan out to five masters).
#[test]
fn no_cut_mark_stands_on_another() {
    let mut cuts = 0;
    for (name, sc) in every_scenario() {
        let run = leaseline::session::Run::new(std::rc::Rc::new(sc));
        for step in 0..=run.trace.len() {
            let st = run.state_at(step);
            let marks: Vec<(f64, f64)> = layout::stage_links(&run.stage, &st)
                .iter()
                .filter(|l| l.cut)
                .map(|l| l.cut_at)
                .collect();
            cuts += marks.len();
            for (i, a) in marks.iter().enumerate() {
                for b in &marks[i + 1..] {
                    // The ✂ at the stage's 14 px: about 12 units wide, 16 high.
                    let apart = (a.0 - b.0).abs() >= 12.0 || (a.1 - b.1).abs() >= 16.0;
                    assert!(apart, "{name} at step {step}: ✂ at {a:?} and {b:?}");
                }
            }
        }
    }
    assert!(cuts > 100, "{cuts}");
}

/// The moments (ms) a hover text names: every "12.345s" in it, but amounts ("clock
/// +20.000s", "−3.000s").
fn named_moments(text: &str) -> Vec<f64> {
    let b = text.as_bytes();
    let mut v = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let after = |c: u8| c.is_ascii_digit() || matches!(c, b'.' | b'+' | b'-' | 0x92);
        if b[i].is_ascii_digit() && (i == 0 || !after(b[i - 1])) {
            let start = i;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            if b.get(i) == Some(&b's') {
                if let Ok(secs) = text[start..i].parse::<f64>() {
                    v.push(secs * 1000.0);
                }
            }
        }
        i += 1;
    }
    v
}

/// Each shape the reveal shows a part of at `edge`, with the hover text it has then, as
/// the page gives it: its whole text, or, for one that spans time (numbered in
/// `Diagram::told`'s order), the text told at the edge.
fn hover_texts(d: &Diagram, edge: f64) -> Vec<(String, String)> {
    let told = d.told();
    let mut k = 0;
    let mut v = Vec::new();
    let mut shape = |what: String, start: f64, full: &str, open: &str| {
        let text = if open.is_empty() {
            full.to_string()
        } else {
            k += 1;
            told[k - 1].at(edge).to_string()
        };
        if start <= edge {
            v.push((what, text));
        }
    };
    for b in &d.bands {
        shape("band".into(), b.x0, &b.label, &b.open);
    }
    for g in &d.gaps {
        shape("gap".into(), g.believed.min(g.expired), &g.title, &g.open);
    }
    for b in &d.bars {
        shape("bar".into(), b.x0, &b.title, &b.open);
    }
    for a in &d.arrows {
        shape("arrow".into(), a.x0, &a.title, &a.open);
    }
    for m in d.marks.iter().filter(|m| m.stacked > 0) {
        shape(format!("mark (entry {})", m.entry), m.x, &m.title, &m.open);
    }
    assert_eq!(k, told.len(), "every told text is a shape's");
    v
}

#[test]
fn no_hover_text_names_a_later_moment() {
    let (mut runs, mut read, mut open) = (0, 0, 0);
    let mut bad = Vec::new();
    for (name, t, d) in drawings() {
        runs += 1;
        // The drawing in play numbers its told texts as `Diagram::told` lists them.
        let body = leaseline::view::export::svg::diagram_body_in_play(&d);
        let told = d.told();
        assert_eq!(
            body.matches("<title data-told=").count(),
            told.len(),
            "{name}"
        );
        let end = t.end.0.max(1) as f64;
        let pauses: Vec<(f64, f64, String)> = t
            .entries
            .iter()
            .filter_map(|e| match e.event {
                leaseline::model::trace::Event::Paused { for_ms, .. } => Some((
                    e.t.0 as f64,
                    (e.t.0 + for_ms) as f64,
                    format!("paused {}", leaseline::vocab::numbers::fmt_ms(for_ms)),
                )),
                _ => None,
            })
            .collect();
        let mut cursors: Vec<f64> = (0..12).map(|k| end * f64::from(k) / 11.0).collect();
        cursors.extend(pauses.iter().map(|p| p.0 + 1.0));
        for cursor in cursors {
            let edge = d.scale.x(cursor) + 0.5;
            let slack = d.scale.t(edge) - cursor + 0.01;
            for (what, text) in hover_texts(&d, edge) {
                read += 1;
                open += usize::from(told.iter().any(|t| t.open == text));
                if let Some(m) = named_moments(&text)
                    .into_iter()
                    .find(|&m| m > cursor + slack)
                {
                    bad.push(format!(
                        "{name}: at {cursor:.0} ms, the {what} says {m:.0} ms: {text:?}"
                    ));
                }
                for (_, until, words) in &pauses {
                    if cursor + slack < *until && text.contains(words.as_str()) {
                        bad.push(format!(
                            "{name}: at {cursor:.0} ms, the {what} tells the pause's length: {text:?}"
                        ));
                    }
                }
            }
        }
    }
    println!("{runs} drawings, {read} hover texts read, {open} of them told open");
    assert!(runs > 150 && open > 1_000, "{runs} {open}");
    none(&bad, "hover texts telling of later moments");
}

#[test]
fn a_stacked_mark_lists_its_events_from_its_moment() {
    let (mut stacks, mut bad) = (0, Vec::new());
    for (name, t, d) in drawings() {
        for (k, m) in d.marks.iter().enumerate().filter(|(_, m)| m.stacked > 1) {
            stacks += 1;
            let Some(l) = d.stack_listing(k, m.x + 0.5) else {
                bad.push(format!("{name}: mark {k} stacked without a list"));
                continue;
            };
            let last = d.stack_end(k).map(|e| t.entries[e].t.0 as f64);
            if l.items.len() != m.stacked
                || l.heading != format!("{} events at one spot", m.stacked)
            {
                bad.push(format!(
                    "{name}: mark {k}: {} items for {}",
                    l.items.len(),
                    m.stacked
                ));
            }
            // Shown once the cursor is at its last event, where a click takes it.
            if last.is_none_or(|last| l.at > last) {
                bad.push(format!(
                    "{name}: mark {k}: listed from {} ms, last event {last:?}",
                    l.at
                ));
            }
            // (In the drawing's units, as the reveal's edge is: half a unit past the cursor.)
            for e in &m.events {
                if d.scale.x(t.entries[e.entry].t.0 as f64) > d.scale.x(l.at) + 0.5 + 1e-6 {
                    bad.push(format!(
                        "{name}: mark {k} lists entry {} before it",
                        e.entry
                    ));
                }
            }
        }
    }
    println!("{stacks} stacked marks listed");
    assert!(stacks > 50, "{stacks}");
    none(&bad, "stacked marks listed wrong");
}

/// The drawing in play's top-level shapes (the children of `<g class="body">`), each as
/// the leftmost x any of its elements draws at, `None` for one that draws nothing: read
/// from the markup itself, as a browser would lay it out (a circle from `cx - r`, a
/// polygon from its points, a line from either end, a rect or a text from its `x`).
fn children_left(markup: &str) -> Vec<Option<f64>> {
    let mut out: Vec<Option<f64>> = Vec::new();
    let mut depth = 0usize;
    let mut rest = markup;
    while let Some(open) = rest.find('<') {
        let close = open + rest[open..].find('>').expect("a tag ends");
        let tag = &rest[open + 1..close];
        rest = &rest[close + 1..];
        if tag.starts_with('/') {
            depth -= 1;
            continue;
        }
        let attr = |name: &str| -> Option<f64> {
            let key = format!(" {name}=\"");
            let at = tag.find(&key)? + key.len();
            tag[at..].split('"').next()?.parse().ok()
        };
        if depth >= 1 {
            if depth == 1 {
                out.push(None);
            }
            let mut xs: Vec<f64> = Vec::new();
            if let (Some(cx), Some(r)) = (attr("cx"), attr("r")) {
                xs.push(cx - r);
            }
            xs.extend(["x", "x1", "x2"].iter().filter_map(|k| attr(k)));
            if let Some(at) = tag.find(" points=\"") {
                let points = tag[at + 9..].split('"').next().unwrap_or("");
                xs.extend(
                    points
                        .split_whitespace()
                        .filter_map(|p| p.split(',').next()?.parse::<f64>().ok()),
                );
            }
            if let (Some(last), Some(x)) = (out.last_mut(), xs.into_iter().reduce(f64::min)) {
                *last = Some(last.map_or(x, |l| l.min(x)));
            }
        }
        if !tag.ends_with('/') {
            depth += 1;
        }
    }
    out
}

#[test]
fn every_shape_in_play_is_hidden_until_the_reveal_reaches_where_it_is_drawn() {
    // The timeline hides each shape from a screen reader and from the page's find until
    // the edge reaches `shape_starts`; the clip shows it from its leftmost drawn unit. The
    // two must be the same place, or a question's answer is heard before it is seen (a
    // start too late would hide what is already drawn).
    let (mut shapes, mut bad) = (0, Vec::new());
    for (name, _, d) in drawings() {
        let starts = leaseline::view::export::svg::shape_starts(&d);
        let markup = leaseline::view::export::svg::diagram_body_in_play(&d);
        let kids = children_left(&markup);
        // The counts of folded labels come after the shapes; the timeline shows them by
        // their moment.
        if kids.len() != starts.len() + d.folds.len() {
            bad.push(format!(
                "{name}: {} children, {} starts and {} folds",
                kids.len(),
                starts.len(),
                d.folds.len()
            ));
            continue;
        }
        for (k, (left, start)) in kids.iter().zip(&starts).enumerate() {
            shapes += 1;
            // Coordinates are written in tenths of a unit.
            if left.is_some_and(|l| (l - start).abs() > 0.051) {
                bad.push(format!(
                    "{name}: shape {k} drawn from {left:?}, start {start}"
                ));
            }
        }
    }
    println!("{shapes} shapes' starts read against their markup");
    assert!(shapes > 10_000, "{shapes}");
    none(&bad, "out of place");
}
