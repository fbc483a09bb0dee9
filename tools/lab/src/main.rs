//! `lab`: Leaseline's lessons run against a real Redis and a real etcd (issue 18, parts 4–5).
//!
//! `lab all DIR --redis ADDR --etcd ADDR --out DIR` runs every scenario file in DIR and
//! prints, per scenario, the model's verdict, the real run's, the largest timing difference
//! of their key events, and "agree" or "differ"; `lab run FILE …` runs one. `lab client …` is
//! the client process the runner spawns (not for people); `lab ports N` prints N free
//! loopback ports. scripts/lab.sh starts the services and calls these.

mod client;
mod clock;
mod compare;
mod etcd;
mod http;
mod proxy;
mod record;
mod resp;
mod runner;
mod storage;

use std::path::{Path, PathBuf};

/// The scheduling noise the lab allows between the model's time of a key event and its real
/// one (issue 18: ±50 ms at second-scale TTLs).
const NOISE_US: i64 = 50_000;

/// Why a service's times may lie beyond that noise: what it does that the model does not.
fn lag_note(service: client::Service) -> &'static str {
    match service {
        client::Service::Redis => "",
        // etcd 3.4's lessor looks for expired leases every 500 ms, and each grant, revoke and
        // transaction is a raft write with an fsync: a waiter is granted up to ~0.7 s after
        // the TTL ran out, where the model grants at once.
        client::Service::Etcd => "; etcd revokes expired leases on a 500 ms tick",
    }
}

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

fn client_cmd(args: &[String]) -> Result<bool, String> {
    // Die with the runner, whatever kills it.
    // SAFETY: prctl with PR_SET_PDEATHSIG only sets this process's own signal.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) };
    let need = |n: &str| opt(args, n).ok_or_else(|| format!("client: {n} missing"));
    let path = need("--scenario")?;
    let sc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
    let i: usize = need("--index")?.parse().map_err(|_| "--index")?;
    let cfg = client::Config {
        name: format!("c{}", i + 1),
        spec: sc["clients"][i].clone(),
        service: if need("--service")? == "redis" {
            client::Service::Redis
        } else {
            client::Service::Etcd
        },
        lock_addr: need("--lock")?,
        storage_addr: need("--storage")?,
        lock_key: need("--key")?,
        epoch: clock::Epoch(need("--t0")?.parse().map_err(|_| "--t0")?),
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
    };
    let out = PathBuf::from(opt(args, "--out").unwrap_or_else(|| "target/lab".into()));
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    let mut agree_all = true;
    for f in &files {
        agree_all &= one(f, &services, &out)?;
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

fn one(f: &Path, services: &runner::Services, out: &Path) -> Result<bool, String> {
    let fs = f.to_string_lossy().into_owned();
    let (mc, mt, report) = compare::model(&fs)?;
    let ran = runner::run(f, services, out)?;
    std::fs::write(out.join(format!("{}.model.json", ran.name)), report)
        .map_err(|e| e.to_string())?;
    let (rc, rt) = compare::real(&ran.trace)?;
    let (gap, which, unmatched) = compare::largest_gap(&mt, &rt);
    // Agreement is the verdict classes; the timing is reported beside them.
    let agree = mc == rc && unmatched.is_empty();
    let timing = if gap <= NOISE_US {
        format!("within ±{} ms", NOISE_US / 1000)
    } else {
        format!("over ±{} ms{}", NOISE_US / 1000, lag_note(ran.service))
    };
    println!(
        "{:<20} model: {} | real: {} | largest Δ {} ms, {} ({}) | {}",
        ran.name,
        mc.words(),
        rc.words(),
        gap / 1000,
        if which.is_empty() { "none" } else { &which },
        timing,
        if agree { "agree" } else { "differ" }
    );
    for u in unmatched {
        println!("{:<20}   {u}", "");
    }
    Ok(agree)
}
