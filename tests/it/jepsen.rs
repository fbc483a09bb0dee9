//! Jepsen lock histories (`docs/jepsen.md`, `model::recorded::jepsen`): hand-written
//! histories in EDN and in JSON get the verdicts worked out by hand below; an
//! indeterminate acquire is judged as a grant and the judgement says so; bad operations are
//! refused naming their line and key; and a model run written with `run --format jepsen`
//! reads back to the same verdict.

use crate::common::every_scenario;
use leaseline::analysis::check::{check, Verdict, ViolationKind};
use leaseline::analysis::liveness::JobEnd;
use leaseline::model::recorded::{self, jepsen, RecordedError};
use leaseline::model::sim::simulate;
use leaseline::model::trace::Event;
use leaseline::vocab::ids::NodeId;

const C1: NodeId = NodeId::Client(0);
const C2: NodeId = NodeId::Client(1);

fn judged(text: &str) -> (Verdict, Vec<String>) {
    let rec = recorded::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let v = check(&recorded::to_trace(&rec));
    println!("{}", v.summary());
    (v, recorded::assumed(&rec))
}

fn refused(text: &str) -> RecordedError {
    let e = recorded::parse(text).expect_err(text);
    println!("{e}");
    e
}

/// Processes 0 and 1 both acquire and neither releases before the other's `:ok`: from
/// 2 s (process 1's ok) to 3 s (process 0's release) both hold the lock.
const TWO_HOLDERS_EDN: &str = "\
{:type :invoke, :f :acquire, :process 0, :time 1000000000, :index 0}
{:type :ok, :f :acquire, :process 0, :time 1100000000, :index 1, :value 1}
{:type :invoke, :f :acquire, :process 1, :time 1900000000, :index 2}
{:type :ok, :f :acquire, :process 1, :time 2000000000, :index 3, :value 2}
{:type :invoke, :f :release, :process 0, :time 3000000000, :index 4}
{:type :ok, :f :release, :process 0, :time 3000000000, :index 5}
{:type :invoke, :f :release, :process 1, :time 4000000000, :index 6}
{:type :ok, :f :release, :process 1, :time 4000000000, :index 7}
";

#[test]
fn two_processes_granted_at_once_are_two_holders_in_edn_and_json() {
    let (v, assumed) = judged(TWO_HOLDERS_EDN);
    assert_eq!(v.overlaps.len(), 1);
    let o = &v.overlaps[0];
    assert_eq!((o.from.0, o.to.0), (2000, 3000));
    assert_eq!(o.clients, vec![(C1, 1), (C2, 2)]);
    assert_eq!(v.stats.grants, 2);
    assert!(assumed.is_empty());
    // No storage: no write can be stale, so the only mark is the overlap.
    assert!(v.safe);

    // The same history as Jepsen's JSON: one object a line, then one array.
    let json_ops = [
        (0, "invoke", "acquire", 1000, None),
        (0, "ok", "acquire", 1100, Some(1)),
        (1, "invoke", "acquire", 1900, None),
        (1, "ok", "acquire", 2000, Some(2)),
        (0, "invoke", "release", 3000, None),
        (0, "ok", "release", 3000, None),
        (1, "invoke", "release", 4000, None),
        (1, "ok", "release", 4000, None),
    ];
    let lines: Vec<String> = json_ops
        .iter()
        .enumerate()
        .map(|(i, (p, ty, f, ms, val))| {
            format!(
                r#"{{"type":"{ty}","f":"{f}","process":{p},"time":{},"index":{i},"value":{}}}"#,
                i64::from(*ms) * 1_000_000,
                val.map_or("null".to_string(), |v: i64| v.to_string())
            )
        })
        .collect();
    for text in [lines.join("\n"), format!("[{}]", lines.join(",\n"))] {
        assert_eq!(jepsen::detect(&text), Some(jepsen::Syntax::Json));
        let (w, _) = judged(&text);
        assert_eq!(w.overlaps, v.overlaps);
        assert_eq!(w.stats, v.stats);
    }
}

#[test]
fn a_clean_alternating_history_in_one_vector_is_safe_with_no_overlap() {
    let text = "[{:type :invoke, :f :lock, :process 0, :time 0}
 {:type :ok, :f :lock, :process 0, :time 1000000}
 {:type :invoke, :f :lock, :process 1, :time 2000000}
 {:type :fail, :f :lock, :process 1, :time 3000000, :error :already-held}
 {:type :invoke, :f :unlock, :process 0, :time 4000000}
 {:type :ok, :f :unlock, :process 0, :time 5000000}
 {:type :invoke, :f :lock, :process 1, :time 6000000}
 {:type :ok, :f :lock, :process 1, :time 7000000}
 {:type :invoke, :f :unlock, :process 1, :time 8000000}
 {:type :fail, :f :unlock, :process 1, :time 9000000, :error :not-held}]";
    assert_eq!(jepsen::detect(text), Some(jepsen::Syntax::Edn));
    let (v, assumed) = judged(text);
    assert!(v.safe);
    assert!(v.overlaps.is_empty(), "{:?}", v.overlaps);
    assert_eq!(v.stats.grants, 2);
    assert!(assumed.is_empty());
}

#[test]
fn an_indeterminate_acquire_is_judged_as_a_grant_and_said() {
    // Process 3's acquire times out (:info) at 1.5 s; process 4 is granted at 2 s. If the
    // timed-out acquire took effect (from its invoke at 1.2 s), both hold from 2 s to the end.
    let text = "\
{:type :invoke, :f :acquire, :process 3, :time 1200000000}
{:type :info, :f :acquire, :process 3, :time 1500000000, :error :timeout}
{:type :invoke, :f :acquire, :process 4, :time 1900000000}
{:type :ok, :f :acquire, :process 4, :time 2000000000}
{:type :invoke, :f :release, :process 4, :time 2500000000}
{:type :info, :f :release, :process 4, :time 2600000000}
";
    let (v, assumed) = judged(text);
    assert_eq!(v.overlaps.len(), 1);
    assert_eq!(v.overlaps[0].clients, vec![(C1, 0), (C2, 0)]);
    assert_eq!(v.overlaps[0].from.0, 2000);
    assert_eq!(assumed.len(), 2, "{assumed:?}");
    assert!(
        assumed[0].starts_with("process 3 (c1)'s acquire at 1.200s (line 2) is indeterminate"),
        "{}",
        assumed[0]
    );
    assert!(assumed[0].contains("assumed it may hold the lock"));
    assert!(
        assumed[1].contains("process 4 (c2)'s release at 2.500s (line 5) has no answer"),
        "{}",
        assumed[1]
    );
    // A process's operations are its job: both ended on an `:info`, so neither is said to
    // have finished — each was still under way when the history ends.
    let ends: Vec<JobEnd> = v.progress.clients.iter().map(|c| c.job).collect();
    assert_eq!(ends, vec![JobEnd::Unfinished, JobEnd::Unfinished]);
}

#[test]
fn a_process_whose_last_operation_completed_finished_its_job() {
    let (v, _) = judged(TWO_HOLDERS_EDN);
    assert_eq!(v.progress.jobs_finished(), 2, "{:?}", v.progress);
    assert!(!v.summary().contains("never started"), "{}", v.summary());
}

#[test]
fn nemesis_operations_become_fault_bands_and_unknown_ones_are_noted() {
    let text = "\
{:type :info, :f :start-partition, :process :nemesis, :time 0, :value :majority}
{:type :info, :f :start-partition, :process :nemesis, :time 1000, :value [:n1 :n2]}
{:type :invoke, :f :acquire, :process 0, :time 2000000}
{:type :fail, :f :acquire, :process 0, :time 3000000}
{:type :info, :f :stop-partition, :process :nemesis, :time 4000000}
{:type :info, :f :kill, :process :nemesis, :time 5000000}
{:type :info, :f :resume, :process :nemesis, :time 6000000}
{:type :info, :f :clock-skew, :process :nemesis, :time 7000000}
";
    let rec = recorded::parse(text).unwrap();
    let t = recorded::to_trace(&rec);
    use leaseline::model::trace::Event;
    let count = |f: fn(&Event) -> bool| t.entries.iter().filter(|e| f(&e.event)).count();
    assert_eq!(count(|e| matches!(e, Event::LinkCut { .. })), 1);
    assert_eq!(count(|e| matches!(e, Event::LinkHealed { .. })), 1);
    assert_eq!(count(|e| matches!(e, Event::Paused { .. })), 1);
    let notes = rec.header.notes.unwrap();
    assert!(
        notes.contains("1 nemesis operation") && notes.contains(":clock-skew"),
        "{notes}"
    );
    assert!(check(&t).safe);
    // Named as the export names nodes: that node, or left out when the history has none
    // such (process 2 never acts; storage with no write).
    let text = "\
{:type :info, :f :pause, :process :nemesis, :time 0, :value \"c1\"}
{:type :info, :f :pause, :process :nemesis, :time 1000, :value \"c3\"}
{:type :info, :f :start-partition, :process :nemesis, :time 1000, :value [\"c1\" \"storage\"]}
{:type :invoke, :f :acquire, :process 0, :time 2000000}
{:type :fail, :f :acquire, :process 0, :time 3000000}
";
    let rec = recorded::parse(text).unwrap();
    let t = recorded::to_trace(&rec);
    let paused: Vec<NodeId> = t
        .entries
        .iter()
        .filter(|e| matches!(e.event, Event::Paused { .. }))
        .map(|e| e.node)
        .collect();
    assert_eq!(paused, [C1]);
    assert!(!t
        .entries
        .iter()
        .any(|e| matches!(e.event, Event::LinkCut { .. })));
    let notes = rec.header.notes.unwrap();
    assert!(
        notes.starts_with("2 nemesis operation")
            && notes.contains("(on a node with no operations)"),
        "{notes}"
    );
}

#[test]
fn fenced_writes_from_a_history_are_judged_by_the_fence_they_carry() {
    // Process 0 (token 1) writes after process 1 (token 2) wrote: a stale write that
    // overwrote the newer holder's value.
    let text = "\
{:type :invoke, :f :acquire, :process 0, :time 0}
{:type :ok, :f :acquire, :process 0, :time 1000000, :value 1}
{:type :invoke, :f :acquire, :process 1, :time 2000000}
{:type :ok, :f :acquire, :process 1, :time 3000000, :value 2}
{:type :invoke, :f :write, :process 1, :time 4000000, :value [2 \"b\"]}
{:type :ok, :f :write, :process 1, :time 5000000, :value [2 \"b\"]}
{:type :invoke, :f :write, :process 0, :time 6000000, :value [1 \"a\"]}
{:type :ok, :f :write, :process 0, :time 7000000, :value [1 \"a\"]}
";
    let (v, _) = judged(text);
    let kinds: Vec<_> = v.violations.iter().map(|x| x.kind).collect();
    assert_eq!(
        kinds,
        [ViolationKind::StaleWrite, ViolationKind::LostUpdate]
    );
}

#[test]
fn refusals_name_the_line_and_the_key() {
    let ok = "{:type :invoke, :f :acquire, :process 0, :time 0}\n";
    let cases: [(String, u32, Option<&str>, &str); 9] = [
        (
            format!("{ok}{{:type :done, :f :acquire, :process 0, :time 1}}"),
            2,
            Some(":type"),
            ":done is not :invoke, :ok, :fail or :info",
        ),
        (
            format!("{ok}{{:type :ok, :f :acquire, :time 1}}"),
            2,
            Some(":process"),
            "missing",
        ),
        (
            format!("{ok}{{:type :ok, :f :cas, :process 0, :time 1}}"),
            2,
            Some(":f"),
            "unknown operation :cas",
        ),
        (
            format!("{ok}garbage here"),
            2,
            None,
            "expected an operation",
        ),
        (format!("{ok}{{:type :ok :f}}"), 2, None, "not valid EDN"),
        (
            format!("{ok}{{:type :ok, :f :acquire, :process 0}}"),
            2,
            Some(":time"),
            "missing",
        ),
        (
            format!("{ok}{{:type :ok, :f :acquire, :process 0, :time 1, :value 0}}"),
            2,
            Some(":value"),
            "token 0 is out of range",
        ),
        (
            format!("{ok}{ok}"),
            2,
            Some(":type"),
            "invokes again before its operation on line 1 completed",
        ),
        (
            "{\"type\":\"ok\",\"f\":\"acquire\",\"process\":\"p1\",\"time\":1}".into(),
            1,
            Some("process"),
            "\"p1\" is neither a process number",
        ),
    ];
    for (text, line, field, says) in cases {
        let e = refused(&text);
        assert_eq!(e.line, line, "{e}");
        assert_eq!(e.field.as_deref(), field, "{e}");
        assert!(e.to_string().contains(says), "{e} — wanted {says:?}");
    }
    // A ninth process is past the model's eight clients.
    let nine: String = (0..9)
        .map(|p| format!("{{:type :invoke, :f :acquire, :process {p}, :time {p}}}\n"))
        .collect();
    let e = refused(&nine);
    assert_eq!((e.line, e.field.as_deref()), (9, Some(":process")));
    // Our own NDJSON is still told apart, and still refused in its own words.
    assert_eq!(jepsen::detect("{\"leaseline_trace\":1,\"type\":2}"), None);
    assert!(refused("{\"t_us\":1}")
        .to_string()
        .contains("leaseline_trace"));
}

/// `run --format jepsen`, read back: the same safety verdict, the same violation kinds
/// and overlaps, for every built-in scenario. Effects and fence refusals are not in a
/// Jepsen lock history, so duplicate effects and rejection counts are left out of it.
#[test]
fn a_run_written_as_a_jepsen_history_reads_back_to_the_same_verdict() {
    let (mut checked, mut skipped) = (0, Vec::new());
    for (name, sc) in every_scenario() {
        let trace = simulate(&sc).unwrap();
        let v = check(&trace);
        let text = jepsen::export(&trace);
        // A write its client stopped waiting for is `:info` in a Jepsen history, and
        // where it landed later is not in the history at all: those runs are told apart.
        if text.contains(":type :info, :f :write") {
            skipped.push(name);
            continue;
        }
        // Reads are not in a lock history either: a lost update told by the versions a
        // read-modify-write read (no lock involved) cannot be seen from it.
        if trace
            .entries
            .iter()
            .any(|e| matches!(e.event, Event::ReadServed { .. }))
        {
            skipped.push(name);
            continue;
        }
        let rec = recorded::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}\n{text}"));
        let w = check(&recorded::to_trace(&rec));
        let kinds = |v: &Verdict| {
            let mut k: Vec<_> = v
                .violations
                .iter()
                .filter(|x| x.kind != ViolationKind::DuplicateEffect)
                .map(|x| (x.kind, x.nodes.clone()))
                .collect();
            k.dedup();
            k
        };
        assert_eq!(kinds(&w), kinds(&v), "{name}\n{text}");
        let spans = |v: &Verdict| {
            v.overlaps
                .iter()
                .map(|o| (o.from, o.clients.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(spans(&w), spans(&v), "{name}\n{text}");
        checked += 1;
    }
    println!("{checked} read back the same; left out, an indeterminate write: {skipped:?}");
    assert!(checked > 20 && skipped.len() < 6, "{checked} {skipped:?}");
}

/// A model run written as a history and read back keeps its faults where they were: who
/// paused, and which link was cut — client 1 cut from the lock service and not from storage
/// stays so, not read as the lock service's (a client's GC pause drawn on the lock
/// service's lane, one client's partition as every client's). The
/// export names the nodes in `:value` (`"c1"`, `["c1" "coord"]`), and the reader reads
/// those names back. Compared for every built-in run with one lock service node, no crash
/// (written as a kill, read as a pause) and every faulted client in the history.
#[test]
fn a_run_written_as_a_jepsen_history_keeps_who_paused_and_which_link_was_cut() {
    // A node as the history names it: client cN is process N − 1.
    let model = |n: NodeId| match n {
        NodeId::Client(i) => format!("process {i}"),
        NodeId::Coord(_) => "lock service".to_string(),
        NodeId::Storage => "storage".to_string(),
    };
    let faults = |t: &leaseline::model::trace::Trace, name: &dyn Fn(NodeId) -> String| {
        t.entries
            .iter()
            .filter_map(|e| match &e.event {
                // Its length is the resume's (or the run's end: a history does not say).
                Event::Paused { .. } => Some((e.t.0, name(e.node), "paused".into())),
                Event::Resumed => Some((e.t.0, name(e.node), "resumed".into())),
                Event::LinkCut { peer } => {
                    Some((e.t.0, name(e.node), format!("cut from {}", name(*peer))))
                }
                Event::LinkHealed { peer } => {
                    Some((e.t.0, name(e.node), format!("healed with {}", name(*peer))))
                }
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let (mut compared, mut with_faults) = (0, 0);
    for (name, sc) in every_scenario() {
        let trace = simulate(&sc).unwrap();
        let crashes = trace.entries.iter().any(|e| {
            matches!(e.event, Event::Crashed { .. }) || matches!(e.node, NodeId::Coord(i) if i > 0)
        });
        if crashes {
            continue;
        }
        let rec = recorded::parse(&jepsen::export(&trace)).unwrap();
        let back = recorded::to_trace(&rec);
        let names: Vec<String> = rec.header.nodes.iter().map(|n| n.name.clone()).collect();
        let read = |n: NodeId| {
            let i = back.nodes.iter().position(|(m, _)| *m == n).unwrap();
            names[i].clone()
        };
        let want = faults(&trace, &model);
        // A fault on a client that never acted is not in the history (it has no process).
        if want.iter().any(|(_, n, _)| !names.contains(n)) {
            continue;
        }
        compared += 1;
        with_faults += usize::from(!want.is_empty());
        assert_eq!(faults(&back, &read), want, "{name}");
    }
    println!("{compared} runs compared, {with_faults} with faults");
    assert!(
        compared > 40 && with_faults > 15,
        "{compared} {with_faults}"
    );
}

#[test]
fn check_trace_reads_an_edn_history_and_says_its_assumptions() {
    let dir = std::env::temp_dir().join(format!("leaseline-jepsen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("h.edn");
    std::fs::write(
        &path,
        "{:type :invoke, :f :acquire, :process 3, :time 1200000000}\n{:type :info, :f :acquire, :process 3, :time 1500000000}\n",
    )
    .unwrap();
    let args: Vec<String> = ["check-trace", path.to_str().unwrap()]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = leaseline::cli::run(&args, &mut out, &mut err);
    let out = String::from_utf8(out).unwrap();
    assert_eq!(code, 0, "{}", String::from_utf8(err).unwrap());
    assert!(out.contains("source jepsen (EDN)"), "{out}");
    assert!(
        out.contains("assumed: process 3 (c1)'s acquire at 1.200s (line 2) is indeterminate"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
