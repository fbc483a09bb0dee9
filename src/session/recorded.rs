//! Model vs reality on the page: a recording of a real run (`model::recorded`, from the lab
//! or from someone's own system) opened as the run on screen, checked by the same checker,
//! with the model's run of the scenario it came from drawn beside it.
//!
//! The recording is shown, not simulated: it has no scenario to edit. So any edit (the
//! fence switch, a fault from the stage, undo) leaves it for the model's own run of the
//! scenario it ran — `Session::rerun` forgets the recording — and the link of a recording
//! is the name of a built-in one (`rec=NAME`, fetched by the page) or nothing. A recording
//! that names no scenario of the model is drawn over a stand-in (`stand_in`: as many
//! clients, no faults), which is not its scenario: the page says nothing of the stand-in's
//! service or fence, its tools that read a scenario say there is none, and an edit of it
//! is refused (`Session::recording_unmodelled`).

use super::page::Session;
use super::run::{Run, Versus};
use crate::analysis::compare::{agreement, Agreement, Moment, TARGET_MS};
use crate::model::recorded::{self, Recording, Role};
use crate::model::scenario::Scenario;
use crate::session::carries::PageCourse;
use crate::teach::course::Catalog;
use crate::view::playback::Cursor;
use crate::vocab::numbers::fmt_ms;
use std::rc::Rc;

pub use super::run::{Recorded, BUILT_IN};

impl Session {
    /// The service of a recording on screen with no scenario of the model behind it
    /// (`Recorded::unmodelled`): what the page says of its service and fence comes from
    /// the recording alone. A player opens no recording (`Action::OpenRecorded` is the
    /// whole app's), so its build says so as a constant and links none of those words.
    pub fn recording_unmodelled(&self) -> Option<Rc<str>> {
        #[cfg(not(feature = "player"))]
        return self
            .doc
            .recorded
            .as_ref()
            .and_then(|r| r.unmodelled.clone());
        #[cfg(feature = "player")]
        None
    }

    /// Opens a recording (`text`, the format of docs/trace-format.md) as the run on screen,
    /// beside the model's run of `scenario` (its JSON; else the built-in scenario the
    /// header names, if any). A refusal names the line and field, and keeps the run on
    /// screen.
    pub(super) fn open_recorded(&mut self, text: &str, scenario: Option<&str>, name: Option<&str>) {
        let rec = match recorded::parse(text) {
            Ok(r) => r,
            Err(e) => {
                self.doc.error = Some(format!("recorded trace: {e}"));
                return;
            }
        };
        let model = match scenario {
            Some(json) => match Scenario::from_json(json) {
                Ok(sc) => Some(sc),
                Err(e) => {
                    self.doc.error = Some(format!("the recording's scenario: {e}"));
                    return;
                }
            },
            None => rec.header.scenario.as_deref().and_then(PageCourse::open),
        };
        let trace = recorded::to_trace(&rec);
        let shown = model.clone().unwrap_or_else(|| stand_in(&rec, trace.end.0));
        self.load(None, shown.clone());
        // `load` simulated the scenario: that is the model's run, drawn beside the recording.
        let simulated = self.doc.run.clone();
        self.doc.run = Rc::new(Run::of_trace(Rc::new(shown), trace));
        self.play.state = Rc::new(self.doc.run.state_at(0));
        self.teach.beats = Rc::new(Vec::new());
        self.play.cursor = Cursor::START;
        self.move_to(Cursor::START);
        let title = name
            .and_then(|n| BUILT_IN.iter().find(|(k, _)| *k == n))
            .map_or("A recorded run", |(_, t)| t);
        self.doc.recorded = Some(Rc::new(Recorded {
            title: Rc::from(title),
            name: name.map(Rc::from),
            about: about(&rec),
            unmodelled: model
                .is_none()
                .then(|| Rc::from(rec.header.service.as_deref().unwrap_or("system"))),
        }));
        self.doc.versus = model.map(|_| {
            let run = simulated;
            let a = agreement(&run.trace, &self.doc.run.trace);
            let state = Rc::new(run.state_at(0));
            Versus {
                with: Rc::from(MODEL),
                // Where the two stories part, or else where a moment first departs in time.
                divergence: a
                    .parts
                    .and_then(|(_, real)| real)
                    .or(a.departs.map(|(_, _, real)| real)),
                note: Some(Rc::from(
                    agreement_words(&a, &run, &self.doc.run, rec.header.service.as_deref())
                        .as_str(),
                )),
                run,
                state,
            }
        });
    }
}

/// What the comparison of a recording with the model is called (not a scenario name).
pub const MODEL: &str = "@model";

/// A stand-in scenario for a recording of unknown origin: the default page's, with as many
/// clients as the recording has, running to its end — so the stage and the lanes have the
/// recording's nodes. Nothing is simulated from it while the recording is on screen.
fn stand_in(rec: &Recording, end_ms: i64) -> Scenario {
    let mut sc = PageCourse::open(super::DEFAULT).unwrap_or_else(|| unreachable!("built in"));
    let clients = rec
        .header
        .nodes
        .iter()
        .filter(|n| n.role == Role::Client)
        .count()
        .max(1);
    let first = sc.clients[0].clone();
    sc.clients.resize(clients, first);
    sc.faults.clear();
    sc.name = "A recorded run".to_string();
    sc.description.clear();
    sc.horizon_ms = end_ms.max(1);
    sc
}

fn about(rec: &Recording) -> String {
    let h = &rec.header;
    let service = h.service.as_deref().unwrap_or("system");
    let read = ", read from its recorded trace and judged by the same checker as the model's runs.";
    // `source` is free text, "who wrote the file": the lab, a hand, the model's exporter
    // (whose run is no real one).
    let mut s = match h.source.as_deref() {
        Some("model") => "The model's own run, written out as a recorded trace and judged by \
                          the same checker as the model's runs."
            .to_string(),
        Some("hand") => format!("What happened on a real {service} (written by hand){read}"),
        Some(src) => format!("What happened on a real {service} (recorded by the {src}){read}"),
        None => format!("What happened on a real {service}{read}"),
    };
    s.push_str(&own_names(rec));
    if let Some(n) = &h.notes {
        s.push(' ');
        s.push_str(n);
    }
    s
}

/// The recording's own names for its nodes, where they are not the page's: the lanes, the
/// stage and the verdict say "client 1" and "the lock service", so a file that calls them
/// "worker-a" and "etcd-0" (or a Jepsen history's "process 0") is read against its own
/// words (" Its nodes: “worker-a” is client 1, …"). Nothing when every name is the page's
/// (or its short one, the lab's "c1"), or the service's own for the lock service (the
/// lab's "redis", which the sentence before already says).
fn own_names(rec: &Recording) -> String {
    let service = rec.header.service.as_deref().unwrap_or_default();
    let said: Vec<String> = rec
        .header
        .nodes
        .iter()
        .zip(recorded::convert::model_ids(rec))
        .filter(|(n, id)| {
            let page = id.name();
            // ASCII case only: Unicode's case tables would cost the wasm several KB.
            let same = |ours: &str| n.name.eq_ignore_ascii_case(ours);
            let ours = [
                page.as_str(),
                page.trim_start_matches("the "),
                &id.to_string(),
            ];
            !ours.into_iter().any(same) && (id.is_client() || !same(service))
        })
        .map(|(n, id)| format!("“{}” is {}", n.name, id.name()))
        .collect();
    if said.is_empty() {
        return String::new();
    }
    format!(" Its nodes: {}.", said.join(", "))
}

/// Why a real service's moment lands later than the model's, where the service is known
/// to work so: a clause that starts with " — ", or nothing.
fn why_apart(service: Option<&str>) -> &'static str {
    match service {
        Some("etcd") => {
            " — the lab's etcd client checks every 20 ms whether the lock is free again, \
             and each etcd request takes its own time, where the model's waiter is told at once"
        }
        Some("zookeeper") => {
            " — ZooKeeper expires a session on a tick of its own (tickTime), which the \
             model follows only when the scenario says the tick (coordinator.tick_ms)"
        }
        _ => "",
    }
}

/// The comparison in words: where model and reality part; or the first moment whose times
/// differ by more than the target, and why where the service is known to differ; or that
/// they agree and by how much their times differ. `service`: the recording's.
fn agreement_words(a: &Agreement, model: &Run, real: &Run, service: Option<&str>) -> String {
    let moment =
        |i: usize| Moment::of_entry(&model.trace.entries[i]).map_or(String::new(), |m| m.words());
    let gap = a.largest_gap.map(|(ms, i, _)| {
        format!(
            "the largest time difference is {} ({})",
            fmt_ms(ms),
            moment(i)
        )
    });
    match (a.parts, a.departs) {
        (None, Some((ms, i, _))) => format!(
            "Model and reality tell the same story ({} key moments, in the same order), but \
             the first moment to depart is {}: {} apart, beyond the ±{} ms target{}.",
            a.matched.len(),
            moment(i),
            fmt_ms(ms),
            TARGET_MS,
            why_apart(service)
        ),
        (None, None) => format!(
            "Model and reality agree on all {} key moments (grants, writes accepted and refused) \
             within ±{} ms{}.",
            a.matched.len(),
            TARGET_MS,
            gap.map_or(String::new(), |g| format!("; {g}"))
        ),
        (Some((m, r)), _) => {
            let say = |run: &Run, i: Option<usize>| {
                i.and_then(|i| Moment::of_entry(&run.trace.entries[i]))
                    .map_or("nothing more".to_string(), |m| m.words())
            };
            format!(
                "Model and reality agree on {} key moments, then part: the model has {} where the real run has {}.",
                a.matched.len(),
                say(model, m),
                say(real, r)
            )
        }
    }
}
