//! The explore search in a Web Worker (issue #15): the page never freezes while it runs.
//!
//! `static/explore-worker.js` loads this module in a worker and calls [`explore`] with the
//! request the Explore panel sent; the search reports its progress through the callback
//! and returns the same JSON report as `leaseline explore --format json` (built by the
//! same function, so the browser and the command line cannot disagree). Cancel is the
//! page terminating the worker: the search needs no way to be interrupted from inside.

#[cfg(target_arch = "wasm32")]
mod worker {
    use leaseline::analysis::explore::fault::FaultClass;
    use leaseline::analysis::explore::{explore as search, Bounds};
    use leaseline::model::scenario::Scenario;
    use wasm_bindgen::prelude::*;

    /// `request`: `{"scenario": …, "max_faults": K, "max_pause_ms": P, "clean": bool,
    /// "faults": ["pause", …]}` (`clean`: start from the scenario without its own faults;
    /// `faults`: the kinds it may add, as `--faults` names them). `progress` is
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
        let v: serde_json::Value =
            serde_json::from_str(request).map_err(|e| format!("request: {e}"))?;
        let sc = Scenario::from_json(&v["scenario"].to_string())
            .map_err(|e| format!("scenario: {e}"))?;
        let mut bounds = Bounds::for_scenario(&sc);
        if let Some(k) = v["max_faults"].as_u64() {
            bounds.max_faults = u8::try_from(k).map_err(|_| "max faults: too many")?;
        }
        if let Some(p) = v["max_pause_ms"].as_i64() {
            bounds.max_len_ms = p;
        }
        if let Some(kinds) = v["faults"].as_array() {
            bounds.classes = kinds
                .iter()
                .map(|k| {
                    let word = k.as_str().unwrap_or_default();
                    FaultClass::parse(word).ok_or_else(|| format!("faults: unknown kind `{word}`"))
                })
                .collect::<Result<_, _>>()?;
        }
        if let Some(clean) = v["clean"].as_bool() {
            bounds.keep_scripted = !clean;
        }
        bounds.check()?;
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
