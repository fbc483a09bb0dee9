//! Level of detail: a window of a long run drawn in time proportional to what it shows,
//! not to the entries it spans. Once per run (on the first such window) the marks, the
//! messages and the bars are sorted into lists by lane (or by sender, receiver and kind)
//! and time, with running counts; a window then finds its items by binary search and
//! merges what its units cannot tell apart:
//! - bars of one kind on one lane less than a unit apart become one bar over exactly their
//!   union (and the sub-unit gaps between them), which says how many it stands for;
//! - messages of one kind between the same two nodes within a bucket (8 units wide, wider
//!   until the window holds at most [`LOD_ARROWS`] arrows) become one bundle, its first and
//!   last message and the band between them, with its count;
//! - the events of a lane closer than a label's width become one marker with a count
//!   ("+n"), its hover text counting them by kind.
//!
//! A violation (a stale write or a duplicate effect accepted, a rejection) is never merged:
//! each keeps its own marker and label, and the two-believers bands are drawn as ever.

use super::*;

/// The kinds of events a merged marker counts, in the words of its hover text.
const KINDS: [&str; 4] = ["leases expired", "writes accepted", "effects", "faults"];

/// What the message lists are keyed by: sender, receiver, kind, lost on the way.
type Key = (NodeId, NodeId, &'static str, bool);

/// A lane's plain (not alarming) markers in time order: their times, their entries,
/// and the running count of each kind of [`KINDS`] before each (one more at the end).
#[derive(Default)]
struct Marks {
    t: Vec<i64>,
    entry: Vec<usize>,
    before: Vec<[u32; 4]>,
}

pub struct Lod {
    marks: VecMap<NodeId, Marks>,
    /// The alarming markers' times and entries, never merged, in time order.
    alarms: Vec<(i64, usize)>,
    /// Per kind of message between two nodes, its messages in the order sent: when
    /// sent, when it arrives (`None`: lost), its entry.
    msgs: VecMap<Key, Vec<(i64, Option<i64>, usize)>>,
    /// Per lane and kind of bar, the projection's intervals (indices into the index's
    /// spans) in the order they start (and end).
    bars: VecMap<(NodeId, u8), Vec<usize>>,
}

fn span_kind(s: &Span) -> u8 {
    match s {
        Span::Belief { .. } => 0,
        Span::Paused => 1,
        Span::Down => 2,
        Span::Lease { .. } => 3,
    }
}

impl Lod {
    pub(super) fn new<D: Detail>(
        trace: &Trace,
        violation_at: &VecMap<usize, ViolationKind>,
        spans: &[Interval],
        dropped: &VecMap<u32, Time>,
    ) -> Lod {
        let mut marks: VecMap<NodeId, Marks> = VecMap::new();
        let mut alarms = Vec::new();
        let mut msgs: VecMap<Key, Vec<(i64, Option<i64>, usize)>> = VecMap::new();
        for (i, e) in trace.entries.iter().enumerate() {
            if let Some((to, msg, arrives, lost)) = sent(e, dropped) {
                // (A lost one is drawn as such, so never bundled with those delivered.)
                let key = (e.node, to, msg.class(), lost);
                msgs.get_or_insert_with(key, Vec::new)
                    .push((e.t.0, arrives.map(|a| a.0), i));
                continue;
            }
            let Some((tone, ..)) = marker::<D>(i, e, violation_at) else {
                continue;
            };
            let kind = match tone {
                Tone::Stale | Tone::Duplicate | Tone::Reject => {
                    alarms.push((e.t.0, i));
                    continue;
                }
                Tone::Expire => 0,
                Tone::Accept => 1,
                Tone::Effect => 2,
                _ => 3,
            };
            let m = marks.get_or_insert_with(e.node, Marks::default);
            let mut next = m.before.last().copied().unwrap_or_default();
            if m.before.is_empty() {
                m.before.push(next);
            }
            next[kind] += 1;
            m.t.push(e.t.0);
            m.entry.push(i);
            m.before.push(next);
        }
        // A lane's spans of one kind follow one another (a node holds one belief, one
        // pause, one lease at a time), so in the order they end they also start.
        let mut bars: VecMap<(NodeId, u8), Vec<usize>> = VecMap::new();
        for (k, iv) in spans.iter().enumerate() {
            bars.get_or_insert_with((iv.node, span_kind(&iv.span)), Vec::new)
                .push(k);
        }
        Lod {
            marks,
            alarms,
            msgs,
            bars,
        }
    }
}

/// Runs of `items` (sorted by `at`) from `lo` to `hi`, each of those within `width` of
/// its first — and, if `chain`, on while the next is within `width` of the last, as a
/// burst of messages is bundled. Found by binary search, a step of `width` at a time,
/// so the cost is the window's width in steps, not its items.
fn runs<T>(
    items: &[T],
    lo: usize,
    hi: usize,
    width: f64,
    chain: bool,
    at: impl Fn(&T) -> i64,
) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = lo;
    while i < hi {
        let mut j = i;
        loop {
            let end = at(&items[j]) as f64 + width;
            j += 1 + items[j + 1..hi].partition_point(|x| (at(x) as f64) < end);
            if !chain || j >= hi || (at(&items[j]) - at(&items[j - 1])) as f64 >= width {
                break;
            }
        }
        out.push((i, j));
        i = j;
    }
    out
}

/// The window's bars, arrows and markers (and the labels they want) at the level of
/// detail of `unit` ms per drawing unit.
#[allow(clippy::too_many_arguments)]
pub(super) fn body<D: Detail>(
    lod: &Lod,
    ix: &Index<D>,
    trace: &Trace,
    violation_at: &VecMap<usize, ViolationKind>,
    scale: &Scale,
    unit: f64,
    ly: &dyn Fn(NodeId) -> f64,
    bars: &mut Vec<Bar<D>>,
    arrows: &mut Vec<Arrow<D>>,
    marks: &mut Vec<Mark<D>>,
    wants: &mut Wants,
) {
    let (t0, t1) = (scale.t0 as i64, scale.t1 as i64);
    let x = |t: i64| scale.x(t as f64);
    let xc = |t: i64| within(x(t), scale.x0, scale.x1);
    let ended = |iv: &Interval| iv.ended_by.and_then(|j| trace.entries.get(j));
    // Bars: those of one kind on one lane that lie less than a unit apart are one.
    for ((node, _), list) in lod.bars.iter() {
        let mut k = 0;
        while k < list.len() {
            let iv = &ix.spans[list[k]];
            if iv.to.0 < t0 || iv.from.0 > t1 {
                k += 1;
                continue;
            }
            let (from, mut to, mut n) = (iv.from.0, iv.to.0, 1);
            while let Some(&next) = list.get(k + n) {
                let nx = &ix.spans[next];
                if nx.from.0 > t1 || (nx.from.0 - to) as f64 >= unit {
                    break;
                }
                to = to.max(nx.to.0);
                n += 1;
            }
            let (mut bar, want) =
                interval_bar::<D>(scale, ly(*node), iv, ended(iv).map(|e| &e.event));
            if n == 1 {
                if let Some((text, short)) = want {
                    let at = (bar.x0, ly(*node));
                    wants.add(
                        Who::Bar(bars.len()),
                        3,
                        at,
                        (4.0, -12.0),
                        text,
                        short,
                        Some(bar.x1),
                    );
                }
            } else {
                let what = match bar.tone {
                    Tone::Belief => "beliefs",
                    Tone::Paused => "pauses",
                    Tone::Down => "down times",
                    _ => "leases",
                };
                bar.x1 = xc(to);
                bar.title = format!(
                    "{n} {what} of {} from {} to {}, drawn as one (each less than a unit of this zoom from the next)",
                    node.name(),
                    Time(from),
                    Time(to)
                );
                bar.open = D::open(|| {
                    format!(
                        "{what} of {} from {}, drawn as one (each less than a unit of this zoom from the next)",
                        node.name(),
                        Time(from)
                    )
                });
                bar.count = n;
            }
            bars.push(bar);
            k += n;
        }
    }
    // Messages: bundles of one kind between two nodes, as wide as the window allows.
    let mut width = super::BURST * unit;
    let picked = loop {
        let mut picked = Vec::new();
        for (key, list) in lod.msgs.iter() {
            let lo = list.partition_point(|m| m.0 < t0.saturating_sub(ix.longest_flight));
            let hi = list.partition_point(|m| m.0 <= t1);
            // Skip what arrived before the window (sent within a flight before it).
            let lo = lo
                + list[lo..hi]
                    .iter()
                    .take_while(|m| m.1.unwrap_or(m.0) < t0)
                    .count();
            for r in runs(list, lo, hi, width, true, |m| m.0) {
                picked.push((*key, r));
            }
        }
        if picked.len() <= LOD_ARROWS || width > (t1 - t0) as f64 {
            break picked;
        }
        width *= 2.0;
    };
    for ((from, to, class, lost), (i, j)) in picked {
        let list = lod
            .msgs
            .get(&(from, to, class, lost))
            .map_or(&[][..], |v| &v[..]);
        let ends = |m: &(i64, Option<i64>, usize)| {
            let (x0, y0) = (x(m.0), ly(from));
            match m.1 {
                Some(a) => (x0, x(a), ly(to)),
                None => (x0, x0 + 4.0, y0 + (ly(to) - y0) * 0.35),
            }
        };
        let (first, last) = (&list[i], &list[j - 1]);
        let (x0, x1, y1) = ends(first);
        let (l0, l1, _) = ends(last);
        let n = j - i;
        let sent = |what: &str| format!("{} → {}: {what}", from.name(), to.name());
        let (title, open) = if n == 1 {
            let Event::Sent { msg, .. } = &trace.entries[first.2].event else {
                continue;
            };
            let when = match first.1 {
                Some(a) => format!("sent {}, arrives {}", Time(first.0), Time(a)),
                None => format!("sent {}, lost", Time(first.0)),
            };
            let seen = first.1.is_some_and(|a| t0 <= a && a <= t1);
            if labelled(msg) && !lost && seen {
                let dy = if y1 > ly(from) { -14.0 } else { 18.0 };
                wants.add(
                    Who::Arrow(arrows.len()),
                    2,
                    (x1, y1),
                    (5.0, dy),
                    msg.label(),
                    None,
                    None,
                );
            }
            (
                sent(&format!("{} ({when})", msg.label())),
                sent(&format!("{} (sent {})", msg.label(), Time(first.0))),
            )
        } else {
            (
                sent(&format!(
                    "{n} {class} messages, sent {} to {}",
                    Time(first.0),
                    Time(last.0)
                )),
                sent(&format!("{class} messages, sent from {}", Time(first.0))),
            )
        };
        arrows.push(Arrow {
            x0,
            y0: ly(from),
            x1,
            y1,
            class,
            dropped: lost,
            label: None,
            title,
            open: D::open(|| open),
            count: n,
            last: (l0, l1),
        });
    }
    // Markers: the alarms one by one; the rest, a lane's within a label's width of
    // each other, one marker with a count.
    let lo = lod.alarms.partition_point(|a| a.0 < t0);
    let hi = lod.alarms.partition_point(|a| a.0 <= t1);
    let at = |e: &crate::model::trace::Entry| (x(e.t.0), ly(e.node));
    for &(_, i) in &lod.alarms[lo..hi] {
        let e = &trace.entries[i];
        let until = x(told_until(e).0);
        put_marker::<D>(marks, wants, i, e, (at(e), until), violation_at, None);
    }
    let wide = 48.0 * unit;
    for (node, m) in lod.marks.iter() {
        let lo = m.t.partition_point(|&t| t < t0);
        let hi = m.t.partition_point(|&t| t <= t1);
        for (i, j) in runs(&m.t, lo, hi, wide, false, |&t| t) {
            let title = (j - i > 1).then(|| {
                let (a, b) = (m.before[i], m.before[j]);
                let kinds: Vec<String> = (0..4)
                    .filter(|&k| b[k] > a[k])
                    .map(|k| format!("{} {}", b[k] - a[k], KINDS[k]))
                    .collect();
                format!(
                    "{} events on {} from {} to {}: {}",
                    j - i,
                    node.name(),
                    Time(m.t[i]),
                    Time(m.t[j - 1]),
                    kinds.join(", ")
                )
            });
            let (k, e) = (m.entry[i], &trace.entries[m.entry[i]]);
            let folded = title.map(|t| (j - i, t));
            // A count tells of the last event it stands for.
            let last = &trace.entries[m.entry[j - 1]];
            let until = x(told_until(e).0).max(x(told_until(last).0));
            put_marker::<D>(marks, wants, k, e, (at(e), until), violation_at, folded);
        }
    }
}
