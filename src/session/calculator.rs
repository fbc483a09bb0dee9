//! The safety calculator's form: the numbers a reader types and the fence they pick, read
//! into a bound or into a message at the field at fault. The bound is `analysis::bound`'s;
//! this is only what the page's panel would otherwise decide in a component — the starting
//! values (client 1, its work before the write, the scenario's fence and its own bounds),
//! the rules a value must keep, and which field a refusal of the bound belongs to — so it
//! is tested here, with no browser. The reader may also ask about another lock service or
//! another fence than the scenario's: the scenario is then switched to it the way the
//! editor and the settings switch it (`edit::set_flavor`, `storage.fence`), and the bound
//! read from that.

use crate::analysis::bound::{
    bound, first_action, holder_of, later_actions, work_before_write, Bound, Env, Holder, Refusal,
};
use crate::model::flavors::Flavor;
use crate::model::scenario::{FenceMode, Kind, Scenario, Step};
use crate::session::edit::set_flavor;
use crate::session::share::{encode, Source, ViewState};

/// One number of the form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    /// The key of its element ids (`calc-ttl`).
    pub key: &'static str,
    /// Its label on the page, with the unit.
    pub label: &'static str,
    /// What its messages call it ("Work W: not a whole number").
    pub noun: &'static str,
    /// What a refusal of `analysis::bound` calls it (never shown: it only says which field
    /// a refusal belongs to).
    pub option: &'static str,
}

/// The fields, in the order the page shows them.
pub const FIELDS: [Field; 6] = [
    Field {
        key: "ttl",
        label: "TTL (ms)",
        noun: "TTL",
        option: "--ttl",
    },
    Field {
        key: "margin",
        label: "Safety margin (ms)",
        noun: "Safety margin",
        option: "--margin",
    },
    Field {
        key: "work",
        label: "Work before the write W (ms)",
        noun: "Work W",
        option: "--work-ms",
    },
    Field {
        key: "pause",
        label: "Longest pause P (ms)",
        noun: "Longest pause P",
        option: "--max-pause-ms",
    },
    Field {
        key: "delay",
        label: "Longest one-way delay D (ms)",
        noun: "Longest delay D",
        option: "--max-delay-ms",
    },
    Field {
        key: "drift",
        label: "Largest clock drift ρ (ppm)",
        noun: "Largest drift ρ",
        option: "--max-drift-ppm",
    },
];

/// The fields' indexes in [`FIELDS`] and [`Form::values`].
pub const TTL: usize = 0;
pub const MARGIN: usize = 1;
pub const WORK: usize = 2;
/// The pause field, which "Pauses have no bound" switches off.
pub const PAUSE: usize = 3;
pub const DELAY: usize = 4;
pub const DRIFT: usize = 5;

/// What the reader has typed and picked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Form {
    pub values: [String; 6],
    /// "Pauses have no bound": the pause field is not read.
    pub unbounded: bool,
    /// The lock service asked about, when the reader picked another than the scenario's.
    pub flavor: Option<Flavor>,
    /// The fence at storage asked about, when the reader picked another than the
    /// scenario's.
    pub fence: Option<FenceMode>,
}

/// The form read: a message per field (none where the value is fine) and, when every
/// field is fine, the bound.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    pub holder: Holder,
    pub errors: [Option<String>; 6],
    pub bound: Option<Bound>,
}

impl Form {
    /// The form as it starts for `sc`: its client 1 (its TTL, margin and work before the
    /// write), its fence and its own bounds (also when the calculator refuses that client:
    /// the reader may pick another lock service).
    pub fn of(sc: &Scenario) -> Form {
        let env = Env::of_scenario(sc);
        let (ttl, margin, work) = sc
            .clients
            .first()
            .map_or((0, 0, 0), |c| (c.ttl_ms, c.margin_ms, work_before_write(c)));
        Form {
            values: [
                ttl.to_string(),
                margin.to_string(),
                work.to_string(),
                env.max_pause_ms.map_or(String::new(), |p| p.to_string()),
                env.max_delay_ms.to_string(),
                env.max_drift_ppm.to_string(),
            ],
            unbounded: false,
            flavor: None,
            fence: None,
        }
    }

    /// The lock service the form asks about: the one picked, or the scenario's.
    pub fn flavor_of(&self, sc: &Scenario) -> Flavor {
        self.flavor.unwrap_or(sc.coordinator.flavor)
    }

    /// The fence the form asks about: the one picked, or the scenario's.
    pub fn fence_of(&self, sc: &Scenario) -> FenceMode {
        self.fence.unwrap_or(sc.storage.fence)
    }

    /// `sc`, switched to the lock service and the fence picked (as the editor and the
    /// settings switch them).
    pub fn scenario(&self, sc: &Scenario) -> Scenario {
        let mut sc = sc.clone();
        match self.flavor {
            Some(f) if f != sc.coordinator.flavor => set_flavor(&mut sc, f),
            _ => {}
        }
        if let Some(f) = self.fence {
            sc.storage.fence = f;
        }
        sc
    }

    /// Reads every field; a bad one gets its message, naming the field, and nothing is
    /// computed from it (the other fields keep what the reader typed). A client the
    /// calculator does not take (its lock service, its settings) is refused whole, with
    /// the reason.
    pub fn read(&self, sc: &Scenario) -> Result<Reading, Refusal> {
        let sc = &self.scenario(sc);
        let holder = holder_of(sc, 0)?;
        let mut reasons: [Option<String>; 6] = Default::default();
        let mut nums = [0i64; 6];
        for (i, v) in self.values.iter().enumerate() {
            if i == PAUSE && self.unbounded {
                continue;
            }
            match parse(v) {
                Ok(n) => nums[i] = n,
                Err(e) => reasons[i] = Some(e),
            }
        }
        if reasons[TTL].is_none() && nums[TTL] == 0 {
            reasons[TTL] = Some("a lease of 0 ms is no lease".into());
        }
        if reasons[TTL].is_none() && reasons[MARGIN].is_none() && nums[MARGIN] >= nums[TTL] {
            reasons[MARGIN] = Some("must be shorter than the TTL".into());
        }
        let mut h = holder.clone();
        h.ttl_ms = nums[TTL];
        h.margin_ms = nums[MARGIN];
        h.work_ms = nums[WORK];
        let env = Env {
            max_pause_ms: (!self.unbounded).then_some(nums[PAUSE]),
            max_delay_ms: nums[DELAY],
            max_drift_ppm: nums[DRIFT],
        };
        let bound = if reasons.iter().any(Option::is_some) {
            None
        } else {
            match bound(sc, &h, &env) {
                Ok(b) => Some(b),
                Err(r) => {
                    // A refusal of something the form has no field for (the client's
                    // renewal) is told at the TTL, the lease it is about.
                    match FIELDS.iter().position(|f| f.option == r.option) {
                        Some(i) => reasons[i] = Some(r.reason),
                        None => reasons[TTL] = Some(format!("{}: {}", r.option, r.reason)),
                    }
                    None
                }
            }
        };
        let errors = std::array::from_fn(|i| {
            reasons[i]
                .take()
                .map(|r| format!("{}: {r}", FIELDS[i].noun))
        });
        Ok(Reading {
            holder,
            errors,
            bound,
        })
    }
}

/// The link that opens `b`'s worst case (none when it has no run): the cursor where the
/// overlap starts — the successor's grant, where the two-believers band begins — and the
/// diagram's window on the overlap with half its length (at least 50 ms) either side, so
/// the band is wide enough for its tag on a phone's width. With no overlap, the cursor
/// where the holder stops believing, and the whole run.
pub fn worst_case_link(b: &Bound) -> Option<String> {
    let w = b.worst_case.clone()?;
    let start = b.successor_at_ms;
    let (at, zoom) = match (b.worst_overlap_ms, b.holder_ends_ms) {
        (Some(o), Some(end)) if o > 0 => {
            let pad = (o / 2).max(50);
            let window = ((start - pad).max(0), (end + pad).min(w.horizon_ms));
            (start, Some(window))
        }
        (_, end) => (end.map_or(start, |end| end.min(start)), None),
    };
    Some(encode(&ViewState {
        source: Source::Custom(w),
        t_ms: Some(at),
        zoom,
        ..ViewState::default()
    }))
}

/// The kinds of fault in `sc` the calculator's bounds leave out (a partition, a clock
/// jump, a restart, …), each named once in the order they come. The figure is for pauses,
/// delays and drift only, so the panel and `leaseline bound` say so when the run breaks
/// some other way — `zookeeper-partition` is "safe" by the calculator and unsafe by its
/// partition.
pub fn uncovered(sc: &Scenario) -> Vec<Kind> {
    let mut out: Vec<Kind> = Vec::new();
    for f in &sc.faults {
        // Pauses are what the figure is for; a heal ends a partition, named already.
        let kind = match f.kind.kind() {
            Kind::Pause | Kind::Heal => continue,
            k @ (Kind::Delay
            | Kind::Partition
            | Kind::ClockJump
            | Kind::Restart
            | Kind::FailRenewals
            | Kind::Failover
            | Kind::FalsePositive) => k,
        };
        if !out.contains(&kind) {
            out.push(kind);
        }
    }
    out
}

/// The sentence that says which of the run's faults the figure leaves out, or `None` when
/// it covers them all: the panel's, and `leaseline bound`'s under its bounds.
pub fn uncovered_note(sc: &Scenario) -> Option<String> {
    let kinds = uncovered(sc);
    let names: Vec<&str> = kinds.iter().map(|k| k.spec().phrase).collect();
    (!names.is_empty()).then(|| {
        format!(
            "This run also has {}, which these bounds (pauses, delays, drift) leave out: the figure says nothing about {}.",
            names.join(", "),
            if names.len() > 1 { "them" } else { "it" }
        )
    })
}

/// The sentence that says client `client`'s job goes on after the first write the figure
/// is about, or `None` when that write is its last (the panel's and `leaseline bound`'s,
/// under the client's line; each then offers [`last_write_w`] its own way).
pub fn later_note(sc: &Scenario, client: usize) -> Option<String> {
    let l = later_actions(sc.clients.get(client)?)?;
    let count = |n: usize, one: &str, many: &str| match n {
        0 => None,
        1 => Some(format!("1 more {one}")),
        n => Some(format!("{n} more {many}")),
    };
    let more: Vec<String> = [
        count(l.writes, "write", "writes"),
        count(l.effects, "effect", "effects"),
    ]
    .into_iter()
    .flatten()
    .collect();
    let first = match first_action(&sc.clients[client]) {
        Some(Step::Effect { .. }) => "effect",
        _ => "write",
    };
    Some(format!(
        "Its job goes on after that first {first} ({}, believing all the while unless it checks): the figure is for the first.",
        more.join(" and ")
    ))
}

/// The W that asks the calculator about client `client`'s last write or effect, when it
/// comes after more work than the first (the figure's W).
pub fn last_write_w(sc: &Scenario, client: usize) -> Option<i64> {
    let c = sc.clients.get(client)?;
    let last = later_actions(c)?.work_before_last_ms;
    (last > work_before_write(c)).then_some(last)
}

/// A whole number of ms (or ppm) at least 0, or the message for its field.
fn parse(text: &str) -> Result<i64, String> {
    match text.trim().parse::<i64>() {
        Ok(v) if v >= 0 => Ok(v),
        Ok(_) => Err("must be 0 or more".into()),
        Err(_) if text.trim().is_empty() => Err("a number is needed".into()),
        Err(_) => Err("not a whole number".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::teach::course::open;

    #[test]
    fn the_default_page_starts_from_its_own_client_and_bounds() {
        let sc = open("gc-pause").unwrap();
        let form = Form::of(&sc);
        assert_eq!(
            form.values,
            ["30000", "0", "10000", "40000", "5", "0"].map(String::from)
        );
        assert_eq!(form.fence_of(&sc), FenceMode::None);
        let r = form.read(&sc).unwrap();
        assert!(r.errors.iter().all(Option::is_none), "{:?}", r.errors);
        assert_eq!(r.bound.unwrap().worst_overlap_ms, Some(20_015));
    }

    #[test]
    fn a_bad_value_is_named_at_its_field_and_nothing_is_computed() {
        let sc = open("gc-pause").unwrap();
        let good = Form::of(&sc);
        for (i, v, want) in [
            (
                MARGIN,
                "40000",
                "Safety margin: must be shorter than the TTL",
            ),
            (TTL, "0", "TTL: a lease of 0 ms is no lease"),
            (DELAY, "-1", "Longest delay D: must be 0 or more"),
            (DRIFT, "", "Largest drift ρ: a number is needed"),
            (PAUSE, "1.5", "Longest pause P: not a whole number"),
            (WORK, "2s", "Work W: not a whole number"),
            (WORK, "-5", "Work W: must be 0 or more"),
            (
                DRIFT,
                "600000",
                "Largest drift ρ: a drift bound is 0 … 500000 ppm (±50 %)",
            ),
            (
                WORK,
                "99999999999",
                "Work W: the work before the write is 0 … 86400000 ms (a scenario's longest run)",
            ),
            (
                TTL,
                "9223372036854775807",
                "TTL: a TTL is at most 86400000 ms (a scenario's longest run)",
            ),
            (TTL, "99999999999999999999", "TTL: not a whole number"),
        ] {
            let mut f = good.clone();
            f.values[i] = v.to_string();
            let r = f.read(&sc).unwrap();
            assert_eq!(r.errors[i].as_deref(), Some(want), "{v}");
            assert!(r.bound.is_none());
            // The other fields keep what the reader typed, and none of them is blamed.
            for j in (0..FIELDS.len()).filter(|j| *j != i) {
                assert_eq!(f.values[j], good.values[j]);
                assert_eq!(r.errors[j], None, "{v}");
            }
        }
        // A refusal of the bound lands at the field it names.
        let mut f = good.clone();
        f.values[DELAY] = "600".into();
        let r = f.read(&sc).unwrap();
        assert!(r.errors[DELAY].is_some(), "{:?}", r.errors);
        // With no bound on pauses the pause field is not read at all.
        let mut f = good;
        f.values[PAUSE] = "nonsense".into();
        f.unbounded = true;
        let r = f.read(&sc).unwrap();
        assert!(r.errors.iter().all(Option::is_none), "{:?}", r.errors);
        assert_eq!(r.bound.unwrap().worst_overlap_ms, None);
    }

    #[test]
    fn another_lock_service_is_asked_about_as_the_editor_would_switch_to_it() {
        let sc = open("gc-pause").unwrap();
        let mut f = Form::of(&sc);
        assert_eq!(f.flavor_of(&sc), Flavor::Generic);
        // Redlock: the same client, the validity rule of five masters.
        f.flavor = Some(Flavor::Redlock);
        let r = f.read(&sc).unwrap();
        assert_eq!(r.holder.flavor, Flavor::Redlock);
        let b = r.bound.expect("redlock is bounded");
        assert_eq!(
            b.worst_case.as_ref().map(|w| w.coordinator.flavor),
            Some(Flavor::Redlock)
        );
        // Every lock service is either bounded or refused with a reason, never a panic.
        for fl in Flavor::ALL {
            f.flavor = Some(fl);
            match f.read(&sc) {
                Ok(r) => assert_eq!(r.holder.flavor, fl),
                Err(refusal) => assert!(!refusal.reason.is_empty(), "{}", fl.name()),
            }
        }
        // The scenario itself is not changed.
        assert_eq!(sc.coordinator.flavor, Flavor::Generic);
    }

    #[test]
    fn the_work_and_the_fence_are_the_readers_to_change() {
        let sc = open("gc-pause").unwrap();
        let mut f = Form::of(&sc);
        let was = f.read(&sc).unwrap().bound.unwrap();
        // A second more work before the write: a second more overlap (no drift here).
        f.values[WORK] = "11000".into();
        let b = f.read(&sc).unwrap().bound.unwrap();
        assert_eq!(b.holder.work_ms, 11000);
        assert_eq!(b.worst_overlap_ms, was.worst_overlap_ms.map(|o| o + 1000));
        // The worst-case run does that work.
        let w = b.worst_case.unwrap();
        assert_eq!(work_before_write(&w.clients[0]), 11000);
        // A fence the reader picks: the same overlap, no damage, and the run fenced too.
        f.fence = Some(FenceMode::Monotone);
        let b = f.read(&sc).unwrap().bound.unwrap();
        assert!(b.safe && b.holder.fenced);
        assert_eq!(b.damage(), crate::analysis::bound::Damage::Fenced);
        assert_eq!(b.worst_case.unwrap().storage.fence, FenceMode::Monotone);
        assert_eq!(
            sc.storage.fence,
            FenceMode::None,
            "the scenario is not changed"
        );
    }

    /// The calculator filled in with a reader's question: TTL 10 s, pauses up to 8 s,
    /// drift 1000 ppm, delay 50 ms, work 2 s.
    fn readers_question(sc: &Scenario) -> Form {
        let mut f = Form::of(sc);
        for (i, v) in [
            (TTL, "10000"),
            (PAUSE, "8000"),
            (DRIFT, "1000"),
            (DELAY, "50"),
            (WORK, "2000"),
        ] {
            f.values[i] = v.into();
        }
        f
    }

    #[test]
    fn a_readers_question_is_answered_with_what_makes_it_safe() {
        let sc = open("gc-pause").unwrap();
        let mut f = readers_question(&sc);
        let b = f.read(&sc).unwrap().bound.unwrap();
        let v = crate::teach::advice::bound_verdict(&b);
        let advice = crate::teach::advice::bound_advice(&b);
        assert!(!b.safe);
        assert!(b.worst_overlap_ms.unwrap() > 0);
        assert!(b.damage().possible(), "{:?}", b.damage());
        assert!(
            v.headline.starts_with("Unsafe: overlap up to "),
            "{}",
            v.headline
        );
        assert!(
            v.headline.ends_with("and damage is possible."),
            "{}",
            v.headline
        );
        // What makes it safe: a fence, a longer TTL, or shorter pauses.
        assert!(advice.contains("Reject lower tokens"), "{advice}");
        assert!(advice.contains("pauses of ≤ "), "{advice}");
        assert!(advice.contains("A TTL of ≥ "), "{advice}");
        // And each of them does.
        let allowed = crate::analysis::bound::pause_allowed(&b.holder, &b.env).unwrap();
        f.values[PAUSE] = allowed.to_string();
        assert!(f.read(&sc).unwrap().bound.unwrap().safe);
        f.values[PAUSE] = (allowed + 1).to_string();
        assert!(!f.read(&sc).unwrap().bound.unwrap().safe);
        f.values[PAUSE] = "8000".into();
        f.fence = Some(FenceMode::Monotone);
        let b = f.read(&sc).unwrap().bound.unwrap();
        assert!(b.safe);
        assert!(crate::teach::advice::bound_verdict(&b)
            .headline
            .starts_with("Safe from damage: overlap up to "));
    }

    #[test]
    #[cfg_attr(
        feature = "player",
        ignore = "a player has no calculator: it links no edited scenario"
    )]
    fn the_worst_case_opens_at_the_start_of_its_overlap_with_the_band_tagged() {
        use crate::session::{Action, Session};
        use std::rc::Rc;
        let sc = open("gc-pause").unwrap();
        let mut f = readers_question(&sc);
        let b = f.read(&sc).unwrap().bound.unwrap();
        let o = b.worst_overlap_ms.unwrap();
        let link = worst_case_link(&b).unwrap();
        let page = Rc::new(Session::default_page()).reduce(Action::Navigate(link));
        let run = &page.doc.run;
        assert_eq!(run.verdict.stats.double_holder_ms, o);
        let band = &run.verdict.overlaps[0];
        // The cursor where the two begin to believe, past the grant that starts it.
        assert_eq!(page.play.cursor.t as i64, band.from.0);
        assert!(page.play.cursor.step > band.entry as usize);
        // The window holds the whole band, and some of the time either side.
        let zoom = page.frame.zoom.expect("zoomed to the overlap");
        assert!(
            zoom.from < band.from.0 && band.to.0 < zoom.to,
            "{zoom:?} {band:?}"
        );
        // Drawn at a phone's width and at a laptop's, the band carries its tag, and the
        // tag shows at the cursor (nothing of the band is revealed yet).
        for width in [360.0, 1000.0] {
            let d = crate::view::layout::layout_rows::<crate::session::carries::PageDetail>(
                &run.index,
                &run.trace,
                &run.verdict,
                width,
                crate::view::layout::LANE_H,
                Some((zoom.from, zoom.to)),
            );
            let tag = d.bands[0].tag.as_ref().expect("a tag on the band");
            let edge = d.scale.x(page.play.cursor.t) + 0.5;
            assert!(
                d.labels_at(edge).iter().any(|c| std::ptr::eq(c.label, tag)),
                "the tag at the cursor ({width})"
            );
            // And not a moment before the band.
            let before = d.scale.x(page.play.cursor.t - 1.0) + 0.5;
            assert!(!d
                .labels_at(before)
                .iter()
                .any(|c| std::ptr::eq(c.label, tag)));
        }
        // No overlap: the cursor where the holder stops believing, the whole run.
        f.values[PAUSE] = "0".into();
        let b = f.read(&sc).unwrap().bound.unwrap();
        assert!(b.worst_overlap_ms.unwrap() <= 0);
        let page =
            Rc::new(Session::default_page()).reduce(Action::Navigate(worst_case_link(&b).unwrap()));
        assert_eq!(page.play.cursor.t as i64, b.holder_ends_ms.unwrap());
        assert_eq!(page.frame.zoom, None);
    }

    #[test]
    fn faults_outside_the_bounds_are_named() {
        assert!(uncovered(&open("gc-pause").unwrap()).is_empty());
        assert_eq!(uncovered_note(&open("gc-pause").unwrap()), None);
        let zk = open("zookeeper-partition").unwrap();
        assert_eq!(uncovered(&zk), [Kind::Partition]);
        assert_eq!(
            uncovered_note(&zk).unwrap(),
            "This run also has a partition, which these bounds (pauses, delays, drift) leave out: the figure says nothing about it."
        );
    }
}
