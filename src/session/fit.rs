//! Fit to content: how an embed tells its host page the height it needs, in the three
//! languages a host may already speak.
//!
//! - Leaseline's own `resize` event (`{"leaseline": 1, "type": "resize", "height": N}`),
//!   for a host page written against docs/embedding.md.
//! - Canvas LMS's `lti.frameResize` (Canvas docs, "Using window.postMessage in LTI Tools"):
//!   Canvas sets the height of the frame that sent it.
//! - The H5P resizer's protocol (h5p-resizer.js, which many course sites load): a frame
//!   asks with `prepareResize` (its wanted height as both `scrollHeight` and
//!   `clientHeight`), and the resizer sets the frame's height; `resize` then confirms it.
//!   The resizer answers with messages of its own (`hello`, `resizePrepared`, `resize`),
//!   which are not commands to us: [`foreign`] tells them apart.
//!
//! The height itself is measured by the page (`ui::host`): what the frame would be with
//! the drawing's lanes at their usual height and nothing scrolled inside it. Web-free, so
//! the messages are tested natively.

use crate::vocab::json::{self, Json};

/// The least height an embed asks for: the smallest frame its layout rules handle.
pub const LEAST: i64 = 240;
/// The most it asks for, so that a host obeying it blindly is never handed a page-sized
/// frame by a bad measurement.
pub const MOST: i64 = 4_000;

/// The messages that ask the host for `height` CSS pixels, in each convention, as JSON
/// text: ours, Canvas's, then H5P's two.
pub fn messages(height: i64) -> Vec<String> {
    let h = Json::Int(i128::from(height.clamp(LEAST, MOST)));
    let obj = |fields: Vec<(&str, Json)>| {
        json::compact(&Json::Obj(
            fields
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect(),
        ))
    };
    let s = |x: &str| Json::Str(x.to_string());
    vec![
        obj(vec![
            ("leaseline", Json::Int(super::embed::VERSION)),
            ("type", s("resize")),
            ("height", h.clone()),
        ]),
        obj(vec![
            ("subject", s("lti.frameResize")),
            ("height", h.clone()),
        ]),
        obj(vec![
            ("context", s("h5p")),
            ("action", s("prepareResize")),
            ("scrollHeight", h.clone()),
            ("clientHeight", h.clone()),
        ]),
        obj(vec![
            ("context", s("h5p")),
            ("action", s("resize")),
            ("scrollHeight", h),
        ]),
    ]
}

/// Whether a message the host posted belongs to another protocol — the H5P resizer's
/// (`"context": "h5p"`) or an LMS's (`"subject": "lti.…"`) — and carries no `leaseline`
/// field: such a message is no command, and is left unanswered rather than refused.
pub fn foreign(text: &str) -> bool {
    // A cheap look first: almost every message a frame hears is one of ours.
    if !(text.contains("h5p") || text.contains("lti.")) || text.len() > 64 * 1024 {
        return false;
    }
    let Ok(v) = json::parse(text) else {
        return false;
    };
    if !matches!(v, Json::Obj(_)) || v.get("leaseline").is_some() {
        return false;
    }
    matches!(v.get("context"), Some(Json::Str(c)) if c == "h5p")
        || matches!(v.get("subject"), Some(Json::Str(s)) if s.starts_with("lti."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_convention_asks_for_the_same_height_within_bounds() {
        let m = messages(512);
        assert_eq!(
            m,
            [
                r#"{"leaseline":1,"type":"resize","height":512}"#,
                r#"{"subject":"lti.frameResize","height":512}"#,
                r#"{"context":"h5p","action":"prepareResize","scrollHeight":512,"clientHeight":512}"#,
                r#"{"context":"h5p","action":"resize","scrollHeight":512}"#,
            ]
        );
        assert!(messages(10)[0].ends_with(&format!("\"height\":{LEAST}}}")));
        assert!(messages(i64::MAX)[1].ends_with(&format!("\"height\":{MOST}}}")));
    }

    #[test]
    fn the_resizers_answers_are_foreign_and_our_commands_are_not() {
        for text in [
            r#"{"context":"h5p","action":"hello"}"#,
            r#"{"context":"h5p","action":"resizePrepared"}"#,
            r#"{"subject":"lti.fetchWindowSize","height":700}"#,
        ] {
            assert!(foreign(text), "{text}");
        }
        for text in [
            r#"{"leaseline":1,"type":"play"}"#,
            r#"{"leaseline":1,"type":"load","scenario":"h5p"}"#,
            r#"{"context":"h5p-ish"}"#,
            r#"["h5p"]"#,
            "h5p",
        ] {
            assert!(!foreign(text), "{text}");
        }
    }
}
