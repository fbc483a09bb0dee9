//! The first paint: the default page's whole run, drawn at build time and shipped inside
//! `index.html`, so a reader on a slow network sees the diagram before the wasm arrives —
//! in the page the app draws around it, so that the app taking over moves nothing (a
//! picture standing alone at the top would be pushed far down the screen as the app's
//! header, bars and caption arrive).
//!
//! It is drawn by the same code that draws the live timeline's shapes
//! ([`svg::diagram_body`](super::svg::diagram_body), which the timeline embeds as is), with
//! the same classes, so the page's stylesheet colours it — both themes, no inline style
//! (the page's CSP has none to allow). `examples/first_paint.rs` writes it and
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

use super::svg::{drawing, escape_into, DEFS};
use crate::teach::narrate::{PLAY_HINT, PROMISE};
use crate::teach::walkthrough::INTRO;
use crate::view::icons;
use crate::view::layout::Diagram;

/// The element id the app removes when it mounts.
pub const ID: &str = "first-paint";

/// The words of the first view around the diagram, as the app shows them at the start of
/// the default page. The caller reads them from that page's session
/// (`examples/first_paint.rs`), so the copy says what the app will.
pub struct Around<'a> {
    /// Each scenario the picker lists: its summary, and whether it is the one shown.
    pub options: &'a [(&'a str, bool)],
    pub description: &'a str,
    /// The playbar's clock ("0.0 s / 60.0 s"), its speed ("5×") and its fence switch.
    pub time: &'a str,
    pub speed: &'a str,
    pub fence: &'a str,
    /// The walkthrough's beat count ("7 beats") and its sources line ("" for none).
    pub beats: &'a str,
    pub sources: &'a str,
}

/// The first view as an HTML fragment: the diagram of the whole run (`d`, titled
/// `title`), in the page the app draws around it at its start — the header, the scenario
/// bar, the description, the playback bar, the caption and the walkthrough — so that
/// nothing moves when the app takes the page over (`first-paint.test.mjs` measures it).
///
/// The copies of the controls are `inert` and hidden from assistive technology: they do
/// nothing until the app replaces them, and the stylesheet dims them meanwhile. Plain
/// `div`s, not the app's landmarks (`header`, `main`, `section`), and no control names:
/// what waits for the app's banner, its diagram region or its Play button must not mistake
/// this picture for the app.
pub fn html(d: &Diagram, title: &str, digest: &str, around: &Around) -> String {
    const IDLE: &str = r#" inert aria-hidden="true""#;
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
    out.push_str(r#"</p><div class="controls""#);
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
        out.push_str(if name == "play" {
            r#"<button class="control primary">"#
        } else if enabled {
            r#"<button class="control">"#
        } else {
            r#"<button class="control" disabled>"#
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
    escape_into(&mut out, around.time);
    out.push_str(r#"</output></label><div class="group"><button class="control">−</button><span class="speed">"#);
    escape_into(&mut out, around.speed);
    out.push_str(r#"</span><button class="control">+</button></div><div class="group"><button class="control fence">"#);
    escape_into(&mut out, around.fence);
    out.push_str(r#"</button><details class="primer"><summary class="control"><span class="primer-i">i</span></summary></details><button class="control text">Next violation</button><button class="control text" disabled>Undo</button><button class="control text" disabled>Redo</button></div></div><p class="caption safe">"#);
    escape_into(&mut out, PLAY_HINT);
    out.push_str(r#"</p><details class="legend""#);
    out.push_str(IDLE);
    out.push_str(r#"><summary class="control text">Legend</summary></details><div class="view"><div class="diagram" data-digest=""#);
    escape_into(&mut out, digest);
    out.push_str(r#""><div class="timeline-frame"><svg class="timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 "#);
    out.push_str(&format!("{} {}", d.width as i64, d.height as i64));
    out.push_str(r#"" role="img" aria-label=""#);
    escape_into(&mut out, title);
    out.push_str(r#" — the whole run, drawn before the player has loaded">"#);
    out.push_str(DEFS);
    drawing(&mut out, d);
    out.push_str(r#"</svg></div><div class="zoom-bar""#);
    out.push_str(IDLE);
    out.push_str(r#"><button class="control zoom">+</button><span class="zoom-window">Whole run</span></div></div><div class="guide panel""#);
    out.push_str(IDLE);
    out.push_str(r#"><div class="guide-head"><h2>Walkthrough</h2><span class="beat-count">"#);
    escape_into(&mut out, around.beats);
    out.push_str(r#"</span></div><p class="beat">"#);
    escape_into(&mut out, INTRO);
    out.push_str(r#"</p><div class="guide-actions"><button class="control text" disabled>Back</button><button class="control text">Next</button></div>"#);
    if !around.sources.is_empty() {
        out.push_str(r#"<p class="sources">"#);
        escape_into(&mut out, around.sources);
        out.push_str("</p>");
    }
    out.push_str("</div></div></div></div>");
    out
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
        let around = Around {
            options: &[("Clean run", false), ("GC pause", true)],
            description: "Kleppmann 2016's case <&>",
            time: "0.0 s / 60.0 s",
            speed: "5×",
            fence: "Fencing: off",
            beats: "7 beats",
            sources: "Sources: Kleppmann 2016.",
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
        // Believed vs actual is drawn too: the first load draws it, so the picture does.
        assert!(!d.gaps.is_empty() && h.contains("class=\"gap danger"));
        assert!(
            h.contains(&super::super::svg::diagram_body(&d)),
            "the timeline's own shapes, as the first load draws them"
        );
        assert!(h.contains(&trace.digest_hex()));
        for banned in ["<style", "<script", "style=", "onload"] {
            assert!(!h.contains(banned), "{banned}");
        }
        assert!(h.ends_with("</div>"));
    }
}
