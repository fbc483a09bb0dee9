//! Browser tests: run in headless Chromium by wasm-bindgen-test-runner.
//!
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test wasm`
//!
//! Keep this tier small: what can be tested natively is tested natively. Here belong the
//! things only a browser can show — the app mounts, the landmarks exist — and facts about
//! the wasm32 build itself (a digest computed here must equal the native one).
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// Mounting the app: the page's landmarks and the playback controls' accessible names.
#[cfg(feature = "web")]
mod mount {
    use super::wasm_bindgen_test;
    use wasm_bindgen::JsCast;
    use web_sys::Element;

    /// A fresh element appended to the body, so each test renders into its own root.
    fn fresh_root() -> Element {
        let document = web_sys::window()
            .and_then(|w| w.document())
            .expect("a browser document");
        let root = document.create_element("div").expect("create a div");
        document
            .body()
            .expect("a body")
            .append_child(&root)
            .expect("append the root");
        root
    }

    fn find(root: &Element, selector: &str) -> Element {
        root.query_selector(selector)
            .unwrap_or_else(|e| panic!("bad selector {selector}: {e:?}"))
            .unwrap_or_else(|| panic!("nothing matches {selector}"))
    }

    #[wasm_bindgen_test]
    async fn app_mounts_with_its_landmarks() {
        let root = fresh_root();
        let app = leaseline::ui::mount_to(root.clone());
        yew::scheduler::flush().await;

        let header = find(&root, "header");
        assert!(header
            .text_content()
            .unwrap_or_default()
            .contains("Leaseline"));
        find(&root, "main");
        find(
            &root,
            r#"main section[aria-label="Space-time diagram"] svg"#,
        );
        find(&root, "footer");

        let toolbar = find(&root, r#"[role="toolbar"][aria-label="Playback"]"#);
        let button = |name: &str| -> web_sys::HtmlElement {
            find(&toolbar, &format!(r#"button[aria-label="{name}"]"#))
                .dyn_into()
                .expect("a button")
        };
        // The default scenario is loaded and ready: Play is live, there is nothing behind us.
        assert!(!button("Play").has_attribute("disabled"));
        assert!(button("Step back").has_attribute("disabled"));
        let slider = find(&toolbar, r#"input[type="range"][aria-label="Time"]"#);
        // One lane per node: two clients, the coordinator, storage.
        let lanes = root
            .query_selector_all("svg.timeline .lane")
            .unwrap()
            .length();
        assert_eq!(lanes, 4, "lanes");

        // What a reader sees of where the cursor is: the slider's spoken position ("t = …,
        // event k of n"), the inspector (every node's clock, state and belief), the caption
        // and the verdict so far, and where the diagram draws the cursor.
        let seen = || -> Vec<String> {
            let text = |selector: &str| {
                root.query_selector(selector)
                    .ok()
                    .flatten()
                    .and_then(|e| e.text_content())
                    .unwrap_or_default()
            };
            vec![
                slider.get_attribute("aria-valuetext").unwrap_or_default(),
                text(r#"section[aria-label="Inspector"]"#),
                text("p.caption"),
                text(r#"section[aria-label="Verdict"]"#),
                find(&root, "svg.timeline line.cursor")
                    .get_attribute("x1")
                    .unwrap_or_default(),
            ]
        };
        let start = seen();
        assert!(start[0].starts_with("t = 0.000s, event 0 of "), "{start:?}");

        // Step forward until the cursor leaves t = 0 (several entries share t = 0).
        for _ in 0..7 {
            button("Step forward").click();
            yew::scheduler::flush().await;
        }
        let before = seen();
        button("Step forward").click();
        yew::scheduler::flush().await;
        let ahead = seen();
        assert!(!button("Step back").has_attribute("disabled"));
        assert!(
            ahead[0].contains(", event 8 of "),
            "eight steps, eight events: {}",
            ahead[0]
        );
        assert!(
            !ahead[0].starts_with("t = 0.000s,"),
            "the cursor moved: {}",
            ahead[0]
        );
        assert_ne!(ahead, before, "a step forward changes what is shown");
        // Stepping back returns to exactly where we were one entry earlier: the same
        // position, the same inspector, caption, verdict and cursor.
        button("Step back").click();
        yew::scheduler::flush().await;
        assert_eq!(seen(), before, "one step back undoes one step forward");

        app.destroy();
        yew::scheduler::flush().await;
        assert!(
            root.query_selector("header").unwrap().is_none(),
            "destroy unmounts the app"
        );
        root.remove();
    }
}

/// The determinism contract across targets: each preset's digest, computed here in wasm32,
/// equals the one pinned by the native test `digests` (tests/it/digests.rs) in `tests/golden/digests.txt`.
#[wasm_bindgen_test]
fn preset_digests_equal_the_native_ones() {
    let golden = include_str!("golden/digests.txt");
    for p in leaseline::teach::presets::PRESETS {
        let digest = leaseline::model::sim::simulate(&p.scenario())
            .expect("presets are valid")
            .digest_hex();
        let line = format!("{} {}", p.name, digest);
        assert!(
            golden.lines().any(|l| l == line),
            "wasm32 digest differs from native: {line}"
        );
    }
}
