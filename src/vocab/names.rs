//! The enums every floor names, each with one table: every parser, label, select option,
//! link value and JSON word of a fence mode or a violation kind reads its row here, so no
//! two places can spell one differently (five spellings of the fence mode once made the
//! editor write a draft the codec refused).

use serde::{Serialize, Serializer};

/// How storage checks the fencing token of a write.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FenceMode {
    /// No check: every write lands.
    #[default]
    None,
    /// Reject a token lower than the highest accepted; check and write are one atomic step.
    Monotone,
    /// Reject a token lower than *or equal to* the highest accepted.
    Strict,
    /// Accept only the lock's current token (a resource in the same store as the lock,
    /// like an etcd transaction that compares the lock key's revision).
    Exact,
    /// Read the mark, compare, and write `check_gap_ms` later: the race the seeds warn
    /// about (another write can pass its check in the gap).
    NonAtomic,
}

/// Every fence mode with its word and its label: the one table that the scenario JSON,
/// the link's `fence=`, the CLI's `--fence`, and the settings' and the editor's selects read.
///
/// The label is plain words, since a word like "monotone" means nothing to a learner; the
/// word stays in the select's tooltip ([`FenceMode::title`]), as links and files use it.
const FENCE_MODES: [(FenceMode, &str, &str); 5] = [
    (FenceMode::None, "none", "Off — storage trusts the lock"),
    (FenceMode::Monotone, "monotone", "Reject lower tokens"),
    (FenceMode::Strict, "strict", "Reject lower or equal tokens"),
    (FenceMode::Exact, "exact", "Accept only the current token"),
    (
        FenceMode::NonAtomic,
        "non_atomic",
        "Check, then write later (not atomic)",
    ),
];

/// Other spellings still read, so that links and files written with them keep working:
/// `non-atomic` is read, but only `non_atomic` (the JSON's word) is ever written.
const FENCE_ALIASES: [(&str, FenceMode); 1] = [("non-atomic", FenceMode::NonAtomic)];

impl FenceMode {
    /// Every mode, in the order the selects list them (the default first).
    pub const ALL: [FenceMode; 5] = {
        let mut all = [FenceMode::None; 5];
        let mut i = 0;
        while i < all.len() {
            all[i] = FENCE_MODES[i].0;
            i += 1;
        }
        all
    };

    fn row(self) -> &'static (FenceMode, &'static str, &'static str) {
        FENCE_MODES
            .iter()
            .find(|r| r.0 == self)
            .expect("every mode has a row")
    }

    /// The word written for it — in the JSON, the link and the CLI alike: `none`,
    /// `monotone`, `strict`, `exact`, `non_atomic`.
    pub fn name(self) -> &'static str {
        self.row().1
    }

    /// What a select shows: what the fence does, in plain words ("Reject lower tokens").
    pub fn label(self) -> &'static str {
        self.row().2
    }

    /// The label's tooltip: the mode's word, as links, the JSON and the CLI write it.
    pub fn title(self) -> String {
        format!(
            "{} (fence={} in links, the JSON and the CLI)",
            self.label(),
            self.name()
        )
    }

    /// Reads a word, or an older spelling of one (`non-atomic`).
    pub fn parse(s: &str) -> Option<FenceMode> {
        FENCE_MODES
            .iter()
            .map(|r| (r.1, r.0))
            .chain(FENCE_ALIASES)
            .find(|(w, _)| *w == s)
            .map(|(_, f)| f)
    }

    /// The words, for error messages and usage text: `none, monotone, …`.
    pub fn names() -> String {
        let v: Vec<&str> = FENCE_MODES.iter().map(|r| r.1).collect();
        v.join(", ")
    }

    /// The fence on the other side of the "fence" switch and of a comparison's default
    /// partner: off if on (whatever the mode), monotone if off.
    pub fn flipped(self) -> FenceMode {
        match self {
            FenceMode::None => FenceMode::Monotone,
            _ => FenceMode::None,
        }
    }
}

/// What froze a paused node. The model treats every cause alike — a pause is a pause: the
/// node's handlers stop and its clock runs on — so the cause is what the narration and the
/// editor call it, never an input to the run. The seeds list the usual suspects: a
/// stop-the-world GC, a VM's live migration, a starved CPU, paging, a stop signal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PauseCause {
    /// A stop-the-world garbage collection: the default, so a pause written without a
    /// cause (every scenario and link from before causes existed) keeps its meaning.
    #[default]
    Gc,
    /// The hypervisor moves the VM to another host and stops it for the final copy.
    VmMigration,
    /// Other work holds every CPU, and the process is not scheduled.
    CpuStarvation,
    /// Its memory was paged out and must be read back from disk.
    Paging,
    /// Someone sent it SIGSTOP (a debugger, `kill -STOP`), and later SIGCONT.
    Sigstop,
    /// A blocking call that does not return (a stuck disk, a lock in a library).
    Hang,
}

/// Every pause cause: its word (scenario JSON, links), its label (the editor's select) and
/// how the narration names it ("client 1 froze (a VM live migration)").
const PAUSE_CAUSES: [(PauseCause, &str, &str, &str); 6] = [
    (PauseCause::Gc, "gc", "GC pause", "a GC pause"),
    (
        PauseCause::VmMigration,
        "vm_migration",
        "VM live migration",
        "a VM live migration",
    ),
    (
        PauseCause::CpuStarvation,
        "cpu_starvation",
        "CPU starvation",
        "CPU starvation",
    ),
    (
        PauseCause::Paging,
        "paging",
        "Paging (memory swapped out)",
        "paging: its memory was swapped out",
    ),
    (
        PauseCause::Sigstop,
        "sigstop",
        "SIGSTOP (stopped by a signal)",
        "SIGSTOP",
    ),
    (
        PauseCause::Hang,
        "hang",
        "Hang (a call that does not return)",
        "a hung call",
    ),
];

impl PauseCause {
    /// Every cause, the default first.
    pub const ALL: [PauseCause; 6] = {
        let mut all = [PauseCause::Gc; 6];
        let mut i = 0;
        while i < all.len() {
            all[i] = PAUSE_CAUSES[i].0;
            i += 1;
        }
        all
    };

    fn row(self) -> &'static (PauseCause, &'static str, &'static str, &'static str) {
        PAUSE_CAUSES
            .iter()
            .find(|r| r.0 == self)
            .unwrap_or(&PAUSE_CAUSES[0])
    }

    /// Its word in scenario JSON and links: `gc`, `vm_migration`, `cpu_starvation`,
    /// `paging`, `sigstop`, `hang`.
    pub fn name(self) -> &'static str {
        self.row().1
    }

    /// The editor's label: "VM live migration".
    pub fn label(self) -> &'static str {
        self.row().2
    }

    /// What the narration calls it: "a VM live migration", "CPU starvation".
    pub fn prose(self) -> &'static str {
        self.row().3
    }

    pub fn parse(s: &str) -> Option<PauseCause> {
        PAUSE_CAUSES.iter().find(|r| r.1 == s).map(|r| r.0)
    }

    /// Every (word, cause), as the scenario codec's word tables are.
    pub const WORDS: [(&'static str, PauseCause); 6] = {
        let mut all = [("", PauseCause::Gc); 6];
        let mut i = 0;
        while i < all.len() {
            all[i] = (PAUSE_CAUSES[i].1, PAUSE_CAUSES[i].0);
            i += 1;
        }
        all
    };
}

/// What the checker calls a safety violation (two believers is a hazard, not one of these).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ViolationKind {
    StaleWrite,
    LostUpdate,
    TokenRegression,
    DuplicateEffect,
}

/// Every violation kind with its word (the CLI's JSON, the embed's `violation` event).
const VIOLATION_KINDS: [(ViolationKind, &str); 4] = [
    (ViolationKind::StaleWrite, "stale_write"),
    (ViolationKind::LostUpdate, "lost_update"),
    (ViolationKind::TokenRegression, "token_regression"),
    (ViolationKind::DuplicateEffect, "duplicate_effect"),
];

impl ViolationKind {
    pub const ALL: [ViolationKind; 4] = [
        ViolationKind::StaleWrite,
        ViolationKind::LostUpdate,
        ViolationKind::TokenRegression,
        ViolationKind::DuplicateEffect,
    ];

    /// Its word: `stale_write`, `lost_update`, `token_regression`, `duplicate_effect`.
    pub fn name(self) -> &'static str {
        VIOLATION_KINDS
            .iter()
            .find(|r| r.0 == self)
            .map_or("", |r| r.1)
    }

    pub fn parse(s: &str) -> Option<ViolationKind> {
        VIOLATION_KINDS.iter().find(|r| r.1 == s).map(|r| r.0)
    }
}

impl Serialize for ViolationKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// What an author's question can ask the run to do next: a small vocabulary of moments the
/// trace shows, so that the answer to an author's question is read from the run, never
/// stored with it (`teach::authored` finds the moment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Storage takes a write.
    WriteAccepted,
    /// Storage refuses a write (its fence, or a lease check at the resource).
    WriteRefused,
    /// The lock service lets a lease run out.
    LeaseExpired,
    /// A client gives up its job before it is done.
    JobAborted,
    /// A second client comes to believe it holds the lock while another still does.
    TwoBelievers,
}

/// Every outcome with its word (the scenario JSON) and its label (the editor's select).
const OUTCOMES: [(Outcome, &str, &str); 5] = [
    (
        Outcome::WriteAccepted,
        "write_accepted",
        "Storage accepts a write",
    ),
    (
        Outcome::WriteRefused,
        "write_refused",
        "Storage refuses a write",
    ),
    (Outcome::LeaseExpired, "lease_expired", "A lease expires"),
    (
        Outcome::JobAborted,
        "job_aborted",
        "A client gives up its job",
    ),
    (
        Outcome::TwoBelievers,
        "two_believers",
        "Two clients believe they hold the lock",
    ),
];

impl Outcome {
    /// Every outcome, in the order the editor lists them.
    pub const ALL: [Outcome; 5] = {
        let mut all = [Outcome::WriteAccepted; 5];
        let mut i = 0;
        while i < all.len() {
            all[i] = OUTCOMES[i].0;
            i += 1;
        }
        all
    };

    fn row(self) -> &'static (Outcome, &'static str, &'static str) {
        OUTCOMES
            .iter()
            .find(|r| r.0 == self)
            .expect("every outcome has a row")
    }

    /// Its word in the scenario JSON: `write_accepted`, `write_refused`, `lease_expired`,
    /// `job_aborted`, `two_believers`.
    pub fn name(self) -> &'static str {
        self.row().1
    }

    /// In plain words, as the editor's select and the reveal say it.
    pub fn label(self) -> &'static str {
        self.row().2
    }

    pub fn parse(s: &str) -> Option<Outcome> {
        OUTCOMES.iter().find(|r| r.1 == s).map(|r| r.0)
    }

    /// Every (word, outcome) pair, for a parser's table.
    pub fn words() -> impl Iterator<Item = (&'static str, Outcome)> {
        OUTCOMES.iter().map(|r| (r.1, r.0))
    }
}

/// A fencing token as every view says it: "token 33", or "no token" for the services that
/// give none (Redis, Redlock, whose grants carry 0) — never "token 0".
pub fn token_words(token: u64) -> String {
    if token == 0 {
        "no token".into()
    } else {
        format!("token {token}")
    }
}

/// Whether `value` is a name as the page writes them (`check-then-write`, `lesson/fix`, a
/// panel's `explore`): 1 to `max` bytes of lower-case letters, digits, `-` and `/`. Links
/// and stored progress name scenarios so; anything else is not one of ours.
pub fn is_slug(value: &str, max: usize) -> bool {
    (1..=max).contains(&value.len())
        && value
            .bytes()
            .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-' | b'/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_violation_kind_has_one_word_that_reads_back() {
        for k in ViolationKind::ALL {
            assert!(!k.name().is_empty());
            assert_eq!(ViolationKind::parse(k.name()), Some(k));
        }
        assert_eq!(
            serde_json::to_string(&ViolationKind::StaleWrite).unwrap(),
            "\"stale_write\""
        );
    }

    #[test]
    fn every_outcome_has_one_word_and_label_that_read_back() {
        for o in Outcome::ALL {
            assert_eq!(Outcome::parse(o.name()), Some(o));
            assert!(!o.label().is_empty());
        }
        assert_eq!(Outcome::words().count(), Outcome::ALL.len());
    }
}
