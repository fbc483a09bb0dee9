//! The first paint: the page a link opens as the app draws it at its start, drawn at build
//! time — the default page's shipped inside `index.html` — so a reader on a slow network
//! sees the diagram before the wasm arrives, in the page the app draws around it, so that
//! the app taking over moves nothing (a picture standing alone at the top would be pushed
//! far down the screen as the app's header, bars and caption arrive).
//!
//! The diagram is the run's at its start, as the timeline shows it before Play: the time
//! axis, the lanes and the cursor at 0, none of the run. A picture of the whole run would
//! tell the story's end (the stale write, the two believers) beside a clock that reads
//! 0.0 s, and vanish when the app, opened at 0, takes over; a question's page must not
//! draw what the reader is asked to predict in any case. It is laid out by the same code as
//! the live timeline (its lanes from the layout, its ticks from [`axis_ticks_in`] and
//! [`tick_stride`]) and drawn with the timeline's classes, so the page's stylesheet colours
//! it — both themes, no inline style (the page's CSP has none to allow). `examples/first_paint.rs` writes it and
//! `scripts/first-paint.mjs` (a Trunk post-build hook) puts it into the page; the app
//! removes it as it mounts. A link to anything but the default page hides it before the
//! first paint (`static/first-paint.js`), so it never shows the wrong run.
//!
//! Why the app replaces this picture instead of hydrating it (Yew's `hydration` feature,
//! with the page rendered by Yew's SSR at build time): building the first load with
//! `yew/hydration` and `Renderer::hydrate` adds about a tenth to its weight, in its wasm
//! and a little in its JS, to save creating one diagram's elements, a few milliseconds of
//! the first load's start. Replacing also keeps the build step a small native program with
//! no SSR of the app's hooks.

use super::svg::{escape_into, lane_class};
use crate::teach::narrate::{PLAY_HINT, PLAY_HINT_EMBED, PROMISE, QUIZ_HINT};
use crate::teach::walkthrough::INTRO;
use crate::view::icons;
use crate::view::layout::detail::{Full, Plain};
use crate::view::layout::{
    axis_ticks_in, narrowest, scale_of, tick_stride, Diagram, DIAGRAM_WIDTH, LEFT,
};
use crate::vocab::numbers::tenths as n;

/// The element id the app removes when it mounts.
pub const ID: &str = "first-paint";

/// The copies of the controls do nothing until the app replaces them: inert, and hidden
/// from assistive technology.
const IDLE: &str = r#" inert aria-hidden="true""#;

/// The words of the first view around the diagram, as the app shows them at the start of
/// the page a link opens. The caller reads them from that page's session
/// (`examples/first_paint.rs`), so the copy says what the app will.
pub struct Around<'a> {
    /// Each scenario the picker lists: its summary, and whether it is the one shown.
    pub options: &'a [(&'a str, bool)],
    pub description: &'a str,
    /// The playbar's clock ("0.0 s / 60.0 s"), its speed ("5×") and its fence switch.
    pub time: &'a str,
    pub speed: &'a str,
    pub fence: &'a str,
    /// Whether "Next violation" has one to go to (and the page may say so).
    pub violation: bool,
    /// What the guide's column shows at the start.
    pub guide: Guide<'a>,
    /// Each lane's clock reading at the start ("clock 0.000s"), in the diagram's lane
    /// order, as the timeline shows it under the lane's name.
    pub clocks: &'a [String],
    /// Whether the page's player leaves out every second (or fifth…) tick of the axis on
    /// a narrow drawing, so that no two labels touch (`Detail::SPREADS`: the links' player
    /// and the whole app do; the first load, the default page's, never does).
    pub spreads: bool,
}

/// The narrow diagram boxes, 20 px each from 300 up to 540 (and one below 300), on which
/// the stylesheet hides some of the picture's ticks: in the box from `w`, the ticks of class
/// `n{w}` (`@container first-paint` in style.css, which a test holds to these widths) — the
/// ones the player leaves out when it lays the drawing out at `w` (or at its narrowest, if
/// wider). A box's ticks are the player's at its narrow end, so within 20 px of the width
/// where the player changes how many it keeps, the picture may show fewer than the app.
/// From 540 up, every built-in run keeps every tick.
const NARROW: [u16; 13] = [
    0, 300, 320, 340, 360, 380, 400, 420, 440, 460, 480, 500, 520,
];

/// The guide beside (or below) the diagram, as the app opens it.
pub enum Guide<'a> {
    /// A walkthrough's opening: its beat count ("7 beats") and sources line ("" for none).
    Walkthrough { beats: &'a str, sources: &'a str },
    /// An interview question before its first stop: its heading ("Interview question 2
    /// of 9"), its stop count ("stop 1 of 1") and what it asks.
    Quiz {
        heading: &'a str,
        stops: &'a str,
        asks: &'a str,
    },
    /// Any other note (a fix's, a lock service's, a description): its column is kept,
    /// so the diagram has the app's width, and its words are left to the app.
    Blank,
}

/// The first view of the full page as an HTML fragment: the diagram of the run (`d`,
/// titled `title`) at its start, in the page the app draws around it then — the header,
/// the scenario bar, the description, the playback bar, the caption and the guide — so
/// that nothing moves when the app takes the page over (`first-paint.test.mjs` measures
/// it).
///
/// The copies of the controls are `inert` and hidden from assistive technology: they do
/// nothing until the app replaces them, and the stylesheet dims them meanwhile. Plain
/// `div`s, not the app's landmarks (`header`, `main`, `section`), and no control names:
/// what waits for the app's banner, its diagram region or its Play button must not mistake
/// this picture for the app.
pub fn html(d: &Diagram, title: &str, digest: &str, around: &Around) -> String {
    let mut out = String::with_capacity(24 * 1024);
    out.push_str(r#"<div id=""#);
    out.push_str(ID);
    out.push_str(r#"" class="shell first-paint"><div class="masthead"><p class="masthead-name">Leaseline</p><p class="masthead-promise">"#);
    escape_into(&mut out, PROMISE);
    out.push_str(r#"</p></div><div class="workspace"><div class="scenario-bar""#);
    out.push_str(IDLE);
    out.push_str("><label><span>Scenario</span><select>");
    for (summary, selected) in around.options {
        out.push_str(if *selected {
            "<option selected>"
        } else {
            "<option>"
        });
        escape_into(&mut out, summary);
        out.push_str("</option>");
    }
    out.push_str("</select></label>");
    for b in ["Lessons", "Interview prep", "Share", "Compare"] {
        out.push_str(r#"<button class="control text">"#);
        out.push_str(b);
        out.push_str("</button>");
    }
    out.push_str(r#"</div><p class="scenario-description">"#);
    escape_into(&mut out, around.description);
    out.push_str("</p>");
    controls(&mut out, around);
    caption(&mut out, PLAY_HINT);
    out.push_str(r#"<details class="legend""#);
    out.push_str(IDLE);
    out.push_str(r#"><summary class="control text">Legend</summary></details><div class="view">"#);
    diagram(&mut out, d, title, digest, around, false);
    guide(&mut out, &around.guide);
    out.push_str("</div></div></div>");
    out
}

/// The first view of an embed (`embed=1`) as an HTML fragment: the run's title bar, the
/// playback bar, the caption, the diagram and the guide, as the app lays out an embed
/// (its rules are the whole app's stylesheet's, which the page loads with it).
pub fn embed(d: &Diagram, title: &str, digest: &str, around: &Around) -> String {
    let mut out = String::with_capacity(24 * 1024);
    out.push_str(r#"<div id=""#);
    out.push_str(ID);
    out.push_str(r#"" class="shell embed first-paint"><div class="masthead embed-bar""#);
    out.push_str(IDLE);
    out.push_str(r#"><p class="embed-title">"#);
    escape_into(&mut out, title);
    out.push_str(r#"</p><button class="quiet">Share</button><span class="quiet">Leaseline ↗</span></div><div class="workspace">"#);
    controls(&mut out, around);
    caption(&mut out, PLAY_HINT_EMBED);
    diagram(&mut out, d, title, digest, around, true);
    guide(&mut out, &around.guide);
    out.push_str("</div></div>");
    out
}

/// The playback bar's copy, at the start of the run.
fn controls(out: &mut String, around: &Around) {
    out.push_str(r#"<div class="controls""#);
    out.push_str(IDLE);
    out.push_str(r#"><div class="group">"#);
    for (name, enabled) in [
        ("start", false),
        ("back-notable", false),
        ("prev", false),
        ("play", true),
        ("next", true),
        ("fwd-notable", true),
        ("end", true),
    ] {
        // The notable-event jumps carry the class the app's do (`ui::playbar`): a short
        // embed hides them (tools.css).
        out.push_str(match (name, enabled) {
            ("play", _) => r#"<button class="control primary">"#,
            ("back-notable", _) => r#"<button class="control notable" disabled>"#,
            ("fwd-notable", _) => r#"<button class="control notable">"#,
            (_, true) => r#"<button class="control">"#,
            (_, false) => r#"<button class="control" disabled>"#,
        });
        out.push_str(r#"<svg class="control-icon" viewBox="0 0 16 16"><path d=""#);
        out.push_str(icons::path(name));
        out.push_str(r#""/></svg>"#);
        if name == "play" {
            out.push_str(r#"<span class="control-label">Play</span>"#);
        }
        out.push_str("</button>");
    }
    out.push_str(r#"</div><label class="scrub"><input type="range" class="scrubber" value="0"><output class="time">"#);
    escape_into(out, around.time);
    out.push_str(r#"</output></label><div class="group"><button class="control">−</button><span class="speed">"#);
    escape_into(out, around.speed);
    out.push_str(r#"</span><button class="control">+</button></div><div class="group"><button class="control fence">"#);
    escape_into(out, around.fence);
    out.push_str(r#"</button><details class="primer"><summary class="control"><span class="primer-i">i</span></summary></details>"#);
    out.push_str(if around.violation {
        r#"<button class="control text">"#
    } else {
        r#"<button class="control text" disabled>"#
    });
    out.push_str(r#"Next violation</button><button class="control text" disabled>Undo</button><button class="control text" disabled>Redo</button></div></div>"#);
}

fn caption(out: &mut String, hint: &str) {
    out.push_str(r#"<p class="caption safe">"#);
    escape_into(out, hint);
    out.push_str("</p>");
}

/// The diagram at the run's start as the timeline draws it before Play (`ui/timeline.rs`):
/// over its left margin the strip of the lanes' names and clocks, then the axis, the lanes
/// and the cursor at 0; and the zoom bar's copy. `embed`: an embed's, which the player
/// scales up in a frame wider than its widest drawing.
///
/// The app lays its drawing out at its box's width, so that a unit is a pixel
/// (`layout::fitted_width`): its left margin is 112 px and its right one 24 px at any width,
/// and times are placed in proportion between them. The picture does the same without
/// knowing the width: its axis and lanes are drawn in percentages of the room between the
/// margins (which the stylesheet gives it), so it matches the app's drawing on a phone as
/// on a wide screen, rather than being scaled down or cut off; and the ticks the player
/// would leave out on a narrow box are hidden there ([`NARROW`]).
fn diagram(out: &mut String, d: &Diagram, title: &str, digest: &str, around: &Around, embed: bool) {
    out.push_str(r#"<div class="diagram" data-digest=""#);
    escape_into(out, digest);
    out.push_str(
        r#""><div class="timeline-frame"><svg class="lane-names" aria-hidden="true" viewBox="0 0 "#,
    );
    out.push_str(&format!(
        r#"{left} {h}" width="{left}"><rect class="shade" x="0" y="20" width="{left}" height="{rest}"/>"#,
        left = n(LEFT),
        h = n(d.height),
        rest = n(d.height - 20.0),
    ));
    for (l, clock) in d.lanes.iter().zip(around.clocks) {
        out.push_str(&format!(
            r#"<text class="lane-name" x="8" y="{}">"#,
            n(l.y - 2.0)
        ));
        escape_into(out, l.label);
        out.push_str(&format!(
            r#"</text><text class="clock-reading" x="8" y="{}">"#,
            n(d.clock_y(l))
        ));
        escape_into(out, clock);
        out.push_str("</text>");
    }
    out.push_str("</svg>");
    let end = d.scale.t1 as i64;
    // The player's scale for a drawing `w` wide; the narrowest it lays one out at.
    let at = |w: f64| scale_of(end, w, None);
    let least = if around.spreads {
        narrowest::<Full>()
    } else {
        narrowest::<Plain>()
    };
    let all = axis_ticks_in(0, end);
    // Every how many ticks the player keeps at the narrow end of each box of NARROW.
    let strides: Vec<usize> = NARROW
        .iter()
        .map(|&w| match around.spreads {
            true => tick_stride::<Full>(&at(f64::from(w).max(least)), &all),
            false => 1,
        })
        .collect();
    // Each tick with the classes of the boxes that hide it.
    let ticks: Vec<(i64, &str, String)> = all
        .iter()
        .enumerate()
        .map(|(i, (t, label))| {
            let hidden: Vec<String> = NARROW
                .iter()
                .zip(&strides)
                .filter(|(_, s)| !i.is_multiple_of(**s))
                .map(|(w, _)| format!("n{w}"))
                .collect();
            (*t, label.as_str(), hidden.join(" "))
        })
        .collect();
    let room = d.scale.x1 - d.scale.x0;
    plot(out, d, title, "timeline", "", &ticks, &|t| {
        format!("{}%", n((d.scale.x(t) - d.scale.x0) * 100.0 / room))
    });
    // An embed's frame may be wider than the widest the player lays a drawing out at
    // (`layout::DIAGRAM_WIDTH`): there the player scales that drawing up to fill it, its
    // margins and its text with it, and so does this one (shown on such a box only).
    if embed {
        let wide = at(DIAGRAM_WIDTH);
        let view = format!(r#" viewBox="0 0 {} {}""#, n(DIAGRAM_WIDTH), n(d.height));
        plot(out, d, title, "timeline wide", &view, &ticks, &|t| {
            n(wide.x(t))
        });
    }
    out.push_str(r#"</div><div class="zoom-bar""#);
    out.push_str(IDLE);
    out.push_str(r#"><button class="control zoom">+</button><span class="zoom-window">Whole run</span></div></div>"#);
}

/// The drawing of [`diagram`]: an `svg` of class `class` (with `view`, its viewBox
/// attribute or none), holding the axis's `ticks` (each with its time, label and classes), the lanes and the
/// cursor at the start; `x` places a time (ms) across the drawing.
fn plot(
    out: &mut String,
    d: &Diagram,
    title: &str,
    class: &str,
    view: &str,
    ticks: &[(i64, &str, String)],
    x: &dyn Fn(f64) -> String,
) {
    out.push_str(&format!(
        r#"<svg class="{class}" xmlns="http://www.w3.org/2000/svg"{view} height="{}" role="img" aria-label=""#,
        n(d.height)
    ));
    escape_into(out, title);
    out.push_str(r#" — at its start, drawn before the player has loaded"><g class="axis">"#);
    let bottom = n(d.height - 8.0);
    for (t, label, hidden) in ticks {
        if hidden.is_empty() {
            out.push_str("<g>");
        } else {
            out.push_str(&format!(r#"<g class="{hidden}">"#));
        }
        let at = x(*t as f64);
        out.push_str(&format!(
            r#"<line x1="{at}" y1="20" x2="{at}" y2="{bottom}"/><text x="{at}" y="14">"#
        ));
        escape_into(out, label);
        out.push_str("</text></g>");
    }
    out.push_str("</g>");
    let (start, end) = (x(d.scale.t0), x(d.scale.t1));
    for l in &d.lanes {
        let y = n(l.y);
        out.push_str(&format!(
            r#"<g class="{}"><line x1="{start}" y1="{y}" x2="{end}" y2="{y}"/></g>"#,
            lane_class(l)
        ));
    }
    out.push_str(&format!(
        r#"<line class="cursor" x1="{start}" y1="18" x2="{start}" y2="{bottom}"/></svg>"#
    ));
}

/// The guide's copy, as it opens.
fn guide(out: &mut String, g: &Guide) {
    match g {
        Guide::Walkthrough { beats, sources } => {
            out.push_str(r#"<div class="guide panel""#);
            out.push_str(IDLE);
            out.push_str(
                r#"><div class="guide-head"><h2>Walkthrough</h2><span class="beat-count">"#,
            );
            escape_into(out, beats);
            out.push_str(r#"</span></div><p class="beat">"#);
            escape_into(out, INTRO);
            out.push_str(r#"</p><div class="guide-actions"><button class="control text" disabled>Back</button><button class="control text">Next</button></div>"#);
            if !sources.is_empty() {
                out.push_str(r#"<p class="sources">"#);
                escape_into(out, sources);
                out.push_str("</p>");
            }
            out.push_str("</div>");
        }
        Guide::Quiz {
            heading,
            stops,
            asks,
        } => {
            out.push_str(r#"<div class="guide panel quiz""#);
            out.push_str(IDLE);
            out.push_str(r#"><div class="guide-head"><h2>"#);
            escape_into(out, heading);
            out.push_str(r#"</h2><span class="beat-count">"#);
            escape_into(out, stops);
            out.push_str(r#"</span><button class="quiet">Leave</button></div><p class="asks">"#);
            escape_into(out, asks);
            out.push_str(r#"</p><p class="hint">"#);
            escape_into(out, QUIZ_HINT);
            out.push_str(r#"</p><div class="guide-actions"><button class="action">Play</button><button class="control text">Skip to the stop</button></div></div>"#);
        }
        Guide::Blank => {
            out.push_str(r#"<div class="guide panel""#);
            out.push_str(IDLE);
            out.push_str("></div>");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::check::check;
    use crate::model::sim::simulate;
    use crate::view::layout;

    #[test]
    fn the_first_paint_is_the_default_run_with_no_inline_style_or_script() {
        let sc = crate::teach::course::open("gc-pause").unwrap();
        let trace = simulate(&sc).unwrap();
        let verdict = check(&trace);
        let d = layout::diagram(&trace, &verdict);
        let clocks: Vec<String> = d.lanes.iter().map(|_| "clock 0.000s".into()).collect();
        let around = Around {
            options: &[("Clean run", false), ("GC pause", true)],
            description: "Kleppmann 2016's case <&>",
            time: "0.0 s / 60.0 s",
            speed: "5×",
            fence: "Fencing: off",
            violation: true,
            guide: Guide::Walkthrough {
                beats: "7 beats",
                sources: "Sources: Kleppmann 2016.",
            },
            clocks: &clocks,
            spreads: false,
        };
        let h = html(&d, &sc.name, &trace.digest_hex(), &around);
        assert!(h.starts_with(r#"<div id="first-paint""#));
        // The page around the picture, in the app's words, escaped.
        let case = "Kleppmann 2016&#39;s case &lt;&amp;&gt;";
        for words in [PROMISE, PLAY_HINT, INTRO, case, "5×"] {
            assert!(h.contains(words), "{words}");
        }
        assert!(h.contains("<option selected>GC pause</option>"));
        // Its controls do nothing and name nothing until the app replaces them: nothing a
        // reader, a screen reader or a test could take for the app's own.
        assert_eq!(h.matches(r#" inert aria-hidden="true""#).count(), 5);
        for banned in [
            "<header",
            "<main",
            "<section",
            "aria-label=\"Play",
            "tabindex",
            " id=\"main",
        ] {
            assert!(!h.contains(banned), "{banned}");
        }
        // The run at its start, as the timeline draws it before Play: the axis with its
        // ticks, every lane, and the cursor at 0; none of the run's shapes (the stale
        // write and the two believers are for Play to show).
        // Placed in percentages of the room between the margins: the 60 s run's ticks
        // every 10 s, a sixth of it apart, each lane across it all.
        assert_eq!(d.ticks.len(), 7);
        for (tick, at) in d
            .ticks
            .iter()
            .zip(["0.0", "16.7", "33.3", "50.0", "66.7", "83.3"])
        {
            let drawn = format!(
                r#"<g><line x1="{at}%" y1="20" x2="{at}%" y2="264.0"/><text x="{at}%" y="14">{}</text></g>"#,
                tick.label
            );
            assert!(h.contains(&drawn), "{drawn}");
        }
        assert!(h.contains(
            r#"<g class="lane client"><line x1="0.0%" y1="59.0" x2="100.0%" y2="59.0"/></g>"#
        ));
        assert_eq!(h.matches(r#"<g class="lane"#).count(), d.lanes.len());
        // Each lane's name and clock in the strip over the left margin.
        assert_eq!(h.matches("clock 0.000s").count(), d.lanes.len());
        assert!(h.contains(r#"<text class="lane-name" x="8" y="57.0">Client 1</text>"#));
        assert!(h.contains(r#"<line class="cursor" x1="0.0%" y1="18""#));
        // The first load never thins its axis: no tick is hidden on a narrow box.
        assert!(!h.contains(r#"<g class="n"#));
        for shape in [
            "class=\"body",
            "class=\"gap",
            "class=\"band",
            "class=\"bar",
            "data-entry",
        ] {
            assert!(!h.contains(shape), "{shape}");
        }
        assert!(h.contains(&trace.digest_hex()));
        for banned in ["<style", "<script", "style=", "onload"] {
            assert!(!h.contains(banned), "{banned}");
        }
        assert!(h.ends_with("</div>"));
    }

    #[test]
    fn an_embed_and_a_question_draw_their_own_page_at_the_start_of_the_run() {
        let sc = crate::teach::course::open("check-then-write").unwrap();
        let trace = simulate(&sc).unwrap();
        let verdict = check(&trace);
        let d = layout::diagram(&trace, &verdict);
        let clocks = [String::new(), String::new(), String::new()];
        let around = |guide| Around {
            options: &[],
            description: "",
            time: "0.0 s / 30.0 s",
            speed: "5×",
            fence: "Fencing: ?",
            violation: false,
            guide,
            clocks: &clocks,
            spreads: true,
        };
        let e = embed(&d, "Check, then write", "abc", &around(Guide::Blank));
        assert!(e.starts_with(r#"<div id="first-paint" class="shell embed first-paint">"#));
        assert!(e.contains(PLAY_HINT_EMBED) && !e.contains(PLAY_HINT));
        let quiz = Guide::Quiz {
            heading: "Interview question 2 of 5",
            stops: "stop 1 of 1",
            asks: "What happens?",
        };
        let q = html(&d, "This question's run", "abc", &around(quiz));
        for words in [
            "Interview question 2 of 5",
            "stop 1 of 1",
            "What happens?",
            QUIZ_HINT,
        ] {
            assert!(q.contains(words), "{words}");
        }
        // An embed's frame may be wider than the player's widest drawing, which it then
        // scales up: its picture has that drawing too, for such a frame; a page's box
        // never is.
        let wide =
            r#"<svg class="timeline wide" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 960.0 "#;
        assert!(e.contains(wide) && !q.contains(wide));
        // The lanes and the axis, none of the run the reader is asked to predict.
        for page in [&e, &q] {
            assert!(page.contains(r#"class="lane client""#));
            assert!(!page.contains("data-entry") && !page.contains(r#"class="body"#));
        }
        for banned in [
            "<header", "<main", "<section", "<style", "<script", "style=",
        ] {
            assert!(!e.contains(banned) && !q.contains(banned), "{banned}");
        }
    }

    #[test]
    fn a_narrow_box_hides_the_ticks_the_player_leaves_out_there() {
        // A 70 s run: eight ticks, every 10 s. The links' player keeps every second one
        // on a drawing 375 wide or less (a phone's page: the player draws no narrower than
        // 360) and all of them from 376 up.
        let sc = crate::teach::course::open("progress-heartbeat").unwrap();
        let trace = simulate(&sc).unwrap();
        let d = layout::diagram(&trace, &check(&trace));
        let around = |spreads| Around {
            options: &[],
            description: "",
            time: "",
            speed: "",
            fence: "",
            violation: false,
            guide: Guide::Blank,
            clocks: &[],
            spreads,
        };
        let page = html(&d, "", "", &around(true));
        let hidden: Vec<usize> = page
            .split("<g class=\"axis\">")
            .nth(1)
            .unwrap()
            .split("</g>")
            .enumerate()
            .filter(|(_, tick)| tick.starts_with(r#"<g class="n0 n300 n320 n340 n360">"#))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(d.ticks.len(), 8);
        assert_eq!(hidden, [1, 3, 5, 7]);
        assert!(!page.contains("n380"));
        // The first load never thins its axis.
        assert!(!html(&d, "", "", &around(false)).contains(r#"<g class="n"#));
    }

    #[test]
    fn the_stylesheet_hides_each_narrow_boxs_ticks_in_that_box_alone() {
        let css = include_str!("../../../static/style.css");
        let rule = |from: u16, to: u16| {
            let when = match from {
                0 => format!("(width < {to}px)"),
                _ => format!("({from}px <= width < {to}px)"),
            };
            format!("@container first-paint {when} {{ #first-paint .axis .n{from} {{ display: none; }} }}")
        };
        let ends = NARROW.iter().skip(1).copied().chain([540]);
        for (from, to) in NARROW.iter().copied().zip(ends) {
            assert!(
                css.contains(&rule(from, to)),
                "style.css: {}",
                rule(from, to)
            );
        }
        assert_eq!(
            css.matches("@container first-paint (").count(),
            NARROW.len() + 1
        );
    }
}
