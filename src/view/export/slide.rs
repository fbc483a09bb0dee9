//! The exported picture: the diagram with what it needs to stand alone on a slide.
//!
//! A bare diagram says nothing about which run it is or how it ended. [`slide`] writes one
//! SVG document with, above the diagram, the scenario's name, the checker's verdict as the
//! app's verdict panel words it, and the settings that decide the outcome (lock service,
//! fence, each client's TTL, the faults); below it, a legend of the shapes this diagram
//! uses ([`crate::view::legend`], drawn with the diagram's own writer) and the link that
//! reopens the run. "Export SVG" saves it as it is and "Export PNG" rasterises the same
//! text, so the two pictures agree.
//!
//! Text is at least 11 px at the document's 960 px width (22 px in the PNG, which is drawn
//! at twice the size), and long lines are wrapped here by an estimate of character width,
//! since SVG text does not wrap on its own.

use super::svg::{document, drawing, el, swatch, text, SWATCH_H, SWATCH_W};
use crate::analysis::check::Verdict;
use crate::model::scenario::{Fault, FaultKind, Scenario};
use crate::view::layout::Diagram;
use crate::view::legend;
use crate::vocab::numbers::{decimal, tenths as n};

/// An exported picture and its size in CSS pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct Slide {
    pub svg: String,
    pub width: f64,
    pub height: f64,
}

/// What the picture says about the run besides its diagram.
pub struct About<'a> {
    pub scenario: &'a Scenario,
    pub verdict: &'a Verdict,
    /// The trace's length: the verdict is the one at the end of the run.
    pub steps: usize,
    /// The address that reopens this run (the page's link).
    pub link: &'a str,
}

const MARGIN: f64 = 16.0;
/// Width of a character, on average, per pixel of font size (system sans-serif): used to
/// wrap lines before they run off the picture.
const CHAR_EM: f64 = 0.56;
const ROW_GAP: f64 = 10.0;

/// The rules of the slide's own text, beside the diagram's (light theme, written out).
const SHEET_STYLE: &str = concat!(
    ".sheet-title{font-size:22px;font-weight:700}",
    ".sheet-verdict{font-size:16px;font-weight:700}",
    ".sheet-verdict.safe{fill:#15803d}",
    ".sheet-verdict.unsafe{fill:#dc2626}",
    ".sheet-finding,.sheet-settings{font-size:13px}",
    ".sheet-settings{fill:#57606a}",
    ".legend-heading{font-size:13px;font-weight:700}",
    ".legend-name{font-size:12px;font-weight:600}",
    ".legend-meaning{fill:#57606a}",
    ".sheet-link{fill:#1f4e79;font-size:11px}",
);

/// How many characters of text at `px` fit in `width` pixels.
fn fits(width: f64, px: f64) -> usize {
    (width / (px * CHAR_EM)) as usize
}

/// Splits `s` into lines of at most `max` characters at spaces (a longer word keeps its
/// own line).
pub fn wrap(s: &str, max: usize) -> Vec<String> {
    let mut lines: Vec<String> = vec![String::new()];
    for word in s.split(' ').filter(|w| !w.is_empty()) {
        let line = lines.last_mut().expect("never empty");
        if line.is_empty() {
            line.push_str(word);
        } else if line.chars().count() + 1 + word.chars().count() <= max {
            line.push(' ');
            line.push_str(word);
        } else {
            lines.push(word.to_string());
        }
    }
    lines
}

/// Cuts `s` into pieces of at most `max` bytes at character boundaries (an address has no
/// spaces to wrap at).
fn cut(mut s: &str, max: usize) -> Vec<&str> {
    let mut out = Vec::new();
    while !s.is_empty() {
        let mut k = max.clamp(1, s.len());
        while !s.is_char_boundary(k) {
            k += 1;
        }
        let (head, rest) = s.split_at(k);
        out.push(head);
        s = rest;
    }
    out
}

/// A time for the settings line: "30 s", "0.5 s".
fn s(ms: i64) -> String {
    format!("{} s", decimal(ms, 3))
}

/// One fault in a few words: "pause Client 1 40 s at 10 s".
fn fault(f: &Fault) -> String {
    let (at_ms, after) = (f.at_ms, f.after);
    // The nodes and the length each kind has; its words are its row's.
    let (a, b, ms) = match f.kind {
        FaultKind::Pause { node, for_ms, .. } => (Some(node), None, Some(for_ms)),
        FaultKind::Partition { a, b } | FaultKind::Heal { a, b } => (Some(a), Some(b), None),
        FaultKind::Delay { from, to, extra_ms } => (Some(from), Some(to), Some(extra_ms)),
        FaultKind::ClockJump { node, by_ms } => (Some(node), None, Some(by_ms)),
        FaultKind::Restart { node, down_ms } | FaultKind::Failover { node, down_ms } => {
            (Some(node), None, Some(down_ms))
        }
        FaultKind::FailRenewals { for_ms } => (None, None, Some(for_ms)),
        FaultKind::FalsePositive { node } => (Some(node), None, None),
    };
    let what = f.kind.kind().spec().brief;
    let mut out = what.to_string();
    for (sep, n) in [(" ", a), ("–", b)] {
        if let Some(n) = n {
            out.push_str(sep);
            out.push_str(n.lane());
        }
    }
    if let Some(ms) = ms {
        out.push(' ');
        out.push_str(&s(ms));
    }
    match after {
        None => {
            out.push_str(" at ");
            out.push_str(&s(at_ms));
        }
        Some(a) => {
            out.push(' ');
            out.push_str(&s(at_ms));
            out.push_str(" after ");
            out.push_str(&a.phrase());
        }
    }
    out
}

/// The settings that decide a run's outcome, a short phrase each: lock service, fence,
/// each client's TTL (one figure when all agree), the faults.
pub fn settings(sc: &Scenario) -> Vec<String> {
    let ttls: Vec<i64> = sc.clients.iter().map(|c| c.ttl_ms).collect();
    let ttl = match ttls.first() {
        Some(&t) if ttls.iter().all(|&x| x == t) => {
            let every = if ttls.len() > 1 {
                " (every client)"
            } else {
                ""
            };
            format!("TTL {}{every}", s(t))
        }
        _ => {
            let each: Vec<String> = sc
                .clients
                .iter()
                .enumerate()
                .map(|(i, c)| format!("client {} {}", i + 1, s(c.ttl_ms)))
                .collect();
            format!("TTL {}", each.join(", "))
        }
    };
    let faults: Vec<String> = sc.faults.iter().map(fault).collect();
    vec![
        format!("Lock service: {}", sc.coordinator.flavor.name()),
        format!("Fence: {}", sc.storage.fence.label()),
        ttl,
        if faults.is_empty() {
            "Faults: none".to_string()
        } else {
            format!("Faults: {}", faults.join("; "))
        },
    ]
}

/// The verdict as the app's panel heads it at the end of the run, and the first violation
/// (or, in a safe run, the first thing the fence stopped) with its time.
pub fn verdict_lines(v: &Verdict, steps: usize) -> (bool, String, Option<String>) {
    let (safe, head, items) = crate::teach::narrate::verdict_so_far(v, steps, true);
    let first = items.first().map(|f| format!("{}: {}", f.when, f.text));
    (safe, head, first)
}

/// The whole picture: heading, verdict, settings, the diagram, the legend, the link.
pub fn slide(d: &Diagram, about: &About) -> Slide {
    let w = d.width;
    let inner = w - 2.0 * MARGIN;
    let (safe, head, first) = verdict_lines(about.verdict, about.steps);
    let settings = wrap(&settings(about.scenario).join(" · "), fits(inner, 13.0));
    let finding = first.map_or(Vec::new(), |f| wrap(&f, fits(inner, 13.0)));
    let name = &about.scenario.name;

    // The heading's lines and where each sits.
    let mut y = 32.0;
    let mut heading: Vec<(&str, f64, String)> = vec![("sheet-title", y, name.clone())];
    y += 26.0;
    let verdict_class = if safe {
        "sheet-verdict safe"
    } else {
        "sheet-verdict unsafe"
    };
    heading.push((verdict_class, y, head));
    for l in finding {
        y += 18.0;
        heading.push(("sheet-finding", y, l));
    }
    y += 4.0;
    for l in settings {
        y += 18.0;
        heading.push(("sheet-settings", y, l));
    }
    let top = y + 10.0;

    // The legend: two columns of sample, name and meaning.
    let entries = legend::used(d);
    let col_w = w / 2.0 - MARGIN;
    let text_x = SWATCH_W + 8.0;
    let per_line = fits(col_w - text_x - 8.0, 11.0);
    let legend_top = top + d.height + 14.0;
    let mut rows: Vec<(f64, f64, &legend::Entry, Vec<String>)> = Vec::new();
    let mut ly = legend_top + 12.0;
    for pair in entries.chunks(2) {
        let mut tallest = SWATCH_H;
        for (k, e) in pair.iter().enumerate() {
            let lines = wrap(e.meaning, per_line);
            tallest = tallest.max(16.0 + 13.0 * lines.len() as f64);
            rows.push((MARGIN + k as f64 * (w / 2.0), ly, e, lines));
        }
        ly += tallest + ROW_GAP;
    }

    // The link, three lines at most.
    let line = format!("Open this run: {}", about.link);
    let mut link_lines: Vec<String> = cut(&line, fits(inner, 11.0))
        .into_iter()
        .map(str::to_string)
        .collect();
    if link_lines.len() > 3 {
        link_lines.truncate(3);
        link_lines[2].push('…');
    }
    let link_top = ly + 8.0;
    let height = link_top + 14.0 * link_lines.len() as f64 + 8.0;

    let svg = document(w, height, name, SHEET_STYLE, &|o| {
        el(o, "g", &[("class", "sheet-heading")], &|o| {
            for (class, y, t) in &heading {
                text(o, class, MARGIN, *y, t);
            }
        });
        let shift = format!("translate(0 {})", n(top));
        el(
            o,
            "g",
            &[("class", "diagram"), ("transform", &shift)],
            &|o| drawing(o, d),
        );
        el(o, "g", &[("class", "legend")], &|o| {
            text(o, "legend-heading", MARGIN, legend_top, "Legend");
            for (x, y, e, lines) in &rows {
                let at = format!("translate({} {})", n(*x), n(*y));
                el(o, "g", &[("transform", &at)], &|o| {
                    o.push_str(&swatch(e.swatch, e.name));
                    text(o, "legend-name", text_x, 12.0, e.name);
                    for (i, l) in lines.iter().enumerate() {
                        text(o, "legend-meaning", text_x, 26.0 + 13.0 * i as f64, l);
                    }
                });
            }
        });
        el(o, "a", &[("href", about.link)], &|o| {
            for (i, l) in link_lines.iter().enumerate() {
                let y = link_top + 11.0 + 14.0 * i as f64;
                text(o, "sheet-link", MARGIN, y, l);
            }
        });
    });
    Slide {
        svg,
        width: w,
        height,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_words_whole_and_cut_splits_an_address_at_characters() {
        assert_eq!(wrap("a bb ccc dddd", 6), ["a bb", "ccc", "dddd"]);
        assert_eq!(wrap("abcdefgh ij", 3), ["abcdefgh", "ij"]);
        assert_eq!(wrap("", 5), [""]);
        assert_eq!(cut("abcdefg", 3), ["abc", "def", "g"]);
        assert_eq!(cut("a→b", 2), ["a→", "b"]);
    }

    #[test]
    fn settings_name_service_fence_ttl_and_each_fault() {
        let sc = crate::teach::course::open("gc-pause").unwrap();
        let s = settings(&sc);
        assert!(s[0].starts_with("Lock service: "), "{s:?}");
        assert!(s[1].starts_with("Fence: Off"), "{s:?}");
        assert!(s[2].starts_with("TTL "), "{s:?}");
        assert!(
            s[3].starts_with("Faults: pause Client 1 ") && s[3].contains(" at "),
            "{s:?}"
        );
    }
}
