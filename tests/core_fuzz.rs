//! Fuzz-style robustness: random and mutated JSON through decode → validate → run.
//! Nothing may panic; every refusal must be an error value that names a problem.

mod common;

use leaseline::analysis::check::check;
use leaseline::model::scenario::{FenceMode, Scenario};
use leaseline::model::sim::rng::Rng;
use leaseline::model::sim::run;
use leaseline::teach::presets::PRESETS;
use serde_json::Value;

const INPUTS: u32 = 100_000;

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

/// Replaces one random leaf (or drops one key) somewhere in the document.
fn mutate(v: &mut Value, r: &mut Rng) {
    match v {
        Value::Object(map) if !map.is_empty() => {
            let keys: Vec<String> = map.keys().cloned().collect();
            let k = &keys[r.range_i64(0, keys.len() as i64 - 1) as usize];
            match r.range_i64(0, 5) {
                0 => {
                    map.remove(k);
                }
                1 => {
                    map.insert(k.clone(), extreme(r));
                }
                2 => {
                    map.insert(format!("{k}_typo"), Value::from(1));
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

#[test]
fn decode_validate_run_never_panics() {
    let mut r = Rng::new(0xF022);
    let mut seeds: Vec<String> = PRESETS
        .iter()
        .map(|p| p.scenario().to_json_pretty())
        .collect();
    for s in 0..50 {
        seeds.push(common::scenario(s, FenceMode::Monotone).to_json_pretty());
    }
    let (mut accepted, mut refused) = (0u32, 0u32);
    for i in 0..INPUTS {
        let base = &seeds[(i as usize) % seeds.len()];
        let text = match i % 4 {
            0 => byte_noise(base, &mut r),
            3 if i % 64 == 3 => (0..r.range_i64(0, 200))
                .map(|_| (r.range_i64(32, 126) as u8) as char)
                .collect(),
            _ => {
                let mut v: Value = serde_json::from_str(base).unwrap();
                for _ in 0..r.range_i64(1, 3) {
                    mutate(&mut v, &mut r);
                }
                v.to_string()
            }
        };
        match Scenario::from_json(&text) {
            Ok(mut sc) => {
                accepted += 1;
                // Keep the test quick: the limits allow a million entries per run, which
                // is correct but slow to do 30,000 times.
                sc.max_events = sc.max_events.min(5_000);
                let trace = run(&sc);
                let _ = check(&trace);
            }
            Err(e) => {
                refused += 1;
                assert!(!e.to_string().is_empty(), "input {i}: empty error");
            }
        }
    }
    println!("{INPUTS} inputs: {accepted} ran, {refused} refused with an error");
    assert!(
        accepted > 1_000 && refused > 10_000,
        "the mutator must exercise both paths"
    );
}

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
