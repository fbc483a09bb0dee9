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
        for name in ["Play", "Step back", "Step forward"] {
            let button = find(&toolbar, &format!(r#"button[aria-label="{name}"]"#));
            assert!(
                button.has_attribute("disabled"),
                "{name} should be disabled until there is a trace"
            );
        }
        find(&toolbar, r#"input[type="range"][aria-label="Time"]"#);

        app.destroy();
        yew::scheduler::flush().await;
        assert!(
            root.query_selector("header").unwrap().is_none(),
            "destroy unmounts the app"
        );
        root.remove();
    }
}
