//! One simulated run and everything derived from it once: the trace, its verdict, the
//! projection's keyframes, the diagram's geometry, the stage's positions, the notable steps.
//!
//! A run is built when the scenario changes and then only read: scrubbing projects the state
//! at the cursor from the keyframes, it never re-simulates.

use crate::analysis::check::{check, Verdict};
use crate::analysis::projection::{Projection, State};
use crate::model::scenario::{FenceMode, Scenario};
use crate::model::sim::{self, Kit};
use crate::model::trace::Trace;
use crate::session::carries::{PageDetail, PageKit};
use crate::teach::facts::Facts;
use crate::teach::narrate;
use crate::view::layout::{self, Diagram, StageNode};
use crate::view::playback;
use std::rc::Rc;

/// One simulated run and everything derived from it once.
pub struct Run {
    pub scenario: Rc<Scenario>,
    pub trace: Trace,
    pub verdict: Verdict,
    pub projection: Projection,
    /// What any layout of this run reads from the whole trace, gathered once: a zoom
    /// window or a narrow screen is laid out from it without walking the trace again.
    pub index: layout::Index<PageDetail>,
    /// Shared, so the diagram of the whole run is drawn from this one layout, never copied.
    pub diagram: Rc<Diagram<PageDetail>>,
    pub stage: Vec<StageNode>,
    pub notable: Vec<usize>,
    pub flights: Vec<(i64, i64)>,
    pub digest: String,
}

/// Runs compare by identity: props holding an `Rc<Run>` are equal only when they hold the
/// same run, so a large trace is never deep-compared on render.
impl PartialEq for Run {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Run {
    pub fn new(scenario: Rc<Scenario>) -> Run {
        debug_assert!(PageKit::carries(&scenario), "{}", scenario.name);
        let trace = sim::run_with::<PageKit>(&scenario);
        Run::of_trace(scenario, trace)
    }

    /// A run whose trace was not simulated from `scenario` but given: a recording of a
    /// real run (`model::recorded`), drawn and checked exactly as a simulated one is.
    /// `scenario` is the one it was recorded from, or a stand-in with its nodes.
    pub fn of_trace(scenario: Rc<Scenario>, trace: Trace) -> Run {
        let verdict = check(&trace);
        let projection = Projection::new(&trace);
        let index = layout::Index::new(&trace);
        let diagram = Rc::new(layout::layout_rows::<PageDetail>(
            &index,
            &trace,
            &verdict,
            layout::DIAGRAM_WIDTH,
            layout::LANE_H,
            None,
        ));
        let stage = layout::stage_nodes(&scenario.nodes());
        let notable = narrate::notable_steps(&trace);
        let flights = playback::flights(&trace);
        let digest = trace.digest_hex();
        Run {
            scenario,
            trace,
            verdict,
            projection,
            index,
            diagram,
            stage,
            notable,
            flights,
            digest,
        }
    }

    /// What a walkthrough beat's numbers are read from.
    pub fn facts(&self) -> Facts<'_> {
        Facts::new(
            &self.trace,
            &self.scenario,
            &self.projection,
            sim::run_with::<PageKit>,
        )
    }

    pub fn state_at(&self, step: usize) -> State {
        self.projection.state_at(&self.trace, step)
    }

    pub fn end_ms(&self) -> f64 {
        self.trace.end.0 as f64
    }

    pub fn fenced(&self) -> bool {
        self.scenario.storage.fence != FenceMode::None
    }
}

/// The second run of a comparison.
#[derive(Clone)]
pub struct Versus {
    pub with: Rc<str>,
    pub run: Rc<Run>,
    pub divergence: Option<usize>,
    /// What to say of the comparison instead of the divergence's own sentence (a recording
    /// beside the model: `session::recorded`).
    pub note: Option<Rc<str>>,
    /// B's projected state under A's cursor time, kept by the session like A's, so B's
    /// diagram redraws only when it changes.
    pub state: Rc<State>,
}

/// A recording of a real run on screen (`session::recorded`).
#[derive(Clone, Debug, PartialEq)]
pub struct Recorded {
    /// What the page calls it ("Recorded on a real Redis").
    pub title: Rc<str>,
    /// A built-in recording's name (its link, `rec=NAME`); `None` for an imported file.
    pub name: Option<Rc<str>>,
    /// Where it came from, in a sentence (service, source, the header's notes).
    pub about: String,
    /// The lock service as the recording names it ("system" when it names none), when no
    /// scenario of the model stands behind it — an imported file naming no built-in one,
    /// shown over a stand-in scenario. The page then says nothing of the stand-in's
    /// service or fence, which are not the recording's; `None` when a scenario does.
    pub unmodelled: Option<Rc<str>>,
}

/// The built-in recordings, as the lab wrote them (tests/recorded/lab/, copied beside the
/// app with the scenario files they ran: fetched when opened, never in the first load).
pub const BUILT_IN: [(&str, &str); 8] = [
    (
        "gc-pause-redis",
        "Recorded on a real Redis: GC pause, no fence",
    ),
    (
        "gc-pause-etcd",
        "Recorded on a real etcd: GC pause, fenced by the create revision",
    ),
    (
        "gc-pause-etcd-exact",
        "Recorded on a real etcd: GC pause, exact fence in one transaction",
    ),
    (
        "ttl-short-etcd",
        "Recorded on a real etcd: lease shorter than the work, no keepalives",
    ),
    (
        "partition-etcd",
        "Recorded on a real etcd: cut from etcd, not from storage",
    ),
    (
        "gc-pause-etcd-pg",
        "Recorded on a real etcd and PostgreSQL: GC pause, the stale write refused by one conditional upsert",
    ),
    (
        "non-atomic-etcd-pg",
        "Recorded on a real etcd and PostgreSQL: the token checked, then written, in two statements",
    ),
    (
        "gc-pause-zookeeper",
        "Recorded on a real ZooKeeper: a stopped holder's session expires",
    ),
];
