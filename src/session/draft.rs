//! The scenario editor's draft: a scenario being edited field by field, kept as the JSON
//! document of docs/scenario-format.md so that any state of the form — even an invalid
//! one — can be shown, stored (the browser keeps it in localStorage) and checked.
//!
//! Checking is the scenario format's own: [`Draft::check`] runs the same decoder and
//! validator as an import, so the editor's errors name the same field paths
//! (`clients[1].ttl_ms: …`) and nothing the editor accepts can fail to load.

use crate::model::scenario::{when, Fault, FaultTime, Flavor, Outcome, Scenario, ScenarioError};
use crate::model::trace::Trace;
use crate::session::form::{self, Nodes, Problem, Start, Unit};
use crate::vocab::ids::NodeId;
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
    /// A time the document keeps in milliseconds, typed in seconds ("2.5").
    Secs { optional: bool },
    /// A part of the document as JSON (a client's job, the fault list).
    Json,
    /// Plain text; `optional`: an empty box removes the field.
    Text { optional: bool },
}

impl Kind {
    /// The kind of a number box for `path`, from its unit (seconds or a whole number).
    pub fn number(path: &str, optional: bool) -> Kind {
        match form::field(path).1 {
            Unit::Seconds => Kind::Secs { optional },
            _ => Kind::Int { optional },
        }
    }
}

/// One option of a choice field's select: the word the document holds, the text shown, and
/// whether it is the draft's current word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub word: String,
    pub label: String,
    pub selected: bool,
}

/// Whether `p` lies inside `outer` (`faults[0].at_ms` inside `faults`), or is it.
fn within(p: &str, outer: &str) -> bool {
    p.strip_prefix(outer)
        .is_some_and(|r| r.is_empty() || r.starts_with('.') || r.starts_with('['))
}

/// The node keys of faults and links.
const NODE_KEYS: [&str; 6] = ["node", "a", "b", "from", "to", ANCHOR_CLIENT];

/// A fault's event to follow (absent: the fault is at a true time), and whose it is and
/// which time of it (see `model::scenario::anchor`).
const ANCHOR: &str = "after";
const ANCHOR_CLIENT: &str = "client";
const ANCHOR_NTH: &str = "nth";

/// A walkthrough beat's optional node: a choice of the nodes, or none.
const HIGHLIGHT: &str = "highlight";

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
    /// field off. The error says, in plain words, what the field takes, and changes nothing.
    pub fn set_int(&mut self, path: &str, typed: &str, optional: bool) -> Result<(), String> {
        let t = typed.trim();
        if t.is_empty() && optional {
            return self.set(path, None);
        }
        let n: i64 = t.parse().map_err(|_| form::unreadable(path, t))?;
        self.set(path, Some(Json::Int(i128::from(n))))
    }

    /// Sets a time field from seconds as typed ("2.5" → 2500 ms); as [`set_int`](Self::set_int).
    pub fn set_secs(&mut self, path: &str, typed: &str, optional: bool) -> Result<(), String> {
        if typed.trim().is_empty() && optional {
            return self.set(path, None);
        }
        let ms = form::parse_secs(typed).ok_or_else(|| form::unreadable(path, typed))?;
        self.set(path, Some(Json::Int(i128::from(ms))))
    }

    /// Replaces a part of the document with typed JSON (a client's job, the fault list).
    pub fn set_json(&mut self, path: &str, typed: &str) -> Result<(), String> {
        let v = json::parse(typed)
            .map_err(|e| format!("{} is not complete JSON yet ({e})", form::field(path).0))?;
        self.set(path, Some(v))
    }

    /// Drops what was typed into `path`'s box, any box inside it and any box holding it:
    /// they would show text that is no longer the document's (the Faults JSON box after a
    /// fault row changed, a fault's boxes after the JSON box was retyped).
    fn forget(&mut self, path: &str) {
        self.typed
            .retain(|(p, _, _)| !within(p, path) && !within(path, p));
    }

    /// What a person typed into the box for `path`: applied at once when it reads as the
    /// field's kind, else kept as typed with the reason, until it does. Never refuses, so
    /// no keystroke is lost.
    pub fn type_into(&mut self, path: &str, kind: Kind, text: &str) {
        let applied = match kind {
            Kind::Int { optional } => self.set_int(path, text, optional),
            Kind::Secs { optional } => self.set_secs(path, text, optional),
            Kind::Json => self.set_json(path, text),
            Kind::Text { optional: true } if text.is_empty() => self.set(path, None),
            Kind::Text { .. } => self.set(path, Some(Json::Str(text.to_string()))),
        };
        self.forget(path);
        self.typed
            .push((path.to_string(), text.to_string(), applied.err()));
    }

    /// What the box for `path` shows: the text being typed, or the field's value (a time
    /// in seconds, another number as digits, a string as is, anything else as JSON).
    pub fn shown(&self, path: &str) -> String {
        if let Some((_, text, _)) = self.typed.iter().find(|(p, _, _)| p == path) {
            return text.clone();
        }
        match self.get(path) {
            Some(Json::Int(n)) => match (form::field(path).1, i64::try_from(*n)) {
                (Unit::Seconds, Ok(ms)) => form::secs_box(ms),
                _ => n.to_string(),
            },
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

    /// Why the text in the box for `path` does not read yet, if it does not (plain words).
    pub fn pending(&self, path: &str) -> Option<&str> {
        self.typed
            .iter()
            .find(|(p, _, _)| p == path)
            .and_then(|(_, _, why)| why.as_deref())
    }

    /// Every problem the form should show at a field: each box whose text does not read
    /// yet, then the validator's first error — in plain words, in the field's unit.
    pub fn problems(&self) -> Vec<Problem> {
        let mut v: Vec<Problem> = self
            .typed
            .iter()
            .filter_map(|(p, _, why)| {
                why.as_ref().map(|w| Problem {
                    path: p.clone(),
                    message: w.clone(),
                })
            })
            .collect();
        if let Err(e) = Scenario::from_json(&json::compact(&self.doc)) {
            if !v.iter().any(|p| p.path == e.path) {
                v.push(Problem::of(&e));
            }
        }
        v
    }

    /// The nodes of the draft's scenario a node field may name: clients from its client
    /// list, coordinator nodes from its flavor, and storage.
    fn nodes(&self, which: Nodes) -> Vec<NodeId> {
        let clients = self
            .clients()
            .min(usize::from(crate::vocab::ids::MAX_CLIENTS)) as u8;
        let flavor = match self.get("coordinator.flavor") {
            Some(Json::Str(s)) => Flavor::parse(s),
            _ => None,
        };
        let coords = flavor.unwrap_or(Flavor::Generic).nodes();
        let mut v = Vec::new();
        if matches!(which, Nodes::All | Nodes::Clients) {
            v.extend((0..clients).map(NodeId::Client));
        }
        if which != Nodes::Clients {
            v.extend((0..coords).map(NodeId::Coord));
        }
        if matches!(which, Nodes::All | Nodes::Servers) {
            v.push(NodeId::Storage);
        }
        v
    }

    /// Which nodes the node field `path` may name: a fault's kind narrows them.
    fn nodes_for(&self, path: &str) -> Nodes {
        let Some((item, key)) = path.rsplit_once('.') else {
            return Nodes::All;
        };
        if key == ANCHOR_CLIENT {
            return Nodes::Clients;
        }
        match self.get(&format!("{item}.fault")) {
            Some(Json::Str(w)) if item.starts_with("faults[") => {
                form::fault_form(w).map_or(Nodes::All, |f| f.nodes)
            }
            _ => Nodes::All,
        }
    }

    /// The options of a choice field's select (a fence, a policy, a fault's kind, a node),
    /// the current one marked; an absent word is the field's default, the first.
    pub fn choices(&self, path: &str) -> Vec<Choice> {
        let key = form::key(path);
        let words: Vec<(String, String)> = if NODE_KEYS.contains(&key) || key == HIGHLIGHT {
            // A beat's highlight may name no lane at all: that is its default.
            let none = (key == HIGHLIGHT).then(|| (String::new(), "no lane".to_string()));
            none.into_iter()
                .chain(
                    self.nodes(self.nodes_for(path))
                        .into_iter()
                        .map(|n| (n.to_string(), n.lane().to_string())),
                )
                .collect()
        } else {
            form::words(path)
                .into_iter()
                .map(|(w, l)| (w.to_string(), l.to_string()))
                .collect()
        };
        let current = match self.get(path) {
            Some(Json::Str(s)) => s.clone(),
            _ => words.first().map_or_else(String::new, |w| w.0.clone()),
        };
        words
            .into_iter()
            .map(|(word, label)| Choice {
                selected: word == current,
                word,
                label,
            })
            .collect()
    }

    /// Sets a choice field to one of its [`choices`](Self::choices). A fault's kind or a
    /// step's op reshapes the whole item: its fields become the new kind's.
    pub fn set_word(&mut self, path: &str, word: &str) -> Result<(), String> {
        if !self.choices(path).iter().any(|c| c.word == word) {
            return Err(form::plain(path, "not one of the choices"));
        }
        let item = path.rsplit_once('.').map_or("", |(i, _)| i);
        match form::key(path) {
            "fault" => {
                let f = form::fault_form(word).ok_or("no such fault")?;
                let at = self.get(&format!("{item}.at_ms")).cloned();
                let mut kv = vec![
                    ("at_ms".to_string(), at.unwrap_or(Json::Int(1_000))),
                    ("fault".to_string(), Json::Str(word.to_string())),
                ];
                kv.extend(self.fields_of(item, f.fields, f.nodes));
                // When it happens is not the kind's: an event it follows stays.
                for k in [ANCHOR, ANCHOR_CLIENT, ANCHOR_NTH] {
                    if let Some(v) = self.get(&format!("{item}.{k}")) {
                        kv.push((k.to_string(), v.clone()));
                    }
                }
                self.forget(item);
                self.set(item, Some(Json::Obj(kv)))
            }
            "op" => {
                let s = form::step_form(word).ok_or("no such step")?;
                let mut kv = vec![("op".to_string(), Json::Str(word.to_string()))];
                kv.extend(self.fields_of(item, s.fields, Nodes::All));
                self.forget(item);
                self.set(item, Some(Json::Obj(kv)))
            }
            // At a true time: the event's fields go, as a file without them has it.
            ANCHOR if word.is_empty() => {
                for k in [ANCHOR, ANCHOR_CLIENT, ANCHOR_NTH] {
                    let p = format!("{item}.{k}");
                    self.forget(&p);
                    self.set(&p, None)?;
                }
                Ok(())
            }
            // After an event: the first client unless one is named already.
            ANCHOR => {
                self.forget(path);
                self.set(path, Some(Json::Str(word.to_string())))?;
                let client = format!("{item}.{ANCHOR_CLIENT}");
                if self.get(&client).is_none() {
                    self.set(&client, Some(Json::Str(NodeId::Client(0).to_string())))?;
                }
                Ok(())
            }
            // No lane highlighted: the field is left out, as a file without one has it.
            HIGHLIGHT if word.is_empty() => {
                self.forget(path);
                self.set(path, None)
            }
            _ => {
                self.forget(path);
                self.set(path, Some(Json::Str(word.to_string())))
            }
        }
    }

    /// A reshaped item's fields: each kept from the old item when it had one that fits
    /// (a pause turned into a clock jump keeps its node), else the kind's starting value.
    fn fields_of(&self, item: &str, fields: &[(&str, Start)], nodes: Nodes) -> Vec<(String, Json)> {
        let allowed: Vec<String> = self.nodes(nodes).iter().map(|n| n.to_string()).collect();
        fields
            .iter()
            .map(|&(k, start)| {
                let old = self.get(&format!("{item}.{k}")).cloned();
                let v = match (start, old) {
                    (Start::Ms(_), Some(Json::Int(n))) => Json::Int(n),
                    (Start::Text(_), Some(Json::Str(s))) => Json::Str(s),
                    (Start::Node(_), Some(Json::Str(s))) if allowed.contains(&s) => Json::Str(s),
                    (Start::Node(n), _) if allowed.iter().any(|a| a == n) => Json::Str(n.into()),
                    (Start::Node(_), _) => Json::Str(allowed.first().cloned().unwrap_or_default()),
                    (Start::Ms(ms), _) => Json::Int(i128::from(ms)),
                    (Start::Text(t), _) => Json::Str(t.into()),
                };
                (k.to_string(), v)
            })
            .collect()
    }

    /// Where fault `n`, if it follows an event, falls in `trace` (the run on screen): the
    /// event's time and the fault's, or that the event never comes, or that the fault
    /// would come after the run ends. `None` for a fault at a true time (or one whose
    /// fields do not read yet: their boxes say why).
    pub fn fault_when(&self, n: usize, trace: &Trace) -> Option<String> {
        let item = format!("faults[{n}]");
        let fault = Fault::from_json_value(self.get(&item)?, &item).ok()?;
        let said = fault.after?.phrase();
        let secs = |ms: i64| form::Unit::Seconds.show(ms);
        let end = trace.end.0;
        Some(match when(&fault, trace) {
            FaultTime::Fixed(_) => return None,
            FaultTime::Never => format!("In the run on screen, {said} never happens: this fault does not either."),
            FaultTime::After { event_ms, at_ms } if at_ms > end => format!(
                "In the run on screen, {said} at {}: this fault would come at {}, after the run ends ({}). Lengthen the run to see it.",
                secs(event_ms),
                secs(at_ms),
                secs(end)
            ),
            FaultTime::After { event_ms, at_ms } => format!(
                "In the run on screen, {said} at {}: this fault comes at {}.",
                secs(event_ms),
                secs(at_ms)
            ),
        })
    }

    /// A switch (`check_before_write`, `idempotency`); absent is off.
    pub fn flag(&self, path: &str) -> bool {
        matches!(self.get(path), Some(Json::Bool(true)))
    }

    pub fn set_flag(&mut self, path: &str, on: bool) -> Result<(), String> {
        self.forget(path);
        self.set(path, Some(Json::Bool(on)))
    }

    /// How many items the list at `path` holds (faults, a job's steps, link overrides).
    pub fn len(&self, path: &str) -> usize {
        match self.get(path) {
            Some(Json::Arr(v)) => v.len(),
            _ => 0,
        }
    }

    pub fn clients(&self) -> usize {
        self.len("clients")
    }

    /// Appends `item` to the list at `path` (created if absent).
    fn push(&mut self, path: &str, item: Json) -> Result<(), String> {
        let mut items = match self.get(path) {
            Some(Json::Arr(v)) => v.clone(),
            None => Vec::new(),
            Some(_) => return Err(format!("{}: not a list", form::field(path).0)),
        };
        items.push(item);
        self.forget(path);
        self.set(path, Some(Json::Arr(items)))
    }

    /// Adds a fault of kind `word` (see [`form::FAULTS`]) at 1 s, with that kind's
    /// starting fields, to be edited in its row.
    pub fn add_fault(&mut self, word: &str) -> Result<(), String> {
        let i = self.len("faults");
        self.push("faults", Json::Obj(Vec::new()))?;
        let at = format!("faults[{i}].at_ms");
        self.set(&at, Some(Json::Int(1_000)))?;
        self.set_word(&format!("faults[{i}].fault"), word)
    }

    /// Adds a walkthrough beat after the last one (at its time, or at 0 s), with words to
    /// replace: an author's own beat, to be edited in its row.
    pub fn add_beat(&mut self) -> Result<(), String> {
        let n = self.len("walkthrough");
        let at = match n.checked_sub(1) {
            Some(last) => self
                .get(&format!("walkthrough[{last}].at_ms"))
                .cloned()
                .unwrap_or(Json::Int(0)),
            None => Json::Int(0),
        };
        self.push(
            "walkthrough",
            Json::Obj(vec![
                ("at_ms".into(), at),
                (
                    "text".into(),
                    Json::Str("What happens here, in your words.".into()),
                ),
            ]),
        )
    }

    /// Adds a question after the last one (at its time, or at 0 s) with two choices — a
    /// write accepted or refused — and words to replace: an author's own question, to be
    /// edited in its row. The answer is never written: the run gives it.
    pub fn add_question(&mut self) -> Result<(), String> {
        let n = self.len("questions");
        let at = match n.checked_sub(1) {
            Some(last) => self
                .get(&format!("questions[{last}].at_ms"))
                .cloned()
                .unwrap_or(Json::Int(0)),
            None => Json::Int(0),
        };
        let choice = |text: &str, outcome: Outcome| {
            Json::Obj(vec![
                ("text".into(), Json::Str(text.into())),
                ("outcome".into(), Json::Str(outcome.name().into())),
            ])
        };
        self.push(
            "questions",
            Json::Obj(vec![
                ("at_ms".into(), at),
                (
                    "prompt".into(),
                    Json::Str("What happens next, in your words?".into()),
                ),
                (
                    "choices".into(),
                    Json::Arr(vec![
                        choice("Storage accepts the write", Outcome::WriteAccepted),
                        choice("Storage refuses the write", Outcome::WriteRefused),
                    ]),
                ),
            ]),
        )
    }

    /// Adds a choice to question `q`, naming the first outcome none of its choices names.
    pub fn add_choice(&mut self, q: usize) -> Result<(), String> {
        let list = format!("questions[{q}].choices");
        let taken: Vec<String> = (0..self.len(&list))
            .filter_map(|i| match self.get(&format!("{list}[{i}].outcome")) {
                Some(Json::Str(w)) => Some(w.clone()),
                _ => None,
            })
            .collect();
        let outcome = Outcome::ALL
            .into_iter()
            .find(|o| !taken.iter().any(|t| t == o.name()))
            .ok_or("every outcome is a choice already")?;
        self.push(
            &list,
            Json::Obj(vec![
                ("text".into(), Json::Str(outcome.label().into())),
                ("outcome".into(), Json::Str(outcome.name().into())),
            ]),
        )
    }

    /// Adds a step of kind `word` (see [`form::STEPS`]) at the end of client `c`'s job.
    pub fn add_step(&mut self, c: usize, word: &str) -> Result<(), String> {
        let job = format!("clients[{c}].job");
        let i = self.len(&job);
        self.push(&job, Json::Obj(Vec::new()))?;
        self.set_word(&format!("{job}[{i}].op"), word)
    }

    /// Adds a link override from client 1 to storage, as slow as the default links.
    pub fn add_link(&mut self) -> Result<(), String> {
        let d = |k: &str| {
            self.get(&format!("network.default.{k}"))
                .cloned()
                .unwrap_or(Json::Int(5))
        };
        let (min, max) = (d("min_delay_ms"), d("max_delay_ms"));
        let link = Json::Obj(vec![
            ("from".into(), Json::Str("c1".into())),
            ("to".into(), Json::Str("storage".into())),
            ("min_delay_ms".into(), min),
            ("max_delay_ms".into(), max),
            ("loss_pct".into(), Json::Int(0)),
        ]);
        self.push("network.links", link)
    }

    /// Removes item `i` of the list at `path`; boxes typed into later items follow their
    /// item to its new index.
    pub fn remove(&mut self, path: &str, i: usize) -> Result<(), String> {
        let mut items = match self.get(path) {
            Some(Json::Arr(v)) if i < v.len() => v.clone(),
            _ => return Err(format!("{} {}: no such item", form::field(path).0, i + 1)),
        };
        items.remove(i);
        self.set(path, Some(Json::Arr(items)))?;
        self.renumber(path, i);
        Ok(())
    }

    /// After item `removed` of `list` is gone: its boxes are dropped, later items' boxes
    /// move down one index, and a box holding the whole list shows the list anew.
    fn renumber(&mut self, list: &str, removed: usize) {
        let head = format!("{list}[");
        let mut kept = Vec::new();
        for (p, t, why) in std::mem::take(&mut self.typed) {
            if within(list, &p) {
                continue;
            }
            let Some(rest) = p.strip_prefix(&head) else {
                kept.push((p, t, why));
                continue;
            };
            let Some((n, tail)) = rest.split_once(']') else {
                continue;
            };
            match n.parse::<usize>() {
                Ok(n) if n > removed => kept.push((format!("{head}{}]{tail}", n - 1), t, why)),
                Ok(n) if n < removed => kept.push((p, t, why)),
                _ => {}
            }
        }
        self.typed = kept;
    }

    /// Adds a client: a copy of the last one, starting a second later — or, once every
    /// client was removed, the default run's first client, so a form emptied of clients
    /// can be filled again without writing its JSON by hand.
    pub fn add_client(&mut self) -> Result<(), String> {
        let Some(Json::Arr(items)) = self.get("clients") else {
            return Err("clients: not a list".into());
        };
        let next = match items.last().cloned() {
            Some(mut last) => {
                if let Json::Obj(kv) = &mut last {
                    if let Some((_, Json::Int(s))) = kv.iter_mut().find(|(k, _)| k == "start_ms") {
                        *s += 1000;
                    }
                }
                last
            }
            None => crate::teach::course::open(crate::session::share::DEFAULT_SCENARIO)
                .and_then(|sc| Draft::from_scenario(&sc).get("clients[0]").cloned())
                .ok_or("clients: the default run has no client to start from")?,
        };
        self.push("clients", next)
    }

    pub fn remove_client(&mut self, i: usize) -> Result<(), String> {
        self.remove("clients", i)
    }

    /// The scenario, exactly as an import would read it, or the first error by field (a box
    /// whose text does not read yet comes first: it is what the reader is working on).
    pub fn check(&self) -> Result<Scenario, ScenarioError> {
        if let Some((path, _, Some(why))) = self.typed.iter().find(|t| t.2.is_some()) {
            return Err(ScenarioError::new(path, why.clone()));
        }
        Scenario::from_json(&json::compact(&self.doc))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scenario::{FaultKind, FenceMode, LossPolicy, Step};
    use crate::teach::course::open;

    #[test]
    fn fields_edit_and_errors_name_them() {
        let sc = open("gc-pause").unwrap();
        let mut d = Draft::from_scenario(&sc);
        assert_eq!(d.check().unwrap(), sc);
        d.set_int("clients[1].ttl_ms", "45000", false).unwrap();
        assert_eq!(d.check().unwrap().clients[1].ttl_ms, 45_000);
        let e = d.set_int("seed", "long", false).unwrap_err();
        assert_eq!(e, "Seed must be a whole number");
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
        assert!(e.starts_with("Faults is not complete JSON yet"), "{e}");
        d.set_json("faults", "[]").unwrap();
        assert!(d.check().unwrap().faults.is_empty());
        assert!(d.set_int("nope[3].x", "1", false).is_err());
        // A clock left at its defaults has no object yet; setting a field creates it.
        d.set_int("storage.clock.drift_ppm", "200", false).unwrap();
        assert_eq!(d.check().unwrap().storage.clock.drift_ppm, 200);
    }

    /// Every fence the editor offers makes a draft the codec reads, and a scenario's own
    /// fence is the one shown selected.
    #[test]
    fn every_fence_choice_is_one_the_codec_reads_and_shows_selected() {
        let path = "storage.fence";
        let mut d = Draft::from_scenario(&open("gc-pause").unwrap());
        let words: Vec<String> = d.choices(path).into_iter().map(|c| c.word).collect();
        assert_eq!(words.len(), 5);
        for w in &words {
            d.set_word(path, w).unwrap();
            let sc = d.check().unwrap_or_else(|e| panic!("choosing {w}: {e}"));
            let shown: Vec<String> = d
                .choices(path)
                .into_iter()
                .filter(|c| c.selected)
                .map(|c| c.word)
                .collect();
            assert_eq!(shown, std::slice::from_ref(w), "after choosing {w}");
            assert_eq!(Draft::from_scenario(&sc).choices(path), d.choices(path));
        }
        let sc = open("non-atomic-fence").unwrap();
        assert_eq!(sc.storage.fence, FenceMode::NonAtomic);
        let d = Draft::from_scenario(&sc);
        let shown: Vec<Choice> = d.choices(path).into_iter().filter(|c| c.selected).collect();
        assert_eq!(shown.len(), 1, "non_atomic shows as {shown:?}");
        assert_eq!(FenceMode::parse(&shown[0].word), Some(FenceMode::NonAtomic));
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

    /// Every client removed, the form can still add one (it has none to copy): the
    /// default run's first.
    #[test]
    fn a_form_emptied_of_clients_can_add_one_back() {
        let sc = open("idempotent-job").unwrap();
        let mut d = Draft::from_scenario(&sc);
        while d.clients() > 0 {
            d.remove_client(0).unwrap();
        }
        assert!(d.check().is_err(), "no client: not a scenario");
        d.add_client().unwrap();
        assert_eq!(d.clients(), 1);
        let first = &open(crate::session::share::DEFAULT_SCENARIO)
            .unwrap()
            .clients[0];
        let mut back = d.clone();
        // The lesson's own fault was written for its own clients: with the faults
        // cleared, the draft reads, and its one client is the default run's first.
        back.set("faults", Some(Json::Arr(Vec::new()))).unwrap();
        assert_eq!(&back.check().unwrap().clients[0], first);
    }

    /// A pause fault typed character by character, in a box that is invalid JSON for
    /// almost every keystroke, is kept as typed and runs once it reads.
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
        let secs = Kind::number("clients[0].ttl_ms", false);
        assert_eq!(secs, Kind::Secs { optional: false });
        assert_eq!(d.shown("clients[0].ttl_ms"), "30", "shown in seconds");
        d.type_into("clients[0].ttl_ms", secs, "");
        assert_eq!(d.shown("clients[0].ttl_ms"), "");
        assert_eq!(d.pending("clients[0].ttl_ms"), Some("TTL is needed"));
        for typed in ["2", "20", "20.", "20.5"] {
            d.type_into("clients[0].ttl_ms", secs, typed);
            assert_eq!(d.shown("clients[0].ttl_ms"), typed);
        }
        assert_eq!(d.check().unwrap().clients[0].ttl_ms, 20_500);
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

    /// A TTL of 0 is refused at the TTL box, in seconds and plain words, and the draft
    /// does not run.
    #[test]
    fn errors_are_said_at_their_field_in_its_unit() {
        let mut d = Draft::from_scenario(&open("gc-pause").unwrap());
        let ttl = "clients[0].ttl_ms";
        d.type_into(ttl, Kind::number(ttl, false), "0");
        assert_eq!(d.pending(ttl), None, "0 reads as a number");
        let p = d.problems();
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].path, ttl);
        assert_eq!(p[0].message, "TTL must be between 0.001 s and 86,400 s");
        assert!(d.check().is_err());
        d.type_into(ttl, Kind::number(ttl, false), "abc");
        assert_eq!(
            d.problems()[0].message,
            "TTL must be a number of seconds, such as 30 or 2.5"
        );
        d.type_into(ttl, Kind::number(ttl, false), "45");
        assert!(d.problems().is_empty());
        assert_eq!(d.check().unwrap().clients[0].ttl_ms, 45_000);
    }

    /// Every setting that decides safety is a field of the form (a choice, a switch or a
    /// box), not something only the JSON can set.
    #[test]
    fn safety_fields_are_choices_and_switches() {
        let mut d = Draft::from_scenario(&open("gc-pause").unwrap());
        let c = "clients[0]";
        d.set_word(&format!("{c}.on_loss"), "continue").unwrap();
        d.set_word(&format!("{c}.count_from"), "grant").unwrap();
        d.set_word(&format!("{c}.unreachable"), "open").unwrap();
        d.set_flag(&format!("{c}.check_before_write"), true)
            .unwrap();
        d.type_into(
            &format!("{c}.retry.interval_ms"),
            Kind::Secs { optional: false },
            "0.5",
        );
        d.type_into(
            &format!("{c}.retry.max_attempts"),
            Kind::Int { optional: false },
            "7",
        );
        d.type_into(
            &format!("{c}.timeout_ms"),
            Kind::Secs { optional: false },
            "2",
        );
        d.set_word("storage.mark", "memory").unwrap();
        d.set_flag("storage.idempotency", true).unwrap();
        d.type_into(
            "network.default.loss_pct",
            Kind::Int { optional: false },
            "10",
        );
        d.add_link().unwrap();
        d.set_word("network.links[0].from", "c2").unwrap();
        d.type_into(
            "network.links[0].max_delay_ms",
            Kind::Secs { optional: false },
            "0.2",
        );
        assert!(d.set_word(&format!("{c}.on_loss"), "panic").is_err());
        let sc = d.check().unwrap();
        let c0 = &sc.clients[0];
        assert_eq!(c0.on_loss, LossPolicy::Continue);
        assert!(c0.check_before_write);
        assert_eq!(
            (c0.retry.interval_ms, c0.retry.max_attempts, c0.timeout_ms),
            (500, 7, 2_000)
        );
        assert_eq!(sc.storage.mark, crate::model::scenario::Durability::Memory);
        assert!(sc.storage.idempotency);
        assert_eq!(sc.network.default.loss_pct, 10);
        let l = &sc.network.links[0];
        assert_eq!(
            (l.from, l.to, l.max_delay_ms),
            (NodeId::Client(1), NodeId::Storage, 200)
        );
        assert!(d.flag("storage.idempotency"));
        d.remove("network.links", 0).unwrap();
        assert!(d.check().unwrap().network.links.is_empty());
    }

    /// An author's beats are added, timed in seconds, worded and removed in the form; a
    /// beat out of order or without words is said at its field.
    #[test]
    fn a_walkthrough_of_ones_own_is_edited_beat_by_beat() {
        let sc = open("gc-pause").unwrap();
        let mut d = Draft::from_scenario(&sc);
        assert_eq!(d.len("walkthrough"), 0);
        d.add_beat().unwrap();
        d.add_beat().unwrap();
        d.type_into(
            "walkthrough[0].at_ms",
            Kind::number("walkthrough[0].at_ms", false),
            "30",
        );
        d.type_into(
            "walkthrough[0].text",
            Kind::Text { optional: false },
            "The lease runs out.",
        );
        // The second beat starts at the first's time when added; here it is now earlier.
        let problems = d.problems();
        assert!(
            problems.iter().any(|p| p.path == "walkthrough[1].at_ms"),
            "{problems:?}"
        );
        d.type_into(
            "walkthrough[1].at_ms",
            Kind::number("walkthrough[1].at_ms", false),
            "50",
        );
        d.type_into("walkthrough[1].text", Kind::Text { optional: false }, "");
        assert!(d.check().is_err_and(|e| e.path == "walkthrough[1].text"));
        d.type_into(
            "walkthrough[1].text",
            Kind::Text { optional: false },
            "It writes.",
        );
        let got = d.check().unwrap();
        assert_eq!(
            got.walkthrough
                .iter()
                .map(|b| (b.at_ms, b.text.as_str()))
                .collect::<Vec<_>>(),
            [(30_000, "The lease runs out."), (50_000, "It writes.")]
        );
        d.remove("walkthrough", 0).unwrap();
        assert_eq!(d.check().unwrap().walkthrough.len(), 1);
        // A beat's highlight: no lane by default, then a node the scenario has, then none.
        let h = "walkthrough[0].highlight";
        let words: Vec<String> = d.choices(h).into_iter().map(|c| c.word).collect();
        assert_eq!(words[..3], ["", "c1", "c2"]);
        assert!(d.choices(h)[0].selected);
        d.set_word(h, "storage").unwrap();
        assert_eq!(
            d.check().unwrap().walkthrough[0].highlight,
            Some(NodeId::Storage)
        );
        assert!(d.set_word(h, "c7").is_err(), "not a node of this scenario");
        d.set_word(h, "").unwrap();
        assert_eq!(d.check().unwrap().walkthrough[0].highlight, None);
    }

    /// A fault can be placed by an event: whose and which time, the time after it, and
    /// where that falls in the run on screen, said in words; back to a true time, the
    /// event's fields go.
    #[test]
    fn a_fault_follows_an_event_and_says_where_it_falls() {
        use crate::model::scenario::AnchorEvent;
        let sc = open("gc-pause").unwrap();
        let trace = crate::model::sim::run(&sc);
        let end = trace.end.0;
        let mut d = Draft::from_scenario(&sc);
        assert_eq!(d.fault_when(0, &trace), None, "at a true time");
        let words: Vec<String> = d
            .choices("faults[0].after")
            .into_iter()
            .map(|c| c.word)
            .collect();
        assert_eq!(words, ["", "acquired", "write_sent", "lost"]);
        d.set_word("faults[0].after", "acquired").unwrap();
        let who: Vec<String> = d
            .choices("faults[0].client")
            .into_iter()
            .map(|c| c.word)
            .collect();
        assert_eq!(who, ["c1", "c2"], "clients only");
        d.type_into("faults[0].at_ms", Kind::Secs { optional: false }, "2");
        let got = d.check().unwrap();
        let anchor = got.faults[0].after.expect("placed by an event");
        assert_eq!(
            (anchor.event, anchor.client, anchor.nth, got.faults[0].at_ms),
            (AnchorEvent::Acquired, NodeId::Client(0), 1, 2_000)
        );
        let t = anchor.time_in(&trace).unwrap();
        let said = d.fault_when(0, &trace).unwrap();
        assert_eq!(
            said,
            format!(
                "In the run on screen, client 1 acquires the lock at {}: this fault comes at {}.",
                form::secs_text(t),
                form::secs_text(t + 2_000)
            )
        );
        // Past the end of the run: said, with what to do.
        d.type_into(
            "faults[0].at_ms",
            Kind::Secs { optional: false },
            &form::secs_box(end),
        );
        let said = d.fault_when(0, &trace).unwrap();
        assert!(
            said.contains("after the run ends") && said.ends_with("Lengthen the run to see it."),
            "{said}"
        );
        // Its 2nd acquire never comes.
        d.type_into("faults[0].nth", Kind::Int { optional: true }, "2");
        let said = d.fault_when(0, &trace).unwrap();
        assert!(said.ends_with("client 1 acquires the lock for the 2nd time never happens: this fault does not either."), "{said}");
        // Another kind keeps the event it follows.
        d.set_word("faults[0].fault", "clock_jump").unwrap();
        assert_eq!(d.check().unwrap().faults[0].after.map(|a| a.nth), Some(2));
        // Back to a true time: no event fields left in the document.
        d.set_word("faults[0].after", "").unwrap();
        assert_eq!(d.check().unwrap().faults[0].after, None);
        assert!(!d.text().contains("\"client\"") && !d.text().contains("\"nth\""));
    }

    /// Faults come from a picker with their own fields, each kind the format's; a row's
    /// kind can change and keeps what fits.
    #[test]
    fn every_fault_kind_can_be_added_and_runs() {
        let sc = open("gc-pause").unwrap();
        for f in form::FAULTS {
            let mut d = Draft::from_scenario(&sc);
            d.add_fault(f.word).unwrap();
            let got = d.check().unwrap_or_else(|e| panic!("{}: {e}", f.word));
            assert_eq!(got.faults.len(), sc.faults.len() + 1, "{}", f.word);
            crate::model::sim::simulate(&got).unwrap();
        }
        let mut d = Draft::from_scenario(&sc);
        let n = d.len("faults");
        d.add_fault("pause").unwrap();
        let at = format!("faults[{n}].at_ms");
        for typed in ["", "2", "20"] {
            d.type_into(&at, Kind::number(&at, false), typed);
        }
        d.set_word(&format!("faults[{n}].node"), "c2").unwrap();
        let f = d.check().unwrap().faults[n].clone();
        assert_eq!(f.at_ms, 20_000);
        assert_eq!(
            f.kind,
            FaultKind::Pause {
                node: NodeId::Client(1),
                for_ms: 5_000,
                cause: crate::vocab::names::PauseCause::Gc,
            }
        );
        // A pause becomes a clock jump on the same node; a restart cannot name a client.
        d.set_word(&format!("faults[{n}].fault"), "clock_jump")
            .unwrap();
        assert_eq!(
            d.check().unwrap().faults[n].kind,
            FaultKind::ClockJump {
                node: NodeId::Client(1),
                by_ms: 10_000
            }
        );
        d.set_word(&format!("faults[{n}].fault"), "restart")
            .unwrap();
        let words: Vec<String> = d
            .choices(&format!("faults[{n}].node"))
            .into_iter()
            .map(|c| c.word)
            .collect();
        assert_eq!(words, ["coord", "storage"]);
        assert!(d.set_word(&format!("faults[{n}].node"), "c1").is_err());
        // A bad value is said at the row's field.
        d.type_into(&at, Kind::number(&at, false), "9999");
        assert_eq!(d.problems()[0].path, at);
        assert_eq!(
            d.problems()[0].whole(),
            format!("Fault {}: At is after the run ends (its run length)", n + 1)
        );
        d.remove("faults", n).unwrap();
        assert_eq!(d.check().unwrap().faults, sc.faults);
    }

    /// Removing a row moves what was typed into later rows with them.
    #[test]
    fn boxes_follow_their_row_when_one_above_is_removed() {
        let mut d = Draft::from_scenario(&open("clean").unwrap());
        d.add_fault("pause").unwrap();
        d.add_fault("pause").unwrap();
        let k = Kind::Secs { optional: false };
        d.type_into("faults[0].for_ms", k, "1");
        d.type_into("faults[1].for_ms", k, "7.");
        d.type_into("faults[1].at_ms", k, "x");
        d.remove("faults", 0).unwrap();
        assert_eq!(d.shown("faults[0].for_ms"), "7.");
        assert_eq!(d.pending("faults[0].at_ms").map(|_| ()), Some(()));
        assert_eq!(d.len("faults"), 1);
        // The JSON box shows the list after a row's edit, not what was typed before it.
        d.type_into("faults", Kind::Json, "[]");
        assert_eq!(d.len("faults"), 0);
        d.add_fault("heal").unwrap();
        assert!(d.shown("faults").contains("heal"));
    }

    #[test]
    fn job_steps_are_rows() {
        let mut d = Draft::from_scenario(&open("gc-pause").unwrap());
        let job = "clients[0].job";
        let n = d.len(job);
        for s in form::STEPS {
            d.add_step(0, s.word).unwrap();
        }
        let sc = d.check().unwrap();
        assert_eq!(sc.clients[0].job.len(), n + form::STEPS.len());
        assert_eq!(sc.clients[0].job[n + 1], Step::Work { ms: 1_000 });
        d.type_into(
            &format!("{job}[{}].ms", n + 1),
            Kind::Secs { optional: false },
            "2.5",
        );
        let eff = format!("{job}[{}].idempotency_key", n + 4);
        d.type_into(&eff, Kind::Text { optional: true }, "k1");
        d.set_word(&format!("{job}[{n}].op"), "check").unwrap();
        let sc = d.check().unwrap();
        let j = &sc.clients[0].job;
        assert_eq!(j[n], Step::Check);
        assert_eq!(j[n + 1], Step::Work { ms: 2_500 });
        assert!(matches!(&j[n + 4], Step::Effect { idempotency_key: Some(k), .. } if k == "k1"));
        d.type_into(&eff, Kind::Text { optional: true }, "");
        assert!(matches!(
            &d.check().unwrap().clients[0].job[n + 4],
            Step::Effect {
                idempotency_key: None,
                ..
            }
        ));
        for _ in 0..d.len(job) {
            d.remove(job, 0).unwrap();
        }
        assert_eq!(d.problems()[0].path, job);
        assert_eq!(
            d.problems()[0].whole(),
            "Client 1: Job steps: a job needs at least one step"
        );
    }
}
