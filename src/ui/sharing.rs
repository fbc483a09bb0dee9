//! The share dialog and the embed's own small header. The link is the whole view state
//! (`share::encode`); the embed code is the same link in embed mode, shaped by the dialog's
//! [`EmbedOptions`] (size, Play on load, Diagram and caption only, the course page's
//! origins, the fit-to-content script), with a live preview of
//! the frame it makes and a `title` so screen readers can name the frame.

use super::on;
use super::{css, when};
use crate::session::share::snippet::{HEIGHTS, WIDTHS};
use crate::session::share::{iframe_snippet, EmbedOptions, Size, SIZES};
use crate::session::{Action, Menu};
use crate::vocab::numbers::decimal;
use gloo_timers::callback::Timeout;
use std::rc::Rc;
use yew::prelude::*;

/// The preview's largest size in the dialog, in CSS pixels: a larger frame is scaled down
/// (and a narrower dialog, on a phone, makes it smaller still).
const PREVIEW_W: u32 = 480;
const PREVIEW_H: u32 = 360;

/// The dialog's last line, fixed text: one raw node is lighter in the bundle than its
/// elements built one by one. The guide is copied into the build (`docs/`, see index.html).
const HINT: &str = "<p class=\"hint\">The embed shows the run without the site around it; a host page can drive it with postMessage: see <a href=\"docs/embedding.md\" target=\"_blank\" rel=\"noopener\">docs/embedding.md<span class=\"sr-only\"> (opens in a new tab)</span></a>.</p>";

/// The page's address without its fragment.
pub fn base() -> String {
    web_sys::window()
        .and_then(|w| w.location().href().ok())
        .map(|h| h.split('#').next().unwrap_or_default().to_string())
        .unwrap_or_default()
}

/// Writes text to the clipboard with the asynchronous clipboard API, and says whether the
/// page was allowed to. A refusal (no permission, no focus, no API) is `false`, never an
/// uncaught rejection.
async fn write_clipboard(text: String) -> bool {
    use wasm_bindgen::JsCast;
    let Some(w) = web_sys::window() else {
        return false;
    };
    let get = |o: &wasm_bindgen::JsValue, k: &str| js_sys::Reflect::get(o, &k.into()).ok();
    let Some(c) = get(&w, "navigator")
        .and_then(|n| get(&n, "clipboard"))
        .filter(|c| !c.is_undefined())
    else {
        return false;
    };
    let Some(f) = get(&c, "writeText").and_then(|f| f.dyn_into::<js_sys::Function>().ok()) else {
        return false;
    };
    match f
        .call1(&c, &text.into())
        .ok()
        .and_then(|p| p.dyn_into::<js_sys::Promise>().ok())
    {
        Some(p) => wasm_bindgen_futures::JsFuture::from(p).await.is_ok(),
        None => false,
    }
}

/// Selects a field's whole text and focuses it, so the reader can copy it by hand.
fn select_field(field: &NodeRef) {
    if let Some(i) = field.cast::<web_sys::HtmlInputElement>() {
        let _ = i.focus();
        i.select();
    } else if let Some(a) = field.cast::<web_sys::HtmlTextAreaElement>() {
        let _ = a.focus();
        a.select();
    }
}

/// Sets inline style properties through the CSSOM: a strict Content-Security-Policy
/// (`style-src 'self'`) refuses `style` attributes in markup, but not this.
fn set_style(node: &NodeRef, props: &[(&str, String)]) {
    let Some(el) = node.get() else { return };
    let Ok(style) = js_sys::Reflect::get(&el, &"style".into()) else {
        return;
    };
    for (k, v) in props {
        let _ = js_sys::Reflect::set(&style, &(*k).into(), &v.as_str().into());
    }
}

/// Which copy button was pressed last.
#[derive(Clone, Copy, PartialEq)]
enum Copied {
    Link,
    Code,
}

impl Copied {
    fn what(self) -> &'static str {
        match self {
            Copied::Link => "link",
            Copied::Code => "embed code",
        }
    }
}

/// The open dialog's state: the embed options, and the last copy (which button, and
/// whether the clipboard took it).
#[derive(Clone, PartialEq)]
struct Dialog {
    opts: EmbedOptions,
    copied: Option<(Copied, bool)>,
}

/// A change to [`Dialog`]: a control's new value (by its `name`), or a copy's outcome.
enum Msg {
    Control(String, String, bool),
    Copied(Option<(Copied, bool)>),
}

impl Reducible for Dialog {
    type Action = Msg;
    fn reduce(self: Rc<Self>, msg: Msg) -> Rc<Self> {
        let mut d = (*self).clone();
        match msg {
            Msg::Copied(c) => d.copied = c,
            Msg::Control(name, value, checked) => {
                let o = &mut d.opts;
                match name.as_str() {
                    "share-size" => o.choose(match value.parse() {
                        Ok(i) => Size::Preset(i),
                        Err(_) => Size::Custom,
                    }),
                    "share-width" => o.set_width(&value),
                    "share-height" => o.set_height(&value),
                    "autoplay" => o.autoplay = checked,
                    "share-origins" => o.origins_text = value,
                    "fit" => o.fit = checked,
                    _ => o.diagram_only = checked,
                }
            }
        }
        Rc::new(d)
    }
}

/// A radio button or checkbox in its label.
fn tick(kind: &'static str, name: &'static str, value: String, on: bool, label: String) -> Html {
    html! {
        <label class="check">
            <input type={kind} {name} {value} checked={on} />
            { label }
        </label>
    }
}

/// A typed width or height, with what is wrong with it said at the field.
fn dimension(
    id: &'static str,
    label: &'static str,
    text: &str,
    error: Option<String>,
    range: &std::ops::RangeInclusive<u32>,
) -> Html {
    let err_id = format!("{id}-error");
    html! {
        <label class={css(&["field", when(error.is_some(), "invalid")])}>
            <span>{ label }</span>
            <input type="number" {id} name={id} min={range.start().to_string()} max={range.end().to_string()} step="1" inputmode="numeric"
                   value={text.to_string()} aria-invalid={error.is_some().to_string()}
                   aria-describedby={error.is_some().then(|| err_id.clone())} />
            if let Some(e) = error {
                <span id={err_id} class="field-error">{ e }</span>
            }
        </label>
    }
}

/// The course page's origins, which the frame will obey alone, with what is wrong with
/// them said at the field.
fn origins_field(text: &str, error: Option<String>) -> Html {
    let id = "share-origins";
    let err_id = format!("{id}-error");
    html! {
        <label class={css(&["field", when(error.is_some(), "invalid")])}>
            <span>{ "Your course page's origin (e.g. https://courses.example; several with commas)" }</span>
            <input type="text" {id} name={id} value={text.to_string()} spellcheck="false" autocomplete="off"
                   aria-invalid={error.is_some().to_string()}
                   aria-describedby={error.is_some().then(|| err_id.clone())} />
            if let Some(e) = error {
                <span id={err_id} class="field-error">{ e }</span>
            }
        </label>
    }
}

#[derive(Properties, PartialEq)]
struct DialogProps {
    link: AttrValue,
    embed_link: AttrValue,
    title: AttrValue,
    on_action: Callback<Action>,
}

/// The open dialog. Its choices live here while it is open; what they mean (the size, the
/// link's keys, the snippet, the preview's scale) is [`EmbedOptions`]'s.
#[component]
fn ShareDialog(p: &DialogProps) -> Html {
    let state = {
        let embed_link = p.embed_link.clone();
        use_reducer(move || Dialog {
            opts: EmbedOptions::from_link(&embed_link),
            copied: None,
        })
    };
    let timer = use_mut_ref(|| None::<Timeout>);
    let (link_field, code_field) = (use_node_ref(), use_node_ref());
    let (frame, frame_box) = (use_node_ref(), use_node_ref());
    let opts = &state.opts;

    let snippet = iframe_snippet(&p.embed_link, &p.title, opts);
    let src = opts.link(&p.embed_link);
    let (w, h) = opts.size();
    {
        // The preview's box: the frame scaled to fit PREVIEW_W (or the dialog's width on a
        // phone) by PREVIEW_H.
        let (frame, frame_box, opts) = (frame.clone(), frame_box.clone(), opts.clone());
        use_effect_with((w, h), move |_| {
            let room = frame_box
                .cast::<web_sys::Element>()
                .and_then(|b| b.parent_element())
                .and_then(|f| f.parent_element())
                .map_or(PREVIEW_W, |area| {
                    u32::try_from(area.client_width()).unwrap_or(PREVIEW_W)
                });
            let (scale, pw, ph) =
                opts.preview(room.saturating_sub(2).clamp(160, PREVIEW_W), PREVIEW_H);
            set_style(
                &frame_box,
                &[("width", format!("{pw}px")), ("height", format!("{ph}px"))],
            );
            let s = decimal(i64::from(scale), 3);
            set_style(&frame, &[("transform", format!("scale({s})"))]);
        });
    }

    // One listener for every option: the control's name says which.
    let on_control = {
        let d = state.dispatcher();
        Callback::from(move |e: Event| {
            if let Some(i) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                d.dispatch(Msg::Control(i.name(), i.value(), i.checked()));
            }
        })
    };
    let on_typed = on_control.reform(|e: InputEvent| e.into());

    let copy = |which: Copied, text: String, field: &NodeRef| {
        let (d, timer, field) = (state.dispatcher(), timer.clone(), field.clone());
        let said = match state.copied {
            Some((w, true)) if w == which => "Copied ✓",
            Some((w, false)) if w == which => "Select and copy",
            _ if which == Copied::Link => "Copy link",
            _ => "Copy embed code",
        };
        let onclick = Callback::from(move |_: MouseEvent| {
            let (d, timer, text, field) = (d.clone(), timer.clone(), text.clone(), field.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let ok = write_clipboard(text).await;
                if !ok {
                    select_field(&field);
                }
                d.dispatch(Msg::Copied(Some((which, ok))));
                // "Copied" for two seconds; the hand-copy hint a little longer.
                let ms = if ok { 2_000 } else { 6_000 };
                *timer.borrow_mut() = Some(Timeout::new(ms, move || d.dispatch(Msg::Copied(None))));
            });
        });
        html! { <button type="button" class="control text copy" {onclick}>{ said }</button> }
    };
    let announce = match state.copied {
        Some((w, true)) => format!("The {} is copied.", w.what()),
        Some((w, false)) => format!(
            "Could not copy. The {} is selected: press Ctrl+C (⌘C on a Mac) to copy it.",
            w.what()
        ),
        None => String::new(),
    };
    let custom = opts.size == Size::Custom;

    html! {
        <section id="share-dialog" class="panel share" aria-label="Share">
            <header class="guide-head">
                <h2>{ "Share this run" }</h2>
                <button type="button" class="quiet" onclick={on(&p.on_action, Action::ToggleMenu(Menu::Share))}>{ "Close" }</button>
            </header>
            <label class="field">
                <span>{ "Link: the scenario, the cursor and what is open" }</span>
                <input ref={link_field.clone()} type="text" readonly=true value={p.link.clone()} aria-label="Link to this run" />
            </label>
            { copy(Copied::Link, p.link.to_string(), &link_field) }
            <h3>{ "Embed in a course page" }</h3>
            <div class="share-embed">
                <div class="share-options" onchange={on_control} oninput={on_typed}>
                    <fieldset class="share-size">
                        <legend>{ "Size" }</legend>
                        { for (0..SIZES.len()).map(|i| tick("radio", "share-size", i.to_string(), opts.size == Size::Preset(i), EmbedOptions::label(i))) }
                        { tick("radio", "share-size", "custom".into(), custom, "Custom".into()) }
                        if custom {
                            <div class="share-custom">
                                { dimension("share-width", "Width (px)", &opts.width_text, opts.width_error(), &WIDTHS) }
                                { dimension("share-height", "Height (px)", &opts.height_text, opts.height_error(), &HEIGHTS) }
                            </div>
                        }
                    </fieldset>
                    { tick("checkbox", "autoplay", "1".into(), opts.autoplay, "Play on load".into()) }
                    { tick("checkbox", "view", "diagram".into(), opts.diagram_only, "Diagram and caption only".into()) }
                    { tick("checkbox", "fit", "1".into(), opts.fit, "Fit the frame's height to its content (adds a script line)".into()) }
                    { origins_field(&opts.origins_text, opts.origins_error()) }
                    <label class="field">
                        <span>{ "Embed code" }</span>
                        <textarea ref={code_field.clone()} readonly=true rows="4" value={snippet.clone()} aria-label="Embed code" />
                    </label>
                    { copy(Copied::Code, snippet, &code_field) }
                </div>
                <figure class="share-preview">
                    <div class="share-preview-box" ref={frame_box}>
                        <iframe ref={frame} {src} title={format!("Preview: {}", p.title)}
                                width={w.to_string()} height={h.to_string()} loading="lazy"></iframe>
                    </div>
                    <figcaption>{ format!("Preview at {w}×{h}") }</figcaption>
                </figure>
            </div>
            { Html::from_html_unchecked(AttrValue::from(HINT)) }
            <p class="sr-only" role="status">{ announce }</p>
        </section>
    }
}

/// The share dialog, when open. `links` are the full app's link and the embed's
/// (`Session::share_fragments` behind this page's address), `title` the scenario's name.
pub fn share_dialog(
    open: bool,
    links: &(String, String),
    title: &str,
    cb: &Callback<Action>,
) -> Html {
    if !open {
        return html! {};
    }
    html! {
        <ShareDialog link={links.0.clone()} embed_link={links.1.clone()} title={title.to_string()} on_action={cb.clone()} />
    }
}

/// The embed's header: the scenario's name, Share, and a way out to the full app (`full`,
/// memoized by the caller: it is not recomputed on every frame).
pub fn embed_bar(title: &str, share_open: bool, full: String, cb: &Callback<Action>) -> Html {
    html! {
        <header class="masthead embed-bar">
            <h1 class="embed-title">{ title.to_string() }</h1>
            <button type="button" class="quiet" aria-expanded={share_open.to_string()} aria-controls="share-dialog"
                    onclick={on(cb, Action::ToggleMenu(Menu::Share))}>{ "Share" }</button>
            <a class="quiet" href={full} target="_blank" rel="noopener" aria-label="Open in Leaseline (new tab)">{ "Leaseline ↗" }</a>
        </header>
    }
}
