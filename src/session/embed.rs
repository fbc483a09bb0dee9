//! The embed protocol: the messages a host page may post to an embedded Leaseline, and the
//! events Leaseline posts back. Documented for course authors in docs/embedding.md.
//!
//! Every message is a JSON object tagged `"leaseline": 1` (the protocol version) and a
//! `"type"`. Incoming messages are untrusted: each is parsed and validated here, field by
//! field, before anything happens; a bad one is answered with an `error` event naming the
//! field and changes nothing. Web-free, so the whole protocol is tested natively.

use crate::analysis::check::Verdict;
use crate::model::scenario::Scenario;
use crate::model::trace::Trace;
use crate::session::carries::PageCourse;
use crate::teach::course::Catalog;
use crate::vocab::json::{self, Json};

/// The protocol version every message carries.
pub const VERSION: i128 = 1;

/// What a host can ask.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Play,
    Pause,
    /// Move the cursor to a true time, in ms.
    Seek(i64),
    /// Open a built-in scenario by name.
    Open(String),
    /// Load a full scenario (the JSON format of docs/scenario-format.md).
    Load(Box<Scenario>),
}

/// Parses and validates one incoming message (already turned into JSON text).
pub fn parse(text: &str) -> Result<Command, String> {
    if text.len() > 512 * 1024 {
        return Err("message: larger than 512 KiB".to_string());
    }
    let v = json::parse(text).map_err(|e| format!("message: {e}"))?;
    let Json::Obj(fields) = &v else {
        return Err(format!("message: expected an object, got {}", v.kind()));
    };
    match v.get("leaseline") {
        Some(Json::Int(VERSION)) => {}
        _ => return Err("leaseline: expected 1 (the protocol version)".to_string()),
    }
    let kind = match v.get("type") {
        Some(Json::Str(s)) => s.as_str(),
        _ => return Err("type: expected one of play, pause, seek, load".to_string()),
    };
    // The fields each type may carry; anything else is refused by name.
    let allowed: &[&str] = match kind {
        "play" | "pause" => &[],
        "seek" => &["t_ms"],
        "load" => &["scenario"],
        _ => return Err(format!("type: unknown message type \"{kind}\"")),
    };
    if let Some((k, _)) = fields
        .iter()
        .find(|(k, _)| k != "leaseline" && k != "type" && !allowed.contains(&k.as_str()))
    {
        return Err(format!(
            "{}: not a field of a \"{kind}\" message",
            if k.is_empty() { "\"\"" } else { k }
        ));
    }
    match kind {
        "play" => Ok(Command::Play),
        "pause" => Ok(Command::Pause),
        "seek" => match v.get("t_ms") {
            Some(Json::Int(t)) if (0..=i128::from(i64::MAX)).contains(t) => {
                Ok(Command::Seek(*t as i64))
            }
            _ => Err("t_ms: expected a whole number of milliseconds, 0 or more".to_string()),
        },
        _ => match v.get("scenario") {
            Some(Json::Str(name)) => match PageCourse::open(name) {
                Some(_) => Ok(Command::Open(name.clone())),
                // No near name offered, as a link's error offers one: the links' player
                // reads these too, and the search for it costs its wasm 2.5 KB gzip.
                None => Err(format!("scenario: no built-in scenario named \"{name}\"")),
            },
            Some(obj @ Json::Obj(_)) => Scenario::from_json(&json::compact(obj))
                .map(|s| Command::Load(Box::new(s)))
                .map_err(|e| format!("scenario{}{e}", if e.path.is_empty() { ": " } else { "." })),
            _ => Err("scenario: expected a scenario name or a scenario object".to_string()),
        },
    }
}

/// What Leaseline tells its host.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The app is mounted and listening; `digest` identifies the run on screen.
    Ready { digest: String },
    /// The cursor moved (sent when the step changes, not on every frame).
    Cursor {
        t_ms: i64,
        step: usize,
        steps: usize,
    },
    /// The cursor passed a violation.
    Violation {
        kind: String,
        t_ms: i64,
        cause: String,
    },
    /// The learner answered an interview stop.
    QuizAnswered {
        question: usize,
        stop: usize,
        right: bool,
    },
    /// A message was refused; nothing changed.
    Error { message: String },
    /// Progress a course platform can record (`super::statements`).
    Statement(Statement),
}

/// A learner's progress, shaped like an xAPI statement without its actor: `verb` one of
/// `progressed`, `completed`, `answered`; `object` what it was done to (its kind,
/// `lesson` or `question`; its id, as a link names it; its name); `result` its figures
/// (a beat and the count of beats, a stop, a score and its maximum), whether it succeeded
/// where that applies, and the choice picked for an answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    pub verb: &'static str,
    pub object: (&'static str, String, String),
    pub result: Vec<(&'static str, i64)>,
    pub success: Option<bool>,
    pub response: Option<String>,
}

fn int(v: i64) -> Json {
    Json::Int(i128::from(v))
}

fn idx(v: usize) -> Json {
    Json::Int(v as i128)
}

/// The event as the JSON text posted to the host.
pub fn encode(e: &Event) -> String {
    let s = |x: &str| Json::Str(x.to_string());
    let (kind, mut fields) = match e {
        Event::Ready { digest } => ("ready", vec![("digest", s(digest))]),
        Event::Cursor { t_ms, step, steps } => (
            "cursor",
            vec![
                ("t_ms", int(*t_ms)),
                ("step", idx(*step)),
                ("steps", idx(*steps)),
            ],
        ),
        Event::Violation { kind, t_ms, cause } => (
            "violation",
            vec![("kind", s(kind)), ("t_ms", int(*t_ms)), ("cause", s(cause))],
        ),
        Event::QuizAnswered {
            question,
            stop,
            right,
        } => (
            "quiz_answered",
            vec![
                ("question", idx(*question)),
                ("stop", idx(*stop)),
                ("right", Json::Bool(*right)),
            ],
        ),
        Event::Error { message } => ("error", vec![("message", s(message))]),
        Event::Statement(st) => {
            let (kind, id, name) = &st.object;
            let mut result: Vec<(String, Json)> = st
                .result
                .iter()
                .map(|(k, v)| (k.to_string(), int(*v)))
                .collect();
            if let Some(ok) = st.success {
                result.push(("success".into(), Json::Bool(ok)));
            }
            if let Some(r) = &st.response {
                result.push(("response".into(), s(r)));
            }
            let object = vec![
                ("kind".to_string(), s(kind)),
                ("id".to_string(), s(id)),
                ("name".to_string(), s(name)),
            ];
            (
                "statement",
                vec![
                    ("verb", s(st.verb)),
                    ("object", Json::Obj(object)),
                    ("result", Json::Obj(result)),
                ],
            )
        }
    };
    fields.insert(0, ("type", s(kind)));
    fields.insert(0, ("leaseline", Json::Int(VERSION)));
    json::compact(&Json::Obj(
        fields
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
    ))
}

/// What a host hears when the cursor moves from step `from` to step `to` of a run: a
/// `violation` for each one the cursor passed going forward, then the `cursor` itself.
/// `from` is `None` for a run the host has not seen yet, which is announced with `ready`
/// and counted from its start.
pub fn cursor_events(
    trace: &Trace,
    verdict: &Verdict,
    digest: &str,
    from: Option<usize>,
    to: usize,
    t_ms: i64,
) -> Vec<Event> {
    // The host has heard of this step of this run (a page handed over from the links'
    // player, a run drawn again the same): nothing is new.
    if from == Some(to) {
        return Vec::new();
    }
    let mut out = Vec::new();
    if from.is_none() {
        out.push(Event::Ready {
            digest: digest.to_string(),
        });
    }
    let from = from.unwrap_or(0);
    for v in &verdict.violations {
        let i = v.entry as usize;
        if let (true, Some(e)) = ((from..to).contains(&i), trace.entries.get(i)) {
            out.push(Event::Violation {
                kind: v.kind.name().to_string(),
                t_ms: e.t.0,
                cause: v.cause.clone(),
            });
        }
    }
    out.push(Event::Cursor {
        t_ms,
        step: to,
        steps: trace.len(),
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_and_bad_ones_name_their_field() {
        assert_eq!(parse(r#"{"leaseline":1,"type":"play"}"#), Ok(Command::Play));
        assert_eq!(
            parse(r#"{"leaseline":1,"type":"pause"}"#),
            Ok(Command::Pause)
        );
        assert_eq!(
            parse(r#"{"type":"seek","leaseline":1,"t_ms":30000}"#),
            Ok(Command::Seek(30_000))
        );
        assert_eq!(
            parse(r#"{"leaseline":1,"type":"load","scenario":"gc-pause-fenced"}"#),
            Ok(Command::Open("gc-pause-fenced".into()))
        );
        let sc = crate::teach::course::open("gc-pause").unwrap();
        let msg = format!(
            r#"{{"leaseline":1,"type":"load","scenario":{}}}"#,
            sc.to_json_pretty()
        );
        assert_eq!(parse(&msg), Ok(Command::Load(Box::new(sc))));
        for (msg, field) in [
            ("[]", "message:"),
            ("{", "message:"),
            (r#""play""#, "message:"),
            (r#"{"type":"play"}"#, "leaseline:"),
            (r#"{"leaseline":2,"type":"play"}"#, "leaseline:"),
            (r#"{"leaseline":1}"#, "type:"),
            (r#"{"leaseline":1,"type":"explode"}"#, "type:"),
            (r#"{"leaseline":1,"type":"play","t_ms":1}"#, "t_ms:"),
            (r#"{"leaseline":1,"type":"seek"}"#, "t_ms:"),
            (r#"{"leaseline":1,"type":"seek","t_ms":-1}"#, "t_ms:"),
            (r#"{"leaseline":1,"type":"seek","t_ms":"5"}"#, "t_ms:"),
            (
                r#"{"leaseline":1,"type":"seek","t_ms":99999999999999999999999}"#,
                "t_ms:",
            ),
            (
                r#"{"leaseline":1,"type":"load","scenario":"nope"}"#,
                "scenario:",
            ),
            (
                r#"{"leaseline":1,"type":"load","scenario":{"version":1}}"#,
                "scenario.",
            ),
            (r#"{"leaseline":1,"type":"load"}"#, "scenario:"),
        ] {
            let e = parse(msg).expect_err(msg);
            assert!(e.starts_with(field), "{msg}: {e}");
        }
    }

    #[test]
    fn events_are_tagged_json() {
        assert_eq!(
            encode(&Event::Cursor {
                t_ms: 30_005,
                step: 12,
                steps: 40
            }),
            r#"{"leaseline":1,"type":"cursor","t_ms":30005,"step":12,"steps":40}"#
        );
        let e = encode(&Event::Violation {
            kind: "stale_write".into(),
            t_ms: 50_000,
            cause: "a \"stale\" write".into(),
        });
        assert_eq!(
            e,
            r#"{"leaseline":1,"type":"violation","kind":"stale_write","t_ms":50000,"cause":"a \"stale\" write"}"#
        );
        assert!(json::parse(&encode(&Event::QuizAnswered {
            question: 0,
            stop: 1,
            right: true
        }))
        .is_ok());
    }

    #[test]
    fn mangled_messages_are_refused_or_read_never_a_panic() {
        // Valid messages, cut, spliced and sprinkled with bytes a hostile page might send.
        let seeds = [
            r#"{"leaseline":1,"type":"seek","t_ms":30000}"#.to_string(),
            r#"{"leaseline":1,"type":"load","scenario":"gc-pause"}"#.to_string(),
            format!(
                r#"{{"leaseline":1,"type":"load","scenario":{}}}"#,
                crate::teach::course::open("gc-pause")
                    .unwrap()
                    .to_json_pretty()
            ),
        ];
        let noise = b"{}[]\":,0123456789-eE+.\\ntruefalsenull\x00\xff";
        let mut rng = crate::model::sim::rng::Rng::new(2026);
        let (mut ok, mut refused) = (0, 0);
        for n in 0..20_000 {
            let mut m = seeds[n % seeds.len()].clone().into_bytes();
            for _ in 0..rng.range_i64(1, 6) {
                let at = rng.range_i64(0, m.len() as i64) as usize;
                match rng.range_i64(0, 3) {
                    0 => m.truncate(at),
                    1 => {
                        let b = noise[rng.range_i64(0, noise.len() as i64 - 1) as usize];
                        m.insert(at.min(m.len()), b)
                    }
                    _ => {
                        if at < m.len() {
                            m.remove(at);
                        }
                    }
                }
            }
            match parse(&String::from_utf8_lossy(&m)) {
                Ok(_) => ok += 1,
                Err(e) => {
                    assert!(!e.is_empty());
                    refused += 1
                }
            }
        }
        // The mangling is seeded, so the split is exact: a parser that starts reading (or
        // refusing) more or less than it did changes it. (So does a change of the gc-pause
        // scenario's text, the third seed, such as a node's name in it.)
        assert_eq!((ok, refused), (634, 19_366));
    }

    #[test]
    fn a_host_hears_ready_once_and_each_violation_as_the_cursor_passes_it() {
        let sc = crate::teach::course::open("gc-pause").unwrap();
        let trace = crate::model::sim::simulate(&sc).unwrap();
        let verdict = crate::analysis::check::check(&trace);
        let d = trace.digest_hex();
        let kinds = |ev: &[Event]| -> Vec<String> {
            ev.iter()
                .map(|e| match e {
                    Event::Ready { .. } => "ready".into(),
                    Event::Violation { kind, .. } => kind.clone(),
                    Event::Cursor { step, .. } => format!("cursor {step}"),
                    _ => "other".into(),
                })
                .collect()
        };
        let end = trace.len();
        let first = cursor_events(&trace, &verdict, &d, None, 1, 0);
        assert_eq!(kinds(&first), ["ready", "cursor 1"]);
        assert!(cursor_events(&trace, &verdict, &d, Some(1), 1, 0).is_empty());
        let all = cursor_events(&trace, &verdict, &d, Some(1), end, 60_005);
        assert_eq!(all.len(), verdict.violations.len() + 1);
        assert!(kinds(&all).contains(&"stale_write".to_string()));
        // Going back passes nothing.
        assert_eq!(
            kinds(&cursor_events(&trace, &verdict, &d, Some(end), 3, 0)),
            ["cursor 3"]
        );
    }

    #[test]
    fn origins_are_checked() {
        assert_eq!(
            crate::session::share::parse_origins("https://course.example,http://localhost:8000"),
            Ok(vec![
                "https://course.example".into(),
                "http://localhost:8000".into()
            ])
        );
        for bad in [
            "",
            "course.example",
            "https://",
            "https://a.example/path",
            "javascript:alert(1)",
        ] {
            assert!(
                crate::session::share::parse_origins(bad)
                    .unwrap_err()
                    .starts_with("origins:"),
                "{bad}"
            );
        }
    }
}
