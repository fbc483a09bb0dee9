//! The presets' digests are pinned in `tests/golden/digests.txt`; the wasm test checks the
//! same file, so native == wasm32 is proven on every run of the test command.
//!
//! A deliberate model change changes digests: regenerate with
//! `UPDATE_GOLDEN=1 cargo test --test it digests` and say why in the commit.

use leaseline::model::sim::simulate;
use leaseline::teach::presets::PRESETS;

#[test]
fn preset_digests_match_the_golden_file() {
    let actual: String = PRESETS
        .iter()
        .map(|p| {
            format!(
                "{} {}\n",
                p.name,
                simulate(&p.scenario()).unwrap().digest_hex()
            )
        })
        .collect();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/digests.txt");
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(path, &actual).unwrap();
    }
    let golden = std::fs::read_to_string(path).unwrap_or_default();
    assert_eq!(
        golden, actual,
        "preset digests changed; if intended, regenerate (see module docs)"
    );
}
