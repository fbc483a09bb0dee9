//! The documented example runs and shows what the doc says it shows.

use leaseline::analysis::check::{check, ViolationKind};
use leaseline::model::scenario::Scenario;
use leaseline::model::sim::simulate;

fn example() -> String {
    let doc = include_str!("../docs/scenario-format.md");
    let start = doc.rfind("```json\n{").expect("a complete example") + "```json\n".len();
    let end = start + doc[start..].find("```").expect("closing fence");
    doc[start..end].to_string()
}

#[test]
fn the_documented_example_runs_as_described() {
    let sc = Scenario::from_json(&example()).unwrap_or_else(|e| panic!("{e}"));
    let v = check(&simulate(&sc).unwrap());
    println!("{}", v.summary());
    assert_eq!(
        v.rejections.first().map(|r| r.reason.as_str()),
        Some("token 1 < 2")
    );
    assert_eq!(v.stats.stale_writes_accepted, 0);
    assert!(v
        .violations
        .iter()
        .any(|x| x.kind == ViolationKind::DuplicateEffect));

    let mut fixed = sc.clone();
    fixed.storage.idempotency = true;
    assert!(check(&simulate(&fixed).unwrap()).safe);
}

#[test]
fn a_broken_example_is_refused_with_the_field_named() {
    let broken = example().replace("\"at_ms\": 45000", "\"at_ms\": 450000");
    let e = Scenario::from_json(&broken).unwrap_err();
    assert_eq!(e.to_string(), "faults[1].at_ms: later than the horizon");
}

/// docs/trace-format.md: its complete example is judged as the doc says (two believers, a
/// stale write accepted that overwrote client 2's update), and each refusal it shows is
/// what the reader says for such a file.
#[test]
fn the_recorded_trace_doc_says_what_the_reader_does() {
    use leaseline::model::recorded;
    let doc = include_str!("../docs/trace-format.md");
    let start = doc.rfind("```json\n{").expect("a complete example") + "```json\n".len();
    let end = start + doc[start..].find("```").expect("closing fence");
    let rec = recorded::parse(&doc[start..end]).unwrap_or_else(|e| panic!("{e}"));
    let v = check(&recorded::to_trace(&rec));
    assert_eq!(v.overlaps.len(), 1);
    let kinds: Vec<_> = v.violations.iter().map(|x| x.kind).collect();
    assert_eq!(
        kinds,
        [ViolationKind::StaleWrite, ViolationKind::LostUpdate]
    );

    // The refusals the doc shows, each from a file that earns it.
    let header = r#"{"leaseline_trace":1,"nodes":[{"name":"a","role":"client"},{"name":"l","role":"lock service"}]}"#;
    let event = |t: u64, e: &str| format!(r#"{{"t_us":{t},"node":"a","event":"{e}"}}"#);
    let mut seven: Vec<String> = vec![header.into()];
    seven.extend((0..5).map(|t| event(t, "acquire_sent")));
    seven.push(r#"{"t_us":9,"node":"a","event":"granted","ttl_ms":1,"token":"abc"}"#.into());
    let mut twelve: Vec<String> = vec![header.into()];
    twelve.extend((0..7).map(|t| event(t, "acquire_sent")));
    twelve.push(event(1_500_000, "acquire_sent"));
    let on_l = |e: &str| format!(r#"{{"t_us":1500000,"node":"l","event":"{e}"}}"#);
    twelve.extend([on_l("pause_began"), on_l("pause_ended")]);
    twelve.push(event(1_200_000, "acquire_sent"));
    let cases = [
        seven.join("\n"),
        header.replace("\"leaseline_trace\":1", "\"leaseline_trace\":2"),
        twelve.join("\n"),
        [
            header,
            &event(0, "job_started"),
            &event(1, "acquire_sent"),
            r#"{"t_us":2,"node":"a" "event":"acquire_failed"}"#,
        ]
        .join("\n"),
    ];
    let shown: Vec<String> = cases
        .iter()
        .map(|c| recorded::parse(c).unwrap_err().to_string())
        .collect();
    let refusals = doc
        .split("## Refusals")
        .nth(1)
        .and_then(|r| r.split("```text\n").nth(1))
        .and_then(|r| r.split("```").next())
        .expect("the refusals block");
    assert_eq!(refusals.lines().collect::<Vec<_>>(), shown);
}

/// One planted bug of `make mutants`: its name, its file, and the text it replaces.
#[derive(Default)]
struct Planted {
    name: String,
    file: String,
    old: String,
    new: String,
}

/// The planted bugs in scripts/mutants.txt, read by the same rules as scripts/mutants.sh:
/// `## bug:`, `## file:`, then the lines under `## old:` and `## new:`, each text without
/// the blank lines at its end.
fn planted_bugs() -> Vec<Planted> {
    let mut bugs: Vec<Planted> = Vec::new();
    let mut section: Option<bool> = None; // Some(true): old, Some(false): new
    for line in include_str!("../scripts/mutants.txt").lines() {
        if let Some(name) = line.strip_prefix("## bug: ") {
            bugs.push(Planted {
                name: name.to_string(),
                ..Planted::default()
            });
            section = None;
        } else if let Some(file) = line.strip_prefix("## file: ") {
            bugs.last_mut().expect("a bug before its file").file = file.to_string();
            section = None;
        } else if line == "## old:" || line == "## new:" {
            section = Some(line == "## old:");
        } else if let (Some(old), Some(bug)) = (section, bugs.last_mut()) {
            let text = if old { &mut bug.old } else { &mut bug.new };
            text.push_str(line);
            text.push('\n');
        } else {
            assert!(
                line.is_empty() || line == "#" || line.starts_with("# "),
                "scripts/mutants.txt: a line outside any bug text: {line}"
            );
        }
    }
    for bug in &mut bugs {
        for text in [&mut bug.old, &mut bug.new] {
            text.truncate(text.trim_end_matches('\n').len());
        }
    }
    bugs
}

#[test]
fn every_planted_bug_still_matches_the_code_exactly_once() {
    let bugs = planted_bugs();
    assert!(bugs.len() >= 10, "{} planted bugs", bugs.len());
    for (i, Planted { name, file, old, new }) in bugs.iter().enumerate() {
        let n = i + 1;
        assert!(
            !name.is_empty() && !file.is_empty() && !old.is_empty(),
            "bug {n}: a name, a file and an old text"
        );
        assert_ne!(old, new, "bug {n} ({name}) changes nothing");
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let code = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("bug {n} ({name}): {file}: {e}"));
        let found = code.matches(old.as_str()).count();
        assert_eq!(
            found, 1,
            "bug {n} ({name}): its old text occurs {found} times in {file}, not once: \
             move it with the code in scripts/mutants.txt\n{old}"
        );
    }
}
