//! Where a popover goes beside a shape on the page (the node's action menu): pure
//! geometry in the viewport's pixels, tested beside the diagram's.

use super::Rect;

/// Where a popover of `w`×`h` goes beside the shape `anchor`, inside `view` (all in the
/// viewport's CSS pixels; the node's action menu is one): on the side of the anchor that
/// `prefer_left` names if it fits there, else the other side, else below, else above —
/// always in view, beside its shape rather than below the fold. Beside the shape it is
/// centred on it vertically, then moved to stay in view; a view too small for it keeps its
/// top-left corner in view. Returns the popover's top-left corner.
pub fn popover(anchor: Rect, w: f64, h: f64, view: Rect, prefer_left: bool) -> (f64, f64) {
    const GAP: f64 = 8.0;
    let (l, t, r, b) = anchor;
    let (lo_x, lo_y, hi_x, hi_y) = (view.0 + GAP, view.1 + GAP, view.2 - GAP, view.3 - GAP);
    let fit = |p: f64, size: f64, lo: f64, hi: f64| p.min(hi - size).max(lo);
    let beside = fit((t + b - h) / 2.0, h, lo_y, hi_y);
    let stacked = fit((l + r - w) / 2.0, w, lo_x, hi_x);
    let right = (r + GAP + w <= hi_x).then_some((r + GAP, beside));
    let left = (l - GAP - w >= lo_x).then_some((l - GAP - w, beside));
    let sides = if prefer_left {
        left.or(right)
    } else {
        right.or(left)
    };
    sides
        .or((b + GAP + h <= hi_y).then_some((stacked, b + GAP)))
        .or((t - GAP - h >= lo_y).then_some((stacked, t - GAP - h)))
        .unwrap_or((stacked, fit(b + GAP, h, lo_y, hi_y)))
}
