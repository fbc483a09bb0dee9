//! Pointer gestures on the diagram: a drag pans a zoomed diagram, two fingers pinch it.
//! The page hands over pointer ids and positions in the drawing's units; this turns them
//! into [`Zoom`]s, so what a drag or a pinch does is tested here without a browser.

use crate::session::zoom::Zoom;
use crate::view::layout::Scale;
use crate::vocab::numbers::within;

/// A drag (pan) or a two-finger pinch (zoom) on the diagram, in the diagram's units.
#[derive(Default)]
pub struct Gesture {
    /// The pointers down: id and last x.
    down: Vec<(i32, f64)>,
    /// Moved far enough to be a gesture: the click that ends it is swallowed.
    dragged: bool,
}

impl Gesture {
    /// Whether the pointers made a gesture since the last ask: the click that ends a drag
    /// is not a click on the diagram.
    pub fn take_dragged(&mut self) -> bool {
        std::mem::take(&mut self.dragged)
    }

    pub fn down(&mut self, id: i32, x: f64) {
        self.down.retain(|p| p.0 != id);
        self.down.push((id, x));
        self.dragged = false;
    }

    pub fn up(&mut self, id: i32) {
        self.down.retain(|p| p.0 != id);
    }

    /// A pointer moved to `x`: the zoom it asks for, if any. One pointer pans a zoomed
    /// diagram; two pinch it, around their middle.
    pub fn moved(&mut self, id: i32, x: f64, s: &Scale, zoomed: bool) -> Option<Zoom> {
        let i = self.down.iter().position(|p| p.0 == id)?;
        let last = self.down[i].1;
        let per_unit = (s.t1 - s.t0) / (s.x1 - s.x0).max(1.0);
        match self.down.len() {
            1 if zoomed => {
                if !self.dragged && (x - last).abs() < 4.0 {
                    return None;
                }
                self.dragged = true;
                self.down[i].1 = x;
                Some(Zoom::Pan(((last - x) * per_unit).round() as i64))
            }
            2 => {
                let other = self.down[1 - i].1;
                let (before, after) = ((last - other).abs(), (x - other).abs());
                self.down[i].1 = x;
                if before < 1.0 || after < 1.0 {
                    return None;
                }
                self.dragged = true;
                Some(Zoom::By {
                    factor: within(before / after, 0.5, 2.0),
                    around: Some(s.t((x + other) / 2.0)),
                })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 1,000 px of drawing for 10 s of run, from x = 0.
    const S: Scale = Scale {
        t0: 0.0,
        t1: 10_000.0,
        x0: 0.0,
        x1: 1_000.0,
    };

    #[test]
    fn a_drag_pans_a_zoomed_diagram_once_it_moves_past_a_few_units() {
        let mut g = Gesture::default();
        g.down(1, 500.0);
        // A jitter of a click is not a drag.
        assert_eq!(g.moved(1, 502.0, &S, true), None);
        assert!(!g.take_dragged());
        // Dragging right by 10 px shows 100 ms earlier.
        assert_eq!(g.moved(1, 510.0, &S, true), Some(Zoom::Pan(-100)));
        // Once dragging, every move pans from the last position.
        assert_eq!(g.moved(1, 511.0, &S, true), Some(Zoom::Pan(-10)));
        assert!(
            g.take_dragged(),
            "the click that ends the drag is swallowed"
        );
        assert!(!g.take_dragged(), "and only that one");
    }

    #[test]
    fn a_drag_on_the_whole_run_does_nothing() {
        let mut g = Gesture::default();
        g.down(1, 500.0);
        assert_eq!(g.moved(1, 600.0, &S, false), None);
        assert!(!g.take_dragged());
    }

    #[test]
    fn a_pinch_zooms_around_the_fingers_middle_within_half_and_double() {
        let mut g = Gesture::default();
        g.down(1, 400.0);
        g.down(2, 600.0);
        // Finger 2 moves out: 200 px apart become 250, the window narrows to 4/5.
        assert_eq!(
            g.moved(2, 650.0, &S, false),
            Some(Zoom::By {
                factor: 0.8,
                around: Some(5_250.0)
            })
        );
        // A huge spread is held to a factor of one half per move.
        match g.moved(2, 5_000.0, &S, false) {
            Some(Zoom::By { factor, .. }) => assert_eq!(factor, 0.5),
            z => panic!("{z:?}"),
        }
        assert!(g.take_dragged());
    }

    #[test]
    fn a_lifted_finger_ends_the_pinch_and_unknown_pointers_are_ignored() {
        let mut g = Gesture::default();
        g.down(1, 400.0);
        g.down(2, 600.0);
        g.up(2);
        assert_eq!(g.moved(7, 100.0, &S, true), None);
        // One finger left: a drag again.
        assert_eq!(g.moved(1, 300.0, &S, true), Some(Zoom::Pan(1_000)));
    }
}
