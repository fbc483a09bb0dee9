//! The architecture, checked: `src/`'s folders are floors, and a floor imports only the
//! floors below it; inside any folder, no two modules import each other, directly or round
//! a circle.
//!
//! The floors, bottom up: `vocab` (ids, time, names), `model` (scenario, sim, trace),
//! `analysis` (projection, checker), `teach` (lessons, narration), `view` (geometry),
//! `session` (the page's state, links), then `ui` (Yew) and `cli` at the top.
//!
//! How: every `crate::…`, `super::…` and `self::…` path in non-test code (everything before a
//! file's `#[cfg(test)]`; tests may use any floor for fixtures) is resolved to the module
//! file it names; an edge between two modules is then lifted to the siblings that contain
//! them, at every level of the tree, and each level is searched for a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

const FLOORS: [&str; 9] = [
    "vocab", "model", "analysis", "teach", "view", "session", "ui", "cli", "main",
];

type Module = Vec<String>;

fn modules(dir: &Path, prefix: &[String], out: &mut BTreeMap<Module, String>) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.is_dir() {
            let mut next = prefix.to_vec();
            next.push(name);
            modules(&p, &next, out);
        } else if let Some(stem) = name.strip_suffix(".rs") {
            let mut m = prefix.to_vec();
            if !matches!(stem, "mod" | "lib") {
                m.push(stem.to_string());
            }
            let text = fs::read_to_string(&p).unwrap();
            // Test code may reach any floor; the architecture is about what ships.
            let shipped = text.split("#[cfg(test)]").next().unwrap_or("");
            let code: String = shipped
                .lines()
                .map(|l| l.split("//").next().unwrap_or(""))
                .collect::<Vec<_>>()
                .join("\n");
            out.insert(m, code);
        }
    }
}

/// Every path starting with `crate`, `super` or `self`, with `use` groups expanded one level.
fn paths(code: &str) -> Vec<Vec<String>> {
    let bytes: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let rest: String = bytes[i..bytes.len().min(i + 6)].iter().collect();
        let starts = ["crate::", "super::", "self::"]
            .iter()
            .any(|s| rest.starts_with(&s[..s.len().min(rest.len())]) && rest.len() >= 5);
        let boundary = i == 0
            || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_' || bytes[i - 1] == ':');
        if starts && boundary {
            // Read `a::b::c` and, if it ends in `::{`, the group after it.
            let mut j = i;
            let mut segs = vec![String::new()];
            while j < bytes.len() {
                let c = bytes[j];
                if c.is_alphanumeric() || c == '_' {
                    segs.last_mut().unwrap().push(c);
                    j += 1;
                } else if bytes[j..].starts_with(&[':', ':']) {
                    j += 2;
                    if bytes.get(j) == Some(&'{') {
                        let end = bytes[j..]
                            .iter()
                            .position(|&c| c == '}')
                            .map_or(bytes.len(), |p| j + p);
                        let group: String = bytes[j + 1..end].iter().collect();
                        for item in group.split(',') {
                            let first = item.trim().split("::").next().unwrap_or("").trim();
                            if !first.is_empty() && first != "self" {
                                let mut p = segs.clone();
                                p.push(first.split_whitespace().next().unwrap().to_string());
                                out.push(p);
                            }
                        }
                        j = end;
                        break;
                    }
                    segs.push(String::new());
                } else {
                    break;
                }
            }
            segs.retain(|s| !s.is_empty());
            if segs.len() > 1 && ["crate", "super", "self"].contains(&segs[0].as_str()) {
                out.push(segs);
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

fn resolve(from: &Module, path: &[String], mods: &BTreeMap<Module, String>) -> Option<Module> {
    let mut base: Vec<String> = match path[0].as_str() {
        "crate" => vec![],
        _ => from.clone(),
    };
    let mut rest = &path[1..];
    if path[0] == "super" {
        base.pop();
        while rest.first().map(String::as_str) == Some("super") {
            base.pop();
            rest = &rest[1..];
        }
    }
    let full: Vec<String> = base.into_iter().chain(rest.iter().cloned()).collect();
    (0..=full.len())
        .rev()
        .map(|n| full[..n].to_vec())
        .find(|m| mods.contains_key(m))
}

fn edges() -> BTreeSet<(Module, Module)> {
    let mut mods = BTreeMap::new();
    modules(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &[],
        &mut mods,
    );
    let mut e = BTreeSet::new();
    for (m, code) in &mods {
        for p in paths(code) {
            if let Some(t) = resolve(m, &p, &mods) {
                if &t != m {
                    e.insert((m.clone(), t));
                }
            }
        }
    }
    assert!(
        e.len() > 100,
        "the reader found the imports ({} edges)",
        e.len()
    );
    e
}

#[test]
fn each_floor_imports_only_the_floors_below_it() {
    let rank = |m: &Module| {
        let top = m.first().map_or("main", String::as_str);
        FLOORS
            .iter()
            .position(|f| *f == top)
            .unwrap_or_else(|| panic!("{top}: not a floor"))
    };
    let up: Vec<String> = edges()
        .into_iter()
        .filter(|(a, b)| !a.is_empty() && !b.is_empty() && rank(b) > rank(a))
        .map(|(a, b)| format!("{} → {}", a.join("::"), b.join("::")))
        .collect();
    assert!(
        up.is_empty(),
        "imports from a higher floor:\n{}",
        up.join("\n")
    );
}

#[test]
fn no_folder_has_an_import_circle() {
    let edges = edges();
    // For every folder, the graph of its children (an edge between descendants lifted).
    let mut levels: BTreeMap<Module, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for (a, b) in &edges {
        let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        if common < a.len() && common < b.len() {
            levels
                .entry(a[..common].to_vec())
                .or_default()
                .entry(a[common].clone())
                .or_default()
                .insert(b[common].clone());
        }
    }
    let mut circles = Vec::new();
    for (parent, g) in &levels {
        // Depth-first search for a back edge.
        fn visit(
            n: &str,
            g: &BTreeMap<String, BTreeSet<String>>,
            state: &mut BTreeMap<String, u8>,
            stack: &mut Vec<String>,
            found: &mut Vec<String>,
        ) {
            state.insert(n.to_string(), 1);
            stack.push(n.to_string());
            for m in g.get(n).into_iter().flatten() {
                match state.get(m.as_str()) {
                    Some(1) => {
                        let at = stack.iter().position(|s| s == m).unwrap();
                        found.push(format!("{} → {m}", stack[at..].join(" → ")));
                    }
                    Some(_) => {}
                    None => visit(m, g, state, stack, found),
                }
            }
            stack.pop();
            state.insert(n.to_string(), 2);
        }
        let mut state = BTreeMap::new();
        for n in g.keys() {
            if !state.contains_key(n.as_str()) {
                let mut found = Vec::new();
                visit(n, g, &mut state, &mut Vec::new(), &mut found);
                for f in found {
                    circles.push(format!(
                        "in {}: {f}",
                        if parent.is_empty() {
                            "src".into()
                        } else {
                            parent.join("/")
                        }
                    ));
                }
            }
        }
    }
    assert!(
        circles.is_empty(),
        "import circles:\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_reader_sees_a_planted_circle() {
    // The check itself must be able to fail: a lifted edge each way is a circle.
    let code = "use crate::model::trace::Event;\nfn f() { crate::vocab::time::Time(0); }\nuse super::{json, ids::NodeId};";
    let p = paths(code);
    assert!(p.contains(&vec![
        "crate".into(),
        "model".into(),
        "trace".into(),
        "Event".into()
    ]));
    assert!(p.contains(&vec![
        "crate".into(),
        "vocab".into(),
        "time".into(),
        "Time".into()
    ]));
    assert!(p.contains(&vec!["super".into(), "json".into()]));
    assert!(p.contains(&vec!["super".into(), "ids".into()]));
}
