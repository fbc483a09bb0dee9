//! The reader: bytes → a checked [`Recording`], or one refusal naming its line and field.
//!
//! Line by line with the crate's own small JSON reader (`vocab::json`, whole numbers only,
//! bounded nesting), every field read by hand with its name in hand, so a refusal can say
//! "line 7, field `token`: expected a whole number, got \"abc\"". The bounds of
//! `docs/trace-format.md` are checked before any work proportional to them is done.
//! After every line is read, the events are ordered by true time (a stable sort: equal
//! times keep file order) and one pass checks what depends on order across lines — each
//! node's times never go back (checked in file order, per node), and `renewed` only while
//! the client holds the lock.

use super::{
    Header, Line, NodeSpec, RecordedError, Recording, Role, What, MAX_BYTES, MAX_LINE, MAX_LINES,
    MAX_LOCAL_US, MAX_NAME, MAX_TEXT, MAX_TOKEN, MAX_TTL_MS, MAX_T_US, VERSION,
};
use crate::model::msg::RejectReason;
use crate::model::trace::AbortWhy;
use crate::vocab::json::{self, Json};

type Res<T> = Result<T, RecordedError>;

/// Reads a file's bytes: bounds its size, requires UTF-8, then [`parse`]s it.
pub fn read(bytes: &[u8]) -> Res<Recording> {
    if bytes.len() > MAX_BYTES {
        return Err(RecordedError::at(
            0,
            None,
            format!("larger than {MAX_BYTES} bytes (8 MiB)"),
        ));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => parse(text),
        Err(e) => {
            let upto = &bytes[..e.valid_up_to()];
            let line = upto.iter().filter(|&&b| b == b'\n').count() + 1;
            Err(RecordedError::at(line as u32, None, "not UTF-8 text"))
        }
    }
}

/// Parses the text of a recorded trace.
pub fn parse(text: &str) -> Res<Recording> {
    if text.len() > MAX_BYTES {
        return Err(RecordedError::at(
            0,
            None,
            format!("larger than {MAX_BYTES} bytes (8 MiB)"),
        ));
    }
    let body = text.strip_suffix('\n').unwrap_or(text);
    if body.trim().is_empty() {
        return Err(RecordedError::at(
            1,
            None,
            "empty file: the first line must be the header",
        ));
    }
    let mut header: Option<Header> = None;
    let mut lines: Vec<Line> = Vec::new();
    // Per node: its latest true time so far, and the line that said it.
    let mut last: Vec<Option<(i64, u32)>> = Vec::new();
    for (i, raw) in body.split('\n').enumerate() {
        let n = i + 1;
        if n > MAX_LINES {
            return Err(RecordedError::at(
                n as u32,
                None,
                format!("more than {MAX_LINES} lines"),
            ));
        }
        let n = n as u32;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        if raw.len() > MAX_LINE {
            return Err(RecordedError::at(
                n,
                None,
                format!("longer than {MAX_LINE} bytes"),
            ));
        }
        if raw.trim().is_empty() {
            return Err(RecordedError::at(n, None, "empty line"));
        }
        let v = json::parse(raw).map_err(|e| bad_json(n, raw, &e))?;
        let Json::Obj(kv) = &v else {
            return Err(RecordedError::at(
                n,
                None,
                format!("expected an object {{…}}, got {}", v.kind()),
            ));
        };
        let o = Obj { line: n, kv };
        match &header {
            None => {
                let h = read_header(&o)?;
                last = vec![None; h.nodes.len()];
                header = Some(h);
            }
            Some(h) => {
                let l = read_event(&o, h)?;
                if let Some((t, at)) = last[l.node] {
                    if l.t_us < t {
                        return Err(RecordedError::at(
                            n,
                            Some("t_us"),
                            format!(
                                "{} is earlier than this node's previous event (line {at}, {t})",
                                l.t_us
                            ),
                        ));
                    }
                }
                last[l.node] = Some((l.t_us, n));
                lines.push(l);
            }
        }
    }
    let header = header.unwrap_or_default();
    // One true clock for the whole file: order by it, equal times in file order.
    lines.sort_by_key(|l| l.t_us);
    order_checks(&header, &lines)?;
    Ok(Recording { header, lines })
}

/// The JSON reader's refusal of line `n`. A number that is not a whole one, or too
/// large, names the field it is the value of; any other error is the line's: "not valid
/// JSON: … at column 31" (the reader's "line 1" is this line; its note about
/// milliseconds is not this format's).
fn bad_json(n: u32, raw: &str, e: &str) -> RecordedError {
    let column = e
        .rsplit_once(", column ")
        .and_then(|(_, c)| c.parse::<usize>().ok());
    let number = if e.starts_with("expected a whole number") {
        Some("expected a whole number, got a fraction or an exponent")
    } else if e.starts_with("number too large") {
        Some("number too large")
    } else {
        None
    };
    if let (Some(what), Some(key)) = (number, column.and_then(|c| key_before(raw, c))) {
        return RecordedError::at(n, Some(&key), what);
    }
    let e = e.replace(" (times are integer milliseconds)", "");
    let e = e.replace(" at line 1, column ", " at column ");
    RecordedError::at(n, None, format!("not valid JSON: {e}"))
}

/// The key whose value is the number ending at (1-based) byte column `column`: back over
/// the number, then `:` and a quoted key.
fn key_before(raw: &str, column: usize) -> Option<String> {
    let b = raw.as_bytes();
    let mut i = column.checked_sub(1)?.min(b.len());
    let back = |i: &mut usize, ok: &dyn Fn(u8) -> bool| {
        while *i > 0 && ok(b[*i - 1]) {
            *i -= 1;
        }
    };
    back(&mut i, &|c| c.is_ascii_digit() || c == b'-');
    back(&mut i, &|c| c == b' ' || c == b'\t');
    if i == 0 || b[i - 1] != b':' {
        return None;
    }
    i -= 1;
    back(&mut i, &|c| c == b' ' || c == b'\t');
    if i == 0 || b[i - 1] != b'"' {
        return None;
    }
    let end = i - 1;
    let start = b[..end].iter().rposition(|&c| c == b'"')? + 1;
    raw.get(start..end).map(str::to_string)
}

/// Checks that need the events in time order: `renewed` only while the client holds the
/// lock (from its `granted` to its `expiry_observed`, `released` or `release_refused`).
fn order_checks(h: &Header, lines: &[Line]) -> Res<()> {
    let mut holds = vec![false; h.nodes.len()];
    for l in lines {
        match l.what {
            What::Granted { .. } | What::AcquireIndeterminate => holds[l.node] = true,
            What::ExpiryObserved | What::Released | What::ReleaseRefused => {
                holds[l.node] = false
            }
            What::Renewed { .. } if !holds[l.node] => {
                return Err(RecordedError::at(
                    l.line,
                    Some("event"),
                    format!(
                        "`renewed`, but \"{}\" does not hold the lock at {} µs (no `granted` before it, or its lease already ended)",
                        h.nodes[l.node].name, l.t_us
                    ),
                ))
            }
            _ => {}
        }
    }
    Ok(())
}

/// An object on line `line`, read field by field.
struct Obj<'a> {
    line: u32,
    kv: &'a [(String, Json)],
}

impl Obj<'_> {
    fn err(&self, field: &str, message: impl Into<String>) -> RecordedError {
        RecordedError::at(self.line, Some(field), message)
    }

    fn get(&self, key: &str) -> Option<&Json> {
        self.kv
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .filter(|v| **v != Json::Null)
    }

    /// Refuses any field not in `known`, naming the first.
    fn only(&self, known: &[&str], what: &str) -> Res<()> {
        match self.kv.iter().find(|(k, _)| !known.contains(&k.as_str())) {
            Some((k, _)) => Err(self.err(&spell(k), format!("unknown field for {what}"))),
            None => Ok(()),
        }
    }

    fn int(&self, key: &str, lo: i128, hi: i128) -> Res<Option<i128>> {
        match self.get(key) {
            None => Ok(None),
            Some(Json::Int(v)) if (lo..=hi).contains(v) => Ok(Some(*v)),
            Some(Json::Int(v)) => Err(self.err(key, format!("{v} is out of range ({lo} … {hi})"))),
            Some(v) => Err(self.err(key, format!("expected a whole number, got {}", shown(v)))),
        }
    }

    fn need_int(&self, key: &str, lo: i128, hi: i128) -> Res<i128> {
        self.int(key, lo, hi)?
            .ok_or_else(|| self.err(key, "missing"))
    }

    fn text(&self, key: &str, max: usize) -> Res<Option<&str>> {
        match self.get(key) {
            None => Ok(None),
            Some(Json::Str(s)) if s.len() > max => {
                Err(self.err(key, format!("longer than {max} bytes")))
            }
            Some(Json::Str(s)) => Ok(Some(s.as_str())),
            Some(v) => Err(self.err(key, format!("expected a string, got {}", shown(v)))),
        }
    }

    fn need_text(&self, key: &str, max: usize) -> Res<&str> {
        self.text(key, max)?.ok_or_else(|| self.err(key, "missing"))
    }

    fn token(&self, key: &str) -> Res<Option<u64>> {
        Ok(self
            .int(key, 1, i128::from(MAX_TOKEN))?
            .and_then(|t| u64::try_from(t).ok()))
    }

    fn need_token(&self, key: &str) -> Res<u64> {
        self.token(key)?.ok_or_else(|| self.err(key, "missing"))
    }
}

/// A key as a refusal names it: as written, the empty key as `""`, and a control
/// character as `\u{…}` (a refusal stays one line).
pub fn spell(key: &str) -> String {
    if key.is_empty() {
        return "\"\"".into();
    }
    let mut s = String::with_capacity(key.len());
    for c in key.chars() {
        if c.is_control() {
            s += &format!("\\u{{{:x}}}", u32::from(c));
        } else {
            s.push(c);
        }
    }
    s
}

/// A value as a refusal shows it: a string quoted (cut to 40 bytes), a number as
/// written, anything else by its kind.
fn shown(v: &Json) -> String {
    match v {
        Json::Str(s) => {
            let mut end = s.len().min(40);
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            let cut = if end < s.len() { "…" } else { "" };
            format!("\"{}{cut}\"", &s[..end])
        }
        Json::Int(n) => n.to_string(),
        other => other.kind().to_string(),
    }
}

fn read_header(o: &Obj) -> Res<Header> {
    let version = match o.get("leaseline_trace") {
        None if o.get("event").is_some() => {
            return Err(o.err(
                "leaseline_trace",
                "missing: the first line must be the header, not an event",
            ))
        }
        None => return Err(o.err("leaseline_trace", "missing")),
        Some(Json::Int(v)) => *v,
        Some(v) => {
            return Err(o.err(
                "leaseline_trace",
                format!("expected a whole number, got {}", shown(v)),
            ))
        }
    };
    if version != VERSION {
        return Err(o.err(
            "leaseline_trace",
            format!("version {version} is not supported (this reader reads version {VERSION})"),
        ));
    }
    o.only(&HEADER_FIELDS, "the header")?;
    let mut h = Header {
        scenario: o.text("scenario", MAX_TEXT)?.map(str::to_string),
        service: o.text("service", MAX_TEXT)?.map(str::to_string),
        source: o.text("source", MAX_TEXT)?.map(str::to_string),
        notes: o.text("notes", MAX_TEXT)?.map(str::to_string),
        nodes: Vec::new(),
        resources: Vec::new(),
    };
    h.resources = resources(o)?;
    let nodes = match o.get("nodes") {
        None => return Err(o.err("nodes", "missing")),
        Some(Json::Arr(a)) => a,
        Some(v) => return Err(o.err("nodes", format!("expected an array, got {}", shown(v)))),
    };
    let limit = super::MAX_CLIENTS + super::MAX_LOCK_SERVICES + super::MAX_STORAGE;
    if nodes.len() > limit {
        return Err(o.err("nodes", format!("more than {limit} nodes")));
    }
    for (i, n) in nodes.iter().enumerate() {
        let at = |f: &str| format!("nodes[{i}]{f}");
        let Json::Obj(kv) = n else {
            return Err(o.err(&at(""), format!("expected an object, got {}", shown(n))));
        };
        let field = |k: &str, v: Option<&Json>| -> Res<String> {
            match v {
                None | Some(Json::Null) => Err(o.err(&at(k), "missing")),
                Some(Json::Str(s)) => Ok(s.clone()),
                Some(v) => Err(o.err(&at(k), format!("expected a string, got {}", shown(v)))),
            }
        };
        let get = |k: &str| kv.iter().find(|(x, _)| x == k).map(|(_, v)| v);
        if let Some((k, _)) = kv.iter().find(|(k, _)| k != "name" && k != "role") {
            return Err(o.err(&at(&format!(".{}", spell(k))), "unknown field for a node"));
        }
        let name = field(".name", get("name"))?;
        if name.is_empty() || name.len() > MAX_NAME {
            return Err(o.err(&at(".name"), format!("must be 1 … {MAX_NAME} bytes")));
        }
        if h.nodes.iter().any(|m| m.name == name) {
            return Err(o.err(&at(".name"), format!("\"{name}\" is named twice")));
        }
        let role = field(".role", get("role"))?;
        let role = Role::parse(&role).ok_or_else(|| {
            o.err(
                &at(".role"),
                format!(
                    "{} is not \"client\", \"lock service\" or \"storage\"",
                    shown(&Json::Str(role.clone()))
                ),
            )
        })?;
        h.nodes.push(NodeSpec { name, role });
    }
    for (role, lo, hi) in [
        (Role::Client, 1, super::MAX_CLIENTS),
        (Role::LockService, 1, super::MAX_LOCK_SERVICES),
        (Role::Storage, 0, super::MAX_STORAGE),
    ] {
        let n = h.nodes.iter().filter(|x| x.role == role).count();
        if n < lo || n > hi {
            return Err(o.err(
                "nodes",
                format!(
                    "{n} nodes with role \"{}\" (a trace has {lo} … {hi})",
                    role.word()
                ),
            ));
        }
    }
    if !h.resources.is_empty() && !h.nodes.iter().any(|x| x.role == Role::Storage) {
        return Err(o.err(
            "resources",
            "resources are kept by storage: the header names no storage node",
        ));
    }
    Ok(h)
}

/// The header's fields.
pub const HEADER_FIELDS: [&str; 7] = [
    "leaseline_trace",
    "scenario",
    "service",
    "source",
    "notes",
    "nodes",
    "resources",
];

/// Most resources a header declares, and keys per resource.
const MAX_RESOURCES: usize = 8;
const MAX_RESOURCE_KEYS: usize = 16;

/// The header's optional `resources`: `[{"name": …, "keys": [ … ]}]`, each name once and
/// each key in one resource at most.
fn resources(o: &Obj) -> Res<Vec<(String, Vec<String>)>> {
    let list = match o.get("resources") {
        None => return Ok(Vec::new()),
        Some(Json::Arr(a)) if a.len() <= MAX_RESOURCES => a,
        Some(Json::Arr(_)) => {
            return Err(o.err("resources", format!("more than {MAX_RESOURCES} resources")))
        }
        Some(v) => return Err(o.err("resources", format!("expected an array, got {}", shown(v)))),
    };
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for (i, r) in list.iter().enumerate() {
        let at = |f: &str| format!("resources[{i}]{f}");
        let Json::Obj(kv) = r else {
            return Err(o.err(&at(""), format!("expected an object, got {}", shown(r))));
        };
        if let Some((k, _)) = kv.iter().find(|(k, _)| k != "name" && k != "keys") {
            return Err(o.err(
                &at(&format!(".{}", spell(k))),
                "unknown field for a resource",
            ));
        }
        let get = |k: &str| kv.iter().find(|(x, _)| x == k).map(|(_, v)| v);
        let name = match get("name") {
            Some(Json::Str(s)) if !s.is_empty() && s.len() <= MAX_TEXT => s.clone(),
            Some(Json::Str(_)) => {
                return Err(o.err(&at(".name"), format!("must be 1 … {MAX_TEXT} bytes")))
            }
            None | Some(Json::Null) => return Err(o.err(&at(".name"), "missing")),
            Some(v) => {
                return Err(o.err(&at(".name"), format!("expected a string, got {}", shown(v))))
            }
        };
        if out.iter().any(|(n, _)| *n == name) {
            return Err(o.err(&at(".name"), format!("\"{name}\" is named twice")));
        }
        let keys = match get("keys") {
            Some(Json::Arr(a)) if !a.is_empty() && a.len() <= MAX_RESOURCE_KEYS => a,
            Some(Json::Arr(_)) => {
                return Err(o.err(
                    &at(".keys"),
                    format!("must list 1 … {MAX_RESOURCE_KEYS} keys"),
                ))
            }
            None | Some(Json::Null) => return Err(o.err(&at(".keys"), "missing")),
            Some(v) => {
                return Err(o.err(&at(".keys"), format!("expected an array, got {}", shown(v))))
            }
        };
        let mut ks: Vec<String> = Vec::new();
        for (j, k) in keys.iter().enumerate() {
            let kp = at(&format!(".keys[{j}]"));
            let k = match k {
                Json::Str(s) if s.len() <= MAX_TEXT => s.clone(),
                Json::Str(_) => return Err(o.err(&kp, format!("longer than {MAX_TEXT} bytes"))),
                v => return Err(o.err(&kp, format!("expected a string, got {}", shown(v)))),
            };
            if ks.contains(&k) || out.iter().any(|(_, o)| o.contains(&k)) {
                return Err(o.err(&kp, format!("\"{k}\" is already a key of a resource")));
            }
            ks.push(k);
        }
        out.push((name, ks));
    }
    Ok(out)
}

/// The fields every event has.
pub const COMMON: [&str; 4] = ["t_us", "node", "local_us", "event"];

/// Each event: its name, the role that emits it (`None`: any), its own fields.
pub const EVENTS: &[(&str, Option<Role>, &[&str])] = &[
    ("job_started", Some(Role::Client), &[]),
    ("job_finished", Some(Role::Client), &[]),
    ("job_aborted", Some(Role::Client), &["reason", "refusals"]),
    ("acquire_sent", Some(Role::Client), &[]),
    ("granted", Some(Role::Client), &["token", "ttl_ms"]),
    ("acquire_failed", Some(Role::Client), &[]),
    ("acquire_indeterminate", Some(Role::Client), &[]),
    ("renew_sent", Some(Role::Client), &[]),
    ("renewed", Some(Role::Client), &["ttl_ms"]),
    ("renew_failed", Some(Role::Client), &[]),
    ("expiry_observed", Some(Role::Client), &[]),
    ("release_sent", Some(Role::Client), &[]),
    ("released", Some(Role::Client), &[]),
    ("release_refused", Some(Role::Client), &[]),
    (
        "lease_expired",
        Some(Role::LockService),
        &["client", "token"],
    ),
    ("pause_began", None, &[]),
    ("pause_ended", None, &[]),
    ("link_cut", None, &["peer"]),
    ("link_healed", None, &["peer"]),
    ("write_sent", Some(Role::Client), &["key", "value", "token"]),
    (
        "write_accepted",
        Some(Role::Storage),
        &["client", "key", "value", "token"],
    ),
    (
        "write_rejected",
        Some(Role::Storage),
        &[
            "client", "key", "value", "token", "reason", "mark", "current", "version",
        ],
    ),
    ("effect", None, &["client", "what"]),
    (
        "read_served",
        Some(Role::Storage),
        &["client", "key", "version"],
    ),
];

fn read_event(o: &Obj, h: &Header) -> Res<Line> {
    let name = o.need_text("event", MAX_TEXT)?;
    let Some(&(name, role, own)) = EVENTS.iter().find(|(n, _, _)| *n == name) else {
        return Err(o.err(
            "event",
            format!("unknown event {}", shown(&Json::Str(name.to_string()))),
        ));
    };
    let what = format!("`{name}`");
    if let Some((k, _)) =
        o.kv.iter()
            .find(|(k, _)| !COMMON.contains(&k.as_str()) && !own.contains(&k.as_str()))
    {
        return Err(o.err(&spell(k), format!("unknown field for {what}")));
    }
    let t_us = o.need_int("t_us", 0, i128::from(MAX_T_US))? as i64;
    let node = node_named(o, h, "node")?;
    let spec = &h.nodes[node];
    if let Some(r) = role {
        if spec.role != r {
            return Err(o.err(
                "node",
                format!(
                    "{what} is an event of a {} node; \"{}\" is a {}",
                    r.word(),
                    spec.name,
                    spec.role.word()
                ),
            ));
        }
    }
    let local_us = o
        .int(
            "local_us",
            -i128::from(MAX_LOCAL_US),
            i128::from(MAX_LOCAL_US),
        )?
        .map_or(t_us, |v| v as i64);
    let client = |o: &Obj| -> Res<usize> {
        let c = node_named(o, h, "client")?;
        match h.nodes[c].role {
            Role::Client => Ok(c),
            r => Err(o.err(
                "client",
                format!("\"{}\" is a {}, not a client", h.nodes[c].name, r.word()),
            )),
        }
    };
    let ttl =
        |o: &Obj| Ok::<i64, RecordedError>(o.need_int("ttl_ms", 0, i128::from(MAX_TTL_MS))? as i64);
    let what = match name {
        "job_started" => What::JobStarted,
        "job_finished" => What::JobFinished,
        "job_aborted" => What::JobAborted {
            why: match o.need_text("reason", MAX_TEXT)? {
                "lost_lease" => AbortWhy::LostLease,
                "lock_service_unreachable" => AbortWhy::CoordinatorUnreachable,
                "refused" => AbortWhy::Refused {
                    times: o.need_int("refusals", 1, i128::from(u32::MAX))? as u32,
                },
                "storage_unreachable" => AbortWhy::StorageUnreachable,
                r => return Err(o.err("reason", format!(
                    "{} is not \"lost_lease\", \"lock_service_unreachable\", \"refused\" or \"storage_unreachable\"",
                    shown(&Json::Str(r.to_string()))
                ))),
            },
        },
        "acquire_sent" => What::AcquireSent,
        "granted" => What::Granted {
            token: o.token("token")?,
            ttl_ms: ttl(o)?,
        },
        "acquire_failed" => What::AcquireFailed,
        "acquire_indeterminate" => What::AcquireIndeterminate,
        "renew_sent" => What::RenewSent,
        "renewed" => What::Renewed { ttl_ms: ttl(o)? },
        "renew_failed" => What::RenewFailed,
        "expiry_observed" => What::ExpiryObserved,
        "release_sent" => What::ReleaseSent,
        "released" => What::Released,
        "release_refused" => What::ReleaseRefused,
        "lease_expired" => What::LeaseExpired {
            client: client(o)?,
            token: o.token("token")?,
        },
        "pause_began" => What::PauseBegan,
        "pause_ended" => What::PauseEnded,
        "link_cut" | "link_healed" => {
            let peer = node_named(o, h, "peer")?;
            if peer == node {
                return Err(o.err("peer", "a node is never cut from itself"));
            }
            if name == "link_cut" {
                What::LinkCut { peer }
            } else {
                What::LinkHealed { peer }
            }
        }
        "write_sent" => What::WriteSent {
            key: o.need_text("key", MAX_TEXT)?.to_string(),
            value: o.need_text("value", MAX_TEXT)?.to_string(),
            token: o.token("token")?,
        },
        "write_accepted" => What::WriteAccepted {
            client: client(o)?,
            key: o.need_text("key", MAX_TEXT)?.to_string(),
            value: o.need_text("value", MAX_TEXT)?.to_string(),
            token: o.token("token")?,
        },
        "write_rejected" => {
            let client = client(o)?;
            let key = o.need_text("key", MAX_TEXT)?.to_string();
            let value = o.text("value", MAX_TEXT)?.map(str::to_string);
            let (token, reason) = rejection(o)?;
            What::WriteRejected {
                client,
                key,
                value,
                token,
                reason,
            }
        }
        "read_served" => What::ReadServed {
            client: client(o)?,
            key: o.need_text("key", MAX_TEXT)?.to_string(),
            version: o
                .need_int("version", 0, i128::from(MAX_TOKEN))?
                .try_into()
                .unwrap_or(0),
        },
        _ => {
            // "effect": on storage for a named client, or on a client for itself.
            let client = match spec.role {
                Role::Storage => client(o)?,
                Role::Client if o.get("client").is_some() => {
                    return Err(o.err(
                        "client",
                        "an `effect` on a client node is its own: leave `client` out",
                    ))
                }
                Role::Client => node,
                Role::LockService => {
                    return Err(o.err(
                        "node",
                        format!(
                            "`effect` is an event of a storage or client node; \"{}\" is a lock service",
                            spec.name
                        ),
                    ))
                }
            };
            What::Effect {
                client,
                what: o.need_text("what", MAX_TEXT)?.to_string(),
            }
        }
    };
    Ok(Line {
        line: o.line,
        t_us,
        node,
        local_us,
        what,
    })
}

/// `write_rejected`'s reason, with the token its fence judged.
fn rejection(o: &Obj) -> Res<(Option<u64>, RejectReason)> {
    let no = |k: &str, reason: &str| -> Res<()> {
        match o.get(k) {
            Some(_) => Err(o.err(k, format!("a \"{reason}\" refusal has no `{k}`"))),
            None => Ok(()),
        }
    };
    let reason = o.need_text("reason", MAX_TEXT)?;
    match reason {
        "stale_token" | "not_above" => {
            no("current", reason)?;
            no("version", reason)?;
            let token = o.need_token("token")?;
            let mark = o.need_token("mark")?;
            let strict = reason == "not_above";
            if token > mark || (!strict && token == mark) {
                return Err(o.err(
                    "mark",
                    format!(
                        "a \"{reason}\" refusal needs token {} mark; got token {token}, mark {mark}",
                        if strict { "≤" } else { "<" }
                    ),
                ));
            }
            let r = if strict {
                RejectReason::NotAbove { token, mark }
            } else {
                RejectReason::Lower { token, mark }
            };
            Ok((Some(token), r))
        }
        "revision_mismatch" => {
            no("mark", reason)?;
            no("version", reason)?;
            let token = o.need_token("token")?;
            let current = o.token("current")?;
            if current == Some(token) {
                return Err(o.err(
                    "current",
                    format!("token {token} is the current one: an exact fence accepts it"),
                ));
            }
            Ok((Some(token), RejectReason::NotCurrent { token, current }))
        }
        "no_token" => {
            for k in ["token", "mark", "current", "version"] {
                no(k, reason)?;
            }
            Ok((None, RejectReason::NoToken))
        }
        // A conditional write refused because the key moved on from the version its
        // writer read: no fence's refusal, and it may carry a token or not.
        "version_changed" => {
            no("mark", reason)?;
            let read = o.need_int("version", 0, i128::from(MAX_TOKEN))?;
            let now = o.need_int("current", 0, i128::from(MAX_TOKEN))?;
            if read == now {
                return Err(o.err(
                    "current",
                    format!("version {read} is the one read: a conditional write applies"),
                ));
            }
            let (read, now) = (read as u64, now as u64);
            Ok((o.token("token")?, RejectReason::VersionChanged { read, now }))
        }
        r => Err(o.err(
            "reason",
            format!(
                "{} is not \"stale_token\", \"not_above\", \"revision_mismatch\", \"no_token\" or \"version_changed\"",
                shown(&Json::Str(r.to_string()))
            ),
        )),
    }
}

/// The header node named by field `key`.
fn node_named(o: &Obj, h: &Header, key: &str) -> Res<usize> {
    let name = o.need_text(key, MAX_TEXT)?;
    h.nodes.iter().position(|n| n.name == name).ok_or_else(|| {
        o.err(
            key,
            format!(
                "no node named {} in the header",
                shown(&Json::Str(name.to_string()))
            ),
        )
    })
}
