//! The explore search in Web Workers, so that the page never freezes while it runs, and a
//! machine with several cores searches on several.
//!
//! `static/explore-worker.js` loads this module in the worker the page starts (the
//! *lead*), which may start helper workers of its own running the same module. The lead
//! holds the search ([`Lead`], the core's `analysis::explore::engine::Explorer`): it hands
//! chunks of schedules to the helpers ([`Helper`] evaluates them), evaluates chunks
//! itself between their answers, and merges every evaluation in job order — so the report
//! is the one `leaseline explore --format json` gives (built by the same function), for
//! any number of helpers, none included. The search reports its progress through the
//! lead's callback, and with each progress call hands over the classes found since the
//! last one — a new class, or a better example of a known one — so the page lists them
//! as they are found. Cancel is the page terminating the lead: its helpers go with it.

#[cfg(target_arch = "wasm32")]
mod worker {
    use leaseline::analysis::explore::engine::Explorer;
    use leaseline::analysis::explore::request::Request;
    use leaseline::analysis::explore::{report, wire, Class, Evaluator, Progress};
    use leaseline::session::share::counterexample_link;
    use wasm_bindgen::prelude::*;

    /// Progress every this many schedules. Each message re-renders the page's Explore
    /// panel, so at the search's 100,000 schedules a second on two workers this keeps it
    /// near 100 a second, leaving the page's thread free to open a run meanwhile.
    const EVERY: u64 = 1024;

    /// The search, in the lead worker. `request`: a `Request`'s text
    /// (`analysis::explore::request`, written by the page's Explore panel). `progress` is
    /// called with (tried, total, violating, found) every thousand or so schedules, `found`
    /// being `undefined` or the JSON text of `[[index, class]…]`: the classes new or
    /// improved since the last call, by their index in the order found, each as the report
    /// writes it.
    #[wasm_bindgen]
    pub struct Lead {
        x: Option<Explorer>,
        progress: js_sys::Function,
        /// The digest of each class's example as last sent, and the search's count of
        /// changes then (nothing to compare while it stands still).
        sent: Vec<String>,
        seen_found: u64,
    }

    #[wasm_bindgen]
    impl Lead {
        /// Reads the request; an error is the text of `{"error": "…"}` naming the field.
        #[wasm_bindgen(constructor)]
        pub fn new(request: &str, progress: js_sys::Function) -> Result<Lead, String> {
            let r = Request::decode(request).map_err(error)?;
            let bounds = r.bounds().map_err(error)?;
            Ok(Lead {
                x: Some(Explorer::new(&r.scenario, &bounds)),
                progress,
                sent: Vec::new(),
                seen_found: 0,
            })
        }

        /// Up to `n` jobs for a helper, as words (`analysis::explore::wire`); `undefined`
        /// when none can be handed out now.
        pub fn take(&mut self, n: usize) -> Option<Vec<i64>> {
            let c = self.x.as_mut()?.take(n)?;
            Some(wire::chunk(&c))
        }

        /// A helper's evaluations, as words: merged as soon as they are next in order.
        pub fn give(&mut self, words: &[i64]) -> Result<(), String> {
            let (first, evals) = wire::read_evals(words)?;
            if let Some(x) = self.x.as_mut() {
                x.give(first, evals);
            }
            self.merge();
            Ok(())
        }

        /// Evaluates up to `n` jobs here and merges them; `false` when there were none.
        pub fn own(&mut self, n: usize) -> bool {
            let Some(x) = self.x.as_mut() else {
                return false;
            };
            let Some(c) = x.take(n) else {
                return false;
            };
            let evals = x.eval_here(&c);
            x.give(c.first, evals);
            self.merge();
            true
        }

        /// Whether the search has ended (every job merged, or the budget spent).
        pub fn ended(&self) -> bool {
            self.x.as_ref().is_none_or(|x| x.ended().is_some())
        }

        /// The report's JSON (once: it ends the search).
        pub fn report(&mut self) -> String {
            let Some(x) = self.x.take() else {
                return error("the report was already taken".into());
            };
            let (progress, sent, seen) = (&self.progress, &mut self.sent, &mut self.seen_found);
            let report = x.finish(&mut |p, classes| post(progress, sent, seen, p, classes));
            report::json(&report, 0, &counterexample_link).to_string()
        }

        fn merge(&mut self) {
            let Some(x) = self.x.as_mut() else { return };
            let (progress, sent, seen) = (&self.progress, &mut self.sent, &mut self.seen_found);
            x.merge(EVERY, &mut |p, classes| {
                post(progress, sent, seen, p, classes)
            });
        }
    }

    fn error(e: String) -> String {
        serde_json::json!({ "error": e }).to_string()
    }

    /// One progress call to the page (see [`Lead`]).
    fn post(
        progress: &js_sys::Function,
        sent: &mut Vec<String>,
        seen: &mut u64,
        p: &Progress,
        classes: &[Class],
    ) -> bool {
        let mut found = JsValue::UNDEFINED;
        if p.found != *seen {
            *seen = p.found;
            let fresh: Vec<serde_json::Value> = classes
                .iter()
                .enumerate()
                .filter(|(i, c)| sent.get(*i) != Some(&c.example.digest))
                .map(|(i, c)| serde_json::json!([i, report::class_json(c, &counterexample_link)]))
                .collect();
            *sent = classes.iter().map(|c| c.example.digest.clone()).collect();
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
    }

    /// A helper worker's evaluator: the same request as the lead's.
    #[wasm_bindgen]
    pub struct Helper {
        ev: Evaluator,
    }

    #[wasm_bindgen]
    impl Helper {
        #[wasm_bindgen(constructor)]
        pub fn new(request: &str) -> Result<Helper, String> {
            let r = Request::decode(request)?;
            let bounds = r.bounds()?;
            Ok(Helper {
                ev: Evaluator::new(&r.scenario, &bounds),
            })
        }

        /// Evaluates a chunk (the lead's words); its evaluations as words.
        pub fn evaluate(&mut self, words: &[i64]) -> Result<Vec<i64>, String> {
            let c = wire::read_chunk(words)?;
            let evals = self.ev.eval_all(&c.jobs);
            Ok(wire::evals(c.first, &evals))
        }
    }
}

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    {
        eprintln!("leaseline-explore is the browser's explore worker; run `leaseline explore`");
        std::process::exit(2);
    }
}
