//! Who is in a run: node ids, and every name a node goes by.
//!
//! One table for each way a node is written, so a parser, a label and a sentence can never
//! disagree: the key in JSON, links and the CLI (`c1`, `coord2`, `storage`, from
//! [`NodeId`]'s `Display` and [`NodeId::parse`]), the name a learner reads in prose
//! ([`NodeId::name`]: "client 1", "the lock service", "storage"), the diagram's lane title
//! ([`NodeId::lane`]: "Client 1", "Lock service", "Storage") and the stage's badge
//! ([`NodeId::badge`]: "C1", "Lock service", "Storage").
//!
//! One name per node, so a learner never wonders whether two names are two things: the lock
//! service is never "Coordinator", "Lock" or "the coordinator", nor storage "DB". A badge
//! may shorten a client to "C1", but the lock service and storage are called by the same
//! words in every place; the test `no_retired_node_name_is_shown` in `teach::narrate` keeps
//! the other names out.

use serde::{Serialize, Serializer};
use std::fmt;

/// The most coordinator nodes any flavor has (Redlock's five masters).
pub const MAX_COORDS: u8 = 5;

/// Maximum number of clients in a scenario.
pub const MAX_CLIENTS: u8 = 8;

/// A node of the run. Ordered so that lanes sort clients, then coordinator, then storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum NodeId {
    /// Client `i`, 0-based; written `c1`..`c8` in JSON and text.
    Client(u8),
    /// Coordinator node `i`. The generic lock service is one node (`coord`); Redlock's five
    /// masters are `coord`, `coord2` … `coord5` (`coord1` is accepted for `coord`).
    Coord(u8),
    /// The protected resource.
    Storage,
}

impl NodeId {
    pub const COORD: NodeId = NodeId::Coord(0);

    pub fn is_client(self) -> bool {
        matches!(self, NodeId::Client(_))
    }

    /// What a learner calls a node in prose: "client 1", "the lock service", "storage".
    pub fn name(self) -> String {
        match self {
            NodeId::Client(i) => format!("client {}", i + 1),
            NodeId::Coord(0) => "the lock service".into(),
            // Redlock's other masters, numbered as their lanes are.
            NodeId::Coord(i) => format!("lock service {}", i + 1),
            NodeId::Storage => "storage".into(),
        }
    }

    /// The diagram's lane title, written out (no case conversion at run time: its tables
    /// cost wasm size).
    pub fn lane(self) -> &'static str {
        const CLIENTS: [&str; 8] = [
            "Client 1", "Client 2", "Client 3", "Client 4", "Client 5", "Client 6", "Client 7",
            "Client 8",
        ];
        const COORDS: [&str; 5] = [
            "Lock service",
            "Lock service 2",
            "Lock service 3",
            "Lock service 4",
            "Lock service 5",
        ];
        match self {
            NodeId::Client(i) => CLIENTS.get(usize::from(i)).copied().unwrap_or("Client"),
            NodeId::Coord(i) => COORDS
                .get(usize::from(i))
                .copied()
                .unwrap_or("Lock service"),
            NodeId::Storage => "Storage",
        }
    }

    /// The stage's badge on a node's circle: "C1" for a client (short, as the stage has
    /// up to eight), and the lane's own words for the lock service and storage.
    pub fn badge(self) -> String {
        match self {
            NodeId::Client(i) => format!("C{}", i + 1),
            _ => self.lane().into(),
        }
    }

    /// Parses `c1`..`c8`, `coord`, `coord1`..`coord5` and `storage`.
    pub fn parse(s: &str) -> Option<NodeId> {
        match s {
            "coord" => Some(NodeId::COORD),
            "storage" => Some(NodeId::Storage),
            _ if s.starts_with("coord") => {
                let n: u8 = s["coord".len()..].parse().ok()?;
                (1..=MAX_COORDS).contains(&n).then(|| NodeId::Coord(n - 1))
            }
            _ => {
                let n: u8 = s.strip_prefix('c')?.parse().ok()?;
                (1..=MAX_CLIENTS)
                    .contains(&n)
                    .then(|| NodeId::Client(n - 1))
            }
        }
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NodeId::Client(i) => write!(f, "c{}", i + 1),
            NodeId::Coord(0) => write!(f, "coord"),
            NodeId::Coord(i) => write!(f, "coord{}", i + 1),
            NodeId::Storage => write!(f, "storage"),
        }
    }
}

impl Serialize for NodeId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_ids_round_trip_and_sort_as_lanes() {
        for s in ["c1", "c8", "coord", "coord2", "coord5", "storage"] {
            assert_eq!(NodeId::parse(s).unwrap().to_string(), s);
        }
        assert_eq!(NodeId::parse("c0"), None);
        assert_eq!(NodeId::parse("c9"), None);
        assert_eq!(NodeId::parse("x"), None);
        assert_eq!(NodeId::parse("coord1"), Some(NodeId::COORD));
        assert_eq!(NodeId::parse("coord6"), None);
        assert_eq!(NodeId::parse("coord0"), None);
        assert!(NodeId::Client(7) < NodeId::COORD && NodeId::COORD < NodeId::Storage);
    }
}
