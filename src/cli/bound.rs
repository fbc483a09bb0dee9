//! `leaseline bound`: the safety calculator from the command line — the worst case a
//! client's settings allow, as text or JSON.

use super::*;
use crate::analysis::bound::{later_actions, Guard};
use crate::model::scenario::Kind;
use crate::session::calculator::{last_write_w, later_note, uncovered, uncovered_note};

/// `leaseline bound`: reads the client and the bounds, computes, prints.
pub(super) fn bound_cmd(args: &[String], out: &mut dyn Write) -> Result<(), String> {
    let o = options(
        args,
        &[
            "--client",
            "--work-ms",
            "--max-pause-ms",
            "--max-delay-ms",
            "--max-drift-ppm",
            "--fence",
            "--flavor",
            "--format",
        ],
        &[],
    )?;
    let (target, sc, json) =
        o.scenario("bound needs a preset, lesson or file (try `leaseline presets`)")?;
    sc.validate().map_err(|e| format!("{target}: {e}"))?;
    let client = match o.get("--client") {
        None => 0,
        Some(c) => c
            .trim_start_matches('c')
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=sc.clients.len()).contains(n))
            .map(|n| n - 1)
            .ok_or(format!(
                "--client: `{c}` is not one of c1 … c{}",
                sc.clients.len()
            ))?,
    };
    let mut env = Env::of_scenario(&sc);
    if let Some(v) = o.get("--max-pause-ms") {
        env.max_pause_ms = match v {
            "unbounded" | "inf" | "none" => None,
            v => Some(number("--max-pause-ms", v)?),
        };
    }
    if let Some(v) = o.get("--max-delay-ms") {
        env.max_delay_ms = number("--max-delay-ms", v)?;
    }
    if let Some(v) = o.get("--max-drift-ppm") {
        env.max_drift_ppm = number("--max-drift-ppm", v)?;
    }
    let mut h = holder_of(&sc, client).map_err(|e| e.to_string())?;
    if let Some(v) = o.get("--work-ms") {
        h.work_ms = number("--work-ms", v)?;
    }
    let b = bound(&sc, &h, &env).map_err(|e| e.to_string())?;
    let advice = crate::teach::advice::bound_advice(&b);
    // The scenario's own faults the bounds do not cover: without them said, a lesson that
    // breaks by a partition or a clock jump would read "safe" here and unsafe in its run.
    let left_out = uncovered(&sc);
    let io = |e: std::io::Error| e.to_string();
    if json {
        let mut v = bound_json(&b, &advice, &left_out)?;
        v["later"] = match later_actions(&sc.clients[client]) {
            Some(l) => serde_json::json!({
                "writes": l.writes,
                "effects": l.effects,
                "work_before_last_ms": l.work_before_last_ms,
            }),
            None => serde_json::Value::Null,
        };
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&v).map_err(|e| e.to_string())?
        )
        .map_err(io)
    } else {
        let later = later_note(&sc, client).map(|n| match last_write_w(&sc, client) {
            Some(w) => format!("{n} To ask about the last: --work-ms {w}."),
            None => n,
        });
        let said: Vec<String> = [later, uncovered_note(&sc)].into_iter().flatten().collect();
        let notes = (!said.is_empty()).then(|| said.join("\n"));
        write!(
            out,
            "{}",
            bound_text(&target, client, &b, &advice, notes.as_deref())
        )
        .map_err(io)
    }
}

/// The JSON answer of `leaseline bound --format json`; `left_out`, the kinds of fault in the
/// scenario its bounds do not cover (`outside_bounds`, by their words in the scenario
/// format).
pub fn bound_json(b: &Bound, advice: &str, left_out: &[Kind]) -> Result<serde_json::Value, String> {
    let worst_case = match &b.worst_case {
        Some(sc) => serde_json::from_str(&sc.to_json_pretty()).map_err(|e| e.to_string())?,
        None => serde_json::Value::Null,
    };
    let terms: Vec<serde_json::Value> = b
        .terms
        .iter()
        .map(|t| serde_json::json!({"name": t.name, "ms": t.ms, "why": t.why}))
        .collect();
    Ok(serde_json::json!({
        "safe": b.safe,
        "worst_overlap_ms": b.worst_overlap_ms,
        "terms": terms,
        "formula": b.formula,
        "advice": advice,
        "dominant": b.dominant,
        "fenced": b.holder.fenced,
        "damage_possible": b.damage().possible(),
        "latest_write_ms": b.latest_write_ms,
        "write_never": b.write_never,
        "validity_ms": b.validity_ms,
        "bounds": {
            "max_pause_ms": b.env.max_pause_ms,
            "max_delay_ms": b.env.max_delay_ms,
            "max_drift_ppm": b.env.max_drift_ppm,
        },
        "outside_bounds": left_out.iter().map(|k| k.spec().word).collect::<Vec<_>>(),
        "worst_case": worst_case,
    }))
}

/// The text answer of `leaseline bound`; `notes`, what the figure leaves out (the job's
/// later writes, the scenario's faults its bounds do not cover), one sentence a line, said
/// under the bounds, before the verdict they qualify.
pub fn bound_text(
    target: &str,
    client: usize,
    b: &Bound,
    advice: &str,
    notes: Option<&str>,
) -> String {
    let h = &b.holder;
    let p = b
        .env
        .max_pause_ms
        .map_or("unbounded".to_string(), |p| format!("{p} ms"));
    let by = match h.guard {
        Guard::Idempotent => "an idempotent effect",
        Guard::RefusesAll => "every write refused: no token",
        Guard::Token | Guard::None => "fenced",
    };
    let verdict = match (b.worst_overlap_ms, b.safe) {
        (Some(o), true) if o > 0 => format!("safe ({by}; the beliefs overlap up to {o} ms)"),
        (None, true) => format!("safe ({by}; the beliefs can overlap without bound)"),
        (Some(_), true) => "safe".into(),
        (Some(o), false) if o <= 0 => format!(
            "unsafe: no overlap, but a write up to {} ms after the next grant",
            b.latest_write_ms.unwrap_or(0)
        ),
        (Some(o), false) => format!("unsafe by {o} ms"),
        (None, false) => "unsafe: the overlap has no bound".into(),
    };
    let mut s = format!(
        "{target} c{} [{}]: TTL {} ms, margin {} ms, work {} ms before the write\n\
bounds: pause {p}, delay {} ms, drift {} ppm\n{}{verdict}\n{}\n",
        client + 1,
        h.flavor.name(),
        h.ttl_ms,
        h.margin_ms,
        h.work_ms,
        b.env.max_delay_ms,
        b.env.max_drift_ppm,
        notes.map_or(String::new(), |n| format!("{n}\n")),
        b.formula
    );
    for t in &b.terms {
        s.push_str(&format!("  {:>12}  {}: {}\n", t.shown(), t.name, t.why));
    }
    let words = crate::teach::advice::bound_verdict(b);
    s.push_str(&format!(
        "{}\noverlap: {}\ndamage: {}\n",
        words.headline, words.overlap, words.damage
    ));
    if let Some(v) = b.validity_ms {
        s.push_str(&format!("Redlock validity: {v} ms\n"));
    }
    s.push_str(advice);
    s.push('\n');
    if b.worst_case.is_some() {
        s.push_str("The run that attains it: --format json, field worst_case.\n");
    }
    s
}
