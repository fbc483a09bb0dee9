//! Level of detail: a window of a 100,000-entry run is drawn with a bounded
//! number of shapes, whatever its width in time, and what it merges stays truthful — a
//! merged bar covers exactly the union of the bars it stands for, a bundle counts every
//! message, and a violation is never merged away.

use crate::big_run;
use crate::common::every_scenario;
use big_run::big;
use leaseline::analysis::check::check;
use leaseline::model::sim::simulate;
use leaseline::model::trace::Trace;
use leaseline::view::export::svg::diagram_body;
use leaseline::view::layout::{self, Diagram, Index, Tone};

/// The shapes a diagram draws (each one or a few SVG elements).
fn shapes(d: &Diagram) -> usize {
    d.bands.len() + d.bars.len() + d.arrows.len() + d.marks.len() + d.folds.len() + d.gaps.len()
}

#[test]
#[ignore = "a measurement: cargo test --release --test it layout_lod -- --ignored --nocapture"]
fn profile_windows_of_the_big_run() {
    let (t, v) = big(100_000, "monotone");
    let ix = layout::Index::new(&t);
    let end = t.end.0;
    println!("{} entries, {} ms", t.entries.len(), end);
    for k in [1, 4, 16, 64, 1000] {
        let from = end / 2 - end / (2 * k);
        let w = if k == 1 {
            None
        } else {
            Some((from, from + end / k))
        };
        let start = std::time::Instant::now();
        let d = layout::layout_in(&ix, &t, &v, layout::DIAGRAM_WIDTH, w);
        let el = start.elapsed();
        let svg = diagram_body(&d);
        let count = |tag: &str| svg.matches(&format!("<{tag}")).count();
        println!(
            "  g {} title {} text {} rect {} line {} polygon {} circle {}",
            count("g "),
            count("title"),
            count("text"),
            count("rect"),
            count("line"),
            count("polygon"),
            count("circle")
        );
        println!(
            "1/{k}: {:?}; {} bars, {} arrows, {} marks, {} folds, {} gaps; {} shapes, {} KB svg",
            el,
            d.bars.len(),
            d.arrows.len(),
            d.marks.len(),
            d.folds.len(),
            d.gaps.len(),
            shapes(&d),
            svg.len() / 1024
        );
    }
}

/// The SVG elements of a diagram's body, as the page writes it.
fn elements(d: &Diagram) -> usize {
    let svg = diagram_body(d);
    svg.matches('<').count() - svg.matches("</").count()
}

/// The whole run, then windows of a half, a quarter, … a sixty-fourth of it, centred on `at`.
fn zooms(t: &Trace, at: i64) -> Vec<Option<(i64, i64)>> {
    let end = t.end.0.max(1);
    let mut v = vec![None];
    for k in [2, 4, 8, 16, 64] {
        let len = end / k;
        let from = (at - len / 2).clamp(0, end - len);
        v.push(Some((from, from + len)));
    }
    v
}

const ALARMS: [Tone; 3] = [Tone::Stale, Tone::Duplicate, Tone::Reject];

/// The most SVG elements a window's drawing may have, however long the run.
const CAP: usize = 4_000;

#[test]
fn a_window_of_a_long_run_is_drawn_with_a_bounded_number_of_elements() {
    let (t, v) = big(100_000, "monotone");
    let ix = Index::new(&t);
    for w in zooms(&t, t.end.0 / 2) {
        for width in [layout::DIAGRAM_WIDTH, layout::NARROWEST] {
            let d = layout::layout_in(&ix, &t, &v, width, w);
            let n = elements(&d);
            println!("{w:?} at {width}: {n} elements");
            assert!(n <= CAP, "{w:?} at {width}: {n} elements");
        }
    }
    // Shape for shape, the whole run would be many times that.
    let all = layout::layout_in(&Index::new(&t).uncut(), &t, &v, layout::DIAGRAM_WIDTH, None);
    assert!(elements(&all) > 4 * CAP, "{}", elements(&all));
}

#[test]
fn merged_shapes_cover_exactly_what_they_stand_for_and_count_it() {
    let (t, v) = big(30_000, "none");
    let end = t.end.0;
    let (ix, exact) = (Index::new(&t), Index::new(&t).uncut());
    for w in [
        None,
        Some((end / 4, 3 * end / 4)),
        Some((end / 3, end / 3 + end / 4)),
    ] {
        let d = layout::layout_in(&ix, &t, &v, layout::DIAGRAM_WIDTH, w);
        let e = layout::layout_in(&exact, &t, &v, layout::DIAGRAM_WIDTH, w);
        let s = d.scale;
        assert!(elements(&d) < elements(&e), "{w:?}: nothing merged");
        // Every message is counted once; every event's marker too.
        let sum = |a: &[layout::Arrow]| a.iter().map(|a| a.count).sum::<usize>();
        assert_eq!(sum(&d.arrows), sum(&e.arrows), "{w:?}: messages");
        assert!(d.arrows.iter().any(|a| a.count > 100), "{w:?}: bundled");
        let marks: usize = d.marks.iter().map(|m| m.count).sum();
        assert_eq!(marks, e.marks.len(), "{w:?}: events");
        assert!(d.marks.iter().any(|m| m.count > 1), "{w:?}: folded");
        for m in d.marks.iter().filter(|m| m.count > 1) {
            assert!(!ALARMS.contains(&m.tone), "{w:?}: {m:?}");
            let label = m.label.as_ref().map_or("", |l| l.text.as_str());
            assert!(
                label.is_empty() || label == format!("+{}", m.count - 1),
                "{label}"
            );
        }
        assert_eq!(d.bands, e.bands, "{w:?}");
        // A merged bar covers exactly the union of the bars it stands for (and the gaps
        // between them, each under a unit), and every bar is in one.
        for b in &d.bars {
            let inside: Vec<&layout::Bar> = e
                .bars
                .iter()
                .filter(|x| x.tone == b.tone && x.y == b.y)
                .filter(|x| x.x0 >= b.x0 - 1e-9 && x.x1 <= b.x1 + 1e-9)
                .collect();
            assert_eq!(inside.len(), b.count, "{w:?}: {b:?}");
            let lo = inside.iter().map(|x| x.x0).fold(f64::MAX, f64::min);
            let hi = inside.iter().map(|x| x.x1).fold(f64::MIN, f64::max);
            assert!(
                (lo - b.x0).abs() < 1e-9 && (hi - b.x1).abs() < 1e-9,
                "{w:?}: {b:?}"
            );
            let mut reach = lo;
            for x in &inside {
                assert!(
                    x.x0 - reach < 1.0 + 1e-9,
                    "{w:?}: a gap of a unit or more in {b:?}"
                );
                reach = reach.max(x.x1);
            }
        }
        let bars: usize = d.bars.iter().map(|b| b.count).sum();
        assert_eq!(bars, e.bars.len(), "{w:?}: bars");
        let _ = s;
    }
}

/// Every built-in scenario, drawn at a level of detail however short (the merging is the
/// same for a short run as for a long one): each violation keeps its own marker at every
/// zoom, and the counts add up.
#[test]
fn no_violation_is_merged_away_at_any_zoom() {
    let mut seen = 0;
    for (name, sc) in every_scenario() {
        let t = simulate(&sc).unwrap();
        let v = check(&t);
        let all = layout::layout_in(&Index::new(&t).uncut(), &t, &v, layout::DIAGRAM_WIDTH, None);
        let alarms: Vec<(usize, Tone)> = all
            .marks
            .iter()
            .filter(|m| ALARMS.contains(&m.tone))
            .map(|m| (m.entry, m.tone))
            .collect();
        let ix = Index::new(&t).lod_above(0);
        for &(entry, tone) in &alarms {
            for w in zooms(&t, t.entries[entry].t.0) {
                let d = layout::layout_in(&ix, &t, &v, layout::DIAGRAM_WIDTH, w);
                let kept = d.marks.iter().find(|m| m.entry == entry && m.tone == tone);
                assert!(
                    kept.is_some_and(|m| m.count == 1),
                    "{name}: {tone:?} at entry {entry} lost over {w:?}"
                );
                seen += 1;
            }
        }
        // The whole run: every event and message counted, the bands as ever.
        let d = layout::layout_in(&ix, &t, &v, layout::DIAGRAM_WIDTH, None);
        assert_eq!(
            d.marks.iter().map(|m| m.count).sum::<usize>(),
            all.marks.len(),
            "{name}"
        );
        let sum = |a: &[layout::Arrow]| a.iter().map(|a| a.count).sum::<usize>();
        assert_eq!(sum(&d.arrows), sum(&all.arrows), "{name}");
        assert_eq!(d.bands, all.bands, "{name}");
    }
    assert!(seen > 100, "{seen}");
}

/// The level of detail reads a lane's bars of one kind in the order they end as the order
/// they start: they never overlap (one belief, one pause, one lease at a time).
#[test]
fn a_lanes_spans_of_one_kind_never_overlap() {
    use leaseline::analysis::projection::{intervals, Span};
    let kind = |s: &Span| match s {
        Span::Belief { .. } => 0,
        Span::Paused => 1,
        Span::Down => 2,
        Span::Lease { .. } => 3,
    };
    let mut runs: Vec<(String, Trace)> = every_scenario()
        .into_iter()
        .map(|(name, sc)| (name, simulate(&sc).unwrap()))
        .collect();
    runs.push(("the long run".into(), big(30_000, "none").0));
    for (name, t) in runs {
        let spans = intervals(&t);
        for (i, a) in spans.iter().enumerate() {
            let next = spans[i + 1..]
                .iter()
                .find(|b| b.node == a.node && kind(&b.span) == kind(&a.span));
            if let Some(b) = next {
                assert!(b.from >= a.to, "{name}: {a:?} then {b:?}");
            }
        }
    }
}
