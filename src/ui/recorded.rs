//! Model vs reality in the browser: fetching a built-in recording of a real run when a link
//! names one (`#rec=…`, from the Lessons menu's last section, `ui::lessons`), and importing a recorded
//! trace file. What a recording *is* on the page is the session's (`session::recorded`);
//! this module only brings the bytes.
//!
//! The five lab recordings and the scenario files they ran are copied beside the app
//! (`lab/NAME.ndjson`, `lab-scenarios/NAME.json`, index.html), fetched by relative URL
//! (so a sub-path deployment works, and the CSP's `connect-src 'self'` allows it) when
//! first opened: the first load carries none of them.

use crate::session::Action;
use std::rc::Rc;
use yew::prelude::*;

/// A player never asks for a recording (a `rec=` link loads the whole app).
#[cfg(feature = "player")]
#[hook]
pub fn use_recording_fetch(wants: Option<Rc<str>>, dispatch: Callback<Action>) {
    let _ = (wants, dispatch);
}

/// Fetches the recording the session asks for, then opens it; a failed fetch says so (the
/// link's key, `rec`, first) and the run on screen stays.
#[cfg(not(feature = "player"))]
#[hook]
pub fn use_recording_fetch(wants: Option<Rc<str>>, dispatch: Callback<Action>) {
    use_effect_with(wants, move |wants| {
        if let Some(name) = wants.clone() {
            wasm_bindgen_futures::spawn_local(async move {
                let got = async {
                    let text = fetch_text(&format!("lab/{name}.ndjson")).await?;
                    let scenario = fetch_text(&format!("lab-scenarios/{name}.json")).await?;
                    Ok::<_, String>((text, scenario))
                };
                dispatch.emit(match got.await {
                    Ok((text, scenario)) => Action::OpenRecorded {
                        text,
                        scenario: Some(scenario),
                        name: Some(name.to_string()),
                    },
                    Err(e) => Action::ShowError(format!(
                        "rec: the recording \"{name}\" did not load ({e}); the run on screen is kept"
                    )),
                });
            });
        }
    });
}

#[cfg(not(feature = "player"))]
async fn fetch_text(url: &str) -> Result<String, String> {
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(|_| format!("{url}: the network request failed"))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "not a response")?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let text = response.text().map_err(|_| "unreadable")?;
    JsFuture::from(text)
        .await
        .ok()
        .and_then(|t| t.as_string())
        .ok_or_else(|| format!("{url}: unreadable"))
}

/// The import's line on the formats it reads, fixed text written as one raw node, as the
/// Share dialog's hint is (`ui::sharing`): lighter in the bundle than its elements built
/// one by one. The docs are copied into the build (`docs/`, see index.html).
#[cfg(not(feature = "player"))]
const FORMATS: &str = "<p class=\"hint\">The formats: <a href=\"docs/trace-format.md\" target=\"_blank\" rel=\"noopener\">recorded traces<span class=\"sr-only\"> (opens in a new tab)</span></a>, <a href=\"docs/jepsen.md\" target=\"_blank\" rel=\"noopener\">Jepsen histories<span class=\"sr-only\"> (opens in a new tab)</span></a>.</p>";

#[cfg(not(feature = "player"))]
/// Import → "Recorded trace": a file in the format of docs/trace-format.md or a Jepsen
/// history (docs/jepsen.md), opened as the run on screen (with no scenario beside it
/// unless its header names a built-in one).
pub fn import_field(on_action: &Callback<Action>) -> Html {
    let onchange = super::adapter::read_file(
        on_action,
        |text| Action::OpenRecorded {
            text,
            scenario: None,
            name: None,
        },
        "recorded trace: the file could not be read",
    );
    // The picker offers what the reader can open (`recorded::read` tells the formats
    // apart by their first characters): a file dialog greys out what `accept` leaves out,
    // and a Jepsen store's history is `history.edn`.
    html! {
        <>
            <label class="field">
                <span>{ "Import a recorded trace (NDJSON) or a Jepsen history (EDN or JSON)" }</span>
                <input type="file" accept=".ndjson,.jsonl,.edn,.json,application/x-ndjson,application/json" {onchange} />
            </label>
            { Html::from_html_unchecked(AttrValue::from(FORMATS)) }
        </>
    }
}
