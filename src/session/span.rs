//! A span of the run: the stretch of true time a link lets its reader play (`from=` and
//! `to=`, in ms; the [`Span`] itself is [`super::zoom`]'s, beside the zoom's window). A course page that teaches one moment — the grant to client 2, the stale
//! write — embeds only that stretch: the cursor, the scrubber, Play, the jumps and the
//! walkthrough's beats all stay inside it, and the diagram's window is the span. The run
//! itself is still the whole run, simulated from its start: a span cuts what the reader
//! can reach, never what happened before it (the state at the span's start is the run's).

use super::page::Session;
pub use super::zoom::Span;
use super::zoom::{Window, MIN_SPAN_MS};
use crate::model::trace::Trace;
use crate::view::playback::Cursor;

/// The cursor at a span's start: the time `from`, with the entries before it taken and
/// those at it still to come, so an event the span starts on is seen to happen.
pub fn start_cursor(trace: &Trace, w: Window) -> Cursor {
    let before = Cursor::at_time(trace, (w.from - 1) as f64);
    Cursor {
        t: w.from as f64,
        step: if w.from == 0 { 0 } else { before.step },
    }
}

/// The cursor at a span's end: every entry at or before `to` taken (the whole run's end
/// where the span reaches it).
pub fn end_cursor(trace: &Trace, w: Window) -> Cursor {
    if w.to >= trace.end.0 {
        Cursor::end(trace)
    } else {
        Cursor::at_time(trace, w.to as f64)
    }
}

impl Session {
    /// The span on screen as a window of the run, `None` for the whole run.
    pub fn span_window(&self) -> Option<Window> {
        self.frame.span.within(self.doc.run.end_ms() as i64)
    }

    /// Where Home, a replay and a new load start: the span's start, else the run's.
    pub fn span_start(&self) -> Cursor {
        self.span_window()
            .map_or(Cursor::START, |w| start_cursor(&self.doc.run.trace, w))
    }

    /// Where End goes and playback stops: the span's end, else the run's.
    pub fn span_end(&self) -> Cursor {
        let trace = &self.doc.run.trace;
        self.span_window()
            .map_or_else(|| Cursor::end(trace), |w| end_cursor(trace, w))
    }

    /// The cursor stands at the end of what the reader may play.
    pub fn at_span_end(&self) -> bool {
        match self.span_window() {
            None => self.play.cursor.at_end(&self.doc.run.trace),
            Some(w) => {
                self.play.cursor.t >= w.to as f64 && self.play.cursor.step >= self.span_end().step
            }
        }
    }

    /// The cursor stands at the start of what the reader may play (nothing in it taken).
    pub fn at_span_start(&self) -> bool {
        self.play.cursor.step <= self.span_start().step
    }

    /// The cursor kept inside the span: before its start is its start, past its end is
    /// its end.
    pub(super) fn inside_span(&self, c: Cursor) -> Cursor {
        if self.span_window().is_none() {
            return c;
        }
        let (start, end) = (self.span_start(), self.span_end());
        if c.t < start.t || (c.t == start.t && c.step < start.step) {
            start
        } else if c.t > end.t || c.step > end.step {
            end
        } else {
            c
        }
    }

    /// A zoom window kept inside the span: the whole run ("Fit") is the span itself.
    pub(super) fn zoom_inside_span(&self, z: Option<Window>) -> Option<Window> {
        let Some(s) = self.span_window() else {
            return z;
        };
        let Some(z) = z else { return Some(s) };
        let from = z.from.clamp(s.from, s.to - MIN_SPAN_MS);
        let to = z.to.clamp(from + MIN_SPAN_MS, s.to);
        Some(Window { from, to })
    }

    /// Forgets the beats that land outside the span: Next and Back step over them, and a
    /// lesson embedded for one stretch tells only that stretch.
    pub(super) fn beats_inside_span(&mut self) {
        let Some(w) = self.span_window() else { return };
        let entries = &self.doc.run.trace.entries;
        let inside = |i: usize| {
            entries
                .get(i)
                .is_some_and(|e| (w.from..=w.to).contains(&e.t.0))
        };
        let beats: Vec<Option<usize>> = self
            .teach
            .beats
            .iter()
            .map(|b| b.filter(|&i| inside(i)))
            .collect();
        self.teach.beats = std::rc::Rc::new(beats);
    }
}
