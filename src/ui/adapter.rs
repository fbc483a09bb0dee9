//! The session, plugged into Yew: the `Reducible` adapter and the props of run-only panels.
//!
//! Everything the page decides is [`crate::session::Session::reduce`]'s, tested natively;
//! this file only tells Yew to call it.

use crate::session::{Action, Run, Session};
use std::rc::Rc;
use yew::prelude::*;

impl Reducible for Session {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Session::reduce(self, action)
    }
}

/// The props of a panel that reads only the run and speaks only in actions (the editor,
/// export and import, the transcript). They compare by the run's pointer, so such a panel
/// renders once per run, not once per frame.
#[derive(Properties)]
pub struct RunProps {
    pub run: Rc<Run>,
    pub on_action: Callback<Action>,
}

impl PartialEq for RunProps {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.run, &o.run) && self.on_action == o.on_action
    }
}

/// A file input's change: reads the chosen file as text and emits `make(text)`, or the
/// `unreadable` message as an error.
#[cfg(not(feature = "player"))]
pub(super) fn read_file(
    cb: &Callback<Action>,
    make: fn(String) -> Action,
    unreadable: &'static str,
) -> Callback<Event> {
    let cb = cb.clone();
    Callback::from(move |e: Event| {
        let file = e
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(t).ok())
            .and_then(|i| i.files())
            .and_then(|f| f.get(0));
        if let Some(file) = file {
            let cb = cb.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
                cb.emit(match text.ok().and_then(|t| t.as_string()) {
                    Some(t) => make(t),
                    None => Action::ShowError(unreadable.into()),
                });
            });
        }
    })
}
