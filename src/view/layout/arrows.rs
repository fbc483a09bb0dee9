//! Messages as arrows: the box an arrowhead covers, the sends a receipt answers, and
//! which messages carry a label of their own.

use super::*;

/// The box an arrowhead covers at the end (`x1`, `y1`) of a line from (`x0`, `y0`): the
/// marker's triangle reaches about 10 units back along the line (at the widest stroke),
/// 6 to each side, and a unit past the end.
pub fn arrowhead_box(x0: f64, y0: f64, x1: f64, y1: f64) -> Rect {
    let (dx, dy) = (x1 - x0, y1 - y0);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (ux, uy) = (dx / len, dy / len);
    let pts = [
        (x1 + ux * 1.5, y1 + uy * 1.5),
        (x1 - ux * 10.0 - uy * 6.0, y1 - uy * 10.0 + ux * 6.0),
        (x1 - ux * 10.0 + uy * 6.0, y1 - uy * 10.0 - ux * 6.0),
    ];
    let mut r = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (x, y) in pts {
        r = (r.0.min(x), r.1.min(y), r.2.max(x), r.3.max(y));
    }
    r
}

/// A message sent at `e`: to whom, what, when it arrives (`None`: lost on the way), and
/// whether it is drawn as lost (on the way, or dropped on arrival: `dropped`, by id).
pub(super) fn sent<'a>(
    e: &'a crate::model::trace::Entry,
    dropped: &VecMap<u32, Time>,
) -> Option<(NodeId, &'a crate::model::msg::Msg, Option<Time>, bool)> {
    match &e.event {
        Event::Sent {
            id,
            to,
            msg,
            arrives,
        } => Some((
            *to,
            msg,
            *arrives,
            arrives.is_none() || dropped.get(id).is_some(),
        )),
        _ => None,
    }
}

/// Whether a delivered message is labelled on its arrow: a grant, a write, a rejection
/// (not a queued reply, which says only "wait").
pub(super) fn labelled(msg: &crate::model::msg::Msg) -> bool {
    matches!(msg.class(), "grant" | "write" | "reject")
        && !matches!(msg, crate::model::msg::Msg::Queued { .. })
}
