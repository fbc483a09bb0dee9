//! Export and import. Exports hand the core's text (SVG, Mermaid, scenario and trace JSON)
//! to a download; the SVG is the core's slide (title, verdict, settings, diagram, legend and
//! the page's link), and PNG only draws that same SVG onto a canvas. Import reads a JSON scenario from
//! a file or from pasted text and hands it to the reducer, which validates it: an error
//! names the field, and the current scenario stays. "Record a time range" (`ui::record`)
//! makes an animated GIF or a video of the run in a worker.
//!
//! A component with pointer-compared props, so it does not render during playback.

use crate::session::zoom::Window;
use crate::session::{Action, Run};
use crate::view::export;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Saves `href` (a data: URL) as a file named `name`.
fn save(name: &str, href: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Ok(a) = doc.create_element("a") {
        let _ = a.set_attribute("href", href);
        let _ = a.set_attribute("download", name);
        if let Some(a) = a.dyn_ref::<web_sys::HtmlElement>() {
            a.click();
        }
    }
}

fn data_url(mime: &str, text: &str) -> String {
    format!(
        "data:{mime};charset=utf-8,{}",
        js_sys::encode_uri_component(text)
    )
}

/// A file-name stem from the scenario's name: "GC pause longer…" → "gc-pause-longer…".
fn stem(run: &Run) -> String {
    let mut s = String::new();
    for c in run.scenario.name.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c.to_ascii_lowercase());
        } else if !s.ends_with('-') && !s.is_empty() {
            s.push('-');
        }
    }
    let s = s.trim_end_matches('-');
    if s.is_empty() {
        "leaseline".to_string()
    } else {
        s.chars().take(48).collect()
    }
}

/// Renders the SVG onto a canvas at twice its size and saves the PNG.
fn save_png(svg: String, name: String, width: f64, height: f64) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(img) = doc.create_element("img") else {
        return;
    };
    let Ok(img) = img.dyn_into::<web_sys::HtmlImageElement>() else {
        return;
    };
    let img2 = img.clone();
    let onload = Closure::once(move || {
        let canvas = doc
            .create_element("canvas")
            .ok()
            .and_then(|c| c.dyn_into::<web_sys::HtmlCanvasElement>().ok());
        if let Some(canvas) = canvas {
            canvas.set_width((width * 2.0) as u32);
            canvas.set_height((height * 2.0) as u32);
            let ctx = canvas
                .get_context("2d")
                .ok()
                .flatten()
                .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok());
            if let Some(ctx) = ctx {
                let _ = ctx.scale(2.0, 2.0);
                let _ = ctx.draw_image_with_html_image_element(&img2, 0.0, 0.0);
                if let Ok(png) = canvas.to_data_url_with_type("image/png") {
                    save(&name, &png);
                }
            }
        }
    });
    img.set_onload(Some(onload.as_ref().unchecked_ref()));
    // The closure runs once, when the image has loaded; the image keeps it until then.
    onload.forget();
    img.set_src(&data_url("image/svg+xml", &svg));
}

#[derive(Properties)]
pub struct IoProps {
    pub run: Rc<Run>,
    /// The diagram's zoom window: what "Record a time range" records by default.
    pub zoom: Option<Window>,
    pub on_action: Callback<Action>,
}

impl PartialEq for IoProps {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.run, &o.run) && self.zoom == o.zoom && self.on_action == o.on_action
    }
}

#[component]
pub fn Io(props: &IoProps) -> Html {
    let pasted = use_mut_ref(String::new);
    let run = props.run.clone();
    let cb = props.on_action.clone();
    let export_button = |label: &'static str, what: u8| {
        let run = run.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            let stem = stem(&run);
            let d = &run.diagram;
            let picture = || {
                // The address on screen reopens this run (the link writer keeps it current).
                let link = web_sys::window()
                    .and_then(|w| w.location().href().ok())
                    .unwrap_or_default();
                let about = export::slide::About {
                    scenario: &run.scenario,
                    verdict: &run.verdict,
                    steps: run.trace.len(),
                    link: &link,
                };
                export::slide::slide(d, &about)
            };
            match what {
                0 => save(
                    &format!("{stem}.svg"),
                    &data_url("image/svg+xml", &picture().svg),
                ),
                1 => {
                    let s = picture();
                    save_png(s.svg, format!("{stem}.png"), s.width, s.height)
                }
                2 => save(
                    &format!("{stem}.mmd"),
                    &data_url(
                        "text/plain",
                        &export::mermaid::sequence(&run.trace, &run.verdict),
                    ),
                ),
                3 => save(
                    &format!("{stem}.scenario.json"),
                    &data_url("application/json", &run.scenario.to_json_pretty()),
                ),
                _ => save(
                    &format!("{stem}.trace.json"),
                    &data_url("application/json", &export::trace_json(&run.trace)),
                ),
            }
        });
        html! { <button type="button" class="control text" {onclick}>{ label }</button> }
    };
    let on_file =
        super::adapter::read_file(&cb, Action::Import, "import: the file could not be read");
    let on_paste = {
        let pasted = pasted.clone();
        Callback::from(move |e: InputEvent| {
            *pasted.borrow_mut() = super::value_of(&e);
        })
    };
    let on_load = {
        let cb = cb.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Action::Import(pasted.borrow().clone())))
    };
    html! {
        <>
            <div class="guide-actions" role="group" aria-label="Export">
                { export_button("SVG", 0) }
                { export_button("PNG", 1) }
                { export_button("Mermaid", 2) }
                { export_button("Scenario JSON", 3) }
                { export_button("Trace JSON", 4) }
            </div>
            <super::record::Record run={props.run.clone()} window={props.zoom.map(|w| (w.from, w.to))} stem={stem(&props.run)} />
            <label class="field">
                <span>{ "Import a scenario file (JSON)" }</span>
                <input type="file" accept=".json,application/json" onchange={on_file} />
            </label>
            <label class="field">
                <span>{ "…or paste a scenario" }</span>
                <textarea rows="4" spellcheck="false" oninput={on_paste} placeholder="{ \"version\": 1, … }" />
            </label>
            <button type="button" class="control text" onclick={on_load}>{ "Load pasted JSON" }</button>
            { super::recorded::import_field(&props.on_action) }
        </>
    }
}
