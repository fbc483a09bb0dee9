//! The transcript: every notable event of the run as a line of text, each with a jump to
//! it. It is the diagram for a reader who cannot see the drawing (the live region only
//! speaks as the cursor passes; this reads at any pace), and a study sheet for one who can.
//! The lines come from the core ([`crate::narrate::transcript`]); this only lists them.

use super::model::{Action, Run};
use crate::narrate::{ending, secs, transcript};
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties)]
pub struct TranscriptProps {
    pub run: Rc<Run>,
    pub on_action: Callback<Action>,
}

impl PartialEq for TranscriptProps {
    fn eq(&self, o: &Self) -> bool {
        // Same run, same transcript: rendered once per run, not once per frame.
        Rc::ptr_eq(&self.run, &o.run) && self.on_action == o.on_action
    }
}

#[component]
pub fn Transcript(props: &TranscriptProps) -> Html {
    let run = &props.run;
    let lines = transcript(&run.trace, &run.verdict, &run.projection);
    html! {
        <details class="panel transcript">
            <summary>{ format!("Transcript: {} events", lines.len()) }</summary>
            <ol>
                { for lines.into_iter().map(|l| {
                    let cb = props.on_action.clone();
                    let step = l.step;
                    html! {
                        <li>
                            <button type="button" class="link" onclick={Callback::from(move |_| cb.emit(Action::SeekEntry(step)))}>
                                { format!("t = {}", secs(l.at.0)) }
                            </button>
                            { " " }{ l.text }
                        </li>
                    }
                }) }
            </ol>
            <p class="ending">{ ending(&run.verdict) }</p>
        </details>
    }
}
