//! Believed against actual: for each lease a client believed in and the lock service
//! expired, where the client's clock put its end and where the service ended it, cut to
//! a window and drawn as a gap on the client's lane. The spans themselves are the
//! analysis's ([`believed_spans`]); here they only meet a window and a lane.

use super::*;
use crate::teach::narrate;

/// How far a gap's ticks reach above and below its lane.
pub const GAP_H: f64 = 16.0;

/// The gaps of a run's [`believed_spans`] that reach into the scale's window, in its units.
pub(super) fn gaps<D: Detail>(
    spans: &[BelievedSpan],
    scale: &Scale,
    ly: &dyn Fn(NodeId) -> f64,
    merge: f64,
) -> Vec<Gap<D>> {
    let x = |t: Time| within(scale.x(t.0 as f64), scale.x0, scale.x1);
    let mut out: Vec<Gap<D>> = Vec::new();
    // At a level of detail, a client's safe margins less than `merge` ms apart are drawn
    // as one: per client, its last margin drawn (index into `out`), where it ends (ms) and
    // how many it stands for.
    let mut open: VecMap<NodeId, (usize, i64, usize)> = VecMap::new();
    for g in spans {
        // How long it went on believing after the expiry, by its clock or for want of
        // looking at it.
        let last = g.believed.max(g.stopped);
        let (from, to) = (g.believed.min(g.expired), last.max(g.expired));
        if to.0 < scale.t0 as i64 || from.0 > scale.t1 as i64 {
            continue;
        }
        let danger = last > g.expired;
        if merge > 0.0 && !danger {
            let until = g.stopped.max(g.believed.max(g.expired));
            if let Some((k, end, n)) = open.get(&g.client).copied() {
                if ((from.0 - end) as f64) < merge {
                    let m = &mut out[k];
                    m.believed = m.believed.min(x(g.believed));
                    m.expired = m.expired.max(x(g.expired));
                    m.until = m.until.max(x(until));
                    m.title = narrate::gaps_merged_title(n + 1, g.client);
                    open.insert(g.client, (k, end.max(until.0), n + 1));
                    continue;
                }
            }
            open.insert(g.client, (out.len(), until.0, 1));
        }
        out.push(Gap {
            believed: x(g.believed),
            expired: x(g.expired),
            until: x(g.stopped.max(g.believed.max(g.expired))),
            y: ly(g.client),
            danger,
            title: hover::<D>(|| {
                narrate::gap_title(g.client, g.token, g.believed, g.expired, g.stopped)
            }),
            open: D::open(|| narrate::gap_legend(g.client)),
            entry: g.entry,
        });
    }
    out
}
