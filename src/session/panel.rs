//! The page's menus and side panels, declared once: each menu's name (in a link and a
//! handoff), each panel's name (in a handoff and on its `<details>` as a class) and title
//! (its summary's words), and which panels are open.
//!
//! Every place that names a panel reads it here through an exhaustive match, so a new
//! panel that misses one does not compile. Whether a panel is open is the session's
//! (`Navigation::panels`): the page draws it so and tells the session when the reader
//! opens or closes one.

/// Which menu is open over the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Menu {
    Lessons,
    Interview,
    /// The share dialog: the link and an iframe snippet.
    Share,
}

impl Menu {
    pub const ALL: [Menu; 3] = [Menu::Lessons, Menu::Interview, Menu::Share];

    /// Its name in a link (`panel=`) and a handoff.
    pub fn name(self) -> &'static str {
        match self {
            Menu::Lessons => "lessons",
            Menu::Interview => "interview",
            Menu::Share => "share",
        }
    }

    /// The menu of this name.
    pub fn named(name: &str) -> Option<Menu> {
        Menu::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// A panel of the page the reader opens and closes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    Settings,
    Editor,
    Explore,
    Calculator,
    Io,
    /// The diagram's key, a disclosure beside the timeline.
    Legend,
}

impl Panel {
    /// Every panel: the side panels in the page's order, then the legend.
    pub const ALL: [Panel; 6] = [
        Panel::Settings,
        Panel::Editor,
        Panel::Explore,
        Panel::Calculator,
        Panel::Io,
        Panel::Legend,
    ];

    /// The side panels, in the page's order (the tools beside the run).
    pub const SIDE: [Panel; 5] = [
        Panel::Settings,
        Panel::Editor,
        Panel::Explore,
        Panel::Calculator,
        Panel::Io,
    ];

    /// Its name: a handoff's word and its `<details>`'s class.
    pub fn name(self) -> &'static str {
        match self {
            Panel::Settings => "settings",
            Panel::Editor => "editor",
            Panel::Explore => "explore",
            Panel::Calculator => "calculator",
            Panel::Io => "io",
            Panel::Legend => "legend",
        }
    }

    /// Its summary's words.
    pub fn title(self) -> &'static str {
        match self {
            Panel::Settings => "Settings",
            Panel::Editor => "Scenario editor",
            Panel::Explore => "Explore: every way it breaks",
            Panel::Calculator => "Safety calculator",
            Panel::Io => "Export and import",
            Panel::Legend => "Legend",
        }
    }

    /// The panel of this name.
    pub fn named(name: &str) -> Option<Panel> {
        Panel::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Its bit in [`OpenPanels`]: one per variant (six fit in a byte).
    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// Which panels are open.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenPanels(u8);

impl OpenPanels {
    pub fn is_open(self, p: Panel) -> bool {
        self.0 & p.bit() != 0
    }

    /// Opens or closes `p`; whether that changed anything.
    pub fn set(&mut self, p: Panel, open: bool) -> bool {
        let before = self.0;
        if open {
            self.0 |= p.bit();
        } else {
            self.0 &= !p.bit();
        }
        self.0 != before
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_menu_is_found_by_its_name() {
        for m in Menu::ALL {
            assert_eq!(Menu::named(m.name()), Some(m));
        }
        assert_eq!(Menu::named("compare"), None);
    }

    #[test]
    fn every_panel_is_found_by_its_name_and_opens_alone() {
        for p in Panel::ALL {
            assert_eq!(Panel::named(p.name()), Some(p));
            let mut open = OpenPanels::default();
            assert!(open.set(p, true));
            assert!(!open.set(p, true), "opening it twice changes nothing");
            for q in Panel::ALL {
                assert_eq!(open.is_open(q), q == p, "{p:?} open, {q:?}");
            }
            assert!(open.set(p, false));
            assert_eq!(open, OpenPanels::default());
        }
        assert_eq!(Panel::named("nowhere"), None);
        // The side panels are the panels but the legend, in the same order.
        assert_eq!(Panel::SIDE[..], Panel::ALL[..5]);
    }
}
