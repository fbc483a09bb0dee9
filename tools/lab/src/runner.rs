//! The runner: one lab scenario, for real. It starts the storage (a thread) and one proxy per
//! client in front of the lock service (threads), spawns each client as its own process
//! (this binary's `client` command), injects the scenario's faults at their true times —
//! a pause is SIGSTOP … SIGCONT of the client's process, a partition from the lock service
//! is its proxy cut … healed — then merges every process's lines into one recorded trace.
//!
//! Clients are spawned before the lab's start instant and each waits for its own `start_ms`,
//! so process start-up does not shift the timeline.
//!
//! The lock service is the scenario's `coordinator.flavor` (redis, etcd or zookeeper). What
//! the model's file cannot say — it refuses unknown fields — a lab-only file beside it says:
//! `NAME.lab`, lines of `setting = value` (`#` starts a comment). Its one setting today is
//! `storage`: `lab` (the default: the runner's own server; etcd itself under `exact`) or
//! `postgres` (the writes go through the lab's PostgreSQL).

use crate::client::Service;
use crate::clock::{now_ns, Epoch};
use crate::etcd::Etcd;
use crate::noise::{self, Band, Samples};
use crate::proxy::Proxy;
use crate::record::Recorder;
use crate::storage::{self, Backend, Fence};
use serde_json::{json, Value};
use std::path::Path;
use std::process::{Child, Command};
use std::time::Duration;

/// Head start for the client processes before the lab's time 0.
const LEAD_MS: i64 = 200;

pub struct Services {
    pub redis: Option<String>,
    pub etcd: Option<String>,
    pub zookeeper: Option<String>,
    /// The tickTime the lab's zoo.cfg sets: ZooKeeper expires sessions on tick boundaries.
    pub zookeeper_tick_ms: i64,
    pub postgres: Option<String>,
    pub postgres_user: String,
}

/// The storage a scenario's `NAME.lab` names (`lab` when there is no such file).
fn storage_setting(scenario: &Path) -> Result<String, String> {
    let side = scenario.with_extension("lab");
    let text = match std::fs::read_to_string(&side) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok("lab".into()),
        Err(e) => return Err(format!("{}: {e}", side.display())),
    };
    let mut storage = "lab".to_string();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = format!("{}:{}", side.display(), n + 1);
        let (k, v) = line
            .split_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .ok_or_else(|| format!("{at}: expected `setting = value`"))?;
        match (k, v) {
            ("storage", "lab" | "postgres") => storage = v.to_string(),
            ("storage", _) => {
                return Err(format!("{at}: storage is `lab` or `postgres`, not `{v}`"))
            }
            _ => return Err(format!("{at}: unknown setting `{k}` (known: storage)")),
        }
    }
    Ok(storage)
}

pub struct Ran {
    pub name: String,
    pub service: Service,
    /// Where the data lived: `lab`, `etcd` or `postgres`.
    pub storage: &'static str,
    /// The merged recorded trace's lines (header first).
    pub trace: Vec<String>,
    /// The scheduling noise measured during the run.
    pub noise: Band,
}

/// The client processes of a run: whatever way the run ends, an error included, none
/// outlives it (a stopped one too: SIGKILL ends a stopped process).
struct Children(Vec<Child>);

impl Drop for Children {
    fn drop(&mut self) {
        for c in &mut self.0 {
            if let Ok(None) = c.try_wait() {
                let _ = c.kill();
                let _ = c.wait();
            }
        }
    }
}

pub fn run(path: &Path, sv: &Services, out: &Path) -> Result<Ran, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let sc: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("lab")
        .to_string();
    let service = sc["coordinator"]["flavor"]
        .as_str()
        .and_then(Service::parse)
        .ok_or_else(|| {
            format!(
                "{name}: coordinator.flavor: the lab runs redis, etcd or zookeeper, not {}",
                sc["coordinator"]["flavor"]
            )
        })?;
    let svc = service.word();
    let addr = match service {
        Service::Redis => sv.redis.clone(),
        Service::Etcd => sv.etcd.clone(),
        Service::ZooKeeper => sv.zookeeper.clone(),
    }
    .ok_or_else(|| format!("{name}: needs --{svc}"))?;
    let fence = match sc["storage"]["fence"].as_str().unwrap_or("none") {
        "none" => Fence::None,
        "monotone" => Fence::Monotone,
        "strict" => Fence::Strict,
        "exact" => Fence::Exact,
        "non_atomic" => Fence::NonAtomic {
            gap_ms: sc["storage"]["check_gap_ms"].as_i64().unwrap_or(0),
        },
        f => return Err(format!("{name}: storage.fence {f} is not in the lab")),
    };
    let storage_word = storage_setting(path)?;
    let parts = out.join(format!("{name}.parts"));
    let _ = std::fs::remove_dir_all(&parts);
    std::fs::create_dir_all(&parts).map_err(|e| e.to_string())?;
    let part = |n: &str| {
        parts
            .join(format!("{n}.ndjson"))
            .to_string_lossy()
            .into_owned()
    };
    let noise_part = |n: &str| {
        parts
            .join(format!("{n}.noise"))
            .to_string_lossy()
            .into_owned()
    };

    // Every run has its own lock key, so runs on one service never meet.
    let lock_key = format!("leaseline-lab/{name}/{}", now_ns());
    let mut start = now_ns() + LEAD_MS * 1_000_000;
    if service == Service::Etcd {
        // The model's etcd looks for expired leases at 0, 500, 1000, … ms of the run; the
        // run starts on a look of the real one, so both revoke at the same moments.
        let probe = Etcd {
            addr: addr.clone(),
            timeout: Duration::from_secs(1),
            samples: None,
        };
        let look = probe
            .lessor_look(&format!("{lock_key}.lessor-probe"))
            .map_err(|e| format!("{name}: {e}"))?;
        let scan = crate::ETCD_SCAN_MS * 1_000_000;
        start = now_ns() + LEAD_MS * 1_000_000;
        start += (look - start).rem_euclid(scan);
    }
    if service == Service::ZooKeeper {
        // ZooKeeper rounds a session's deadline up to the next tick of its elapsed-time
        // clock (`ExpiryQueue.roundToNextInterval`), Java's nanoTime: CLOCK_MONOTONIC, the
        // lab's own clock. The model ticks from the run's start at the scenario's
        // `coordinator.tick_ms`, so that must be the lab's tickTime, and the run starts on
        // a tick.
        let tick = sc["coordinator"]["tick_ms"].as_i64().unwrap_or(0);
        if tick != sv.zookeeper_tick_ms {
            return Err(format!(
                "{name}: coordinator.tick_ms is {tick}, where the lab's ZooKeeper ticks every {} ms: say {} so the model expires sessions when ZooKeeper does",
                sv.zookeeper_tick_ms, sv.zookeeper_tick_ms
            ));
        }
        start += (-start).rem_euclid(tick * 1_000_000);
    }
    let epoch = Epoch(start);
    let runner = Recorder::create(&part("runner"), "runner", epoch)?;
    let samples = Samples::create(&noise_part("runner"), epoch)?;
    let storage_samples = Samples::create(&noise_part("storage"), epoch)?;
    let backend = match (storage_word.as_str(), fence) {
        ("postgres", _) => Backend::Postgres {
            addr: sv
                .postgres
                .clone()
                .ok_or_else(|| format!("{name}: storage = postgres needs --postgres"))?,
            user: sv.postgres_user.clone(),
            samples: storage_samples,
        },
        (_, Fence::Exact) if service == Service::Etcd => Backend::Etcd(Etcd {
            addr: addr.clone(),
            timeout: Duration::from_secs(1),
            samples: Some(storage_samples),
        }),
        _ => Backend::Memory,
    };
    let storage_kind = backend.word();
    let storage_addr = storage::start(
        fence,
        backend,
        &lock_key,
        Recorder::create(&part("storage"), "storage", epoch)?,
    )
    .map_err(|e| format!("{name}: {e}"))?;

    let clients = sc["clients"].as_array().map_or(0, Vec::len);
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut proxies = Vec::new();
    let mut children = Children(Vec::new());
    for i in 0..clients {
        let cname = format!("c{}", i + 1);
        let proxy = Proxy::start(&addr)?;
        let child = Command::new(&exe)
            .args(["client", "--scenario"])
            .arg(path)
            .args(["--index", &i.to_string(), "--t0", &epoch.0.to_string()])
            .args([
                "--service",
                svc,
                "--lock",
                &proxy.addr,
                "--storage",
                &storage_addr,
            ])
            .args(["--key", &lock_key, "--out", &part(&cname)])
            .args(["--noise", &noise_part(&cname)])
            .args(["--parent", &std::process::id().to_string()])
            .spawn()
            .map_err(|e| format!("spawn {cname}: {e}"))?;
        proxies.push(proxy);
        children.0.push(child);
    }

    // The faults as timed actions on the lab clock.
    let mut actions: Vec<(i64, usize, Value)> = Vec::new();
    for (n, f) in sc["faults"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .enumerate()
    {
        let at = f["at_ms"].as_i64().unwrap_or(0);
        match f["fault"].as_str().unwrap_or("") {
            "pause" => {
                actions.push((at, n, json!({"do": "stop", "node": f["node"]})));
                let end = at + f["for_ms"].as_i64().unwrap_or(0);
                actions.push((end, n, json!({"do": "cont", "node": f["node"]})));
            }
            k @ ("partition" | "heal") => {
                let (a, b) = (f["a"].as_str().unwrap_or(""), f["b"].as_str().unwrap_or(""));
                let client = if b == "coord" { a } else { b };
                if a != "coord" && b != "coord" {
                    return Err(format!(
                        "{name}: the lab cuts a client from the lock service only"
                    ));
                }
                if service == Service::ZooKeeper {
                    // Its client would need Curator's LOST after a long Disconnected.
                    return Err(format!(
                        "{name}: the lab does not cut links to zookeeper yet"
                    ));
                }
                actions.push((at, n, json!({"do": k, "node": client})));
            }
            k => return Err(format!("{name}: fault `{k}` is not in the lab")),
        }
    }
    actions.sort_by_key(|a| (a.0, a.1));
    let index = |node: &Value| -> Result<usize, String> {
        node.as_str()
            .and_then(|s| s.strip_prefix('c'))
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|&n| n >= 1 && n <= children.0.len())
            .map(|n| n - 1)
            .ok_or_else(|| format!("{name}: no client {node}"))
    };
    // Per client: when it was paused or cut off (ns), so its noise samples then are left out.
    let mut faulted: Vec<Vec<noise::Fault>> = vec![Vec::new(); children.0.len()];
    let mut open: Vec<Option<(i64, bool)>> = vec![None; children.0.len()];
    if std::env::var_os("LAB_FAIL").is_some() {
        // For checking that a failing run leaves no process behind (scripts/lab.sh --check).
        return Err(format!("{name}: LAB_FAIL is set: failing on purpose"));
    }
    for (at, _, a) in &actions {
        let i = index(&a["node"])?;
        samples.sleep_until(at * 1_000_000);
        let (node, pid) = (format!("c{}", i + 1), children.0[i].id() as i32);
        let sent = epoch.now();
        match a["do"].as_str().unwrap_or("") {
            "stop" => {
                // SAFETY: kill(2) on our own child's pid.
                unsafe { libc::kill(pid, libc::SIGSTOP) };
                runner.note_for(&node, "pause_began", json!({}));
                samples.add("SIGSTOP", sent, noise::signal_seen(pid, true, sent, epoch));
                open[i] = Some((sent, true));
            }
            "cont" => {
                // SAFETY: as above.
                unsafe { libc::kill(pid, libc::SIGCONT) };
                runner.note_for(&node, "pause_ended", json!({}));
                let seen = noise::signal_seen(pid, false, sent, epoch);
                samples.add("SIGCONT", sent, seen);
                let from = open[i].take().map_or(sent, |o| o.0);
                faulted[i].push((from, seen, true));
            }
            "partition" => {
                proxies[i].cut();
                runner.note_for(&node, "link_cut", json!({ "peer": svc }));
                open[i] = Some((sent, false));
            }
            _ => {
                proxies[i].heal();
                runner.note_for(&node, "link_healed", json!({ "peer": svc }));
                let from = open[i].take().map_or(sent, |o| o.0);
                faulted[i].push((from, epoch.now(), false));
            }
        }
    }
    for (i, o) in open.iter().enumerate() {
        if let Some((from, pause)) = o {
            faulted[i].push((*from, i64::MAX, *pause));
        }
    }

    // Wait for the clients, at most to the horizon and a little more.
    let horizon = sc["horizon_ms"].as_i64().unwrap_or(60_000);
    let mut failed = Vec::new();
    for (i, c) in children.0.iter_mut().enumerate() {
        loop {
            match c.try_wait() {
                Ok(Some(st)) => {
                    if !st.success() {
                        failed.push(format!("c{} exited with {st}", i + 1));
                    }
                    break;
                }
                Ok(None) if epoch.now() < (horizon + 5_000) * 1_000_000 => {
                    std::thread::sleep(Duration::from_millis(20))
                }
                _ => {
                    let _ = c.kill();
                    let _ = c.wait();
                    failed.push(format!("c{} still running past the horizon: killed", i + 1));
                    break;
                }
            }
        }
    }
    if !failed.is_empty() {
        return Err(format!("{name}: {}", failed.join("; ")));
    }

    let mut nodes: Vec<Value> = (1..=children.0.len())
        .map(|i| json!({"name": format!("c{i}"), "role": "client"}))
        .collect();
    nodes.push(json!({"name": svc, "role": "lock service"}));
    nodes.push(json!({"name": "storage", "role": "storage"}));
    let header = json!({
        "leaseline_trace": 1,
        "scenario": name,
        "service": svc,
        "source": "lab",
        "notes": format!(
            // Words a reader of the page understands: no repository paths.
            "Leaseline's lab ran the scenario {name} against a real {svc}{}",
            if storage_kind == "postgres" { ", storage in a real PostgreSQL" } else { "" }
        ),
        "nodes": nodes,
    });
    let mut files = vec![part("runner"), part("storage")];
    files.extend((1..=children.0.len()).map(|i| part(&format!("c{i}"))));
    let trace = merge(&header, &files)?;
    let mut sampled = vec![
        (noise_part("runner"), Vec::new()),
        (noise_part("storage"), Vec::new()),
    ];
    sampled.extend(
        faulted
            .into_iter()
            .enumerate()
            .map(|(i, f)| (noise_part(&format!("c{}", i + 1)), f)),
    );
    let noise = noise::band(&sampled)?;
    std::fs::write(out.join(format!("{name}.ndjson")), trace.join("\n") + "\n")
        .map_err(|e| e.to_string())?;
    let _ = std::fs::remove_dir_all(&parts);
    Ok(Ran {
        name,
        service,
        storage: storage_kind,
        trace,
        noise,
    })
}

/// One trace from the processes' files: the header, then every line ordered by `t_us`,
/// equal times in file order (a stable sort).
pub fn merge(header: &Value, files: &[String]) -> Result<Vec<String>, String> {
    let mut lines: Vec<(i64, String)> = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(f).map_err(|e| format!("{f}: {e}"))?;
        for l in text.lines().filter(|l| !l.is_empty()) {
            let v: Value = serde_json::from_str(l).map_err(|e| format!("{f}: {e}"))?;
            lines.push((v["t_us"].as_i64().unwrap_or(0), l.to_string()));
        }
    }
    lines.sort_by_key(|l| l.0);
    let mut out = vec![header.to_string()];
    out.extend(lines.into_iter().map(|l| l.1));
    Ok(out)
}
