//! The root component: page structure only. Each part is a leaf that receives data and
//! (later) emits callbacks; state will live in one reducer here, not in the leaves.

use yew::prelude::*;

use super::controls::Controls;
use super::diagram::Diagram;
use super::footer::Footer;
use super::header::Header;

/// The whole page.
#[component]
pub fn App() -> Html {
    html! {
        <div class="shell">
            <Header />
            <main id="main" class="stage">
                <Diagram />
                <Controls />
            </main>
            <Footer />
        </div>
    }
}
