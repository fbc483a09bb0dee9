//! What the first load's drawing ([`Plain`] detail) leaves out of the whole app's
//! ([`Full`]), on every run the first load plays (`course::FirstLoad`'s presets) at every
//! width it lays the diagram out at, written down exactly:
//! - the hover texts of shapes that span time (bands, gaps, bars, arrows);
//! - on a phone narrower than 406 px, the one label of the default page's run that finds
//!   no room ("paused 40.000s"): the whole app folds it into a "+1" whose list names it,
//!   the first load leaves it out, and the labels near it are placed without the count's
//!   box.
//!
//! Everything else — the axis, the lanes, every shape, every other label, the stage at
//! every step and the drawing in play but for its `<title>`s — is the same, and nothing
//! is bundled, stacked or merged in either. A new difference fails here.

use leaseline::analysis::check::{check, Verdict};
use leaseline::analysis::projection::Projection;
use leaseline::model::sim::simulate;
use leaseline::model::trace::Trace;
use leaseline::teach::course::{Catalog, FirstLoad};
use leaseline::view::export::svg;
use leaseline::view::layout::detail::{Detail, Full, Plain};
use leaseline::view::layout::{self, Diagram, Index, Label};

/// Every width the first load lays the diagram out at ([`layout::fitted_width`]): a
/// phone's narrowest to the desktop's. (It is never an embed, whose narrowest is less.)
fn widths() -> impl Iterator<Item = f64> {
    (layout::NARROWEST as u32..=layout::DIAGRAM_WIDTH as u32)
        .step_by(1)
        .map(f64::from)
}

fn drawn<D: Detail>(ix: &Index<D>, t: &Trace, v: &Verdict, w: f64) -> Diagram<D> {
    layout::layout_rows::<D>(ix, t, v, w, layout::LANE_H, None)
}

/// A drawing's shapes as the reader sees them: where each is, its tone (a mark's hover
/// text too, which every detail tells), and with `labels` its label, each kind written
/// out on its own.
fn shapes<D: Detail>(d: &Diagram<D>, labels: bool) -> [String; 5] {
    let l = |l: &Option<Label>| format!("{:?}", l.as_ref().filter(|_| labels));
    let bands: Vec<_> = d
        .bands
        .iter()
        .map(|b| (b.x0, b.x1, b.y0, b.y1, l(&b.tag), b.entry))
        .collect();
    let bars: Vec<_> = d
        .bars
        .iter()
        .map(|b| (b.x0, b.x1, b.y, b.h, b.tone, l(&b.label)))
        .collect();
    let arrows: Vec<_> = d
        .arrows
        .iter()
        .map(|a| {
            (
                a.x0,
                a.y0,
                a.x1,
                a.y1,
                a.class,
                a.dropped,
                l(&a.label),
                a.last,
            )
        })
        .collect();
    let marks: Vec<_> = d
        .marks
        .iter()
        .map(|m| {
            (
                m.x,
                m.y,
                m.tone,
                m.glyph,
                l(&m.label),
                &m.title,
                m.until,
                m.entry,
            )
        })
        .collect();
    let gaps: Vec<_> = d
        .gaps
        .iter()
        .map(|g| (g.believed, g.expired, g.until, g.y, g.danger, g.entry))
        .collect();
    [
        format!("bands {bands:?}"),
        format!("bars {bars:?}"),
        format!("arrows {arrows:?}"),
        format!("marks {marks:?}"),
        format!("gaps {gaps:?}"),
    ]
}

/// The drawing's frame: its size, time axis and lanes.
fn frame<D: Detail>(d: &Diagram<D>) -> String {
    format!(
        "{} {} {} {:?} {:?}",
        d.width, d.height, d.lane_h, d.scale, d.lanes
    )
}

/// A phone narrower than this has the one fold of the default page's run.
const FOLDS_BELOW: f64 = 406.0;

#[test]
fn the_first_load_draws_its_runs_as_the_whole_app_does_less_what_it_leaves_out() {
    let mut runs = 0;
    for p in FirstLoad::PRESETS {
        let sc = p.scenario();
        let t = simulate(&sc).expect("the first load's run simulates");
        let v = check(&t);
        let (full_ix, plain_ix) = (Index::<Full>::new(&t), Index::<Plain>::new(&t));
        for w in widths() {
            let at = format!("{} at {w}", p.name);
            let full = drawn(&full_ix, &t, &v, w);
            let plain = drawn(&plain_ix, &t, &v, w);
            assert_eq!(frame(&plain), frame(&full), "{at}");
            assert_eq!(plain.ticks, full.ticks, "{at}: the axis");
            // Nothing bundled, stacked or merged.
            assert!(full.arrows.iter().all(|a| a.count == 1), "{at}: a bundle");
            assert!(full.marks.iter().all(|m| m.stacked == 1), "{at}: a stack");
            assert!(full.bars.iter().all(|b| b.count == 1), "{at}: merged bars");
            assert!(plain.folds.is_empty(), "{at}: the first load folds nothing");
            // The hover texts of shapes that span time are the whole app's alone.
            assert!(full.bars.iter().all(|b| !b.title.is_empty()), "{at}");
            assert!(plain.bars.iter().all(|b| b.title.is_empty()), "{at}");
            let (p, f) = (shapes(&plain, false), shapes(&full, false));
            assert_eq!(p, f, "{at}: the shapes");
            if w < FOLDS_BELOW {
                // The whole app's one fold; the first load's every label is one of the
                // whole app's, or the one it folded.
                let folded: Vec<&String> = full.folds.iter().flat_map(|f| &f.items).collect();
                assert_eq!(folded, ["paused 40.000s"], "{at}: the fold");
                let full_texts: Vec<&str> = full.labels().iter().map(|l| l.text.as_str()).collect();
                for l in plain.labels() {
                    assert!(full_texts.contains(&l.text.as_str()), "{at}: {}", l.text);
                }
                assert_eq!(plain.labels().len(), full.labels().len() - 1, "{at}");
                runs += 1;
                continue;
            }
            assert!(full.folds.is_empty(), "{at}: a fold");
            let (p, f) = (shapes(&plain, true), shapes(&full, true));
            assert_eq!(p, f, "{at}: the shapes and their labels");
            assert_eq!(
                markup(svg::diagram_body_in_play(&plain)),
                markup(svg::diagram_body_in_play(&full)),
                "{at}: the drawing in play"
            );
            runs += 1;
        }
        // The stage at every step: its links, and where a cut link's ✂ stands.
        let proj = Projection::new(&t);
        let stage = layout::stage_nodes(&sc.nodes());
        for step in 0..=t.entries.len() {
            let st = proj.state_at(&t, step);
            assert_eq!(
                layout::stage_links_with::<Plain>(&stage, &st),
                layout::stage_links_with::<Full>(&stage, &st),
                "{} at step {step}: the stage",
                p.name
            );
        }
    }
    assert_eq!(runs, FirstLoad::PRESETS.len() * widths().count());
    assert_eq!(
        FirstLoad::PRESETS.len(),
        2,
        "the default page's run and its fix"
    );
}

/// The drawing's markup without its `<title>`s, an element with nothing inside written
/// as one tag (`<rect …/>`), as the first load writes one whose title it leaves out.
fn markup(s: String) -> String {
    let mut out = String::new();
    let mut rest = s.as_str();
    while let Some(i) = rest.find("<title") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find("</title>").expect("closed") + "</title>".len();
        rest = &rest[i + end..];
    }
    out.push_str(rest);
    for tag in ["rect", "line", "circle", "polygon"] {
        out = out.replace(&format!("></{tag}>"), "/>");
    }
    out
}
