//! The page header: the name, and the one promise the tool makes to a learner.

use yew::prelude::*;

use crate::teach::narrate::PROMISE;

/// A plain function, not a component: it has no state, and each component costs wasm size.
pub fn header() -> Html {
    html! {
        <header class="masthead">
            <h1 class="masthead-name">{ "Leaseline" }</h1>
            <p class="masthead-promise">{ PROMISE }</p>
        </header>
    }
}
