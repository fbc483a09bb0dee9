//! `lab`: Leaseline's lessons run against a real Redis, etcd and ZooKeeper, with storage in
//! the runner or in a real PostgreSQL.
//!
//! `lab all DIR --redis ADDR --etcd ADDR --zookeeper ADDR --zookeeper-tick-ms N --postgres
//! ADDR --postgres-user USER --out DIR` runs every scenario file in DIR and
//! prints, per scenario, the model's verdict, the real run's, the largest timing difference
//! of their key events, and "agree" or "differ"; `lab run FILE …` runs one. `lab client …` is
//! the client process the runner spawns (not for people); `lab ports N` prints N free
//! loopback ports. scripts/lab.sh starts the services and calls these.

mod client;
mod clock;
mod etcd;
mod http;
mod noise;
mod pg;
mod proxy;
mod record;
mod resp;
mod runner;
mod storage;
mod verdict;
mod zk;

use std::path::{Path, PathBuf};

/// The lab's timing target (±50 ms) at second-scale TTLs, kept in view beside the measured
/// tolerance.
const TARGET_MS: i64 = 50;

/// etcd's lessor looks for expired leases every 500 ms (lessor.go, `revokeExpiredLeases`),
/// as the model's etcd does: the runner starts an etcd run on one of its looks.
const ETCD_SCAN_MS: i64 = leaseline::model::flavors::etcd::LESSOR_SCAN_MS;

fn opt(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r = match args.first().map(String::as_str) {
        Some("client") => client_cmd(&args[1..]),
        Some("run") => lab(&args[1..], false),
        Some("all") => lab(&args[1..], true),
        Some("ports") => ports(args.get(1).and_then(|n| n.parse().ok()).unwrap_or(1)),
        Some("warm-zookeeper") => warm_zookeeper(args.get(1).map_or("", String::as_str)),
        _ => Err("usage: lab all DIR | lab run FILE, then --redis ADDR --etcd ADDR --out DIR; lab ports N".into()),
    };
    match r {
        Ok(true) => {}
        Ok(false) => std::process::exit(1),
        Err(e) => {
            eprintln!("lab: {e}");
            std::process::exit(2);
        }
    }
}

/// `n` free loopback ports, held together while they are picked so they differ, then let go
/// for scripts/lab.sh to start the services on.
fn ports(n: usize) -> Result<bool, String> {
    let held: Vec<std::net::TcpListener> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0"))
        .collect::<Result<_, _>>()
        .map_err(|e| e.to_string())?;
    let ports: Vec<String> = held
        .iter()
        .map(|l| {
            l.local_addr()
                .map(|a| a.port().to_string())
                .map_err(|e| e.to_string())
        })
        .collect::<Result<_, _>>()?;
    println!("{}", ports.join(" "));
    Ok(true)
}

/// A fresh ZooKeeper is a cold JVM: its first sessions and creates take tens of ms while
/// the classes load and compile, which the first scenario would count as noise. A running
/// service is warm, so the script runs this once before the scenarios: a few sessions, each
/// creating and deleting a node.
fn warm_zookeeper(addr: &str) -> Result<bool, String> {
    let t = std::time::Duration::from_secs(5);
    // It answers "imok" a moment before it takes sessions: the first tries may be refused.
    let mut refused = 0;
    for i in 0..20 {
        let s = match zk::Session::open(addr, 4000, t) {
            Ok(s) => s,
            Err(_) if refused < 50 => {
                refused += 1;
                std::thread::sleep(std::time::Duration::from_millis(100));
                continue;
            }
            Err(e) => return Err(e),
        };
        let path = format!("/leaseline-lab-warm-{i}");
        let _ = s.create(&path, zk::EPHEMERAL_SEQUENTIAL)?;
        s.children("/")?;
        s.ping()?;
        s.close();
    }
    Ok(true)
}

fn client_cmd(args: &[String]) -> Result<bool, String> {
    // Die with the runner, whatever kills it.
    // SAFETY: prctl with PR_SET_PDEATHSIG only sets this process's own signal.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) };
    let need = |n: &str| opt(args, n).ok_or_else(|| format!("client: {n} missing"));
    // The runner may have died before the line above: then nobody will signal us.
    // SAFETY: getppid has no preconditions.
    if need("--parent")? != unsafe { libc::getppid() }.to_string() {
        return Err("client: the runner is gone".into());
    }
    let path = need("--scenario")?;
    let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
    let sc: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let i: usize = need("--index")?.parse().map_err(|_| "--index")?;
    let epoch = clock::Epoch(need("--t0")?.parse().map_err(|_| "--t0")?);
    let model =
        leaseline::model::scenario::Scenario::from_json(&text).map_err(|e| e.to_string())?;
    let cfg = client::Config {
        name: format!("c{}", i + 1),
        spec: sc["clients"][i].clone(),
        service: client::Service::parse(&need("--service")?).ok_or("--service")?,
        lock_addr: need("--lock")?,
        storage_addr: need("--storage")?,
        lock_key: need("--key")?,
        epoch,
        samples: noise::Samples::create(&need("--noise")?, epoch)?,
        // As the model reads it (its default when the file says nothing).
        hop_ms: model.network.default.min_delay_ms,
        gap_ms: if model.storage.fence == leaseline::model::scenario::FenceMode::NonAtomic {
            model.storage.check_gap_ms
        } else {
            0
        },
    };
    client::run(cfg, &need("--out")?)?;
    Ok(true)
}

fn lab(args: &[String], all: bool) -> Result<bool, String> {
    let target = args.first().ok_or("which scenario (file or directory)?")?;
    let files: Vec<PathBuf> = if all {
        let mut f: Vec<PathBuf> = std::fs::read_dir(target)
            .map_err(|e| format!("{target}: {e}"))?
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        f.sort();
        f
    } else {
        vec![PathBuf::from(target)]
    };
    let services = runner::Services {
        redis: opt(args, "--redis"),
        etcd: opt(args, "--etcd"),
        zookeeper: opt(args, "--zookeeper"),
        zookeeper_tick_ms: opt(args, "--zookeeper-tick-ms")
            .map(|t| t.parse().map_err(|_| "--zookeeper-tick-ms: a number of ms"))
            .transpose()?
            .unwrap_or(2000),
        postgres: opt(args, "--postgres"),
        postgres_user: opt(args, "--postgres-user").unwrap_or_else(|| "postgres".into()),
    };
    let out = PathBuf::from(opt(args, "--out").unwrap_or_else(|| "target/lab".into()));
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let mut lines = Vec::new();
    for f in &files {
        lines.push(one(f, &services, &out)?);
    }
    let agree_all = lines.iter().all(|l| l.0);
    println!();
    for (_, l) in &lines {
        println!("{l}");
    }
    println!(
        "lab: {} scenario(s), {}",
        files.len(),
        if agree_all {
            "all agree"
        } else {
            "some differ"
        }
    );
    Ok(agree_all)
}

/// One scenario: the model's run and the real one, each checked by the core; prints the
/// details and returns whether they agree and the summary line.
fn one(f: &Path, services: &runner::Services, out: &Path) -> Result<(bool, String), String> {
    let fs = f.to_string_lossy().into_owned();
    let text = std::fs::read_to_string(f).map_err(|e| format!("{fs}: {e}"))?;
    let (mtrace, mv) = verdict::model(&text).map_err(|e| format!("{fs}: {e}"))?;
    let ran = runner::run(f, services, out)?;
    // The model's report as `leaseline run FILE --format json` prints it, beside the trace.
    let (mut report, mut err) = (Vec::new(), Vec::new());
    let args: Vec<String> = ["run", &fs, "--format", "json"].map(String::from).to_vec();
    if leaseline::cli::run(&args, &mut report, &mut err) != 0 {
        return Err(String::from_utf8_lossy(&err).into_owned());
    }
    std::fs::write(out.join(format!("{}.model.json", ran.name)), report)
        .map_err(|e| e.to_string())?;
    let (rtrace, rv) = verdict::real(&ran.trace.join("\n"))
        .map_err(|e| format!("{}: the recorded trace: {e}", ran.name))?;
    let (mc, rc) = (verdict::classes(&mv), verdict::classes(&rv));

    // Tolerance: twice the measured noise, whole ms rounded up (a key event is a timer's
    // wake-up and a request's answer, each within the noise); +1 ms as both sides' times are
    // whole ms; + the model's round trip (its network delay each way), which loopback does
    // not take; + etcd's expiry scan or ZooKeeper's tick for what follows an expiry there.
    let hop = leaseline::model::scenario::Scenario::from_json(&text)
        .map_err(|e| e.to_string())?
        .network
        .default
        .min_delay_ms;
    let noise_ms = 2 * ((ran.noise.max_us + 999) / 1000) + 1 + 2 * hop;
    // What follows a lease or session running out at the service may lag by the service's
    // own expiry granularity (and the lab's waiter), which the model does not have.
    let lag = match ran.service {
        client::Service::Etcd => Some((
            etcd::POLL_MS as i64,
            format!("{} ms (the lab's waiter polls the key)", etcd::POLL_MS),
            "the lab's waiter polling the key".to_string(),
        )),
        // ZooKeeper's tick is in the model (`coordinator.tick_ms`, which the runner holds
        // to the lab's tickTime), and a waiter hears of the deleted node by its watch.
        client::Service::ZooKeeper | client::Service::Redis => None,
    };
    let scan = lag.is_some();
    let tolerance = |k: &verdict::KeyEvent| {
        noise_ms
            + match &lag {
                Some((ms, _, _)) if k.after_expiry => *ms,
                _ => 0,
            }
    };
    let (mk, rk) = (verdict::key_events(&mtrace), verdict::key_events(&rtrace));
    println!(
        "\n== {} ({}, storage: {})",
        ran.name,
        ran.service.word(),
        ran.storage
    );
    println!("   model: {}", mc.words());
    println!("   real:  {}", rc.words());
    println!("   noise: {}", ran.noise.words());
    println!(
        "   tolerance per key event: 2 × the noise (a timer's wake-up and a request's answer, each within it) + 1 ms (whole-ms times) + {} ms (the model's {hop} ms hop each way) = {noise_ms} ms{}",
        2 * hop,
        match &lag {
            Some((_, words, _)) => format!("; + {words} for events after an expiry (*)"),
            None => String::new(),
        }
    );
    println!(
        "   {:<24} {:>8} {:>8} {:>7} {:>10}",
        "key event", "model", "real", "Δ ms", "tolerance"
    );
    let mut worst: Option<(i64, String, i64, bool)> = None;
    let mut within = true;
    let mut unmatched = Vec::new();
    for m in &mk {
        let Some(r) = rk
            .iter()
            .find(|r| (r.what, r.node, r.nth) == (m.what, m.node, m.nth))
        else {
            unmatched.push(format!("model only: {}", m.label()));
            continue;
        };
        let (d, tol) = (r.t_ms - m.t_ms, tolerance(m));
        let ok = d.abs() <= tol;
        within &= ok;
        println!(
            "   {:<24} {:>8} {:>8} {:>+7} {:>9}{} {}",
            m.label(),
            m.t_ms,
            r.t_ms,
            d,
            tol,
            if m.after_expiry && scan { "*" } else { " " },
            if ok { "ok" } else { "OVER" }
        );
        if worst.as_ref().is_none_or(|w| d.abs() >= w.0.abs()) {
            worst = Some((d, m.label(), tol, m.after_expiry && scan));
        }
    }
    unmatched.extend(
        rk.iter()
            .filter(|r| {
                !mk.iter()
                    .any(|m| (r.what, r.node, r.nth) == (m.what, m.node, m.nth))
            })
            .map(|r| format!("real only: {}", r.label())),
    );
    for u in &unmatched {
        println!("   {u}");
    }
    let agree = mc == rc && unmatched.is_empty() && within;
    let (d, which, tol, scan) = worst.unwrap_or((0, "none".into(), noise_ms, false));
    let target = if d.abs() <= TARGET_MS {
        format!("within ±{TARGET_MS} ms")
    } else {
        format!(
            "over ±{TARGET_MS} ms by {} ms ({})",
            d.abs() - TARGET_MS,
            match &lag {
                Some((_, _, why)) if scan => why.as_str(),
                _ => "scheduling noise",
            }
        )
    };
    let why = match (mc == rc, unmatched.is_empty(), within) {
        (true, true, true) => String::new(),
        (false, _, _) => " (verdicts differ)".into(),
        (_, false, _) => " (key events differ)".into(),
        _ => " (a key event is over its tolerance)".into(),
    };
    let line = format!(
        "{:<20} model: {} | real: {} | largest Δ {:+} ms ({which}), tolerance {tol} ms | noise {} ms | {target} | {}{why}",
        ran.name,
        mc.words(),
        rc.words(),
        d,
        noise::tenths(ran.noise.max_us),
        if agree { "agree" } else { "differ" }
    );
    println!("   → {}", line[20..].trim_start());
    Ok((agree, line))
}
