//! A run written as a Jepsen lock history (`leaseline run … --format jepsen`): each
//! acquire and release as an invocation and its completion, faults as the nemesis's
//! operations, the token in `:value` where the lock gives one.

use super::*;

pub(super) fn kind_word(k: Kind) -> &'static str {
    match k {
        Kind::Invoke => "invoke",
        Kind::Ok => "ok",
        Kind::Fail => "fail",
        Kind::Info => "info",
    }
}

pub(super) fn f_word(f: F) -> &'static str {
    match f {
        F::Acquire => "acquire",
        F::Release => "release",
        F::Write => "write",
    }
}

/// Writes the model's `trace` as a Jepsen lock history: EDN, one map a line, `:time` in
/// nanoseconds (the model's ms × 10^6), `:index` counting from 0, client `cN` as process
/// N − 1. What it writes (`docs/jepsen.md`):
///
/// - an acquire request → `:invoke :acquire`; the client's belief starting → `:ok
///   :acquire` with the token as `:value` (nil for none); the lock service saying the lock
///   is held → `:fail :acquire :error :already-held`; a request still unanswered when the
///   client asks again, gives up, or the run ends → `:fail :acquire :error :no-answer` (the
///   model knows it was never granted, so it is not an `:info`);
/// - the belief ending by a release → `:invoke`/`:ok :release`; ending any other way (its
///   deadline passed, a refused renewal, a fence) → the same pair with `:value :expired`,
///   the holder's loss of the lock;
/// - a write → `:invoke :write :value [token value key]`, and storage's answer `:ok` or
///   `:fail :error :fenced`; a write its client stops waiting for (it retries or moves
///   on) → `:info :write`, and storage's later answer to it is not written;
/// - faults as nemesis `:info` operations: `:pause`/`:resume` (a pause, `:value` the
///   node), `:kill`/`:restart` (a crash), `:start-partition`/`:stop-partition` (`:value`
///   the two nodes); other faults (clock jumps, held messages, failing renewals) as their
///   own names, which the reader leaves out.
pub fn export(trace: &Trace) -> String {
    let mut out = String::new();
    let mut index = 0u64;
    let mut emit = |t: i64, fields: String| {
        out.push_str(&format!(
            "{{{fields}, :time {}, :index {index}}}\n",
            i128::from(t) * 1_000_000
        ));
        index += 1;
    };
    let op = |kind: &str, f: &str, p: usize| format!(":type :{kind}, :f :{f}, :process {p}");
    let nemesis =
        |f: &str, value: String| format!(":type :info, :f :{f}, :process :nemesis, :value {value}");
    // A partition's two sides, as Jepsen's nemesis names them.
    let pair =
        |a: NodeId, b: NodeId| format!("[{} {}]", edn_str(&a.to_string()), edn_str(&b.to_string()));
    let slot = |c: NodeId| match c {
        NodeId::Client(i) => Some(usize::from(i)),
        _ => None,
    };
    let mut asking = vec![false; usize::from(u8::MAX) + 1];
    // The coordinator's answers by message id: which are "held" (`Busy`).
    let mut busy: Vec<u32> = Vec::new();
    // Per client: its write not yet answered (the write's own `:value`).
    let mut writing: Vec<Option<String>> = vec![None; asking.len()];
    // A process does one thing at a time: before it invokes, an acquire it stopped
    // waiting for ends as not granted (a client that fails open writes anyway), and a
    // write it stopped waiting for (it retries, or moves on) as indeterminate.
    let settle = |c: usize,
                  t: i64,
                  asking: &mut Vec<bool>,
                  writing: &mut Vec<Option<String>>,
                  emit: &mut dyn FnMut(i64, String)| {
        if std::mem::take(&mut asking[c]) {
            emit(
                t,
                format!("{}, :error :no-answer", op("fail", "acquire", c)),
            );
        }
        if let Some(v) = writing[c].take() {
            emit(
                t,
                format!("{}, :value {v}, :error :no-answer", op("info", "write", c)),
            );
        }
    };
    let resource_of: Vec<(&Text, &Text)> = trace
        .entries
        .iter()
        .filter_map(|e| match &e.event {
            Event::ResourceDeclared { resource, keys, .. } => {
                Some(keys.iter().map(move |k| (k, resource)))
            }
            _ => None,
        })
        .flatten()
        .collect();
    for e in &trace.entries {
        let t = e.t.0;
        let me = slot(e.node);
        match (&e.event, me) {
            (Event::Sent { msg, .. }, Some(c)) => match msg {
                Msg::Acquire { .. } if !asking[c] => {
                    settle(c, t, &mut asking, &mut writing, &mut emit);
                    asking[c] = true;
                    emit(t, op("invoke", "acquire", c));
                }
                // A conditional write is a write too: only its refusal reads differently.
                Msg::Write {
                    key, value, token, ..
                }
                | Msg::WriteIf {
                    key, value, token, ..
                } => {
                    settle(c, t, &mut asking, &mut writing, &mut emit);
                    // A key of a declared resource names it, so a reader judges the write
                    // against the resource.
                    let part = resource_of
                        .iter()
                        .find(|(k, _)| *k == key)
                        .map_or(String::new(), |(_, r)| format!(" {}", edn_str(r)));
                    let v = format!(
                        "[{} {} {}{part}]",
                        token.map_or("nil".into(), |t| t.to_string()),
                        edn_str(value),
                        edn_str(key)
                    );
                    emit(t, format!("{}, :value {v}", op("invoke", "write", c)));
                    writing[c] = Some(v);
                }
                _ => {}
            },
            (
                Event::Sent {
                    msg: Msg::Busy { .. },
                    id,
                    ..
                },
                None,
            ) => busy.push(*id),
            (Event::Received { id, .. }, Some(c)) if busy.contains(id) && asking[c] => {
                asking[c] = false;
                emit(
                    t,
                    format!("{}, :error :already-held", op("fail", "acquire", c)),
                );
            }
            (Event::BeliefStarted { token, .. }, Some(c)) => {
                if !asking[c] {
                    settle(c, t, &mut asking, &mut writing, &mut emit);
                    emit(t, op("invoke", "acquire", c));
                }
                asking[c] = false;
                let v = if *token == 0 {
                    "nil".to_string()
                } else {
                    token.to_string()
                };
                emit(t, format!("{}, :value {v}", op("ok", "acquire", c)));
            }
            (Event::BeliefEnded { how, .. }, Some(c)) => {
                settle(c, t, &mut asking, &mut writing, &mut emit);
                let tail = match how {
                    LossHow::Released => String::new(),
                    _ => ", :value :expired".into(),
                };
                emit(t, format!("{}{tail}", op("invoke", "release", c)));
                emit(t, format!("{}{tail}", op("ok", "release", c)));
            }
            (Event::JobAborted { .. } | Event::JobFinished, Some(c)) if asking[c] => {
                asking[c] = false;
                emit(
                    t,
                    format!("{}, :error :no-answer", op("fail", "acquire", c)),
                );
            }
            (Event::WriteAccepted { client, .. } | Event::WriteRejected { client, .. }, _) => {
                let Some(c) = slot(*client) else { continue };
                let ok = matches!(e.event, Event::WriteAccepted { .. });
                // An answer to a write its client stopped waiting for is not in the
                // history: Jepsen's process moved on at its `:info`.
                let Some(v) = writing[c].take() else { continue };
                let kind = if ok { "ok" } else { "fail" };
                let err = match &e.event {
                    Event::WriteAccepted { .. } => "",
                    Event::WriteRejected {
                        reason: RejectReason::VersionChanged { .. },
                        ..
                    } => ", :error :version-changed",
                    _ => ", :error :fenced",
                };
                emit(t, format!("{}, :value {v}{err}", op(kind, "write", c)));
            }
            (Event::Paused { .. }, _) => emit(t, nemesis("pause", edn_str(&e.node.to_string()))),
            (Event::Resumed, _) => emit(t, nemesis("resume", edn_str(&e.node.to_string()))),
            (Event::Crashed { .. }, _) => emit(t, nemesis("kill", edn_str(&e.node.to_string()))),
            (Event::Restarted { .. }, _) => {
                emit(t, nemesis("restart", edn_str(&e.node.to_string())))
            }
            (Event::LinkCut { peer }, _) => {
                emit(t, nemesis("start-partition", pair(e.node, *peer)))
            }
            (Event::LinkHealed { peer }, _) => {
                emit(t, nemesis("stop-partition", pair(e.node, *peer)))
            }
            (Event::ClockJumped { by_ms }, _) => emit(
                t,
                nemesis(
                    "clock-jump",
                    format!("[{} {by_ms}]", edn_str(&e.node.to_string())),
                ),
            ),
            _ => {}
        }
    }
    let end = trace.end.0;
    for (c, a) in asking.iter().enumerate() {
        if *a {
            emit(
                end,
                format!("{}, :error :no-answer", op("fail", "acquire", c)),
            );
        }
    }
    out
}

/// A string as EDN writes it.
pub(super) fn edn_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\t' => o.push_str("\\t"),
            '\r' => o.push_str("\\r"),
            c if c.is_control() => o.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}
