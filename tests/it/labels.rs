//! No label of the space-time diagram ever overlaps another, or sits on
//! a marker, an arrowhead or a lane's bar — for every built-in scenario (presets, lessons,
//! lock-service presets, their fixes, each with the fence on and off), at the desktop and
//! a phone's width, over the whole run and two closer windows.
//!
//! The boxes here are measured independently of the layout's own arithmetic: each label's
//! width is summed from the advance widths of DejaVu Sans (the widest of the fonts the
//! page's font stack falls back to; the e2e test `labels.test.mjs` measures the real ones
//! in Chromium), its height from the font's ascent and descent at the diagram's 11 px.

use crate::big_run;
use crate::common::{every_scenario, with_and_without_fence};
use leaseline::analysis::check::{check, Verdict};
use leaseline::model::scenario::Scenario;
use leaseline::model::sim::simulate;
use leaseline::model::trace::Trace;
use leaseline::teach::course;
use leaseline::view::layout::{self, Diagram, Label, Tone};

type Rect = (f64, f64, f64, f64);

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
    for f in &d.folds {
        add(&Some(f.label.clone()), true);
    }
    v
}

/// The shapes no label may cover: markers (a circle of radius 7, its alarm stroke
/// included), arrowheads (the last few units of an arrow, at its end; a lost message's
/// cross) and bars.
fn obstacles(d: &Diagram) -> Vec<(Rect, String)> {
    let mut v = Vec::new();
    for m in &d.marks {
        v.push((
            (m.x - 7.0, m.y - 7.0, m.x + 7.0, m.y + 7.0),
            m.title.clone(),
        ));
    }
    for a in &d.arrows {
        // A bundle draws its first and its last arrow.
        for (x0, x1) in [(a.x0, a.x1), a.last] {
            if a.dropped {
                // A cross (8 units wide, a 2-unit stroke) at the end.
                let r = (x1 - 5.0, a.y1 - 5.0, x1 + 5.0, a.y1 + 5.0);
                v.push((r, a.title.clone()));
                continue;
            }
            let (dx, dy) = (x1 - x0, a.y1 - a.y0);
            let len = (dx * dx + dy * dy).sqrt().max(1e-9);
            // The head's base, 6 units back along the arrow.
            let (bx, by) = (x1 - dx / len * 6.0, a.y1 - dy / len * 6.0);
            let r = (
                x1.min(bx) - 2.5,
                a.y1.min(by) - 2.5,
                x1.max(bx) + 2.5,
                a.y1.max(by) + 2.5,
            );
            v.push((r, a.title.clone()));
        }
    }
    for b in &d.bars {
        v.push(((b.x0, b.y, b.x1, b.y + b.h), b.title.clone()));
    }
    // Believed vs actual: its two ticks (its tint may lie under a label).
    for g in &d.gaps {
        for x in [g.believed, g.expired] {
            let r = (x - 0.75, g.y - layout::GAP_H, x + 0.75, g.y + layout::GAP_H);
            v.push((r, g.title.clone()));
        }
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
    for (a, at) in &ls {
        // On the drawing, right of the lane names and below the axis; starting where the
        // reveal can reach it.
        let inside = a.0 >= layout::LEFT - 1.5 && a.1 >= 18.0 && a.2 <= d.width + 1.0;
        if !inside || a.3 > d.height || a.0 > d.scale.x1 {
            out.push(format!("label {at:?} {a:?} is off the drawing"));
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

/// The windows a learner may look through: the whole run, a quarter of it around the
/// first violation (or the middle), and a sixteenth.
fn windows(t: &Trace, v: &Verdict) -> Vec<Option<(i64, i64)>> {
    let end = t.end.0.max(1);
    let at = v
        .violations
        .first()
        .map_or(end / 2, |x| t.entries[x.entry as usize].t.0);
    let around = |len: i64| {
        let from = (at - len / 2).clamp(0, (end - len).max(0));
        Some((from, from + len))
    };
    vec![None, around(end / 4), around(end / 16)]
}

/// The desktop's drawing (as wide as today's) and a phone's: the page lays the drawing out
/// at its box's width below 960 px (`layout::fitted_width`), never narrower than 360.
const WIDTHS: [f64; 2] = [layout::DIAGRAM_WIDTH, layout::NARROWEST];

#[test]
fn no_label_overlaps_another_or_a_shape_in_any_builtin_scenario() {
    let mut bad = Vec::new();
    let (mut runs, mut placed, mut folded) = (0, 0, 0);
    for (name, sc) in every_scenario() {
        for (fence, sc) in with_and_without_fence(&sc) {
            let (t, v) = run(&sc);
            for width in WIDTHS {
                for window in windows(&t, &v) {
                    let d = layout::layout(&t, &v, width, window);
                    runs += 1;
                    placed += labels(&d).len();
                    folded += d.folds.iter().map(|f| f.items.len()).sum::<usize>();
                    note_overlaps(
                        &mut bad,
                        format!("{name} ({fence:?}) at {width} over {window:?}"),
                        &d,
                    );
                }
            }
        }
    }
    println!("{runs} diagrams, {placed} labels placed, {folded} folded into counts");
    assert!(runs > 400, "{runs}");
    assert!(
        bad.is_empty(),
        "{} diagrams:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// A drawing at its narrowest — a 280 px embed's width, or a page's column on a 320 px
/// phone (`layout::NARROWEST_SPREAD`), lanes at their shortest (`layout::lane_height_for`
/// in a short frame), a little taller, or at their usual height (a page's) — places its
/// labels as carefully: none on another, on a shape, or off the drawing; and every lane,
/// with its name and clock, inside the drawing's height.
#[test]
fn the_narrowest_drawing_has_no_overlaps_in_any_builtin_scenario() {
    let mut bad = Vec::new();
    let mut runs = 0;
    for (name, sc) in every_scenario() {
        for (fence, sc) in with_and_without_fence(&sc) {
            let (t, v) = run(&sc);
            let ix = layout::Index::new(&t);
            for lane_h in [layout::LANE_H_MIN, 40.0, layout::LANE_H] {
                let d = layout::layout_rows(&ix, &t, &v, layout::NARROWEST_SPREAD, lane_h, None);
                runs += 1;
                assert_eq!(d.lane_h, lane_h);
                let last = d.lanes.last().map_or(0.0, |l| l.y);
                assert!(
                    last + lane_h / 2.0 <= d.height,
                    "{name}: the last lane is cut"
                );
                note_overlaps(
                    &mut bad,
                    format!("{name} ({fence:?}) with lanes {lane_h} tall"),
                    &d,
                );
            }
        }
    }
    assert!(runs > 200, "{runs}");
    assert!(
        bad.is_empty(),
        "{} diagrams:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// A span's label (a lease's "c2 · token 34", a belief's, a band's) starts at or after
/// the span's start. Put before it, even on a leader line, it stands over whatever the
/// lane drew there — on a phone, over the lease the new one replaced, where it reads as
/// that lease's. Checked at the phone widths a page lays its drawing out at, and the
/// desktop's, over the whole run.
#[test]
fn a_spans_label_never_stands_before_the_span_in_any_builtin_scenario() {
    let mut bad = Vec::new();
    let mut spans = 0;
    for (name, sc) in every_scenario() {
        for (fence, sc) in with_and_without_fence(&sc) {
            let (t, v) = run(&sc);
            let ix = layout::Index::new(&t);
            for width in [
                layout::NARROWEST_SPREAD,
                296.0,
                360.0,
                375.0,
                390.0,
                414.0,
                480.0,
                layout::DIAGRAM_WIDTH,
            ] {
                let d = layout::layout_in(&ix, &t, &v, width, None);
                let bars = d.bars.iter().map(|b| (b.x0, &b.label));
                let bands = d.bands.iter().map(|b| (b.x0, &b.tag));
                for (x0, label) in bars.chain(bands) {
                    let Some(l) = label else { continue };
                    spans += 1;
                    if l.x < x0 {
                        bad.push(format!(
                            "{name} ({fence:?}) at {width}: {:?} at x {:.1}, its span from {x0:.1}",
                            l.text, l.x
                        ));
                    }
                }
            }
        }
    }
    assert!(spans > 1_000, "{spans}");
    assert!(bad.is_empty(), "{} labels:\n{}", bad.len(), bad.join("\n"));
}

/// Adds a line to `bad` for drawing `d` (named by `what`) if any of its labels overlaps.
fn note_overlaps(bad: &mut Vec<String>, what: String, d: &Diagram) {
    let o = overlaps(d);
    if let Some(first) = o.first() {
        bad.push(format!("{what}: {} overlaps, first: {first}", o.len()));
    }
}

#[test]
fn a_lane_height_fits_the_room_between_its_bounds() {
    use layout::{lane_height_for, BOTTOM, LANE_H, LANE_H_MIN, TOP};
    // Room for the usual lanes: the usual lanes, however much more room there is.
    assert_eq!(lane_height_for(4, TOP + BOTTOM + 4.0 * LANE_H), LANE_H);
    assert_eq!(lane_height_for(4, 2_000.0), LANE_H);
    // Less room: shorter lanes, in whole units, filling it.
    assert_eq!(lane_height_for(4, TOP + BOTTOM + 4.0 * 40.5), 40.0);
    // Too little: the shortest, and the box scrolls.
    assert_eq!(lane_height_for(4, 50.0), LANE_H_MIN);
    assert_eq!(lane_height_for(0, 50.0), LANE_H_MIN);
}

/// A window (or a narrower width) is laid out from the run's index, looking only at the
/// entries from a message's flight before the window to its end: it must draw exactly what
/// a walk of every entry of the run draws.
#[test]
fn a_window_is_drawn_as_a_walk_of_the_whole_run_draws_it() {
    let mut compared = 0;
    for (name, sc) in every_scenario() {
        let (t, v) = run(&sc);
        let (ix, all) = (layout::Index::new(&t), layout::Index::new(&t).uncut());
        let end = t.end.0.max(1);
        let mut ws = windows(&t, &v);
        // Thin slices across the run too: each starts with messages in flight.
        ws.extend((1..8).map(|k| Some((end * k / 8, end * k / 8 + end / 40 + 1))));
        for width in WIDTHS {
            for &window in &ws {
                let cut = layout::layout_in(&ix, &t, &v, width, window);
                let walked = layout::layout_in(&all, &t, &v, width, window);
                assert!(cut == walked, "{name} at {width} over {window:?}");
                compared += 1;
            }
        }
    }
    assert!(compared > 500, "{compared}");
}

/// Two crowded runs, Redlock's clock jump and eight clients: every label the whole run can
/// hold is still drawn, and what found no room is in a fold's list — nothing is silently
/// lost.
#[test]
fn the_crowded_runs_keep_every_label_somewhere() {
    for name in ["redlock-clock-jump", "eight-clients"] {
        let sc = course::open(name).unwrap();
        let (t, v) = run(&sc);
        let d = layout::diagram(&t, &v);
        assert!(overlaps(&d).is_empty(), "{name}");
        let wanted = d.marks.len();
        let labelled = d.marks.iter().filter(|m| m.label.is_some()).count();
        let folded: usize = d.folds.iter().map(|f| f.items.len()).sum();
        println!("{name}: {labelled} of {wanted} marks labelled, {folded} labels folded");
        assert!(labelled * 2 >= wanted, "{name}: {labelled} of {wanted}");
        // Closer in, more of them find room.
        let close = layout::layout(&t, &v, layout::DIAGRAM_WIDTH, windows(&t, &v)[2]);
        assert!(overlaps(&close).is_empty(), "{name}");
    }
}

/// The first load (the `lite` build) leaves folding and bundling out, for size: the two
/// runs it draws — the default page and its fenced fix — must need neither.
#[test]
fn the_first_loads_runs_need_no_fold_bundle_or_stack() {
    for name in ["gc-pause", "gc-pause-fenced"] {
        let (t, v) = run(&course::open(name).unwrap());
        let d = layout::diagram(&t, &v);
        assert!(d.folds.is_empty(), "{name}");
        assert!(d.arrows.iter().all(|a| a.count == 1), "{name}");
        // Nor marks at one spot (the first load leaves stacking them out), nor an axis
        // thinned at a phone's width, nor a cut link on the stage (it leaves out placing
        // their ✂).
        assert!(d.marks.iter().all(|m| m.stacked == 1), "{name}");
        for width in [layout::DIAGRAM_WIDTH, layout::NARROWEST] {
            let s = layout::scale_of(t.end.0, width, None);
            let all = layout::axis_ticks_in(0, t.end.0);
            assert_eq!(layout::ticks(&s).len(), all.len(), "{name} at {width}");
        }
        let run = leaseline::session::Run::new(std::rc::Rc::new(course::open(name).unwrap()));
        for step in 0..=run.trace.len() {
            let links = layout::stage_links(&run.stage, &run.state_at(step));
            assert!(links.iter().all(|l| !l.cut), "{name} at step {step}");
        }
    }
}

/// Believed vs actual: across the built-in scenarios, the runs where a client goes on
/// believing after its lease expired draw the alarm's kind on its lane; every gap stands
/// on a client's lane.
#[test]
fn believed_vs_actual_marks_the_runs_where_a_client_outlives_its_lease() {
    let (mut danger, mut margin) = (Vec::new(), Vec::new());
    for (name, sc) in every_scenario() {
        let (t, v) = run(&sc);
        let d = layout::diagram(&t, &v);
        for g in &d.gaps {
            let lane = d.lanes.iter().find(|l| l.y == g.y).expect("a lane");
            assert!(lane.node.is_client(), "{name}: {g:?}");
            if g.danger {
                danger.push(name.clone());
            } else {
                margin.push(name.clone());
            }
        }
    }
    danger.dedup();
    margin.dedup();
    println!("danger in {danger:?}; safe margin in {margin:?}");
    assert!(danger.iter().any(|n| n == "gc-pause"), "{danger:?}");
}

/// A long run (the benchmark's, 100,000 entries) is drawn at a level of detail: its merged
/// shapes and counts keep the labels' rule too, at both widths and every zoom.
#[test]
fn a_long_runs_level_of_detail_overlaps_nothing() {
    let (t, v) = big_run::big(100_000, "monotone");
    let ix = layout::Index::new(&t);
    let end = t.end.0;
    for width in WIDTHS {
        for k in [1, 2, 4, 16, 64, 1000] {
            let from = end / 2 - end / (2 * k);
            let w = (k > 1).then_some((from, from + end / k));
            let d = layout::layout_in(&ix, &t, &v, width, w);
            let o = overlaps(&d);
            assert!(
                o.is_empty(),
                "1/{k} at {width}: {} overlaps, first: {}",
                o.len(),
                o[0]
            );
        }
    }
}

/// The merging of a level of detail is the same for a short run: every built-in scenario
/// drawn so, at both widths and the three windows, overlaps nothing either.
#[test]
fn every_builtin_scenario_at_a_level_of_detail_overlaps_nothing() {
    let mut bad = Vec::new();
    for (name, sc) in every_scenario() {
        let (t, v) = run(&sc);
        let ix = layout::Index::new(&t).lod_above(0);
        for width in WIDTHS {
            for window in windows(&t, &v) {
                let o = overlaps(&layout::layout_in(&ix, &t, &v, width, window));
                if let Some(first) = o.first() {
                    bad.push(format!("{name} at {width} over {window:?}: {first}"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}:\n{}", bad.len(), bad.join("\n"));
}
