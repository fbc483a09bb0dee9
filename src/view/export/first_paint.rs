//! The first paint: the default page's whole run, drawn at build time and shipped inside
//! `index.html`, so a reader on a slow network sees the diagram before the wasm arrives.
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
//! with the page rendered by Yew's SSR at build time): measured on 2026-12-01, building
//! the first load with `yew/hydration` and `Renderer::hydrate` adds 16,723 bytes gzip to
//! its wasm (183,121 → 199,844) and 183 to its JS — more than the whole room under the
//! first load's 200,000-byte cap — to save creating one diagram's elements, a few
//! milliseconds of the first load's start. Replacing also keeps the build step a small
//! native program with no SSR of the app's hooks.

use super::svg::{drawing, escape_into, DEFS};
use crate::view::layout::Diagram;

/// The element id the app removes when it mounts.
pub const ID: &str = "first-paint";

/// The first view as an HTML fragment: the site's name and line, the diagram of the whole
/// run (`d`, titled `title`), and a caption saying the simulator is on its way. Plain
/// `div`s, not the app's landmarks (`header`, `main`, `section`): what waits for the app's
/// banner or its diagram region must not mistake this picture for the app.
pub fn html(d: &Diagram, title: &str, digest: &str) -> String {
    let mut out = String::with_capacity(16 * 1024);
    out.push_str(r#"<div id=""#);
    out.push_str(ID);
    out.push_str(r#"" class="shell first-paint"><div class="masthead"><p class="masthead-name">Leaseline</p></div><div class="workspace"><p class="caption">"#);
    escape_into(&mut out, title);
    out.push_str(r#" — the whole run, drawn before the simulator has loaded.</p><div class="diagram" data-digest=""#);
    escape_into(&mut out, digest);
    out.push_str(r#""><div class="timeline-frame"><svg class="timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 "#);
    out.push_str(&format!("{} {}", d.width as i64, d.height as i64));
    out.push_str(r#"" role="img" aria-label=""#);
    escape_into(&mut out, title);
    out.push_str(r#"">"#);
    out.push_str(DEFS);
    drawing(&mut out, d);
    out.push_str("</svg></div></div></div></div>");
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
        let h = html(&d, &sc.name, &trace.digest_hex());
        assert!(h.starts_with(r#"<div id="first-paint""#));
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
