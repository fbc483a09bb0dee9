//! "The link is the state": every view a reader can share comes back from its link exactly,
//! custom scenarios included, and no link — truncated, garbled or hostile — panics (the
//! generated links are in tests/it/fuzz.rs).

use crate::common;
use leaseline::model::scenario::{FenceMode, Scenario};
use leaseline::model::sim::simulate;
use leaseline::session::share::{
    base64url, decode, encode, lz, pack, Source, ViewState, MAX_FRAGMENT,
};
use leaseline::teach::course::{fixes, open, walkthrough};
use leaseline::teach::library::LESSONS;
use leaseline::teach::presets::PRESETS;

/// Every scenario name a link can carry: presets, lessons and their fixes.
fn names() -> Vec<String> {
    let mut v: Vec<String> = PRESETS.iter().map(|p| p.name.to_string()).collect();
    for l in LESSONS {
        v.push(l.id.to_string());
        v.extend(fixes(l.id).into_iter().map(|f| f.scenario));
    }
    v
}

fn round_trip(state: &ViewState) {
    let link = encode(state);
    assert_eq!(decode(&link).as_ref(), Ok(state), "{link}");
}

#[test]
fn named_and_custom_round_trip_for_every_preset_and_lesson() {
    let (mut n, mut beats) = (0, 0);
    for (i, name) in names().iter().enumerate() {
        let sc = open(name).unwrap();
        let beat = walkthrough(name).map(|w| i % w.beats.len());
        beats += usize::from(beat.is_some());
        let full = ViewState {
            source: Source::Named(name.clone()),
            seed: Some(u64::MAX - i as u64),
            fence: Some(FenceMode::NonAtomic.into()),
            flavor: Some("zookeeper".into()),
            t_ms: Some(sc.horizon_ms - i as i64),
            step: Some(i as u32),
            zoom: Some((i as i64, sc.horizon_ms - 10 * i as i64)),
            span_from: (i % 2 == 1).then_some(i as i64),
            span_to: Some(sc.horizon_ms - 20 * i as i64),
            recorded: None,
            beat,
            chapter: Some(i % 5),
            quiz: Some(0),
            panel: Some("verdict".into()),
            embed: true,
            autoplay: i % 2 == 0,
            diagram_only: i % 3 == 0,
            origins: vec![
                "https://course.example".into(),
                "http://localhost:8000".into(),
            ],
        };
        round_trip(&full);
        round_trip(&ViewState {
            source: Source::Named(name.clone()),
            ..ViewState::default()
        });
        round_trip(&ViewState {
            source: Source::Custom(sc.clone()),
            beat: None,
            ..full
        });
        round_trip(&ViewState {
            source: Source::Custom(sc),
            ..ViewState::default()
        });
        n += 1;
    }
    assert!(n >= 20 && beats >= 5, "{n} names, {beats} with a beat");
    round_trip(&ViewState::default());
    assert_eq!(decode(""), Ok(ViewState::default()));
    assert_eq!(decode("#"), Ok(ViewState::default()));
    assert_eq!(encode(&ViewState::default()), "#s=gc-pause");
}

#[test]
fn the_deep_links_read_the_same() {
    use leaseline::session::link;
    let st = decode(&link::scenario("check-then-write", Some(2))).unwrap();
    assert_eq!(st.source, Source::Named("check-then-write".into()));
    assert_eq!(st.beat, Some(2));
    assert_eq!(decode(&link::chapter(3)).unwrap().chapter, Some(3));
    assert_eq!(decode(&link::quiz(0)).unwrap().quiz, Some(0));
    let st = decode("#s=gc-pause&seed=7&fence=monotone&t=30000&beat=3").unwrap();
    assert_eq!(
        (st.seed, st.fence, st.t_ms, st.beat),
        (
            Some(7),
            Some(FenceMode::Monotone.into()),
            Some(30_000),
            Some(2)
        )
    );
}

#[test]
fn random_custom_scenarios_round_trip_and_replay_the_same() {
    let fences = [FenceMode::None, FenceMode::Monotone, FenceMode::Strict];
    for seed in 0..2_000u64 {
        let sc = common::scenario(seed, fences[(seed % 3) as usize]);
        let state = ViewState {
            source: Source::Custom(sc.clone()),
            seed: Some(seed),
            t_ms: Some(seed as i64 * 13 % sc.horizon_ms),
            ..ViewState::default()
        };
        let link = encode(&state);
        let back = decode(&link).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_eq!(back, state, "seed {seed}");
        let Source::Custom(restored) = back.source else {
            panic!("seed {seed}: not custom")
        };
        assert_eq!(
            simulate(&restored).unwrap().digest_hex(),
            simulate(&sc).unwrap().digest_hex(),
            "seed {seed}"
        );
    }
}

/// Compresses and packs arbitrary text as an `sc=` value, valid at every layer below JSON.
fn sc_of(text: &str) -> String {
    format!("#sc={}", base64url::encode(&lz::compress(text.as_bytes())))
}

#[test]
fn each_error_names_its_key() {
    let good = PRESETS[0].scenario().to_json_pretty();
    let valid_sc = pack(&PRESETS[0].scenario());
    let cases: Vec<(String, &str)> = vec![
        ("#s=nope".into(), "s: no scenario named \"nope\""),
        (
            "#s=slow-client-clocks".into(),
            "s: no scenario named \"slow-client-clocks\"; did you mean \"slow-client-clock\"?",
        ),
        ("#s=gc-pause&t=abc".into(), "t: \"abc\" is not a time in ms"),
        ("#s=gc-pause&t=-5".into(), "t: \"-5\" is not a time in ms"),
        ("#s=gc-pause&z=5".into(), "z: \"5\" is not a window FROM-TO in ms"),
        ("#s=gc-pause&z=9000-3000".into(), "z: the window 9000-3000 must start"),
        ("#s=gc-pause&z=3000-3004".into(), "z: the window 3000-3004 is narrower"),
        ("#s=gc-pause&z=0-99999999".into(), "z: the window ends at 99999999, past"),
        (
            "#s=gc-pause&t=99999999".into(),
            "t: 99999999 is past the scenario's horizon",
        ),
        (
            "#s=gc-pause&fence=x".into(),
            "fence: unknown mode \"x\" (expected none, monotone, strict, exact, non_atomic, volatile)",
        ),
        (
            "#s=gc-pause&flavor=paxos".into(),
            "flavor: unknown flavor \"paxos\" (expected generic|redis|",
        ),
        (
            "#s=gc-pause&seed=+7".into(),
            "seed: \"+7\" is not a whole number",
        ),
        ("#s=gc-pause&seed=18446744073709551616".into(), "seed: "),
        (
            "#s=gc-pause&beat=0".into(),
            "beat: \"0\" is not a number from 1 to",
        ),
        (
            "#s=gc-pause-fenced&beat=1".into(),
            "beat: gc-pause-fenced has no walkthrough",
        ),
        (
            format!("#sc={valid_sc}&beat=1"),
            "beat: a beat needs a named scenario",
        ),
        (
            "#chapter=8".into(),
            "chapter: \"8\" is not a number from 1 to 7",
        ),
        ("#quiz=x".into(), "quiz: \"x\" is not a number"),
        (
            "#panel=Trace".into(),
            "panel: \"Trace\" is not a panel name",
        ),
        ("#panel=".into(), "panel: "),
        ("#embed=yes".into(), "embed: \"yes\" is not 0 or 1"),
        ("#autoplay=2".into(), "autoplay: \"2\" is not 0 or 1"),
        ("#zz=1".into(), "link: unknown key \"zz\""),
        ("#garbage".into(), "link: \"garbage\" is not key=value"),
        ("#s=gc-pause&".into(), "link: \"\" is not key=value"),
        ("#seed=1&seed=2".into(), "seed: given twice"),
        (
            format!("#s=gc-pause&sc={valid_sc}"),
            "sc: a link has s= or sc=, not both",
        ),
        ("#sc=a*b".into(), "sc: not base64url"),
        ("#sc=A".into(), "sc: not base64url"),
        ("#sc=AAAA".into(), "sc: corrupt compressed data"),
        (
            format!("#sc={}", &valid_sc[..valid_sc.len() - 4]),
            "sc: corrupt compressed data",
        ),
        (sc_of("[1"), "sc: expected ',' or ']' at line 1, column 3"),
        (
            sc_of(&good.replace("\"ttl_ms\": 10000", "\"ttl_ms\": \"ten\"")),
            "sc: clients[0].ttl_ms:",
        ),
        (
            sc_of(&"x".repeat(300_000)),
            "sc: decompresses to 300000 bytes; the limit is 262144",
        ),
        (
            sc_of(&format!("{}{}", "[".repeat(500), "]".repeat(500))),
            "sc: ",
        ),
        (
            format!("#sc={}", base64url::encode(&lz::compress(&[b'{', 0xff]))),
            "sc: not UTF-8",
        ),
        (
            format!("#s={}", "a".repeat(MAX_FRAGMENT)),
            "link: the fragment is",
        ),
    ];
    for (frag, want) in &cases {
        let shown = &frag[..frag.len().min(60)];
        let e = decode(frag).expect_err(shown);
        assert!(e.starts_with(want), "{shown}: got {e:?}, want {want:?}");
    }
}

#[test]
fn a_custom_link_is_much_shorter_than_its_json() {
    let (mut raw, mut compact, mut link) = (0usize, 0usize, 0usize);
    let mut worst = f64::MAX;
    for l in LESSONS {
        let sc = l.scenario();
        let pretty = sc.to_json_pretty();
        let c = leaseline::vocab::json::compact(&leaseline::vocab::json::parse(&pretty).unwrap());
        let frag = encode(&ViewState {
            source: Source::Custom(sc.clone()),
            ..ViewState::default()
        });
        // Shown for the record; integers only in the model, this is a test's printout.
        let ratio = pretty.len() as f64 / frag.len() as f64;
        println!(
            "{:28} json {:5} B, compact {:5} B, link {:5} chars: {:.1}x shorter than the JSON, {:.1}x than compact",
            l.id,
            pretty.len(),
            c.len(),
            frag.len(),
            ratio,
            c.len() as f64 / frag.len() as f64
        );
        worst = worst.min(ratio);
        raw += pretty.len();
        compact += c.len();
        link += frag.len();
    }
    println!(
        "all {} lessons: json {raw} B, compact {compact} B, links {link} chars: {:.1}x / {:.1}x; worst {worst:.1}x",
        LESSONS.len(),
        raw as f64 / link as f64,
        compact as f64 / link as f64
    );
    assert!(
        worst >= 4.0,
        "a link is only {worst:.1}x shorter than its JSON"
    );
}

#[test]
fn the_decompressor_bounds_what_a_link_can_make_it_allocate() {
    // A stream that declares 4 GiB is refused before any allocation.
    let bomb = base64url::encode(&[0x80, 0x80, 0x80, 0x80, 0x10, 0x00, b'x']);
    let e = decode(&format!("#sc={bomb}")).unwrap_err();
    assert!(e.starts_with("sc: decompresses to 4294967296 bytes"), "{e}");
    // A short stream that really expands to the limit is allowed to (and then is not a
    // scenario); one byte over is refused.
    let at_limit = lz::compress(&vec![b' '; 256 * 1024]);
    assert!(at_limit.len() < 5_000);
    assert!(decode(&format!("#sc={}", base64url::encode(&at_limit)))
        .unwrap_err()
        .starts_with("sc: "));
    let over = lz::compress(&vec![b' '; 256 * 1024 + 1]);
    assert!(decode(&format!("#sc={}", base64url::encode(&over)))
        .unwrap_err()
        .contains("the limit is"));
    assert_eq!(
        Scenario::from_json("{}").unwrap_err().to_string(),
        "version: missing field"
    );
}
