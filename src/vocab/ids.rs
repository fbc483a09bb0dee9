//! Who is in a run: node ids, and every name a node goes by.
//!
//! One table for each way a node is written, so a parser, a label and a sentence can never
//! disagree: the key in JSON, links and the CLI (`c1`, `coord2`, `storage`, from
//! [`NodeId`]'s `Display` and [`NodeId::parse`]), the name a learner reads in prose
//! ([`NodeId::name`]: "client 1", "the coordinator"), and the short lane label of the
//! diagram ([`NodeId::lane`]: "C1", "DB").

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

    /// What a learner calls a node in prose: "client 1", "the coordinator", "storage".
    pub fn name(self) -> String {
        match self {
            NodeId::Client(i) => format!("client {}", i + 1),
            NodeId::Coord(0) => "the coordinator".into(),
            // Redlock's other masters.
            NodeId::Coord(i) => format!("coordinator {}", i + 1),
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
            "Coordinator",
            "Coord. 2",
            "Coord. 3",
            "Coord. 4",
            "Coord. 5",
        ];
        match self {
            NodeId::Client(i) => CLIENTS.get(usize::from(i)).copied().unwrap_or("Client"),
            NodeId::Coord(i) => COORDS.get(usize::from(i)).copied().unwrap_or("Coordinator"),
            NodeId::Storage => "Storage",
        }
    }

    /// The stage's badge inside a node's circle: "C1", "Lock", "L2", "DB".
    pub fn badge(self) -> String {
        match self {
            NodeId::Client(i) => format!("C{}", i + 1),
            NodeId::Coord(0) => "Lock".into(),
            NodeId::Coord(i) => format!("L{}", i + 1),
            NodeId::Storage => "DB".into(),
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
