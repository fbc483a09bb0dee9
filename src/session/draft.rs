//! The scenario editor's draft: a scenario being edited field by field, kept as the JSON
//! document of docs/scenario-format.md so that any state of the form — even an invalid
//! one — can be shown, stored (the browser keeps it in localStorage) and checked.
//!
//! Checking is the scenario format's own: [`Draft::check`] runs the same decoder and
//! validator as an import, so the editor's errors name the same field paths
//! (`clients[1].ttl_ms: …`) and nothing the editor accepts can fail to load.

use crate::model::scenario::{Scenario, ScenarioError};
use crate::vocab::json::{self, Json};

#[derive(Clone, Debug, PartialEq)]
pub struct Draft {
    doc: Json,
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
        }
    }

    /// A stored draft (what [`text`](Self::text) wrote); `None` if it is not JSON.
    pub fn from_text(text: &str) -> Option<Draft> {
        json::parse(text).ok().map(|doc| Draft { doc })
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
        self.set("clients", Some(Json::Arr(items)))
    }

    /// The scenario, exactly as an import would read it, or the first error by field.
    pub fn check(&self) -> Result<Scenario, ScenarioError> {
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
}
