//! Recorded traces (`docs/trace-format.md`, `model::recorded`): hand-written real runs get
//! the verdicts we know they deserve; a model run written out in the format and read back
//! gets the same verdict as the run itself; and malformed files are refused with their
//! line and field named, never a panic.

use crate::common::every_scenario;
use leaseline::analysis::check::{check, Refusal, Verdict, ViolationKind};
use leaseline::model::recorded::{self, RecordedError, MAX_BYTES, MAX_LINE, MAX_LINES};
use leaseline::model::sim::simulate;
use leaseline::teach::presets::PRESETS;
use leaseline::vocab::ids::NodeId;
use std::path::Path;

fn dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/recorded"))
}

fn verdict_of(file: &str) -> Verdict {
    let bytes = std::fs::read(dir().join(file)).unwrap();
    let rec = recorded::read(&bytes).unwrap_or_else(|e| panic!("{file}: {e}"));
    let v = check(&recorded::to_trace(&rec));
    println!("{file}:\n{}", v.summary());
    v
}

const C1: NodeId = NodeId::Client(0);
const C2: NodeId = NodeId::Client(1);

/// The clients of an overlap, with the tokens they believed in.
type Believers = Vec<(NodeId, u64)>;

/// The verdict's classes: what the lab compares between a real run and the model's.
#[derive(Debug, PartialEq, Eq)]
struct Classes {
    safe: bool,
    /// Each violation's kind and nodes.
    violations: Vec<(ViolationKind, Vec<NodeId>)>,
    /// Each overlap's believers with their tokens, and its interval.
    overlaps: Vec<(Believers, i64, i64)>,
    /// Each refusal: whose write, with which token, why.
    rejections: Vec<(NodeId, Option<u64>, Refusal, String)>,
    stale_writes_accepted: u32,
    lost_updates: u32,
    writes_accepted: u32,
    effects_performed: u32,
    jobs: (u32, u32),
    live: bool,
}

fn classes(v: &Verdict) -> Classes {
    Classes {
        safe: v.safe,
        violations: v
            .violations
            .iter()
            .map(|x| (x.kind, x.nodes.clone()))
            .collect(),
        overlaps: v
            .overlaps
            .iter()
            .map(|o| (o.clients.clone(), o.from.0, o.to.0))
            .collect(),
        rejections: v
            .rejections
            .iter()
            .map(|r| (r.client, r.token, r.why, r.reason.clone()))
            .collect(),
        stale_writes_accepted: v.stats.stale_writes_accepted,
        lost_updates: v.stats.lost_updates,
        writes_accepted: v.stats.writes_accepted,
        effects_performed: v.stats.effects_performed,
        jobs: (v.stats.jobs_started, v.stats.jobs_finished),
        live: v.progress.live(),
    }
}

// --- (a) hand-written real runs ---------------------------------------------------------

#[test]
fn an_unfenced_gc_pause_on_redis_accepts_the_stale_write() {
    let v = verdict_of("redis-gc-pause-unfenced.ndjson");
    assert!(!v.safe);
    let kinds: Vec<_> = v.violations.iter().map(|x| (x.kind, x.nodes[0])).collect();
    assert_eq!(
        kinds,
        [
            (ViolationKind::StaleWrite, C1),
            (ViolationKind::LostUpdate, C1)
        ]
    );
    assert_eq!(v.overlaps.len(), 1);
    assert_eq!(v.overlaps[0].clients, [(C1, 0), (C2, 0)]);
    assert_eq!(v.stats.stale_writes_accepted, 1);
    assert!(v.rejections.is_empty());
}

#[test]
fn a_fenced_gc_pause_on_etcd_rejects_the_stale_token() {
    let v = verdict_of("etcd-gc-pause-fenced.ndjson");
    assert!(v.safe);
    assert_eq!(v.overlaps.len(), 1, "two believers, as in the model");
    assert_eq!(v.overlaps[0].clients, [(C1, 1021), (C2, 1025)]);
    assert_eq!(v.rejections.len(), 1);
    let r = &v.rejections[0];
    assert_eq!((r.client, r.token, r.why), (C1, Some(1021), Refusal::Stale));
    assert_eq!(r.reason, "token 1021 < 1025");
    assert_eq!(v.stats.stale_writes_rejected, 1);
    // Client 1 was superseded, not stalled: the run is live.
    assert!(v.progress.live());
}

#[test]
fn an_exact_fence_on_etcd_rejects_the_old_revision() {
    let v = verdict_of("etcd-gc-pause-exact.ndjson");
    assert!(v.safe);
    let r = &v.rejections[0];
    assert_eq!((r.client, r.token, r.why), (C1, Some(1021), Refusal::Stale));
    assert_eq!(r.reason, "token 1021 ≠ current 1025");
}

#[test]
fn a_clean_run_is_safe_with_no_overlap() {
    let v = verdict_of("clean.ndjson");
    assert!(v.safe);
    assert!(v.overlaps.is_empty());
    assert_eq!(v.stats.writes_accepted, 2);
    assert_eq!((v.stats.jobs_started, v.stats.jobs_finished), (2, 2));
    assert!(v.progress.live());
}

#[test]
fn the_documented_example_is_the_unfenced_fixture() {
    let doc = include_str!("../../docs/trace-format.md");
    let start = doc.rfind("```json\n{").expect("an example") + "```json\n".len();
    let end = start + doc[start..].find("```").expect("closing fence");
    let fixture = std::fs::read_to_string(dir().join("redis-gc-pause-unfenced.ndjson")).unwrap();
    assert_eq!(doc[start..end], fixture);
}

#[test]
fn microseconds_round_down_to_the_models_milliseconds() {
    let text = "{\"leaseline_trace\":1,\"nodes\":[{\"name\":\"a\",\"role\":\"client\"},{\"name\":\"l\",\"role\":\"lock service\"}]}\n\
        {\"t_us\":1999,\"node\":\"a\",\"local_us\":-1,\"event\":\"job_started\"}\n";
    let t = recorded::to_trace(&recorded::parse(text).unwrap());
    assert_eq!((t.entries[0].t.0, t.entries[0].local), (1, -1));
}

#[test]
fn lines_of_different_nodes_may_come_in_any_order() {
    let text = std::fs::read_to_string(dir().join("clean.ndjson")).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    // The storage's lines first, then the rest: sorted back by true time on reading.
    let (head, rest) = lines.split_at_mut(1);
    rest.sort_by_key(|l| !l.contains("\"node\":\"storage\""));
    let shuffled = [head.join("\n"), rest.join("\n")].join("\n");
    let a = recorded::to_trace(&recorded::parse(&text).unwrap());
    let b = recorded::to_trace(&recorded::parse(&shuffled).unwrap());
    assert_eq!(a.digest(), b.digest());
}

// --- (b) the model's runs, written out and read back -------------------------------------

#[test]
fn a_model_run_written_out_and_read_back_gets_the_same_verdict() {
    let mut differ = Vec::new();
    let all = every_scenario();
    // The three presets and every lesson and flavor preset, each with its fixes.
    assert!(all.len() > 60, "{}", all.len());
    for (name, sc) in &all {
        let trace = simulate(sc).unwrap();
        let text = recorded::export(&trace, Some(name), sc.coordinator.flavor.name());
        let back = recorded::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        let (model, real) = (check(&trace), check(&recorded::to_trace(&back)));
        if classes(&model) != classes(&real) {
            differ.push(format!(
                "{name}:\n  model {:?}\n  back  {:?}",
                classes(&model),
                classes(&real)
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} differ:\n{}",
        differ.len(),
        all.len(),
        differ.join("\n")
    );
}

#[test]
fn gc_pause_round_trips_with_its_violations_clients_and_tokens() {
    for name in ["gc-pause", "gc-pause-fenced"] {
        let p = PRESETS.iter().find(|p| p.name == name).unwrap();
        let trace = simulate(&p.scenario()).unwrap();
        let text = recorded::export(&trace, Some(name), "generic");
        assert!(text.starts_with("{\"leaseline_trace\":1,\"scenario\":\""));
        let back = recorded::to_trace(&recorded::parse(&text).unwrap());
        assert_eq!(classes(&check(&trace)), classes(&check(&back)), "{name}");
        // And once more: an export of the re-read trace reads back the same.
        let again = recorded::export(&back, Some(name), "generic");
        let twice = recorded::to_trace(&recorded::parse(&again).unwrap());
        assert_eq!(back.digest(), twice.digest(), "{name}");
    }
}

// --- (c) malformed files ----------------------------------------------------------------

/// Each file under tests/recorded/bad, with the refusal it must get (line, field, and
/// the start of the message).
const BAD: &[(&str, u32, Option<&str>, &str)] = &[
    ("empty.ndjson", 1, None, "empty file"),
    (
        "wrong-version.ndjson",
        1,
        Some("leaseline_trace"),
        "version 2 is not supported",
    ),
    (
        "version-as-text.ndjson",
        1,
        Some("leaseline_trace"),
        "expected a whole number, got \"1\"",
    ),
    (
        "missing-header.ndjson",
        1,
        Some("leaseline_trace"),
        "missing: the first line must be the header",
    ),
    (
        "header-unknown-field.ndjson",
        1,
        Some("nodess"),
        "unknown field for the header",
    ),
    (
        "no-client.ndjson",
        1,
        Some("nodes"),
        "0 nodes with role \"client\"",
    ),
    (
        "duplicate-node.ndjson",
        1,
        Some("nodes[1].name"),
        "\"client 1\" is named twice",
    ),
    (
        "bad-role.ndjson",
        1,
        Some("nodes[2].role"),
        "\"coordinator\" is not",
    ),
    (
        "long-node-name.ndjson",
        1,
        Some("nodes[0].name"),
        "must be 1 … 32 bytes",
    ),
    (
        "bad-json.ndjson",
        3,
        None,
        "not valid JSON: expected ',' or '}' at column",
    ),
    (
        "not-an-object.ndjson",
        2,
        None,
        "expected an object {…}, got an array",
    ),
    (
        "fraction.ndjson",
        2,
        Some("t_us"),
        "expected a whole number, got a fraction",
    ),
    (
        "unknown-event.ndjson",
        2,
        Some("event"),
        "unknown event \"grant\"",
    ),
    ("missing-event.ndjson", 2, Some("event"), "missing"),
    (
        "unknown-field.ndjson",
        3,
        Some("tokn"),
        "unknown field for `granted`",
    ),
    ("missing-ttl.ndjson", 3, Some("ttl_ms"), "missing"),
    (
        "token-not-a-number.ndjson",
        3,
        Some("token"),
        "expected a whole number, got \"abc\"",
    ),
    ("token-zero.ndjson", 3, Some("token"), "0 is out of range"),
    (
        "huge-token.ndjson",
        3,
        Some("token"),
        "9007199254740993 is out of range",
    ),
    ("huge-number.ndjson", 2, Some("t_us"), "number too large"),
    (
        "negative-time.ndjson",
        2,
        Some("t_us"),
        "-5 is out of range",
    ),
    (
        "time-too-late.ndjson",
        2,
        Some("t_us"),
        "86400000001 is out of range",
    ),
    (
        "time-backwards.ndjson",
        4,
        Some("t_us"),
        "2000 is earlier than this node's previous event (line 3, 3000)",
    ),
    (
        "unknown-node.ndjson",
        2,
        Some("node"),
        "no node named \"client 3\" in the header",
    ),
    (
        "wrong-role.ndjson",
        3,
        Some("node"),
        "`write_accepted` is an event of a storage node; \"client 1\" is a client",
    ),
    (
        "client-not-a-client.ndjson",
        4,
        Some("client"),
        "\"storage\" is a storage, not a client",
    ),
    ("bad-reason.ndjson", 4, Some("reason"), "\"stale\" is not"),
    ("stale-without-mark.ndjson", 4, Some("mark"), "missing"),
    (
        "stale-token-above-mark.ndjson",
        4,
        Some("mark"),
        "a \"stale_token\" refusal needs token < mark",
    ),
    (
        "renewed-without-grant.ndjson",
        3,
        Some("event"),
        "`renewed`, but \"client 1\" does not hold the lock",
    ),
    ("blank-line.ndjson", 3, None, "empty line"),
    (
        "long-string.ndjson",
        3,
        Some("value"),
        "longer than 256 bytes",
    ),
    (
        "duplicate-key.ndjson",
        2,
        None,
        "not valid JSON: duplicate key \"t_us\"",
    ),
    ("not-utf8.ndjson", 2, None, "not UTF-8 text"),
];

fn refusal(bytes: &[u8]) -> RecordedError {
    match std::panic::catch_unwind(|| recorded::read(bytes)) {
        Ok(Ok(_)) => panic!("accepted"),
        Ok(Err(e)) => e,
        Err(_) => panic!("panicked"),
    }
}

fn expect(what: &str, e: &RecordedError, line: u32, field: Option<&str>, start: &str) {
    assert_eq!(
        (e.line, e.field.as_deref()),
        (line, field),
        "{what}: got `{e}`"
    );
    assert!(
        e.message.starts_with(start),
        "{what}: got `{e}`, want `{start}…`"
    );
    let shown = e.to_string();
    let head = match field {
        Some(f) => format!("line {line}, field `{f}`: "),
        None => format!("line {line}: "),
    };
    assert!(shown.starts_with(&head), "{what}: `{shown}`");
}

#[test]
fn every_malformed_file_is_refused_with_its_line_and_field() {
    let mut files: Vec<String> = std::fs::read_dir(dir().join("bad"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let listed: Vec<String> = {
        let mut l: Vec<String> = BAD.iter().map(|b| b.0.to_string()).collect();
        l.sort();
        l
    };
    assert_eq!(
        files, listed,
        "every bad file has a row in BAD, and every row a file"
    );
    assert!(BAD.len() >= 20);
    for (file, line, field, start) in BAD {
        let bytes = std::fs::read(dir().join("bad").join(file)).unwrap();
        expect(file, &refusal(&bytes), *line, *field, start);
    }
}

/// A valid header and `n` valid event lines.
fn many(n: usize) -> String {
    let mut s = String::from(
        "{\"leaseline_trace\":1,\"nodes\":[{\"name\":\"a\",\"role\":\"client\"},{\"name\":\"l\",\"role\":\"lock service\"}]}\n",
    );
    for i in 0..n {
        s += &format!("{{\"t_us\":{i},\"node\":\"a\",\"event\":\"acquire_sent\"}}\n");
    }
    s
}

#[test]
fn the_bounds_are_enforced_where_they_are_documented() {
    // The most lines accepted, and one more.
    assert!(recorded::parse(&many(MAX_LINES - 1)).is_ok());
    let e = refusal(many(MAX_LINES).as_bytes());
    expect(
        "too many lines",
        &e,
        MAX_LINES as u32 + 1,
        None,
        "more than 100000 lines",
    );
    // A line one byte too long.
    let pad = "x".repeat(MAX_LINE);
    let long = many(0)
        + &format!("{{\"t_us\":0,\"node\":\"a\",\"event\":\"job_started\",\"pad\":\"{pad}\"}}\n");
    expect(
        "long line",
        &refusal(long.as_bytes()),
        2,
        None,
        "longer than 4096 bytes",
    );
    // A file one byte too large: refused as a whole before any line is read.
    let big = vec![b' '; MAX_BYTES + 1];
    let e = refusal(&big);
    assert_eq!(
        (e.line, e.to_string().as_str()),
        (0, "the file: larger than 8388608 bytes (8 MiB)")
    );
    // Nine clients.
    let nodes: Vec<String> = (1..=9)
        .map(|i| format!("{{\"name\":\"c{i}\",\"role\":\"client\"}}"))
        .collect();
    let nine = format!(
        "{{\"leaseline_trace\":1,\"nodes\":[{},{{\"name\":\"l\",\"role\":\"lock service\"}}]}}",
        nodes.join(",")
    );
    expect(
        "nine clients",
        &refusal(nine.as_bytes()),
        1,
        Some("nodes"),
        "9 nodes with role \"client\"",
    );
}

#[test]
fn no_prefix_of_a_valid_trace_makes_the_reader_panic() {
    // Every cut of a valid file (at every byte) is read or refused, never a panic; the
    // refusals name a line within the cut.
    let text = std::fs::read(dir().join("etcd-gc-pause-fenced.ndjson")).unwrap();
    for cut in 0..text.len() {
        match std::panic::catch_unwind(|| recorded::read(&text[..cut])) {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => {
                let lines = text[..cut].iter().filter(|&&b| b == b'\n').count() as u32 + 1;
                assert!(e.line >= 1 && e.line <= lines, "cut {cut}: {e}");
            }
            Err(_) => panic!("cut {cut} panicked"),
        }
    }
}

/// Every valid recording kept under tests/recorded (and its folders, but `bad/`) — the
/// hand-written ones here, and the lab's (tests/recorded/lab) when they are in the tree —
/// is read and judged without a refusal.
#[test]
fn every_recorded_fixture_reads_and_checks() {
    fn walk(d: &Path, out: &mut Vec<std::path::PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() && !p.ends_with("bad") {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "ndjson") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(dir(), &mut files);
    assert!(files.len() >= 4);
    for f in files {
        let rec = recorded::read(&std::fs::read(&f).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let v = check(&recorded::to_trace(&rec));
        println!("{}: safe {}", f.display(), v.safe);
    }
}

/// `check-trace` on `file`, as text and as JSON: what a course author reads.
fn check_trace_outputs(file: &Path) -> [String; 2] {
    ["text", "json"].map(|format| {
        let args: Vec<String> = ["check-trace", file.to_str().unwrap(), "--format", format]
            .map(str::to_string)
            .to_vec();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        leaseline::cli::run(&args, &mut out, &mut err);
        assert!(err.is_empty(), "{}", String::from_utf8_lossy(&err));
        String::from_utf8(out).unwrap()
    })
}

/// `check-trace` speaks the page's words: the node is "the lock service", and a service
/// that gives no token (Redis) has no "token 0" to hold.
#[test]
fn check_trace_names_the_lock_service_and_no_token_zero() {
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for d in [dir().to_path_buf(), dir().join("lab")] {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "ndjson") {
                files.push(p);
            }
        }
    }
    files.sort();
    assert!(files.len() >= 9, "{files:?}");
    let token_zero = regex_free_word("token 0");
    for f in &files {
        for out in check_trace_outputs(f) {
            assert!(
                !out.to_lowercase().contains("coordinator"),
                "{}: \"coordinator\" in\n{out}",
                f.display()
            );
            assert!(!token_zero(&out), "{}: \"token 0\" in\n{out}", f.display());
        }
    }
    let [text, _] = check_trace_outputs(&dir().join("lab/gc-pause-redis.ndjson"));
    assert!(text.contains("no longer believes it holds the lock: it released the lock"));
    let [text, json] = check_trace_outputs(&dir().join("token-regression.ndjson"));
    let said =
        "the lock service issued token 40 to client 2 although it had already issued token 41";
    assert!(text.contains(said) && json.contains(said), "{text}");
}

/// Whether `word` stands in a text as a word of its own ("token 0", not "token 0.5" or
/// "token 07").
fn regex_free_word(word: &'static str) -> impl Fn(&str) -> bool {
    move |text: &str| {
        text.match_indices(word).any(|(i, _)| {
            let after = text[i + word.len()..].chars().next();
            let before = text[..i].chars().next_back();
            after.is_none_or(|c| !c.is_ascii_alphanumeric() && c != '.')
                && before.is_none_or(|c| !c.is_ascii_alphanumeric())
        })
    }
}

/// A scenario file given to the recording reader (the page's trace import offers `.json`)
/// is named as a scenario and where it opens, pretty-printed or on one line; a file that
/// is neither still gets the recording's own error.
#[test]
fn a_scenario_file_is_told_apart_from_a_recording() {
    let pretty = PRESETS[0].scenario().to_json_pretty();
    let one_line =
        serde_json::to_string(&serde_json::from_str::<serde_json::Value>(&pretty).unwrap())
            .unwrap();
    for text in [&pretty, &one_line] {
        let e = recorded::parse(text).unwrap_err();
        assert_eq!(e.line, 0, "{e}");
        assert!(
            e.to_string()
                .starts_with("the file: a scenario (docs/scenario-format.md), not a recording"),
            "{e}"
        );
        assert!(e.to_string().contains("Import a scenario file"), "{e}");
    }
    let e = recorded::parse("{\"version\": 1}\n").unwrap_err();
    assert!(!e.to_string().contains("scenario"), "{e}");
}

/// An engineer's own trace often has no `job_*` lines: its clients asked for the lock, held
/// it and wrote. `check-trace` must not say they "never started" their jobs, nor count
/// jobs the trace does not tell of; a refused write is still work not done.
#[test]
fn a_trace_without_job_lines_does_not_say_its_clients_never_started() {
    let header = r#"{"leaseline_trace":1,"source":"hand","nodes":[{"name":"worker-a","role":"client"},{"name":"worker-b","role":"client"},{"name":"redis","role":"lock service"},{"name":"db","role":"storage"}]}"#;
    let lines = [
        r#"{"t_us":0,"node":"worker-a","event":"acquire_sent"}"#,
        r#"{"t_us":1000,"node":"worker-a","event":"granted","ttl_ms":5000,"token":1}"#,
        r#"{"t_us":8000000,"node":"worker-b","event":"acquire_sent"}"#,
        r#"{"t_us":8001000,"node":"worker-b","event":"granted","ttl_ms":5000,"token":2}"#,
        r#"{"t_us":8002000,"node":"worker-b","event":"write_sent","key":"x","value":"b","token":2}"#,
        r#"{"t_us":8003000,"node":"db","event":"write_accepted","client":"worker-b","key":"x","value":"b","token":2}"#,
        r#"{"t_us":9001000,"node":"worker-a","event":"write_sent","key":"x","value":"a","token":1}"#,
    ];
    let fenced = r#"{"t_us":9002000,"node":"db","event":"write_rejected","client":"worker-a","key":"x","value":"a","token":1,"reason":"stale_token","mark":2}"#;
    let landed = r#"{"t_us":9002000,"node":"db","event":"write_accepted","client":"worker-a","key":"x","value":"a","token":1}"#;
    let dir = std::env::temp_dir().join(format!("leaseline-jobless-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, last) in [("fenced", fenced), ("unfenced", landed)] {
        let file = dir.join(format!("{name}.ndjson"));
        let text = [&[header][..], &lines, &[last]].concat().join("\n") + "\n";
        std::fs::write(&file, text).unwrap();
        let [text, json] = check_trace_outputs(&file);
        assert!(!text.contains("never started"), "{name}:\n{text}");
        assert!(
            !text.contains("jobs finished"),
            "{name}: no job is told:\n{text}"
        );
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        let jobs = &json["progress"]["clients"];
        assert_eq!(
            (jobs[0]["job"].as_str(), jobs[1]["job"].as_str()),
            (Some("unrecorded"), Some("unrecorded")),
            "{name}"
        );
        assert_eq!(json["stats"]["jobs_started"], 0, "{name}");
        if name == "fenced" {
            // The refused write of worker-a was never redone: work not done, told as such
            // (and not a stall: worker-b took the lock after it).
            assert!(!text.contains("PROGRESS"), "{text}");
            assert!(text.contains("work not done: client 1 lost the lock to client 2 and recorded no job lines, and a refused write never landed"), "{text}");
        } else {
            assert!(
                !text.contains("PROGRESS") && !text.contains("work not done"),
                "{text}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
