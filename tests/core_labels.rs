//! Issue #17, part 1: no label of the space-time diagram ever overlaps another, or sits on
//! a marker, an arrowhead or a lane's bar — for every built-in scenario (presets, lessons,
//! lock-service presets, their fixes, each with the fence on and off), at the desktop and
//! a phone's width, over the whole run and two closer windows.
//!
//! The boxes here are measured independently of the layout's own arithmetic: each label's
//! width is summed from the advance widths of DejaVu Sans (the widest of the fonts the
//! page's font stack falls back to; the e2e test `labels.test.mjs` measures the real ones
//! in Chromium), its height from the font's ascent and descent at the diagram's 11 px.

use leaseline::analysis::check::{check, Verdict};
use leaseline::model::scenario::Scenario;
use leaseline::model::sim::simulate;
use leaseline::model::trace::Trace;
use leaseline::teach::course;
use leaseline::teach::flavor_presets::FLAVOR_PRESETS;
use leaseline::teach::library::LESSONS;
use leaseline::teach::presets::PRESETS;
use leaseline::view::layout::{self, Diagram, Label, Tone};
use leaseline::vocab::names::FenceMode;

type Rect = (f64, f64, f64, f64);

/// Every built-in scenario: (name, scenario).
fn every_scenario() -> Vec<(String, Scenario)> {
    let mut v: Vec<(String, Scenario)> = PRESETS
        .iter()
        .map(|p| (p.name.to_string(), p.scenario()))
        .collect();
    for l in LESSONS.iter().chain(FLAVOR_PRESETS.iter().map(|p| &p.lesson)) {
        v.push((l.id.to_string(), l.scenario()));
        for f in l.fixes {
            let name = format!("{}/{}", l.id, f.name);
            let sc = course::open(&name).unwrap_or_else(|| panic!("no scenario {name}"));
            v.push((name, sc));
        }
    }
    v
}

/// DejaVu Sans's advance widths in em (regular; bold ones are about 10 % wider, and
/// symbols outside ASCII as wide as the widest the page uses).
fn em(c: char, bold: bool) -> f64 {
    let w: f64 = match c {
        ' ' => 0.32,
        'i' | 'j' | 'l' | '\'' | '.' | ',' => 0.28,
        'I' | 'J' | 'f' | ':' | ';' | '|' | '/' | '-' => 0.36,
        'r' | 't' | '(' | ')' | '[' | ']' | '!' => 0.40,
        'm' => 0.97,
        'w' => 0.82,
        'M' | 'W' | '%' => 0.99,
        'A'..='Z' => 0.79,
        '0'..='9' => 0.64,
        'a'..='z' => 0.64,
        '<' | '>' | '=' | '+' | '#' => 0.84,
        c if c.is_ascii() => 0.64,
        _ => 1.0,
    };
    if bold && c.is_ascii() {
        w * 1.12
    } else {
        w
    }
}

fn label_box(l: &Label, bold: bool) -> Rect {
    let w: f64 = l.text.chars().map(|c| em(c, bold)).sum::<f64>() * 11.0;
    (l.x, l.y - 0.93 * 11.0, l.x + w, l.y + 0.24 * 11.0)
}

fn meet(a: &Rect, b: &Rect) -> bool {
    // Boxes that only touch do not overlap (a tenth of a unit is rounding).
    a.0 < b.2 - 0.1 && b.0 < a.2 - 0.1 && a.1 < b.3 - 0.1 && b.1 < a.3 - 0.1
}

/// Every label the diagram draws, with its box and what it is.
fn labels(d: &Diagram) -> Vec<(Rect, String)> {
    let mut v = Vec::new();
    let mut add = |l: &Option<Label>, bold: bool| {
        if let Some(l) = l {
            v.push((label_box(l, bold), l.text.clone()));
        }
    };
    for b in &d.bands {
        add(&b.tag, true);
    }
    for b in &d.bars {
        add(&b.label, false);
    }
    for a in &d.arrows {
        add(&a.label, false);
    }
    for m in &d.marks {
        add(
            &m.label,
            matches!(m.tone, Tone::Stale | Tone::Duplicate | Tone::Reject),
        );
    }
    v
}

/// The shapes no label may cover: markers (a circle of radius 7, its alarm stroke
/// included), arrowheads (the last few units of an arrow, at its end) and bars.
fn obstacles(d: &Diagram) -> Vec<(Rect, String)> {
    let mut v = Vec::new();
    for m in &d.marks {
        v.push(((m.x - 7.0, m.y - 7.0, m.x + 7.0, m.y + 7.0), m.title.clone()));
    }
    for a in &d.arrows {
        let (dx, dy) = (a.x1 - a.x0, a.y1 - a.y0);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        // The head's base, 6 units back along the arrow.
        let (bx, by) = (a.x1 - dx / len * 6.0, a.y1 - dy / len * 6.0);
        let r = (
            a.x1.min(bx) - 2.5,
            a.y1.min(by) - 2.5,
            a.x1.max(bx) + 2.5,
            a.y1.max(by) + 2.5,
        );
        v.push((r, a.title.clone()));
    }
    for b in &d.bars {
        v.push(((b.x0, b.y, b.x1, b.y + b.h), b.title.clone()));
    }
    v
}

/// The overlapping pairs of `d`, described; sorted by left edge and swept, so a run of
/// thousands of labels is checked quickly.
fn overlaps(d: &Diagram) -> Vec<String> {
    let mut out = Vec::new();
    let mut ls = labels(d);
    ls.sort_by(|a, b| a.0 .0.total_cmp(&b.0 .0));
    for (i, (a, at)) in ls.iter().enumerate() {
        for (b, bt) in &ls[i + 1..] {
            if b.0 >= a.2 {
                break;
            }
            if meet(a, b) {
                out.push(format!("label {at:?} {a:?} overlaps label {bt:?} {b:?}"));
            }
        }
    }
    let obs = obstacles(d);
    for (a, at) in &ls {
        for (o, ot) in &obs {
            if meet(a, o) {
                out.push(format!("label {at:?} {a:?} covers {ot:?}"));
            }
        }
    }
    out
}

fn run(sc: &Scenario) -> (Trace, Verdict) {
    let t = simulate(sc).unwrap();
    let v = check(&t);
    (t, v)
}

#[test]
fn no_label_overlaps_another_or_a_shape_in_any_builtin_scenario() {
    let mut bad = Vec::new();
    for (name, sc) in every_scenario() {
        for fence in [sc.storage.fence, FenceMode::Monotone] {
            let mut sc = sc.clone();
            sc.storage.fence = fence;
            let (t, v) = run(&sc);
            let d = layout::diagram(&t, &v);
            let o = overlaps(&d);
            if !o.is_empty() {
                bad.push(format!(
                    "{name} ({fence:?}): {} overlaps, first: {}",
                    o.len(),
                    o[0]
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{} runs:\n{}", bad.len(), bad.join("\n"));
}
