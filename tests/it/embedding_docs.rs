//! docs/embedding.md stays true to the code: its fragment keys are the ones `share` reads,
//! its example links and refused links behave as it says, its postMessage examples are what
//! `embed` accepts and writes (and what the default run really sends), its CSP header is the
//! one the end-to-end test serves, and the example host page it links to exists.

use leaseline::analysis::check::{check, ViolationKind};
use leaseline::model::scenario::{FenceWord, Flavor, LIMITS};
use leaseline::model::sim::simulate;
use leaseline::session::embed::{self, Command, Event};
use leaseline::session::share::{self, MAX_FRAGMENT};
use leaseline::view::playback::Cursor;
use leaseline::vocab::json::{self, Json};
use std::collections::BTreeSet;

const COMMANDS: [&str; 4] = ["play", "pause", "seek", "load"];
const EVENTS: [&str; 7] = [
    "ready",
    "cursor",
    "violation",
    "quiz_answered",
    "resize",
    "statement",
    "error",
];

fn read(path: &str) -> String {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn doc() -> String {
    read("docs/embedding.md")
}

/// The text of the `## ` section whose heading starts with `title`, up to the next one.
fn section(doc: &str, title: &str) -> String {
    let start = doc
        .find(&format!("\n## {title}"))
        .unwrap_or_else(|| panic!("no section \"## {title}\""))
        + 1;
    let end = doc[start + 3..]
        .find("\n## ")
        .map_or(doc.len(), |i| start + 3 + i);
    doc[start..end].to_string()
}

/// The contents of every fenced block opened with exactly "```lang" (indentation removed).
fn blocks(text: &str, lang: &str) -> Vec<String> {
    let mut out = Vec::new();
    // The open block: its language, its fence's indentation, and its lines so far.
    let mut open: Option<(String, usize, Vec<String>)> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match open.take() {
            None => {
                if let Some(l) = trimmed.strip_prefix("```") {
                    open = Some((l.trim().to_string(), indent, Vec::new()));
                }
            }
            Some((l, _, lines)) if trimmed == "```" => {
                if l == lang {
                    out.push(lines.join("\n"));
                }
            }
            Some((l, ind, mut lines)) => {
                lines.push(line.get(ind.min(indent)..).unwrap_or("").to_string());
                open = Some((l, ind, lines));
            }
        }
    }
    assert!(open.is_none(), "an unclosed code block");
    out
}

/// The cells of each row of every Markdown table in `text` (header and rule left out).
fn table_rows(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut header_seen = false;
    for line in text.lines() {
        let line = line.trim();
        if !line.starts_with('|') {
            header_seen = false;
            continue;
        }
        let cells: Vec<String> = line
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_string())
            .collect();
        if !header_seen {
            header_seen = true; // the header row
        } else if !cells.iter().all(|c| c.chars().all(|ch| ch == '-')) {
            rows.push(cells);
        }
    }
    rows
}

/// The contents of each `inline code` span.
fn code_spans(text: &str) -> Vec<String> {
    text.split('`')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s.to_string())
        .collect()
}

/// The fragment keys `share::decode` reads: the `KEYS` array in src/session/share/mod.rs.
fn source_keys() -> Vec<String> {
    let src = read("src/session/share/mod.rs");
    let at = src
        .find("const KEYS")
        .expect("const KEYS in src/session/share/mod.rs");
    let open = at + src[at..].find("= [").expect("KEYS = [") + 3;
    let close = open + src[open..].find("];").expect("KEYS ends with ];");
    let keys: Vec<String> = src[open..close]
        .split(',')
        .map(|k| k.trim().trim_matches('"').to_string())
        .filter(|k| !k.is_empty())
        .collect();
    assert!(!keys.is_empty());
    keys
}

fn str_field(v: &Json, key: &str) -> String {
    match v.get(key) {
        Some(Json::Str(s)) => s.clone(),
        other => panic!("{key}: expected a string, got {other:?}"),
    }
}

fn int_field(v: &Json, key: &str) -> i128 {
    match v.get(key) {
        Some(Json::Int(n)) => *n,
        other => panic!("{key}: expected an integer, got {other:?}"),
    }
}

/// Every ```json block of the doc, parsed, with its `type`.
fn json_examples() -> Vec<(String, Json, String)> {
    blocks(&doc(), "json")
        .into_iter()
        .map(|text| {
            let v = json::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            let kind = str_field(&v, "type");
            (kind, v, text)
        })
        .collect()
}

#[test]
fn every_fragment_key_is_in_the_key_table_and_nothing_else_is() {
    let keys = source_keys();
    // The list read from the source is the list decode accepts.
    assert!(share::decode("#nosuchkey=1")
        .unwrap_err()
        .starts_with("link: unknown key"));
    for k in &keys {
        if let Err(e) = share::decode(&format!("#{k}=")) {
            assert!(!e.starts_with("link:"), "{k} is not read: {e}");
        }
    }
    let doc = doc();
    let fragment = section(&doc, "The fragment");
    let rows: Vec<Vec<String>> = table_rows(&fragment)
        .into_iter()
        .filter(|r| r.len() == 4)
        .collect();
    let table: BTreeSet<String> = rows.iter().map(|r| code_spans(&r[0]).concat()).collect();
    let source: BTreeSet<String> = keys.iter().cloned().collect();
    assert_eq!(table, source, "the key table's keys are share.rs's KEYS");

    for row in &rows {
        let key = code_spans(&row[0]).concat();
        let examples: Vec<String> = code_spans(&row[3])
            .into_iter()
            .filter(|s| s.starts_with('#'))
            .collect();
        assert!(!examples.is_empty(), "{key}: no example link");
        for ex in examples {
            let v = share::decode(&ex).unwrap_or_else(|e| panic!("{ex}: {e}"));
            let uses = ex[1..]
                .split('&')
                .any(|p| p.split_once('=').map(|(k, _)| k) == Some(key.as_str()));
            assert!(uses, "{ex} does not use {key}=");
            if ex.contains("embed=1") {
                assert!(v.embed, "{ex}");
            }
        }
    }
    // The value lists: every flavor and fence word the code knows, and only those.
    let values = |key: &str| -> Vec<String> {
        let row = rows
            .iter()
            .find(|r| code_spans(&r[0]).concat() == key)
            .unwrap_or_else(|| panic!("no row for {key}"));
        code_spans(&row[2])
    };
    let flavors: Vec<String> = Flavor::names().split('|').map(String::from).collect();
    assert_eq!(values("flavor"), flavors);
    let fences: Vec<String> = FenceWord::names().split(", ").map(String::from).collect();
    assert_eq!(values("fence"), fences);
    for f in values("fence") {
        assert!(
            share::decode(&format!("#s=gc-pause&fence={f}")).is_ok(),
            "fence={f}"
        );
    }
}

#[test]
fn refused_links_give_the_documented_messages_and_limits_are_as_stated() {
    let doc = doc();
    let fragment = section(&doc, "The fragment");
    let rows: Vec<Vec<String>> = table_rows(&fragment)
        .into_iter()
        .filter(|r| r.len() == 2)
        .collect();
    assert!(rows.len() >= 4, "the table of refused links");
    for row in &rows {
        let link = code_spans(&row[0]).concat();
        let message = code_spans(&row[1]).concat();
        assert_eq!(share::decode(&link).err(), Some(message), "{link}");
    }

    assert!(doc.contains("64 KiB") && MAX_FRAGMENT == 64 * 1024);
    assert!(doc.contains("256 KiB") && LIMITS.max_json_bytes == 256 * 1024);
    let long = format!("#s=gc-pause&panel={}", "a".repeat(MAX_FRAGMENT));
    assert!(share::decode(&long).unwrap_err().starts_with("link:"));
    assert!(doc.contains("512 KiB"));
    let big = format!(
        r#"{{"leaseline":1,"type":"play","x":"{}"}}"#,
        "a".repeat(512 * 1024)
    );
    assert!(embed::parse(&big).unwrap_err().contains("512 KiB"));
}

#[test]
fn every_command_example_is_accepted_and_every_command_has_one() {
    let mut seen = BTreeSet::new();
    let (mut by_name, mut by_object) = (false, false);
    for (kind, _, text) in json_examples() {
        if !COMMANDS.contains(&kind.as_str()) {
            continue;
        }
        let cmd = embed::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        let matches = match (&cmd, kind.as_str()) {
            (Command::Play, "play") | (Command::Pause, "pause") | (Command::Seek(_), "seek") => {
                true
            }
            (Command::Open(_), "load") => {
                by_name = true;
                true
            }
            (Command::Load(_), "load") => {
                by_object = true;
                true
            }
            _ => false,
        };
        assert!(matches, "{kind}: parsed as {cmd:?}");
        seen.insert(kind);
    }
    let all: BTreeSet<String> = COMMANDS.iter().map(|s| s.to_string()).collect();
    assert_eq!(seen, all);
    assert!(
        by_name && by_object,
        "load by name and with a scenario object"
    );
}

#[test]
fn every_event_example_is_what_encode_writes_for_the_default_run() {
    let doc = doc();
    let sc = leaseline::teach::course::open(share::DEFAULT_SCENARIO).expect("the default scenario");
    let trace = simulate(&sc).expect("the default scenario runs");
    let verdict = check(&trace);
    // The messages the doc shows as refused: an error event must be one of their answers.
    let refusals: Vec<String> = code_spans(&doc)
        .into_iter()
        .filter(|s| s.starts_with('{') && s.contains("\"leaseline\""))
        .filter_map(|s| embed::parse(&s).err())
        .collect();

    let mut seen = BTreeSet::new();
    for (kind, v, text) in json_examples() {
        if COMMANDS.contains(&kind.as_str()) {
            continue;
        }
        let event = match kind.as_str() {
            "ready" => {
                let digest = str_field(&v, "digest");
                assert_eq!(digest, trace.digest_hex(), "the default run's digest");
                Event::Ready { digest }
            }
            "cursor" => {
                let (t_ms, step, steps) = (
                    int_field(&v, "t_ms"),
                    int_field(&v, "step") as usize,
                    int_field(&v, "steps") as usize,
                );
                assert_eq!(steps, trace.len());
                assert_eq!(step, Cursor::at_time(&trace, t_ms as f64).step);
                Event::Cursor {
                    t_ms: t_ms as i64,
                    step,
                    steps,
                }
            }
            "violation" => {
                let e = Event::Violation {
                    kind: str_field(&v, "kind"),
                    t_ms: int_field(&v, "t_ms") as i64,
                    cause: str_field(&v, "cause"),
                };
                let real = verdict.violations.iter().any(|x| {
                    e == Event::Violation {
                        kind: x.kind.name().to_string(),
                        t_ms: trace.entries[x.entry as usize].t.0,
                        cause: x.cause.clone(),
                    }
                });
                assert!(real, "not a violation of the default run: {text}");
                e
            }
            "quiz_answered" => {
                let question = int_field(&v, "question") as usize;
                assert!(question < leaseline::teach::quiz::QUESTIONS.len());
                Event::QuizAnswered {
                    question,
                    stop: int_field(&v, "stop") as usize,
                    right: matches!(v.get("right"), Some(Json::Bool(true))),
                }
            }
            "resize" => {
                // Ours is the first of the fit-to-content messages, which ask for the same
                // height in each convention.
                let height = int_field(&v, "height") as i64;
                let ours = leaseline::session::fit::messages(height).remove(0);
                assert_eq!(ours, json::compact(&v), "{text}");
                seen.insert(kind);
                continue;
            }
            "statement" => statement_example(&v),
            "error" => {
                let message = str_field(&v, "message");
                assert!(
                    refusals.contains(&message),
                    "no message in the doc is refused with \"{message}\" (refusals: {refusals:?})"
                );
                Event::Error { message }
            }
            other => panic!("a json example of unknown type {other}"),
        };
        assert_eq!(embed::encode(&event), json::compact(&v), "{text}");
        seen.insert(kind);
    }
    let all: BTreeSet<String> = EVENTS.iter().map(|s| s.to_string()).collect();
    assert_eq!(seen, all);

    for k in [
        ViolationKind::StaleWrite,
        ViolationKind::LostUpdate,
        ViolationKind::TokenRegression,
        ViolationKind::DuplicateEffect,
    ] {
        let name = k.name();
        assert!(doc.contains(&format!("`{name}`")), "violation kind {name}");
    }
    // The refusals quoted in the validation paragraph are what parse says.
    for quoted in [
        "speed: not a field of a \"play\" message",
        "scenario.clients[0].ttl_ms: expected a whole number, found a string",
    ] {
        assert!(doc.contains(&format!("`{quoted}`")), "{quoted}");
    }
    assert!(refusals.iter().any(|r| r.starts_with("speed:")));
    let bad_ttl = r#"{"leaseline":1,"type":"load","scenario":{"version":1,"seed":1,"horizon_ms":1000,"clients":[{"ttl_ms":"long","job":[{"op":"acquire"}]}]}}"#;
    assert_eq!(
        embed::parse(bad_ttl).err().as_deref(),
        Some("scenario.clients[0].ttl_ms: expected a whole number, found a string")
    );
}

/// A statement the doc shows, checked against the question it names: its name is the
/// question's, its response one of the stop's choices, and its success what the question's
/// run says of that choice.
fn statement_example(v: &Json) -> Event {
    use leaseline::session::embed::Statement;
    use leaseline::teach::quiz::QUESTIONS;
    let verb = match str_field(v, "verb").as_str() {
        "answered" => "answered",
        other => panic!("the doc's statement example is an answer, not {other}"),
    };
    let object = v.get("object").expect("an object");
    let id = str_field(object, "id");
    let q = id
        .strip_prefix("quiz=")
        .and_then(|n| n.parse::<usize>().ok())
        .and_then(|n| QUESTIONS.get(n - 1))
        .unwrap_or_else(|| panic!("{id}: not a question"));
    assert_eq!(str_field(object, "kind"), "question");
    assert_eq!(str_field(object, "name"), q.asks);
    let result = v.get("result").expect("a result");
    let stop = int_field(result, "stop") as usize;
    let response = str_field(result, "response");
    let picked = q.stops[stop]
        .choices
        .iter()
        .position(|c| c.text == response)
        .unwrap_or_else(|| panic!("{response}: not a choice of stop {stop}"));
    let run = simulate(&leaseline::teach::course::open(q.scenario).unwrap()).unwrap();
    let success = q.stops[stop].answer(&run) == Some(picked);
    assert_eq!(result.get("success"), Some(&Json::Bool(success)));
    Event::Statement(Statement {
        verb,
        object: ("question", id, q.asks.to_string()),
        result: vec![("stop", stop as i64)],
        success: Some(success),
        response: Some(response),
    })
}

#[test]
fn the_csp_header_is_the_one_the_end_to_end_test_serves() {
    let js = read("tests/e2e/static.test.mjs");
    let at = js
        .find("const CSP = [")
        .expect("const CSP in static.test.mjs");
    let end = at + js[at..].find("].join('; ')").expect("the CSP's join");
    let parts: Vec<&str> = js[at..end]
        .split('"')
        .enumerate()
        .filter(|(i, _)| i % 2 == 1)
        .map(|(_, s)| s)
        .collect();
    assert!(parts.contains(&"script-src 'self' 'wasm-unsafe-eval'"));
    let header = format!("Content-Security-Policy: {}", parts.join("; "));
    let doc = doc();
    let hosting = section(&doc, "Hosting rules");
    assert!(
        blocks(&hosting, "").iter().any(|b| b.trim() == header),
        "docs/embedding.md must show, in a code block: {header}"
    );

    // No inline script for the policy to allow: boot.js starts the app, as the doc says.
    assert!(!read("index.html").contains("<script"));
    let trunk = read("Trunk.toml");
    let pattern = trunk
        .lines()
        .find(|l| l.starts_with("pattern_script"))
        .expect("pattern_script in Trunk.toml");
    for part in ["{base}boot.js", "data-js=", "data-wasm="] {
        assert!(pattern.contains(part), "{part}");
    }
    // first-paint.js reads the tag's files and chooses the build; boot.js starts it.
    let choose = read("static/first-paint.js");
    assert!(choose.contains("'data-js'") && choose.contains("'data-wasm'"));
    let boot = read("static/boot.js");
    assert!(boot.contains("dataset.js") && boot.contains("leaselineBuild"));
    assert!(hosting.contains("pattern_script") && hosting.contains("boot.js"));
}

#[test]
fn the_example_host_page_and_the_share_snippet_are_as_described() {
    let doc = doc();
    let host = read("examples/host.html");
    assert!(doc.contains("](../examples/host.html)"));
    assert!(host.contains("<iframe id=\"leaseline\" title=\""));
    for part in ["embed=1", "origins=", "e.source !== frame.contentWindow"] {
        assert!(host.contains(part), "host.html: {part}");
    }

    // The snippet is the Share dialog's: embed=1, a title, the same attributes.
    let snippet = blocks(&doc, "html")
        .into_iter()
        .find(|b| b.contains("<iframe"))
        .expect("an iframe snippet");
    let src = snippet
        .split("src=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("src");
    let fragment = src
        .split_once('#')
        .expect("a fragment")
        .1
        .replace("&amp;", "&");
    let v = share::decode(&fragment).unwrap_or_else(|e| panic!("{fragment}: {e}"));
    assert!(v.embed);
    let title = snippet
        .split(" title=\"Leaseline: ")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("a title");
    let share::Source::Named(name) = &v.source else {
        panic!("the snippet names a scenario")
    };
    let sc = leaseline::teach::course::open(name).unwrap();
    assert_eq!(title, sc.name);
    // What the Share dialog writes for that link and title, with its options as a new
    // dialog has them, is the doc's snippet, exactly.
    let link = src.replace("&amp;", "&");
    let opts = share::EmbedOptions::default();
    assert_eq!(share::iframe_snippet(&link, title, &opts), snippet.trim());
    assert_eq!(
        share::iframe_snippet("https://x.example/#s=a&embed=1", "<b> & \"c\"", &opts),
        "<iframe src=\"https://x.example/#s=a&amp;embed=1\" title=\"Leaseline: &lt;b&gt; &amp; &quot;c&quot;\" width=\"640\" height=\"420\" style=\"border:0\" loading=\"lazy\"></iframe>"
    );
    // The sizes the doc names are the dialog's presets and limits.
    for i in 0..share::SIZES.len() {
        let label = share::EmbedOptions::label(i);
        assert!(doc.contains(&format!("**{label}**")), "{label}");
    }
    let (w, h) = (share::snippet::WIDTHS, share::snippet::HEIGHTS);
    let limits = format!(
        "a width of {} to {} and a height of {} to {} pixels",
        w.start(),
        w.end(),
        h.start(),
        h.end()
    );
    assert!(doc.contains(&limits), "{limits}");
}

/// "Bad links": a refused link keeps its `embed=1` and nothing else — not `origins=`, not
/// `view=` — as the section says.
#[test]
fn a_bad_link_keeps_only_its_embed_as_the_doc_says() {
    use leaseline::session::Session;
    let d = section(&doc(), "The fragment");
    assert!(
        d.contains("A bad link keeps one thing: its `embed=1`."),
        "{d}"
    );
    assert!(d.contains("`origins=` and `view=`\nincluded"), "{d}");
    assert!(!d.contains("loses its `embed=1`"));
    let bad =
        Session::opened_at("#s=gc-pause&embed=1&view=diagram&origins=https://a.example&t=abc");
    assert!(bad.doc.error.as_deref().unwrap().starts_with("t:"));
    assert!(bad.embed.on, "the frame stays an embed");
    assert!(
        bad.embed.origins.is_empty(),
        "origins= is dropped with the rest"
    );
    assert!(!bad.embed.diagram_only, "view= is dropped with the rest");
}

/// The fit-to-content script the Share dialog's code loads is the one the build ships, and
/// the doc names it as the code writes it.
#[test]
fn the_fit_script_is_shipped_and_named_as_the_snippet_writes_it() {
    use leaseline::session::share::snippet::FIT_SCRIPT;
    let script = read(&format!("static/{FIT_SCRIPT}"));
    assert!(
        script.contains("d.type !== 'resize'"),
        "it follows resize events"
    );
    assert!(read("index.html").contains(&format!("href=\"static/{FIT_SCRIPT}\"")));
    let mut o = share::EmbedOptions::from_link("");
    o.fit = true;
    let code = share::iframe_snippet(
        "https://courses.example/locks/leaseline/#s=gc-pause&embed=1",
        "T",
        &o,
    );
    let line = code.lines().last().expect("a line");
    assert!(doc().contains(&format!("`{line}`")), "{line}");
}
