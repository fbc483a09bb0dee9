//! An author's own walkthrough: the beats a course author wrote into a scenario
//! (`walkthrough` in the scenario format), placed on the events of the run it narrates.
//!
//! A built-in beat waits for an event by its kind ([`super::walkthrough`]); an author
//! writes a time instead, which needs no knowledge of the trace's vocabulary. The beat is
//! told at the first event at or after that time, so the diagram shows what the beat talks
//! about as it is told — the same as a built-in beat, which the rest of the page (Back and
//! Next, the beat count, the progress a host records) cannot tell apart. A beat whose time
//! no event reaches is not told, like a built-in beat whose event never comes.

use crate::model::scenario::AuthoredBeat;
use crate::model::trace::Trace;

/// The trace entry each beat lands on, in order (`None`: no event at or after its time).
/// Two beats never share an entry: a later one waits for the next event, so Next always
/// moves on.
pub fn place(beats: &[AuthoredBeat], trace: &Trace) -> Vec<Option<usize>> {
    let mut from = 0;
    beats
        .iter()
        .map(|b| {
            let hit = trace.entries[from.min(trace.len())..]
                .iter()
                .position(|e| e.t.0 >= b.at_ms)
                .map(|i| from + i);
            if let Some(i) = hit {
                from = i + 1;
            }
            hit
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sim::simulate;

    #[test]
    fn each_beat_lands_on_the_first_event_at_or_after_its_time_and_none_share_one() {
        let sc = crate::teach::course::open("gc-pause").unwrap();
        let trace = simulate(&sc).unwrap();
        let beat = |at_ms| AuthoredBeat {
            at_ms,
            text: "x".into(),
        };
        let placed = place(&[beat(0), beat(0), beat(30_000), beat(10_000_000)], &trace);
        assert_eq!(placed[0], Some(0));
        assert_eq!(
            placed[1],
            Some(1),
            "a second beat at the same time waits for the next event"
        );
        let i = placed[2].expect("an event at or after 30 s");
        assert!(trace.entries[i].t.0 >= 30_000 && trace.entries[i - 1].t.0 < 30_000);
        assert_eq!(placed[3], None, "past every event: not told");
    }
}
