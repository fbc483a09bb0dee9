//! The transcript: every notable event of the run as a line of text, each with a jump to
//! it. It is the diagram for a reader who cannot see the drawing (the live region only
//! speaks as the cursor passes; this reads at any pace), and a study sheet for one who can.
//! The lines come from the core ([`crate::teach::narrate::transcript`]); this only lists them.

use super::adapter::RunProps;
use super::on;
use crate::session::carries::PageKit;
use crate::session::Action;
use crate::teach::narrate::{ending, transcript_with};
use crate::vocab::numbers::secs;
use yew::prelude::*;

#[component]
pub fn Transcript(props: &RunProps) -> Html {
    let run = &props.run;
    let lines = transcript_with::<PageKit>(&run.trace, &run.verdict, &run.projection);
    html! {
        <details class="panel transcript">
            <summary>{ format!("Transcript: {} events", lines.len()) }</summary>
            <ol>
                { for lines.into_iter().map(|l| {
                    html! {
                        <li>
                            <button type="button" class="link" onclick={on(&props.on_action, Action::SeekEntry(l.step))}>
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
