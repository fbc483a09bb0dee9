//! The page header: the name, and the one promise the tool makes to a learner.

use yew::prelude::*;

/// What Leaseline shows, in one sentence.
pub const PROMISE: &str =
    "See why \u{201c}acquire a lock and proceed\u{201d} is unsafe \u{2014} and what fencing tokens do about it.";

/// A plain function, not a component: it has no state, and each component costs wasm size.
pub fn header() -> Html {
    html! {
        <header class="masthead">
            <h1 class="masthead-name">{ "Leaseline" }</h1>
            <p class="masthead-promise">{ PROMISE }</p>
        </header>
    }
}
