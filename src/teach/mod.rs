//! The teaching material and the words the app says.
//!
//! [`presets`], [`library`] and [`flavor_presets`] are the built-in scenarios (JSON files
//! beside them, each a lesson from the source texts with its broken run and its fixes);
//! [`holds`] says which of a lesson's changes are fixes and which only narrow the window;
//! [`course`] is the learner's path through them (chapters, the interview quiz, progress);
//! [`advice`] says what to change beside the safety calculator's bound;
//! [`walkthrough`] places narrated beats on the events of a run ([`authored`] places a course
//! author's own, written into the scenario), and [`facts`] fills their
//! numbers from it ([`tail`] runs a scenario under many seeds for the share that ends
//! unsafe); [`narrate`] turns events and verdicts into the sentences a learner reads.
//!
//! May import: [`crate::vocab`], [`crate::model`], [`crate::analysis`]. Every sentence is
//! derived from a run and its verdict, never scripted against a time.

pub mod advice;
pub mod authored;
pub mod course;
pub mod facts;
pub mod flavor_presets;
pub mod holds;
pub mod library;
pub mod narrate;
pub mod presets;
pub mod quiz;
pub mod tail;
pub mod walkthrough;
