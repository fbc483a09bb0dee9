//! The scenario editor's draft: a scenario being edited field by field, kept as the JSON
//! document of docs/scenario-format.md so that any state of the form — even an invalid
//! one — can be shown, stored (the browser keeps it in localStorage) and checked.
//!
//! Checking is the scenario format's own: [`Draft::check`] runs the same decoder and
//! validator as an import, so the editor's errors name the same field paths
//! (`clients[1].ttl_ms: …`) and nothing the editor accepts can fail to load.

use crate::model::scenario::{FenceMode, Flavor, Scenario, ScenarioError};
use crate::vocab::json::{self, Json};

#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    doc: Json,
    /// Boxes as the reader typed them: (path, the text, why it does not read yet — half a
    /// number, JSON being typed — or `None` once it does). A box shows its text, never a
    /// reformatted value, so typing is never undone under the reader's caret; the draft
    /// cannot run while any text does not read.
    typed: Vec<(String, String, Option<String>)>,
}

/// What a text box holds, for [`Draft::type_into`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A whole number; `optional`: an empty box switches the field off.
    Int { optional: bool },
    /// A part of the document as JSON (a client's job, the fault list).
    Json,
    /// Plain text (the name).
    Text,
}

/// One option of a word field's select: the word the document holds, the text shown, and
/// whether it is the draft's current word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub word: &'static str,
    pub label: &'static str,
    pub selected: bool,
}

/// The words a word field takes and their labels; the first is the field's default (what
/// an absent optional word means).
fn words(path: &str) -> Vec<(&'static str, &'static str)> {
    match path {
        "storage.fence" => FenceMode::ALL
            .iter()
            .map(|f| (f.name(), f.label()))
            .collect(),
        "coordinator.flavor" => Flavor::ALL.iter().map(|f| (f.name(), f.name())).collect(),
        _ => Vec::new(),
    }
}

/// One step of a field path: a key or an index.
enum Seg<'a> {
    Key(&'a str),
    Idx(usize),
}

/// Splits `clients[1].ttl_ms` into `clients`, `1`, `ttl_ms`.
fn segments(path: &str) -> Option<Vec<Seg<'_>>> {
    let mut out = Vec::new();
    for part in path.split('.') {
        let (key, mut rest) = part.split_once('[').map_or((part, ""), |(k, r)| (k, r));
        if !key.is_empty() {
            out.push(Seg::Key(key));
        }
        while !rest.is_empty() {
            let (n, after) = rest.split_once(']')?;
            out.push(Seg::Idx(n.parse().ok()?));
            rest = after.strip_prefix('[').unwrap_or(after);
        }
    }
    Some(out)
}

impl Draft {
    pub fn from_scenario(sc: &Scenario) -> Draft {
        Draft {
            doc: sc.to_json_value(),
            typed: Vec::new(),
        }
    }

    /// A stored draft (what [`text`](Self::text) wrote); `None` if it is not JSON.
    pub fn from_text(text: &str) -> Option<Draft> {
        json::parse(text).ok().map(|doc| Draft {
            doc,
            typed: Vec::new(),
        })
    }

    pub fn text(&self) -> String {
        json::pretty(&self.doc)
    }

    pub fn get(&self, path: &str) -> Option<&Json> {
        let mut at = &self.doc;
        for s in segments(path)? {
            at = match (s, at) {
                (Seg::Key(k), Json::Obj(kv)) => kv.iter().find(|(x, _)| x == k).map(|(_, v)| v)?,
                (Seg::Idx(i), Json::Arr(v)) => v.get(i)?,
                _ => return None,
            };
        }
        Some(at)
    }

    /// Sets the value at `path`, creating a missing key (an optional field or group).
    /// `None` removes the key (an optional field switched off).
    pub fn set(&mut self, path: &str, value: Option<Json>) -> Result<(), String> {
        let segs = segments(path).ok_or_else(|| format!("{path}: not a field path"))?;
        let (last, parents) = segs.split_last().ok_or_else(|| format!("{path}: empty"))?;
        // Work on a copy: a path that fails half-way leaves the draft as it was.
        let mut doc = self.doc.clone();
        let mut at = &mut doc;
        for s in parents {
            at = match (s, at) {
                // A missing object on the way is an optional group left at its defaults
                // (a clock with no offset or drift): create it.
                (Seg::Key(k), Json::Obj(kv)) => {
                    let i = match kv.iter().position(|(x, _)| x == k) {
                        Some(i) => i,
                        None => {
                            kv.push((k.to_string(), Json::Obj(Vec::new())));
                            kv.len() - 1
                        }
                    };
                    &mut kv[i].1
                }
                (Seg::Idx(i), Json::Arr(v)) => v
                    .get_mut(*i)
                    .ok_or_else(|| format!("{path}: no such item"))?,
                _ => return Err(format!("{path}: no such field")),
            };
        }
        match (last, at, value) {
            (Seg::Key(k), Json::Obj(kv), Some(v)) => match kv.iter_mut().find(|(x, _)| x == k) {
                Some((_, old)) => *old = v,
                None => kv.push((k.to_string(), v)),
            },
            (Seg::Key(k), Json::Obj(kv), None) => kv.retain(|(x, _)| x != k),
            (Seg::Idx(i), Json::Arr(items), Some(v)) if *i < items.len() => items[*i] = v,
            _ => return Err(format!("{path}: no such field")),
        }
        self.doc = doc;
        Ok(())
    }

    /// Sets a whole-number field from what was typed; an empty box switches an optional
    /// field off. The error names the field and changes nothing.
    pub fn set_int(&mut self, path: &str, typed: &str, optional: bool) -> Result<(), String> {
        let t = typed.trim();
        if t.is_empty() && optional {
            return self.set(path, None);
        }
        let n: i64 = t.parse().map_err(|_| {
            format!(
                "{path}: \"{}\" is not a whole number",
                crate::session::share::clip(t)
            )
        })?;
        self.set(path, Some(Json::Int(i128::from(n))))
    }

    /// Replaces a part of the document with typed JSON (a client's job, the fault list).
    pub fn set_json(&mut self, path: &str, typed: &str) -> Result<(), String> {
        let v = json::parse(typed).map_err(|e| format!("{path}: {e}"))?;
        self.set(path, Some(v))
    }

    /// What a person typed into the box for `path`: applied at once when it reads as the
    /// field's kind, else kept as typed with the reason, until it does. Never refuses, so
    /// no keystroke is lost.
    pub fn type_into(&mut self, path: &str, kind: Kind, text: &str) {
        let applied = match kind {
            Kind::Int { optional } => self.set_int(path, text, optional),
            Kind::Json => self.set_json(path, text),
            Kind::Text => self.set(path, Some(Json::Str(text.to_string()))),
        };
        self.typed.retain(|(p, _, _)| p != path);
        self.typed
            .push((path.to_string(), text.to_string(), applied.err()));
    }

    /// What the box for `path` shows: the text being typed, or the field's value (a number
    /// as digits, a string as is, anything else as JSON).
    pub fn shown(&self, path: &str) -> String {
        if let Some((_, text, _)) = self.typed.iter().find(|(p, _, _)| p == path) {
            return text.clone();
        }
        match self.get(path) {
            Some(Json::Int(n)) => n.to_string(),
            Some(Json::Str(s)) => s.clone(),
            Some(v) => json::pretty(v),
            None => String::new(),
        }
    }

    /// Whether the form shows exactly `sc`, with nothing changed or half-typed: such a form
    /// follows the run on screen, and is not worth keeping in the browser.
    pub fn is_of(&self, sc: &Scenario) -> bool {
        self.typed.iter().all(|t| t.2.is_none()) && self.doc == sc.to_json_value()
    }

    /// How a kept draft is named when it is offered back: its scenario's name in quotes, or
    /// "an unfinished draft" when it does not read as a scenario.
    pub fn title(&self) -> String {
        self.check().map_or_else(
            |_| "an unfinished draft".to_string(),
            |sc| format!("\u{201c}{}\u{201d}", sc.name),
        )
    }

    /// Why the text in the box for `path` does not read yet, if it does not.
    pub fn pending(&self, path: &str) -> Option<&str> {
        self.typed
            .iter()
            .find(|(p, _, _)| p == path)
            .and_then(|(_, _, why)| why.as_deref())
    }

    /// The options of a word field's select (`storage.fence`, `coordinator.flavor`), the
    /// current one marked; an absent word is the field's default, the first.
    pub fn choices(&self, path: &str) -> Vec<Choice> {
        let words = words(path);
        let current = match self.get(path) {
            Some(Json::Str(s)) => s.as_str(),
            _ => words.first().map_or("", |w| w.0),
        };
        words
            .into_iter()
            .map(|(word, label)| Choice {
                word,
                label,
                selected: word == current,
            })
            .collect()
    }

    /// Sets a word field to one of its [`choices`](Self::choices).
    pub fn set_word(&mut self, path: &str, word: &str) -> Result<(), String> {
        if !words(path).iter().any(|w| w.0 == word) {
            return Err(format!(
                "{path}: \"{}\" is not a choice",
                crate::session::share::clip(word)
            ));
        }
        self.set(path, Some(Json::Str(word.to_string())))
    }

    pub fn clients(&self) -> usize {
        match self.get("clients") {
            Some(Json::Arr(v)) => v.len(),
            _ => 0,
        }
    }

    /// Adds a client: a copy of the last one, starting a second later.
    pub fn add_client(&mut self) -> Result<(), String> {
        let Some(Json::Arr(items)) = self.get("clients").cloned() else {
            return Err("clients: not a list".into());
        };
        let Some(mut last) = items.last().cloned() else {
            return Err("clients: no client to copy".into());
        };
        if let Json::Obj(kv) = &mut last {
            if let Some((_, Json::Int(s))) = kv.iter_mut().find(|(k, _)| k == "start_ms") {
                *s += 1000;
            }
        }
        let mut items = items;
        items.push(last);
        self.typed.clear();
        self.set("clients", Some(Json::Arr(items)))
    }

    pub fn remove_client(&mut self, i: usize) -> Result<(), String> {
        let Some(Json::Arr(mut items)) = self.get("clients").cloned() else {
            return Err("clients: not a list".into());
        };
        if i >= items.len() {
            return Err(format!("clients[{i}]: no such client"));
        }
        items.remove(i);
        // Client i+1 is now client i: a box typed at the old paths would name another one.
        self.typed.clear();
        self.set("clients", Some(Json::Arr(items)))
    }

    /// The scenario, exactly as an import would read it, or the first error by field (a box
    /// whose text does not read yet comes first: it is what the reader is working on).
    pub fn check(&self) -> Result<Scenario, ScenarioError> {
        if let Some((path, _, Some(why))) = self.typed.iter().find(|t| t.2.is_some()) {
            let detail = why.strip_prefix(&format!("{path}: ")).unwrap_or(why);
            return Err(ScenarioError::new(path, detail));
        }
        Scenario::from_json(&json::compact(&self.doc))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::teach::course::open;

    #[test]
    fn fields_edit_and_errors_name_them() {
        let sc = open("gc-pause").unwrap();
        let mut d = Draft::from_scenario(&sc);
        assert_eq!(d.check().unwrap(), sc);
        d.set_int("clients[1].ttl_ms", "45000", false).unwrap();
        assert_eq!(d.check().unwrap().clients[1].ttl_ms, 45_000);
        let e = d.set_int("clients[0].ttl_ms", "long", false).unwrap_err();
        assert!(e.starts_with("clients[0].ttl_ms:"), "{e}");
        d.set_int("clients[0].ttl_ms", "-5", false).unwrap();
        let e = d.check().unwrap_err().to_string();
        assert!(e.starts_with("clients[0].ttl_ms"), "{e}");
        d.set_int("clients[0].ttl_ms", "30000", false).unwrap();
        d.set_int("clients[0].renew_every_ms", "10000", true)
            .unwrap();
        assert_eq!(d.check().unwrap().clients[0].renew_every_ms, Some(10_000));
        d.set_int("clients[0].renew_every_ms", "", true).unwrap();
        assert_eq!(d.check().unwrap().clients[0].renew_every_ms, None);
        let e = d.set_json("faults", "[{").unwrap_err();
        assert!(e.starts_with("faults:"), "{e}");
        d.set_json("faults", "[]").unwrap();
        assert!(d.check().unwrap().faults.is_empty());
        assert!(d.set_int("nope[3].x", "1", false).is_err());
        // A clock left at its defaults has no object yet; setting a field creates it.
        d.set_int("storage.clock.drift_ppm", "200", false).unwrap();
        assert_eq!(d.check().unwrap().storage.clock.drift_ppm, 200);
    }

    /// Issue #12: every fence the editor offers makes a draft the codec reads, and a
    /// scenario's own fence is the one shown selected.
    #[test]
    fn every_fence_choice_is_one_the_codec_reads_and_shows_selected() {
        let path = "storage.fence";
        let mut d = Draft::from_scenario(&open("gc-pause").unwrap());
        let words: Vec<&str> = d.choices(path).iter().map(|c| c.word).collect();
        assert_eq!(words.len(), 5);
        for w in words {
            d.set_word(path, w).unwrap();
            let sc = d.check().unwrap_or_else(|e| panic!("choosing {w}: {e}"));
            let shown: Vec<&str> = d
                .choices(path)
                .iter()
                .filter(|c| c.selected)
                .map(|c| c.word)
                .collect();
            assert_eq!(shown, [w], "after choosing {w}");
            assert_eq!(Draft::from_scenario(&sc).choices(path), d.choices(path));
        }
        let sc = open("non-atomic-fence").unwrap();
        assert_eq!(sc.storage.fence, FenceMode::NonAtomic);
        let d = Draft::from_scenario(&sc);
        let shown: Vec<Choice> = d.choices(path).into_iter().filter(|c| c.selected).collect();
        assert_eq!(shown.len(), 1, "non_atomic shows as {shown:?}");
        assert_eq!(FenceMode::parse(shown[0].word), Some(FenceMode::NonAtomic));
        // An absent fence is the default, the first choice.
        let mut d = d;
        d.set(path, None).unwrap();
        assert_eq!(d.choices(path)[0].word, FenceMode::None.name());
        assert!(d.choices(path)[0].selected);
        assert!(d.set_word(path, "maybe").is_err());
    }

    #[test]
    fn clients_come_and_go_and_the_text_round_trips() {
        let mut d = Draft::from_scenario(&open("gc-pause").unwrap());
        d.add_client().unwrap();
        assert_eq!(d.clients(), 3);
        let sc = d.check().unwrap();
        assert_eq!(sc.clients[2].start_ms, sc.clients[1].start_ms + 1000);
        d.remove_client(0).unwrap();
        assert_eq!(d.clients(), 2);
        assert!(d.remove_client(5).is_err());
        let back = Draft::from_text(&d.text()).unwrap();
        assert_eq!(back, d);
        assert!(Draft::from_text("{oops").is_none());
    }

    /// Issue #20: a pause fault typed character by character, in a box that is invalid
    /// JSON for almost every keystroke, is kept as typed and runs once it reads.
    #[test]
    fn typing_keeps_every_keystroke_and_applies_when_it_reads() {
        let sc = open("gc-pause").unwrap();
        let mut d = Draft::from_scenario(&sc);
        d.type_into("faults", Kind::Json, "[]");
        assert!(d.check().unwrap().faults.is_empty());
        let fault = r#"[{ "at_ms": 20000, "fault": "pause", "node": "c2", "for_ms": 5000 }]"#;
        let mut refused = 0;
        for end in 1..=fault.len() {
            let typed = &fault[..end];
            d.type_into("faults", Kind::Json, typed);
            assert_eq!(d.shown("faults"), typed, "the box shows what was typed");
            if d.pending("faults").is_some() {
                refused += 1;
                assert_eq!(d.check().unwrap_err().path, "faults");
            }
        }
        assert!(refused > 60, "most prefixes are not JSON yet ({refused})");
        assert_eq!(d.pending("faults"), None);
        let sc = d.check().expect("the typed fault reads");
        assert_eq!(sc.faults.len(), 1);
        let trace = crate::model::sim::simulate(&sc).expect("and runs");
        assert!(trace
            .entries
            .iter()
            .any(|e| e.t.0 == 20_000 && crate::model::trace::json::kind(&e.event) == "paused"));
    }

    /// Clearing a number box and typing a new number gives that number, not old + new.
    #[test]
    fn a_cleared_number_box_stays_empty_until_a_number_is_typed() {
        let mut d = Draft::from_scenario(&open("gc-pause").unwrap());
        d.type_into("clients[0].ttl_ms", Kind::Int { optional: false }, "");
        assert_eq!(d.shown("clients[0].ttl_ms"), "");
        let why = d.pending("clients[0].ttl_ms").unwrap();
        assert!(why.starts_with("clients[0].ttl_ms:"), "{why}");
        for typed in ["2", "20", "200", "2000", "20000"] {
            d.type_into("clients[0].ttl_ms", Kind::Int { optional: false }, typed);
            assert_eq!(d.shown("clients[0].ttl_ms"), typed);
        }
        assert_eq!(d.check().unwrap().clients[0].ttl_ms, 20_000);
    }

    #[test]
    fn a_form_is_of_its_scenario_until_something_is_changed() {
        let sc = open("gc-pause").unwrap();
        let mut d = Draft::from_scenario(&sc);
        assert!(d.is_of(&sc));
        assert_eq!(d.title(), "\u{201c}GC pause longer than the TTL\u{201d}");
        d.type_into("seed", Kind::Int { optional: false }, "4x");
        assert!(!d.is_of(&sc), "half-typed is a change");
        assert_eq!(d.title(), "an unfinished draft");
        d.type_into("seed", Kind::Int { optional: false }, "99");
        assert!(!d.is_of(&sc));
        assert!(!d.is_of(&open("clean").unwrap()));
    }
}
