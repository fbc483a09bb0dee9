//! How much of a drawing a page draws beyond its shapes: a type the page picks, as it
//! picks the kit its runs are built with (`session::carries`).
//!
//! Every drawing has the same lanes, bars, arrows, marks, bands, gaps and labels, placed
//! by the same rules. [`Full`] adds what only some runs need: the hover texts of shapes
//! that span time (with the shorter text they show while the cursor is inside them);
//! what merges where a drawing would crowd (renewal bursts into a bundle, marks at one
//! spot into a stack, labels with no room into a count, a long window into a level of
//! detail); and what spreads things apart (the axis's ticks thinned on a narrow drawing,
//! the ✂ of cut links moved off each other). [`Plain`] leaves those out, so a build that
//! lays out only with it — the first load, whose two short runs barely crowd — links none
//! of their code. The layout reads the choice as constants and types, so each drawing
//! function is compiled once per detail the build uses, with the other's branches not in
//! it.
//!
//! `tests/it/detail.rs` writes down exactly what [`Plain`] leaves out of [`Full`]'s
//! drawing on every run the first load plays, at every width it draws at: the hover texts
//! of shapes that span time, and on a phone narrower than 406 px the one label that finds
//! no room (the whole app folds it into a "+1"). Anything else that differed would fail
//! there.

use super::{Lod, Mark, MarksEvents, StackedEvent};
use crate::model::sim::{Pauses, Whole};
use std::cell::OnceCell;
use std::fmt::Debug;

/// What a drawing adds beyond its shapes (see the module's text).
pub trait Detail: Copy + Debug + Default + PartialEq + 'static {
    /// Shapes that span time (bands, gaps, bars, arrows) carry their hover texts: the
    /// whole one, and the one they show while the cursor is inside them.
    const TELLS: bool;
    /// What would crowd is merged: bursts into bundles, marks at one spot into a stack,
    /// labels with no room into a count, a long window into a level of detail.
    const MERGES: bool;
    /// What would touch is spread: the axis's ticks thinned, cut links' ✂ moved apart.
    const SPREADS: bool;

    /// The kit whose runs it draws: it marks the faults that kit makes
    /// ([`MarksEvents`]), so a build drawing in the detail of a smaller kit has no marks
    /// for the others. The page draws in the detail of the kit it builds its runs with
    /// (`session::carries`).
    type Kit: MarksEvents;

    /// A shape's hover text while the cursor is inside it ([`Self::TELLS`]).
    type Open: Clone + Debug + Default + PartialEq + AsRef<str>;
    /// The events a stacked mark stands for ([`Self::MERGES`]).
    type Events: Clone + Debug + Default + PartialEq;

    /// Makes a shape's hover text for while the cursor is inside it, where the detail
    /// tells it; else `f` is never called.
    fn open(f: impl FnOnce() -> String) -> Self::Open;

    /// Draws the marks that stand at one spot as one, where the detail merges.
    fn stack(marks: &mut [Mark<Self>]);

    /// What a run's index keeps for drawing its long windows at a level of detail: made
    /// by the first such window where the detail merges; nothing where it does not.
    type Kept: Default;

    /// The level of detail's items `kept`, made by `make` the first time they are asked
    /// for; `None` where the detail does not merge.
    fn lod(kept: &Self::Kept, make: impl FnOnce() -> Lod) -> Option<&Lod>;
}

/// Every detail: what the whole app, the exports and the tests draw.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Full;

impl Detail for Full {
    const TELLS: bool = true;
    const MERGES: bool = true;
    const SPREADS: bool = true;
    type Kit = Whole;
    type Open = String;
    type Events = Vec<StackedEvent>;

    fn open(f: impl FnOnce() -> String) -> String {
        f()
    }

    fn stack(marks: &mut [Mark<Full>]) {
        super::stack(marks)
    }

    type Kept = OnceCell<Lod>;

    fn lod(kept: &OnceCell<Lod>, make: impl FnOnce() -> Lod) -> Option<&Lod> {
        Some(kept.get_or_init(make))
    }
}

/// The shapes and their labels alone: what the first load draws. A label that finds no
/// room is left out rather than folded into a count.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Plain;

impl Detail for Plain {
    const TELLS: bool = false;
    const MERGES: bool = false;
    const SPREADS: bool = false;
    type Kit = Pauses;
    type Open = Untold;
    type Events = ();

    fn open(_: impl FnOnce() -> String) -> Untold {
        Untold
    }

    fn stack(_: &mut [Mark<Plain>]) {}

    type Kept = ();

    fn lod(_: &(), _: impl FnOnce() -> Lod) -> Option<&Lod> {
        None
    }
}

/// The hover text of a drawing that does not tell one: nothing, and no room for it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Untold;

impl AsRef<str> for Untold {
    fn as_ref(&self) -> &str {
        ""
    }
}
