//! Recording a time range of a run as an animated GIF: the settings, checked; the request a
//! page sends its recording worker, one codec for both sides; and the [`Recorder`] that
//! renders frame after frame ([`super::raster`]) into a GIF ([`super::gif`]) — the same
//! code for `leaseline record`, the browser's worker and the tests, so a recording is the
//! same file wherever it is made.
//!
//! Frame `i` of `n` shows the cursor at `from + (to − from)·i/(n − 1)` (whole ms), so the
//! first frame is the range's start and the last its end; `n` is frames per second times
//! the animation's seconds.

use super::gif::Gif;
use super::raster::{Frame, Scene, Timing, PALETTE};
use crate::analysis::check::check;
use crate::model::scenario::Scenario;
use crate::model::sim::simulate;
use crate::vocab::json::{self, Json};

/// How to record: the range in true ms (`None`: the run's start or end), the frame width in
/// pixels, frames per second and the animation's length in seconds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub from_ms: Option<i64>,
    pub to_ms: Option<i64>,
    pub width: u32,
    pub fps: u32,
    pub seconds: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            from_ms: None,
            to_ms: None,
            width: 720,
            fps: 10,
            seconds: 12,
        }
    }
}

/// The limits a recording is held to, so a typo cannot ask for a gigabyte.
pub const WIDTH: (u32, u32) = (240, 1920);
pub const FPS: (u32, u32) = (1, 30);
pub const SECONDS: (u32, u32) = (1, 60);

impl Options {
    /// The frames' timing over a run that ends at `end_ms`, or what is wrong with these
    /// options (the error names the setting).
    pub fn timing(&self, end_ms: i64) -> Result<Timing, String> {
        let within = |name: &str, v: u32, (lo, hi): (u32, u32)| {
            if (lo..=hi).contains(&v) {
                Ok(())
            } else {
                Err(format!("{name}: {v} is not between {lo} and {hi}"))
            }
        };
        within("width", self.width, WIDTH)?;
        within("fps", self.fps, FPS)?;
        within("seconds", self.seconds, SECONDS)?;
        let from = self.from_ms.unwrap_or(0);
        let to = self.to_ms.unwrap_or(end_ms);
        if from < 0 || from > end_ms {
            return Err(format!(
                "from: {from} ms is outside the run (0 to {end_ms} ms)"
            ));
        }
        if to <= from || to > end_ms {
            return Err(format!(
                "to: {to} ms must be after from ({from} ms) and within the run (to {end_ms} ms)"
            ));
        }
        Ok(Timing {
            from,
            to,
            fps: self.fps,
            seconds: self.seconds,
        })
    }
}

/// What a page asks its recording worker: the scenario, the options and the link to embed.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    pub scenario: Scenario,
    pub options: Options,
    pub link: String,
}

impl Request {
    pub fn encode(&self) -> String {
        let opt = |v: Option<i64>| v.map_or(Json::Null, |v| Json::Int(v.into()));
        let o = &self.options;
        json::compact(&Json::Obj(vec![
            ("scenario".into(), self.scenario.to_json_value()),
            ("from_ms".into(), opt(o.from_ms)),
            ("to_ms".into(), opt(o.to_ms)),
            ("width".into(), Json::Int(o.width.into())),
            ("fps".into(), Json::Int(o.fps.into())),
            ("seconds".into(), Json::Int(o.seconds.into())),
            ("link".into(), Json::Str(self.link.clone())),
        ]))
    }

    /// Reads [`encode`](Self::encode)'s text; an error names the field at fault.
    pub fn decode(text: &str) -> Result<Request, String> {
        let v = json::parse(text).map_err(|e| format!("request: {e}"))?;
        let sc = v.get("scenario").ok_or("scenario: missing")?;
        let scenario =
            Scenario::from_json(&json::compact(sc)).map_err(|e| format!("scenario: {e}"))?;
        let ms = |key: &str| match v.get(key) {
            None | Some(Json::Null) => Ok(None),
            Some(Json::Int(n)) => i64::try_from(*n)
                .map(Some)
                .map_err(|_| format!("{key}: out of range")),
            _ => Err(format!("{key}: not a number")),
        };
        let small = |key: &str| match v.get(key) {
            Some(Json::Int(n)) => u32::try_from(*n).map_err(|_| format!("{key}: out of range")),
            _ => Err(format!("{key}: not a number")),
        };
        let link = match v.get("link") {
            Some(Json::Str(s)) => s.clone(),
            _ => return Err("link: not text".into()),
        };
        Ok(Request {
            scenario,
            options: Options {
                from_ms: ms("from_ms")?,
                to_ms: ms("to_ms")?,
                width: small("width")?,
                fps: small("fps")?,
                seconds: small("seconds")?,
            },
            link,
        })
    }
}

/// A recording in progress: the scene, the timing, and the frame to render next.
pub struct Recorder {
    pub scene: Scene,
    pub timing: Timing,
    next: usize,
}

impl Recorder {
    /// Runs `scenario` and prepares its recording; an error names the setting at fault.
    pub fn new(scenario: &Scenario, options: &Options, link: &str) -> Result<Recorder, String> {
        let trace = simulate(scenario).map_err(|e| e.to_string())?;
        let verdict = check(&trace);
        let timing = options.timing(trace.end.0)?;
        let name = if scenario.name.is_empty() {
            "Leaseline"
        } else {
            scenario.name.as_str()
        };
        let scene = Scene::new(trace, verdict, name, link, options.width as usize);
        Ok(Recorder {
            scene,
            timing,
            next: 0,
        })
    }

    pub fn frames(&self) -> usize {
        self.timing.frames()
    }

    pub fn height(&self) -> usize {
        self.scene.height()
    }

    /// Frame `i`, drawn at its cursor time (the last one with the link).
    pub fn frame(&self, i: usize) -> Frame {
        let n = self.frames();
        self.scene.frame(self.timing.time(i), i + 1 == n)
    }

    /// The next frame and its index, or `None` after the last.
    pub fn next_frame(&mut self) -> Option<(usize, Frame)> {
        let i = self.next;
        (i < self.frames()).then(|| {
            self.next += 1;
            (i, self.frame(i))
        })
    }

    /// A GIF writer for this recording: its size, palette, the link as its comment, and
    /// the frame delay.
    pub fn gif(&self) -> Gif {
        Gif::new(
            self.scene.width,
            self.height(),
            &PALETTE,
            &self.scene.link,
            self.timing.delay_cs(),
        )
    }

    /// The whole GIF at once, calling `progress(done, total)` after each frame.
    pub fn encode_gif(mut self, progress: &mut dyn FnMut(usize, usize)) -> Vec<u8> {
        let mut gif = self.gif();
        let n = self.frames();
        while let Some((i, f)) = self.next_frame() {
            gif.frame(&f);
            progress(i + 1, n);
        }
        gif.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_round_trips_and_options_are_checked() {
        let sc = crate::teach::course::open("gc-pause").unwrap();
        let r = Request {
            scenario: sc.clone(),
            options: Options {
                from_ms: Some(1000),
                to_ms: None,
                ..Options::default()
            },
            link: "https://example.org/#s=gc-pause".into(),
        };
        assert_eq!(Request::decode(&r.encode()).unwrap(), r);
        let bad = Options {
            fps: 0,
            ..Options::default()
        };
        assert!(bad.timing(10_000).unwrap_err().starts_with("fps:"));
        let back = Options {
            from_ms: Some(5000),
            to_ms: Some(4000),
            ..Options::default()
        };
        assert!(back.timing(10_000).unwrap_err().starts_with("to:"));
        let t = Options::default().timing(10_000).unwrap();
        assert_eq!((t.frames(), t.time(0), t.time(119)), (120, 0, 10_000));
    }
}
