//! The embed code a teacher pastes into a course page, and the choices behind it.
//!
//! The Share dialog offers a frame size (three presets, or a width and height typed in),
//! "Play on load" (`autoplay=1`) and "Diagram and caption only" (`view=diagram`). Those
//! choices are [`EmbedOptions`]; [`iframe_snippet`] writes the `<iframe>` from the embed
//! link and them, and [`EmbedOptions::link`] is the link the frame (and the dialog's
//! preview) opens. Typed sizes are kept as typed while they are out of range, so the field
//! can say what is wrong, and the code keeps the last good size until they are fixed.

use crate::view::export::svg::escape_into;
use std::ops::RangeInclusive;

/// The preset frame sizes, in CSS pixels: a name, a width and a height.
pub const SIZES: [(&str, u32, u32); 3] = [
    ("Small", 360, 300),
    ("Medium", 640, 420),
    ("Large", 960, 600),
];

/// The preset a new dialog starts on: Medium.
const DEFAULT_SIZE: usize = 1;

/// Widths a typed size may have. The embed's layout holds from 280×240 up (see
/// docs/embedding.md); beyond 2000 a frame is wider than any course page's column.
pub const WIDTHS: RangeInclusive<u32> = 280..=2000;
/// Heights a typed size may have.
pub const HEIGHTS: RangeInclusive<u32> = 240..=2000;

/// Which size the frame has: a preset (an index into [`SIZES`]) or the typed one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    Preset(usize),
    Custom,
}

/// The Share dialog's choices for the embed code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmbedOptions {
    pub size: Size,
    /// The width and height fields as typed (used when `size` is [`Size::Custom`]).
    pub width_text: String,
    pub height_text: String,
    /// The last typed size that was in range: what the code uses while a field is not.
    custom: (u32, u32),
    /// Start playing as soon as the frame loads (`autoplay=1`).
    pub autoplay: bool,
    /// Only the diagram, its playback controls and the caption (`view=diagram`).
    pub diagram_only: bool,
    /// The course page's origins as typed: the only pages the frame will obey
    /// (`origins=`), when they read.
    pub origins_text: String,
    /// Add the fit-to-content script line after the frame (`leaseline-fit.js`).
    pub fit: bool,
}

impl Default for EmbedOptions {
    fn default() -> Self {
        let (_, w, h) = SIZES[DEFAULT_SIZE];
        EmbedOptions {
            size: Size::Preset(DEFAULT_SIZE),
            width_text: w.to_string(),
            height_text: h.to_string(),
            custom: (w, h),
            autoplay: false,
            diagram_only: false,
            origins_text: String::new(),
            fit: false,
        }
    }
}

/// The pairs of a link's fragment (after its first `#`), and the part before it.
fn split(link: &str) -> (&str, impl Iterator<Item = &str>) {
    let (page, fragment) = link.split_once('#').unwrap_or((link, ""));
    (page, fragment.split('&').filter(|p| !p.is_empty()))
}

/// The keys the options own in a link: the dialog's checkboxes decide them.
fn owned(pair: &str) -> bool {
    pair.starts_with("autoplay=") || pair.starts_with("view=") || pair.starts_with("origins=")
}

/// A typed dimension, checked: the number, or what to say at the field.
fn dimension(
    what: &str,
    text: &str,
    range: &RangeInclusive<u32>,
    kept: u32,
) -> Result<u32, String> {
    let text = text.trim();
    let n = (!text.is_empty() && text.len() <= 6 && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse::<u32>().ok())
        .flatten();
    match n {
        Some(n) if range.contains(&n) => Ok(n),
        _ => Err(format!(
            "{what} must be a whole number from {} to {} pixels; the code keeps {kept}.",
            range.start(),
            range.end()
        )),
    }
}

impl EmbedOptions {
    /// The options a link already asks for: a dialog opened inside an autoplaying or
    /// diagram-only embed starts with those boxes ticked.
    pub fn from_link(embed_link: &str) -> EmbedOptions {
        let (mut autoplay, mut diagram_only, mut origins) = (false, false, "");
        for p in split(embed_link).1 {
            autoplay |= p == "autoplay=1";
            diagram_only |= p == "view=diagram";
            origins = p.strip_prefix("origins=").unwrap_or(origins);
        }
        EmbedOptions {
            autoplay,
            diagram_only,
            origins_text: origins.to_string(),
            ..EmbedOptions::default()
        }
    }

    /// The typed origins, checked as a link's `origins=` is: the list (empty when the field
    /// is), or what to say at the field.
    fn origins(&self) -> Result<Vec<String>, String> {
        let text = self.origins_text.trim().replace([' ', '\n'], "");
        if text.is_empty() {
            return Ok(Vec::new());
        }
        crate::session::share::parse_origins(&text).map_err(|e| {
            format!("{e}. Until it reads, the code lets a page at any origin drive the frame.")
        })
    }

    /// What is wrong with the origins field, if anything.
    pub fn origins_error(&self) -> Option<String> {
        self.origins().err()
    }

    /// A preset's label, as the dialog shows it: "Medium 640×420".
    pub fn label(preset: usize) -> String {
        SIZES
            .get(preset)
            .map(|(name, w, h)| format!("{name} {w}×{h}"))
            .unwrap_or_default()
    }

    /// Chooses a size. Choosing "Custom" starts its fields at the size on screen, so a
    /// teacher adjusts a preset rather than typing both numbers.
    pub fn choose(&mut self, size: Size) {
        if size == Size::Custom && self.size != Size::Custom {
            let (w, h) = self.size();
            self.custom = (w, h);
            self.width_text = w.to_string();
            self.height_text = h.to_string();
        }
        self.size = size;
    }

    /// The width field as typed; a width in range becomes the frame's.
    pub fn set_width(&mut self, text: &str) {
        self.width_text = text.to_string();
        if let Ok(w) = dimension("Width", text, &WIDTHS, self.custom.0) {
            self.custom.0 = w;
        }
    }

    /// The height field as typed; a height in range becomes the frame's.
    pub fn set_height(&mut self, text: &str) {
        self.height_text = text.to_string();
        if let Ok(h) = dimension("Height", text, &HEIGHTS, self.custom.1) {
            self.custom.1 = h;
        }
    }

    /// What is wrong with the width field, if anything (only a typed size is checked).
    pub fn width_error(&self) -> Option<String> {
        let kept = self.custom.0;
        (self.size == Size::Custom)
            .then(|| dimension("Width", &self.width_text, &WIDTHS, kept).err())
            .flatten()
    }

    /// What is wrong with the height field, if anything.
    pub fn height_error(&self) -> Option<String> {
        let kept = self.custom.1;
        (self.size == Size::Custom)
            .then(|| dimension("Height", &self.height_text, &HEIGHTS, kept).err())
            .flatten()
    }

    /// The frame's width and height in CSS pixels.
    pub fn size(&self) -> (u32, u32) {
        match self.size {
            Size::Preset(i) => {
                let (_, w, h) = SIZES.get(i).copied().unwrap_or(SIZES[DEFAULT_SIZE]);
                (w, h)
            }
            Size::Custom => self.custom,
        }
    }

    /// The embed link with these options: `autoplay=1` and `view=diagram` put in or taken
    /// out, where `share::encode` would write them (before `origins=`), the rest as given.
    pub fn link(&self, embed_link: &str) -> String {
        let (page, pairs) = split(embed_link);
        let mut pairs: Vec<&str> = pairs.filter(|p| !owned(p)).collect();
        let at = pairs
            .iter()
            .position(|p| p.starts_with("origins="))
            .unwrap_or(pairs.len());
        let ours = [
            self.autoplay.then_some("autoplay=1"),
            self.diagram_only.then_some("view=diagram"),
        ];
        for (i, p) in ours.into_iter().flatten().enumerate() {
            pairs.insert(at + i, p);
        }
        // The typed origins replace the link's own, last, as `share::encode` writes them.
        let origins = self.origins().unwrap_or_default();
        let origins = (!origins.is_empty()).then(|| format!("origins={}", origins.join(",")));
        pairs.extend(origins.as_deref());
        format!("{page}#{}", pairs.join("&"))
    }

    /// How the dialog's preview shows the frame within `max_w`×`max_h` pixels: the scale in
    /// thousandths (1000 = actual size; never enlarged) and the scaled width and height.
    pub fn preview(&self, max_w: u32, max_h: u32) -> (u32, u32, u32) {
        let (w, h) = self.size();
        let scale = [1000, max_w * 1000 / w.max(1), max_h * 1000 / h.max(1)]
            .into_iter()
            .min()
            .unwrap_or(1000);
        (scale, w * scale / 1000, h * scale / 1000)
    }
}

/// The embed code: an iframe on `embed_link` (the link in embed mode) with the options'
/// size, `autoplay=1` and `view=diagram`, and a `title` naming the scenario so a screen
/// reader can name the frame. Both are escaped for an HTML attribute.
pub fn iframe_snippet(embed_link: &str, title: &str, opts: &EmbedOptions) -> String {
    let (w, h) = opts.size();
    let mut snippet = String::from("<iframe src=\"");
    escape_into(&mut snippet, &opts.link(embed_link));
    snippet.push_str("\" title=\"Leaseline: ");
    escape_into(&mut snippet, title);
    snippet.push_str(&format!(
        "\" width=\"{w}\" height=\"{h}\" style=\"border:0\" loading=\"lazy\"></iframe>"
    ));
    if opts.fit {
        // The script sits beside the app's page: the link's address up to its last `/`.
        let page = embed_link.split('#').next().unwrap_or_default();
        let folder = &page[..page.rfind('/').map_or(0, |i| i + 1)];
        snippet.push_str("\n<script src=\"");
        escape_into(&mut snippet, &format!("{folder}{FIT_SCRIPT}"));
        snippet.push_str("\" async></script>");
    }
    snippet
}

/// The host-side script that fits each Leaseline frame on a page to the height it asks
/// for (`static/leaseline-fit.js`, served beside the app).
pub const FIT_SCRIPT: &str = "leaseline-fit.js";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::share::{decode, encode, Source, ViewState};

    const PAGE: &str = "https://x.example/course/";

    #[test]
    fn the_default_is_medium_and_writes_the_plain_embed() {
        let o = EmbedOptions::default();
        assert_eq!(o.size(), (640, 420));
        assert_eq!(EmbedOptions::label(1), "Medium 640×420");
        assert_eq!(
            iframe_snippet("https://x.example/#s=a&embed=1", "<b> & \"c\"", &o),
            "<iframe src=\"https://x.example/#s=a&amp;embed=1\" title=\"Leaseline: &lt;b&gt; &amp; &quot;c&quot;\" width=\"640\" height=\"420\" style=\"border:0\" loading=\"lazy\"></iframe>"
        );
    }

    #[test]
    fn origins_and_the_fit_script_go_into_the_code_and_a_bad_origin_names_its_field() {
        let mut o = EmbedOptions {
            origins_text: "https://course.example, http://localhost:8000".into(),
            fit: true,
            ..EmbedOptions::default()
        };
        assert_eq!(o.origins_error(), None);
        let s = iframe_snippet(
            "https://x.example/app/index.html#s=gc-pause&embed=1",
            "T",
            &o,
        );
        assert!(
            s.contains("#s=gc-pause&amp;embed=1&amp;origins=https://course.example,http://localhost:8000\""),
            "{s}"
        );
        assert!(
            s.ends_with(
                "</iframe>\n<script src=\"https://x.example/app/leaseline-fit.js\" async></script>"
            ),
            "{s}"
        );
        // The link's own origins are replaced by the typed ones, and dropped with them.
        let link = "https://x.example/#s=a&embed=1&origins=https://old.example";
        assert!(o
            .link(link)
            .ends_with("embed=1&origins=https://course.example,http://localhost:8000"));
        assert_eq!(
            EmbedOptions::from_link(link).origins_text,
            "https://old.example"
        );
        o.origins_text = String::new();
        assert_eq!(o.link(link), "https://x.example/#s=a&embed=1");
        // A bad origin is said at its field, and the code leaves origins= out meanwhile.
        o.origins_text = "course.example/path".into();
        assert!(o.origins_error().unwrap().starts_with("origins:"));
        assert_eq!(o.link(link), "https://x.example/#s=a&embed=1");
    }

    #[test]
    fn presets_and_boxes_change_the_snippet_and_the_link() {
        let mut o = EmbedOptions::default();
        o.choose(Size::Preset(2));
        o.autoplay = true;
        o.diagram_only = true;
        let s = iframe_snippet("https://x.example/#s=gc-pause&embed=1", "T", &o);
        assert!(s.contains("width=\"960\" height=\"600\""), "{s}");
        assert!(
            s.contains("#s=gc-pause&amp;embed=1&amp;autoplay=1&amp;view=diagram\""),
            "{s}"
        );
        o.autoplay = false;
        assert_eq!(
            o.link("https://x.example/#s=gc-pause&embed=1&autoplay=1&view=diagram"),
            "https://x.example/#s=gc-pause&embed=1&view=diagram"
        );
        o.diagram_only = false;
        assert_eq!(
            o.link("https://x.example/#s=gc-pause&embed=1&view=diagram"),
            "https://x.example/#s=gc-pause&embed=1"
        );
    }

    #[test]
    fn the_link_is_what_encode_writes_for_the_same_view() {
        let mut v = ViewState {
            source: Source::Named("gc-pause".into()),
            t_ms: Some(30_000),
            embed: true,
            origins: vec!["https://course.example".into()],
            ..ViewState::default()
        };
        let plain = format!("{PAGE}{}", encode(&v));
        for (autoplay, diagram_only) in [(false, false), (true, false), (false, true), (true, true)]
        {
            // A dialog opened on an embed link starts with the link's origins in its field.
            let o = EmbedOptions {
                autoplay,
                diagram_only,
                origins_text: "https://course.example".into(),
                ..EmbedOptions::default()
            };
            v.autoplay = autoplay;
            v.diagram_only = diagram_only;
            let link = o.link(&plain);
            assert_eq!(link, format!("{PAGE}{}", encode(&v)));
            let back = decode(link.split_once('#').unwrap().1).unwrap();
            assert_eq!(back, v);
            assert_eq!(EmbedOptions::from_link(&link), o);
            // Applying the options twice changes nothing.
            assert_eq!(o.link(&link), link);
        }
    }

    #[test]
    fn typed_sizes_are_checked_at_the_field_and_the_code_keeps_the_last_good_one() {
        let mut o = EmbedOptions::default();
        o.choose(Size::Preset(0));
        o.choose(Size::Custom);
        // Custom starts from the size on screen.
        assert_eq!(
            (o.width_text.as_str(), o.height_text.as_str()),
            ("360", "300")
        );
        assert_eq!(o.size(), (360, 300));
        o.set_width("800");
        o.set_height("500");
        assert_eq!(o.size(), (800, 500));
        assert_eq!((o.width_error(), o.height_error()), (None, None));
        for bad in ["3000", "279", "", "12a", "-400", "99999999999"] {
            o.set_width(bad);
            assert_eq!(
                o.width_error().as_deref(),
                Some("Width must be a whole number from 280 to 2000 pixels; the code keeps 800."),
                "{bad:?}"
            );
            assert_eq!(o.size(), (800, 500), "{bad:?}");
        }
        o.set_height("239");
        assert_eq!(
            o.height_error().as_deref(),
            Some("Height must be a whole number from 240 to 2000 pixels; the code keeps 500.")
        );
        o.set_width("2000");
        o.set_height("240");
        assert_eq!(o.size(), (2000, 240));
        assert_eq!((o.width_error(), o.height_error()), (None, None));
        // A preset ignores the typed fields, and they are not flagged.
        o.set_width("1");
        o.choose(Size::Preset(1));
        assert_eq!((o.size(), o.width_error()), ((640, 420), None));
    }

    #[test]
    fn the_preview_scales_down_to_fit_and_never_up() {
        let mut o = EmbedOptions::default();
        assert_eq!(o.preview(480, 360), (750, 480, 315));
        o.choose(Size::Preset(0));
        assert_eq!(o.preview(480, 360), (1000, 360, 300));
        o.choose(Size::Preset(2));
        assert_eq!(o.preview(480, 360), (500, 480, 300));
        o.choose(Size::Custom);
        o.set_width("320");
        o.set_height("2000");
        assert_eq!(o.preview(480, 360), (180, 57, 360));
    }
}
