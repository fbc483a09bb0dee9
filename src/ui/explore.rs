//! The Explore panel: "does this hold, and if not, how does it break?" for the scenario on
//! screen. The search (`analysis::explore`) runs in a Web Worker with its own wasm
//! (`src/bin/explore_worker.rs`, `static/explore-worker.js`), loaded only when a reader
//! starts one, so the page never freezes and the first load does not grow. Its progress
//! shows as it goes, with each way it breaks listed as soon as the worker finds it (the
//! final report then replaces the list, its examples shrunk and sorted); Cancel terminates
//! the worker at once. Each way it breaks is a run to open (at its first violation), here
//! or in a new tab, and opening one keeps the search and the list; none within the bounds
//! is said as exactly that — safe within these bounds, not safe.

use crate::analysis::explore::fault::FaultClass;
use crate::analysis::explore::request::Request;
use crate::session::Action;
use crate::session::Run;
use crate::teach::holds::headline;
use crate::vocab::numbers::decimal;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// A class of the report (`analysis::explore::report::class_json`), as the worker sent it.
type Found = Rc<Vec<Rc<serde_json::Value>>>;

#[derive(Clone, PartialEq)]
enum Status {
    Idle,
    Running {
        tried: u64,
        total: u64,
        violating: u64,
        /// Schedules per second so far.
        rate: u64,
        /// The classes found so far, in the order found.
        found: Found,
    },
    Cancelled {
        tried: u64,
    },
    Done(Rc<serde_json::Value>),
    Failed(String),
}

/// The worker and its message handler, kept alive together while it runs.
pub(super) type Running = Option<(web_sys::Worker, Closure<dyn FnMut(web_sys::MessageEvent)>)>;

/// `name` beside the app's own files (its JS is named in boot.js's tag), so a sub-path
/// build finds the worker under its prefix .
fn asset(name: &str) -> String {
    let js = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector("script[data-wasm]").ok().flatten())
        .and_then(|t| t.get_attribute("data-js"))
        .unwrap_or_default();
    let dir = js.rfind('/').map_or("", |i| &js[..=i]);
    format!("{dir}{name}")
}

/// A message from a worker: an object with a `kind` and its fields.
pub(super) struct Message(JsValue);

impl Message {
    pub(super) fn get(&self, key: &str) -> Option<JsValue> {
        js_sys::Reflect::get(&self.0, &key.into()).ok()
    }
    pub(super) fn num(&self, key: &str) -> f64 {
        self.get(key).and_then(|v| v.as_f64()).unwrap_or(0.0)
    }
    pub(super) fn text(&self, key: &str) -> String {
        self.get(key)
            .and_then(|v| v.as_string())
            .unwrap_or_default()
    }
}

/// Starts the module worker `script` (beside the app's files), handing each of its
/// messages to `on_message`, and returns it with its handler, to be kept alive while it
/// runs. `fail` hears, in words that follow the worker's `name`, when it cannot start,
/// fails to load, or stops with an error.
pub(super) fn spawn(
    script: &str,
    name: &'static str,
    mut on_message: impl FnMut(Message) + 'static,
    fail: Callback<String>,
) -> Running {
    let on_message =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            on_message(Message(e.data()))
        });
    let opts = web_sys::WorkerOptions::new();
    opts.set_type(web_sys::WorkerType::Module);
    let Ok(worker) = web_sys::Worker::new_with_options(&asset(script), &opts) else {
        fail.emit(format!("the browser could not start {name}"));
        return None;
    };
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // A script that cannot load fires a bare `error`; an error thrown while it runs (a
    // trap, memory exhausted) fires one with a message. Either is said in the panel, and
    // handled here, so that it is not also reported as the page's own uncaught error.
    let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
        e.prevent_default();
        let message = js_sys::Reflect::get(&e, &"message".into())
            .ok()
            .and_then(|m| m.as_string())
            .filter(|m| !m.is_empty());
        fail.emit(match message {
            None => format!("{name} failed to load (the network may be down)"),
            Some(m) => format!("{name} stopped with an error ({m}); the run on screen is unharmed"),
        })
    });
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    on_error.forget();
    Some((worker, on_message))
}

pub(super) fn stop(running: &RefCell<Running>) {
    if let Some((w, _)) = running.borrow_mut().take() {
        w.terminate();
    }
}

/// What one search is asked: K, the kinds of fault, whether to drop the scenario's own
/// faults, the longest length.
struct Ask {
    k: u8,
    kinds: Vec<FaultClass>,
    clean: bool,
    pause_ms: i64,
}

/// The digests of the runs the panel lists (found so far, or reported): opening one of
/// them is not a new scenario to search.
fn listed(status: &Status) -> Vec<String> {
    let digest = |c: &serde_json::Value| c["digest"].as_str().unwrap_or_default().to_string();
    match status {
        Status::Running { found, .. } => found.iter().map(|c| digest(c)).collect(),
        Status::Done(r) => r["classes"]
            .as_array()
            .map_or(Vec::new(), |cs| cs.iter().map(digest).collect()),
        _ => Vec::new(),
    }
}

#[derive(Properties)]
pub struct ExploreProps {
    pub run: Rc<Run>,
    pub on_action: Callback<Action>,
    /// The serial of a search the session asks for (`Effect::Explore`): a new one starts a
    /// search of the run on screen, and tells the session it is done.
    pub asks: Option<u32>,
}

impl PartialEq for ExploreProps {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.run, &o.run) && self.asks == o.asks
    }
}

#[component]
pub fn Explore(props: &ExploreProps) -> Html {
    let status = use_state(|| Status::Idle);
    let faults = use_state(|| 1u8);
    let max_pause_s = use_state(|| None::<i64>);
    // Start from the scenario without its own faults: how else can it break?
    let clean = use_state(|| false);
    // The kinds of fault the search may add (all, to begin with).
    let kinds = use_state(|| FaultClass::ALL.to_vec());
    // When the search started (performance.now), for the rate and what remains.
    let started = use_mut_ref(|| 0.0f64);
    let running =
        use_mut_ref(|| None::<(web_sys::Worker, Closure<dyn FnMut(web_sys::MessageEvent)>)>);
    // The classes the running search has sent, by their index in the order found.
    let live = use_mut_ref(Vec::<Rc<serde_json::Value>>::new);
    // Searches started, for `data-search` (a test waits for its own search's answer).
    let searches = use_mut_ref(|| 0u32);
    // The schedules the running search has found to try, for a headline if it stops early.
    let total = use_mut_ref(|| 0u64);
    // A new scenario makes the last answer stale, and a search still running answers the
    // old one: stop it — unless the run on screen is one the panel lists (the reader
    // opened a counterexample, and may open the next).
    {
        let (status, running) = (status.clone(), running.clone());
        use_effect_with(props.run.digest.clone(), move |digest| {
            if !listed(&status).contains(digest) {
                stop(&running);
                status.set(Status::Idle);
            }
        });
    }
    {
        let running = running.clone();
        use_effect_with((), move |_| move || stop(&running));
    }
    let ttl = props
        .run
        .scenario
        .clients
        .iter()
        .map(|c| c.ttl_ms)
        .max()
        .unwrap_or(0);
    let default_pause = (2 * ttl).clamp(1, props.run.scenario.horizon_ms.max(1));
    let pause_ms = max_pause_s.map_or(default_pause, |s| s * 1000);

    let start = {
        let (status, running, run) = (status.clone(), running.clone(), props.run.clone());
        let (started, live, searches) = (started.clone(), live.clone(), searches.clone());
        let total = total.clone();
        Callback::from(move |ask: Ask| {
            stop(&running);
            live.borrow_mut().clear();
            *total.borrow_mut() = 0;
            let total = total.clone();
            *searches.borrow_mut() += 1;
            let now = super::hooks::now;
            *started.borrow_mut() = now();
            let (st, rn, t0) = (status.clone(), running.clone(), started.clone());
            let live = live.clone();
            let on_message = move |m: Message| {
                let num = |k: &str| m.num(k) as u64;
                match m.text("kind").as_str() {
                    "progress" => {
                        // New classes, and better examples of known ones: `[[index, class]…]`.
                        let found = m.text("found");
                        if let Ok(serde_json::Value::Array(items)) = serde_json::from_str(&found) {
                            let mut live = live.borrow_mut();
                            for item in items {
                                let (Some(i), Some(c)) = (item[0].as_u64(), item.get(1)) else {
                                    continue;
                                };
                                let (i, c) = (i as usize, Rc::new(c.clone()));
                                if i < live.len() {
                                    live[i] = c;
                                } else if i == live.len() {
                                    live.push(c);
                                }
                            }
                        }
                        *total.borrow_mut() = num("total");
                        let secs = ((now() - *t0.borrow()) / 1000.0).max(0.001);
                        st.set(Status::Running {
                            tried: num("tried"),
                            total: num("total"),
                            violating: num("violating"),
                            rate: (num("tried") as f64 / secs) as u64,
                            found: Rc::new(live.borrow().clone()),
                        })
                    }
                    "done" => {
                        let text = m.text("report");
                        st.set(match serde_json::from_str::<serde_json::Value>(&text) {
                            Ok(v) => match v["error"].as_str() {
                                Some(e) => Status::Failed(e.to_string()),
                                None => Status::Done(Rc::new(v)),
                            },
                            Err(e) => Status::Failed(format!("report: {e}")),
                        });
                        stop(&rn);
                    }
                    _ => {}
                }
            };
            let failed = status.clone();
            let fail = Callback::from(move |e: String| failed.set(Status::Failed(e)));
            let Some((worker, on_message)) =
                spawn("explore-worker.js", "the search's worker", on_message, fail)
            else {
                return;
            };
            let request = Request {
                scenario: (*run.scenario).clone(),
                max_faults: ask.k,
                max_len_ms: ask.pause_ms,
                clean: ask.clean,
                classes: ask.kinds,
            }
            .encode();
            let _ = worker.post_message(&JsValue::from_str(&request));
            status.set(Status::Running {
                tried: 0,
                total: 0,
                violating: 0,
                rate: 0,
                found: Rc::default(),
            });
            *running.borrow_mut() = Some((worker, on_message));
        })
    };
    // "Does this fix hold?": open the panel and search the run on screen at once, within
    // the bounds a fix is held to (`teach::holds`, and the test that explores every
    // built-in fix): one added fault of every kind, lengths up to the default — shown in
    // the form as if chosen there.
    {
        let start = start.clone();
        let (faults, kinds, clean, max_pause_s) = (
            faults.clone(),
            kinds.clone(),
            clean.clone(),
            max_pause_s.clone(),
        );
        let on_action = props.on_action.clone();
        use_effect_with(props.asks, move |&asks| {
            if let Some(n) = asks {
                on_action.emit(Action::Done(n));
                faults.set(1);
                kinds.set(FaultClass::ALL.to_vec());
                clean.set(false);
                max_pause_s.set(None);
                start.emit(Ask {
                    k: 1,
                    kinds: FaultClass::ALL.to_vec(),
                    clean: false,
                    pause_ms: default_pause,
                });
            }
        });
    }
    let cancel = {
        let (status, running) = (status.clone(), running.clone());
        Callback::from(move |_| {
            let tried = match &*status {
                Status::Running { tried, .. } => *tried,
                _ => 0,
            };
            stop(&running);
            status.set(Status::Cancelled { tried });
        })
    };
    let on_faults = {
        let faults = faults.clone();
        Callback::from(move |e: Event| {
            if let Ok(k) = super::value_of(&e).parse::<u8>() {
                faults.set(k.clamp(1, 3));
            }
        })
    };
    let on_pause = {
        let max_pause_s = max_pause_s.clone();
        Callback::from(move |e: Event| {
            let v = super::value_of(&e);
            max_pause_s.set(v.parse::<i64>().ok().filter(|s| *s > 0));
        })
    };
    let on_clean = {
        let clean = clean.clone();
        Callback::from(move |e: Event| {
            let on = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
                .is_some_and(|i| i.checked());
            clean.set(on);
        })
    };
    let kind_box = |c: FaultClass| {
        let kinds = kinds.clone();
        let on = kinds.contains(&c);
        let toggle = Callback::from(move |_| {
            let mut v: Vec<FaultClass> = (*kinds).clone();
            if v.contains(&c) {
                v.retain(|x| *x != c);
            } else {
                v.push(c);
                v.sort();
            }
            kinds.set(v);
        });
        html! {
            <label class="check">
                <input type="checkbox" checked={on} onchange={toggle} />
                <span>{ c.name() }</span>
            </label>
        }
    };
    let (k, chosen, on_clean_now) = (*faults, (*kinds).clone(), *clean);
    let busy = matches!(*status, Status::Running { .. });
    let search = *searches.borrow();
    let body = match &*status {
        Status::Idle => html! {},
        Status::Running {
            tried,
            total,
            violating,
            rate,
            found,
        } => {
            // "Total" grows as each depth is found, so what remains is an estimate.
            let left = total
                .saturating_sub(*tried)
                .checked_div(*rate)
                .map_or(String::new(), |s| format!(", about {s} s left"));
            html! {
                <>
                    <div class="explore-progress" role="status">
                        <progress max={(*total).max(1).to_string()} value={tried.to_string()} aria-label="Schedules tried" />
                        <span>{ format!("{tried} of {total} schedules tried ({rate}/s{left}), {violating} violating") }</span>
                    </div>
                    if !found.is_empty() {
                        <p>{ format!("{} way{} it breaks so far; each example may still get smaller before the end:", found.len(), if found.len() == 1 { "" } else { "s" }) }</p>
                        <ol class="explore-classes" aria-busy="true">
                            { for found.iter().map(|c| class_item(c, &props.on_action)) }
                        </ol>
                    }
                </>
            }
        }
        Status::Cancelled { tried } => html! {
            <div class="explore-result" role="status">
                <p>{ format!("Cancelled after {tried} schedules: nothing is claimed.") }</p>
                <p class="explore-headline"><strong>{ headline(0, false, *tried, *total.borrow()) }</strong></p>
            </div>
        },
        Status::Failed(e) => {
            html! { <p class="error" role="alert">{ format!("Explore stopped: {e}") }</p> }
        }
        Status::Done(report) => results(report, &props.on_action, search, *total.borrow()),
    };
    html! {
        <>
            <p class="hint">{ "Adds up to K faults (pauses, cuts, clock jumps, delays, restarts…) at the moments this run makes critical, and reports each distinct way it breaks as a run you can open." }</p>
            <fieldset class="explore-kinds" disabled={matches!(*status, Status::Running { .. })}>
                <legend>{ "Faults it may add" }</legend>
                { for FaultClass::ALL.into_iter().map(kind_box) }
            </fieldset>
            <div class="explore-bounds">
                <label>
                    <span>{ "Faults added (K)" }</span>
                    <select onchange={on_faults} disabled={busy}>
                        { for (1..=3u8).map(|k| html! { <option value={k.to_string()} selected={k == *faults}>{ k }</option> }) }
                    </select>
                </label>
                <label>
                    <span>{ "Longest pause or delay (s)" }</span>
                    <input type="number" min="1" step="1" value={(pause_ms / 1000).to_string()} onchange={on_pause} disabled={busy} />
                </label>
                <label class="check">
                    <input type="checkbox" checked={*clean} onchange={on_clean} disabled={busy} />
                    <span>{ "Without the scenario's own faults" }</span>
                </label>
                if busy {
                    <button type="button" class="control text" onclick={cancel}>{ "Cancel" }</button>
                } else {
                    <button type="button" class="control text" onclick={start.reform(move |_| Ask { k, kinds: chosen.clone(), clean: on_clean_now, pause_ms })} disabled={kinds.is_empty()}>{ "Explore" }</button>
                }
            </div>
            { body }
        </>
    }
}

/// One way it breaks: its sentence, and its run to open here or in a new tab.
fn class_item(c: &serde_json::Value, on_action: &Callback<Action>) -> Html {
    let link = c["link"].as_str().unwrap_or_default().to_string();
    let open = {
        let (cb, link) = (on_action.clone(), link.clone());
        Callback::from(move |_| cb.emit(Action::Navigate(link.clone())))
    };
    let href = format!("{}{link}", super::sharing::base());
    html! {
        <li data-digest={c["digest"].as_str().unwrap_or_default().to_string()}>
            <p>{ c["summary"].as_str().unwrap_or_default() }</p>
            <button type="button" class="control text" onclick={open}>{ "Open this run" }</button>
            { " " }
            <a href={href} target="_blank" rel="noopener">{ "in a new tab" }</a>
        </li>
    }
}

/// The final report (`search`: which search of this panel it answers; `total`: the
/// schedules it had found to try), ending in its one-line headline.
fn results(r: &serde_json::Value, on_action: &Callback<Action>, search: u32, total: u64) -> Html {
    let n = |k: &str| r[k].as_u64().unwrap_or(0);
    let b = &r["bounds"];
    let bounds = format!(
        "up to {} added fault{}, pauses and delays up to {} s",
        b["max_faults"].as_u64().unwrap_or(0),
        if b["max_faults"].as_u64() == Some(1) {
            ""
        } else {
            "s"
        },
        decimal(b["max_pause_ms"].as_i64().unwrap_or(0), 3),
    );
    let counts = format!(
        "{} schedules tried, {} distinct runs",
        n("schedules"),
        n("distinct_runs")
    );
    let classes = r["classes"].as_array().cloned().unwrap_or_default();
    let complete = r["ended"].as_str() == Some("complete");
    let line = headline(classes.len(), complete, n("schedules"), total);
    let headline = html! { <p class="explore-headline"><strong>{ line }</strong></p> };
    // Safe because nothing gets done: said wherever the search says "safe".
    let standstill = r["standstill"]
        .as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .map(crate::analysis::explore::report::standstill_words);
    let standstill = html! {
        if let Some(words) = standstill {
            <p class="standstill">{ words }</p>
        }
    };
    if classes.is_empty() {
        return html! {
            <div class="explore-result" role="status" data-search={search.to_string()}>
                if complete {
                    <p><strong>{ "Safe within these bounds" }</strong>{ format!(" ({bounds}). {counts}.") }</p>
                    { standstill }
                    <p class="hint">{ "Only within them: a longer pause or one more fault is not covered. A fence holds whatever the pause; a timing fix holds only for the pauses it was sized for." }</p>
                } else {
                    <p>{ format!("No violation found in {counts}, but the search stopped at its budget before the end, so nothing is claimed.") }</p>
                }
                { headline }
            </div>
        };
    }
    html! {
        <div class="explore-result" data-search={search.to_string()}>
            <p role="status">
                <strong>{ format!("{} way{} it breaks", classes.len(), if classes.len() == 1 { "" } else { "s" }) }</strong>
                { format!(" ({bounds}). {counts}.") }
                if r["breaks_as_given"].as_bool() == Some(true) {
                    { " It already breaks with no fault added." }
                }
            </p>
            { standstill }
            <ol class="explore-classes">
                { for classes.iter().map(|c| class_item(c, on_action)) }
            </ol>
            { headline }
        </div>
    }
}
