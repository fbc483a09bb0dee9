//! The command-line tool: run a preset or a scenario file, list presets, validate a file.
//!
//! It is a thin shell over the core, written against `Write` handles so tests can drive it
//! without a process. Every refusal is one line on stderr and a non-zero exit code.

use crate::analysis::check::{check, Verdict};
use crate::model::scenario::{FenceWord, Flavor, Scenario};
use crate::model::sim::simulate;
use crate::model::trace::{Outcome, Trace};
use crate::teach::flavor_presets::{self, FLAVOR_PRESETS};
use crate::teach::library::{self, LESSONS};
use crate::teach::presets::{preset, PRESETS};
use serde::Serialize;
use std::io::Write;

pub const USAGE: &str = "\
leaseline — a deterministic simulator of lease-based distributed locks and fencing tokens

USAGE:
    leaseline run <preset | lesson[/fix] | flavor-preset[/fix] | file.json>
                  [--fence MODE] [--flavor FLAVOR] [--seed N] [--format text|json]
    leaseline presets          (lists the presets and the scenario library)
    leaseline check <file.json>
    leaseline --help

    --fence   none | monotone | strict | exact | non_atomic | volatile
              (overrides the scenario's storage fence; volatile = monotone with the
              high-water mark kept only in memory)
    --flavor  generic | redis | redlock | zookeeper | etcd | consul | chubby
              (the lock service the coordinator behaves like)
    --seed    replaces the scenario's seed
    --format  text (a readable timeline and the verdict; default) or json

Exit codes: 0 ran (whatever the verdict) or valid; 2 bad input.
Example: leaseline run gc-pause --fence monotone
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
        let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        return Err(format!(
            "no preset or file `{what}` (presets: {})",
            names.join(", ")
        ));
    }
    let text = std::fs::read_to_string(what).map_err(|e| format!("{what}: {e}"))?;
    Scenario::from_json(&text).map_err(|e| format!("{what}: {e}"))
}

fn run_cmd(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let mut target = None;
    let mut fence = None;
    let mut flavor = None;
    let mut seed = None;
    let mut json = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().cloned().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--fence" => fence = Some(value("--fence")?),
            "--flavor" => flavor = Some(value("--flavor")?),
            "--seed" => seed = Some(value("--seed")?),
            "--format" => {
                json = match value("--format")?.as_str() {
                    "json" => true,
                    "text" => false,
                    f => return Err(format!("--format: `{f}` is not text or json")),
                }
            }
            s if s.starts_with("--") => return Err(format!("unknown option `{s}` (try --help)")),
            s if target.is_none() => target = Some(s.to_string()),
            s => return Err(format!("unexpected argument `{s}`")),
        }
    }
    let target = target.ok_or("run needs a preset or a file (try `leaseline presets`)")?;
    let mut sc = load(&target)?;
    if let Some(f) = fence {
        apply_fence(&mut sc, &f)?;
    }
    if let Some(f) = flavor {
        sc.coordinator.flavor = Flavor::parse(&f)
            .ok_or(format!("--flavor: `{f}` is not one of {}", Flavor::names()))?;
    }
    if let Some(s) = seed {
        sc.seed = s
            .parse()
            .map_err(|_| format!("--seed: `{s}` is not a whole number ≥ 0"))?;
    }
    let trace = simulate(&sc).map_err(|e| e.to_string())?;
    let verdict = check(&trace);
    let io = |e: std::io::Error| e.to_string();
    if json {
        let report = Report::new(&trace, &verdict);
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&report).map_err(|e| e.to_string())?
        )
        .map_err(io)
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
        for e in &trace.entries {
            writeln!(out, "{e}").map_err(io)?;
        }
        writeln!(
            out,
            "outcome: {:?} at {}; digest {}",
            trace.outcome,
            trace.end,
            trace.digest_hex()
        )
        .map_err(io)?;
        write!(out, "{}", verdict.summary()).map_err(io)
    }
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

    /// The JSON report of a run that must succeed.
    fn report(args: &[&str]) -> serde_json::Value {
        let (code, out, err) = cli(args);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).unwrap()
    }

    #[test]
    fn help_and_presets() {
        assert!(cli(&["--help"]).1.contains("USAGE"));
        // The usage lists the fence words the parser reads (and the old `non-atomic` still works).
        assert!(USAGE.contains(&FenceMode::names().replace(", ", " | ")));
        let mut sc = preset("gc-pause").unwrap().scenario();
        apply_fence(&mut sc, "non-atomic").unwrap();
        assert_eq!(sc.storage.fence, FenceMode::NonAtomic);
        let (code, out, _) = cli(&["presets"]);
        assert_eq!(code, 0);
        assert!(out.contains("gc-pause"));
        // Issue #13: the new lessons are listed, each entry with its sources under it.
        for id in [
            "permanent-lock",
            "idempotent-job",
            "silent-renewal-failure",
            "stop-and-resume",
            "release-lost",
            "random-value-release",
            "restore-from-backup",
            "exact-fence",
            "unique-constraint",
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
        // so neither is counted stale (issue #13 point 2).
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
}
