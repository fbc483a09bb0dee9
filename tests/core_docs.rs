//! The documented example runs and shows what the doc says it shows.

use leaseline::analysis::check::{check, ViolationKind};
use leaseline::model::scenario::Scenario;
use leaseline::model::sim::simulate;

fn example() -> String {
    let doc = include_str!("../docs/scenario-format.md");
    let start = doc.rfind("```json\n{").expect("a complete example") + "```json\n".len();
    let end = start + doc[start..].find("```").expect("closing fence");
    doc[start..end].to_string()
}

#[test]
fn the_documented_example_runs_as_described() {
    let sc = Scenario::from_json(&example()).unwrap_or_else(|e| panic!("{e}"));
    let v = check(&simulate(&sc).unwrap());
    println!("{}", v.summary());
    assert_eq!(
        v.rejections.first().map(|r| r.reason.as_str()),
        Some("token 1 < 2")
    );
    assert_eq!(v.stats.stale_writes_accepted, 0);
    assert!(v
        .violations
        .iter()
        .any(|x| x.kind == ViolationKind::DuplicateEffect));

    let mut fixed = sc.clone();
    fixed.storage.idempotency = true;
    assert!(check(&simulate(&fixed).unwrap()).safe);
}

#[test]
fn a_broken_example_is_refused_with_the_field_named() {
    let broken = example().replace("\"at_ms\": 45000", "\"at_ms\": 450000");
    let e = Scenario::from_json(&broken).unwrap_err();
    assert_eq!(e.to_string(), "faults[1].at_ms: later than the horizon");
}
