//! The stage: where each node stands, the links between them as the run stands at the
//! cursor, and the messages in flight as packets on those links.

use super::*;

pub const STAGE_W: f64 = 420.0;
/// The stage's height with up to three clients; more clients make it taller.
pub const STAGE_H: f64 = 300.0;
/// A node's footprint around its centre: the circle (r 22), a client's token label above
/// it and the clock reading below it. No two footprints may overlap.
pub const NODE_HALF_W: f64 = 26.0;
pub const NODE_ABOVE: f64 = 38.0;
pub const NODE_BELOW: f64 = 42.0;
/// The most a letter of a node's name takes across, in units (11 px bold).
const NAME_LETTER_W: f64 = 7.0;
/// Four or more clients zigzag between two columns this far apart, one client every
/// `CLIENT_PITCH` down the page, so each column keeps two pitches between neighbours —
/// room for a node's footprint.
const CLIENT_COLUMNS: [f64; 2] = [50.0, 130.0];
const CLIENT_PITCH: f64 = 40.0;

/// The stage's height for its nodes: [`STAGE_H`], or taller when the clients' zigzag needs
/// it (eight clients: 362).
pub fn stage_height(nodes: &[StageNode]) -> f64 {
    client_column_height(nodes.iter().filter(|s| s.node.is_client()).count())
}

fn client_column_height(clients: usize) -> f64 {
    STAGE_H.max(NODE_ABOVE + NODE_BELOW + 2.0 + CLIENT_PITCH * clients.saturating_sub(1) as f64)
}

#[derive(Clone, Debug, PartialEq)]
pub struct StageNode {
    pub node: NodeId,
    pub x: f64,
    pub y: f64,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StageLink {
    pub a: NodeId,
    pub b: NodeId,
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
    pub cut: bool,
    /// Where a cut link's ✂ stands (its centre): along the link, clear of every other
    /// link's ✂ ([`stage_links`]).
    pub cut_at: (f64, f64),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Packet {
    pub x: f64,
    pub y: f64,
    pub class: &'static str,
    pub label: String,
}

/// Where each node sits on the stage: clients on the left — one column for up to three,
/// a zigzag between two columns for more — the coordinator top right, storage bottom
/// right; every client has a link to each.
pub fn stage_nodes(nodes: &[NodeId]) -> Vec<StageNode> {
    let clients: Vec<NodeId> = nodes.iter().copied().filter(|n| n.is_client()).collect();
    let k = clients.len();
    let height = client_column_height(k);
    let top = NODE_ABOVE + 1.0;
    let mut v: Vec<StageNode> = clients
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let (x, y) = if k <= 3 {
                (70.0, 30.0 + (height - 60.0) * (i as f64 + 0.5) / k as f64)
            } else {
                let pitch = (height - top - NODE_BELOW - 1.0) / (k - 1) as f64;
                (CLIENT_COLUMNS[i % 2], top + pitch * i as f64)
            };
            StageNode {
                node: *n,
                x,
                y,
                name: n.name(),
            }
        })
        .collect();
    // One coordinator top right; Redlock's five masters zigzag down two columns above
    // storage, so no two circles (or their clock readings) touch.
    let coords: Vec<NodeId> = nodes
        .iter()
        .copied()
        .filter(|n| matches!(n, NodeId::Coord(_)))
        .collect();
    let m = coords.len();
    v.extend(coords.iter().enumerate().map(|(i, n)| StageNode {
        node: *n,
        // (Columns far enough apart that one master's clock reading keeps clear of the
        // next one's name, which is wider than its circle.)
        x: if m <= 1 || i % 2 == 1 { 350.0 } else { 250.0 },
        y: if m <= 1 {
            75.0
        } else {
            24.0 + 150.0 * i as f64 / (m - 1) as f64
        },
        name: n.name(),
    }));
    v.push(StageNode {
        node: NodeId::Storage,
        x: 330.0,
        y: height - 75.0,
        name: NodeId::Storage.name(),
    });
    v
}

/// The stage's width for a narrow screen ([`narrowed`]).
pub const STAGE_W_NARROW: f64 = 290.0;

/// [`stage_nodes`]' places pressed into [`STAGE_W_NARROW`] units across, heights unchanged,
/// for a stage whose box is narrower than its usual width in pixels: the picture is scaled
/// to its box, so at 420 units in a phone's 270 px its words would be drawn at 7 px; at 290
/// they keep 10 px or more. The press keeps every footprint clear of its neighbours: the
/// clients' zigzag columns (50 and 130) land 54 apart, two footprints' width plus 2; two
/// masters' columns (250 and 350) 68 apart, so one master's clock reading still ends
/// before the next one's name, the widest word on the stage, begins; and that name, the
/// rightmost, ends inside the width.
pub fn narrowed(nodes: &[StageNode]) -> Vec<StageNode> {
    nodes
        .iter()
        .map(|s| StageNode {
            x: s.x * 0.68 + 4.0,
            ..s.clone()
        })
        .collect()
}

pub(super) fn pos(nodes: &[StageNode], n: NodeId) -> (f64, f64) {
    nodes
        .iter()
        .find(|s| s.node == n)
        .map_or((0.0, 0.0), |s| (s.x, s.y))
}

/// The links of the stage with their state at `state`, in [`Full`] detail.
pub fn stage_links(nodes: &[StageNode], state: &State) -> Vec<StageLink> {
    stage_links_with::<Full>(nodes, state)
}

/// [`stage_links`] in the detail `D`: where it spreads ([`Detail::SPREADS`]), the ✂ of
/// cut links are moved off each other.
pub fn stage_links_with<D: Detail>(nodes: &[StageNode], state: &State) -> Vec<StageLink> {
    let mut v = Vec::new();
    let others: Vec<NodeId> = nodes
        .iter()
        .map(|s| s.node)
        .filter(|n| !n.is_client())
        .collect();
    for c in nodes.iter().filter(|s| s.node.is_client()) {
        for &other in &others {
            let (x1, y1) = pos(nodes, other);
            v.push(StageLink {
                a: c.node,
                b: other,
                x0: c.x,
                y0: c.y,
                x1,
                y1,
                cut: state.cut.contains(&crate::model::sim::pair(c.node, other)),
                // Two fifths of the way from the client, until placed below.
                cut_at: (c.x + (x1 - c.x) * 0.4, c.y + (y1 - c.y) * 0.4),
            });
        }
    }
    // Each ✂ takes the first spot along its link (two fifths of the way from the client,
    // then nearer either end) whose box is clear of the ones placed before it and of every
    // node's name: links fan out from a client, so the cuts of two links to Redlock's
    // masters would otherwise print on each other, and in the narrow stage on a master's
    // name.
    let mut taken: Vec<(f64, f64)> = Vec::new();
    for l in v.iter_mut().filter(|l| l.cut && D::SPREADS) {
        let at = |f: f64| (l.x0 + (l.x1 - l.x0) * f, l.y0 + (l.y1 - l.y0) * f);
        let clear = |p: (f64, f64)| {
            taken
                .iter()
                .all(|q| (p.0 - q.0).abs() >= 14.0 || (p.1 - q.1).abs() >= 18.0)
                && nodes.iter().all(|s| {
                    // The name's box, centred on the node (at most 7 units a letter at
                    // 11 px bold), and the ✂'s, 14 by 18 around its spot.
                    let half = NAME_LETTER_W * s.node.badge().chars().count() as f64 / 2.0;
                    (p.0 - s.x).abs() >= half + 7.0 || (p.1 - s.y).abs() >= 16.0
                })
        };
        let spot = [0.4, 0.3, 0.5, 0.25, 0.6, 0.2, 0.7]
            .into_iter()
            .map(at)
            .find(|&p| clear(p))
            .unwrap_or_else(|| at(0.4));
        l.cut_at = spot;
        taken.push(spot);
    }
    v
}

/// Messages in the air at true time `t` (ms), placed along their links (`state` is a
/// state of `trace`).
pub fn packets(nodes: &[StageNode], trace: &Trace, state: &State, t: f64) -> Vec<Packet> {
    state
        .in_flight
        .values()
        .map(|m| {
            let (x0, y0) = pos(nodes, m.from);
            let (x1, y1) = pos(nodes, m.to);
            let span = (m.arrives.0 - m.sent.0).max(1) as f64;
            let p = within((t - m.sent.0 as f64) / span, 0.0, 1.0);
            Packet {
                x: x0 + (x1 - x0) * p,
                y: y0 + (y1 - y0) * p,
                class: m.class,
                label: m.label(trace),
            }
        })
        .collect()
}
