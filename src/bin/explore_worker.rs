//! The explore search in a Web Worker (issue #15): the page never freezes while it runs.
//!
//! `static/explore-worker.js` loads this module in a worker and calls [`explore`] with the
//! request the Explore panel sent; the search reports its progress through the callback
//! and returns the same JSON report as `leaseline explore --format json` (built by the
//! same function, so the browser and the command line cannot disagree). With each progress
//! call it also hands over the classes found since the last one — a new class, or a better
//! example of a known one — so the page lists them as they are found. Cancel is the page
//! terminating the worker: the search needs no way to be interrupted from inside.

#[cfg(target_arch = "wasm32")]
mod worker {
    use leaseline::analysis::explore::explore_live as search;
    use leaseline::analysis::explore::request::Request;
    use wasm_bindgen::prelude::*;

    /// `request`: a `Request`'s text (`analysis::explore::request`, written by the page's
    /// Explore panel). `progress` is called with (tried, total, violating, found) every few
    /// hundred schedules, `found` being `undefined` or the JSON text of `[[index, class]…]`:
    /// the classes new or improved since the last call, by their index in the order found,
    /// each as the report writes it. Returns the report's JSON, or `{"error": "…"}` naming
    /// the field at fault.
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
        // The digest of each class's example as last sent, and the search's count of
        // changes then (nothing to compare while it stands still).
        let (mut sent, mut seen) = (Vec::<String>::new(), 0);
        let report = search(&sc, &bounds, 256, &mut |p, classes| {
            let mut found = JsValue::UNDEFINED;
            if p.found != seen {
                seen = p.found;
                let fresh: Vec<serde_json::Value> = classes
                    .iter()
                    .enumerate()
                    .filter(|(i, c)| sent.get(*i) != Some(&c.example.digest))
                    .map(|(i, c)| serde_json::json!([i, leaseline::cli::explore_class_json(c)]))
                    .collect();
                sent = classes.iter().map(|c| c.example.digest.clone()).collect();
                found = JsValue::from_str(&serde_json::Value::Array(fresh).to_string());
            }
            let _ = progress.call4(
                &JsValue::NULL,
                &JsValue::from_f64(p.tried as f64),
                &JsValue::from_f64(p.total as f64),
                &JsValue::from_f64(p.violating as f64),
                &found,
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
