//! Jepsen lock histories, in and out: a history of `:acquire`/`:release` operations (EDN
//! or JSON) read into a [`Recording`], and a model run written as one.
//!
//! Jepsen's lock (mutex) workloads record each process's operations as an `:invoke`
//! followed by its completion — `:ok` (it happened), `:fail` (it did not) or `:info` (no
//! one knows: a timeout or a crash) — with a nemesis process injecting faults beside them.
//! Read here, they become the recorded events of `docs/trace-format.md`, and the same
//! conversion and checker judge them as they judge a lab run. `docs/jepsen.md` is the
//! mapping in full; in short:
//!
//! - each client process is a client node (`process N`, at most eight); the history's
//!   lock service is one node, `lock service`; `storage` only if the history writes;
//! - `:acquire` (or `:lock`) invoke → `acquire_sent`; `:ok` → `granted` (its `:value`, a
//!   whole number, is the fencing token; no lease length is known, so the TTL is the
//!   format's longest); `:fail` (any `:error`) → `acquire_failed`; `:info` →
//!   `acquire_indeterminate` at the invoke's moment, judged as a grant;
//! - `:release` (or `:unlock`) invoke → `release_sent`; `:ok` → `released`; `:fail` →
//!   `release_refused`; `:info` → nothing more (the release is unanswered and the process
//!   judged as still holding);
//! - `:write` with `:value [token value]` (or `[token value key]`) → `write_sent`, and its
//!   `:ok` → storage's `write_accepted`; a `:fail` or `:info` write adds nothing (the
//!   history does not say which fence refused it, or whether it landed);
//! - the nemesis: a partition (`:start-partition`, `:partition`, `:start`) cuts the lock
//!   service from every client until `:stop-partition`, `:heal` or `:stop`; `:kill`,
//!   `:pause` and `:stop-process` pause the lock service until `:resume`, `:restart` or
//!   `:start-process` — unless its `:value` names nodes as this crate's export does
//!   (`"c1"`, `["c1" "coord"]`), when it is those nodes' (`named_nodes`). Any other
//!   nemesis operation is left out and named in the header's notes.
//!
//! Time: `:time` is nanoseconds since the test began; the recording counts microseconds
//! (divided rounding down). Other keys (`:index`, `:error` on a success, Jepsen's
//! `:exception`, …) are read past. Every refusal names the operation's line and the key at
//! fault, spelled as the history spells it (`:process` in EDN, `process` in JSON).

mod write;
pub use write::*;

use super::edn::{self, Edn};
use super::{
    Header, Line, NodeSpec, RecordedError, Recording, Role, What, MAX_CLIENTS, MAX_TEXT, MAX_TOKEN,
    MAX_TTL_MS, MAX_T_US,
};
use crate::model::msg::{Msg, RejectReason, Text};
use crate::model::trace::{Event, LossHow, Trace};
use crate::vocab::ids::NodeId;

type Res<T> = Result<T, RecordedError>;

/// How a history is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    Edn,
    Json,
}

/// Tells a Jepsen history from this crate's NDJSON by its first characters: `{:` or
/// `[{:` (whitespace allowed between) is EDN; `[{"` is Jepsen's JSON, and so is `{"` when
/// the first line names a `"type"` and not `"leaseline_trace"`. Anything else is `None`:
/// the NDJSON reader's, whose refusals stay its own.
pub fn detect(text: &str) -> Option<Syntax> {
    let t = text.trim_start();
    let (open, rest) = match t.strip_prefix('[').or_else(|| t.strip_prefix('(')) {
        Some(r) => (true, r.trim_start()),
        None => (false, t),
    };
    let inner = rest.strip_prefix('{')?.trim_start();
    if inner.starts_with(':') {
        return Some(Syntax::Edn);
    }
    if !inner.starts_with('"') {
        return None;
    }
    if open {
        return Some(Syntax::Json);
    }
    let first = rest.lines().next().unwrap_or("");
    (first.contains("\"type\"") && !first.contains("\"leaseline_trace\"")).then_some(Syntax::Json)
}

/// What an operation does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Invoke,
    Ok,
    Fail,
    Info,
}

/// The client operations read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum F {
    Acquire,
    Release,
    Write,
}

/// A process's invoke not yet completed: its operation, time, line, and a write's own
/// key, value and token.
type Pending = (F, i64, u32, Option<Write>);

/// What a nemesis operation does to the drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    Cut,
    Heal,
    Pause,
    Resume,
}

fn fault(f: &str) -> Option<Fault> {
    Some(match f {
        "start-partition" | "partition" | "start" => Fault::Cut,
        "stop-partition" | "heal" | "stop" => Fault::Heal,
        "kill" | "pause" | "stop-process" => Fault::Pause,
        "resume" | "restart" | "start-process" => Fault::Resume,
        _ => return None,
    })
}

/// The nodes a nemesis operation's `:value` names, when it names them as this crate's
/// export writes them (`"c1"`, `"coord"`, `"storage"`; a partition's two sides as a pair):
/// client `cN` is process N − 1, and every lock service node is the history's one. So a
/// model run written out and read back keeps who paused and which link was cut — a client
/// cut from the lock service but not from storage stays so. A value that names any other
/// node (a real test's `"n1"`, a map of a partition's sides) or none names nothing here
/// (`None`). A name of this form for a node the history does not have (a client with no
/// operation, storage in a history that never writes) is `Some(None)`: the fault is left
/// out rather than put on another node.
fn named_nodes(
    value: &Edn,
    procs: &[i128],
    lock: usize,
    storage: Option<usize>,
) -> Option<Option<Vec<usize>>> {
    // Some(the node, if the history has it), or None: not a name of this form.
    let one = |e: &Edn| -> Option<Option<usize>> {
        let (Edn::Str(name) | Edn::Kw(name)) = e else {
            return None;
        };
        Some(match name.as_str() {
            "storage" => storage,
            "coord" => Some(lock),
            n if n
                .strip_prefix("coord")
                .is_some_and(|i| i.parse::<u8>().is_ok()) =>
            {
                Some(lock)
            }
            n => {
                let k: u8 = n.strip_prefix('c')?.parse().ok().filter(|&k| k > 0)?;
                procs.iter().position(|&p| p == i128::from(k) - 1)
            }
        })
    };
    let names = match value {
        Edn::Vec(items) | Edn::List(items) if !items.is_empty() && items.len() <= 2 => items
            .iter()
            .map(one)
            .collect::<Option<Vec<Option<usize>>>>()?,
        e => vec![one(e)?],
    };
    Some(names.into_iter().collect())
}

/// Whether two cut links are the same link, named from either end.
fn same_link((a, b): (usize, usize), (x, y): (usize, usize)) -> bool {
    (a, b) == (x, y) || (a, b) == (y, x)
}

/// Who did it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Who {
    Process(i128),
    Nemesis,
}

/// One operation as read.
struct Op {
    line: u32,
    kind: Kind,
    who: Who,
    /// The client operation, or the nemesis's own name.
    f: Result<F, String>,
    t_us: i64,
    value: Edn,
}

/// One operation's map, read key by key.
struct Map<'a> {
    line: u32,
    syntax: Syntax,
    kv: &'a [(Edn, Edn)],
}

impl Map<'_> {
    /// The key as the history spells it.
    fn key(&self, k: &str) -> String {
        match self.syntax {
            Syntax::Edn => format!(":{k}"),
            Syntax::Json => k.to_string(),
        }
    }

    fn err(&self, k: &str, message: impl Into<String>) -> RecordedError {
        RecordedError::at(self.line, Some(&self.key(k)), message)
    }

    fn get(&self, k: &str) -> Option<&Edn> {
        self.kv
            .iter()
            .find(|(x, _)| match x {
                Edn::Kw(s) | Edn::Str(s) => s == k,
                _ => false,
            })
            .map(|(_, v)| v)
            .filter(|v| **v != Edn::Nil)
    }

    /// A keyword (EDN) or string (JSON) value, as its name.
    fn name(&self, k: &str) -> Res<Option<&str>> {
        match self.get(k) {
            None => Ok(None),
            Some(Edn::Kw(s)) if self.syntax == Syntax::Edn => Ok(Some(s)),
            Some(Edn::Str(s)) => Ok(Some(s)),
            Some(v) => Err(self.err(k, format!("expected a name, got {}", v.shown()))),
        }
    }

    fn need_name(&self, k: &str) -> Res<&str> {
        self.name(k)?.ok_or_else(|| self.err(k, "missing"))
    }

    fn int(&self, k: &str, lo: i128, hi: i128) -> Res<Option<i128>> {
        match self.get(k) {
            None => Ok(None),
            Some(Edn::Int(v)) if (lo..=hi).contains(v) => Ok(Some(*v)),
            Some(Edn::Int(v)) => Err(self.err(k, format!("{v} is out of range ({lo} … {hi})"))),
            Some(v) => Err(self.err(k, format!("expected a whole number, got {}", v.shown()))),
        }
    }
}

/// How a name is written in this syntax, for a refusal: `:acquire` or `"acquire"`.
fn spelled(syntax: Syntax, name: &str) -> String {
    match syntax {
        Syntax::Edn => format!(":{name}"),
        Syntax::Json => format!("\"{name}\""),
    }
}

fn read_op(top: &edn::Top, syntax: Syntax) -> Res<Op> {
    let Edn::Map(kv) = &top.value else {
        return Err(RecordedError::at(
            top.line,
            None,
            format!("expected an operation (a map), got {}", top.value.shown()),
        ));
    };
    let m = Map {
        line: top.line,
        syntax,
        kv,
    };
    let s = |n: &str| spelled(syntax, n);
    let kind = match m.need_name("type")? {
        "invoke" => Kind::Invoke,
        "ok" => Kind::Ok,
        "fail" => Kind::Fail,
        "info" => Kind::Info,
        other => {
            return Err(m.err(
                "type",
                format!(
                    "{} is not {}, {}, {} or {}",
                    s(other),
                    s("invoke"),
                    s("ok"),
                    s("fail"),
                    s("info")
                ),
            ))
        }
    };
    let who = match m.get("process") {
        None => return Err(m.err("process", "missing")),
        Some(Edn::Int(p)) if (0..=i128::from(MAX_TOKEN)).contains(p) => Who::Process(*p),
        Some(Edn::Kw(n) | Edn::Str(n)) if n == "nemesis" => Who::Nemesis,
        Some(v) => {
            return Err(m.err(
                "process",
                format!(
                    "{} is neither a process number (0 … 2^53) nor {}",
                    v.shown(),
                    s("nemesis")
                ),
            ))
        }
    };
    let f = m.need_name("f")?;
    let f = match (who, f) {
        (Who::Nemesis, f) => Err(f.chars().take(MAX_TEXT).collect()),
        (_, "acquire" | "lock") => Ok(F::Acquire),
        (_, "release" | "unlock") => Ok(F::Release),
        (_, "write") => Ok(F::Write),
        (_, other) => {
            return Err(m.err(
                "f",
                format!(
                    "unknown operation {} (a lock history has {}, {} and {})",
                    s(other),
                    s("acquire"),
                    s("release"),
                    s("write")
                ),
            ))
        }
    };
    let nanos = m.int("time", 0, i128::from(MAX_T_US) * 1000 + 999)?;
    let t_us = nanos
        .ok_or_else(|| m.err("time", "missing"))?
        .div_euclid(1000) as i64;
    m.int("index", 0, i128::MAX)?;
    Ok(Op {
        line: top.line,
        kind,
        who,
        f,
        t_us,
        value: m.get("value").cloned().unwrap_or(Edn::Nil),
    })
}

/// Reads a Jepsen history (`text`, in `syntax`) as a [`Recording`].
pub fn parse(text: &str, syntax: Syntax) -> Res<Recording> {
    let tops = edn::parse_all(text, syntax == Syntax::Json)?;
    let ops: Vec<Op> = tops
        .iter()
        .map(|t| read_op(t, syntax))
        .collect::<Res<_>>()?;
    let s = |n: &str| spelled(syntax, n);
    let key = |k: &str| match syntax {
        Syntax::Edn => format!(":{k}"),
        Syntax::Json => k.to_string(),
    };
    let err =
        |op: &Op, k: &str, message: String| RecordedError::at(op.line, Some(&key(k)), message);
    // Clients in order of first appearance; then the lock service, and storage if written.
    let mut procs: Vec<i128> = Vec::new();
    for op in &ops {
        if let Who::Process(p) = op.who {
            if !procs.contains(&p) {
                if procs.len() == MAX_CLIENTS {
                    return Err(err(
                        op,
                        "process",
                        format!(
                            "a {}th process: the model has at most {MAX_CLIENTS} clients",
                            MAX_CLIENTS + 1
                        ),
                    ));
                }
                procs.push(p);
            }
        }
    }
    if procs.is_empty() {
        return Err(RecordedError::at(
            ops.first().map_or(1, |o| o.line),
            None,
            "no client operations: a lock history needs at least one process",
        ));
    }
    let writes = ops.iter().any(|o| o.f == Ok(F::Write));
    let mut nodes: Vec<NodeSpec> = procs
        .iter()
        .map(|p| NodeSpec {
            name: format!("process {p}"),
            role: Role::Client,
        })
        .collect();
    let lock = nodes.len();
    nodes.push(NodeSpec {
        name: "lock service".into(),
        role: Role::LockService,
    });
    let storage = nodes.len();
    if writes {
        nodes.push(NodeSpec {
            name: "storage".into(),
            role: Role::Storage,
        });
    }
    // What the lock protects, from the writes that name a resource (`[token value key
    // resource]`): each resource's keys, in the order the history first names them.
    let mut resources: Vec<(String, Vec<String>)> = Vec::new();
    let mut lines: Vec<Line> = Vec::with_capacity(ops.len() * 2);
    // Per client: its pending invoke (operation, time, line, a write's key/value/token).
    let mut pending: Vec<Option<Pending>> = vec![None; procs.len()];
    // The links cut (a node and its peer) and the nodes paused, so a repeat or a
    // nemesis pair's completion adds nothing.
    let mut cut: Vec<(usize, usize)> = Vec::new();
    let mut paused: Vec<usize> = Vec::new();
    let storage_node = writes.then_some(storage);
    let mut left_out: Vec<String> = Vec::new();
    let mut left_count = 0usize;
    // A process's operations are its job (the model gives every client one): begun at its
    // first invoke, finished at its last completion when that was a definite `:ok` or
    // `:fail`; after an `:info` or an invoke left open, it was still under way.
    let mut last_done: Vec<Option<(i64, u32, bool)>> = vec![None; procs.len()];
    for op in &ops {
        let push = |lines: &mut Vec<Line>, t_us: i64, node: usize, what: What| {
            lines.push(Line {
                line: op.line,
                t_us,
                node,
                local_us: t_us,
                what,
            })
        };
        let c = match op.who {
            Who::Nemesis => {
                let name = op.f.as_ref().err().cloned().unwrap_or_default();
                let named = named_nodes(&op.value, &procs, lock, storage_node);
                if named == Some(None) && fault(&name).is_some() {
                    // A fault on a node the history does not have: left out, and said.
                    left_count += 1;
                    let shown = format!("{} (on a node with no operations)", s(&name));
                    if !left_out.contains(&shown) && left_out.len() < 8 {
                        left_out.push(shown);
                    }
                    continue;
                }
                let named = named.flatten();
                match fault(&name) {
                    Some(Fault::Cut) => {
                        let pairs = match named.as_deref() {
                            Some(&[a, b]) if a != b => vec![(a, b)],
                            _ => (0..procs.len()).map(|c| (lock, c)).collect(),
                        };
                        for (a, b) in pairs {
                            if !cut.iter().any(|&l| same_link(l, (a, b))) {
                                cut.push((a, b));
                                push(&mut lines, op.t_us, a, What::LinkCut { peer: b });
                            }
                        }
                    }
                    Some(Fault::Heal) => {
                        let heals: Vec<(usize, usize)> = match named.as_deref() {
                            Some(&[a, b]) if a != b => cut
                                .iter()
                                .copied()
                                .filter(|&l| same_link(l, (a, b)))
                                .collect(),
                            _ => cut.clone(),
                        };
                        for (a, b) in heals {
                            cut.retain(|&p| p != (a, b));
                            push(&mut lines, op.t_us, a, What::LinkHealed { peer: b });
                        }
                    }
                    Some(Fault::Pause) => {
                        for n in named.unwrap_or_else(|| vec![lock]) {
                            if !paused.contains(&n) {
                                paused.push(n);
                                push(&mut lines, op.t_us, n, What::PauseBegan);
                            }
                        }
                    }
                    Some(Fault::Resume) => {
                        let resumes = match named {
                            Some(ns) => ns.into_iter().filter(|n| paused.contains(n)).collect(),
                            None => paused.clone(),
                        };
                        for n in resumes {
                            paused.retain(|&p| p != n);
                            push(&mut lines, op.t_us, n, What::PauseEnded);
                        }
                    }
                    None => {
                        left_count += 1;
                        let shown = s(&name);
                        if !left_out.contains(&shown) && left_out.len() < 8 {
                            left_out.push(shown);
                        }
                    }
                }
                continue;
            }
            Who::Process(p) => procs.iter().position(|x| *x == p).unwrap_or(0),
        };
        let Ok(f) = op.f else { continue };
        match op.kind {
            Kind::Invoke => {
                if last_done[c].is_none() && pending[c].is_none() {
                    push(&mut lines, op.t_us, c, What::JobStarted);
                }
                if let Some((_, _, at, _)) = pending[c] {
                    return Err(err(
                        op,
                        "type",
                        format!(
                            "process {} invokes again before its operation on line {at} completed",
                            procs[c]
                        ),
                    ));
                }
                let write = match f {
                    F::Write => {
                        let w = write_value(&op.value).map_err(|m| err(op, "value", m))?;
                        if let Some(r) = &w.resource {
                            let of = resources.iter().position(|(_, ks)| ks.contains(&w.key));
                            match of {
                                Some(i) if resources[i].0 != *r => {
                                    return Err(err(
                                        op,
                                        "value",
                                        format!(
                                            "key {} is part of resource {}, not {r}",
                                            w.key, resources[i].0
                                        ),
                                    ))
                                }
                                Some(_) => {}
                                None => match resources.iter_mut().find(|(n, _)| n == r) {
                                    Some((_, ks)) => ks.push(w.key.clone()),
                                    None => resources.push((r.clone(), vec![w.key.clone()])),
                                },
                            }
                        }
                        push(
                            &mut lines,
                            op.t_us,
                            c,
                            What::WriteSent {
                                key: w.key.clone(),
                                value: w.value.clone(),
                                token: w.token,
                            },
                        );
                        Some(w)
                    }
                    F::Acquire => {
                        push(&mut lines, op.t_us, c, What::AcquireSent);
                        None
                    }
                    F::Release => {
                        push(&mut lines, op.t_us, c, What::ReleaseSent);
                        None
                    }
                };
                pending[c] = Some((f, op.t_us, op.line, write));
            }
            done => {
                let Some((pf, invoked, _, write)) = pending[c].take() else {
                    return Err(err(
                        op,
                        "type",
                        format!(
                            "{} with no {} of process {} before it",
                            s(kind_word(done)),
                            s("invoke"),
                            procs[c]
                        ),
                    ));
                };
                last_done[c] = Some((op.t_us, op.line, done != Kind::Info));
                if pf != f {
                    return Err(err(
                        op,
                        "f",
                        format!(
                            "completes process {}'s {} with {}",
                            procs[c],
                            s(f_word(pf)),
                            s(f_word(f))
                        ),
                    ));
                }
                match (f, done) {
                    (F::Acquire, Kind::Ok) => {
                        let token = match &op.value {
                            Edn::Int(t) if (1..=i128::from(MAX_TOKEN)).contains(t) => {
                                Some(*t as u64)
                            }
                            Edn::Int(t) => {
                                return Err(err(
                                    op,
                                    "value",
                                    format!("token {t} is out of range (1 … 2^53)"),
                                ))
                            }
                            _ => None,
                        };
                        push(
                            &mut lines,
                            op.t_us,
                            c,
                            What::Granted {
                                token,
                                ttl_ms: MAX_TTL_MS,
                            },
                        );
                    }
                    (F::Acquire, Kind::Fail) => push(&mut lines, op.t_us, c, What::AcquireFailed),
                    (F::Acquire, _) => push(&mut lines, invoked, c, What::AcquireIndeterminate),
                    (F::Release, Kind::Ok) => push(&mut lines, op.t_us, c, What::Released),
                    (F::Release, Kind::Fail) => push(&mut lines, op.t_us, c, What::ReleaseRefused),
                    (F::Write, Kind::Ok) => {
                        let w = write.unwrap_or_default();
                        push(
                            &mut lines,
                            op.t_us,
                            storage,
                            What::WriteAccepted {
                                client: c,
                                key: w.key,
                                value: w.value,
                                token: w.token,
                            },
                        );
                    }
                    _ => {}
                }
            }
        }
    }
    for (c, done) in last_done.iter().enumerate() {
        if let (Some((t_us, line, true)), None) = (done, &pending[c]) {
            lines.push(Line {
                line: *line,
                t_us: *t_us,
                node: c,
                local_us: *t_us,
                what: What::JobFinished,
            });
        }
    }
    // One true clock: order by it, equal times in history order.
    lines.sort_by_key(|l| l.t_us);
    let notes = (left_count > 0).then(|| {
        format!(
            "{left_count} nemesis operation(s) with no fault in the model left out: {}",
            left_out.join(", ")
        )
    });
    Ok(Recording {
        header: Header {
            scenario: None,
            service: None,
            source: Some(
                match syntax {
                    Syntax::Edn => "jepsen (EDN)",
                    Syntax::Json => "jepsen (JSON)",
                }
                .into(),
            ),
            notes,
            nodes,
            resources,
        },
        lines,
    })
}

/// A write's `:value`: `[token value]` or `[token value key]` (key `x` when absent).
#[derive(Clone, Debug, Default)]
struct Write {
    key: String,
    value: String,
    token: Option<u64>,
    /// The resource the key is part of, when the write names one.
    resource: Option<String>,
}

fn write_value(v: &Edn) -> Result<Write, String> {
    let (Edn::Vec(items) | Edn::List(items)) = v else {
        return Err(format!(
            "a write's value is [token value], [token value key] or [token value key resource], got {}",
            v.shown()
        ));
    };
    if !(2..=4).contains(&items.len()) {
        return Err(format!(
            "a write's value is [token value], [token value key] or [token value key resource], got {} elements",
            items.len()
        ));
    }
    let token = match &items[0] {
        Edn::Nil => None,
        Edn::Int(t) if (1..=i128::from(MAX_TOKEN)).contains(t) => Some(*t as u64),
        other => {
            return Err(format!(
                "a write's token is nil or a whole number 1 … 2^53, got {}",
                other.shown()
            ))
        }
    };
    let text = |e: &Edn| -> Result<String, String> {
        match e {
            Edn::Str(s) | Edn::Sym(s) | Edn::Num(s) => Ok(s.clone()),
            Edn::Kw(k) => Ok(format!(":{k}")),
            Edn::Int(n) => Ok(n.to_string()),
            other => Err(format!(
                "a write's value and key are strings, names or numbers, got {}",
                other.shown()
            )),
        }
    };
    Ok(Write {
        value: text(&items[1])?,
        key: items.get(2).map_or(Ok("x".to_string()), text)?,
        token,
        resource: items.get(3).map(text).transpose()?,
    })
}
