//! Writes the first paints (see `leaseline::view::export::first_paint`): the run a link
//! opens, in the page the app draws around it at its start, as HTML fragments.
//! `scripts/first-paint.mjs` runs it after every Trunk build:
//!
//!     cargo run -q --no-default-features --example first_paint
//!         the default page's, to stdout (it goes inside `index.html`)
//!     cargo run -q --no-default-features --example first_paint -- --all DIR
//!         one file per built-in link into DIR (`static/first-paint.js` fetches the one
//!         its link names): every preset, lesson, fix and interview question, each as a
//!         page and as an embed; then prints the names written, as a JSON array
//!
//! A link's file is named by [`key`]; `static/first-paint.js` computes the same name from
//! the fragment and fetches nothing for a link that names more than these keys.

use leaseline::session::Session;
use leaseline::teach::quiz::QUESTIONS;
use leaseline::teach::{course, narrate, presets};
use leaseline::view::export::first_paint::{self, Around, Guide};
use leaseline::view::layout;
use leaseline::view::layout::detail::{Detail, Full, Plain};
use leaseline::vocab::numbers::{clock, fmt_ms};
use leaseline::vocab::time::Time;
use std::path::Path;

/// The diagram's box on a wide screen, in CSS pixels: the page's width (style.css,
/// `--max-width`) less its padding, the walkthrough's column and the gap between them.
/// The app lays its drawing out at its box's width, so the first paint is laid out at this
/// one and fills the box exactly as the app's drawing will; a narrower screen scales it.
/// Laid out at any other width, it would be scaled to the box and come out taller or
/// shorter than the app's drawing, which `first-paint.test.mjs` checks at 1280×800.
const WIDE_BOX: f64 = 802.0;

/// The file name of a link's first paint: `s-<name>` for `#s=<name>` (a fix's slash as
/// `~`), `quiz-<n>` for `#quiz=<n>`, and `.embed` after either for `&embed=1`.
fn key(fragment_source: &Link) -> String {
    let base = match fragment_source.what {
        What::Named(ref name) => format!("s-{}", name.replace('/', "~")),
        What::Question(n) => format!("quiz-{n}"),
    };
    if fragment_source.embed {
        format!("{base}.embed")
    } else {
        base
    }
}

enum What {
    Named(String),
    /// A built-in interview question, numbered from 1 as its link is.
    Question(usize),
}

struct Link {
    what: What,
    embed: bool,
}

impl Link {
    fn fragment(&self) -> String {
        let head = match &self.what {
            What::Named(name) => format!("#s={name}"),
            What::Question(n) => format!("#quiz={n}"),
        };
        if self.embed {
            format!("{head}&embed=1")
        } else {
            head
        }
    }
}

/// The first view of `page`, as the app draws it at its start; `spreads`: whether the
/// build that plays it thins the axis's ticks on a narrow drawing (its detail's
/// `SPREADS`: the first load draws in `Plain` detail, the links' player in `Full`).
fn picture(page: &Session, spreads: bool) -> String {
    let run = &page.doc.run;
    let name = page.doc.name.as_deref().unwrap_or_default();
    let picker = page.picker();
    let mut options: Vec<(&str, bool)> = picker.options.iter().map(|o| (o.1, o.2)).collect();
    if let Some(other) = &picker.other {
        options.push((other, true));
    }
    let hides = page.hides_answer();
    let description = if hides {
        narrate::DESCRIPTION_HIDDEN.to_string()
    } else {
        page.description()
    };
    let time = clock(0, run.end_ms() as i64);
    let speed = page.speed_label();
    let fence = if hides {
        narrate::FENCE_HIDDEN
    } else {
        narrate::fence_switch(run.fenced())
    };
    let beats = course::beat_count(&page.teach.beats, page.play.cursor.step);
    let sources = course::sources_line(name);
    let (heading, stops, asks);
    let guide = match page.teach.quiz {
        Some(q) if !q.author => {
            heading = format!(
                "Interview question {} of {}",
                q.question + 1,
                QUESTIONS.len()
            );
            stops = format!("stop 1 of {}", q.stops(&run.scenario));
            asks = q.asks(&run.scenario);
            Guide::Quiz {
                heading: &heading,
                stops: &stops,
                asks,
            }
        }
        Some(_) => Guide::Blank,
        None if course::walkthrough(name).is_some() || !run.scenario.walkthrough.is_empty() => {
            Guide::Walkthrough {
                beats: &beats,
                sources: &sources,
            }
        }
        None => Guide::Blank,
    };
    let d = layout::layout(&run.trace, &run.verdict, WIDE_BOX, None);
    let clocks: Vec<String> = d
        .lanes
        .iter()
        .map(|l| format!("clock {}", fmt_ms(page.play.state.local(l.node, Time(0)))))
        .collect();
    let around = Around {
        options: &options,
        description: &description,
        time: &time,
        speed: &speed,
        fence,
        violation: !hides && !run.verdict.violations.is_empty(),
        guide,
        clocks: &clocks,
        spreads,
    };
    let title = page.title();
    if page.embed.on {
        first_paint::embed(&d, title, &run.digest, &around)
    } else {
        first_paint::html(&d, title, &run.digest, &around)
    }
}

/// Every built-in link with a first paint: each scenario the app opens by name (presets,
/// lessons, fixes) and each interview question, as a page and as an embed.
fn links() -> Vec<Link> {
    let mut names: Vec<String> = presets::PRESETS
        .iter()
        .map(|p| p.name.to_string())
        .collect();
    for chapter in course::menu() {
        for lesson in chapter.lessons {
            names.push(lesson.id.to_string());
            names.extend(lesson.fixes.into_iter().map(|f| f.scenario));
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    names.retain(|n| seen.insert(n.clone()));
    let whats = names
        .into_iter()
        .map(What::Named)
        .chain((1..=QUESTIONS.len()).map(What::Question));
    whats
        .flat_map(|w| {
            let again = match &w {
                What::Named(n) => What::Named(n.clone()),
                What::Question(n) => What::Question(*n),
            };
            [
                Link {
                    what: w,
                    embed: false,
                },
                Link {
                    what: again,
                    embed: true,
                },
            ]
        })
        .collect()
}

/// Writes every link's picture into `dir`, and answers the names written (without
/// `.embed`: each name has both).
fn write_all(dir: &Path) -> Result<Vec<String>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut written = Vec::new();
    for link in links() {
        let fragment = link.fragment();
        let page = Session::opened_at(&fragment);
        if let Some(e) = &page.doc.error {
            return Err(format!("{fragment}: the app refuses its own link: {e}"));
        }
        let file = dir.join(format!("{}.html", key(&link)));
        std::fs::write(&file, picture(&page, Full::SPREADS))
            .map_err(|e| format!("{}: {e}", file.display()))?;
        if !link.embed {
            written.push(key(&link));
        }
    }
    Ok(written)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => print!("{}", picture(&Session::default_page(), Plain::SPREADS)),
        [all, dir] if all == "--all" => match write_all(Path::new(dir)) {
            Ok(names) => println!("{}", serde_json::to_string(&names).unwrap_or_default()),
            Err(e) => {
                eprintln!("first_paint: {e}");
                std::process::exit(1);
            }
        },
        _ => {
            eprintln!("usage: first_paint [--all DIR]");
            std::process::exit(2);
        }
    }
}
