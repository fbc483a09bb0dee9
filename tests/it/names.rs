//! One name per node, and plain words for fixes and terms, in everything a learner reads
//! (the lock service was "Coordinator", "Lock" and "the coordinator", storage
//! "Storage" and "DB"; fixes showed as slugs; "monotone" and "superseded holder" went
//! unexplained).
//!
//! The test gathers every text table the page draws from — scenario names and
//! descriptions, walkthrough beats as told over their runs, the interview questions, the
//! chapter menu with its fixes, the narration and verdict of every built-in run, the
//! diagram's lanes, marks and tooltips, the stage's names and node actions, the fence
//! labels and the primers — and looks for the retired names in all of them.

use leaseline::analysis::projection::State;
use leaseline::model::scenario::{FenceMode, Flavor};
use leaseline::session::edit::{actions_for, Target};
use leaseline::session::Run;
use leaseline::teach::flavor_presets::FLAVOR_PRESETS;
use leaseline::teach::presets::PRESETS;
use leaseline::teach::quiz::QUESTIONS;
use leaseline::teach::walkthrough::WALKTHROUGHS;
use leaseline::teach::{course, narrate};
use leaseline::view::layout::Label;
use leaseline::vocab::ids::NodeId;
use std::rc::Rc;

/// Where `word` stands in `text` as a word of its own (not inside a longer word).
fn words_at<'a>(text: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let edge = |c: Option<char>| c.is_none_or(|c| !c.is_ascii_alphanumeric());
    text.match_indices(word).map(|(i, _)| i).filter(move |&i| {
        edge(text[..i].chars().next_back()) && edge(text[i + word.len()..].chars().next())
    })
}

fn has_word(text: &str, word: &str) -> bool {
    words_at(text, word).next().is_some()
}

/// What is wrong with `text`, if anything: a retired node name, a fix's slug, or a term
/// shown without its explanation.
fn retired(text: &str, slugs: &[&str]) -> Option<String> {
    let lower = text.to_lowercase();
    if lower.contains("coordinator") || text.contains("Coord.") {
        return Some("\"coordinator\": the node is \"the lock service\"".into());
    }
    if lower.contains("lock server") {
        return Some("\"lock server\": the node is \"the lock service\"".into());
    }
    // The ids links and the JSON use ("coord", "coord4") are not names to read (a
    // template's placeholder, "{coord_clock_s}", is filled before it is shown).
    let unfilled: String = text
        .split('{')
        .enumerate()
        .map(|(i, p)| {
            if i == 0 {
                p
            } else {
                p.split_once('}').map_or(p, |(_, rest)| rest)
            }
        })
        .collect();
    if ["coord", "coord2", "coord3", "coord4", "coord5"]
        .iter()
        .any(|w| has_word(&unfilled, w))
    {
        return Some("\"coord…\": the node is \"the lock service\" or \"lock service N\"".into());
    }
    if has_word(text, "token 0") || has_word(text, "expired 0") || has_word(text, "exp 0") {
        return Some("\"token 0\": say \"no token\"".into());
    }
    if has_word(text, "DB") {
        return Some("\"DB\": the node is \"storage\"".into());
    }
    // "Lock" alone was the lock service's badge; "Lock service" is its name.
    if words_at(text, "Lock").any(|i| !text[i..].starts_with("Lock service")) {
        return Some("\"Lock\": the node is \"Lock service\"".into());
    }
    if has_word(text, "monotone") {
        return Some("\"monotone\": say what the fence does (\"reject lower tokens\")".into());
    }
    if let Some(i) = lower.find("superseded holder") {
        if !lower[i..].starts_with(&narrate::SUPERSEDED[2..]) {
            return Some("\"superseded holder\" without its explanation".into());
        }
    }
    slugs
        .iter()
        .find(|s| lower.contains(*s))
        .map(|s| format!("the fix's slug \"{s}\" (show its title)"))
}

fn labels<'a>(
    l: impl IntoIterator<Item = &'a Option<Label>> + 'a,
) -> impl Iterator<Item = String> + 'a {
    l.into_iter().flatten().map(|l| l.text.clone())
}

/// Every text a run puts on the page: its scenario's words, the narration, the verdict,
/// the walkthrough's beats over it, the diagram, the stage and the inspector.
fn run_texts(name: &str) -> Vec<String> {
    let sc = course::open(name).unwrap_or_else(|| panic!("{name} does not open"));
    let run = Run::new(Rc::new(sc));
    let (trace, verdict) = (&run.trace, &run.verdict);
    let mut out = vec![run.scenario.name.clone(), run.scenario.description.clone()];
    out.extend(
        narrate::transcript(trace, verdict, &run.projection)
            .into_iter()
            .map(|l| l.text),
    );
    out.push(narrate::ending(verdict));
    out.push(narrate::verdict_line(verdict));
    let (_, head, items) = narrate::verdict_so_far(verdict, trace.len(), true);
    out.push(head);
    out.extend(items.into_iter().map(|i| i.text));
    out.push(narrate::side_line(&run.scenario, verdict, &run.scenario));
    if let Some(w) = course::walkthrough(name) {
        let facts = run.facts();
        for (b, at) in w.place(&facts).into_iter().enumerate() {
            out.extend(at.and_then(|i| w.text(b, i, &facts)));
        }
        out.extend(w.try_it_text(&facts));
    }
    let d = &run.diagram;
    out.extend(
        d.lanes
            .iter()
            .flat_map(|l| [l.name.clone(), l.label.to_string()]),
    );
    out.extend(d.bars.iter().map(|b| b.title.clone()));
    out.extend(labels(d.bars.iter().map(|b| &b.label)));
    out.extend(d.arrows.iter().map(|a| a.title.clone()));
    out.extend(labels(d.arrows.iter().map(|a| &a.label)));
    out.extend(d.marks.iter().map(|m| m.title.clone()));
    out.extend(labels(d.marks.iter().map(|m| &m.label)));
    out.extend(d.bands.iter().map(|b| b.label.clone()));
    out.extend(labels(d.bands.iter().map(|b| &b.tag)));
    // And the drawing as the page renders it: every text and hover title of its markup.
    let svg = leaseline::view::export::svg::diagram_body(d);
    out.extend(
        svg.split('<')
            .filter_map(|part| part.split_once('>').map(|(_, text)| text))
            .filter(|text| !text.trim().is_empty())
            .map(|text| {
                text.replace("&amp;", "&")
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
            }),
    );
    let end: State = run.state_at(trace.len());
    let nodes = run.scenario.nodes();
    let alone = run.scenario.coord_nodes().len() == 1;
    for s in &run.stage {
        out.push(s.name.clone());
        out.push(s.node.badge());
        let a = actions_for(Target::Node(s.node), &end, 0);
        out.push(a.title);
        out.extend(a.items.into_iter().map(|i| i.0));
    }
    for &n in nodes.iter().filter(|n| !n.is_client()) {
        let a = actions_for(Target::Link(NodeId::Client(0), n), &end, 0);
        out.push(a.title);
        out.extend(a.items.into_iter().map(|i| i.0));
        if let NodeId::Coord(_) = n {
            out.push(narrate::coord_row(&end, n, alone).1);
        }
    }
    out.push(narrate::storage_holds(&end));
    out
}

/// Every scenario the page can open by name: the presets, every lesson and every fix.
fn every_scenario() -> Vec<String> {
    let mut v: Vec<String> = PRESETS.iter().map(|p| p.name.to_string()).collect();
    for c in course::menu() {
        for l in c.lessons {
            v.push(l.id.to_string());
            v.extend(l.fixes.into_iter().map(|f| f.scenario));
        }
    }
    v.sort();
    v.dedup();
    v
}

/// The texts that do not depend on a run: the menu, the questions, the beats as written,
/// the presets' and services' summaries, the fence labels, the primers and node names.
fn static_texts() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in course::menu() {
        out.push(c.title.to_string());
        for l in c.lessons {
            out.push(l.title);
            for f in l.fixes {
                out.extend([f.title.to_string(), f.summary.to_string()]);
                out.push(course::variant_label(&f.scenario));
            }
        }
    }
    for w in WALKTHROUGHS {
        out.extend(w.beats.iter().map(|b| b.text.to_string()));
        out.push(w.try_it.to_string());
    }
    for q in QUESTIONS {
        out.extend([q.asks, q.model_answer].map(str::to_string));
        for s in q.stops {
            out.extend([s.question, s.explain].map(str::to_string));
            out.extend(s.choices.iter().map(|c| c.text.to_string()));
        }
    }
    out.extend(PRESETS.iter().map(|p| p.summary.to_string()));
    out.extend(FLAVOR_PRESETS.iter().map(|p| p.summary.to_string()));
    for f in Flavor::ALL {
        out.extend([f.explainer().to_string(), f.fence_offered().to_string()]);
        out.push(narrate::explainer_summary(f));
        let (a, b) = narrate::service_line(f);
        out.extend([a, b]);
    }
    for f in FenceMode::ALL {
        out.extend([f.label().to_string(), narrate::fence_words(f)]);
    }
    out.extend([narrate::FENCING_PRIMER, narrate::PPM].map(str::to_string));
    let nodes = (0..8)
        .map(NodeId::Client)
        .chain((0..5).map(NodeId::Coord))
        .chain([NodeId::Storage]);
    for n in nodes {
        out.extend([n.name(), n.lane().to_string(), n.badge()]);
    }
    out
}

/// The fix slugs a learner must never read as a name. ("lock-delay" is also the
/// mechanism's own name in Consul's and Chubby's docs, so prose may use the word.)
fn slugs() -> Vec<&'static str> {
    let mut v: Vec<&str> = course::menu()
        .into_iter()
        .flat_map(|c| c.lessons)
        .flat_map(|l| l.fixes)
        .map(|f| f.name)
        .filter(|n| n.contains('-') && *n != "lock-delay")
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn no_retired_node_name_is_shown() {
    let slugs = slugs();
    assert!(slugs.contains(&"abort-on-loss") && slugs.contains(&"fencing-and-key"));
    let mut bad: Vec<String> = Vec::new();
    let mut scan = |from: &str, texts: Vec<String>| {
        for t in texts {
            if let Some(why) = retired(&t, &slugs) {
                bad.push(format!("{from}: {why}\n    in: {t}"));
            }
        }
    };
    scan("static text", static_texts());
    let all = every_scenario();
    assert!(all.len() > 40, "{} scenarios", all.len());
    for name in &all {
        scan(name, run_texts(name));
    }
    assert!(
        bad.is_empty(),
        "{} retired names shown:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn one_name_per_node_in_prose_lanes_and_badges() {
    let same = |n: NodeId, prose: &str, lane: &str, badge: &str| {
        assert_eq!(
            (n.name().as_str(), n.lane(), n.badge().as_str()),
            (prose, lane, badge)
        );
    };
    same(NodeId::Client(0), "client 1", "Client 1", "C1");
    same(
        NodeId::COORD,
        "the lock service",
        "Lock service",
        "Lock service",
    );
    same(
        NodeId::Coord(2),
        "lock service 3",
        "Lock service 3",
        "Lock service 3",
    );
    same(NodeId::Storage, "storage", "Storage", "Storage");
}

#[test]
fn the_scan_catches_each_retired_name() {
    let s = ["abort-on-loss"];
    for t in [
        "the coordinator granted the lock",
        "Coordinator",
        "Coord. 2",
        "C1 → DB",
        "Lock",
        "the lock server restarts",
        "fence: monotone",
        "a superseded holder changed the data",
        "fix: abort-on-loss",
        "cut from coord4",
        "c2 holds token 0",
        "expired 0",
    ] {
        assert!(retired(t, &s).is_some(), "{t}");
    }
    for t in [
        "the lock service granted the lock",
        "Lock service 2",
        "storage (DBs are fine inside words: DBMS)",
        "a monotonic clock",
        "Stop when the lock is lost",
        "cut from lock service 4",
        "token 34 (token 03 is no id)",
        &narrate::plain("x: a superseded holder changed the data"),
    ] {
        assert!(retired(t, &s).is_none(), "{t}: {:?}", retired(t, &s));
    }
}
