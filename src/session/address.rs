//! The link, both ways: a URL fragment into the view it names ([`Session::navigate`]), and
//! the view on screen as the fragment that restores it ([`Session::view_state`]).
//!
//! The grammar and its validation are [`crate::session::share`]'s; this module decides what
//! a view *is*: a built-in scenario is named (with its seed, fence and flavor when changed),
//! anything else travels whole; the cursor is a beat, a time, or — where several events
//! share one millisecond — a time and a step.

use super::page::Session;
use super::panel::Menu;
use crate::model::scenario::Flavor;
use crate::session::carries::PageCourse;
use crate::session::edit::{self, Edit, History};
use crate::session::share::{self, Source, ViewState};
use crate::teach::course::Catalog;
use crate::view::playback::Cursor;
use std::rc::Rc;

impl Session {
    /// The page as its address opens it: the link followed before the first render, so a
    /// link to another scenario (an embed, a deep link) never shows the default run first.
    pub fn opened_at(fragment: &str) -> Session {
        let page = Rc::new(Session::default_page());
        if fragment.is_empty() || fragment == "#" {
            return Rc::unwrap_or_clone(page);
        }
        Rc::unwrap_or_clone(page.reduce(super::Action::Navigate(fragment.to_string())))
    }

    /// Follows a link: the whole view state in a fragment (see `share`). A bad link
    /// changes nothing but the message, which names the key at fault.
    pub(super) fn navigate(&mut self, fragment: &str) {
        let v = match share::decode(fragment) {
            Ok(v) => v,
            Err(e) => {
                self.doc.error = Some(e);
                // The rest of the link is not followed, but an embed stays an embed.
                self.embed.on |= share::wants_embed(fragment);
                return;
            }
        };
        if let Some(rec) = v.recorded {
            // Fetched by the page, which then opens it (`Action::OpenRecorded`).
            let shown = self.doc.recorded.as_ref().and_then(|r| r.name.clone());
            if shown.as_deref() != Some(rec.as_str()) {
                self.doc.wants_recording = Some(Rc::from(rec.as_str()));
            }
            self.nav.menu = None;
            self.embed.on = v.embed;
            return;
        }
        let (name, mut sc) = match v.source {
            Source::Named(name) => match PageCourse::open(&name) {
                Some(sc) => (Some(name), sc),
                None => return,
            },
            Source::Custom(sc) => (None, sc),
        };
        // What the name opens, before the link's changes: what its description speaks of.
        // A scenario of its own that is a built-in edited (a reload of an edited run)
        // speaks of that built-in.
        let named = match name {
            Some(_) => Some(sc.clone()),
            None => PageCourse::origin_of(&sc),
        };
        // The flavor first: switching it may adjust what the new service would refuse.
        if let Some(f) = v.flavor.as_deref().and_then(Flavor::parse) {
            if sc.coordinator.flavor != f {
                sc = edit::apply(&sc, &Edit::SetFlavor(f)).unwrap_or(sc);
            }
        }
        if let Some(seed) = v.seed {
            sc.seed = seed;
        }
        if let Some(f) = v.fence {
            sc = edit::apply(&sc, &Edit::SetFence(f.mode)).unwrap_or(sc);
            // `volatile` also says where the mark is kept.
            f.apply_to(&mut sc);
        }
        // The span first: loading places the beats and the cursor inside it.
        let span = crate::session::zoom::Span {
            from: v.span_from,
            to: v.span_to,
        };
        let span_changed = std::mem::replace(&mut self.frame.span, span) != span;
        // A link to what is already on screen (a reload, our own fragment) keeps the run.
        if self.doc.name.as_deref() != name.as_deref()
            || **self.doc.history.current() != sc
            || v.quiz.is_some()
        {
            self.teach.quiz = None;
            self.load(name.as_deref(), sc);
            // A link that changes a built-in run (a reload of an edited one, or one shared)
            // shows it as edited, as the page did before the link was taken.
            if let Some(named) = named.filter(|n| n != &**self.doc.history.current()) {
                let present = self.doc.history.current().clone();
                self.doc.history = History::opened_from(named, present);
            }
        } else if span_changed {
            self.locate_beats();
            let c = self.play.cursor;
            self.move_to(c);
        }
        if let Some(q) = v.quiz {
            self.start_quiz(q);
        }
        self.nav.menu = match v.chapter {
            Some(_) => Some(Menu::Lessons),
            None => v.panel.as_deref().and_then(Menu::named),
        };
        if v.panel.as_deref() == Some("compare") {
            self.compare_with("");
        }
        self.nav.chapter = v.chapter;
        let trace = &self.doc.run.trace;
        if let Some(b) = v.beat {
            let step = self
                .teach
                .beats
                .get(b)
                .copied()
                .flatten()
                .map_or(0, |i| i + 1);
            self.move_to(Cursor::at_step(trace, step));
        } else if let Some(step) = v.step {
            self.move_to(Cursor::at_step(trace, step as usize));
        } else if let Some(t) = v.t_ms {
            self.move_to(Cursor::at_time(trace, t as f64));
        } else if span_changed {
            let start = self.span_start();
            self.move_to(start);
        }
        // The link's window, kept inside the run (a link is checked against the horizon;
        // the run may end before it).
        let end = self.doc.run.end_ms() as i64;
        self.frame.zoom = self.zoom_inside_span(v.zoom.and_then(|(a, b)| {
            super::zoom::apply(None, super::zoom::Zoom::To(a, b), self.play.cursor.t, end)
        }));
        self.embed.on = v.embed;
        self.embed.autoplay = v.autoplay;
        self.embed.diagram_only = v.diagram_only;
        self.embed.origins = Rc::new(v.origins);
        self.play_if_asked(v.autoplay);
    }

    /// Starts playing as a link's `autoplay=1` asks, unless already playing or at the end
    /// of what the reader may play. One rule for the whole app and the links' player.
    pub(super) fn play_if_asked(&mut self, autoplay: bool) {
        if autoplay && !self.play.playing && !self.at_span_end() {
            self.play.playing = true;
            self.play.last_frame = None;
        }
    }

    /// The view as a link: what `navigate` restores. A built-in scenario
    /// is named (with its seed and fence when changed); anything else travels whole.
    pub fn view_state(&self) -> ViewState {
        let cur = self.doc.history.current();
        let mut v = ViewState {
            embed: self.embed.on,
            autoplay: self.embed.autoplay,
            diagram_only: self.embed.diagram_only,
            origins: (*self.embed.origins).clone(),
            ..ViewState::default()
        };
        if let Some(r) = &self.doc.recorded {
            // A built-in recording is named (an imported one has no link: see
            // `refresh_fragment`).
            v.recorded = r.name.as_deref().map(str::to_string);
            return v;
        }
        let named = self.doc.name.as_deref().and_then(PageCourse::open);
        v.source = match named {
            Some(mut base) => {
                let (seed, fence, flavor) =
                    (base.seed, base.storage.fence, base.coordinator.flavor);
                let now = cur.coordinator.flavor;
                if flavor != now {
                    base = edit::apply(&base, &Edit::SetFlavor(now)).unwrap_or(base);
                }
                base.seed = cur.seed;
                base.storage.fence = cur.storage.fence;
                if base == **cur {
                    v.seed = (seed != cur.seed).then_some(cur.seed);
                    v.fence = (fence != cur.storage.fence).then_some(cur.storage.fence.into());
                    v.flavor = (flavor != now).then(|| now.name().to_string());
                    Source::Named(self.doc.name.as_deref().unwrap_or_default().to_string())
                } else {
                    Source::Custom((**cur).clone())
                }
            }
            None => Source::Custom((**cur).clone()),
        };
        // A built-in question has a number a link can name; an author's questions travel
        // with the scenario and are offered again where it opens.
        v.quiz = self.teach.quiz.filter(|q| !q.author).map(|q| q.question);
        // (A build whose catalog has no questions, the first load's, has none of this.)
        if !PageCourse::QUESTIONS.is_empty() && v.quiz.is_some() {
            // A question opens its own scenario afresh wherever its link is opened
            // (`start_quiz`): the scenario, seed, fence and lock service on screen are its
            // own, or changed by the reader on the way, and a link restores neither. The
            // link is the question (`#quiz=2`), the plain link a player reads.
            v.source = Source::Named(share::DEFAULT_SCENARIO.to_string());
            (v.seed, v.fence, v.flavor) = (None, None, None);
        }
        // The span's own window is not a zoom: the link says it once, as `from=`/`to=`.
        v.zoom = self
            .frame
            .zoom
            .filter(|&w| Some(w) != self.span_window())
            .map(|w| (w.from, w.to));
        v.span_from = self.frame.span.from;
        v.span_to = self.frame.span.to;
        let on_beat = self
            .teach
            .beats
            .iter()
            .position(|e| e.map(|i| i + 1) == Some(self.play.cursor.step));
        match on_beat {
            Some(b) if matches!(v.source, Source::Named(_)) && v.quiz.is_none() => v.beat = Some(b),
            // At the start of the run, or of the link's span, the link opens there anyway:
            // no time in it, so a reload stays a plain link (a players' link).
            _ if self.play.cursor.step > 0 && self.play.cursor != self.span_start() => {
                let t = self.play.cursor.t as i64;
                v.t_ms = Some(t);
                // Several events can share one millisecond: the time alone would land after
                // all of them, so the step says which one the cursor is just past.
                let by_time = Cursor::at_time(&self.doc.run.trace, t as f64).step;
                v.step = (by_time != self.play.cursor.step).then_some(self.play.cursor.step as u32);
            }
            _ => {}
        }
        match self.nav.menu {
            Some(m @ Menu::Lessons) => {
                v.chapter = self.nav.chapter;
                v.panel = self.nav.chapter.is_none().then(|| m.name().to_string());
            }
            Some(m @ (Menu::Interview | Menu::Share)) => v.panel = Some(m.name().to_string()),
            None if self.doc.versus.is_some() => v.panel = Some("compare".to_string()),
            None => {}
        }
        v
    }
}

impl Session {
    /// The fragment of the view on screen, as [`Session::reduce`] keeps it: recomputed once
    /// per action while paused, `None` while playing (the address follows when playback
    /// stops).
    pub(super) fn refresh_fragment(&mut self) {
        // An imported recording has no link of its own: the address is left as it was.
        let imported = self.doc.recorded.as_ref().is_some_and(|r| r.name.is_none());
        self.nav.fragment =
            (!self.play.playing && !imported).then(|| Rc::from(share::encode(&self.view_state())));
    }

    /// The links a reader shares: the full app's fragment and the embed's, both without the
    /// open panel (the Share dialog's [`share::EmbedOptions`] then set the embed's own keys).
    pub fn share_fragments(&self) -> (String, String) {
        let mut v = self.view_state();
        v.panel = None;
        v.embed = false;
        // What an embed shows is the embed's business: the full app's link leaves it out.
        let diagram_only = std::mem::take(&mut v.diagram_only);
        let full = share::encode(&v);
        v.embed = true;
        v.diagram_only = diagram_only;
        (full, share::encode(&v))
    }
}
