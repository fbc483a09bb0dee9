//! The lab's eight recordings (tests/recorded/lab, written by `make lab` against a real Redis,
//! etcd and ZooKeeper, three with their storage in a real PostgreSQL) judged without the
//! services: each gets the verdict classes the lab printed for it, and they equal the classes of the model's run of the same scenario file
//! (tools/lab/scenarios, what `leaseline run FILE` runs). The classes come from the lab's own
//! module, so this is the lab's comparison itself, not a copy of it.

use crate::lab_verdict as verdict;

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Each lab scenario with the classes `make lab` printed for its real run.
const LAB: &[(&str, &str)] = &[
    (
        "gc-pause-etcd-exact",
        "SAFE, two believers (c1, c2), stale write rejected (c1), tokens in order",
    ),
    (
        "gc-pause-etcd-pg",
        "SAFE, two believers (c1, c2), stale write rejected (c1), tokens in order",
    ),
    (
        "gc-pause-etcd",
        "SAFE, two believers (c1, c2), stale write rejected (c1), tokens in order",
    ),
    (
        "gc-pause-redis",
        "UNSAFE, two believers (c1, c2), stale write accepted (c1), lost update (c1), tokens in order",
    ),
    (
        "gc-pause-zookeeper",
        "SAFE, two believers (c1, c2), stale write rejected (c1), tokens in order",
    ),
    (
        "non-atomic-etcd-pg",
        "UNSAFE, two believers (c1, c2), stale write accepted (c1), lost update (c1), tokens in order",
    ),
    (
        "partition-etcd",
        "SAFE, two believers (c1, c2), stale write rejected (c1), tokens in order",
    ),
    (
        "ttl-short-etcd",
        "UNSAFE, two believers (c1, c2), stale write accepted (c1), lost update (c1), tokens in order",
    ),
];

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn each_lab_recording_gets_the_printed_verdict_and_the_models() {
    for (name, printed) in LAB {
        let rec = read(&root().join(format!("tests/recorded/lab/{name}.ndjson")));
        let sc = read(&root().join(format!("tools/lab/scenarios/{name}.json")));
        let (rtrace, rv) = verdict::real(&rec).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (mtrace, mv) = verdict::model(&sc).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (real, model) = (verdict::classes(&rv), verdict::classes(&mv));
        assert_eq!(real.words(), *printed, "{name}: the recording");
        assert_eq!(real, model, "{name}: the recording against the model's run");
        // And the key events the lab times are the same ones on both sides.
        let keys = |t| {
            verdict::key_events(t)
                .iter()
                .map(|k| k.label())
                .collect::<Vec<_>>()
        };
        let (mut r, mut m) = (keys(&rtrace), keys(&mtrace));
        r.sort();
        m.sort();
        assert_eq!(r, m, "{name}: key events");
    }
}

#[test]
fn every_lab_scenario_has_its_recording() {
    let mut names: Vec<String> = std::fs::read_dir(root().join("tools/lab/scenarios"))
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let p = e.path();
            (p.extension()? == "json").then(|| p.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    names.sort();
    let mut listed: Vec<&str> = LAB.iter().map(|l| l.0).collect();
    listed.sort();
    assert_eq!(names, listed);
    for n in &names {
        assert!(
            root()
                .join(format!("tests/recorded/lab/{n}.ndjson"))
                .exists(),
            "{n}"
        );
    }
}

#[test]
fn a_real_etcd_grant_after_an_expiry_is_marked_for_the_waiters_poll() {
    // The lab adds its waiter's 20 ms poll to the tolerance of what follows an expiry:
    // in gc-pause-etcd that is client 2's grant and write, not client 1's late write.
    let sc = read(&root().join("tools/lab/scenarios/gc-pause-etcd.json"));
    let (t, _) = verdict::model(&sc).unwrap();
    let marked: Vec<(String, bool)> = verdict::key_events(&t)
        .iter()
        .map(|k| (k.label(), k.after_expiry))
        .collect();
    for (label, after) in &marked {
        assert_eq!(*after, label.starts_with("c2"), "{marked:?}");
    }
}

#[test]
fn the_lab_tier_says_skipped_with_the_reason_where_the_services_cannot_be_installed() {
    // A machine with no apt-get and none of the services on its PATH: `scripts/lab.sh
    // --check` (the `make test` tier) must say SKIPPED and why, exit 0, and start nothing.
    // The PATH holds only `dirname`, which the script needs to find the repository.
    let bin = std::env::temp_dir().join(format!("leaseline-lab-skip-{}", std::process::id()));
    std::fs::create_dir_all(&bin).unwrap();
    let dirname = ["/usr/bin/dirname", "/bin/dirname"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .expect("dirname");
    let _ = std::fs::remove_file(bin.join("dirname"));
    std::os::unix::fs::symlink(dirname, bin.join("dirname")).unwrap();
    let out = std::process::Command::new("/bin/bash")
        .arg(root().join("scripts/lab.sh"))
        .arg("--check")
        .env_clear()
        .env("PATH", &bin)
        .env("HOME", &bin)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&bin);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let last = said.lines().last().unwrap_or("");
    assert!(
        last.starts_with("lab: SKIPPED — could not install ")
            && last.contains("redis-server")
            && last.ends_with(": apt-get not found (not a Debian system)"),
        "{said}"
    );
}

#[test]
fn no_etcd_lab_lease_runs_out_within_100_ms_of_a_lessor_look() {
    // etcd revokes on its lessor's looks (every 500 ms). A lease that runs out a few ms from
    // a look is a coin toss between two looks half a second apart, for the real lessor and
    // the model's alike: a millisecond of phase decides. The lab's scenarios keep clear.
    use leaseline::analysis::projection::walk;
    use leaseline::model::sim::simulate;
    use leaseline::model::trace::Event;
    for entry in std::fs::read_dir(root().join("tools/lab/scenarios")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.extension().is_none_or(|e| e != "json") || !name.contains("etcd") {
            continue;
        }
        let sc = leaseline::model::scenario::Scenario::from_json(&read(&path)).unwrap();
        let t = simulate(&sc).unwrap();
        let mut revoked = 0;
        walk(&t, |i, before, _| {
            let e = &t.entries[i];
            if let (Event::LeaseExpired { client, .. }, Some(l)) = (&e.event, &before.lease) {
                let gap = e.local - l.expires_local;
                assert!(
                    (100..=400).contains(&gap),
                    "{name}: {client:?}'s lease ran out {gap} ms before the look that took it"
                );
                revoked += 1;
            }
        });
        assert!(revoked > 0, "{name}: no lease ran out");
    }
}
