//! The explore search in a Web Worker (issue #15): the page never freezes while it runs.
//!
//! `static/explore-worker.js` loads this module in a worker and calls [`explore`] with the
//! request the Explore panel sent; the search reports its progress through the callback
//! and returns the same JSON report as `leaseline explore --format json` (built by the
//! same function, so the browser and the command line cannot disagree). Cancel is the
//! page terminating the worker: the search needs no way to be interrupted from inside.

#[cfg(target_arch = "wasm32")]
mod worker {
    use leaseline::analysis::explore::explore as search;
    use leaseline::analysis::explore::request::Request;
    use wasm_bindgen::prelude::*;

    /// `request`: a `Request`'s text (`analysis::explore::request`, written by the page's
    /// Explore panel). `progress` is
    /// called with (tried, total, violating) every few hundred schedules. Returns the
    /// report's JSON, or `{"error": "…"}` naming the field at fault.
    #[wasm_bindgen]
    pub fn explore(request: &str, progress: &js_sys::Function) -> String {
        match run(request, progress) {
            Ok(report) => report,
            Err(e) => serde_json::json!({ "error": e }).to_string(),
        }
    }

    fn run(request: &str, progress: &js_sys::Function) -> Result<String, String> {
        let r = Request::decode(request)?;
        let bounds = r.bounds()?;
        let sc = r.scenario;
        let report = search(&sc, &bounds, 256, &mut |p| {
            let _ = progress.call3(
                &JsValue::NULL,
                &JsValue::from_f64(p.tried as f64),
                &JsValue::from_f64(p.total as f64),
                &JsValue::from_f64(p.violating as f64),
            );
            true
        });
        Ok(leaseline::cli::explore_json(&report, 0).to_string())
    }
}

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    {
        eprintln!("leaseline-explore is the browser's explore worker; run `leaseline explore`");
        std::process::exit(2);
    }
}
