//! Fuzzing every parser a user can reach, with generated inputs:
//!
//! - scenario JSON (`Scenario::from_json`: an imported file, the editor, a link's `sc=`);
//! - the link fragment (`share::decode`, and `link::parse`, which reads through it);
//! - the embed host message (`embed::parse`: what a host page posts to an embed);
//! - a recorded trace (`model::recorded::read`: a real run's NDJSON, `leaseline check-trace`),
//!   and a Jepsen lock history (EDN or JSON) read through the same entry point.
//!
//! For each input: the parser must not panic (each call runs under `catch_unwind`, so the
//! count of panics is real and every panicking input is printed), and every refusal must
//! name its field — the precise rule for each parser is above its checker below.
//!
//! Sizes: `LEASELINE_FUZZ_N` inputs per parser (default: 100,000 scenarios, 100,000
//! fragments, 20,000 host messages, 5,000 recorded traces and 2,000 Jepsen histories — what
//! `cargo test` runs in
//! `make test`). `make fuzz`
//! sets it to 1,000,000. Inputs come from the project's own PRNG (`sim::rng`); each parser
//! has its own seed, printed in its summary line, and `LEASELINE_FUZZ_SEED` replaces it.

use crate::common;
use leaseline::analysis::check::check;
use leaseline::model::scenario::{FenceMode, Scenario, ScenarioError, LIMITS};
use leaseline::model::sim::rng::Rng;
use leaseline::model::sim::run;
use leaseline::session::embed;
use leaseline::session::link;
use leaseline::session::share::{base64url, decode, encode, lz, Source, ViewState, MAX_FRAGMENT};
use leaseline::teach::presets::PRESETS;
use leaseline::vocab::json::{self, Json};
use serde_json::Value;
use std::panic::{catch_unwind, AssertUnwindSafe};

// ---------------------------------------------------------------------------------------
// The harness: sizes, seeds, per-input panic catching, the summary line.

/// Inputs per parser: `LEASELINE_FUZZ_N` if set, else `default` (the CI size).
fn inputs(default: u64) -> u64 {
    match std::env::var("LEASELINE_FUZZ_N") {
        Ok(s) => s
            .trim()
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| panic!("LEASELINE_FUZZ_N={s:?} is not a whole number")),
        Err(_) => default,
    }
}

/// The PRNG seed: `LEASELINE_FUZZ_SEED` (decimal or 0x-hex) if set, else `default`.
fn seed(default: u64) -> u64 {
    match std::env::var("LEASELINE_FUZZ_SEED") {
        Ok(s) => {
            let s = s.trim();
            match s.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => s.parse(),
            }
            .unwrap_or_else(|_| panic!("LEASELINE_FUZZ_SEED={s:?} is not a number"))
        }
        Err(_) => default,
    }
}

/// How many offending inputs of one kind are printed in full before the rest are only
/// counted.
const SHOWN: u64 = 5;

/// One parser's run: counts, and the offending inputs printed as they are met.
struct Fuzz {
    parser: &'static str,
    seed: u64,
    n: u64,
    panics: u64,
    refused: u64,
    accepted: u64,
    /// Refusals that broke the field-naming rule (or another check on a refusal).
    unnamed: u64,
}

impl Fuzz {
    fn new(parser: &'static str, seed: u64, n: u64) -> Fuzz {
        Fuzz {
            parser,
            seed,
            n,
            panics: 0,
            refused: 0,
            accepted: 0,
            unnamed: 0,
        }
    }

    /// Calls `f` on input number `i`, catching a panic: it is counted, the input printed
    /// (Rust string syntax, every byte recoverable) and `None` returned.
    fn call<T>(&mut self, i: u64, input: &str, what: &str, f: impl FnOnce() -> T) -> Option<T> {
        match catch_unwind(AssertUnwindSafe(f)) {
            Ok(t) => Some(t),
            Err(_) => {
                self.panics += 1;
                if self.panics <= SHOWN {
                    eprintln!(
                        "fuzz: {}: PANIC in {what} on input #{i} (seed {:#x}); the input: {input:?}",
                        self.parser, self.seed
                    );
                }
                None
            }
        }
    }

    /// Records a refusal; `verdict` is the field-naming rule's answer for it.
    fn refusal(&mut self, i: u64, input: &str, error: &str, verdict: Result<(), String>) {
        self.refused += 1;
        if let Err(why) = verdict {
            self.unnamed += 1;
            if self.unnamed <= SHOWN {
                let cut = input
                    .char_indices()
                    .nth(600)
                    .map_or(input.len(), |(j, _)| j);
                eprintln!(
                    "fuzz: {}: a refusal that does not name its field, input #{i} (seed {:#x}): \
                     {why}\n  error: {error:?}\n  input ({} bytes): {:?}{}",
                    self.parser,
                    self.seed,
                    input.len(),
                    &input[..cut],
                    if cut < input.len() { "…" } else { "" }
                );
            }
        }
    }

    /// Prints the summary line, then fails on any panic or unnamed refusal.
    fn finish(self, accepted_what: &str) {
        println!(
            "fuzz: {} {} inputs, {} panics, {} refused ({}), {} {accepted_what}; seed {:#x}",
            self.parser,
            self.n,
            self.panics,
            self.refused,
            if self.unnamed == 0 {
                "every refusal names its field".to_string()
            } else {
                format!("{} DO NOT name their field", self.unnamed)
            },
            self.accepted,
            self.seed
        );
        assert_eq!(
            self.panics, 0,
            "{}: inputs panicked (printed above)",
            self.parser
        );
        assert_eq!(
            self.unnamed, 0,
            "{}: refusals did not name their field (printed above)",
            self.parser
        );
    }
}

// ---------------------------------------------------------------------------------------
// Generators.

fn extreme(r: &mut Rng) -> Value {
    match r.range_i64(0, 11) {
        0 => Value::from(i64::MAX),
        1 => Value::from(i64::MIN),
        2 => Value::from(u64::MAX),
        3 => Value::from(-1),
        4 => Value::from(0),
        5 => Value::from(1e300),
        6 => Value::from("c9"),
        7 => Value::Null,
        8 => Value::from(r.range_i64(-100_000, 100_000)),
        9 => Value::from(vec![Value::Null; 3]),
        10 => Value::from("x".repeat(100)),
        _ => Value::Bool(true),
    }
}

/// Keys a hostile document may carry: empty, or spelled like a path or an error.
const ODD_KEYS: [&str; 7] = ["", "a.b", "x[0]", "t_ms: 1", " ", "\u{e9}t\u{e9}", "\\n"];

/// Replaces one random leaf (or drops or adds one key) somewhere in the document.
fn mutate(v: &mut Value, r: &mut Rng) {
    match v {
        Value::Object(map) if !map.is_empty() => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let k = &keys[r.range_i64(0, keys.len() as i64 - 1) as usize];
            match r.range_i64(0, 6) {
                0 => {
                    map.remove(k);
                }
                1 => {
                    map.insert(k.clone(), extreme(r));
                }
                2 => {
                    map.insert(format!("{k}_typo"), Value::from(1));
                }
                3 if r.chance_pct(25) => {
                    let odd = ODD_KEYS[r.range_i64(0, ODD_KEYS.len() as i64 - 1) as usize];
                    map.insert(odd.to_string(), extreme(r));
                }
                _ => {
                    if let Some(child) = map.get_mut(k) {
                        mutate(child, r)
                    }
                }
            }
        }
        Value::Array(items) if !items.is_empty() => {
            let i = r.range_i64(0, items.len() as i64 - 1) as usize;
            match r.range_i64(0, 4) {
                0 => {
                    items.remove(i);
                }
                1 => {
                    let dup = items[i].clone();
                    for _ in 0..r.range_i64(1, 40) {
                        items.push(dup.clone());
                    }
                }
                _ => mutate(&mut items[i], r),
            }
        }
        leaf => *leaf = extreme(r),
    }
}

fn byte_noise(s: &str, r: &mut Rng) -> String {
    let mut b: Vec<u8> = s.as_bytes().to_vec();
    for _ in 0..r.range_i64(1, 8) {
        if b.is_empty() {
            break;
        }
        let i = r.range_i64(0, b.len() as i64 - 1) as usize;
        match r.range_i64(0, 3) {
            0 => {
                b.remove(i);
            }
            1 => b.insert(i, b"{}[],:\"0-e\\"[r.range_i64(0, 10) as usize]),
            2 => b.truncate(i),
            _ => b[i] = r.next_u64() as u8,
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// One to three lines dropped, repeated or swapped: order and causality broken.
fn reorder(lines: &mut Vec<String>, r: &mut Rng) {
    for _ in 0..r.range_i64(1, 4) {
        let a = r.range_i64(0, lines.len() as i64 - 1) as usize;
        let b = r.range_i64(0, lines.len() as i64 - 1) as usize;
        match r.range_i64(0, 2) {
            0 => lines.swap(a, b),
            1 => {
                let dup = lines[a].clone();
                lines.insert(b, dup)
            }
            _ => {
                if lines.len() > 1 {
                    lines.remove(a);
                }
            }
        }
    }
}

fn ascii_junk(r: &mut Rng, max: i64) -> String {
    (0..r.range_i64(0, max))
        .map(|_| char::from(r.range_i64(32, 126) as u8))
        .collect()
}

/// Scenario documents to mutate: every preset, and 50 random scenarios.
fn scenario_seeds() -> Vec<String> {
    let mut seeds: Vec<String> = PRESETS
        .iter()
        .map(|p| p.scenario().to_json_pretty())
        .collect();
    for s in 0..50 {
        seeds.push(common::scenario(s, FenceMode::Monotone).to_json_pretty());
    }
    seeds
}

/// Whole documents no mutation of a good one reaches: nesting, huge numbers, other roots,
/// and sizes around the limit.
fn hostile_scenarios() -> Vec<String> {
    let good = PRESETS[0].scenario().to_json_pretty();
    vec![
        format!("{}{}", "[".repeat(10_000), "]".repeat(10_000)),
        format!("{}1{}", "{\"a\":".repeat(5_000), "}".repeat(5_000)),
        format!("{}{}", "{\"a\":".repeat(20), "}".repeat(20)),
        good.replace(
            "\"seed\": ",
            "\"seed\": 99999999999999999999999999999999999",
        ),
        good.replace("\"horizon_ms\": ", "\"horizon_ms\": -"),
        good[..good.len() / 2].to_string(),
        good.replacen('{', "{\"\": 1, ", 1),
        good.replacen('{', "{\"name\": \"dup\", ", 1),
        good.replace(
            "\"description\": \"",
            &format!("\"description\": \"{}", "d".repeat(LIMITS.max_json_bytes)),
        ),
        "\u{0}\u{1}not json".to_string(),
        String::new(),
        "[]".to_string(),
        "\"a scenario\"".to_string(),
        "null".to_string(),
        "{}".to_string(),
        " ".repeat(LIMITS.max_json_bytes + 1),
    ]
}

/// One generated scenario text: byte noise, JSON-level mutations, ASCII junk or a
/// hostile document, in a fixed rotation.
fn scenario_text(i: u64, seeds: &[String], hostile: &[String], r: &mut Rng) -> String {
    let base = &seeds[(i as usize) % seeds.len()];
    match i % 4 {
        0 => byte_noise(base, r),
        3 if i % 64 == 3 => ascii_junk(r, 200),
        3 if i % 64 == 7 => hostile[(i / 64) as usize % hostile.len()].clone(),
        _ => {
            let mut v: Value = serde_json::from_str(base).unwrap();
            for _ in 0..r.range_i64(1, 3) {
                mutate(&mut v, r);
            }
            v.to_string()
        }
    }
}

// ---------------------------------------------------------------------------------------
// The field-naming rule of scenario errors.

/// Where a path leads in a parsed document.
#[derive(PartialEq, Debug)]
enum Found {
    /// To a value that is there.
    Present,
    /// To a key that is absent (or null) in an object that is there: a missing field, or
    /// one whose default conflicts with its neighbours.
    Absent,
    Nowhere,
}

/// A key as an error names it: the empty key is written `""`.
fn spelled(key: &str) -> &str {
    if key.is_empty() {
        "\"\""
    } else {
        key
    }
}

/// Follows an error path (`clients[0].job[2].ms`) through a document. Keys may themselves
/// contain `.` or `[` (an unknown field is named as written, the empty one as `""`), so
/// every key of an object that the path starts with is tried.
fn follow(v: &Json, rest: &str, top: bool) -> Found {
    if rest.is_empty() {
        return Found::Present;
    }
    match v {
        Json::Arr(items) => {
            let Some(inner) = rest.strip_prefix('[') else {
                return Found::Nowhere;
            };
            let Some((digits, after)) = inner.split_once(']') else {
                return Found::Nowhere;
            };
            match digits.parse::<usize>().ok().and_then(|i| items.get(i)) {
                Some(item) => follow(item, after, false),
                None => Found::Nowhere,
            }
        }
        Json::Obj(kv) => {
            let r = if top {
                Some(rest)
            } else {
                rest.strip_prefix('.')
            };
            let Some(r) = r else {
                return Found::Nowhere;
            };
            for (k, child) in kv {
                let Some(after) = r.strip_prefix(spelled(k)) else {
                    continue;
                };
                if after.is_empty() {
                    return if *child == Json::Null {
                        Found::Absent
                    } else {
                        Found::Present
                    };
                }
                if after.starts_with(['.', '[']) {
                    let f = follow(child, after, false);
                    if f != Found::Nowhere {
                        return f;
                    }
                }
            }
            // A field of the format is a plain word; an absent one is named as such.
            if !r.is_empty() && !r.contains(['.', '[']) {
                Found::Absent
            } else {
                Found::Nowhere
            }
        }
        _ => Found::Nowhere,
    }
}

/// The rule for a refusal of `Scenario::from_json(text)`:
///
/// - if the text is a JSON object (within the size limit), the error's `path` is not empty,
///   it is written `path: message`, and the path leads through the document to a value
///   that is there, or to an absent key of an object that is there (a missing field);
/// - otherwise — too large, not JSON, or a root that is not an object — the document
///   itself is at fault and the path is empty: the message is the size limit, the JSON
///   reader's own error (which gives the line and column), or "expected an object".
fn scenario_rule(text: &str, e: &ScenarioError) -> Result<(), String> {
    if e.message.is_empty() {
        return Err("an empty message".into());
    }
    if text.len() > LIMITS.max_json_bytes {
        return match (e.path.is_empty(), e.message.starts_with("input is ")) {
            (true, true) => Ok(()),
            _ => Err("too large, yet not refused by the size limit".into()),
        };
    }
    let doc = match json::parse(text) {
        Ok(doc) => doc,
        Err(syntax) if e.path.is_empty() && e.message == syntax => return Ok(()),
        Err(syntax) => return Err(format!("not JSON ({syntax}), yet refused otherwise")),
    };
    if !matches!(doc, Json::Obj(_)) {
        return match e.path.is_empty() && e.message.starts_with("expected an object") {
            true => Ok(()),
            false => Err("the root is not an object, yet refused otherwise".into()),
        };
    }
    if e.path.is_empty() {
        return Err("a JSON object refused without a field path".into());
    }
    if e.to_string() != format!("{}: {}", e.path, e.message) {
        return Err("not written `path: message`".into());
    }
    match follow(&doc, &e.path, true) {
        Found::Nowhere => Err(format!("the path {:?} is not in the document", e.path)),
        _ => Ok(()),
    }
}

// ---------------------------------------------------------------------------------------
// Scenario JSON.

#[test]
fn scenario_json_never_panics_and_every_refusal_names_its_field() {
    let n = inputs(100_000);
    let mut fuzz = Fuzz::new("scenario JSON", seed(0xF022), n);
    let mut r = Rng::new(fuzz.seed);
    let seeds = scenario_seeds();
    let hostile = hostile_scenarios();
    for i in 0..n {
        let text = scenario_text(i, &seeds, &hostile, &mut r);
        let Some(parsed) = fuzz.call(i, &text, "Scenario::from_json", || {
            Scenario::from_json(&text)
        }) else {
            continue;
        };
        match parsed {
            // Every accepted scenario is also run and checked (a sample would do, but at
            // a few per cent accepted this costs about half the test's time). The limits
            // allow a million entries per run: correct, but slow to do tens of thousands
            // of times, so runs are cut at 5,000.
            Ok(mut sc) => {
                fuzz.accepted += 1;
                sc.max_events = sc.max_events.min(5_000);
                fuzz.call(i, &text, "run + check of an accepted scenario", || {
                    check(&run(&sc))
                });
            }
            Err(e) => fuzz.refusal(i, &text, &e.to_string(), scenario_rule(&text, &e)),
        }
    }
    let (accepted, refused) = (fuzz.accepted, fuzz.refused);
    fuzz.finish("accepted, run and checked");
    if n >= 10_000 {
        assert!(
            accepted > n / 100 && refused > n / 10,
            "the mutator must exercise both paths"
        );
    }
}

// ---------------------------------------------------------------------------------------
// The link fragment.

/// Every scenario name a link can carry: presets, lessons and their fixes.
fn names() -> Vec<String> {
    use leaseline::teach::course::fixes;
    use leaseline::teach::library::LESSONS;
    let mut v: Vec<String> = PRESETS.iter().map(|p| p.name.to_string()).collect();
    for l in LESSONS {
        v.push(l.id.to_string());
        v.extend(fixes(l.id).into_iter().map(|f| f.scenario));
    }
    v
}

/// Compresses and packs arbitrary text as an `sc=` value, valid at every layer below JSON.
fn sc_of(text: &str) -> String {
    format!("#sc={}", base64url::encode(&lz::compress(text.as_bytes())))
}

fn mutate_link(link: &str, r: &mut Rng) -> String {
    let mut b: Vec<u8> = link.as_bytes().to_vec();
    let at = |r: &mut Rng, b: &Vec<u8>| r.range_i64(0, b.len().max(1) as i64 - 1) as usize;
    for _ in 0..r.range_i64(1, 4) {
        let i = at(r, &b);
        match r.range_i64(0, 6) {
            0 => b.truncate(i),
            1 if i < b.len() => b[i] = b"AZaz09-_=&#%s,/:"[r.range_i64(0, 15) as usize],
            2 if i < b.len() => b[i] = r.next_u64() as u8,
            3 => b.insert(i.min(b.len()), b"&=9x\xff"[r.range_i64(0, 4) as usize]),
            4 => b.extend_from_slice(
                [
                    &b"&t=99999999999999999999999"[..],
                    b"&seed=18446744073709551616",
                    b"&beat=4294967297",
                    b"&quiz=0",
                    b"&embed=1",
                    b"&panel=x",
                    b"&flavor=redis",
                    b"&origins=https://a.example,http://localhost:8000",
                    b"&origins=https://a.example/path",
                    b"&chapter=2",
                ][r.range_i64(0, 9) as usize],
            ),
            _ if i < b.len() => {
                b.remove(i);
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// The keys of a link, and `link` (the fragment itself).
const LINK_KEYS: [&str; 18] = [
    "link", "s", "sc", "seed", "fence", "flavor", "t", "step", "z", "rec", "beat", "chapter",
    "quiz", "panel", "embed", "autoplay", "view", "origins",
];

/// The `sc=` value as text, if it gets through base64url, decompression and UTF-8.
fn unpacked(value: &str) -> Option<String> {
    let bytes = base64url::decode(value)?;
    let text = lz::decompress(&bytes, LIMITS.max_json_bytes).ok()?;
    String::from_utf8(text).ok()
}

/// The rule for a refusal of `share::decode(fragment)`: the error is `key: message`, at
/// most 400 bytes, where
///
/// - `key` is `link` only for the fragment as a whole: too long, a pair that is not
///   `key=value`, or an unknown key;
/// - any other key is one of the link's keys, and the fragment carries it (`key=...`);
/// - a refused `sc=` whose value unpacks to text is refused by the scenario reader: the
///   message is exactly `Scenario::from_json`'s error, which follows the scenario rule.
fn link_rule(fragment: &str, e: &str) -> Result<(), String> {
    if e.len() > 400 {
        return Err(format!("{} bytes long", e.len()));
    }
    let Some((key, message)) = e.split_once(": ") else {
        return Err("not written `key: message`".into());
    };
    if !LINK_KEYS.contains(&key) {
        return Err(format!("{key:?} is not a key of a link"));
    }
    if message.is_empty() {
        return Err("an empty message".into());
    }
    let body = fragment.strip_prefix('#').unwrap_or(fragment);
    let value_of = |key: &str| {
        body.split('&')
            .filter_map(|p| p.split_once('='))
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    };
    if key == "link" {
        let whole = if fragment.len() > MAX_FRAGMENT {
            message.starts_with("the fragment is ")
        } else {
            message.starts_with("unknown key \"") || message.ends_with("\" is not key=value")
        };
        return match whole {
            true => Ok(()),
            false => Err("`link` names a problem of one key".into()),
        };
    }
    let Some(value) = value_of(key) else {
        return Err(format!("the fragment has no {key}="));
    };
    if key == "sc" && !message.starts_with("a link has s= or sc=") {
        if let Some(text) = unpacked(value) {
            return match Scenario::from_json(&text) {
                Ok(_) => Err("refused a scenario its reader accepts".into()),
                Err(se) if se.to_string() == message => scenario_rule(&text, &se),
                Err(se) => Err(format!("not the scenario reader's error ({se})")),
            };
        }
    }
    Ok(())
}

#[test]
fn link_fragments_never_panic_and_every_refusal_names_its_key() {
    let n = inputs(100_000);
    let mut fuzz = Fuzz::new("link fragment", seed(0x5AA2E), n);
    let mut r = Rng::new(fuzz.seed);
    let mut bases: Vec<String> = names()
        .iter()
        .map(|n| {
            encode(&ViewState {
                source: Source::Named(n.clone()),
                seed: Some(7),
                fence: Some(FenceMode::Monotone.into()),
                t_ms: Some(1_000),
                ..ViewState::default()
            })
        })
        .collect();
    for seed in 0..40 {
        bases.push(encode(&ViewState {
            source: Source::Custom(common::scenario(seed, FenceMode::Monotone)),
            panel: Some("trace".into()),
            ..ViewState::default()
        }));
    }
    let mut hostile: Vec<String> = hostile_scenarios().iter().map(|s| sc_of(s)).collect();
    hostile.push(format!(
        "#sc={}",
        base64url::encode(&[0xff, 0xff, 0xff, 0xff, 0x0f])
    ));
    let scenarios = scenario_seeds();
    let (mut round_trips, mut menu) = (0u64, 0u64);
    for i in 0..n {
        let text = match i % 10 {
            0 => hostile[(i / 10) as usize % hostile.len()].clone(),
            1 => {
                // Random bytes after sc=, valid base64url of garbage.
                let junk: Vec<u8> = (0..r.range_i64(0, 300))
                    .map(|_| r.next_u64() as u8)
                    .collect();
                format!("#sc={}", base64url::encode(&junk))
            }
            2 => ascii_junk(&mut r, 80),
            3 if i % 1_000 == 3 => format!("#s=gc-pause&panel={}", "a".repeat(MAX_FRAGMENT)),
            // A mutated scenario, well packed: the scenario reader behind sc=.
            4 => {
                let t = scenario_text(i / 10, &scenarios, &[String::new()], &mut r);
                let mut link = sc_of(&t);
                if r.chance_pct(20) {
                    link.push_str("&t=5000&panel=trace");
                }
                link
            }
            _ => mutate_link(&bases[(i as usize / 10) % bases.len()], &mut r),
        };
        let Some(decoded) = fuzz.call(i, &text, "share::decode", || decode(&text)) else {
            continue;
        };
        // link::parse reads through share::decode: its answer must agree.
        let Some(menu_link) = fuzz.call(i, &text, "link::parse", || link::parse(&text)) else {
            continue;
        };
        let empty = text.strip_prefix('#').unwrap_or(&text).is_empty();
        let agree = match (&decoded, &menu_link) {
            (_, Ok(None)) => empty,
            (Err(a), Err(b)) => a == b,
            (Err(_), Ok(Some(_))) => false,
            (Ok(st), menu_link) => match (st.quiz, st.chapter, &st.source, menu_link) {
                (Some(q), _, _, Ok(Some(link::Target::Quiz(x)))) => q == *x,
                (None, Some(c), _, Ok(Some(link::Target::Chapter(x)))) => c == *x,
                (None, None, Source::Named(n), Ok(Some(link::Target::Scenario { name, beat }))) => {
                    n == name && st.beat == *beat
                }
                (None, None, Source::Custom(_), Err(b)) => b.starts_with("sc: "),
                _ => false,
            },
        };
        assert!(
            agree,
            "input #{i}: link::parse and share::decode disagree: {menu_link:?} / {decoded:?}; \
             the input: {text:?}"
        );
        menu += u64::from(menu_link.is_ok());
        match decoded {
            Ok(st) => {
                fuzz.accepted += 1;
                // Whatever a link decodes to, its own link decodes to the same state.
                let again = fuzz.call(i, &text, "share::decode of the re-encoded state", || {
                    decode(&encode(&st))
                });
                if let Some(again) = again {
                    assert_eq!(again.as_ref(), Ok(&st), "input #{i}: {text:?}");
                    round_trips += 1;
                }
            }
            Err(e) => {
                let verdict = link_rule(&text, &e);
                fuzz.refusal(i, &text, &e, verdict);
            }
        }
    }
    let (accepted, refused) = (fuzz.accepted, fuzz.refused);
    fuzz.finish(&format!(
        "accepted and re-encoded to the same state ({menu} also menu links)"
    ));
    assert_eq!(round_trips, accepted);
    if n >= 10_000 {
        assert!(
            accepted > n / 100 && refused > n * 3 / 10,
            "{accepted} ok, {refused} err"
        );
    }
}

// ---------------------------------------------------------------------------------------
// The embed host message.

/// The fields of the protocol's messages.
const MESSAGE_FIELDS: [&str; 4] = ["leaseline", "type", "t_ms", "scenario"];

/// The rule for a refusal of `embed::parse(text)`: the error is `field: message` with a
/// non-empty field, where
///
/// - `field` is `message` only for the message as a whole: too large (512 KiB), not JSON
///   (then the JSON reader's own error, with line and column, follows), or not an object;
/// - otherwise `field` is one of the protocol's fields (`leaseline`, `type`, `t_ms`,
///   `scenario`: present or missing) or a key the message carries (an unknown one);
/// - a key is named as written, the empty key as `""`;
/// - a refused scenario object is `scenario.` followed by `Scenario::from_json`'s error
///   for the object, which follows the scenario rule — or, when that error names no field
///   inside (the object's compact JSON is over the scenario size limit), `scenario: `
///   followed by it.
fn embed_rule(text: &str, e: &str) -> Result<(), String> {
    let whole = |m: &str| {
        e.strip_prefix("message: ")
            .is_some_and(|x| x.starts_with(m))
    };
    if text.len() > 512 * 1024 {
        return match whole("larger than") {
            true => Ok(()),
            false => Err("too large, yet not refused by the size limit".into()),
        };
    }
    let doc = match json::parse(text) {
        Ok(doc) => doc,
        Err(syntax) if whole(&syntax) => return Ok(()),
        Err(syntax) => return Err(format!("not JSON ({syntax}), yet refused otherwise")),
    };
    let Json::Obj(kv) = &doc else {
        return match whole("expected an object") {
            true => Ok(()),
            false => Err("not an object, yet refused otherwise".into()),
        };
    };
    // A well-formed load message (no other key to refuse) is refused for its scenario.
    let load = doc.get("type") == Some(&Json::Str("load".into()))
        && kv
            .iter()
            .all(|(k, _)| matches!(k.as_str(), "leaseline" | "type" | "scenario"));
    match (load, doc.get("scenario")) {
        (true, Some(obj @ Json::Obj(_)))
            if e.starts_with("scenario.") || e.starts_with("scenario: ") =>
        {
            let inner = json::compact(obj);
            return match Scenario::from_json(&inner) {
                Ok(_) => Err("refused a scenario its reader accepts".into()),
                Err(se) if se.path.is_empty() && e == format!("scenario: {se}") => {
                    scenario_rule(&inner, &se)
                }
                Err(se) if se.path.is_empty() => Err(format!(
                    "the scenario's error names no field inside it, and is not `scenario: ` \
                     + {se:?}"
                )),
                Err(se) if e == format!("scenario.{se}") => scenario_rule(&inner, &se),
                Err(se) => Err(format!(
                    "not `scenario.` + the scenario reader's error ({se})"
                )),
            };
        }
        _ => {}
    }
    let named = MESSAGE_FIELDS
        .iter()
        .copied()
        .chain(kv.iter().map(|(k, _)| spelled(k)))
        .any(|f| {
            e.strip_prefix(f)
                .and_then(|x| x.strip_prefix(": "))
                .is_some_and(|m| !m.is_empty())
        });
    match named {
        true => Ok(()),
        false => Err("names neither a protocol field nor a key of the message".into()),
    }
}

#[test]
fn embed_messages_never_panic_and_every_refusal_names_its_field() {
    let n = inputs(20_000);
    let mut fuzz = Fuzz::new("embed host message", seed(2026), n);
    let mut r = Rng::new(fuzz.seed);
    let scenario = |name: &str| {
        leaseline::teach::course::open(name)
            .unwrap()
            .to_json_pretty()
    };
    let mut seeds = vec![
        r#"{"leaseline":1,"type":"play"}"#.to_string(),
        r#"{"leaseline":1,"type":"pause"}"#.to_string(),
        r#"{"leaseline":1,"type":"seek","t_ms":30000}"#.to_string(),
        r#"{"leaseline":1,"type":"load","scenario":"gc-pause"}"#.to_string(),
        format!(
            r#"{{"leaseline":1,"type":"load","scenario":{}}}"#,
            scenario("gc-pause")
        ),
    ];
    for s in 0..10 {
        seeds.push(format!(
            r#"{{"leaseline":1,"type":"load","scenario":{}}}"#,
            common::scenario(s, FenceMode::Strict).to_json_pretty()
        ));
    }
    let load = |sc: &str| format!(r#"{{"leaseline":1,"type":"load","scenario":{sc}}}"#);
    let good = scenario("gc-pause");
    let hostile = [
        load(&good.replacen('{', "{\"\": 1, ", 1)),
        load(&good.replace(
            "\"description\": \"",
            &format!("\"description\": \"{}", "d".repeat(LIMITS.max_json_bytes)),
        )),
        load(&format!("{}1{}", "{\"a\":".repeat(40), "}".repeat(40))),
        load("{}"),
        load("[]"),
        load("\"\""),
        r#"{"leaseline":1,"type":"play","":1}"#.to_string(),
        r#"{"leaseline":1,"type":"seek","t_ms":1,"t_ms: 2":3}"#.to_string(),
        r#"{"leaseline":1.0,"type":"play"}"#.to_string(),
        r#"{"leaseline":"1","type":"play"}"#.to_string(),
        r#"{"leaseline":1,"type":"seek","t_ms":9223372036854775808}"#.to_string(),
        r#"{"leaseline":1,"type":"load","scenario":"GC-PAUSE"}"#.to_string(),
        format!(
            r#"{{"leaseline":1,"type":"play","pad":"{}"}}"#,
            "x".repeat(600_000)
        ),
        "[]".to_string(),
        "null".to_string(),
        String::new(),
    ];
    let noise = b"{}[]\":,0123456789-eE+.\\ntruefalsenull\x00\xff";
    for i in 0..n {
        let base = &seeds[(i as usize) % seeds.len()];
        let text = match i % 8 {
            // Cut, spliced and sprinkled with bytes a hostile page might send.
            0..=2 => {
                let mut m = base.clone().into_bytes();
                for _ in 0..r.range_i64(1, 6) {
                    let at = r.range_i64(0, m.len() as i64) as usize;
                    match r.range_i64(0, 3) {
                        0 => m.truncate(at),
                        1 => {
                            let b = noise[r.range_i64(0, noise.len() as i64 - 1) as usize];
                            m.insert(at.min(m.len()), b)
                        }
                        _ => {
                            if at < m.len() {
                                m.remove(at);
                            }
                        }
                    }
                }
                String::from_utf8_lossy(&m).into_owned()
            }
            3 => byte_noise(base, &mut r),
            4 if i % 64 == 4 => hostile[(i / 64) as usize % hostile.len()].clone(),
            4 if i % 64 == 12 => ascii_junk(&mut r, 120),
            // JSON-level: the envelope's fields and the scenario inside alike.
            _ => {
                let mut v: Value = serde_json::from_str(base).unwrap();
                for _ in 0..r.range_i64(1, 3) {
                    mutate(&mut v, &mut r);
                }
                v.to_string()
            }
        };
        let Some(parsed) = fuzz.call(i, &text, "embed::parse", || embed::parse(&text)) else {
            continue;
        };
        match parsed {
            Ok(_) => fuzz.accepted += 1,
            Err(e) => {
                let verdict = embed_rule(&text, &e);
                fuzz.refusal(i, &text, &e, verdict);
            }
        }
    }
    let (accepted, refused) = (fuzz.accepted, fuzz.refused);
    fuzz.finish("accepted");
    if n >= 10_000 {
        assert!(
            accepted > n / 100 && refused > n / 2,
            "{accepted} ok, {refused} err"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Fixed cases.

#[test]
fn errors_name_the_field() {
    let good = PRESETS[1].scenario();
    let mut v: Value = serde_json::from_str(&good.to_json_pretty()).unwrap();
    v["faults"][0]["at_ms"] = Value::from(10_000_000);
    let e = Scenario::from_json(&v.to_string()).unwrap_err();
    assert_eq!(e.to_string(), "faults[0].at_ms: later than the horizon");

    let mut v: Value = serde_json::from_str(&good.to_json_pretty()).unwrap();
    v["clients"][1]["ttl_ms"] = Value::from("thirty");
    let e = Scenario::from_json(&v.to_string()).unwrap_err();
    assert_eq!(e.path, "clients[1].ttl_ms", "{e}");

    let mut v: Value = serde_json::from_str(&good.to_json_pretty()).unwrap();
    v["clients"][0]["job"][1] = serde_json::json!({"op": "sleep", "ms": 5});
    let e = Scenario::from_json(&v.to_string()).unwrap_err();
    assert!(e.path.starts_with("clients[0].job[1]"), "{e}");

    let mut v: Value = serde_json::from_str(&good.to_json_pretty()).unwrap();
    v["faults"][0]["node"] = Value::from("c7");
    let e = Scenario::from_json(&v.to_string()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "faults[0].node: no node `c7` in this scenario"
    );

    let too_big = format!("{{\"pad\": \"{}\"}}", "x".repeat(300_000));
    assert!(Scenario::from_json(&too_big)
        .unwrap_err()
        .to_string()
        .contains("limit"));

    let mut v: Value = serde_json::from_str(&good.to_json_pretty()).unwrap();
    v["clients"] = Value::from(vec![v["clients"][0].clone(); 9]);
    assert_eq!(
        Scenario::from_json(&v.to_string()).unwrap_err().path,
        "clients"
    );
}

/// The refusals the fuzzer found naming no field, fixed: an empty key (in a scenario, and
/// in a host message) and a scenario object over the size limit inside a host message.
#[test]
fn the_empty_key_and_an_oversized_embedded_scenario_are_named() {
    let mut v: Value = serde_json::from_str(&PRESETS[1].scenario().to_json_pretty()).unwrap();
    v[""] = Value::from(1);
    let e = Scenario::from_json(&v.to_string()).unwrap_err();
    assert_eq!(e.path, "\"\"", "{e}");
    assert!(e
        .to_string()
        .starts_with("\"\": unknown field (expected one of: version,"));
    let msg = format!(r#"{{"leaseline":1,"type":"load","scenario":{v}}}"#);
    let e = embed::parse(&msg).unwrap_err();
    assert!(e.starts_with("scenario.\"\": unknown field"), "{e}");
    let mut v: Value = serde_json::from_str(&PRESETS[1].scenario().to_json_pretty()).unwrap();
    v["clients"][0][""] = Value::from(1);
    let e = Scenario::from_json(&v.to_string()).unwrap_err();
    assert_eq!(e.path, "clients[0].\"\"", "{e}");
    assert_eq!(
        embed::parse(r#"{"leaseline":1,"type":"play","":1}"#).unwrap_err(),
        "\"\": not a field of a \"play\" message"
    );
    let big = format!(
        r#"{{"leaseline":1,"type":"load","scenario":{{"name":"{}"}}}}"#,
        "x".repeat(LIMITS.max_json_bytes)
    );
    assert_eq!(
        embed::parse(&big).unwrap_err(),
        "scenario: input is 262155 bytes; the limit is 262144"
    );
}

#[test]
fn the_rules_catch_a_refusal_that_names_no_field() {
    // The checkers themselves: a wrong or missing name is caught.
    let doc = r#"{"clients":[{"ttl_ms":"x"}]}"#;
    let e = |path: &str| ScenarioError::new(path, "expected a whole number");
    assert_eq!(scenario_rule(doc, &e("clients[0].ttl_ms")), Ok(()));
    assert_eq!(scenario_rule(doc, &e("clients[0].margin_ms")), Ok(()));
    assert!(scenario_rule(doc, &e("")).is_err());
    assert!(scenario_rule(doc, &e("clients[1].ttl_ms")).is_err());
    assert!(scenario_rule(doc, &e("faults[0].at_ms")).is_err());
    assert_eq!(
        scenario_rule(
            "[1",
            &ScenarioError::new("", json::parse("[1").unwrap_err())
        ),
        Ok(())
    );
    assert_eq!(link_rule("#s=x&t=1", "t: past"), Ok(()));
    assert!(link_rule("#s=x", "t: past").is_err());
    assert!(link_rule("#s=x", "bogus: past").is_err());
    assert!(link_rule("#s=x", "link: t is wrong").is_err());
    assert_eq!(embed_rule(r#"{"a b":1}"#, "a b: not a field"), Ok(()));
    assert!(embed_rule(r#"{"":1}"#, ": not a field").is_err());
    assert_eq!(embed_rule(r#"{"":1}"#, "\"\": not a field"), Ok(()));
    assert_eq!(embed_rule(r#"{"scenario.":1}"#, "scenario.: not a"), Ok(()));
    assert!(embed_rule(r#"{"a":1}"#, "scenario.b: bad").is_err());
    assert!(embed_rule(r#"{"a":1}"#, "message: bad").is_err());
    assert!(embed_rule("{", "t_ms: bad").is_err());
}

#[test]
fn encode_then_decode_is_the_identity() {
    for seed in 0..500 {
        let sc = common::scenario(seed, FenceMode::Monotone);
        let back = Scenario::from_json(&sc.to_json_pretty())
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(back, sc, "seed {seed}");
    }
    for p in PRESETS {
        let sc = p.scenario();
        assert_eq!(
            Scenario::from_json(&sc.to_json_pretty()).unwrap(),
            sc,
            "{}",
            p.name
        );
    }
}

// ---------------------------------------------------------------------------------------
// Recorded traces.

/// The rule for a refusal of `recorded::read(bytes)`: it names a line of the input (0
/// only for a file over the size limit; one past the last only for too many lines), and
/// its field, if any, is a key written on that line (as `"key"`, or as the reader spells
/// it: the empty key `""`, control characters `\u{…}`), a field of the format, or a
/// header node's (`nodes[i]`, `nodes[i].name` …).
fn recorded_rule(text: &str, e: &leaseline::model::recorded::RecordedError) -> Result<(), String> {
    use leaseline::model::recorded::read::{spell, COMMON, EVENTS, HEADER_FIELDS};
    use leaseline::model::recorded::{MAX_BYTES, MAX_LINES};
    let lines: Vec<&str> = text
        .strip_suffix('\n')
        .unwrap_or(text)
        .split('\n')
        .collect();
    if e.line == 0 {
        return match text.len() > MAX_BYTES {
            true => Ok(()),
            false => Err("line 0 for a file within the size limit".into()),
        };
    }
    let n = e.line as usize;
    if n > lines.len().max(1) && !(n == MAX_LINES + 1 && lines.len() > MAX_LINES) {
        return Err(format!("line {n} of {}", lines.len()));
    }
    let Some(f) = &e.field else {
        return Ok(());
    };
    let here = lines.get(n - 1).copied().unwrap_or("");
    let path = f.strip_prefix("nodes[").and_then(|r| r.split_once(']'));
    // The keys of the line's object, and of its header nodes, as the reader spells them.
    let mut keys: Vec<String> = Vec::new();
    if let Ok(Value::Object(o)) = serde_json::from_str::<Value>(here) {
        keys.extend(o.keys().map(|k| spell(k)));
        if let Some(Value::Array(nodes)) = o.get("nodes") {
            for (i, node) in nodes.iter().enumerate() {
                if let Value::Object(kv) = node {
                    keys.extend(kv.keys().map(|k| format!("nodes[{i}].{}", spell(k))));
                }
            }
        }
    }
    // Every field the format has (the reader's own tables of them): a missing one.
    let format_field = HEADER_FIELDS
        .iter()
        .chain(&COMMON)
        .chain(EVENTS.iter().flat_map(|e| e.2))
        .chain(&["name", "role"])
        .any(|k| k == f);
    let named = here.contains(&format!("\"{f}\""))
        || keys.contains(f)
        || format_field
        || path.is_some_and(|(i, rest)| {
            i.parse::<usize>().is_ok()
                && (rest.is_empty()
                    || rest.strip_prefix('.').is_some_and(|k| {
                        here.contains(&format!("\"{k}\"")) || k == "name" || k == "role"
                    }))
        });
    match named && !e.message.is_empty() {
        true => Ok(()),
        false => Err(format!(
            "field `{f}` is neither on line {n} nor a field of the format"
        )),
    }
}

/// Reads input `i` through `recorded::read`; whatever is accepted must convert and check
/// without a panic, and whatever is refused must pass `rule`.
fn read_and_judge(
    fuzz: &mut Fuzz,
    i: u64,
    text: &str,
    rule: fn(&str, &leaseline::model::recorded::RecordedError) -> Result<(), String>,
) {
    use leaseline::model::recorded;
    let Some(read) = fuzz.call(i, text, "recorded::read", || {
        recorded::read(text.as_bytes())
    }) else {
        return;
    };
    match read {
        Ok(rec) => {
            if fuzz
                .call(i, text, "to_trace + check", || {
                    check(&recorded::to_trace(&rec))
                })
                .is_some()
            {
                fuzz.accepted += 1;
            }
        }
        Err(e) => {
            let verdict = rule(text, &e);
            fuzz.refusal(i, text, &e.to_string(), verdict);
        }
    }
}

#[test]
fn recorded_traces_never_panic_and_every_refusal_names_its_line() {
    use leaseline::model::recorded;
    let n = inputs(5_000);
    let mut fuzz = Fuzz::new("recorded trace", seed(18), n);
    let mut r = Rng::new(fuzz.seed);
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/recorded");
    let mut seeds: Vec<String> = [
        "clean.ndjson",
        "redis-gc-pause-unfenced.ndjson",
        "etcd-gc-pause-fenced.ndjson",
        "etcd-gc-pause-exact.ndjson",
    ]
    .iter()
    .map(|f| std::fs::read_to_string(format!("{dir}/{f}")).unwrap())
    .collect();
    for p in PRESETS.iter().take(3) {
        let trace = run(&p.scenario());
        seeds.push(recorded::export(&trace, Some(p.name), "generic"));
    }
    for i in 0..n {
        let base = &seeds[(i as usize) % seeds.len()];
        let mut lines: Vec<String> = base.lines().map(str::to_string).collect();
        let text = match i % 6 {
            0 => byte_noise(base, &mut r),
            // Lines dropped, repeated or swapped: order and causality broken.
            1 => {
                reorder(&mut lines, &mut r);
                lines.join("\n")
            }
            // One line's JSON mutated: fields dropped, retyped, extreme or unknown.
            _ => {
                let k = r.range_i64(0, lines.len() as i64 - 1) as usize;
                let mut v: Value = serde_json::from_str(&lines[k]).unwrap();
                for _ in 0..r.range_i64(1, 3) {
                    mutate(&mut v, &mut r);
                }
                lines[k] = v.to_string();
                lines.join("\n") + "\n"
            }
        };
        read_and_judge(&mut fuzz, i, &text, recorded_rule);
    }
    let (accepted, refused) = (fuzz.accepted, fuzz.refused);
    fuzz.finish("accepted and checked");
    if n >= 1_000 {
        assert!(
            accepted > n / 50 && refused > n / 3,
            "{accepted} ok, {refused} err"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Jepsen lock histories (the same entry point, `recorded::read`, told apart by their first
// characters).

/// The rule for a refusal of a Jepsen history: it names a line of the input (0 only for
/// a file over the size limit; one past the last for an unclosed history), and its field,
/// if any, is one of the operation keys the reader reads, spelled as the history spells
/// them (`:type` in EDN, `type` in JSON).
fn jepsen_rule(text: &str, e: &leaseline::model::recorded::RecordedError) -> Result<(), String> {
    let lines = text.split('\n').count();
    if e.line == 0 || e.line as usize > lines + 1 {
        return Err(format!("line {} of {lines}", e.line));
    }
    let keys = ["type", "f", "process", "time", "index", "value"];
    match &e.field {
        None => Ok(()),
        Some(f) if keys.iter().any(|k| f == k || *f == format!(":{k}")) => Ok(()),
        Some(f) => Err(format!("field `{f}` is not an operation key")),
    }
}

#[test]
fn jepsen_histories_never_panic_and_every_refusal_names_its_line() {
    use leaseline::model::recorded::{self, jepsen};
    let n = inputs(2_000);
    let mut fuzz = Fuzz::new("jepsen history", seed(19), n);
    let mut r = Rng::new(fuzz.seed);
    let mut seeds: Vec<String> = PRESETS
        .iter()
        .take(4)
        .map(|p| jepsen::export(&run(&p.scenario())))
        .collect();
    // The JSON form of each, and one vector of maps.
    let json: Vec<String> = seeds
        .iter()
        .map(|s| {
            s.lines()
                .map(|l| {
                    let mut o = String::from("{");
                    for (i, kv) in l.trim_matches(['{', '}']).split(", :").enumerate() {
                        let kv = kv.trim_start_matches(':');
                        let (k, v) = kv.split_once(' ').unwrap_or((kv, "null"));
                        let v = match v.strip_prefix(':') {
                            Some(name) => format!("\"{name}\""),
                            None => v.replace(" \"", ", \"").replace("nil", "null"),
                        };
                        o += &format!("{}\"{k}\":{v}", if i > 0 { "," } else { "" });
                    }
                    o + "}"
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect();
    seeds.push(format!("[{}]", seeds[0].trim_end().replace('\n', "\n ")));
    seeds.extend(json);
    for s in &seeds {
        recorded::read(s.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{s}"));
    }
    let words = [
        ":info",
        ":ok",
        ":fail",
        ":invoke",
        ":nemesis",
        ":acquire",
        ":release",
        ":write",
        ":cas",
        "nil",
        "-1",
        "99999999999999999999999",
        "[",
        "{",
        "\"",
        "#inst",
        "9",
    ];
    for i in 0..n {
        let base = &seeds[(i as usize) % seeds.len()];
        let mut lines: Vec<String> = base.lines().map(str::to_string).collect();
        let text = match i % 3 {
            0 => byte_noise(base, &mut r),
            1 => {
                reorder(&mut lines, &mut r);
                lines.join("\n")
            }
            // One word of one line replaced by another the reader knows, or junk.
            _ => {
                let k = r.range_i64(0, lines.len() as i64 - 1) as usize;
                let mut w: Vec<String> = lines[k].split(' ').map(str::to_string).collect();
                let j = r.range_i64(0, w.len() as i64 - 1) as usize;
                w[j] = words[r.range_i64(0, words.len() as i64 - 1) as usize].to_string();
                lines[k] = w.join(" ");
                lines.join("\n")
            }
        };
        let rule = match jepsen::detect(&text) {
            Some(_) => jepsen_rule,
            None => recorded_rule,
        };
        read_and_judge(&mut fuzz, i, &text, rule);
    }
    let (accepted, refused) = (fuzz.accepted, fuzz.refused);
    fuzz.finish("accepted and checked");
    if n >= 1_000 {
        assert!(
            accepted > n / 50 && refused > n / 10,
            "{accepted} ok, {refused} err"
        );
    }
}
