//! Making and following a [`Handoff`] (see `session::handoff`): what a player asks
//! the whole app to rebuild ([`Session::handoff`]), and the session rebuilt from it
//! ([`Session::resumed`]).

use super::embed::Command;
use super::handoff::Handoff;
use super::page::{Action, Session};
use super::panel::{Menu, Panel};
use crate::session::carries::PageCourse;
use crate::teach::course::Catalog;
use crate::view::playback::Cursor;
use std::rc::Rc;

impl Session {
    /// What the whole app needs to carry on from here and then do `action` (`None`: only
    /// open `panel`). The first-load build calls this for every action it does not carry.
    pub fn handoff(&self, action: Option<&Action>, panel: Option<Panel>) -> Handoff {
        let mut h = Handoff {
            step: self.play.cursor.step,
            t_ms: self.play.cursor.t as i64,
            base: self
                .doc
                .name
                .as_deref()
                .filter(|&n| n != super::DEFAULT)
                .map(str::to_string),
            panel,
            menu: self.nav.menu.map(|m| m.name().to_string()),
            zoom: self.frame.zoom.map(|w| (w.from, w.to)),
            embed: self.embed.on,
            ..Handoff::default()
        };
        // The first load is never embedded and opens no span, so it carries none of this.
        #[cfg(not(feature = "lite"))]
        {
            h.autoplay = self.embed.autoplay;
            h.diagram_only = self.embed.diagram_only;
            h.origins = (*self.embed.origins).clone();
            h.span = self.frame.span;
        }
        // The first load asks no question, so it carries none of this.
        #[cfg(not(feature = "lite"))]
        if let Some(q) = self.teach.quiz.filter(|q| !q.author) {
            h.quiz = Some(super::handoff::QuizAt {
                question: q.question,
                stop: q.stop,
                picked: q.picked,
                revealed: q.revealed,
                shown: q.shown,
            });
        }
        if self.doc.history.edited() {
            h.fences = self
                .doc
                .history
                .past()
                .iter()
                .skip(1)
                .chain([self.doc.history.current()])
                .map(|sc| sc.storage.fence)
                .collect();
        }
        match action {
            Some(Action::Open(name)) => h.link = Some(super::link::scenario(name, None)),
            Some(Action::Navigate(f)) => h.link = Some(f.clone()),
            Some(Action::StartQuiz(q)) => h.link = Some(super::link::quiz(*q)),
            Some(Action::ToggleMenu(m)) => {
                let open = if self.nav.menu == Some(*m) {
                    None
                } else {
                    Some(*m)
                };
                h.menu = open.map(|m| m.name().to_string());
            }
            Some(Action::Compare(with)) => h.compare = with.clone(),
            Some(Action::Edit(e)) => h.edit = Some(e.clone()),
            Some(Action::ExploreHere) => {
                h.explore = true;
                h.panel = Some(Panel::Explore);
            }
            Some(Action::ExploreFix(name)) => {
                h.link = Some(super::link::scenario(name, None));
                h.explore = true;
                h.panel = Some(Panel::Explore);
            }
            Some(Action::Select(Some(sel))) => h.selected = Some(*sel),
            Some(Action::HostLoad(text)) => h.host = Some(text.clone()),
            Some(Action::Zoom(z)) => {
                let end = self.doc.run.end_ms() as i64;
                h.zoom = super::zoom::apply(self.frame.zoom, *z, self.play.cursor.t, end)
                    .map(|w| (w.from, w.to));
            }
            _ => {}
        }
        h
    }

    /// The session a [`Handoff`] describes: the default page with the same edits (and the
    /// same undo history), cursor, menu and comparison — or the link it names.
    pub fn resumed(h: &Handoff) -> Session {
        if let Some(link) = &h.link {
            let mut m = Session::opened_at(link);
            // (The link is what was asked for: the host hears of it as new.) An embed
            // stays one, with what its own link asked, unless this link asks otherwise.
            if h.embed {
                m.embed.on = true;
                m.embed.diagram_only |= h.diagram_only;
                if m.embed.origins.is_empty() {
                    m.embed.origins = Rc::new(h.origins.clone());
                }
            }
            m.carry_on(h);
            return m;
        }
        let mut m = Session::default_page();
        // The span first: opening places the beats inside it.
        m.frame.span = h.span;
        if let Some(base) = &h.base {
            m = Rc::unwrap_or_clone(Rc::new(m).reduce(Action::Open(base.clone())));
        } else if h.span != Default::default() {
            m.locate_beats();
        }
        for &fence in &h.fences {
            let mut sc = (**m.doc.history.current()).clone();
            sc.storage.fence = fence;
            m.doc.history.replace(sc);
        }
        if !h.fences.is_empty() {
            m.rerun();
        }
        // The step says which of several same-millisecond entries the cursor is past; the
        // time, where between two entries a scrub left it.
        let by_step = Cursor::at_step(&m.doc.run.trace, h.step);
        let t = (h.t_ms as f64).max(by_step.t);
        let next = m
            .doc
            .run
            .trace
            .entries
            .get(h.step)
            .map_or(f64::MAX, |e| e.t.0 as f64);
        m.move_to(Cursor {
            t: t.min(next).min(m.doc.run.end_ms()),
            step: by_step.step,
        });
        m.nav.menu = h.menu.as_deref().and_then(Menu::named);
        m.frame.selected = h.selected;
        let end = m.doc.run.end_ms() as i64;
        m.frame.zoom = m.zoom_inside_span(h.zoom.and_then(|(a, b)| {
            super::zoom::apply(None, super::zoom::Zoom::To(a, b), m.play.cursor.t, end)
        }));
        if let Some(with) = &h.compare {
            m.compare_with(with);
        }
        // The question under way, where it stood: its scenario is the base just opened.
        if let Some(at) = h.quiz {
            m.teach.quiz = PageCourse::quiz(at.question).map(|mut q| {
                (q.stop, q.picked, q.revealed, q.shown) =
                    (at.stop, at.picked, at.revealed, at.shown);
                q
            });
        }
        m.embed.on = h.embed;
        m.embed.autoplay = h.autoplay;
        m.embed.diagram_only = h.diagram_only;
        m.embed.origins = Rc::new(h.origins.clone());
        // What the host heard of from the player: the page before what was asked for.
        m.embed.told = h
            .embed
            .then(|| (m.play.cursor.step, m.doc.run.digest.clone()));
        m.nav.rev = 1;
        m.carry_on(h);
        m.refresh_fragment();
        let then = match (&h.edit, &h.host) {
            (Some(e), _) => Action::Edit(e.clone()),
            (None, Some(text)) => Action::HostLoad(text.clone()),
            (None, None) => return m,
        };
        Rc::unwrap_or_clone(Rc::new(m).reduce(then))
    }
}

impl Action {
    /// Whether the first-load build hands this over to the whole app rather than doing it.
    pub fn needs_whole_app(&self) -> bool {
        needs_whole_app(self)
    }
}

impl Session {
    /// What the handoff asked the whole app to do once drawn: open a panel, search.
    fn carry_on(&mut self, h: &Handoff) {
        // A search opens its own panel.
        match (h.explore, h.panel) {
            (true, _) => self.ask_explore(true),
            (false, Some(p)) => self.open_panel(p),
            (false, None) => {}
        }
    }
}

fn needs_whole_app(action: &Action) -> bool {
    // Every action named, none caught by `_`: a new one does not compile until it says
    // whether a player can do it.
    match action {
        Action::Open(name) => PageCourse::open(name).is_none(),
        // A plain link to a scenario or a question the page carries is followed here; any
        // other link (a time, a zoom, a panel, a scenario of its own) is the
        // whole app's, which reads every key. The first load, opened at the default page only,
        // hands every link over: following one would cost it bytes it does not have.
        Action::Navigate(f) => {
            use super::link::{plain, Plain};
            cfg!(feature = "lite")
                || match plain(f) {
                    // A span past the run's horizon is the whole app's to refuse, by name.
                    Some((Plain::Scenario(n), asks)) => PageCourse::open(n).is_none_or(|sc| {
                        let h = sc.horizon_ms;
                        asks.span.from.is_some_and(|t| t > h) || asks.span.to.is_some_and(|t| t > h)
                    }),
                    Some((Plain::Quiz(q), _)) => PageCourse::quiz(q).is_none(),
                    None => true,
                }
        }
        // The links' player asks the interview questions; the first load asks none.
        Action::StartQuiz(_)
        | Action::Pick(_)
        | Action::QuizNext
        | Action::SkipToStop
        | Action::EndQuiz => cfg!(feature = "lite"),
        Action::Edit(_)
        | Action::AskAuthor
        | Action::ToggleMenu(_)
        | Action::Import(_)
        | Action::RunDraft(_)
        | Action::HostLoad(_)
        | Action::Compare(_)
        | Action::SeekEntryB(_)
        | Action::ExploreHere
        | Action::ExploreFix(_)
        | Action::OpenRecorded { .. }
        | Action::Zoom(_) => true,
        // A player plays, pauses, seeks and opens any built-in run for its host page; a
        // scenario of the host's own is the whole app's (`HostLoad`).
        Action::Host(cmd) => {
            cfg!(feature = "lite")
                || match cmd {
                    Command::Play | Command::Pause | Command::Seek(_) => false,
                    Command::Open(name) => PageCourse::open(name).is_none(),
                    Command::Load(_) => true,
                }
        }
        Action::Select(selected) => selected.is_some(),
        Action::TogglePlay
        | Action::Pause
        | Action::Tick(_)
        | Action::StepForward
        | Action::StepBack
        | Action::NextNotable
        | Action::PrevNotable
        | Action::ToStart
        | Action::ToEnd
        | Action::NextViolation
        | Action::Seek(_)
        | Action::SeekEntry(_)
        | Action::Faster
        | Action::Slower
        | Action::ToggleFence
        | Action::Undo
        | Action::Redo
        | Action::NextBeat
        | Action::PrevBeat
        | Action::LoadProgress(_)
        | Action::ResetProgress
        | Action::SetReducedMotion(_)
        | Action::ShowError(_)
        | Action::DismissError
        | Action::Done(_)
        | Action::SetPanel(..)
        | Action::Upgrade(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::scenario::FenceMode;
    use crate::session::edit::actions_for;
    use crate::session::Effect;
    use crate::session::Selection;
    use crate::vocab::ids::NodeId;

    #[test]
    fn a_handoff_round_trips_and_rebuilds_the_session_with_its_history() {
        let page = Rc::new(Session::default_page());
        let page = page.reduce(Action::ToggleFence).reduce(Action::ToggleFence);
        let page = page.reduce(Action::ToggleFence);
        // A scrub between two entries: the time travels, not only the step.
        let page = page.reduce(Action::Seek(5_000.0));
        assert!(
            page.play.cursor.t > page.doc.run.trace.entries[page.play.cursor.step - 1].t.0 as f64
        );
        let h = page.handoff(
            Some(&Action::ToggleMenu(Menu::Lessons)),
            Some(Panel::Editor),
        );
        assert_eq!(h.fences.len(), 3);
        let back = Handoff::decode(&h.encode()).expect("decodes");
        assert_eq!(back, h);
        let resumed = Session::resumed(&back);
        assert_eq!(
            **resumed.doc.history.current(),
            **page.doc.history.current()
        );
        assert_eq!(resumed.play.cursor, page.play.cursor);
        assert_eq!(resumed.nav.menu, Some(Menu::Lessons));
        // The panel asked for is open, and the page is asked to move the reader to it.
        assert!(resumed.nav.panels.is_open(Panel::Editor));
        assert_eq!(
            resumed.effects.pending(),
            [(0, Effect::Focus(Panel::Editor))]
        );
        assert!(
            resumed.can_undo(),
            "undo reaches the edits made before the handoff"
        );
        let undone = Rc::new(resumed).reduce(Action::Undo);
        assert_eq!(undone.doc.run.scenario.storage.fence, FenceMode::None);
    }

    #[test]
    #[cfg_attr(
        feature = "player",
        ignore = "a player makes no edit of its own: the whole app resumes the handoff"
    )]
    fn a_stage_action_is_carried_over_and_done_by_the_whole_app() {
        let page = Rc::new(Session::default_page()).reduce(Action::StepForward);
        let state = page.play.state.clone();
        let at = page.play.cursor.t as i64;
        for target in [
            Selection::Node(NodeId::Client(1)),
            Selection::Node(NodeId::COORD),
            Selection::Link(NodeId::Client(0), NodeId::Storage),
        ] {
            for (label, e) in actions_for(target, &state, at).items {
                let h = page.handoff(Some(&Action::Edit(e.clone())), None);
                let back = Handoff::decode(&h.encode()).expect(&label);
                assert_eq!(back.edit.as_ref(), Some(&e), "{label}");
                let resumed = Session::resumed(&back);
                let done = page.clone().reduce(Action::Edit(e));
                assert_eq!(resumed.doc.run.digest, done.doc.run.digest, "{label}");
                assert!(resumed.can_undo(), "{label}");
            }
        }
    }

    #[test]
    #[cfg_attr(
        feature = "lite",
        ignore = "the first load is never embedded: it opens the default page alone"
    )]
    fn an_embed_the_player_plays_stays_an_embed_in_the_whole_app() {
        let embed = Rc::new(Session::opened_at("#s=slow-client-clock&embed=1"));
        assert!(embed.embed.on);
        assert_eq!(embed.doc.name.as_deref(), Some("slow-client-clock"));
        // The host's play, pause, seek and open are the player's own.
        for cmd in [
            Command::Play,
            Command::Seek(1_000),
            Command::Open("gc-pause-fenced".into()),
        ] {
            assert!(!Action::Host(cmd).needs_whole_app());
        }
        let played = embed.clone().reduce(Action::Host(Command::Seek(40_000)));
        assert!(played.play.cursor.step > 0);
        // Share is the whole app's: it opens the dialog in the embed, where the player was.
        let share = Action::ToggleMenu(Menu::Share);
        assert!(share.needs_whole_app());
        let h = Handoff::decode(&played.handoff(Some(&share), None).encode()).unwrap();
        let resumed = Session::resumed(&h);
        assert!(resumed.embed.on);
        let heard = (played.play.cursor.step, played.doc.run.digest.clone());
        assert_eq!(resumed.embed.told, Some(heard));
        assert_eq!(resumed.nav.menu, Some(Menu::Share));
        assert_eq!(resumed.play.cursor, played.play.cursor);
        assert_eq!(resumed.doc.run.digest, played.doc.run.digest);
    }

    #[test]
    #[cfg_attr(
        feature = "lite",
        ignore = "the first load is never embedded: it opens the default page alone"
    )]
    fn an_embeds_options_are_followed_by_the_player_and_kept_by_the_whole_app() {
        let link =
            "#s=gc-pause-fenced&embed=1&autoplay=1&view=diagram&origins=https://course.example";
        // A player follows this link itself: nothing in it needs a tool.
        assert!(!Action::Navigate(link.into()).needs_whole_app());
        let embed = Rc::new(Session::opened_at(link));
        assert_eq!(embed.doc.name.as_deref(), Some("gc-pause-fenced"));
        assert!(embed.embed.on && embed.embed.diagram_only && embed.embed.autoplay);
        assert!(embed.play.playing, "autoplay=1 plays as the page opens");
        assert_eq!(*embed.embed.origins, ["https://course.example"]);
        // Paused partway, the reader asks to share: the whole app keeps every option, and
        // its address says them as the embed's link did.
        let paused = embed
            .reduce(Action::Host(Command::Seek(20_000)))
            .reduce(Action::Pause);
        let share = Action::ToggleMenu(Menu::Share);
        let h = Handoff::decode(&paused.handoff(Some(&share), None).encode()).unwrap();
        let resumed = Session::resumed(&h);
        assert!(resumed.embed.on && resumed.embed.diagram_only && resumed.embed.autoplay);
        assert_eq!(*resumed.embed.origins, ["https://course.example"]);
        assert_eq!(resumed.play.cursor, paused.play.cursor);
        let address = resumed.nav.fragment.as_deref().unwrap_or("");
        for key in [
            "embed=1",
            "autoplay=1",
            "view=diagram",
            "origins=https://course.example",
        ] {
            assert!(address.contains(key), "{key} in {address}");
        }
        // A link the whole app follows keeps the allow-list the embed was given: a handover
        // never lets more hosts drive it.
        let open = Action::Open("not-built-in".into());
        let h = Handoff::decode(&paused.handoff(Some(&open), None).encode()).unwrap();
        let resumed = Session::resumed(&h);
        assert!(resumed.embed.on && resumed.embed.diagram_only);
        assert_eq!(*resumed.embed.origins, ["https://course.example"]);
    }

    #[test]
    #[cfg_attr(
        feature = "lite",
        ignore = "the first load is never embedded: it opens the default page alone"
    )]
    fn a_span_is_played_inside_by_the_player_and_handed_over_with_it() {
        use crate::session::zoom::Window;
        let link = "#s=gc-pause&embed=1&from=25000&to=52000";
        assert!(!Action::Navigate(link.into()).needs_whole_app());
        // A span past the run's horizon is refused by the whole app, which names the key.
        assert!(Action::Navigate("#s=gc-pause&embed=1&from=999999".into()).needs_whole_app());
        let m = Rc::new(Session::opened_at(link));
        let w = Window {
            from: 25_000,
            to: 52_000,
        };
        assert_eq!((m.span_window(), m.frame.zoom), (Some(w), Some(w)));
        assert_eq!(m.play.cursor.t, 25_000.0);
        // The address the page keeps is the link as given: a reload plays it alike.
        let address = m.nav.fragment.as_deref().unwrap_or("");
        assert!(crate::session::link::plain(address).is_some(), "{address}");
        let trace = &m.doc.run.trace;
        let told: Vec<usize> = m.teach.beats.iter().flatten().copied().collect();
        assert!(!told.is_empty());
        assert!(told
            .iter()
            .all(|&i| (25_000..=52_000).contains(&trace.entries[i].t.0)));
        let end = m.clone().reduce(Action::ToEnd);
        assert_eq!(end.play.cursor.t, 52_000.0);
        // Handed over partway (a reader's Share): the whole app keeps the span, the beats
        // and the cursor.
        let partway = m.clone().reduce(Action::Seek(40_000.0));
        let share = Action::ToggleMenu(Menu::Share);
        let h = Handoff::decode(&partway.handoff(Some(&share), None).encode()).unwrap();
        let resumed = Session::resumed(&h);
        assert_eq!(
            (resumed.span_window(), resumed.frame.zoom),
            (Some(w), Some(w))
        );
        assert_eq!(resumed.play.cursor, partway.play.cursor);
        assert_eq!(resumed.teach.beats, partway.teach.beats);
        assert!(resumed
            .nav
            .fragment
            .as_deref()
            .is_some_and(|f| f.contains("from=25000&to=52000")));
    }

    #[test]
    #[cfg_attr(
        feature = "player",
        ignore = "a player hands a host's own scenario over: the whole app reads it"
    )]
    fn a_hosts_own_scenario_is_handed_over_and_loaded_by_the_whole_app() {
        let embed = Rc::new(Session::opened_at("#quiz=2&embed=1"));
        let mut sc = crate::teach::course::open("gc-pause").unwrap();
        sc.name = "the host's own".into();
        sc.seed = 99;
        // Pretty-printed, across lines, as a host may send it.
        let msg = format!(
            r#"{{"leaseline":1,"type":"load","scenario":{}}}"#,
            sc.to_json_pretty()
        );
        assert!(msg.contains('\n'));
        let a = Action::HostLoad(msg);
        assert!(a.needs_whole_app());
        let h = Handoff::decode(&embed.handoff(Some(&a), None).encode()).unwrap();
        let resumed = Session::resumed(&h);
        assert!(resumed.embed.on);
        assert_eq!(*resumed.doc.run.scenario, sc);
        // The host heard of the question's run, not of its own: that is news to tell.
        let heard = resumed.embed.told.as_ref().map(|(_, d)| d);
        assert_eq!(heard, Some(&embed.doc.run.digest));
        assert_eq!(resumed.teach.quiz, None);
        // A scenario the whole app refuses is said, and the page stays as it was.
        let bad = r#"{"leaseline":1,"type":"load","scenario":{"version":1}}"#;
        let h = embed.handoff(Some(&Action::HostLoad(bad.into())), None);
        let resumed = Session::resumed(&Handoff::decode(&h.encode()).unwrap());
        assert!(resumed
            .doc
            .error
            .as_deref()
            .is_some_and(|e| e.starts_with("scenario")));
        assert_eq!(resumed.doc.run.digest, embed.doc.run.digest);
    }

    #[test]
    fn a_click_on_the_stage_opens_that_menu_in_the_whole_app() {
        let page = Rc::new(Session::default_page()).reduce(Action::StepForward);
        for sel in [
            Selection::Node(NodeId::Client(1)),
            Selection::Node(NodeId::Storage),
            Selection::Link(NodeId::Client(0), NodeId::COORD),
        ] {
            let a = Action::Select(Some(sel));
            assert!(a.needs_whole_app());
            let h = Handoff::decode(&page.handoff(Some(&a), None).encode()).unwrap();
            let resumed = Session::resumed(&h);
            assert_eq!(resumed.frame.selected, Some(sel));
            assert_eq!(resumed.play.cursor, page.play.cursor);
        }
        assert!(Handoff::decode("leaseline-handoff 1\nselect c1 nowhere").is_err());
    }

    #[test]
    #[cfg_attr(
        feature = "lite",
        ignore = "the first load opens the default lesson alone: the whole app resumes the handoff"
    )]
    fn a_handoff_to_another_scenario_is_a_link() {
        let page = Session::default_page();
        let h = page.handoff(Some(&Action::Open("check-then-write".into())), None);
        let resumed = Session::resumed(&Handoff::decode(&h.encode()).unwrap());
        assert_eq!(resumed.doc.name.as_deref(), Some("check-then-write"));
    }

    #[test]
    #[cfg_attr(
        feature = "lite",
        ignore = "the first load asks no question: the whole app starts it from the link"
    )]
    fn a_question_under_way_is_handed_over_where_it_stands() {
        // A learner at the second question's first stop, a prediction picked, opens the
        // lessons menu: the whole app shows the same stop with the same pick.
        let mut page = Rc::new(Session::default_page()).reduce(Action::StartQuiz(1));
        for _ in 0..1000 {
            if page.quiz_waiting() {
                break;
            }
            page = page.reduce(Action::StepForward);
        }
        assert!(page.quiz_waiting(), "the question's first stop");
        page = page.reduce(Action::Pick(1));
        assert_eq!(page.teach.quiz.unwrap().picked, Some(1));
        let q = page.teach.quiz.unwrap();
        let h = page.handoff(Some(&Action::ToggleMenu(Menu::Lessons)), None);
        assert!(h.quiz.is_some());
        let resumed = Session::resumed(&Handoff::decode(&h.encode()).unwrap());
        let r = resumed.teach.quiz.expect("the question is still under way");
        assert_eq!(
            (r.question, r.stop, r.picked, r.revealed, r.shown),
            (q.question, q.stop, q.picked, q.revealed, q.shown)
        );
        assert_eq!(resumed.doc.name, page.doc.name);
        assert_eq!(resumed.play.cursor, page.play.cursor);
        assert_eq!(resumed.nav.menu, Some(Menu::Lessons));
        for bad in [
            "quiz 1 0 - 1",
            "quiz 1 0 x 1 0",
            "quiz 1 0 - 2 0",
            "quiz a 0 - 1 0",
        ] {
            assert!(
                Handoff::decode(&format!("leaseline-handoff 1\n{bad}")).is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn what_the_reader_did_while_the_whole_app_loaded_is_handed_over_too() {
        // Asked for the settings at the start, then stepped and switched the fence while
        // the whole app loaded: it opens the settings on the run as it then stood.
        let asked = Session::default_page().handoff(None, Some(Panel::Settings));
        let mut page = Rc::new(Session::default_page());
        for a in [
            Action::StepForward,
            Action::StepForward,
            Action::ToggleFence,
        ] {
            page = page.reduce(a);
        }
        let now = page.handoff(None, None);
        let h = Handoff::decode(&asked.caught_up(&now).encode()).unwrap();
        assert_eq!(h.panel, Some(Panel::Settings));
        let resumed = Session::resumed(&h);
        assert_eq!(resumed.play.cursor, page.play.cursor);
        assert_eq!(resumed.doc.run.digest, page.doc.run.digest);
        assert!(resumed.nav.panels.is_open(Panel::Settings));
    }

    #[test]
    fn zooms_asked_one_after_another_add_up_in_every_build() {
        // In a player each zoom is handed over (and the whole app opens at the window of
        // all of them); in the whole app each is drawn. Either way two steps in are two.
        use crate::session::zoom::{Zoom, STEP_FACTOR};
        let step = Zoom::By {
            factor: STEP_FACTOR,
            around: None,
        };
        let page = Rc::new(Session::default_page());
        let once = page.clone().reduce(Action::Zoom(step)).frame.zoom.unwrap();
        let twice = page.reduce(Action::Zoom(step)).reduce(Action::Zoom(step));
        let w = twice.frame.zoom.unwrap();
        assert!(w.to - w.from < once.to - once.from, "{w:?} inside {once:?}");
        if let Some(h) = twice.nav.upgrade.as_deref() {
            assert_eq!(h.zoom, Some((w.from, w.to)));
        }
    }

    #[test]
    fn a_fix_opened_in_the_first_load_is_the_run_handed_over() {
        let page = Rc::new(Session::default_page()).reduce(Action::Open("gc-pause-fenced".into()));
        let h = page.handoff(Some(&Action::ExploreHere), None);
        let resumed = Session::resumed(&Handoff::decode(&h.encode()).unwrap());
        assert_eq!(resumed.doc.name.as_deref(), Some("gc-pause-fenced"));
        assert_eq!(resumed.doc.run.digest, page.doc.run.digest);
        assert_eq!(resumed.effects.pending()[1], (1, Effect::Explore));
        assert!(resumed.nav.panels.is_open(Panel::Explore));
    }

    #[test]
    #[cfg_attr(
        feature = "player",
        ignore = "a player hands the search over: the whole app resumes the handoff and searches"
    )]
    fn the_last_beats_explore_of_a_fix_opens_it_and_asks_the_search() {
        let fix = "slow-client-clock/safety-margin";
        // Handed over from the first load: the whole app opens the fix and searches it.
        let page = Session::default_page();
        let h = page.handoff(Some(&Action::ExploreFix(fix.into())), None);
        assert_eq!(h.panel, Some(Panel::Explore));
        let resumed = Session::resumed(&Handoff::decode(&h.encode()).unwrap());
        assert_eq!(resumed.doc.name.as_deref(), Some(fix));
        assert_eq!(resumed.effects.pending()[1], (1, Effect::Explore));
        assert!(resumed.nav.panels.is_open(Panel::Explore));
        // In the whole app: the same, in one action.
        let page = Rc::new(Session::default_page()).reduce(Action::ExploreFix(fix.into()));
        assert_eq!(page.doc.name.as_deref(), Some(fix));
        assert_eq!(page.effects.pending()[1], (1, Effect::Explore));
        assert_eq!(page.doc.run.digest, resumed.doc.run.digest);
    }
}
