//! Recorded traces: what happened in a *real* run, in a form the model's checker can judge.
//!
//! A lab run against a real Redis or etcd (or a log of someone's own system, converted)
//! is written as newline-delimited JSON — a header naming the nodes, then one event per
//! line on one true clock (microseconds) with each node's own clock reading beside it.
//! `docs/trace-format.md` is the format's definition; this module is its reader
//! ([`read`](mod@read)), its conversion into the model's own [`Trace`](crate::model::trace::Trace)
//! ([`convert`]) and its writer for the model's runs ([`export`](mod@export)).
//!
//! Why convert instead of checking recorded events directly: the checker, the projection
//! and the statistics are the model's, and they must say the same things about a real run
//! as about a simulated one. So a recorded event becomes the model events that mean the
//! same thing (a grant the client hears of becomes the lock service's `LeaseGranted` and
//! the client's `BeliefStarted`), and everything downstream runs unchanged.
//!
//! Every refusal names its line and, where one is at fault, its field
//! ([`RecordedError`]); no input can make the reader panic or grow without bound (the
//! limits below).

pub mod convert;
pub mod edn;
pub mod export;
pub mod jepsen;
pub mod read;

use crate::model::msg::RejectReason;
use crate::model::trace::AbortWhy;
use std::fmt;

pub use convert::to_trace;
pub use export::export;

/// Reads a recording's bytes in any format it comes in — this crate's NDJSON or a Jepsen
/// lock history (EDN or JSON, see [`jepsen`]) — told apart by its first characters
/// ([`jepsen::detect`]). Every importer (the CLI, the page) reads through here.
pub fn read(bytes: &[u8]) -> Result<Recording, RecordedError> {
    if bytes.len() > MAX_BYTES {
        return read::read(bytes);
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text),
        Err(_) => read::read(bytes),
    }
}

/// [`read`](fn@read) for text.
pub fn parse(text: &str) -> Result<Recording, RecordedError> {
    if text.len() > MAX_BYTES {
        return read::parse(text);
    }
    match jepsen::detect(text) {
        Some(syntax) => jepsen::parse(text, syntax),
        None => read::parse(text).map_err(|e| scenario_instead(text).unwrap_or(e)),
    }
}

/// A scenario file given where a recording was asked for — the page's trace import offers
/// `.json` files, as a Jepsen history may be one — said as such, rather than as a first
/// line that does not read as a recording's header. Tried only once the file has failed
/// as a recording, so a recording never pays for it.
fn scenario_instead(text: &str) -> Option<RecordedError> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let object = value.as_object()?;
    let scenario = ["horizon_ms", "clients"]
        .iter()
        .any(|k| object.contains_key(*k))
        && !object.contains_key("leaseline_trace");
    scenario.then(|| {
        RecordedError::at(
            0,
            None,
            "a scenario (docs/scenario-format.md), not a recording: open it as a \
             scenario (Import a scenario file on the page, `leaseline run FILE` at the \
             command line)",
        )
    })
}

/// What the judgement of `r` assumed where the recording does not say: each acquire
/// whose answer never came (judged as granted, from its moment on), each release whose
/// answer never came (the client judged as still holding). One sentence each, in time
/// order, at most [`MAX_ASSUMED`] (then how many more).
pub fn assumed(r: &Recording) -> Vec<String> {
    let ids = convert::model_ids(r);
    let answer = convert::answers(r);
    let mut out = Vec::new();
    let mut more = 0usize;
    for (i, l) in r.lines.iter().enumerate() {
        let who = || format!("{} ({})", r.header.nodes[l.node].name, ids[l.node]);
        let at = crate::vocab::time::Time(convert::ms(l.t_us));
        let said = match l.what {
            What::AcquireIndeterminate => format!(
                "{}'s acquire at {at} (line {}) is indeterminate: assumed it may hold the lock from then on",
                who(),
                l.line
            ),
            What::ReleaseSent if answer[i].is_none() => format!(
                "{}'s release at {at} (line {}) has no answer: assumed it may still hold the lock",
                who(),
                l.line
            ),
            _ => continue,
        };
        if out.len() < MAX_ASSUMED {
            out.push(said);
        } else {
            more += 1;
        }
    }
    if more > 0 {
        out.push(format!("and {more} more such assumptions"));
    }
    out
}

/// Most assumptions [`assumed`] spells out.
pub const MAX_ASSUMED: usize = 20;

/// The one version this reader reads.
pub const VERSION: i128 = 1;
/// Largest file accepted, bytes.
pub const MAX_BYTES: usize = 8 * 1024 * 1024;
/// Most lines accepted, the header included.
pub const MAX_LINES: usize = 100_000;
/// Longest line accepted, bytes, without its newline.
pub const MAX_LINE: usize = 4096;
/// Longest node name, bytes.
pub const MAX_NAME: usize = 32;
/// Longest other string (keys, values, effect names, header texts), bytes.
pub const MAX_TEXT: usize = 256;
/// Latest true time, µs: 24 hours, the scenarios' own longest horizon.
pub const MAX_T_US: i64 = 86_400_000_000;
/// Widest local clock reading, µs (2^53: exact in a browser's numbers).
pub const MAX_LOCAL_US: i64 = 1 << 53;
/// Longest TTL, ms.
pub const MAX_TTL_MS: i64 = 86_400_000;
/// Largest token (2^53, as the model keeps every token).
pub const MAX_TOKEN: u64 = 1 << 53;
/// Most nodes of each role.
pub const MAX_CLIENTS: usize = crate::vocab::ids::MAX_CLIENTS as usize;
pub const MAX_LOCK_SERVICES: usize = crate::vocab::ids::MAX_COORDS as usize;
pub const MAX_STORAGE: usize = 1;

/// What a node is in the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    Client,
    LockService,
    Storage,
}

impl Role {
    /// As the format writes it.
    pub fn word(self) -> &'static str {
        match self {
            Role::Client => "client",
            Role::LockService => "lock service",
            Role::Storage => "storage",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        [Role::Client, Role::LockService, Role::Storage]
            .into_iter()
            .find(|r| r.word() == s)
    }
}

/// One node of the header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeSpec {
    pub name: String,
    pub role: Role,
}

/// Line 1.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    pub scenario: Option<String>,
    pub service: Option<String>,
    pub source: Option<String>,
    pub notes: Option<String>,
    pub nodes: Vec<NodeSpec>,
    /// What the lock protects where one resource is kept as several keys: each resource's
    /// name and keys. The checker judges a stale write against the resource.
    pub resources: Vec<(String, Vec<String>)>,
}

/// What one event line says happened (nodes are indices into [`Header::nodes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum What {
    JobStarted,
    JobFinished,
    JobAborted {
        why: AbortWhy,
    },
    AcquireSent,
    Granted {
        token: Option<u64>,
        ttl_ms: i64,
    },
    AcquireFailed,
    /// The acquire's answer never came back (a timeout, a crash): the service may have
    /// granted it. Judged as a grant the client may act on ([`assumed`] says so).
    AcquireIndeterminate,
    RenewSent,
    Renewed {
        ttl_ms: i64,
    },
    RenewFailed,
    ExpiryObserved,
    ReleaseSent,
    Released,
    ReleaseRefused,
    LeaseExpired {
        client: usize,
        token: Option<u64>,
    },
    PauseBegan,
    PauseEnded,
    LinkCut {
        peer: usize,
    },
    LinkHealed {
        peer: usize,
    },
    WriteSent {
        key: String,
        value: String,
        token: Option<u64>,
    },
    WriteAccepted {
        client: usize,
        key: String,
        value: String,
        token: Option<u64>,
    },
    WriteRejected {
        client: usize,
        key: String,
        value: Option<String>,
        token: Option<u64>,
        reason: RejectReason,
    },
    Effect {
        client: usize,
        what: String,
    },
    /// Storage served `client`'s read of `key` at `version` (how many writes it had
    /// accepted for the key): lets the checker tell a read-modify-write that overwrote a
    /// write its writer never read.
    ReadServed {
        client: usize,
        key: String,
        version: u64,
    },
}

/// One event line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Its line number in the file (the header is line 1).
    pub line: u32,
    pub t_us: i64,
    /// Index into [`Header::nodes`].
    pub node: usize,
    pub local_us: i64,
    pub what: What,
}

/// A recorded trace, read and checked: its events ordered by true time (equal times in
/// file order).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recording {
    pub header: Header,
    pub lines: Vec<Line>,
}

/// Why a file was refused: the line (1 is the header; 0 the file as a whole), the field
/// at fault if one is, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedError {
    pub line: u32,
    pub field: Option<String>,
    pub message: String,
}

impl RecordedError {
    pub fn at(line: u32, field: Option<&str>, message: impl Into<String>) -> RecordedError {
        RecordedError {
            line,
            field: field.map(str::to_string),
            message: message.into(),
        }
    }
}

impl fmt::Display for RecordedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, &self.field) {
            (0, _) => write!(f, "the file: {}", self.message),
            (l, Some(k)) => write!(f, "line {l}, field `{k}`: {}", self.message),
            (l, None) => write!(f, "line {l}: {}", self.message),
        }
    }
}

impl std::error::Error for RecordedError {}
