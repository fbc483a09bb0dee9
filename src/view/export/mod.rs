//! Exports of a run for use outside the app: the space-time diagram as SVG markup (bare, or
//! as a [`slide`] that names the run, its verdict, settings, legend and link), the run as
//! a Mermaid sequence diagram, the trace as JSON, and a time range recorded as an animated
//! GIF ([`record`]: frames drawn by our own [`raster`]izer with our own [`font`], written
//! by our own [`gif`] encoder, so the file is the same on every machine).
//!
//! The text exports are plain strings built from data the app already has — the laid-out
//! [`crate::view::layout::Diagram`], the [`crate::model::trace::Trace`] and its
//! [`crate::analysis::check::Verdict`] — so they are deterministic, testable natively, and need no
//! browser API beyond handing the text to a download or the clipboard.

pub mod first_paint;
pub mod font;
pub mod gif;
pub mod mermaid;
pub mod raster;
pub mod record;
pub mod slide;
pub mod svg;

use crate::model::trace::Trace;
use crate::vocab::json::write_compact;

/// The trace as JSON: its digest and one canonical entry per line (the same text the
/// digest is computed over), so two exports can be compared with a line diff.
pub fn trace_json(trace: &Trace) -> String {
    let mut out = format!("{{\"digest\":\"{}\",\"entries\":[\n", trace.digest_hex());
    for (i, e) in trace.entries.iter().enumerate() {
        if i > 0 {
            out.push_str(",\n");
        }
        write_compact(&mut out, &crate::model::trace::json::entry(e));
    }
    out.push_str("\n]}\n");
    out
}

#[cfg(test)]
mod tests {
    use crate::vocab::json::parse;

    #[test]
    fn the_trace_export_is_json_with_every_entry() {
        let sc = crate::teach::course::open("gc-pause").unwrap();
        let trace = crate::model::sim::simulate(&sc).unwrap();
        let text = super::trace_json(&trace);
        let v = parse(&text).unwrap();
        let Some(crate::vocab::json::Json::Arr(entries)) = v.get("entries") else {
            panic!("no entries");
        };
        assert_eq!(entries.len(), trace.entries.len());
        assert!(text.contains(&trace.digest_hex()));
    }
}
