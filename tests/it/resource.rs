//! A fence compares tokens per resource: the `token-wrong-resource` lesson's claims, its
//! fix, and the scenario fields behind them (`storage.resources`, `storage.mark_per`).

use crate::common;
use leaseline::analysis::check::{check, ViolationKind};
use leaseline::model::msg::RejectReason;
use leaseline::model::recorded;
use leaseline::model::scenario::{MarkScope, Scenario};
use leaseline::model::sim::simulate;
use leaseline::model::trace::{Event, Trace};
use leaseline::teach::library;
use leaseline::vocab::ids::NodeId;

const C1: NodeId = NodeId::Client(0);
const C2: NodeId = NodeId::Client(1);

fn run(name: &str) -> Trace {
    simulate(&library::find(name).unwrap()).unwrap()
}

/// (ms, client, key, token) of an accepted write.
type Accepted = (i64, NodeId, String, Option<u64>);
/// (ms, client, key, reason) of a refused write.
type Refused = (i64, NodeId, String, String);

/// Every accepted write, and every refused one with its reason.
fn writes(t: &Trace) -> (Vec<Accepted>, Vec<Refused>) {
    let (mut ok, mut no) = (Vec::new(), Vec::new());
    for e in &t.entries {
        match &e.event {
            Event::WriteAccepted {
                client, key, token, ..
            } => ok.push((e.t.0, *client, key.to_string(), *token)),
            Event::WriteRejected {
                client,
                key,
                reason,
                ..
            } => no.push((e.t.0, *client, key.to_string(), reason.to_string())),
            _ => {}
        }
    }
    (ok, no)
}

#[test]
fn the_lesson_run_is_what_its_text_says() {
    let t = run("token-wrong-resource");
    // The run opens with what the lock protects: one account, two keys, a mark per key.
    assert_eq!(
        t.entries[0].event,
        Event::ResourceDeclared {
            resource: "account:42".into(),
            keys: vec!["account:42/balance".into(), "account:42/history".into()],
            one_mark: Some(false),
        }
    );
    assert_eq!(common::grants(&t), [(C1, 33), (C2, 34)]);
    let pause = t.entries.iter().find_map(|e| match e.event {
        Event::Paused { for_ms, .. } if e.node == C1 => Some((e.t.0, for_ms)),
        _ => None,
    });
    assert_eq!(
        pause,
        Some((5_000, 40_000)),
        "frozen before its first write at 10 s"
    );
    let (ok, no) = writes(&t);
    assert_eq!(
        ok,
        [
            (31_015, C2, "account:42/balance".into(), Some(34)),
            (45_005, C1, "account:42/history".into(), Some(33)),
        ]
    );
    assert_eq!(
        no,
        [(
            45_015,
            C1,
            "account:42/balance".into(),
            "token 33 < 34".into()
        )]
    );
    // Client 2 never writes the history: the stale deposit stays in it.
    let v = check(&t);
    assert!(!v.safe);
    let kinds: Vec<_> = v.violations.iter().map(|x| x.kind).collect();
    assert_eq!(
        kinds,
        [ViolationKind::StaleWrite],
        "stale, and no newer value was overwritten"
    );
    assert_eq!(v.violations[0].at.0, 45_005);
    assert_eq!(
        v.violations[0].cause,
        "storage accepted client 1's write to account:42/history, part of account:42, with token 33 after it had accepted token 34 from client 2: a superseded holder changed the data"
    );
}

#[test]
fn with_one_mark_for_the_account_the_stale_write_is_refused() {
    let t = run("token-wrong-resource/one-mark");
    let (ok, no) = writes(&t);
    assert_eq!(ok, [(31_015, C2, "account:42/balance".into(), Some(34))]);
    assert_eq!(
        no,
        [(
            45_005,
            C1,
            "account:42/history".into(),
            "token 33 < 34".into()
        )]
    );
    assert!(check(&t).safe);
}

/// Without a declared resource the checker judges per key, as it always did: the same
/// run with `resources` removed is called safe, though the same write lands.
#[test]
fn without_resources_every_key_is_its_own_resource() {
    let mut sc = library::find("token-wrong-resource").unwrap();
    sc.storage.resources.clear();
    let t = simulate(&sc).unwrap();
    assert!(!t
        .entries
        .iter()
        .any(|e| matches!(e.event, Event::ResourceDeclared { .. })));
    assert_eq!(writes(&t).0.len(), 2);
    assert!(check(&t).safe);
    // `mark_per: resource` with no resource changes nothing either.
    sc.storage.mark_per = MarkScope::Resource;
    assert_eq!(simulate(&sc).unwrap().digest(), t.digest());
}

#[test]
fn the_fields_read_write_and_refuse_by_name() {
    let sc = library::find("token-wrong-resource/one-mark").unwrap();
    let json = sc.to_json_pretty();
    assert!(json.contains("\"mark_per\": \"resource\""), "{json}");
    assert_eq!(Scenario::from_json(&json).unwrap(), sc);
    // A scenario without them writes neither field.
    let plain = library::find("unguarded-path").unwrap().to_json_pretty();
    assert!(!plain.contains("resources") && !plain.contains("mark_per"));
    let base = std::fs::read_to_string("src/teach/library/token-wrong-resource.json").unwrap();
    let refused = |from: &str, to: &str| {
        let edited = base.replacen(from, to, 1);
        assert_ne!(edited, base, "{from}");
        match Scenario::from_json(&edited) {
            Ok(_) => panic!("{to} was accepted"),
            Err(e) => e.to_string(),
        }
    };
    let e = refused("\"name\": \"account:42\"", "\"name\": \" \"");
    assert!(e.starts_with("storage.resources[0].name"), "{e}");
    let e = refused("\"account:42/history\"", "\"account:42/balance\"");
    assert!(e.starts_with("storage.resources[0].keys[1]"), "{e}");
    let e = refused("\"storage\": {", "\"storage\": { \"mark_per\": \"row\",");
    assert!(e.starts_with("storage.mark_per"), "{e}");
    let e = refused("\"keys\": [", "\"keys\": [], \"x\": [");
    assert!(e.contains("storage.resources[0]"), "{e}");
}

/// The recorded format and a Jepsen history carry the resource, so a run written out and
/// read back is judged the same.
#[test]
fn a_recording_keeps_the_resource_and_its_verdict() {
    let t = run("token-wrong-resource");
    let want: Vec<_> = check(&t).violations.iter().map(|v| v.kind).collect();
    let ndjson = recorded::export(&t, Some("token-wrong-resource"), "model");
    assert!(ndjson
        .lines()
        .next()
        .unwrap()
        .contains("\"resources\":[{\"name\":\"account:42\""));
    let edn = recorded::jepsen::export(&t);
    assert!(edn.contains("\"account:42/history\" \"account:42\"]"));
    for text in [ndjson, edn] {
        let back = recorded::to_trace(&recorded::parse(&text).unwrap());
        let got: Vec<_> = check(&back).violations.iter().map(|v| v.kind).collect();
        assert_eq!(got, want);
    }
    let bad = "{\"leaseline_trace\":1,\"nodes\":[{\"name\":\"a\",\"role\":\"client\"},{\"name\":\"l\",\"role\":\"lock service\"}],\"resources\":[{\"name\":\"r\",\"keys\":[\"k\"]}]}\n";
    let e = recorded::parse(bad).unwrap_err();
    assert_eq!(e.field.as_deref(), Some("resources"));
}

#[test]
fn the_reason_reads_as_the_text_quotes_it() {
    assert_eq!(
        RejectReason::Lower {
            token: 33,
            mark: 34
        }
        .to_string(),
        "token 33 < 34"
    );
}
