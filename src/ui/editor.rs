//! The scenario editor: a form over a [`Draft`] — the scenario's name, seed and run length;
//! the lock service (flavor, first token, token counter, clock); storage (fence, where its
//! mark is kept, idempotency, clock); the network (default delay and loss, per-link
//! overrides); each client's timing, what it does when the lease is in doubt (`on_loss`,
//! `check_before_write`, `fence_with`, `unreachable`), its retries and job; the fault list;
//! and the author's own walkthrough (each beat's time and words) and questions (each one's
//! time, words and choices, each choice naming the outcome it predicts). Validated as you
//! type, each error at its field in plain words and the field's unit (times in seconds:
//! the core's `session::form`), and kept in localStorage, so a reload never loses it.
//! It opens on the run on screen; a draft kept from an earlier visit is offered, not
//! imposed. "Run this scenario" runs it as an edit of the run on screen (undo goes back).

use super::adapter::RunProps;
use super::{css, when};
use crate::session::draft::{Draft, Kind};
use crate::session::form::{self, Problem};
use crate::session::Action;
use std::rc::Rc;
use yew::prelude::*;

const KEY: &str = "leaseline.draft";

/// One edit of the draft; it fails with a message that names the field.
type DraftEdit = dyn Fn(&mut Draft) -> Result<(), String>;

/// The editor's state handles: every edit goes through [`Ctl::apply`].
struct Ctl {
    draft: UseStateHandle<Draft>,
    typing: UseStateHandle<Option<String>>,
}

impl Ctl {
    /// Applies an edit to a copy of the draft; keeps it, or shows what was wrong (and the
    /// draft stays as it was).
    fn apply(&self, f: impl FnOnce(&mut Draft) -> Result<(), String>) {
        let mut d = (*self.draft).clone();
        match f(&mut d) {
            Ok(()) => {
                self.typing.set(None);
                self.draft.set(d);
            }
            Err(e) => self.typing.set(Some(e)),
        }
    }

    /// What the reader typed into a box: always kept (the draft says whether it reads).
    fn type_into(&self, path: &str, kind: Kind, text: &str) {
        self.apply(|d| {
            d.type_into(path, kind, text);
            Ok(())
        });
    }
}

/// How a field of the form is edited.
#[derive(Clone, Copy)]
enum W {
    /// A number box (a time in seconds, or a whole number).
    Num,
    /// A number box that may be left empty (off).
    Opt,
    /// A choice among words or nodes.
    Pick,
    Switch,
}

// The form's fields, group by group, as paths (a client's and a link's after their
// prefix): labels, units and choices come from the core's `session::form`.
const TOP: &[(&str, W)] = &[("seed", W::Num), ("horizon_ms", W::Num)];
const LOCK: &[(&str, W)] = &[
    ("coordinator.flavor", W::Pick),
    ("coordinator.first_token", W::Num),
    ("coordinator.counter", W::Pick),
    ("coordinator.clock.offset_ms", W::Num),
    ("coordinator.clock.drift_ppm", W::Num),
];
const STORAGE: &[(&str, W)] = &[
    ("storage.fence", W::Pick),
    ("storage.mark", W::Pick),
    ("storage.check_gap_ms", W::Num),
    ("storage.idempotency", W::Switch),
    ("storage.clock.offset_ms", W::Num),
    ("storage.clock.drift_ppm", W::Num),
];
const NETWORK: &[(&str, W)] = &[
    ("network.default.min_delay_ms", W::Num),
    ("network.default.max_delay_ms", W::Num),
    ("network.default.loss_pct", W::Num),
];
const LINK: &[(&str, W)] = &[
    ("from", W::Pick),
    ("to", W::Pick),
    ("min_delay_ms", W::Num),
    ("max_delay_ms", W::Num),
    ("loss_pct", W::Num),
];
const CLIENT: &[(&str, W)] = &[
    ("start_ms", W::Num),
    ("ttl_ms", W::Num),
    ("margin_ms", W::Num),
    ("count_from", W::Pick),
    ("renew_every_ms", W::Opt),
    ("clock.offset_ms", W::Num),
    ("clock.drift_ppm", W::Num),
];
const DOUBT: &[(&str, W)] = &[
    ("on_loss", W::Pick),
    ("check_before_write", W::Switch),
    ("fence_with", W::Pick),
    ("unreachable", W::Pick),
];
const RETRY: &[(&str, W)] = &[
    ("retry.interval_ms", W::Num),
    ("retry.jitter_ms", W::Num),
    ("retry.max_attempts", W::Num),
    ("timeout_ms", W::Num),
];

/// The form's controls, each tied to a field path: what the draft shows there, what is
/// wrong there (the core's plain words, linked by aria-describedby), and the edit a change
/// makes. Methods, not closures inlined at each of the form's forty-odd fields, to keep the
/// wasm small.
struct Form<'a> {
    draft: &'a Draft,
    change: &'a Rc<Ctl>,
    problems: &'a [Problem],
}

impl Form<'_> {
    /// What is wrong at `path`, if anything.
    fn why(&self, path: &str) -> Option<String> {
        self.problems
            .iter()
            .find(|p| p.path == path)
            .map(|p| p.message.clone())
    }

    /// The message under a field or a list, with the id its control points at.
    #[inline(never)]
    fn note(&self, path: &str) -> Html {
        match self.why(path) {
            Some(why) => {
                html! { <small class="field-error" id={form::error_id(path)}>{ why }</small> }
            }
            None => html! {},
        }
    }

    /// A labelled box: a time in seconds, a whole number, or text (by `kind`).
    #[inline(never)]
    fn boxed(&self, path: String, kind: Kind, placeholder: &'static str) -> Html {
        let label = form::label(&path);
        self.labelled(path, kind, placeholder, &label)
    }

    /// [`boxed`](Self::boxed) with a label of its own (a fault's time after its event).
    #[inline(never)]
    fn labelled(&self, path: String, kind: Kind, placeholder: &'static str, label: &str) -> Html {
        let change = self.change.clone();
        let p = path.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let t = super::value_of(&e);
            change.type_into(&p, kind, &t)
        });
        let bad = self.why(&path).is_some();
        let mode = match kind {
            Kind::Secs { .. } | Kind::Int { .. } => "decimal",
            _ => "text",
        };
        html! {
            <label class={css(&["field", when(bad, "invalid")])} title={path.clone()}>
                <span>{ label.to_string() }</span>
                <input type="text" inputmode={mode} value={self.draft.shown(&path)} {oninput}
                       aria-invalid={bad.to_string()}
                       aria-describedby={bad.then(|| form::error_id(&path))}
                       {placeholder} />
                { self.note(&path) }
            </label>
        }
    }

    /// A number box: a time in seconds, or a whole number (ppm, %, a count).
    fn number(&self, path: String, optional: bool) -> Html {
        let kind = Kind::number(&path, optional);
        self.boxed(path, kind, if optional { "off" } else { "" })
    }

    /// A switch (check before each write, idempotency keys honoured).
    #[inline(never)]
    fn switch(&self, path: String) -> Html {
        let change = self.change.clone();
        let p = path.clone();
        let onchange = Callback::from(move |e: Event| {
            let on = super::settings::input_checked(&e);
            change.apply(|d| d.set_flag(&p, on))
        });
        html! {
            <label class="field check" title={path.clone()}>
                <input type="checkbox" checked={self.draft.flag(&path)} {onchange} />
                <span>{ form::label(&path) }</span>
            </label>
        }
    }

    /// A part of the document as JSON: the advanced view of a list.
    #[inline(never)]
    fn json(&self, label: &str, path: String) -> Html {
        let change = self.change.clone();
        let p = path.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let t = super::value_of(&e);
            change.type_into(&p, Kind::Json, &t)
        });
        let bad = self.draft.pending(&path).is_some();
        html! {
            <label class={css(&["field wide", when(bad, "invalid")])} title={path.clone()}>
                <span>{ label.to_string() }</span>
                <textarea rows="5" spellcheck="false" value={self.draft.shown(&path)} {oninput}
                          aria-invalid={bad.to_string()}
                          aria-describedby={bad.then(|| form::error_id(&path))} />
                { self.note(&path) }
            </label>
        }
    }

    /// A choice (a fence, a policy, a node): the core lists the words and marks the current.
    #[inline(never)]
    fn choice(&self, path: String) -> Html {
        let change = self.change.clone();
        let p = path.clone();
        let onchange = Callback::from(move |e: Event| {
            let v = super::value_of(&e);
            change.apply(|d| d.set_word(&p, &v))
        });
        let bad = self.why(&path).is_some();
        let choices = self.draft.choices(&path);
        // A node field with no node of its kind left (every client removed): a select with
        // nothing in it would open on an empty list, so it says so and cannot be opened.
        let none = choices.is_empty();
        html! {
            <label class={css(&["field pick", when(bad, "invalid")])} title={path.clone()}>
                <span>{ form::label(&path) }</span>
                // Named by the label's words alone (a wrapping label would add every option).
                <select {onchange} aria-label={form::label(&path)} aria-invalid={bad.to_string()}
                        aria-describedby={bad.then(|| form::error_id(&path))} disabled={none}>
                    if none {
                        <option value="">{ "none yet: add one" }</option>
                    }
                    { for choices.into_iter().map(|c| html! { <option value={c.word} title={c.word.clone()} selected={c.selected}>{ c.label }</option> }) }
                </select>
                { self.note(&path) }
            </label>
        }
    }

    /// The fields of `list`, their paths after `prefix`.
    #[inline(never)]
    fn fields(&self, prefix: &str, list: &[(&str, W)]) -> Html {
        html! {
            { for list.iter().map(|&(k, w)| {
                let path = format!("{prefix}{k}");
                match w {
                    W::Num => self.number(path, false),
                    W::Opt => self.number(path, true),
                    W::Pick => self.choice(path),
                    W::Switch => self.switch(path),
                }
            }) }
        }
    }

    /// A fault's or a step's own field, by its key: a node is a choice, a time a number.
    fn item(&self, path: String) -> Html {
        match form::key(&path) {
            "node" | "a" | "b" | "from" | "to" | "cause" => self.choice(path),
            "key" | "value" | "name" => self.boxed(path, Kind::Text { optional: false }, ""),
            "idempotency_key" => self.boxed(path, Kind::Text { optional: true }, "none"),
            _ => self.number(path, false),
        }
    }

    /// The word at `path` (a fault's kind, a step's op), or "".
    fn word_at(&self, path: &str) -> String {
        match self.draft.get(path) {
            Some(crate::vocab::json::Json::Str(w)) => w.clone(),
            _ => String::new(),
        }
    }

    #[inline(never)]
    fn button(&self, label: String, f: Rc<DraftEdit>) -> Html {
        let change = self.change.clone();
        let onclick = Callback::from(move |_: MouseEvent| change.apply(|d| f(d)));
        html! { <button type="button" class="control text" {onclick}>{ label }</button> }
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

#[component]
pub fn Editor(props: &RunProps) -> Html {
    // A draft kept from an earlier visit, read once: offered beside the run on screen.
    let saved = use_state(|| {
        storage()
            .and_then(|s| s.get_item(KEY).ok().flatten())
            .and_then(|t| Draft::from_text(&t))
    });
    let draft = {
        let run = props.run.clone();
        use_state(move || Draft::from_scenario(&run.scenario))
    };
    // An untouched form follows the run on screen (a link followed after the first render,
    // an undo, another lesson); a form the reader has changed stays theirs.
    {
        let (draft, run) = (draft.clone(), props.run.clone());
        let last_run = use_mut_ref(|| run.clone());
        use_effect_with(Rc::as_ptr(&run) as usize, move |_| {
            if draft.is_of(&last_run.borrow().scenario) {
                draft.set(Draft::from_scenario(&run.scenario));
            }
            *last_run.borrow_mut() = run;
        });
    }
    let offer_saved = saved
        .as_ref()
        .filter(|s| s.text() != draft.text())
        .map(Draft::title);
    let typing = use_state(|| None::<String>);
    // The pickers' current kinds: the fault to add, and each client's step to add.
    let fault_pick = use_state(|| "pause".to_string());
    let step_pick = use_state(Vec::<String>::new);
    // Kept in this browser once the reader changes something (an untouched form is just
    // the run on screen, and must not overwrite the draft offered above).
    {
        let run = props.run.clone();
        use_effect_with((*draft).clone(), move |d| {
            if let (Some(s), false) = (storage(), d.is_of(&run.scenario)) {
                let _ = s.set_item(KEY, &d.text());
            }
        });
    }
    // One way in for every edit: apply it to a copy; keep it, or say what was wrong.
    let change = Rc::new(Ctl {
        draft: draft.clone(),
        typing: typing.clone(),
    });
    // What is wrong, each at its field: plain words in the field's unit (the core's
    // `form`), tied to the box by aria-describedby.
    let problems = draft.problems();
    let f = Form {
        draft: &draft,
        change: &change,
        problems: &problems,
    };
    let name_input = {
        let change = change.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let t = super::value_of(&e);
            change.type_into("name", Kind::Text { optional: false }, &t)
        });
        html! {
            <label class="field wide">
                <span>{ "Name" }</span>
                <input type="text" value={draft.shown("name")} {oninput} />
            </label>
        }
    };
    // The fault list: one row per fault (its kind, its time, that kind's fields), and a
    // picker of kinds to add one; the JSON stays as an advanced view.
    let fault_rows = html! {
        <fieldset class="group faults">
            <legend>{ "Faults" }</legend>
            if draft.len("faults") == 0 { <p class="hint">{ "No faults: everything runs as planned." }</p> }
            { for (0..draft.len("faults")).map(|n| {
                let item = format!("faults[{n}]");
                let word = f.word_at(&format!("{item}.fault"));
                let fields = form::fault_form(&word).map_or(&[][..], |k| k.fields);
                // A fault placed by an event: whose, which time, and how long after it;
                // and where that puts it in the run on screen.
                let follows = !f.word_at(&format!("{item}.after")).is_empty();
                let at = format!("{item}.at_ms");
                let placed = draft.fault_when(n, &props.run.trace);
                html! {
                    <fieldset class="row fault-row">
                        <legend>{ format!("Fault {}", n + 1) }</legend>
                        <div class="fields">
                            { f.choice(format!("{item}.fault")) }
                            { f.choice(format!("{item}.after")) }
                            if follows {
                                { f.choice(format!("{item}.client")) }
                                { f.boxed(format!("{item}.nth"), Kind::Int { optional: true }, "1st") }
                                { f.labelled(at.clone(), Kind::Secs { optional: false }, "", "After it by (s)") }
                            } else {
                                { f.number(at, false) }
                            }
                            { for fields.iter().map(|(k, _)| f.item(format!("{item}.{k}"))) }
                        </div>
                        if let Some(p) = placed { <p class="hint fault-when">{ p }</p> }
                        { f.button(format!("Remove fault {}", n + 1), Rc::new(move |d: &mut Draft| d.remove("faults", n))) }
                    </fieldset>
                }
            }) }
            { f.note("faults") }
            <div class="adder">
                <label class="field">
                    <span>{ "Kind of fault to add" }</span>
                    <select aria-label="Kind of fault to add" onchange={{
                        let pick = fault_pick.clone();
                        Callback::from(move |e: Event| pick.set(super::value_of(&e)))
                    }}>
                        { for form::FAULTS.iter().map(|k| html! { <option value={k.word} selected={*fault_pick == k.word}>{ k.label }</option> }) }
                    </select>
                </label>
                { f.button("Add this fault".into(), { let w = (*fault_pick).clone(); Rc::new(move |d: &mut Draft| d.add_fault(&w)) }) }
            </div>
            <details class="advanced">
                <summary>{ "Advanced: JSON" }</summary>
                { f.json("Faults (JSON)", "faults".into()) }
            </details>
        </fieldset>
    };
    // An author's own walkthrough: one row per beat (when it is told, what it says).
    let beat_rows = html! {
        <fieldset class="group walkthrough-beats">
            <legend>{ "Your walkthrough" }</legend>
            if draft.len("walkthrough") == 0 {
                <p class="hint">{ "No beats of your own. Add one to tell the run in your words, beside the diagram (in an embed too)." }</p>
            }
            { for (0..draft.len("walkthrough")).map(|n| {
                let item = format!("walkthrough[{n}]");
                html! {
                    <fieldset class="row beat-row">
                        <legend>{ format!("Beat {}", n + 1) }</legend>
                        <div class="fields">
                            { f.number(format!("{item}.at_ms"), false) }
                            { f.boxed(format!("{item}.text"), Kind::Text { optional: false }, "") }
                            { f.choice(format!("{item}.highlight")) }
                        </div>
                        { f.button(format!("Remove beat {}", n + 1), Rc::new(move |d: &mut Draft| d.remove("walkthrough", n))) }
                    </fieldset>
                }
            }) }
            { f.note("walkthrough") }
            <div class="adder">
                { f.button("Add a beat".into(), Rc::new(|d: &mut Draft| d.add_beat())) }
            </div>
        </fieldset>
    };
    // An author's own questions: one row per question (when the run is watched from, what
    // is asked, what is told after) and per choice (its words, the outcome it names). No
    // answer is entered: the run gives it.
    let question_rows = html! {
        <fieldset class="group authored-questions">
            <legend>{ "Your questions" }</legend>
            if draft.len("questions") == 0 {
                <p class="hint">{ "No questions of your own. Add one: the run stops before the first of its choices' outcomes after its time, and the run decides which choice was right." }</p>
            }
            { for (0..draft.len("questions")).map(|n| {
                let item = format!("questions[{n}]");
                let choices = format!("{item}.choices");
                html! {
                    <fieldset class="row question-row">
                        <legend>{ format!("Question {}", n + 1) }</legend>
                        <div class="fields">
                            { f.number(format!("{item}.at_ms"), false) }
                            { f.boxed(format!("{item}.prompt"), Kind::Text { optional: false }, "") }
                            { f.boxed(format!("{item}.explain"), Kind::Text { optional: true }, "") }
                        </div>
                        { for (0..draft.len(&choices)).map(|c| html! {
                            <div class="fields choice-row">
                                { f.boxed(format!("{choices}[{c}].text"), Kind::Text { optional: false }, "") }
                                { f.choice(format!("{choices}[{c}].outcome")) }
                                { f.button(format!("Remove choice {} of question {}", c + 1, n + 1), { let list = choices.clone(); Rc::new(move |d: &mut Draft| d.remove(&list, c)) }) }
                            </div>
                        }) }
                        { f.note(&choices) }
                        { f.button(format!("Add a choice to question {}", n + 1), Rc::new(move |d: &mut Draft| d.add_choice(n))) }
                        { f.button(format!("Remove question {}", n + 1), Rc::new(move |d: &mut Draft| d.remove("questions", n))) }
                    </fieldset>
                }
            }) }
            { f.note("questions") }
            <div class="adder">
                { f.button("Add a question".into(), Rc::new(|d: &mut Draft| d.add_question())) }
            </div>
        </fieldset>
    };
    // A client's job: one row per step (its kind and that kind's fields), and a picker.
    let step_rows = |i: usize| {
        let job = format!("clients[{i}].job");
        let pick = step_pick
            .get(i)
            .cloned()
            .unwrap_or_else(|| "work".to_string());
        let on_pick = {
            let step_pick = step_pick.clone();
            Callback::from(move |e: Event| {
                let mut v = (*step_pick).clone();
                v.resize(v.len().max(i + 1), "work".to_string());
                v[i] = super::value_of(&e);
                step_pick.set(v);
            })
        };
        html! {
            <div class="steps">
                <p class="group-title">{ "Job steps" }</p>
                <ol class="step-list">
                    { for (0..draft.len(&job)).map(|j| {
                        let item = format!("{job}[{j}]");
                        let word = f.word_at(&format!("{item}.op"));
                        let job = job.clone();
                        html! {
                            <li class="step-row" role="group" aria-label={format!("Client {}, step {}", i + 1, j + 1)}>
                                <div class="fields">
                                    { f.choice(format!("{item}.op")) }
                                    { for form::step_fields(&word).into_iter().map(|k| f.item(format!("{item}.{k}"))) }
                                </div>
                                { f.button(format!("Remove step {}", j + 1), Rc::new(move |d: &mut Draft| d.remove(&job, j))) }
                            </li>
                        }
                    }) }
                </ol>
                { f.note(&job) }
                <div class="adder">
                    <label class="field">
                        <span>{ "Kind of step to add" }</span>
                        <select aria-label="Kind of step to add" onchange={on_pick}>
                            { for form::STEPS.iter().map(|k| html! { <option value={k.word} selected={pick == k.word}>{ k.label }</option> }) }
                        </select>
                    </label>
                    { f.button("Add this step".into(), Rc::new(move |d: &mut Draft| d.add_step(i, &pick))) }
                </div>
                <details class="advanced">
                    <summary>{ "Advanced: JSON" }</summary>
                    { f.json("Job steps (JSON)", job.clone()) }
                </details>
            </div>
        }
    };
    let checked = draft.check();
    let status = match (&*typing, &checked, problems.first()) {
        (Some(e), _, _) => (false, e.clone()),
        (None, _, Some(p)) => (
            false,
            match problems.len() {
                1 => format!("Not ready to run. {}", p.whole()),
                n => format!(
                    "Not ready to run. {} (and {} more, marked below)",
                    p.whole(),
                    n - 1
                ),
            },
        ),
        (None, Err(e), None) => (false, e.to_string()),
        (None, Ok(sc), _) => (
            true,
            format!(
                "Valid: {} client(s), {} fault(s). Run it to see what happens.",
                sc.clients.len(),
                sc.faults.len()
            ),
        ),
    };
    let run_it = {
        let (cb, draft) = (props.on_action.clone(), draft.clone());
        Callback::from(move |_: MouseEvent| cb.emit(Action::RunDraft(draft.text())))
    };
    let from_run = {
        let (draft, typing, run) = (draft.clone(), typing.clone(), props.run.clone());
        Callback::from(move |_: MouseEvent| {
            typing.set(None);
            draft.set(Draft::from_scenario(&run.scenario));
        })
    };
    let restore = {
        let (draft, saved, typing) = (draft.clone(), saved.clone(), typing.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(s) = (*saved).clone() {
                typing.set(None);
                draft.set(s);
            }
        })
    };
    html! {
        <>
            if let Some(what) = offer_saved {
                <p class="hint">
                    { format!("This browser kept your draft from last time ({what}). ") }
                    <button type="button" class="link" onclick={restore}>{ "Restore it" }</button>
                </p>
            }
            <p class={css(&["status", if status.0 { "ok" } else { "bad" }])} role="status" aria-live="polite">{ status.1.clone() }</p>
            <div class="guide-actions">
                <button type="button" class="action" disabled={!status.0} onclick={run_it}>{ "Run this scenario" }</button>
                <button type="button" class="control text" onclick={from_run}>{ "Start from the run on screen" }</button>
            </div>
            <div class="fields">
                { name_input }
                { f.fields("", TOP) }
            </div>
            <fieldset class="group">
                <legend>{ "Lock service" }</legend>
                <div class="fields">{ f.fields("", LOCK) }</div>
                <p class="hint">{ crate::teach::narrate::PPM }</p>
            </fieldset>
            <fieldset class="group">
                <legend>{ "Storage" }</legend>
                <div class="fields">{ f.fields("", STORAGE) }</div>
            </fieldset>
            <fieldset class="group">
                <legend>{ "Network" }</legend>
                <p class="hint">{ "Every link, unless it has a line of its own below." }</p>
                <div class="fields">{ f.fields("", NETWORK) }</div>
                { for (0..draft.len("network.links")).map(|l| html! {
                    <fieldset class="row">
                        <legend>{ format!("Link {}", l + 1) }</legend>
                        <div class="fields">{ f.fields(&format!("network.links[{l}]."), LINK) }</div>
                        { f.button(format!("Remove link {}", l + 1), Rc::new(move |d: &mut Draft| d.remove("network.links", l))) }
                    </fieldset>
                }) }
                { f.button("Add a slower or lossy link".into(), Rc::new(|d: &mut Draft| d.add_link())) }
            </fieldset>
            { for (0..draft.clients()).map(|i| {
                let c = format!("clients[{i}].");
                html! {
                    <fieldset class="client">
                        <legend>{ format!("Client {}", i + 1) }</legend>
                        <div class="fields">{ f.fields(&c, CLIENT) }</div>
                        <p class="group-title">{ "When the lease is in doubt" }</p>
                        <div class="fields">{ f.fields(&c, DOUBT) }</div>
                        <p class="group-title">{ "Retries" }</p>
                        <div class="fields">{ f.fields(&c, RETRY) }</div>
                        { step_rows(i) }
                        { f.button(format!("Remove client {}", i + 1), Rc::new(move |d: &mut Draft| d.remove_client(i))) }
                    </fieldset>
                }
            }) }
            { f.button("Add a client".into(), Rc::new(|d: &mut Draft| d.add_client())) }
            { fault_rows }
            { beat_rows }
            { question_rows }
        </>
    }
}
