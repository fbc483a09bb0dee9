//! "Record a time range" in the Export panel: a range of the run on screen as an animated
//! GIF or a video. The frames are the core's (`view::export::raster`), drawn in a Web
//! Worker with its own wasm (`src/bin/record_worker.rs`, `static/record-worker.js`) loaded
//! only when a reader records, so the page never freezes and the first load does not grow.
//! Progress shows frame by frame; Cancel terminates the worker at once. The result is
//! offered as a download with its size, and previewed.

use super::explore::{spawn, stop, Message};
use crate::session::Run;
use crate::view::export::record::{Options, Request, FPS, SECONDS, WIDTH};
use crate::vocab::numbers::decimal;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Gif,
    Video,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Gif => "GIF",
            Kind::Video => "video",
        }
    }
}

#[derive(Clone, PartialEq)]
enum Status {
    Idle,
    Running {
        kind: Kind,
        done: u32,
        total: u32,
    },
    Cancelled,
    Done {
        kind: Kind,
        /// A blob: URL of the file (revoked when replaced).
        url: String,
        bytes: u64,
        frames: u32,
        ms: u32,
    },
    Failed(String),
}

/// "403 KB", "1.2 MB".
fn size_words(bytes: u64) -> String {
    if bytes < 1_000_000 {
        format!("{} KB", bytes.div_ceil(1000))
    } else {
        format!("{} MB", decimal((bytes / 100_000) as i64, 1))
    }
}

#[derive(Properties)]
pub struct RecordProps {
    pub run: Rc<Run>,
    /// The diagram's zoom window, from and to in ms: the range recorded by default
    /// (`None`: the whole run).
    #[prop_or_default]
    pub window: Option<(i64, i64)>,
    /// The file name's stem.
    pub stem: String,
}

impl PartialEq for RecordProps {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.run, &o.run) && self.window == o.window && self.stem == o.stem
    }
}

#[component]
pub fn Record(props: &RecordProps) -> Html {
    let status = use_state(|| Status::Idle);
    let options = use_state(Options::default);
    let running =
        use_mut_ref(|| None::<(web_sys::Worker, Closure<dyn FnMut(web_sys::MessageEvent)>)>);
    let last_url = use_mut_ref(String::new);
    let end = props.run.trace.end.0;
    let (from, to) = props.window.unwrap_or((0, end));
    // A new run (or window) resets the range and stops a recording of the old one.
    {
        let (status, running, options) = (status.clone(), running.clone(), options.clone());
        use_effect_with((props.run.digest.clone(), props.window), move |_| {
            stop(&running);
            status.set(Status::Idle);
            options.set(Options {
                from_ms: None,
                to_ms: None,
                ..(*options).clone()
            });
            move || stop(&running)
        });
    }
    let start = {
        let (status, running, run, options) = (
            status.clone(),
            running.clone(),
            props.run.clone(),
            options.clone(),
        );
        let last_url = last_url.clone();
        let window = props.window;
        Callback::from(move |kind: Kind| {
            stop(&running);
            let (st, rn, lu) = (status.clone(), running.clone(), last_url.clone());
            let on_message = move |m: Message| match m.text("kind").as_str() {
                "progress" => st.set(Status::Running {
                    kind,
                    done: m.num("done") as u32,
                    total: m.num("total") as u32,
                }),
                "done" => {
                    let bytes = m
                        .get("bytes")
                        .and_then(|v| v.dyn_into::<js_sys::Uint8Array>().ok());
                    let mime = match kind {
                        Kind::Gif => "image/gif",
                        Kind::Video => "video/webm",
                    };
                    let url = bytes.as_ref().and_then(|b| blob_url(b, mime));
                    match (bytes, url) {
                        (Some(b), Some(url)) => {
                            // The file before this one is no longer offered: free it.
                            let old = std::mem::replace(&mut *lu.borrow_mut(), url.clone());
                            if !old.is_empty() {
                                let _ = web_sys::Url::revoke_object_url(&old);
                            }
                            st.set(Status::Done {
                                kind,
                                url,
                                bytes: u64::from(b.length()),
                                frames: m.num("frames") as u32,
                                ms: m.num("ms") as u32,
                            })
                        }
                        _ => st.set(Status::Failed("the file could not be kept".into())),
                    }
                    stop(&rn);
                }
                "error" => {
                    st.set(Status::Failed(m.text("message")));
                    stop(&rn);
                }
                _ => {}
            };
            let failed = status.clone();
            let fail = Callback::from(move |e: String| failed.set(Status::Failed(e)));
            let Some((worker, on_message)) =
                spawn("record-worker.js", "the recorder", on_message, fail)
            else {
                return;
            };
            // The address on screen reopens this run (the link writer keeps it current).
            let link = web_sys::window()
                .and_then(|w| w.location().href().ok())
                .unwrap_or_default();
            let mut o = (*options).clone();
            if let Some((a, b)) = window {
                o.from_ms = o.from_ms.or(Some(a));
                o.to_ms = o.to_ms.or(Some(b));
            }
            let request = Request {
                scenario: (*run.scenario).clone(),
                options: o,
                link,
            }
            .encode();
            let msg = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&msg, &"kind".into(), &kind_name(kind).into());
            let _ = js_sys::Reflect::set(&msg, &"request".into(), &request.into());
            let _ = worker.post_message(&msg);
            status.set(Status::Running {
                kind,
                done: 0,
                total: 0,
            });
            *running.borrow_mut() = Some((worker, on_message));
        })
    };
    let cancel = {
        let (status, running) = (status.clone(), running.clone());
        Callback::from(move |_| {
            stop(&running);
            status.set(Status::Cancelled);
        })
    };
    // One handler per setting: a number in the field, or the default when it is empty.
    let field = |label: &'static str,
                 value: Option<i64>,
                 placeholder: i64,
                 (lo, hi): (i64, i64),
                 set: fn(&mut Options, Option<i64>)| {
        let options = options.clone();
        let onchange = Callback::from(move |e: Event| {
            let v = super::value_of(&e).trim().parse::<i64>().ok();
            let mut o = (*options).clone();
            set(&mut o, v.map(|v| v.clamp(lo, hi)));
            options.set(o);
        });
        html! {
            <label>
                <span>{ label }</span>
                <input type="number" inputmode="numeric" min={lo.to_string()} max={hi.to_string()}
                       value={value.map_or(String::new(), |v| v.to_string())}
                       placeholder={placeholder.to_string()} {onchange} />
            </label>
        }
    };
    let o = &*options;
    let d = Options::default();
    let busy = matches!(*status, Status::Running { .. });
    let body = match &*status {
        Status::Idle => html! {},
        Status::Running { kind, done, total } => html! {
            <div class="explore-progress" role="status">
                <progress max={(*total).max(1).to_string()} value={done.to_string()} aria-label="Frames drawn" />
                <span>{ format!("Recording the {}: frame {done} of {total}", kind.word()) }</span>
                <button type="button" class="control text" onclick={cancel.clone()}>{ "Cancel" }</button>
            </div>
        },
        Status::Cancelled => {
            html! { <p role="status">{ "Recording cancelled: no file was made." }</p> }
        }
        Status::Failed(e) => {
            html! { <p class="error" role="alert">{ format!("Recording stopped: {e}") }</p> }
        }
        Status::Done {
            kind,
            url,
            bytes,
            frames,
            ms,
        } => {
            let ext = match kind {
                Kind::Gif => "gif",
                Kind::Video => "webm",
            };
            let name = format!("{}.{ext}", props.stem);
            let took = if *ms < 1000 {
                format!("{ms} ms")
            } else {
                format!("{} s", decimal(i64::from(*ms) / 100, 1))
            };
            html! {
                <div class="record-result">
                    <p role="status">
                        <a href={url.clone()} download={name.clone()}>{ format!("Download {name}") }</a>
                        { format!(" — {}, {frames} frames, made in {took}", size_words(*bytes)) }
                    </p>
                    if *kind == Kind::Gif && still() {
                        <p class="hint">{ "No preview here: your system asks for reduced motion, and a GIF cannot be paused. The file holds the animation." }</p>
                    } else if *kind == Kind::Gif {
                        <img class="record-preview" src={url.clone()} alt={format!("The recorded GIF: {}", props.run.scenario.name)} />
                    } else {
                        <video class="record-preview" src={url.clone()} controls=true aria-label={format!("The recorded video: {}", props.run.scenario.name)} />
                    }
                </div>
            }
        }
    };
    let record_button = |kind: Kind, label: &'static str| {
        let start = start.clone();
        html! {
            <button type="button" class="control text" disabled={busy}
                    onclick={Callback::from(move |_: MouseEvent| start.emit(kind))}>{ label }</button>
        }
    };
    html! {
        <section class="record" aria-labelledby="record-title">
            <h3 id="record-title">{ "Record a time range" }</h3>
            <p class="hint">{ "Frames are drawn from the model at exact times, so the same range, size and rate make the same file anywhere. The link to this run is written into the file and onto its last frame." }</p>
            <div class="explore-bounds">
                { field("From (ms)", o.from_ms, from, (0, end), |o, v| o.from_ms = v) }
                { field("To (ms)", o.to_ms, to, (0, end), |o, v| o.to_ms = v) }
                { field("Width (px)", Some(i64::from(o.width)), i64::from(d.width), (i64::from(WIDTH.0), i64::from(WIDTH.1)), |o, v| o.width = v.map_or(720, |v| v as u32)) }
                { field("Frames per second", Some(i64::from(o.fps)), i64::from(d.fps), (i64::from(FPS.0), i64::from(FPS.1)), |o, v| o.fps = v.map_or(10, |v| v as u32)) }
                { field("Seconds", Some(i64::from(o.seconds)), i64::from(d.seconds), (i64::from(SECONDS.0), i64::from(SECONDS.1)), |o, v| o.seconds = v.map_or(12, |v| v as u32)) }
            </div>
            <div class="guide-actions" role="group" aria-label="Record">
                { record_button(Kind::Gif, "Record GIF") }
                { record_button(Kind::Video, "Record video") }
            </div>
            { body }
        </section>
    }
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Gif => "gif",
        Kind::Video => "video",
    }
}

/// Whether the reader asks for reduced motion (then an animated preview is not shown).
fn still() -> bool {
    web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-reduced-motion: reduce)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches())
}

/// A blob: URL holding `bytes` as `mime`.
fn blob_url(bytes: &js_sys::Uint8Array, mime: &str) -> Option<String> {
    let parts = js_sys::Array::of1(bytes);
    let opts = web_sys::BlobPropertyBag::new();
    opts.set_type(mime);
    let blob = web_sys::Blob::new_with_u8_array_sequence_and_options(&parts, &opts).ok()?;
    web_sys::Url::create_object_url_with_blob(&blob).ok()
}
