//! The link is the state: the whole view in a URL fragment, and back.
//!
//! A reader who shares a link, or reloads the page, must land on exactly the run they
//! were looking at: which scenario (a preset or lesson by name, or a whole custom scenario
//! carried inside the link), the seed, the fence mode and coordinator flavor laid over it,
//! where the cursor stood, which walkthrough beat or quiz question was open, which panel,
//! and whether the page is embedded in someone else's.
//!
//! The grammar is the deep links' ([`crate::session::link`]), extended; keys may come in any order,
//! each at most once, and numbers in links count from 1:
//!
//! ```text
//! fragment = "#"? [ pair *( "&" pair ) ]
//! pair     = "s=" name          ; a preset, a lesson or lesson/fix (`Catalog::open`)
//!          | "sc=" base64url    ; a custom scenario: compact JSON, compressed (share::lz)
//!          | "seed=" u64 | "fence=" mode | "flavor=" flavor
//!          | "t=" ms            ; cursor time, 0 ..= the scenario's horizon
//!          | "z=" ms "-" ms     ; the diagram's zoom window (session::zoom)
//!          | "from=" ms | "to=" ms   ; the span of the run a reader may play (session::span)
//!          | "rec=" name        ; a built-in recording of a real run (session::recorded)
//!          | "step=" n          ; entries taken, when several share t's millisecond
//!          | "beat=" n | "chapter=" n | "quiz=" n        ; 1-based
//!          | "panel=" id        ; [a-z0-9-], 1 to 32 characters
//!          | "embed=" ("0"|"1") | "autoplay=" ("0"|"1")
//!          | "view=" ("full"|"diagram")   ; what an embed shows
//!          | "origins=" origin *( "," origin )   ; hosts allowed to drive an embed
//! ```
//!
//! A link may come from anyone, so [`decode`] checks every key and value and answers a bad
//! one with an error that starts with its key (`t: "abc" is not a time in ms`), never a
//! panic. Sizes are bounded before any work is done: the fragment's length, and the
//! custom scenario's declared size before it is decompressed.

pub mod base64url;
pub mod lz;
pub mod snippet;

pub use snippet::{iframe_snippet, EmbedOptions, Size, SIZES};

use crate::model::scenario::{FenceWord, Flavor, Scenario, LIMITS};
use crate::session::carries::PageCourse;
use crate::teach::course::{Catalog, CHAPTERS};
use crate::vocab::json;
use crate::vocab::names::is_slug;

/// The longest fragment read. Chrome keeps URLs up to 2 MB, but nothing we write comes
/// near this: a custom scenario with eight clients is a few kilobytes.
pub const MAX_FRAGMENT: usize = 64 * 1024;

/// The page a link without a scenario opens (the default page).
pub const DEFAULT_SCENARIO: &str = "gc-pause";

/// What the view shows.
// One per navigation, matched by callers: not worth a box to shrink the named variant.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// A preset, a library lesson, or `lesson/fix`, as the page's catalog opens it ([`Catalog::open`]).
    Named(String),
    /// A scenario carried whole inside the link.
    Custom(Scenario),
}

/// Everything a link restores. `None` means "as the scenario says" (or, for the indexes,
/// closed); indexes are 0-based here and 1-based in the link.
#[derive(Clone, Debug, PartialEq)]
pub struct ViewState {
    pub source: Source,
    pub seed: Option<u64>,
    /// A fence word, as the command line takes it (`volatile` included).
    pub fence: Option<FenceWord>,
    /// A coordinator flavor's name (see [`check_flavor`]).
    pub flavor: Option<String>,
    /// The cursor's true time in ms.
    pub t_ms: Option<i64>,
    /// The cursor as a count of trace entries taken: written only when `t_ms` alone would
    /// land elsewhere (several events share one millisecond). A reader clamps it to the
    /// run's length; it wins over `t_ms` when both are given.
    pub step: Option<u32>,
    /// The diagram's zoom window, from and to in ms (`None`: the whole run).
    pub zoom: Option<(i64, i64)>,
    /// The span of the run a reader may play, as the link gives it (`from=`, `to=` in ms;
    /// `None`: the run's start, its end). See `session::span`.
    pub span_from: Option<i64>,
    pub span_to: Option<i64>,
    /// A built-in recording of a real run, by name (`session::recorded::BUILT_IN`).
    pub recorded: Option<String>,
    /// A walkthrough beat of a named scenario.
    pub beat: Option<usize>,
    /// The chapter menu, open at a chapter.
    pub chapter: Option<usize>,
    /// An interview question.
    pub quiz: Option<usize>,
    pub panel: Option<String>,
    /// Embedded in a host page: no site chrome.
    pub embed: bool,
    pub autoplay: bool,
    /// An embed shows only the diagram, its playback controls and the caption
    /// (`view=diagram`): no walkthrough, no verdict. The full app ignores it.
    pub diagram_only: bool,
    /// The host origins allowed to drive an embed by postMessage (empty: the parent page,
    /// whatever its origin).
    pub origins: Vec<String>,
}

impl Default for ViewState {
    fn default() -> Self {
        ViewState {
            source: Source::Named(DEFAULT_SCENARIO.to_string()),
            seed: None,
            fence: None,
            flavor: None,
            t_ms: None,
            step: None,
            zoom: None,
            span_from: None,
            span_to: None,
            recorded: None,
            beat: None,
            chapter: None,
            quiz: None,
            panel: None,
            embed: false,
            autoplay: false,
            diagram_only: false,
            origins: Vec::new(),
        }
    }
}

/// Whether `name` is a coordinator flavor (see `model::flavors`).
pub fn check_flavor(name: &str) -> Result<(), String> {
    match Flavor::parse(name) {
        Some(_) => Ok(()),
        None => Err(format!(
            "flavor: unknown flavor \"{name}\" (expected {})",
            Flavor::names()
        )),
    }
}

/// The canonical, compact JSON of a scenario: what `sc=` carries before compression.
fn compact_json(sc: &Scenario) -> String {
    json::compact(&sc.to_json_value())
}

thread_local! {
    /// The last scenario packed and its value: the page writes its link after every
    /// action (each step of a zoom or a pan), and a long scenario is worth compressing once.
    static PACKED: std::cell::RefCell<Option<(Scenario, String)>> = const { std::cell::RefCell::new(None) };
}

/// The `sc=` value for a scenario: compact JSON, compressed, base64url.
pub fn pack(sc: &Scenario) -> String {
    let hit = PACKED.with(|p| {
        p.borrow()
            .as_ref()
            .and_then(|(s, v)| (s == sc).then(|| v.clone()))
    });
    hit.unwrap_or_else(|| {
        let v = base64url::encode(&lz::compress(compact_json(sc).as_bytes()));
        PACKED.with(|p| *p.borrow_mut() = Some((sc.clone(), v.clone())));
        v
    })
}

/// Reads an `sc=` value back into a validated scenario.
pub fn unpack(value: &str) -> Result<Scenario, String> {
    let bytes = base64url::decode(value).ok_or("sc: not base64url")?;
    let text = lz::decompress(&bytes, LIMITS.max_json_bytes).map_err(|e| match e {
        lz::Error::Corrupt => "sc: corrupt compressed data".to_string(),
        lz::Error::TooLarge(n) => format!(
            "sc: decompresses to {n} bytes; the limit is {}",
            LIMITS.max_json_bytes
        ),
    })?;
    let text = String::from_utf8(text).map_err(|_| "sc: not UTF-8 text")?;
    Scenario::from_json(&text).map_err(|e| format!("sc: {e}"))
}

/// The fragment for a view, starting with `#`.
pub fn encode(v: &ViewState) -> String {
    // A built-in question opens its own scenario (`start_quiz`): beside one, the default
    // scenario goes unsaid, so a question's page keeps the plain link a player reads
    // (`#quiz=2`) through a reload or a copied address. (A beat is a named scenario's.)
    let question = v.quiz.is_some() && v.recorded.is_none() && v.beat.is_none();
    // A recording is named on its own: it has no scenario to name.
    let source = match (&v.recorded, &v.source) {
        (Some(r), _) => Some(format!("rec={r}")),
        (None, Source::Named(name)) if question && name == DEFAULT_SCENARIO => None,
        (None, Source::Named(name)) => Some(format!("s={name}")),
        #[cfg(not(feature = "player"))]
        (None, Source::Custom(sc)) => Some(format!("sc={}", pack(sc))),
        // A player never edits beyond the fence switch (any other edit is the whole
        // app's: `session::handoff`), so its scenario is always a named one and it carries
        // no scenario codec.
        #[cfg(feature = "player")]
        (None, Source::Custom(_)) => unreachable!("a player shows built-in scenarios only"),
    };
    let mut parts: Vec<String> = source.into_iter().collect();
    let mut put = |key: &str, value: Option<String>| {
        if let Some(value) = value {
            parts.push(format!("{key}={value}"));
        }
    };
    put("seed", v.seed.map(|s| s.to_string()));
    put("fence", v.fence.map(|f| f.name().to_string()));
    put("flavor", v.flavor.clone());
    put("t", v.t_ms.map(|t| t.to_string()));
    put("step", v.step.map(|n| n.to_string()));
    put("z", v.zoom.map(|(a, b)| format!("{a}-{b}")));
    put("from", v.span_from.map(|t| t.to_string()));
    put("to", v.span_to.map(|t| t.to_string()));
    put("beat", v.beat.map(|b| (b + 1).to_string()));
    put("chapter", v.chapter.map(|c| (c + 1).to_string()));
    put("quiz", v.quiz.map(|q| (q + 1).to_string()));
    put("panel", v.panel.clone());
    put("embed", v.embed.then(|| "1".to_string()));
    put("autoplay", v.autoplay.then(|| "1".to_string()));
    put("view", v.diagram_only.then(|| "diagram".to_string()));
    put(
        "origins",
        (!v.origins.is_empty()).then(|| v.origins.join(",")),
    );
    format!("#{}", parts.join("&"))
}

const KEYS: [&str; 19] = [
    "s", "sc", "seed", "fence", "flavor", "t", "step", "z", "from", "to", "rec", "beat", "chapter",
    "quiz", "panel", "embed", "autoplay", "view", "origins",
];

/// Plain decimal digits only (no sign, no `+`), so one state has one spelling.
/// A whole number as every link writes one: digits only, at most 20 (the players' reader,
/// `session::link::plain`, reads its times with it too).
pub(crate) fn whole(value: &str) -> Option<u64> {
    let digits =
        !value.is_empty() && value.len() <= 20 && value.bytes().all(|b| b.is_ascii_digit());
    digits.then(|| value.parse().ok()).flatten()
}

fn flag(key: &str, value: &str) -> Result<bool, String> {
    match value {
        "1" => Ok(true),
        "0" => Ok(false),
        _ => Err(format!("{key}: \"{value}\" is not 0 or 1")),
    }
}

/// Whether a fragment asks for embed mode (`embed=1`), read on its own: a link that fails
/// [`decode`] for another key must still keep a course page's frame an embed, so the reader
/// sees the message inside the frame instead of the whole site.
pub fn wants_embed(fragment: &str) -> bool {
    let body = fragment.strip_prefix('#').unwrap_or(fragment);
    fragment.len() <= MAX_FRAGMENT && body.split('&').any(|pair| pair == "embed=1")
}

/// Parses and checks a fragment (with or without its `#`). An empty one is the default
/// view. Every error starts with the key it is about (`link:` for the fragment itself).
pub fn decode(fragment: &str) -> Result<ViewState, String> {
    if fragment.len() > MAX_FRAGMENT {
        return Err(format!(
            "link: the fragment is {} bytes; the limit is {MAX_FRAGMENT}",
            fragment.len()
        ));
    }
    let body = fragment.strip_prefix('#').unwrap_or(fragment);
    let mut values: [Option<&str>; KEYS.len()] = [None; KEYS.len()];
    for pair in body.split('&').filter(|_| !body.is_empty()) {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("link: \"{}\" is not key=value", clip(pair)))?;
        let slot = KEYS
            .iter()
            .position(|&k| k == key)
            .and_then(|i| values.get_mut(i))
            .ok_or_else(|| format!("link: unknown key \"{}\"", clip(key)))?;
        if slot.replace(value).is_some() {
            return Err(format!("{key}: given twice"));
        }
    }
    let [s, sc, seed, fence, flavor, t, step, z, from, to, rec, beat, chapter, quiz, panel, embed, autoplay, view, origins] =
        values;

    let mut v = ViewState::default();
    // The horizon bounds the cursor; the default page's scenario always opens.
    let horizon = match (s, sc) {
        (Some(_), Some(_)) => return Err("sc: a link has s= or sc=, not both".to_string()),
        (Some(name), None) => {
            let sc = is_slug(name, 64)
                .then(|| PageCourse::open(name))
                .flatten()
                .ok_or_else(|| format!("s: {}", PageCourse::unknown(name, clip(name))))?;
            v.source = Source::Named(name.to_string());
            sc.horizon_ms
        }
        (None, Some(packed)) => {
            let sc = unpack(packed)?;
            let horizon = sc.horizon_ms;
            v.source = Source::Custom(sc);
            horizon
        }
        // A question alone opens its own scenario: its times are that run's.
        (None, None) => {
            let asked = quiz
                .and_then(|x| ordinal("quiz", x, PageCourse::QUESTIONS.len()).ok())
                .and_then(PageCourse::quiz);
            let name = asked.and_then(|q| q.scenario()).unwrap_or(DEFAULT_SCENARIO);
            PageCourse::open(name).map_or(i64::MAX, |sc| sc.horizon_ms)
        }
    };
    if let Some(x) = seed {
        v.seed = Some(whole(x).ok_or_else(|| {
            format!(
                "seed: \"{}\" is not a whole number from 0 to {}",
                clip(x),
                u64::MAX
            )
        })?);
    }
    if let Some(x) = fence {
        v.fence = Some(FenceWord::parse(x).ok_or_else(|| {
            format!(
                "fence: unknown mode \"{}\" (expected {})",
                clip(x),
                FenceWord::names()
            )
        })?);
    }
    if let Some(x) = flavor {
        check_flavor(clip(x))?;
        v.flavor = Some(x.to_string());
    }
    let ms = |key: &str, x: &str| {
        let ms = whole(x)
            .and_then(|n| i64::try_from(n).ok())
            .ok_or_else(|| format!("{key}: \"{}\" is not a time in ms", clip(x)))?;
        if ms > horizon {
            return Err(format!(
                "{key}: {ms} is past the scenario's horizon ({horizon} ms)"
            ));
        }
        Ok(ms)
    };
    v.t_ms = t.map(|x| ms("t", x)).transpose()?;
    if let Some(x) = step {
        // A run never has more entries than the event limit, so a larger step is no step.
        let max = LIMITS.max_events;
        v.step = Some(
            whole(x)
                .and_then(|n| u32::try_from(n).ok())
                .filter(|&n| n <= max)
                .ok_or_else(|| format!("step: \"{}\" is not a step from 0 to {max}", clip(x)))?,
        );
    }
    if let Some(x) = z {
        let (a, b) = x
            .split_once('-')
            .and_then(|(a, b)| Some((whole(a)?, whole(b)?)))
            .and_then(|(a, b)| Some((i64::try_from(a).ok()?, i64::try_from(b).ok()?)))
            .ok_or_else(|| format!("z: \"{}\" is not a window FROM-TO in ms", clip(x)))?;
        let w = crate::session::zoom::Window::checked(a, b, horizon)?;
        v.zoom = Some((w.from, w.to));
    }
    v.span_from = from.map(|x| ms("from", x)).transpose()?;
    v.span_to = to.map(|x| ms("to", x)).transpose()?;
    crate::session::zoom::Span::checked(v.span_from, v.span_to)?;
    if let Some(x) = rec {
        let known = crate::session::run::BUILT_IN
            .iter()
            .any(|(name, _)| *name == x);
        if !known {
            return Err(format!("rec: no recording named \"{}\"", clip(x)));
        }
        v.recorded = Some(x.to_string());
    }
    if let Some(x) = beat {
        // Only a named lesson has a walkthrough to be at a beat of.
        let name = s.ok_or("beat: a beat needs a named scenario (s=…)")?;
        let beats = PageCourse::walkthrough(name).map_or(0, |w| w.beats.len());
        if beats == 0 {
            return Err(format!("beat: {name} has no walkthrough"));
        }
        v.beat = Some(ordinal("beat", x, beats)?);
    }
    if let Some(x) = chapter {
        v.chapter = Some(ordinal("chapter", x, CHAPTERS.len())?);
    }
    if let Some(x) = quiz {
        v.quiz = Some(ordinal("quiz", x, PageCourse::QUESTIONS.len())?);
    }
    if let Some(x) = panel {
        let ok = is_slug(x, 32) && !x.contains('/');
        if !ok {
            return Err(format!(
                "panel: \"{}\" is not a panel name (a-z, 0-9 and -, up to 32)",
                clip(x)
            ));
        }
        v.panel = Some(x.to_string());
    }
    if let Some(x) = embed {
        v.embed = flag("embed", clip(x))?;
    }
    if let Some(x) = autoplay {
        v.autoplay = flag("autoplay", clip(x))?;
    }
    if let Some(x) = view {
        v.diagram_only = match x {
            "diagram" => true,
            "full" => false,
            _ => return Err(format!("view: \"{}\" is not full or diagram", clip(x))),
        };
    }
    if let Some(x) = origins {
        v.origins = parse_origins(x)?;
    }
    Ok(v)
}

/// A 1-based number in `1..=max`, as a 0-based index. One reading for `beat=`,
/// `chapter=` and `quiz=` in every link.
pub(crate) fn ordinal(key: &str, value: &str, max: usize) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n - 1),
        _ => Err(format!(
            "{key}: \"{}\" is not a number from 1 to {max}",
            clip(value)
        )),
    }
}

/// At most 40 characters of a bad value, for quoting it in an error: a hostile link's
/// message stays one readable line (cut on a character boundary).
pub(crate) fn clip(s: &str) -> &str {
    let end = s.char_indices().nth(40).map_or(s.len(), |(i, _)| i);
    s.get(..end).unwrap_or("")
}

/// Parses the allow-list of host origins (`https://a.example,http://localhost:8000`). Each
/// must be a scheme, a host and an optional port — no path — as `MessageEvent.origin` is.
pub fn parse_origins(list: &str) -> Result<Vec<String>, String> {
    list.split(',')
        .map(|o| {
            let rest = o
                .strip_prefix("https://")
                .or_else(|| o.strip_prefix("http://"))
                .unwrap_or("");
            let ok = !rest.is_empty()
                && rest
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':'));
            if ok {
                Ok(o.to_string())
            } else {
                Err(format!(
                    "origins: \"{}\" is not an origin like https://example.org",
                    clip(o)
                ))
            }
        })
        .collect()
}

/// The link that opens a counterexample of the explorer at its first violation.
pub fn counterexample_link(c: &crate::analysis::explore::Counterexample) -> String {
    encode(&ViewState {
        source: Source::Custom(c.scenario.clone()),
        t_ms: Some(c.first.at.0),
        ..ViewState::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scenario::FenceMode;

    #[test]
    fn a_named_view_reads_as_written() {
        let v = ViewState {
            source: Source::Named("gc-pause".into()),
            seed: Some(7),
            fence: Some(FenceMode::Monotone.into()),
            t_ms: Some(30_000),
            beat: Some(2),
            ..ViewState::default()
        };
        let link = encode(&v);
        assert_eq!(link, "#s=gc-pause&seed=7&fence=monotone&t=30000&beat=3");
        assert_eq!(decode(&link), Ok(v));
        assert_eq!(
            decode("beat=3&t=30000&fence=monotone&seed=7&s=gc-pause"),
            decode(&link)
        );
    }

    #[test]
    fn an_old_non_atomic_link_still_reads_and_is_written_anew() {
        let old = decode("#s=gc-pause&fence=non-atomic").unwrap();
        assert_eq!(old.fence, Some(FenceMode::NonAtomic.into()));
        assert_eq!(encode(&old), "#s=gc-pause&fence=non_atomic");
        assert_eq!(decode(&encode(&old)), Ok(old));
    }

    #[test]
    fn the_view_key_reads_as_written_and_a_bad_one_is_named() {
        let v = decode("#s=gc-pause&embed=1&view=diagram").unwrap();
        assert!(v.embed && v.diagram_only);
        assert_eq!(encode(&v), "#s=gc-pause&embed=1&view=diagram");
        assert!(!decode("#s=gc-pause&view=full").unwrap().diagram_only);
        // `full` is the default, so it is never written.
        assert_eq!(
            encode(&decode("#s=gc-pause&view=full").unwrap()),
            "#s=gc-pause"
        );
        assert_eq!(
            decode("#s=gc-pause&view=small"),
            Err("view: \"small\" is not full or diagram".to_string())
        );
        assert_eq!(
            decode("#view=diagram&view=full"),
            Err("view: given twice".to_string())
        );
    }

    #[test]
    fn clip_cuts_on_a_character_boundary() {
        assert_eq!(clip(&"é".repeat(50)), "é".repeat(40));
        assert_eq!(clip("short"), "short");
    }
}
