//! The playback toolbar's icons, as SVG path data in a 16×16 box: the toolbar draws them,
//! and so does the first paint's copy of it (`export::first_paint`), built before the app.

pub const ICONS: &[(&str, &str)] = &[
    ("start", "M2 3h2v10H2zM14 3 5 8l9 5z"),
    ("prev", "M3 3h2v10H3zM13 3 6 8l7 5z"),
    ("play", "M4 2.5v11L13 8z"),
    ("pause", "M4 3h3v10H4zM9 3h3v10H9z"),
    ("next", "M11 3h2v10h-2zM3 3l7 5-7 5z"),
    ("end", "M12 3h2v10h-2zM2 3l9 5-9 5z"),
    ("back-notable", "M8 3 1 8l7 5zM15 3 8 8l7 5z"),
    ("fwd-notable", "M1 3l7 5-7 5zM8 3l7 5-7 5z"),
];

/// The path of the icon called `name` ("" for none).
pub fn path(name: &str) -> &'static str {
    ICONS
        .iter()
        .find(|(n, _)| *n == name)
        .map_or("", |(_, d)| d)
}
