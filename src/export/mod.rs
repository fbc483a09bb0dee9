//! Exports of a run for use outside the app: the space-time diagram as SVG markup and the
//! run as a Mermaid sequence diagram.
//!
//! Both are plain strings built from data the app already has — the laid-out
//! [`crate::layout::Diagram`], the [`crate::trace::Trace`] and its
//! [`crate::check::Verdict`] — so they are deterministic, testable natively, and need no
//! browser API beyond handing the text to a download or the clipboard.

pub mod mermaid;
pub mod svg;
