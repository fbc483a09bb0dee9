//! Playback's reducer: play and pause, the animation frame, steps and jumps along the run.
//!
//! Every move goes through `Session::move_to`, which keeps a quiz's hold, the span, the
//! zoom window and the caption in step with the cursor.

use super::*;

/// What a frame did: moved the cursor (the link and the render follow), or only advanced
/// the play clock while holding still (nothing else to record).
pub(super) enum Ticked {
    Moved,
    Held,
}

impl Session {
    pub(super) fn toggle_play(&mut self) {
        if self.play.playing {
            self.play.playing = false;
        } else {
            if self.at_span_end() {
                let start = self.span_start();
                self.move_to(start);
            }
            self.play.start();
        }
    }

    /// An animation frame at real time `now` (ms) while playing.
    pub(super) fn tick(&mut self, now: f64) -> Ticked {
        let run = self.doc.run.clone();
        let trace = &run.trace;
        let dt = self
            .play
            .last_frame
            .map_or(0.0, |l| within(now - l, 0.0, 100.0));
        self.play.last_frame = Some(now);
        if self.play.reduced_motion {
            // Discrete steps: one notable event at a time, no in-between frames.
            self.play.discrete_wait += dt;
            if self.play.discrete_wait < DISCRETE_STEP_REAL_MS {
                return Ticked::Held;
            }
            self.play.discrete_wait = 0.0;
            let c = match self.notable_after(self.play.cursor.step) {
                Some(i) => Cursor::at_step(trace, i + 1),
                None => Cursor::end(trace),
            };
            self.move_to(c);
            return Ticked::Moved;
        }
        if self.play.dwell > 0.0 {
            // Holding on a notable event so its caption can be read.
            self.play.dwell -= dt;
            return Ticked::Held;
        }
        let at = |i: usize| trace.entries.get(i).map(|e| e.t.0 as f64);
        let step = self.play.cursor.step;
        let gap = (
            step.checked_sub(1).and_then(at).unwrap_or(0.0),
            at(step).unwrap_or(run.end_ms()),
        );
        let speed = SPEEDS[self.play.speed];
        let t = playback::advance(
            self.play.cursor.t,
            dt,
            speed,
            &run.flights,
            gap,
            run.end_ms(),
        );
        // Never pass a notable event in one frame: stop on it and dwell, so every one is
        // drawn, captioned and announced (several can share a ms).
        let c = match self.notable_after(step) {
            Some(i) if trace.entries[i].t.0 as f64 <= t => {
                self.play.dwell = playback::dwell_ms(speed);
                Cursor::at_step(trace, i + 1)
            }
            _ if t >= run.end_ms() => Cursor::end(trace),
            _ => Cursor::at_time(trace, t),
        };
        self.move_to(c);
        Ticked::Moved
    }

    /// Pauses and moves the cursor to `c` (a step, a jump, a click on the diagram).
    pub(super) fn pause_at(&mut self, c: Cursor) {
        self.play.playing = false;
        self.move_to(c);
    }

    /// Pauses just after the next (`forward`) or previous notable event, or at an end.
    // Inlined: each arm of the reducer keeps only its own direction (the first load counts bytes).
    #[inline(always)]
    pub(super) fn jump_to_notable(&mut self, forward: bool) {
        let trace = &self.doc.run.trace;
        let step = self.play.cursor.step;
        let c = if forward {
            self.notable_after(step)
                .map_or(Cursor::end(trace), |i| Cursor::at_step(trace, i + 1))
        } else {
            self.notable_before(step)
                .map_or(Cursor::START, |i| Cursor::at_step(trace, i + 1))
        };
        self.pause_at(c);
    }

    /// Pauses just after the next violation at or after the cursor, else the first.
    pub(super) fn jump_to_next_violation(&mut self) {
        self.play.playing = false;
        let violations = &self.doc.run.verdict.violations;
        let at = violations.iter().map(|v| v.entry as usize);
        let next = at.clone().find(|&i| i >= self.play.cursor.step);
        if let Some(i) = next.or(at.clone().next()) {
            let c = Cursor::at_step(&self.doc.run.trace, i + 1);
            self.move_to(c);
        }
    }

    /// Pauses at the time of run B's entry `i` (a click on the comparison's second diagram).
    pub(super) fn jump_to_entry_of_b(&mut self, i: usize) {
        let t = self
            .doc
            .versus
            .as_ref()
            .and_then(|v| v.run.trace.entries.get(i));
        let t = t.map_or(0.0, |e| e.t.0 as f64);
        let c = Cursor::at_time(&self.doc.run.trace, t);
        self.pause_at(c);
    }

    /// One speed faster (`up`) or slower, within the speeds there are.
    pub(super) fn change_speed(&mut self, up: bool) {
        let s = self.play.speed;
        self.play.speed = if up {
            (s + 1).min(SPEEDS.len() - 1)
        } else {
            s.saturating_sub(1)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_moves_the_cursor_then_holds_on_a_notable_event() {
        let mut m = Session::default_page();
        m.toggle_play();
        assert!(m.play.playing);
        // The first frame only starts the clock; the next ones move the cursor.
        assert!(matches!(m.tick(0.0), Ticked::Moved));
        let mut held = false;
        for k in 1..2_000 {
            if let Ticked::Held = m.tick(k as f64 * 16.0) {
                held = true;
                break;
            }
        }
        assert!(
            held,
            "a notable event holds the cursor while its caption is read"
        );
        assert!(m.play.cursor.step > 0);
    }

    #[test]
    fn speed_stays_within_the_speeds_there_are() {
        let mut m = Session::default_page();
        for _ in 0..SPEEDS.len() + 2 {
            m.change_speed(true);
        }
        assert_eq!(m.play.speed, SPEEDS.len() - 1);
        for _ in 0..SPEEDS.len() + 2 {
            m.change_speed(false);
        }
        assert_eq!(m.play.speed, 0);
    }

    #[test]
    fn the_next_violation_wraps_to_the_first() {
        let mut m = Session::default_page();
        let first = m.doc.run.verdict.violations[0].entry as usize;
        let end = Cursor::end(&m.doc.run.trace);
        m.move_to(end);
        m.jump_to_next_violation();
        assert_eq!(m.play.cursor.step, first + 1);
    }
}
