//! Deep links: what the URL fragment can name, and its parser.
//!
//! A fragment is `key=value` pairs joined by `&`, e.g. `#s=check-then-write&beat=3`,
//! `#chapter=2` or `#quiz=1`. Numbers in links count from 1, as a reader does. The page
//! is never at the mercy of a link: every value is checked here, and a bad one comes back
//! as an error naming its key while the current scenario stays on screen.
//!
//! These are the links the menus make. The whole view state (seed, fence, cursor, a custom
//! scenario carried in the link, embed mode) is [`crate::session::share`]'s; it reads every link
//! written here the same way.

/// What a fragment asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// A scenario by name, at a walkthrough beat (0-based here).
    Scenario { name: String, beat: Option<usize> },
    /// The chapter menu, open at a chapter (0-based).
    Chapter(usize),
    /// An interview question's guided stops (0-based).
    Quiz(usize),
}

/// The fragment for a scenario, optionally at a beat (0-based in, 1-based in the link).
pub fn scenario(name: &str, beat: Option<usize>) -> String {
    match beat {
        Some(b) => format!("#s={name}&beat={}", b + 1),
        None => format!("#s={name}"),
    }
}

/// The fragment for a built-in recording of a real run (`session::recorded`).
pub fn recording(name: &str) -> String {
    format!("#rec={name}")
}

pub fn chapter(i: usize) -> String {
    format!("#chapter={}", i + 1)
}

pub fn quiz(i: usize) -> String {
    format!("#quiz={}", i + 1)
}

/// A plain link: the one kind the players (the first load and the links' player) follow
/// themselves (`Action::needs_whole_app`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plain<'a> {
    /// `#s=<name>`: a preset, a lesson or a fix.
    Scenario(&'a str),
    /// `#quiz=<n>`: an interview question (0-based here).
    Quiz(usize),
}

/// What a plain link asks of the page beyond the run it names: the keys an embed's
/// snippet sets (`session::share::snippet`), read as the whole app's `navigate` reads them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Asks {
    /// `embed=1`: the page is an embed in a host's page.
    pub embed: bool,
    /// `autoplay=1`: play from the start as soon as the page is up.
    pub autoplay: bool,
    /// `view=diagram`: an embed shows the diagram, its controls and the caption only.
    pub diagram_only: bool,
    /// `origins=…`: the host origins allowed to drive the embed (empty: the parent page).
    pub origins: Vec<String>,
    /// `from=` and `to=`: the stretch of a run the reader may play (`session::span`), not
    /// yet checked against the run's horizon (the run is not open here).
    pub span: crate::session::zoom::Span,
}

/// What a plain link names — `#s=<name>` or `#quiz=<n>`, with at most one each of
/// `embed=0|1`, `autoplay=0|1`, `view=full|diagram` and `origins=<list>` beside it, and a
/// scenario's span (`from=`, `to=`, whole ms) — and what it asks of the page. Any other
/// fragment, however well formed, is `None`, left to [`parse`] and the whole app (which
/// also says what is wrong with a bad value). Read without the link parser, which the
/// players do not carry.
pub fn plain(fragment: &str) -> Option<(Plain<'_>, Asks)> {
    let (mut named, mut asks) = (None, Asks::default());
    // Each key at most once, as the whole app's parser allows.
    let mut seen = [false; 6];
    let (mut from, mut to) = (None, None);
    // A time in whole ms, as the whole app reads one.
    let ms = |x: &str| crate::session::share::whole(x).and_then(|n| i64::try_from(n).ok());
    let mut once = |i: usize| !std::mem::replace(&mut seen[i], true);
    for pair in fragment.strip_prefix('#')?.split('&') {
        let it = match pair.split_once('=')? {
            ("s", n) if !n.is_empty() => Plain::Scenario(n),
            // 1 to 99, as a reader counts and the pictures are named (`first/quiz-<n>`).
            ("quiz", n)
                if (1..=2).contains(&n.len())
                    && !n.starts_with('0')
                    && n.bytes().all(|b| b.is_ascii_digit()) =>
            {
                Plain::Quiz(n.parse::<usize>().ok()?.checked_sub(1)?)
            }
            ("embed", on @ ("0" | "1")) if once(0) => {
                asks.embed = on == "1";
                continue;
            }
            ("autoplay", on @ ("0" | "1")) if once(1) => {
                asks.autoplay = on == "1";
                continue;
            }
            ("view", v @ ("full" | "diagram")) if once(2) => {
                asks.diagram_only = v == "diagram";
                continue;
            }
            ("origins", list) if once(3) => {
                asks.origins = crate::session::share::parse_origins(list).ok()?;
                continue;
            }
            ("from", x) if once(4) => {
                from = Some(ms(x)?);
                continue;
            }
            ("to", x) if once(5) => {
                to = Some(ms(x)?);
                continue;
            }
            _ => return None,
        };
        if named.replace(it).is_some() {
            return None;
        }
    }
    asks.span = crate::session::zoom::Span::checked(from, to).ok()?;
    match named? {
        // A question plays its own stops: a span of one is the whole app's to refuse.
        Plain::Quiz(_) if asks.span != Default::default() => None,
        named => Some((named, asks)),
    }
}

/// Reads a menu link (with or without its `#`) as the target it names; an empty fragment
/// is `Ok(None)`, the default page. The reading is [`crate::session::share::decode`]'s — one parser
/// for every link — so a bad value's error names its key exactly as a shared link's does.
pub fn parse(fragment: &str) -> Result<Option<Target>, String> {
    if fragment.strip_prefix('#').unwrap_or(fragment).is_empty() {
        return Ok(None);
    }
    let v = crate::session::share::decode(fragment)?;
    Ok(Some(match (v.quiz, v.chapter, v.source) {
        (Some(q), _, _) => Target::Quiz(q),
        (None, Some(c), _) => Target::Chapter(c),
        (None, None, crate::session::share::Source::Named(name)) => {
            Target::Scenario { name, beat: v.beat }
        }
        (None, None, crate::session::share::Source::Custom(_)) => {
            return Err("sc: a menu link names its scenario (s=…)".to_string())
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_link_names_its_scenario_or_question_and_what_it_asks() {
        let page = Asks::default();
        let embed = Asks {
            embed: true,
            ..Asks::default()
        };
        assert_eq!(
            plain("#s=gc-pause"),
            Some((Plain::Scenario("gc-pause"), page.clone()))
        );
        assert_eq!(
            plain("#s=check-then-write/fencing&embed=0"),
            Some((Plain::Scenario("check-then-write/fencing"), page.clone()))
        );
        assert_eq!(
            plain("#s=a&embed=1"),
            Some((Plain::Scenario("a"), embed.clone()))
        );
        assert_eq!(plain("#quiz=2"), Some((Plain::Quiz(1), page.clone())));
        assert_eq!(plain("#embed=0&quiz=12"), Some((Plain::Quiz(11), page)));
        assert_eq!(
            plain("#quiz=1&embed=1"),
            Some((Plain::Quiz(0), embed.clone()))
        );
        // A course author's snippet, every option set, in any order.
        assert_eq!(
            plain("#s=gc-pause&embed=1&autoplay=1&view=diagram&origins=https://a.example,http://localhost:8000"),
            Some((
                Plain::Scenario("gc-pause"),
                Asks {
                    embed: true,
                    autoplay: true,
                    diagram_only: true,
                    origins: vec!["https://a.example".into(), "http://localhost:8000".into()],
                    ..Asks::default()
                }
            ))
        );
        assert_eq!(
            plain("#view=full&autoplay=0&quiz=1&embed=1"),
            Some((Plain::Quiz(0), embed.clone()))
        );
        // A span, either end left to the run.
        let span = |from, to| Asks {
            span: crate::session::zoom::Span { from, to },
            ..embed.clone()
        };
        assert_eq!(
            plain("#s=gc-pause&embed=1&from=25000&to=52000"),
            Some((
                Plain::Scenario("gc-pause"),
                span(Some(25_000), Some(52_000))
            ))
        );
        assert_eq!(
            plain("#to=9000&s=gc-pause&embed=1"),
            Some((Plain::Scenario("gc-pause"), span(None, Some(9_000))))
        );
        for other in [
            "",
            "#",
            "s=gc-pause",
            "#s=",
            "#s=a&s=b",
            "#s=a&embed=2",
            "#s=a&embed=1&embed=1",
            "#s=a&embed=0&embed=1",
            "#embed=1",
            "#s=a&beat=2",
            "#s=a&",
            "#quiz=0",
            "#quiz=02",
            "#quiz=100",
            "#quiz=x",
            "#quiz=+1",
            "#quiz=",
            "#quiz=1&s=a",
            "#s=a&autoplay=yes",
            "#s=a&autoplay=1&autoplay=1",
            "#s=a&view=caption",
            "#s=a&view=diagram&view=full",
            "#s=a&embed=1&origins=",
            "#s=a&embed=1&origins=ftp://a.example",
            "#s=a&embed=1&origins=https://a.example/path",
            "#s=a&origins=https://a.example&origins=https://b.example",
            "#s=a&t=3000",
            "#s=a&from=-1",
            "#s=a&from=1e3",
            "#s=a&from=5000&to=5005",
            "#s=a&from=1&from=2",
            "#quiz=1&embed=1&from=1000",
        ] {
            assert_eq!(plain(other), None, "{other}");
        }
    }

    #[test]
    #[cfg_attr(
        feature = "lite",
        ignore = "the first load opens the default lesson alone (teach::course::FirstLoad)"
    )]
    fn links_round_trip() {
        for (frag, want) in [
            (
                scenario("gc-pause", None),
                Target::Scenario {
                    name: "gc-pause".into(),
                    beat: None,
                },
            ),
            (
                scenario("check-then-write", Some(2)),
                Target::Scenario {
                    name: "check-then-write".into(),
                    beat: Some(2),
                },
            ),
            (
                scenario("check-then-write/fencing", None),
                Target::Scenario {
                    name: "check-then-write/fencing".into(),
                    beat: None,
                },
            ),
            (chapter(4), Target::Chapter(4)),
            (quiz(0), Target::Quiz(0)),
        ] {
            assert_eq!(parse(&frag), Ok(Some(want)), "{frag}");
        }
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse("#"), Ok(None));
    }

    #[test]
    fn bad_links_name_the_key() {
        for (frag, key) in [
            ("#s=nope", "s:"),
            ("#s=GC-PAUSE", "s:"),
            ("#s=gc-pause&beat=0", "beat:"),
            ("#s=gc-pause&beat=99", "beat:"),
            ("#s=gc-pause&beat=x", "beat:"),
            ("#s=gc-pause-fenced&beat=1", "beat:"),
            ("#beat=1", "beat:"),
            ("#chapter=8", "chapter:"),
            ("#quiz=-1", "quiz:"),
            ("#zz=1", "link:"),
            ("#garbage", "link:"),
            ("#s=%00", "s:"),
        ] {
            let err = parse(frag).expect_err(frag);
            assert!(err.starts_with(key), "{frag}: {err}");
        }
    }
}
