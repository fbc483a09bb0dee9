//! The command-line tool: run a preset or a scenario file, list presets, validate a file,
//! explore a scenario's added-fault schedules for counterexamples.
//!
//! It is a thin shell over the core, written against `Write` handles so tests can drive it
//! without a process. Every refusal is one line on stderr and a non-zero exit code.

mod bound;
use bound::bound_cmd;

use crate::analysis::bound::{bound, holder_of, Bound, Env};
use crate::analysis::check::{check, Verdict};
use crate::analysis::explore::fault::FaultClass;
use crate::analysis::explore::report;
use crate::analysis::explore::{explore_on, Bounds, MAX_FAULTS, MAX_WORKERS};
use crate::model::recorded;
use crate::model::scenario::{FenceWord, Flavor, Scenario};
use crate::model::sim::simulate;
use crate::model::trace::{Outcome, Trace};
use crate::session::share::{self, Source, ViewState};
use crate::teach::course;
use crate::teach::flavor_presets::{self, FLAVOR_PRESETS};
use crate::teach::library::{self, LESSONS};
use crate::teach::presets::{preset, PRESETS};
use crate::vocab::numbers::fmt_ms;
use serde::Serialize;
use std::io::Write;

pub const USAGE: &str = "\
leaseline — a deterministic simulator of lease-based distributed locks and fencing tokens

USAGE:
    leaseline run <preset | lesson[/fix] | flavor-preset[/fix] | file.json>
                  [--fence MODE] [--flavor FLAVOR] [--seed N] [--format text|json|jepsen]
    leaseline presets          (lists the presets and the scenario library)
    leaseline check <file.json>
    leaseline check-trace <file.ndjson | file.edn | file.json | -> [--format text|json]
    leaseline explore <preset | lesson[/fix] | file.json>
                  [--faults KINDS] [--max-faults K] [--max-pause-ms MS] [--clean]
                  [--budget N] [--workers N] [--fence MODE] [--flavor FLAVOR]
                  [--format text|json]
    leaseline bound <preset | lesson[/fix] | file.json> [--client cN] [--work-ms W]
                  [--max-pause-ms P|unbounded] [--max-delay-ms D] [--max-drift-ppm R]
                  [--fence MODE] [--flavor FLAVOR] [--format text|json]
    leaseline record <preset | lesson[/fix] | file.json> --gif OUT.gif
                  [--from MS] [--to MS] [--width PX] [--fps N] [--seconds S]
                  [--fence MODE] [--flavor FLAVOR]
    leaseline --help

    --fence   none | monotone | strict | exact | non_atomic | volatile
              (overrides the scenario's storage fence; volatile = monotone with the
              high-water mark kept only in memory)
    --flavor  generic | redis | redlock | zookeeper | etcd | consul | chubby
              (the lock service the coordinator behaves like)
    --seed    replaces the scenario's seed
    --format  text (a readable timeline and the verdict; default) or json; run also
              takes jepsen (the run as a Jepsen lock history, EDN)

explore adds up to K faults (1..3, default 1) at the instants the runs themselves make
critical and reports each distinct way the scenario breaks, minimal first, or
\"safe within these bounds\" (see docs/explore.md):
    --faults        comma-separated kinds (default all): pause, partition, clock, delay,
                    restart, failover, false-positive, fail-renewals; a number is --max-faults
    --max-pause-ms  the longest pause, cut, delay, outage or clock jump (default twice the
                    longest lease); --max-pause is the same
    --clean         start from the scenario without its own faults
    --budget        stop after N schedules (default 1000000)
    --workers       threads to search on, 1..64 (default: the machine's cores); the
                    report is the same whatever the number

bound computes the worst-case overlap of two believers for a client (default c1) from
the longest pause P, one-way delay D and clock drift R (defaults: the scenario's own
longest pause, longest link delay and largest drift), by the model's rules, with the
run that attains it (see docs/safety-bound.md).

check-trace reads a recorded trace — a real run, one event per line (see
docs/trace-format.md; `-` reads standard input), or a Jepsen lock history in EDN or
JSON (docs/jepsen.md) — and judges it with the same checker as run: the same verdict
and stats, plus the recording's header and what it assumed. `run --format jepsen`
writes a run as such a history.

record draws the run from --from to --to (ms of true time; default the whole run) as an
animated GIF, --fps frames a second for --seconds (defaults 10 and 12: 120 frames) at
--width pixels (default 720), the run's link in the file and on its last frame (see
docs/recording.md).

Exit codes: 0 ran (whatever the verdict) or valid; 2 bad input.
Example: leaseline run gc-pause --fence monotone
         leaseline explore gc-pause --clean --fence monotone --max-faults 2
";

/// Runs the CLI with `args` (without the program name); returns the exit code.
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    match dispatch(args, out) {
        Ok(()) => 0,
        Err(msg) => {
            let _ = writeln!(err, "leaseline: {msg}");
            2
        }
    }
}

fn dispatch(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    match args.first().map(String::as_str) {
        None | Some("--help" | "-h" | "help") => write!(out, "{USAGE}").map_err(io),
        Some("presets") => {
            // Each entry's sources on an indented line under it.
            let credit = |out: &mut dyn Write, s: &[&str]| {
                writeln!(out, "    sources: {}", s.join("; ")).map_err(io)
            };
            for p in PRESETS {
                writeln!(out, "{:<18} {}", p.name, p.summary).map_err(io)?;
                credit(out, p.sources)?;
            }
            writeln!(
                out,
                "\nThe scenario library (run `NAME` for the unsafe variant, `NAME/FIX` for a fix):"
            )
            .map_err(io)?;
            for l in LESSONS {
                let fixes: Vec<&str> = l.fixes.iter().map(|f| f.name).collect();
                writeln!(
                    out,
                    "{:<28} fixes: {}  [{}]",
                    l.id,
                    fixes.join(", "),
                    l.chapter
                )
                .map_err(io)?;
                credit(out, l.sources)?;
            }
            writeln!(
                out,
                "\nReal lock services (run `NAME`, or `NAME/FIX` for a remedy):"
            )
            .map_err(io)?;
            for p in FLAVOR_PRESETS {
                let fixes: Vec<&str> = p.lesson.fixes.iter().map(|f| f.name).collect();
                writeln!(
                    out,
                    "{:<28} [{}] {}{}",
                    p.name(),
                    p.flavor.name(),
                    p.summary,
                    if fixes.is_empty() {
                        String::new()
                    } else {
                        format!("  fixes: {}", fixes.join(", "))
                    }
                )
                .map_err(io)?;
                credit(out, p.lesson.sources)?;
            }
            Ok(())
        }
        Some("check") => {
            let path = args
                .get(1)
                .ok_or("check needs a file: leaseline check <file.json>")?;
            let sc = load(path)?;
            writeln!(
                out,
                "{path}: valid ({} clients, {} faults, horizon {} ms)",
                sc.clients.len(),
                sc.faults.len(),
                sc.horizon_ms
            )
            .map_err(io)
        }
        Some("run") => run_cmd(&args[1..], out),
        Some("check-trace") => check_trace_cmd(&args[1..], out),
        Some("explore") => explore_cmd(&args[1..], out),
        Some("bound") => bound_cmd(&args[1..], out),
        Some("record") => record_cmd(&args[1..], out),
        Some(other) => Err(format!("unknown command `{other}` (try --help)")),
    }
}

fn load(what: &str) -> Result<Scenario, String> {
    if let Some(p) = preset(what) {
        return Ok(p.scenario());
    }
    if let Some(sc) = library::find(what).or_else(|| flavor_presets::find(what)) {
        return Ok(sc);
    }
    if !what.ends_with(".json") && !std::path::Path::new(what).exists() {
        let guess = course::nearest(what)
            .map(|n| format!(": did you mean `{n}`?"))
            .unwrap_or_default();
        return Err(format!(
            "no preset, lesson or file `{what}`{guess} (`leaseline presets` lists every name)"
        ));
    }
    let text = std::fs::read_to_string(what).map_err(|e| format!("{what}: {e}"))?;
    Scenario::from_json(&text).map_err(|e| format!("{what}: {e}"))
}

/// The command line after the subcommand: its target, each `--option value`, and each
/// of `flags` given. Every command reads options the same way, so the errors read alike.
struct Opts {
    target: Option<String>,
    values: Vec<(String, String)>,
    flags: Vec<String>,
}

fn options(args: &[String], names: &[&str], flags: &[&str]) -> Result<Opts, String> {
    let mut o = Opts {
        target: None,
        values: Vec::new(),
        flags: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            s if names.contains(&s) => {
                let v = it.next().cloned().ok_or(format!("{s} needs a value"))?;
                o.values.push((s.to_string(), v));
            }
            s if flags.contains(&s) => o.flags.push(s.to_string()),
            s if s.starts_with("--") => return Err(format!("unknown option `{s}` (try --help)")),
            s if o.target.is_none() => o.target = Some(s.to_string()),
            s => return Err(format!("unexpected argument `{s}`")),
        }
    }
    Ok(o)
}

impl Opts {
    fn get(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Loads the target and lays `--fence` and `--flavor` over it; reads `--format`.
    fn scenario(&self, missing: &str) -> Result<(String, Scenario, bool), String> {
        let target = self.target.clone().ok_or(missing.to_string())?;
        let mut sc = load(&target)?;
        if let Some(f) = self.get("--fence") {
            apply_fence(&mut sc, f)?;
        }
        if let Some(f) = self.get("--flavor") {
            sc.coordinator.flavor = Flavor::parse(f)
                .ok_or(format!("--flavor: `{f}` is not one of {}", Flavor::names()))?;
        }
        let json = match self.get("--format") {
            None | Some("text") => false,
            Some("json") => true,
            Some(f) => return Err(format!("--format: `{f}` is not text or json")),
        };
        Ok((target, sc, json))
    }
}

fn run_cmd(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let mut o = options(args, &["--fence", "--flavor", "--seed", "--format"], &[])?;
    // `--format jepsen` is run's own: the run as a Jepsen lock history (docs/jepsen.md).
    let jepsen = o.get("--format") == Some("jepsen");
    if jepsen {
        o.values.retain(|(k, _)| k != "--format");
    }
    let (target, mut sc, json) =
        o.scenario("run needs a preset or a file (try `leaseline presets`)")?;
    if let Some(s) = o.get("--seed") {
        sc.seed = s
            .parse()
            .map_err(|_| format!("--seed: `{s}` is not a whole number ≥ 0"))?;
    }
    let trace = simulate(&sc).map_err(|e| e.to_string())?;
    let io = |e: std::io::Error| e.to_string();
    if jepsen {
        return write!(out, "{}", recorded::jepsen::export(&trace)).map_err(io);
    }
    let verdict = check(&trace);
    if json {
        print_json(out, &Report::new(&trace, &verdict))
    } else {
        writeln!(
            out,
            "{} — seed {}, fence {:?}, flavor {}",
            if sc.name.is_empty() {
                &target
            } else {
                &sc.name
            },
            sc.seed,
            sc.storage.fence,
            sc.coordinator.flavor.name()
        )
        .map_err(io)?;
        let ending = format!("outcome: {:?} at {}", trace.outcome, trace.end);
        print_timeline(out, &trace, &ending, &verdict)
    }
}

/// Reads a recorded trace's bytes from a file, or from standard input for `-`, at most
/// one byte past the format's limit (so the reader refuses an oversized file by its size).
fn recorded_bytes(path: &str) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let limit = recorded::MAX_BYTES as u64 + 1;
    let mut bytes = Vec::new();
    let read = if path == "-" {
        std::io::stdin().take(limit).read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(limit).read_to_end(&mut bytes))
    };
    read.map_err(|e| format!("{path}: {e}"))?;
    Ok(bytes)
}

/// `leaseline check-trace`: reads a recorded trace, converts it to the model's trace,
/// checks it as `run` checks a model run, prints the same report plus its source.
fn check_trace_cmd(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let o = options(args, &["--format"], &[])?;
    let path = o
        .target
        .clone()
        .ok_or("check-trace needs a recorded trace: leaseline check-trace <file.ndjson | ->")?;
    let json = match o.get("--format") {
        None | Some("text") => false,
        Some("json") => true,
        Some(f) => return Err(format!("--format: `{f}` is not text or json")),
    };
    let bytes = recorded_bytes(&path)?;
    let rec = recorded::read(&bytes).map_err(|e| format!("{path}: {e}"))?;
    let trace = recorded::to_trace(&rec);
    let verdict = check(&trace);
    let source = SourceJson::new(&rec);
    let io = |e: std::io::Error| e.to_string();
    if json {
        let report = TraceReport {
            report: Report::new(&trace, &verdict),
            source,
        };
        print_json(out, &report)
    } else {
        let said = |k: &str, v: &Option<String>| v.as_ref().map(|v| format!(", {k} {v}"));
        writeln!(
            out,
            "{path} — recorded trace{}{}{}: {} events",
            said("service", &source.service).unwrap_or_default(),
            said("source", &source.source).unwrap_or_default(),
            said("scenario", &source.scenario).unwrap_or_default(),
            source.events
        )
        .map_err(io)?;
        let names: Vec<String> = source
            .nodes
            .iter()
            .map(|n| format!("{} = \"{}\" ({})", n.id, n.name, n.role))
            .collect();
        writeln!(out, "nodes: {}", names.join(", ")).map_err(io)?;
        if let Some(n) = &source.notes {
            writeln!(out, "notes: {n}").map_err(io)?;
        }
        for a in &source.assumed {
            writeln!(out, "assumed: {a}").map_err(io)?;
        }
        print_timeline(out, &trace, &format!("ends at {}", trace.end), &verdict)
    }
}

/// A report as indented JSON, on one write.
fn print_json(out: &mut dyn Write, report: &impl Serialize) -> Result<(), String> {
    let text = serde_json::to_string_pretty(report).map_err(|e| e.to_string())?;
    writeln!(out, "{text}").map_err(|e| e.to_string())
}

/// A checked trace as text: one line per entry, how it ended with its digest, then the
/// verdict's summary (`run` and `check-trace` alike).
fn print_timeline(
    out: &mut dyn Write,
    trace: &Trace,
    ending: &str,
    verdict: &Verdict,
) -> Result<(), String> {
    let io = |e: std::io::Error| e.to_string();
    for e in &trace.entries {
        writeln!(out, "{e}").map_err(io)?;
    }
    writeln!(out, "{ending}; digest {}", trace.digest_hex()).map_err(io)?;
    write!(out, "{}", verdict.summary()).map_err(io)
}

/// `leaseline explore`: reads the options, searches, prints the report.
fn explore_cmd(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let o = options(
        args,
        &[
            "--fence",
            "--flavor",
            "--format",
            "--faults",
            "--max-faults",
            "--max-pause-ms",
            "--max-pause",
            "--budget",
            "--workers",
        ],
        &["--clean"],
    )?;
    let (target, sc, json) =
        o.scenario("explore needs a preset, lesson or file (try `leaseline presets`)")?;
    let (mut faults, mut k) = (o.get("--faults"), o.get("--max-faults"));
    // `--faults 2` (a count) is read as `--max-faults 2`.
    if let Some(v) = faults.filter(|v| v.bytes().all(|b| b.is_ascii_digit() || b == b'-')) {
        k = Some(v);
        faults = None;
    }
    let max_len = o.get("--max-pause-ms").or(o.get("--max-pause"));
    let budget = o.get("--budget");
    let clean = o.flags.iter().any(|f| f == "--clean");
    sc.validate().map_err(|e| format!("{target}: {e}"))?;
    let mut bounds = Bounds::for_scenario(&sc);
    bounds.keep_scripted = !clean;
    if let Some(list) = faults {
        bounds.classes = list
            .split(',')
            .map(|w| {
                FaultClass::parse(w.trim()).ok_or(format!(
                    "--faults: `{w}` is not one of {}",
                    FaultClass::names()
                ))
            })
            .collect::<Result<_, _>>()?;
        bounds.classes.sort();
        bounds.classes.dedup();
    }
    if let Some(v) = k {
        bounds.max_faults = v
            .parse()
            .ok()
            .filter(|n| (1..=MAX_FAULTS).contains(n))
            .ok_or(format!("--max-faults: `{v}` is not 1, 2 or 3"))?;
    }
    if let Some(v) = max_len {
        bounds.max_len_ms = v
            .parse()
            .ok()
            .filter(|n: &i64| *n >= 1)
            .ok_or(format!("--max-pause-ms: `{v}` is not a length in ms ≥ 1"))?;
    }
    if let Some(v) = budget {
        bounds.budget = v
            .parse()
            .ok()
            .filter(|n: &u64| *n >= 1)
            .ok_or(format!("--budget: `{v}` is not a whole number ≥ 1"))?;
    }
    let workers = match o.get("--workers") {
        Some(v) => v
            .parse()
            .ok()
            .filter(|n| (1..=MAX_WORKERS).contains(n))
            .ok_or(format!(
                "--workers: `{v}` is not a number of threads from 1 to {MAX_WORKERS}"
            ))?,
        None => std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_WORKERS)),
    };
    bounds.check()?;
    let t0 = std::time::Instant::now();
    let report = explore_on(&sc, &bounds, workers, 4096, &mut |_, _| true);
    let elapsed_ms = t0.elapsed().as_millis() as u64;
    let io = |e: std::io::Error| e.to_string();
    if json {
        let v = report::json(&report, elapsed_ms, &share::counterexample_link);
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?
        )
        .map_err(io)
    } else {
        write!(
            out,
            "{}",
            report::text(&target, &report, elapsed_ms, &share::counterexample_link)
        )
        .map_err(io)
    }
}

/// `leaseline record`: renders the frames, writes the GIF, prints its size and frames.
fn record_cmd(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    use crate::view::export::record::{Options, Recorder};
    let o = options(
        args,
        &[
            "--fence",
            "--flavor",
            "--gif",
            "--from",
            "--to",
            "--width",
            "--fps",
            "--seconds",
        ],
        &[],
    )?;
    let (target, sc, _) =
        o.scenario("record needs a preset, lesson or file (try `leaseline presets`)")?;
    let path = o.get("--gif").ok_or("record needs --gif OUT.gif")?;
    let ms = |name: &str| o.get(name).map(|v| number(name, v)).transpose();
    let small = |name: &str, default: u32| -> Result<u32, String> {
        match o.get(name) {
            None => Ok(default),
            Some(v) => u32::try_from(number(name, v)?).map_err(|_| format!("{name}: too large")),
        }
    };
    let d = Options::default();
    let opts = Options {
        from_ms: ms("--from")?,
        to_ms: ms("--to")?,
        width: small("--width", d.width)?,
        fps: small("--fps", d.fps)?,
        seconds: small("--seconds", d.seconds)?,
    };
    // A named scenario's link names it; any other carries the scenario itself.
    let named = preset(&target).is_some()
        || library::find(&target).is_some()
        || flavor_presets::find(&target).is_some();
    let link = share::encode(&ViewState {
        source: if named && o.get("--fence").is_none() && o.get("--flavor").is_none() {
            Source::Named(target.clone())
        } else {
            Source::Custom(sc.clone())
        },
        ..ViewState::default()
    });
    let rec = Recorder::new(&sc, &opts, &link).map_err(|e| format!("record: {e}"))?;
    let (w, h, n) = (rec.scene.width, rec.height(), rec.frames());
    let (from, to) = (rec.timing.from, rec.timing.to);
    let gif = rec.encode_gif(&mut |_, _| {});
    std::fs::write(path, &gif).map_err(|e| format!("{path}: {e}"))?;
    writeln!(
        out,
        "{path}: {} bytes, {n} frames of {w}x{h} px, {} to {}, link {link}",
        gif.len(),
        fmt_ms(from),
        fmt_ms(to)
    )
    .map_err(|e| e.to_string())
}

fn number(option: &str, v: &str) -> Result<i64, String> {
    v.parse()
        .ok()
        .filter(|n: &i64| *n >= 0)
        .ok_or(format!("{option}: `{v}` is not a whole number ≥ 0"))
}

/// Applies a `--fence` value; `volatile` is monotone with the mark kept in memory.
pub fn apply_fence(sc: &mut Scenario, f: &str) -> Result<(), String> {
    let word = FenceWord::parse(f)
        .ok_or_else(|| format!("--fence: `{f}` is not one of {}", FenceWord::names()))?;
    word.apply_to(sc);
    Ok(())
}

/// The JSON report of `leaseline run --format json`.
#[derive(Serialize)]
pub struct Report<'a> {
    pub digest: String,
    pub outcome: Outcome,
    pub end_ms: i64,
    pub entries: usize,
    pub verdict: VerdictJson<'a>,
    pub violations: &'a [crate::analysis::check::Violation],
    pub overlaps: &'a [crate::analysis::check::Overlap],
    pub rejections: &'a [crate::analysis::check::Rejection],
    pub stats: &'a crate::analysis::check::Stats,
    /// Whose work got done, client by client (beside safety; see `analysis::liveness`).
    pub progress: &'a crate::analysis::liveness::Progress,
}

#[derive(Serialize)]
pub struct VerdictJson<'a> {
    pub safe: bool,
    pub violations: &'a [crate::analysis::check::Violation],
    /// No client's work was left undone except by losing the lock to a newer holder.
    pub live: bool,
    /// Whose work never completed, in words ("client 2's work never completed (1 write
    /// refused)"); null when `live`.
    pub unfinished: Option<String>,
}

impl<'a> Report<'a> {
    pub fn new(trace: &Trace, v: &'a Verdict) -> Report<'a> {
        Report {
            digest: trace.digest_hex(),
            outcome: trace.outcome,
            end_ms: trace.end.0,
            entries: trace.len(),
            verdict: VerdictJson {
                safe: v.safe,
                violations: &v.violations,
                live: v.progress.live(),
                unfinished: v.progress.headline(),
            },
            violations: &v.violations,
            overlaps: &v.overlaps,
            rejections: &v.rejections,
            stats: &v.stats,
            progress: &v.progress,
        }
    }
}

/// `check-trace --format json`: `run`'s report, plus where the trace came from.
#[derive(Serialize)]
pub struct TraceReport<'a> {
    #[serde(flatten)]
    pub report: Report<'a>,
    pub source: SourceJson,
}

/// The recording's header, and the model's name for each of its nodes.
#[derive(Serialize)]
pub struct SourceJson {
    pub leaseline_trace: i128,
    pub scenario: Option<String>,
    pub service: Option<String>,
    pub source: Option<String>,
    pub notes: Option<String>,
    /// Event lines read (the header not counted).
    pub events: usize,
    /// What the judgement assumed where the recording does not say (an acquire or a
    /// release that was never answered): `recorded::assumed`.
    pub assumed: Vec<String>,
    pub nodes: Vec<SourceNode>,
}

#[derive(Serialize)]
pub struct SourceNode {
    pub name: String,
    pub role: &'static str,
    /// The model's name for it, as the verdict writes it: `c1`, `coord`, `storage`.
    pub id: String,
}

impl SourceJson {
    fn new(r: &recorded::Recording) -> SourceJson {
        let ids = recorded::convert::model_ids(r);
        SourceJson {
            leaseline_trace: recorded::VERSION,
            scenario: r.header.scenario.clone(),
            service: r.header.service.clone(),
            source: r.header.source.clone(),
            notes: r.header.notes.clone(),
            events: r.lines.len(),
            assumed: recorded::assumed(r),
            nodes: r
                .header
                .nodes
                .iter()
                .zip(ids)
                .map(|(n, id)| SourceNode {
                    name: n.name.clone(),
                    role: n.role.word(),
                    id: id.to_string(),
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scenario::FenceMode;

    fn cli(args: &[&str]) -> (i32, String, String) {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run(&args, &mut out, &mut err);
        (
            code,
            String::from_utf8_lossy(&out).into(),
            String::from_utf8_lossy(&err).into(),
        )
    }

    #[test]
    fn check_trace_reports_a_recording_like_run_plus_its_source() {
        let (code, out, err) = cli(&[
            "check-trace",
            "tests/recorded/etcd-gc-pause-fenced.ndjson",
            "--format",
            "json",
        ]);
        assert_eq!((code, err.as_str()), (0, ""));
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        for k in [
            "digest",
            "verdict",
            "violations",
            "overlaps",
            "rejections",
            "stats",
            "progress",
        ] {
            assert!(v.get(k).is_some(), "{k} missing: run's shape");
        }
        assert_eq!(v["verdict"]["safe"], true);
        assert_eq!(v["stats"]["stale_writes_rejected"], 1);
        assert_eq!(v["source"]["service"], "etcd");
        assert_eq!(v["source"]["nodes"][2]["id"], "coord");
        let (code, out, _) = cli(&[
            "check-trace",
            "tests/recorded/redis-gc-pause-unfenced.ndjson",
        ]);
        assert_eq!(code, 0);
        assert!(out.contains("UNSAFE: 2 violation(s)"), "{out}");
        assert!(out.contains("c1 = \"client 1\" (client)"), "{out}");
    }

    #[test]
    fn check_trace_refuses_a_bad_file_in_one_line_naming_line_and_field() {
        let (code, out, err) = cli(&[
            "check-trace",
            "tests/recorded/bad/token-not-a-number.ndjson",
        ]);
        assert_eq!((code, out.as_str()), (2, ""));
        assert_eq!(
            err,
            "leaseline: tests/recorded/bad/token-not-a-number.ndjson: line 3, field `token`: expected a whole number, got \"abc\"\n"
        );
        let (code, _, err) = cli(&["check-trace", "no/such/file.ndjson"]);
        assert_eq!(code, 2);
        assert!(err.starts_with("leaseline: no/such/file.ndjson: "), "{err}");
        let (code, _, err) = cli(&["check-trace"]);
        assert_eq!(code, 2);
        assert!(err.contains("check-trace needs a recorded trace"), "{err}");
    }

    /// The JSON report of a run that must succeed.
    fn report(args: &[&str]) -> serde_json::Value {
        let (code, out, err) = cli(args);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).unwrap()
    }

    #[test]
    fn help_and_presets() {
        assert!(cli(&["--help"]).1.contains("USAGE"));
        // The usage lists the fence words the parser reads (and the other spelling,
        // `non-atomic`, still works).
        assert!(USAGE.contains(&FenceMode::names().replace(", ", " | ")));
        let mut sc = preset("gc-pause").unwrap().scenario();
        apply_fence(&mut sc, "non-atomic").unwrap();
        assert_eq!(sc.storage.fence, FenceMode::NonAtomic);
        let (code, out, _) = cli(&["presets"]);
        assert_eq!(code, 0);
        assert!(out.contains("gc-pause"));
        // Every lesson is listed, each entry with its sources under it.
        for id in [
            "permanent-lock",
            "session-checks-tradeoff",
            "vm-migration-pause",
            "progress-heartbeat",
            "watch-reachability",
            "reacquire-after-loss",
            "token-wrong-resource",
            "idempotent-job",
            "silent-renewal-failure",
            "stop-and-resume",
            "release-lost",
            "random-value-release",
            "restore-from-backup",
            "exact-fence",
            "unique-constraint",
            "conditional-write",
        ] {
            let at = out
                .find(&format!("\n{id} "))
                .unwrap_or_else(|| panic!("{id} not listed"));
            let next = out[at + 1..].lines().nth(1).unwrap();
            assert!(next.starts_with("    sources: "), "{id}: {next}");
        }
        let entries = PRESETS.len() + LESSONS.len() + FLAVOR_PRESETS.len();
        assert_eq!(out.matches("\n    sources: ").count(), entries);
        assert!(out.contains("sources: Kleppmann 2016, How to do distributed locking"));
    }

    #[test]
    fn json_report_has_the_documented_fields() {
        let v = report(&["run", "gc-pause", "--format", "json"]);
        assert_eq!(v["verdict"]["safe"], false);
        assert_eq!(v["stats"]["stale_writes_accepted"], 1);
        assert_eq!(v["stats"]["lost_updates"], 1);
        assert_eq!(v["stats"]["double_holder_ms"], 20_000);
        assert_eq!(v["violations"][0]["at"], 50_005);
        for k in ["kind", "at", "nodes", "cause"] {
            assert!(!v["violations"][0][k].is_null(), "{k}");
        }
        let f = report(&["run", "gc-pause", "--fence", "monotone", "--format", "json"]);
        assert_eq!(f["stats"]["stale_writes_accepted"], 0);
        assert_eq!(f["stats"]["stale_writes_rejected"], 1);
        assert_eq!(f["stats"]["tokenless_writes_rejected"], 0);
        assert_eq!(f["rejections"][0]["why"], "stale");
        assert_eq!(f["rejections"][0]["at"], 50_005);
        assert_eq!(
            f["stats"]["double_holder_ms"],
            v["stats"]["double_holder_ms"]
        );
    }

    /// Redis issues no token, so behind a fence every write is refused: the verdict stays
    /// safe and the report says whose work never completed, in text and in JSON.
    #[test]
    fn a_safe_run_that_got_nothing_done_says_so() {
        let v = report(&["run", "redis-failover/fenced", "--format", "json"]);
        assert_eq!(v["verdict"]["safe"], true);
        assert_eq!(v["verdict"]["live"], false);
        assert_eq!(
            v["verdict"]["unfinished"],
            "client 2's work never completed (1 write refused)"
        );
        // Both refusals are for carrying no token — client 2's is the current holder's —
        // so neither is counted stale: only a token below the mark is.
        assert_eq!(v["stats"]["stale_writes_rejected"], 0);
        assert_eq!(v["stats"]["tokenless_writes_rejected"], 2);
        assert_eq!(v["stats"]["writes_rejected"], 2);
        assert_eq!(v["rejections"][0]["why"], "no_token");
        assert_eq!(
            (
                v["stats"]["jobs_started"].as_u64(),
                v["stats"]["jobs_finished"].as_u64()
            ),
            (Some(2), Some(0))
        );
        let c2 = &v["progress"]["clients"][1];
        assert_eq!(c2["client"], "c2");
        assert_eq!(c2["job"], "aborted");
        assert_eq!(c2["writes_refused"], 1);
        assert_eq!(c2["reasons"][0], "no fencing token");
        assert!(c2["superseded_by"].is_null());
        assert_eq!(v["progress"]["clients"][0]["superseded_by"], "c2");
        let (_, text, _) = cli(&["run", "redis-failover/fenced"]);
        assert!(text.contains("\nSAFE: "), "{text}");
        assert!(text.contains(
            "\nPROGRESS: client 2's work never completed (1 write refused); 0 of 2 jobs finished.\n"
        ));
        assert!(text.contains(
            "  work not done: client 2 aborted its job (lost the lease); 1 write refused: no fencing token\n"
        ));
        // A run where every job finishes says nothing more than before.
        let c = report(&["run", "clean", "--format", "json"]);
        assert_eq!(c["verdict"]["live"], true);
        assert!(c["verdict"]["unfinished"].is_null());
        let (_, text, _) = cli(&["run", "clean"]);
        assert!(!text.contains("PROGRESS") && !text.contains("work not done"));
    }

    #[test]
    fn bad_input_is_one_line_and_exit_2() {
        for args in [
            &["run"][..],
            &["run", "nope"],
            &["run", "gc-pause", "--fence", "maybe"],
            &["run", "gc-pause", "--seed", "-1"],
            &["run", "gc-pause", "--format"],
            &["check", "/nonexistent.json"],
            &["frobnicate"],
        ] {
            let (code, out, err) = cli(args);
            assert_eq!(code, 2, "{args:?}");
            assert!(out.is_empty());
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        }
    }

    #[test]
    fn bound_answers_in_the_issue_s_json_shape_and_its_worst_case_runs() {
        let v = report(&[
            "bound",
            "gc-pause",
            "--max-pause-ms",
            "40000",
            "--max-delay-ms",
            "5",
            "--format",
            "json",
        ]);
        assert_eq!(v["safe"], false);
        assert_eq!(v["worst_overlap_ms"], 20_015);
        let terms = v["terms"].as_array().unwrap();
        let sum: i64 = terms.iter().map(|t| t["ms"].as_i64().unwrap()).sum();
        assert_eq!(sum, 20_015);
        assert!(terms
            .iter()
            .all(|t| t["name"].is_string() && t["why"].is_string()));
        assert!(v["formula"].as_str().unwrap().ends_with("= 20015 ms"));
        assert!(v["advice"].as_str().unwrap().contains("TTL of ≥ 50015 ms"));
        // The worst case is an ordinary scenario: it runs, and overlaps for the figure.
        let sc = Scenario::from_json(&v["worst_case"].to_string()).unwrap();
        let t = simulate(&sc).unwrap();
        assert_eq!(check(&t).stats.double_holder_ms, 20_015);
        // Unbounded pauses: null, unsafe, no run — unless storage fences.
        let u = report(&[
            "bound",
            "gc-pause",
            "--max-pause-ms",
            "unbounded",
            "--format",
            "json",
        ]);
        assert_eq!(u["safe"], false);
        assert!(u["worst_overlap_ms"].is_null() && u["worst_case"].is_null());
        assert!(u["advice"].as_str().unwrap().contains("fencing token"));
        // An unbounded pause dominates, and its term says so: not 0, not a number.
        assert_eq!(u["dominant"], "pause");
        let pause = u["terms"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "pause")
            .unwrap();
        assert!(pause["ms"].is_null(), "{pause}");
        assert!(pause["why"].as_str().unwrap().starts_with("unbounded"));
        assert_eq!(u["damage_possible"], true);
        let (_, text, _) = cli(&["bound", "gc-pause", "--max-pause-ms", "unbounded"]);
        assert!(text.contains("   unbounded  pause: unbounded"), "{text}");
        // The work before the write is the reader's to change: a second more, a second
        // more overlap.
        let w = report(&[
            "bound",
            "gc-pause",
            "--max-pause-ms",
            "40000",
            "--max-delay-ms",
            "5",
            "--work-ms",
            "11000",
            "--format",
            "json",
        ]);
        assert_eq!(w["worst_overlap_ms"], 21_015);
        let f = report(&[
            "bound",
            "gc-pause",
            "--max-pause-ms",
            "unbounded",
            "--fence",
            "monotone",
            "--format",
            "json",
        ]);
        assert_eq!(f["safe"], true);
        assert!(f["worst_overlap_ms"].is_null());
        // Consul: bounded at its earliest invalidation, which its worst case pins.
        let c = report(&["bound", "consul-false-positive", "--format", "json"]);
        assert_eq!(c["worst_case"]["coordinator"]["invalidation"], "earliest");
        // Text: the verdict and the formula with the numbers.
        let (code, out, _) = cli(&["bound", "clean", "--client", "c2", "--max-pause-ms", "0"]);
        assert_eq!(code, 0);
        assert!(
            out.contains("clean c2 [generic]") && out.contains("overlap = D + W"),
            "{out}"
        );
    }

    #[test]
    fn bound_names_the_scenario_s_faults_its_bounds_leave_out() {
        // redis-clock-jump breaks by its clock jump, which no bound covers: the figure
        // alone says "safe", so the answer must say what it leaves out, before the verdict.
        let (code, text, _) = cli(&["bound", "redis-clock-jump"]);
        assert_eq!(code, 0);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[2],
            "This run also has a clock jump, which these bounds (pauses, delays, drift) leave out: the figure says nothing about it.",
            "{text}"
        );
        assert_eq!(lines[3], "safe", "{text}");
        let v = report(&["bound", "redis-clock-jump", "--format", "json"]);
        assert_eq!(v["outside_bounds"], serde_json::json!(["clock_jump"]));
        let v = report(&["bound", "delayed-write", "--format", "json"]);
        assert_eq!(v["outside_bounds"], serde_json::json!(["delay"]));
        // A job that writes again after its first: said, with the W for the last.
        let (_, text, _) = cli(&["bound", "ttl-shorter-than-work"]);
        assert!(
            text.lines().nth(2).unwrap().starts_with(
                "Its job goes on after that first write (3 more writes and 1 more effect"
            ),
            "{text}"
        );
        assert!(
            text.lines()
                .nth(2)
                .unwrap()
                .ends_with("To ask about the last: --work-ms 1500000."),
            "{text}"
        );
        let v = report(&["bound", "ttl-shorter-than-work", "--format", "json"]);
        assert_eq!(v["later"]["work_before_last_ms"], 1_500_000);
        // No overlap but a late write (a holder that carries on after it learns): unsafe,
        // said without a negative "by".
        let (_, text, _) = cli(&["bound", "partition-duplicate-effects"]);
        assert!(
            text.contains(
                "\nunsafe: no overlap, but a write up to 30010 ms after the next grant\n"
            ),
            "{text}"
        );
        // A run the bounds cover whole says nothing more.
        let v = report(&["bound", "gc-pause", "--format", "json"]);
        assert_eq!(v["outside_bounds"], serde_json::json!([]));
        assert!(v["later"].is_null());
        let (_, text, _) = cli(&["bound", "gc-pause"]);
        assert!(!text.contains("leave out"), "{text}");
    }

    #[test]
    fn bound_refusals_name_the_option_and_exit_2() {
        for (args, names) in [
            (&["bound", "gc-pause", "--client", "c9"][..], "--client"),
            (
                &["bound", "gc-pause", "--max-drift-ppm", "600000"][..],
                "--max-drift-ppm",
            ),
            (
                &["bound", "gc-pause", "--max-delay-ms", "-1"][..],
                "--max-delay-ms",
            ),
            (
                &["bound", "gc-pause", "--max-delay-ms", "600"][..],
                "--max-delay-ms",
            ),
            (
                &["bound", "gc-pause", "--max-pause-ms", "x"][..],
                "--max-pause-ms",
            ),
            (&["bound", "gc-pause", "--work-ms", "-1"][..], "--work-ms"),
            (
                &["bound", "gc-pause", "--work-ms", "99999999999"][..],
                "--work-ms",
            ),
            (&["bound"][..], "bound needs"),
        ] {
            let (code, out, err) = cli(args);
            assert_eq!(code, 2, "{args:?}");
            assert!(out.is_empty());
            assert!(err.contains(names), "{args:?}: {err}");
            assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        }
    }
}
