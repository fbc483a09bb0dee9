//! The page's session: what the learner is doing, as a pure `Action → state` function.
//!
//! [`Session`] is the page's state and [`Action`] what can happen to it (`page`), with the
//! [`Run`] on screen (`run`) and the link both ways (`address`). [`edit`] is the scenario's edits and their undo history; [`draft`] the editor's form as
//! text fields; [`zoom`] the diagram's window of time; [`share`] the link format both ways (a fragment ⇄ a view), with [`link`]
//! the deep links of the menus and [`embed`] the protocol a host page speaks to an embedded
//! run, with [`fit`] the messages that ask the host for the height the embed needs and
//! [`statements`] the learner's progress told to it.
//!
//! May import: every floor below it ([`crate::vocab`], [`crate::model`],
//! [`crate::analysis`], [`crate::teach::walkthrough`], [`crate::view`]). Nothing here touches a browser:
//! `cargo test --no-default-features` runs all of it.

mod address;
pub mod calculator;
pub mod carries;
pub mod draft;
pub mod edit;
pub mod embed;
pub mod fit;
pub mod form;
pub mod gesture;
pub mod handoff;
pub mod link;
mod page;
mod panel;
pub mod recorded;
mod resume;
mod run;
pub mod share;
pub mod span;
pub mod statements;
pub mod zoom;

pub use page::{
    Action, Document, Effect, Effects, Embedding, Frame, Navigation, Picker, Playback, Selection,
    Session, Teaching, BEFORE_LAST_EDIT, DEFAULT,
};
pub use panel::{Menu, OpenPanels, Panel};
pub use run::{Run, Versus};
