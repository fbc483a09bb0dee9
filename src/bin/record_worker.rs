//! The recorder in a Web Worker: renders a time range of a run frame by frame and writes
//! the GIF, off the page's thread, with its own small wasm loaded only when a reader
//! records.
//!
//! `static/record-worker.js` loads this module, makes a [`Recording`] from the request the
//! Export panel sent (`view::export::record::Request`, one codec for both sides), and
//! steps it one frame at a time, posting progress between frames. For a video it asks for
//! each frame's RGBA pixels instead and hands them to the browser's `VideoEncoder`. The
//! frames are the core's, drawn by the same code as `leaseline record`, so a GIF made here
//! is the file the command line makes. Cancel is the page terminating the worker.

#[cfg(target_arch = "wasm32")]
mod worker {
    use leaseline::view::export::gif::Gif;
    use leaseline::view::export::record::{Recorder, Request};
    use wasm_bindgen::prelude::*;

    /// One recording: the run drawn frame by frame, and the GIF written so far.
    #[wasm_bindgen]
    pub struct Recording {
        rec: Recorder,
        gif: Option<Gif>,
    }

    #[wasm_bindgen]
    impl Recording {
        /// `request`: a `Request`'s text. Throws a message naming the field at fault.
        #[wasm_bindgen(constructor)]
        pub fn new(request: &str) -> Result<Recording, JsValue> {
            let r = Request::decode(request).map_err(|e| JsValue::from_str(&e))?;
            let rec = Recorder::new(&r.scenario, &r.options, &r.link)
                .map_err(|e| JsValue::from_str(&e))?;
            Ok(Recording { rec, gif: None })
        }

        pub fn frames(&self) -> u32 {
            self.rec.frames() as u32
        }

        pub fn width(&self) -> u32 {
            self.rec.scene.width as u32
        }

        pub fn height(&self) -> u32 {
            self.rec.height() as u32
        }

        pub fn fps(&self) -> u32 {
            self.rec.timing.fps
        }

        /// Adds the next frame to the GIF; returns how many frames it now has.
        pub fn gif_step(&mut self) -> u32 {
            if self.gif.is_none() {
                self.gif = Some(self.rec.gif());
            }
            if let (Some(g), Some((_, f))) = (self.gif.as_mut(), self.rec.next_frame()) {
                g.frame(&f);
            }
            self.gif.as_ref().map_or(0, |g| g.frames() as u32)
        }

        /// The finished GIF's bytes.
        pub fn gif_finish(&mut self) -> Vec<u8> {
            self.gif.take().map_or_else(Vec::new, Gif::finish)
        }

        /// Frame `i` as RGBA bytes, for a video encoder.
        pub fn rgba(&self, i: u32) -> Vec<u8> {
            self.rec.frame(i as usize).rgba()
        }

        /// The link the recording carries (a video's metadata writes it too).
        pub fn link(&self) -> String {
            self.rec.scene.link.clone()
        }
    }
}

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    {
        eprintln!("leaseline-record is the browser's recording worker; run `leaseline record`");
        std::process::exit(2);
    }
}
