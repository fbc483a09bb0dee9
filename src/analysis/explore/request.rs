//! What a page asks an explore worker: the scenario, the bounds, and whether to start
//! without the scenario's own faults — written as JSON text by the Explore panel and read
//! back in the worker (`src/bin/explore_worker.rs`), one codec for both sides, so the two
//! wasm modules cannot disagree about a field. Reading validates everything: the scenario
//! like an import, the bounds like `leaseline explore`'s options; an error names the field.

use super::fault::FaultClass;
use super::Bounds;
use crate::model::scenario::Scenario;
use crate::vocab::json::{self, Json};

#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub scenario: Scenario,
    pub max_faults: u8,
    /// The longest pause, cut, delay, outage or jump, in ms.
    pub max_len_ms: i64,
    /// Start from the scenario without its own faults.
    pub clean: bool,
    /// The kinds of fault the search may add.
    pub classes: Vec<FaultClass>,
}

impl Request {
    pub fn encode(&self) -> String {
        json::compact(&Json::Obj(vec![
            ("scenario".into(), self.scenario.to_json_value()),
            ("max_faults".into(), Json::Int(self.max_faults.into())),
            ("max_pause_ms".into(), Json::Int(self.max_len_ms.into())),
            ("clean".into(), Json::Bool(self.clean)),
            (
                "faults".into(),
                Json::Arr(
                    self.classes
                        .iter()
                        .map(|c| Json::Str(c.name().into()))
                        .collect(),
                ),
            ),
        ]))
    }

    /// Reads [`encode`](Self::encode)'s text; an error names the field at fault.
    pub fn decode(text: &str) -> Result<Request, String> {
        let v = json::parse(text).map_err(|e| format!("request: {e}"))?;
        let sc = v.get("scenario").ok_or("scenario: missing")?;
        let scenario =
            Scenario::from_json(&json::compact(sc)).map_err(|e| format!("scenario: {e}"))?;
        let int = |key: &str| match v.get(key) {
            Some(Json::Int(n)) => Ok(*n),
            _ => Err(format!("{key}: not a number")),
        };
        let max_faults = u8::try_from(int("max_faults")?).map_err(|_| "max_faults: too many")?;
        let max_len_ms =
            i64::try_from(int("max_pause_ms")?).map_err(|_| "max_pause_ms: too long")?;
        let clean = matches!(v.get("clean"), Some(Json::Bool(true)));
        let classes = match v.get("faults") {
            Some(Json::Arr(kinds)) => kinds
                .iter()
                .map(|k| match k {
                    Json::Str(w) => {
                        FaultClass::parse(w).ok_or_else(|| format!("faults: unknown kind `{w}`"))
                    }
                    _ => Err("faults: not a word".to_string()),
                })
                .collect::<Result<_, _>>()?,
            _ => return Err("faults: not a list".into()),
        };
        Ok(Request {
            scenario,
            max_faults,
            max_len_ms,
            clean,
            classes,
        })
    }

    /// The search's bounds: the scenario's defaults with this request's choices, checked.
    pub fn bounds(&self) -> Result<Bounds, String> {
        let mut b = Bounds::for_scenario(&self.scenario);
        b.max_faults = self.max_faults;
        b.max_len_ms = self.max_len_ms;
        b.keep_scripted = !self.clean;
        b.classes = self.classes.clone();
        b.check()?;
        Ok(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gc_pause() -> Scenario {
        Scenario::from_json(include_str!("../../teach/presets/gc-pause.json")).unwrap()
    }

    #[test]
    fn a_request_round_trips_into_the_bounds_the_cli_would_use() {
        let r = Request {
            scenario: gc_pause(),
            max_faults: 2,
            max_len_ms: 60_000,
            clean: true,
            classes: vec![FaultClass::Pause, FaultClass::Delay],
        };
        let back = Request::decode(&r.encode()).unwrap();
        assert_eq!(back, r);
        let b = back.bounds().unwrap();
        assert_eq!(
            (b.max_faults, b.max_len_ms, b.keep_scripted),
            (2, 60_000, false)
        );
        assert_eq!(b.classes, r.classes);
    }

    #[test]
    fn a_bad_request_names_its_field() {
        let good = Request {
            scenario: gc_pause(),
            max_faults: 1,
            max_len_ms: 1,
            clean: false,
            classes: vec![FaultClass::Pause],
        }
        .encode();
        for (from, to, want) in [
            ("\"max_faults\":1", "\"max_faults\":\"x\"", "max_faults"),
            ("\"pause\"]", "\"nap\"]", "faults: unknown kind"),
            ("\"max_faults\":1", "\"max_faults\":9", "max faults"),
        ] {
            let text = good.replacen(from, to, 1);
            let e = Request::decode(&text).and_then(|r| r.bounds()).unwrap_err();
            assert!(e.starts_with(want), "{to}: {e}");
        }
    }
}
