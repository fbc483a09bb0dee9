//! The kinds of fault, declared once: a fault's kind without its fields ([`Kind`]) and one
//! row of words and form settings for each ([`KindSpec`]).
//!
//! A fault kind is named in many places — the scenario JSON and the link, the editor's
//! select and its new rows, the explore search's classes, the slide's fault lines, the
//! calculator's list of what it leaves out. Each reads its words from the kind's row here,
//! so no two of them can spell a kind differently, and a new kind is one new variant: the
//! compiler then names every `match` that must say what the kind means (each is
//! exhaustive, with no catch-all over kinds), and its row here must be written for
//! [`Kind::spec`] to compile.

use super::FaultKind;

/// Which nodes a fault's node fields may name (the editor offers only those).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nodes {
    All,
    Clients,
    Coordinators,
    /// Coordinator nodes and storage: what can be restarted.
    Servers,
}

/// A new field's starting value, as the editor writes it into a new row.
#[derive(Clone, Copy, Debug)]
pub enum Start {
    /// Milliseconds.
    Ms(i64),
    /// A node's word (`c1`, `coord`, `storage`).
    Node(&'static str),
    Text(&'static str),
}

/// One kind's words and form settings.
#[derive(Debug)]
pub struct KindSpec {
    /// The word in a fault's `"fault"` field, in the scenario JSON and so in links:
    /// `clock_jump`.
    pub word: &'static str,
    /// The editor's choice: "Jump a clock".
    pub label: &'static str,
    /// The kind as a noun phrase in a sentence: "a clock jump".
    pub phrase: &'static str,
    /// The kind in a slide's fault line, before its nodes: "clock jump".
    pub brief: &'static str,
    /// The explore search's class of faults it belongs to (the words of `--faults`): a
    /// clock jump is of `clock`, a heal of the `partition` it ends.
    pub class: &'static str,
    /// The nodes its node fields may name.
    pub nodes: Nodes,
    /// Its JSON fields, in the order they are written, with the values a new fault of
    /// the kind starts with (an optional field, such as a pause's cause, is listed too).
    pub fields: &'static [(&'static str, Start)],
}

/// Declares [`Kind`] and [`Kind::ALL`] from one list, so that `ALL` names every variant.
macro_rules! kinds {
    ($($(#[$doc:meta])* $k:ident),* $(,)?) => {
        /// A fault's kind without its fields: what the word in a fault's `"fault"` names.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Kind {
            $($(#[$doc])* $k),*
        }

        impl Kind {
            /// Every kind, in the order the editor lists them.
            pub const ALL: [Kind; [$(Kind::$k),*].len()] = [$(Kind::$k),*];
        }
    };
}

kinds!(
    /// [`FaultKind::Pause`].
    Pause,
    /// [`FaultKind::Partition`].
    Partition,
    /// [`FaultKind::Heal`].
    Heal,
    /// [`FaultKind::Delay`].
    Delay,
    /// [`FaultKind::ClockJump`].
    ClockJump,
    /// [`FaultKind::Restart`].
    Restart,
    /// [`FaultKind::FailRenewals`].
    FailRenewals,
    /// [`FaultKind::Failover`].
    Failover,
    /// [`FaultKind::FalsePositive`].
    FalsePositive,
);

impl Kind {
    /// The kind's row.
    pub const fn spec(self) -> &'static KindSpec {
        match self {
            Kind::Pause => &KindSpec {
                word: "pause",
                label: "Pause a node (GC, VM migration, SIGSTOP…)",
                phrase: "a pause",
                brief: "pause",
                class: "pause",
                nodes: Nodes::All,
                fields: &[
                    ("node", Start::Node("c1")),
                    ("for_ms", Start::Ms(5_000)),
                    ("cause", Start::Text("gc")),
                ],
            },
            Kind::Partition => &KindSpec {
                word: "partition",
                label: "Cut a link (partition)",
                phrase: "a partition",
                brief: "cut",
                class: "partition",
                nodes: Nodes::All,
                fields: &[("a", Start::Node("c1")), ("b", Start::Node("coord"))],
            },
            Kind::Heal => &KindSpec {
                word: "heal",
                label: "Heal a cut link",
                phrase: "a healed cut",
                brief: "heal",
                class: "partition",
                nodes: Nodes::All,
                fields: &[("a", Start::Node("c1")), ("b", Start::Node("coord"))],
            },
            Kind::Delay => &KindSpec {
                word: "delay",
                label: "Delay the next message",
                phrase: "a held-up message",
                brief: "delay",
                class: "delay",
                nodes: Nodes::All,
                fields: &[
                    ("from", Start::Node("c1")),
                    ("to", Start::Node("storage")),
                    ("extra_ms", Start::Ms(10_000)),
                ],
            },
            Kind::ClockJump => &KindSpec {
                word: "clock_jump",
                label: "Jump a clock",
                phrase: "a clock jump",
                brief: "clock jump",
                class: "clock",
                nodes: Nodes::All,
                fields: &[("node", Start::Node("c1")), ("by_ms", Start::Ms(10_000))],
            },
            Kind::Restart => &KindSpec {
                word: "restart",
                label: "Crash and restart a server",
                phrase: "a restart",
                brief: "restart",
                class: "restart",
                nodes: Nodes::Servers,
                fields: &[
                    ("node", Start::Node("coord")),
                    ("down_ms", Start::Ms(1_000)),
                ],
            },
            Kind::FailRenewals => &KindSpec {
                word: "fail_renewals",
                label: "Drop every renewal",
                phrase: "failing renewals",
                brief: "renewals fail",
                class: "fail-renewals",
                nodes: Nodes::All,
                fields: &[("for_ms", Start::Ms(10_000))],
            },
            Kind::Failover => &KindSpec {
                word: "failover",
                label: "Fail over the lock service",
                phrase: "a failover",
                brief: "failover",
                class: "failover",
                nodes: Nodes::Coordinators,
                fields: &[("node", Start::Node("coord")), ("down_ms", Start::Ms(0))],
            },
            Kind::FalsePositive => &KindSpec {
                word: "false_positive",
                label: "Declare a live client dead",
                phrase: "a false positive",
                brief: "declared dead",
                class: "false-positive",
                nodes: Nodes::Clients,
                fields: &[("node", Start::Node("c1"))],
            },
        }
    }

    /// Its word in the scenario JSON and links.
    pub const fn word(self) -> &'static str {
        self.spec().word
    }

    /// The kind a word names.
    pub fn parse(word: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.word() == word)
    }

    /// Every (word, kind), as the scenario codec's word tables are.
    pub const WORDS: [(&'static str, Kind); Kind::ALL.len()] = {
        let mut all = [("", Kind::Pause); Kind::ALL.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = (Kind::ALL[i].word(), Kind::ALL[i]);
            i += 1;
        }
        all
    };
}

impl FaultKind {
    /// The fault's kind, without its fields.
    pub fn kind(&self) -> Kind {
        match self {
            FaultKind::Pause { .. } => Kind::Pause,
            FaultKind::Partition { .. } => Kind::Partition,
            FaultKind::Heal { .. } => Kind::Heal,
            FaultKind::Delay { .. } => Kind::Delay,
            FaultKind::ClockJump { .. } => Kind::ClockJump,
            FaultKind::Restart { .. } => Kind::Restart,
            FaultKind::FailRenewals { .. } => Kind::FailRenewals,
            FaultKind::Failover { .. } => Kind::Failover,
            FaultKind::FalsePositive { .. } => Kind::FalsePositive,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_own_word_and_label() {
        for (i, k) in Kind::ALL.into_iter().enumerate() {
            assert_eq!(Kind::parse(k.word()), Some(k));
            assert_eq!(Kind::WORDS[i], (k.word(), k));
            for other in &Kind::ALL[i + 1..] {
                assert_ne!(k.word(), other.word());
                assert_ne!(k.spec().label, other.spec().label);
            }
        }
        assert_eq!(Kind::parse("false-positive"), None);
    }
}
