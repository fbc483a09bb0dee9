//! What this build of the page carries, chosen once here: the kit its runs are built with
//! (`model::sim::kit`), the course it can open (`teach::course::Catalog`) and the detail
//! it draws them in (`view::layout::detail`). The whole
//! app carries everything. The first load carries the default page's run and its fix —
//! the generic lock service, pauses, the default lesson's walkthrough — and hands every
//! other name, link and tool to the whole app (`Session::handoff`), so that the rest of
//! the model and the course stays out of its wasm. The model does not change with the
//! choice: either kit gives the same run of a scenario it carries (`model::sim::kit`'s
//! tests), and either catalog opens the same scenario by a name it has
//! (`teach::course`'s tests), and either detail draws the same shapes of a run the first
//! load plays (`tests/it/detail.rs`).

use crate::model::sim;
use crate::teach::course;
use crate::view::layout::detail;

/// The services and faults the page's runs are built with.
#[cfg(not(feature = "lite"))]
pub type PageKit = sim::Whole;
/// The services and faults the page's runs are built with.
#[cfg(feature = "lite")]
pub type PageKit = sim::Pauses;

/// The lessons, presets, walkthroughs and questions the page can open.
#[cfg(not(feature = "lite"))]
pub type PageCourse = course::Complete;
/// The lessons, presets, walkthroughs and questions the page can open.
#[cfg(feature = "lite")]
pub type PageCourse = course::FirstLoad;

/// How much the page's drawings add beyond their shapes (hover texts, merging, spreading).
#[cfg(not(feature = "lite"))]
pub type PageDetail = detail::Full;
/// How much the page's drawings add beyond their shapes (hover texts, merging, spreading).
#[cfg(feature = "lite")]
pub type PageDetail = detail::Plain;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::layout::detail::Detail;
    use std::any::TypeId;

    /// The page draws its runs in the detail of the kit it builds them with, so its marks
    /// tell every event its runs make.
    #[test]
    fn the_page_draws_in_the_detail_of_its_kit() {
        type DrawnKit = <PageDetail as Detail>::Kit;
        assert_eq!(TypeId::of::<DrawnKit>(), TypeId::of::<PageKit>());
    }
}
