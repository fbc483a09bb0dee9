//! The documented example runs and shows what the doc says it shows.

use leaseline::analysis::check::{check, ViolationKind};
use leaseline::model::scenario::Scenario;
use leaseline::model::sim::simulate;

fn example() -> String {
    let doc = include_str!("../../docs/scenario-format.md");
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

/// The complete example of docs/scenario-format.md with the doc's example of the top-level
/// field `key` added to it, read.
fn example_with(key: &str) -> Scenario {
    let doc = include_str!("../../docs/scenario-format.md");
    let start = doc
        .find(&format!("```json\n\"{key}\""))
        .unwrap_or_else(|| panic!("the {key} example"))
        + "```json\n".len();
    let end = start + doc[start..].find("```").expect("closing fence");
    let example = example();
    let at = example.rfind('}').expect("the example's closing brace");
    let with = format!("{},\n{}}}", example[..at].trim_end(), &doc[start..end]);
    Scenario::from_json(&with).unwrap_or_else(|e| panic!("{e}\n{with}"))
}

/// docs/scenario-format.md's walkthrough example reads inside the complete example, and its
/// beats are told on that run's events; the run is the same with or without them.
#[test]
fn the_documented_walkthrough_reads_and_changes_no_run() {
    let sc = example_with("walkthrough");
    assert_eq!(sc.walkthrough.len(), 2);
    let plain = Scenario::from_json(&example()).unwrap();
    let (a, b) = (simulate(&sc).unwrap(), simulate(&plain).unwrap());
    assert_eq!(
        a.entries, b.entries,
        "the walkthrough changes nothing the model does"
    );
    let told = leaseline::teach::authored::place(&sc.walkthrough, &a);
    assert!(told.iter().all(Option::is_some), "{told:?}");
}

/// docs/scenario-format.md's question example reads inside the complete example, changes
/// no run, and is graded by that run as the doc's words say: storage refuses client 1's
/// late write (the second choice), and the run holds just before that refusal.
#[test]
fn the_documented_question_is_graded_by_the_run() {
    use leaseline::teach::course::{Complete, Quiz};
    let sc = example_with("questions");
    assert_eq!(sc.questions.len(), 1);
    let plain = Scenario::from_json(&example()).unwrap();
    let t = simulate(&sc).unwrap();
    assert_eq!(t.entries, simulate(&plain).unwrap().entries);
    let q = Quiz::<Complete>::of_author(&sc).unwrap();
    let ask = q.ask(&sc, &t).unwrap();
    assert_eq!(ask.answer, Some(1), "the fence refuses the late write");
    let i = q.hold(&sc, &t).unwrap();
    assert_eq!(
        leaseline::model::trace::json::kind(&t.entries[i].event),
        "write_rejected"
    );
    // The JSON written back carries the question as it was read.
    assert_eq!(Scenario::from_json(&sc.to_json_pretty()).unwrap(), sc);
}

/// docs/trace-format.md: its complete example is judged as the doc says (two believers, a
/// stale write accepted that overwrote client 2's update), and each refusal it shows is
/// what the reader says for such a file.
#[test]
fn the_recorded_trace_doc_says_what_the_reader_does() {
    use leaseline::model::recorded;
    let doc = include_str!("../../docs/trace-format.md");
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
    for line in include_str!("../../scripts/mutants.txt").lines() {
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
    for (
        i,
        Planted {
            name,
            file,
            old,
            new,
        },
    ) in bugs.iter().enumerate()
    {
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

// ---------------------------------------------------------------------------------------
// README.md, docs/testing.md and docs/lab.md: what they state is checked against the code.

fn repo_file(path: &str) -> String {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The command-line tool's output and exit code for `args`, as `cargo run -q --` prints it.
fn cli(args: &[&str]) -> (i32, String) {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = leaseline::cli::run(&args, &mut out, &mut err);
    let text = String::from_utf8(out).unwrap() + &String::from_utf8(err).unwrap();
    (code, text)
}

/// The README's command-line examples run, and print what their comments and the
/// paragraph under them say; its picture's story (tokens 33 and 34) is the run's.
#[test]
fn the_readme_cli_examples_print_what_the_readme_says() {
    let readme = include_str!("../../README.md");
    let block = readme
        .split("```sh\ncargo run -q -- run gc-pause ")
        .nth(1)
        .map(|rest| {
            format!(
                "cargo run -q -- run gc-pause {}",
                &rest[..rest.find("```").unwrap()]
            )
        })
        .expect("the README's block of command-line examples");
    let commands: Vec<&str> = block
        .lines()
        .map(|l| {
            let cmd = l.split(" #").next().unwrap().trim();
            cmd.strip_prefix("cargo run -q -- ")
                .unwrap_or_else(|| panic!("not a `cargo run -q --` line: {l}"))
        })
        .collect();
    // What each shows, as the README says it: the verdict, and the words it prints.
    let shows: [(&str, &[&str]); 3] = [
        (
            "run gc-pause",
            &["UNSAFE", "two believers", "StaleWrite", "LostUpdate"],
        ),
        (
            "run gc-pause --fence monotone",
            &["SAFE:", "rejects c1's write to account:42: token 33 < 34"],
        ),
        (
            "explore gc-pause --clean",
            &["1. stale_write", "1 added fault", "open: #sc="],
        ),
    ];
    assert_eq!(
        commands,
        shows.map(|(c, _)| c),
        "the README's examples changed: update this test"
    );
    for (cmd, words) in shows {
        let (code, out) = cli(&cmd.split_whitespace().collect::<Vec<_>>());
        assert_eq!(code, 0, "{cmd}: {out}");
        for w in words {
            assert!(out.contains(w), "`{cmd}` does not print {w:?}:\n{out}");
        }
    }
    // The caption's tokens are the run's: client 1 is granted 33, then client 2 34.
    let run = simulate(&leaseline::teach::course::open("gc-pause").unwrap()).unwrap();
    let grants: Vec<(String, u64)> = run
        .entries
        .iter()
        .filter_map(|e| match &e.event {
            leaseline::model::trace::Event::LeaseGranted { client, token, .. } => {
                Some((client.to_string(), *token))
            }
            _ => None,
        })
        .collect();
    assert_eq!(grants, [("c1".to_string(), 33), ("c2".to_string(), 34)]);
    assert!(readme.contains("Client 1 takes the lock with token 33"));
    assert!(readme.contains("client 2 takes the lock with token 34"));
    assert!(readme.contains("`token 33 < 34`"));
}

/// The README is a front door, not a manual: under 120 lines (the rest is in docs/).
#[test]
fn the_readme_stays_short() {
    let lines = include_str!("../../README.md").lines().count();
    assert!(lines < 120, "README.md is {lines} lines");
}

/// The README's picture is the recorder's GIF of the run it names, and stays small.
#[test]
fn the_readme_gif_is_a_small_recording_of_gc_pause() {
    let readme = include_str!("../../README.md");
    assert!(readme.contains("](docs/leaseline.gif)"));
    assert!(readme.contains("`cargo run -q -- record gc-pause --gif docs/leaseline.gif"));
    let gif = include_bytes!("../../docs/leaseline.gif");
    assert!(gif.starts_with(b"GIF89a"), "not a GIF");
    assert!(
        gif.len() < 500_000,
        "docs/leaseline.gif is {} bytes",
        gif.len()
    );
    // The recorder writes the run's link into the file (docs/recording.md).
    assert!(
        gif.windows(11).any(|w| w == b"#s=gc-pause"),
        "no #s=gc-pause link in it"
    );
}

/// GitHub's anchor for a Markdown heading: lower case, spaces to `-`, other punctuation
/// dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// Every relative link in the README and in docs/testing.md and docs/lab.md names a file or
/// folder that exists, and every `#anchor` a heading in it.
#[test]
fn every_relative_link_in_the_readme_and_the_new_docs_exists() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for doc in ["README.md", "docs/testing.md", "docs/lab.md"] {
        let text = repo_file(doc);
        let dir = std::path::Path::new(doc).parent().unwrap();
        let mut links = 0;
        for rest in text.split("](").skip(1) {
            let target = &rest[..rest.find(')').expect("a closing parenthesis")];
            if target.starts_with("http://") || target.starts_with("https://") {
                continue;
            }
            links += 1;
            let (path, hash) = target.split_once('#').unwrap_or((target, ""));
            let file = if path.is_empty() {
                root.join(doc)
            } else {
                root.join(dir).join(path)
            };
            assert!(file.exists(), "{doc}: link to {target}: no such file");
            if !hash.is_empty() {
                let linked = std::fs::read_to_string(&file).unwrap();
                assert!(
                    linked
                        .lines()
                        .filter_map(|l| l.strip_prefix('#'))
                        .map(|h| anchor(h.trim_start_matches('#')))
                        .any(|a| a == hash),
                    "{doc}: link to {target}: no such heading"
                );
            }
        }
        assert!(links > 0, "{doc} has no relative links");
    }
}

/// The tier names `make test` runs, in order: the Makefile's `$(STEP) "NAME"` lines under
/// `test:`.
fn makefile_tiers() -> Vec<String> {
    let makefile = include_str!("../../Makefile");
    let target = makefile
        .split("\ntest: ")
        .nth(1)
        .expect("the Makefile's test target");
    target
        .split("\n\n")
        .next()
        .unwrap()
        .lines()
        .filter_map(|l| l.split("$(STEP) \"").nth(1))
        .map(|rest| rest[..rest.find('"').unwrap()].to_string())
        .collect()
}

/// docs/testing.md lists every tier of `make test` by the name it prints, in the Makefile's
/// order, and the figures it gives are the Makefile's and rust-toolchain.toml's.
#[test]
fn the_testing_doc_lists_the_makefiles_tiers_in_order() {
    let doc = include_str!("../../docs/testing.md");
    let tiers = makefile_tiers();
    assert!(tiers.len() > 10, "{tiers:?}");
    let listed: Vec<(usize, String)> = doc
        .lines()
        .filter_map(|l| {
            let (n, rest) = l.split_once(". **")?;
            let n: usize = n.parse().ok()?;
            Some((n, rest[..rest.find("**")?].to_string()))
        })
        .collect();
    assert_eq!(
        listed.iter().map(|(_, t)| t.clone()).collect::<Vec<_>>(),
        tiers,
        "docs/testing.md's tiers against the Makefile's"
    );
    assert!(listed.iter().enumerate().all(|(i, (n, _))| *n == i + 1));
    // Its example of a failed run counts the tiers before the one named.
    let bundle = tiers.iter().position(|t| t == "bundle size").unwrap();
    assert!(doc.contains(&format!("`tiers: {bundle} passed, 1 failed (bundle size)`")));
    // `make fuzz`'s size, and the toolchain.
    assert!(doc.contains("raises `LEASELINE_FUZZ_N`\nto a million inputs per parser"));
    assert!(
        include_str!("../../Makefile").contains("LEASELINE_FUZZ_N=$${LEASELINE_FUZZ_N:-1000000}")
    );
    let channel = include_str!("../../rust-toolchain.toml")
        .lines()
        .find_map(|l| l.strip_prefix("channel = \""))
        .and_then(|v| v.strip_suffix('"'))
        .expect("rust-toolchain.toml's channel");
    assert!(doc.contains(&format!("(Rust {channel})")), "Rust {channel}");
}

/// docs/lab.md's table lists every lab scenario with the model's verdict, and the timings it
/// gives are the lab's own constants.
#[test]
fn the_lab_doc_lists_every_lab_scenario_with_its_verdict() {
    let doc = include_str!("../../docs/lab.md");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/lab/scenarios");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter_map(|f| f.strip_suffix(".json").map(str::to_string))
        .collect();
    files.sort();
    let mut rows: Vec<(String, bool)> = doc
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("| `")?;
            let name = &rest[..rest.find('`')?];
            let verdict = l.trim_end_matches('|').rsplit('|').next()?.trim();
            Some((name.to_string(), verdict.starts_with("safe")))
        })
        .collect();
    rows.sort();
    assert_eq!(
        rows.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>(),
        files,
        "docs/lab.md's table against tools/lab/scenarios/"
    );
    for (name, safe) in &rows {
        let sc = Scenario::from_json(&repo_file(&format!("tools/lab/scenarios/{name}.json")))
            .unwrap_or_else(|e| panic!("{name}: {e:?}"));
        // A 2 s lease; ZooKeeper's session is 4 s, twice the shortest its sample tick allows.
        let ttl = match sc.coordinator.flavor {
            leaseline::model::scenario::Flavor::Zookeeper => 4000,
            _ => 2000,
        };
        assert!(
            sc.clients.iter().all(|c| c.ttl_ms == ttl),
            "{name}: a {ttl} ms TTL"
        );
        assert_eq!(
            check(&simulate(&sc).unwrap()).safe,
            *safe,
            "{name}'s verdict"
        );
    }
    let main = repo_file("tools/lab/src/main.rs");
    assert!(
        main.contains("const ETCD_SCAN_MS: i64 = leaseline::model::flavors::etcd::LESSOR_SCAN_MS;")
    );
    assert!(
        repo_file("src/model/flavors/etcd.rs").contains("pub const LESSOR_SCAN_MS: i64 = 500;")
            && doc.contains("every 500 ms")
    );
    assert!(main.contains("const TARGET_MS: i64 = 50;") && doc.contains("±50 ms"));
    assert!(repo_file("tools/lab/src/etcd.rs").contains("pub const POLL_MS: u64 = 20;"));
    assert!(doc.contains("polls the\nkey every 20 ms"));
}

/// docs/scenario-format.md lists every pause cause by its word and its label, and the
/// complete example still reads with a cause added to a pause.
#[test]
fn the_format_doc_lists_every_pause_cause() {
    use leaseline::model::scenario::PauseCause;
    let doc = include_str!("../../docs/scenario-format.md");
    for c in PauseCause::ALL {
        let row = doc
            .lines()
            .find(|l| l.starts_with(&format!("| `{}`", c.name())))
            .unwrap_or_else(|| panic!("no row for `{}`", c.name()));
        assert!(row.contains(c.label()), "{row}");
    }
    let with_cause = example().replacen(
        "\"fault\": \"partition\", \"a\": \"c1\", \"b\": \"coord\" },",
        "\"fault\": \"partition\", \"a\": \"c1\", \"b\": \"coord\" },\n    { \"at_ms\": 5000, \"fault\": \"pause\", \"node\": \"c2\", \"for_ms\": 1000, \"cause\": \"vm_migration\" },",
        1,
    );
    assert_ne!(with_cause, example());
    Scenario::from_json(&with_cause).unwrap_or_else(|e| panic!("{e}"));
    let e = Scenario::from_json(&with_cause.replace("vm_migration", "vm-migration")).unwrap_err();
    assert!(e.to_string().starts_with("faults[1].cause: "), "{e}");
}

/// Every `make <target>` the README and the docs give a reader to run is a target of the
/// Makefile: a course author who types the embedding guide's `make dist` gets the page,
/// not "No rule to make target".
#[test]
fn every_make_command_in_the_docs_is_a_makefile_target() {
    let makefile = repo_file("Makefile");
    let targets: Vec<&str> = makefile
        .lines()
        .filter_map(|l| l.split_once(':').map(|(t, _)| t))
        .filter(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_lowercase() || b == b'-'))
        .collect();
    let mut docs = vec!["README.md".to_string()];
    for entry in
        std::fs::read_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs")).unwrap()
    {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".md") {
            docs.push(format!("docs/{name}"));
        }
    }
    let mut named = 0;
    for path in &docs {
        let text = repo_file(path);
        // In code: after a backtick, or at the start of a line of a shell block.
        let commands = text
            .match_indices("`make ")
            .map(|(i, _)| &text[i + 6..])
            .chain(
                text.lines()
                    .map(str::trim_start)
                    .filter_map(|l| l.strip_prefix("make ")),
            );
        for rest in commands {
            let target: String = rest
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                .collect();
            assert!(
                targets.contains(&target.as_str()),
                "{path} says `make {target}`, which the Makefile does not have (its targets: {targets:?})"
            );
            named += 1;
        }
    }
    assert!(named >= 8, "found only {named} make commands in the docs");
}
