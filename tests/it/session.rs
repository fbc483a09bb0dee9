//! The page's session, natively: playback, the quiz hold, undo and redo, the comparison,
//! host commands and the link both ways — everything the page decides, with no browser.
//! Runs with `--no-default-features`, which proves none of it needs one.

use leaseline::model::scenario::FenceMode;
use leaseline::session::embed::Command;
use leaseline::session::share;
use leaseline::session::{Action, Menu, Session, BEFORE_LAST_EDIT};
use leaseline::teach::narrate;
use leaseline::view::playback::Cursor;
use std::rc::Rc;

fn page() -> Rc<Session> {
    Rc::new(Session::default_page())
}

fn act(s: Rc<Session>, actions: impl IntoIterator<Item = Action>) -> Rc<Session> {
    actions.into_iter().fold(s, |s, a| s.reduce(a))
}

/// Plays with 16 ms frames until `until` says stop, or `max` frames pass.
fn play_frames(mut s: Rc<Session>, max: usize, until: impl Fn(&Session) -> bool) -> Rc<Session> {
    let mut now = 1_000.0;
    for _ in 0..max {
        if until(&s) {
            break;
        }
        now += 16.0;
        s = s.reduce(Action::Tick(now));
    }
    s
}

#[test]
fn a_frame_while_paused_changes_nothing_and_is_the_same_rc() {
    let s = page();
    let again = s.clone().reduce(Action::Tick(5.0));
    assert!(
        Rc::ptr_eq(&s, &again),
        "a paused tick must not allocate a new state"
    );
    let again = s.clone().reduce(Action::Select(None));
    assert!(Rc::ptr_eq(&s, &again));
}

#[test]
fn playing_moves_the_cursor_and_stops_on_each_notable_event() {
    let s = act(page(), [Action::TogglePlay]);
    assert!(s.play.playing);
    assert!(s.nav.fragment.is_none(), "no link is written while playing");
    let first = s.doc.run.notable[0];
    let s = play_frames(s, 100_000, |s| s.play.cursor.step > first);
    // Playback never passes a notable event in one frame: it lands just after it.
    assert_eq!(s.play.cursor.step, first + 1);
    assert!(
        !s.play.caption.is_empty(),
        "the caption says what just happened"
    );
    let s = play_frames(s, 1_000_000, |s| !s.play.playing);
    assert!(s.play.cursor.at_end(&s.doc.run.trace));
    assert!(
        s.nav.fragment.is_some(),
        "paused at the end, the link is written again"
    );
}

#[test]
fn reduced_motion_steps_from_notable_event_to_notable_event() {
    let s = act(page(), [Action::SetReducedMotion(true), Action::TogglePlay]);
    let s = play_frames(s, 100_000, |s| s.play.cursor.step > 0);
    assert_eq!(s.play.cursor.step, s.doc.run.notable[0] + 1);
}

#[test]
fn undo_and_redo_walk_the_fence_switch() {
    let s = page();
    assert_eq!(s.doc.run.scenario.storage.fence, FenceMode::None);
    let s = act(s, [Action::ToggleFence]);
    assert_ne!(s.doc.run.scenario.storage.fence, FenceMode::None);
    assert!(s.can_undo());
    let fenced_digest = s.doc.run.digest.clone();
    let s = act(s, [Action::Undo]);
    assert_eq!(s.doc.run.scenario.storage.fence, FenceMode::None);
    let s = act(s, [Action::Redo]);
    assert_eq!(
        s.doc.run.digest, fenced_digest,
        "redo restores the same run"
    );
}

#[test]
fn the_quiz_holds_the_cursor_before_its_decisive_event_until_answered() {
    let s = act(page(), [Action::StartQuiz(0)]);
    let q = s.teach.quiz.expect("a quiz");
    let hold = q
        .hold(&s.doc.run.scenario, &s.doc.run.trace)
        .expect("the first stop holds somewhere");
    let s = act(s, [Action::TogglePlay]);
    let s = play_frames(s, 1_000_000, |s| !s.play.playing);
    assert_eq!(s.play.cursor.step, hold, "playback stops at the hold");
    assert!(s.quiz_waiting());
    // Stepping on does not pass the stop without an answer… it reveals it.
    let s = act(s, [Action::Pick(0), Action::StepForward]);
    let q = s.teach.quiz.expect("still in the quiz");
    assert!(q.revealed);
    assert_eq!(
        s.play.cursor.step,
        hold + 1,
        "steps onto the decisive event"
    );
    // …and plays on through its consequence (client 2 taking the lock), pausing where the
    // consequence's mark stands clear of the cursor line instead of under it.
    assert!(s.play.playing, "the reveal plays on");
    let s = play_frames(s, 1_000_000, |s| !s.play.playing);
    let q = s.teach.quiz.expect("still in the quiz");
    assert!(q.shown);
    let then = q.current().unwrap().consequence(&s.doc.run.trace).unwrap();
    assert!(
        then > hold,
        "the consequence comes after the decisive event"
    );
    assert!(s.play.cursor.step > then, "the consequence is drawn");
    let margin = s.play.cursor.t - s.doc.run.trace.entries[then].t.0 as f64;
    assert!(
        margin >= s.doc.run.end_ms() / 50.0,
        "clear of the cursor: {margin} ms"
    );
    // Playing again goes on past it: the reveal pauses once, not forever.
    let at = s.play.cursor.step;
    let s = act(s, [Action::TogglePlay]);
    let s = play_frames(s, 1_000, |_| false);
    assert!(s.play.cursor.step > at);
}

/// Real ms of 16 ms frames a session plays until `until` holds.
fn real_ms_until(mut s: Rc<Session>, until: impl Fn(&Session) -> bool) -> (Rc<Session>, f64) {
    let (mut now, start) = (1_000.0, 1_000.0);
    while !until(&s) && now - start < 600_000.0 {
        now += 16.0;
        s = s.reduce(Action::Tick(now));
    }
    (s, now - start)
}

#[test]
fn a_question_about_the_right_behaviour_is_graded_by_a_run_of_it() {
    // Question 3 asks what the deployed code does when the session is lost, and what it
    // should do. Its first stop asks what the deployed code will do (it carries on); its second plays the fix
    // and grades "stop and abort" as right — the answer a student who knows it picks.
    let s = act(page(), [Action::StartQuiz(2), Action::SkipToStop]);
    assert!(s.quiz_waiting(), "skip goes straight to the question");
    let q = s.teach.quiz.unwrap();
    assert!(q.current().unwrap().question.contains("what will it do"));
    let s = act(s, [Action::Pick(0), Action::TogglePlay]);
    let (s, _) = real_ms_until(s, |s| !s.play.playing);
    let q = s.teach.quiz.unwrap();
    assert_eq!(q.right(&s.doc.run.scenario, &s.doc.run.trace), Some(true));
    // The reveal played on to the duplicate payment, which the first run is about.
    let dup = q.current().unwrap().consequence(&s.doc.run.trace).unwrap();
    assert_eq!(
        leaseline::model::trace::json::kind(&s.doc.run.trace.entries[dup].event),
        "effect_performed"
    );
    assert!(
        s.play.cursor.step > dup,
        "the duplicate payment is on screen"
    );

    // The next stop opens the fix and plays towards its question by itself, and says so.
    let s = act(s, [Action::QuizNext]);
    assert_eq!(
        s.doc.name.as_deref(),
        Some("partition-duplicate-effects/stop-on-loss")
    );
    assert!(s.play.playing);
    let (s, _) = real_ms_until(s, |s| !s.play.playing);
    assert!(s.quiz_waiting());
    let stop = s.teach.quiz.unwrap().current().unwrap();
    let abort = stop
        .choices
        .iter()
        .position(|c| c.text.starts_with("Stop issuing work"))
        .unwrap();
    let s = act(s, [Action::Pick(abort), Action::TogglePlay]);
    let (s, _) = real_ms_until(s, |s| !s.play.playing);
    assert_eq!(
        s.teach
            .quiz
            .unwrap()
            .right(&s.doc.run.scenario, &s.doc.run.trace),
        Some(true)
    );
    assert_eq!(s.teach.progress.score(2), (2, 2));
}

#[test]
fn playing_on_after_a_pick_reveals_every_stop() {
    // Every stop of every question: skip to it, pick, play on — the answer is revealed,
    // even where the decisive event comes long after the entry before it (the cursor then
    // waits in the quiet time between, and "Play on" must cross it).
    use leaseline::teach::quiz::QUESTIONS;
    let mut far = 0;
    for (qi, q) in QUESTIONS.iter().enumerate() {
        let mut s = act(page(), [Action::StartQuiz(qi)]);
        for si in 0..q.stops.len() {
            s = act(s, [Action::SkipToStop]);
            assert!(s.quiz_waiting(), "question {qi} stop {si}");
            let at = s
                .teach
                .quiz
                .unwrap()
                .hold(&s.doc.run.scenario, &s.doc.run.trace)
                .unwrap();
            if s.doc.run.trace.entries[at].t.0 as f64 - s.play.cursor.t > 0.0 {
                far += 1;
            }
            s = act(s, [Action::Pick(0), Action::TogglePlay]);
            let (t, _) = real_ms_until(s, |s| {
                s.teach.quiz.is_some_and(|q| q.revealed) || !s.play.playing
            });
            assert!(
                t.teach.quiz.unwrap().revealed,
                "question {qi} stop {si}: play on reveals"
            );
            let (t, _) = real_ms_until(t, |s| !s.play.playing);
            s = act(t, [Action::QuizNext]);
        }
    }
    println!("{far} stops wait before a later decisive event");
}

#[test]
fn dead_time_is_skipped_in_a_long_run() {
    // The TTL lesson's lease expires at 600 s of a 1,501 s run: two real minutes at 5× if
    // every simulated second were played. Quiet gaps are crossed in at most 1.5 s each.
    let s = act(
        page(),
        [
            Action::Open("ttl-shorter-than-work".into()),
            Action::TogglePlay,
        ],
    );
    let (s, real) = real_ms_until(s, |s| s.play.cursor.t >= 600_005.0 || !s.play.playing);
    assert!(s.play.playing, "still playing at the expiry");
    assert!(real < 30_000.0, "reached the expiry after {real} real ms");
}

#[test]
fn compare_offers_the_run_before_the_last_edit_and_an_import_keeps_one() {
    let s = page();
    let original = s.doc.run.digest.clone();
    let s = act(
        s,
        [
            Action::ToggleFence,
            Action::Compare(Some(BEFORE_LAST_EDIT.into())),
        ],
    );
    let vs = s.doc.versus.as_ref().expect("comparing");
    assert_eq!(vs.run.digest, original, "B is the run before the edit");
    assert_ne!(s.doc.run.digest, original);
    assert!(vs.divergence.is_some(), "the fence changes the run");
    // Another edit: B follows, still the run just before it.
    let before = s.doc.run.digest.clone();
    let s = act(s, [Action::ToggleFence]);
    assert_eq!(s.doc.versus.as_ref().unwrap().run.digest, before);

    // An import replaces the run on screen; the run it replaced is "before" it.
    let text = leaseline::teach::course::open("gc-pause-fenced")
        .unwrap()
        .to_json_pretty();
    let s = act(
        page(),
        [
            Action::Import(text),
            Action::Compare(Some(BEFORE_LAST_EDIT.into())),
        ],
    );
    assert_eq!(s.doc.versus.as_ref().unwrap().run.digest, original);
    assert!(
        !s.doc.history.edited(),
        "an import is a scenario of its own, not an edit of the one it replaced"
    );
    let s = act(s, [Action::Compare(None), Action::Undo]);
    assert_eq!(
        s.doc.run.digest, original,
        "undo goes back to before the import"
    );
    // Nothing to undo, nothing before: no comparison.
    let s = act(page(), [Action::Compare(Some(BEFORE_LAST_EDIT.into()))]);
    assert!(s.doc.versus.is_none());
}

#[test]
fn compare_builds_run_b_and_keeps_its_state_under_the_cursor() {
    let s = act(
        page(),
        [Action::Compare(Some(String::new())), Action::ToEnd],
    );
    let v = s.doc.versus.as_ref().expect("comparing");
    assert_ne!(
        v.run.scenario.storage.fence,
        s.doc.run.scenario.storage.fence
    );
    let i = v.divergence.expect("fenced and unfenced part somewhere");
    assert_eq!(
        v.state.step,
        Cursor::at_time(&v.run.trace, s.play.cursor.t).step
    );
    // A click on B's entry moves A's cursor to that entry's time.
    let s = act(s, [Action::SeekEntryB(i)]);
    let t = s.doc.versus.as_ref().unwrap().run.trace.entries[i].t.0 as f64;
    assert_eq!(s.play.cursor.t, t);
    let b = s.doc.versus.as_ref().unwrap();
    assert_eq!(b.state.step, Cursor::at_time(&b.run.trace, t).step);
    let s = act(s, [Action::Compare(None)]);
    assert!(s.doc.versus.is_none());
}

#[test]
fn host_commands_play_seek_and_open() {
    let s = act(page(), [Action::Host(Command::Seek(30_000))]);
    assert_eq!(s.play.cursor.t, 30_000.0);
    let s = act(s, [Action::Host(Command::Play)]);
    assert!(s.play.playing);
    let s = act(s, [Action::Host(Command::Open("clean".into()))]);
    assert_eq!(s.doc.name.as_deref(), Some("clean"));
    assert!(!s.play.playing);
    let before = s.doc.run.digest.clone();
    let s = act(s, [Action::Host(Command::Open("no-such".into()))]);
    assert_eq!(s.doc.run.digest, before, "a bad name changes no run");
    assert!(s.doc.error.as_deref().unwrap_or("").starts_with("s:"));
}

#[test]
fn a_link_restores_the_view_it_was_made_from() {
    let s = act(
        page(),
        [
            Action::ToggleFence,
            Action::Seek(31_000.0),
            Action::ToggleMenu(Menu::Lessons),
        ],
    );
    let fragment = s.nav.fragment.clone().expect("paused: a link");
    let t = act(page(), [Action::Navigate(fragment.to_string())]);
    assert_eq!(t.doc.run.digest, s.doc.run.digest);
    assert_eq!(t.play.cursor.step, s.play.cursor.step);
    assert_eq!(t.nav.menu, Some(Menu::Lessons));
    assert_eq!(
        t.nav.fragment, s.nav.fragment,
        "and describes itself the same way"
    );
}

#[test]
fn a_bad_link_names_its_key_and_keeps_the_run() {
    let s = page();
    let t = act(s.clone(), [Action::Navigate("#s=gc-pause&t=abc".into())]);
    assert_eq!(t.doc.run.digest, s.doc.run.digest);
    assert!(
        t.doc.error.as_deref().unwrap().starts_with("t:"),
        "{:?}",
        t.doc.error
    );
}

#[test]
fn a_link_takes_the_same_fence_words_as_the_command_line() {
    // `leaseline run gc-pause --fence volatile` and `#s=gc-pause&fence=volatile` are one run.
    let s = act(
        page(),
        [Action::Navigate(
            "#s=gc-pause&fence=volatile&embed=1".into(),
        )],
    );
    assert_eq!(s.doc.error, None);
    assert!(s.embed.on);
    let mut sc = leaseline::teach::course::open("gc-pause").unwrap();
    leaseline::cli::apply_fence(&mut sc, "volatile").unwrap();
    assert_eq!(**s.doc.history.current(), sc);
    assert_eq!(sc.storage.fence, FenceMode::Monotone);
}

#[test]
fn a_step_key_lands_inside_a_group_of_events_that_share_one_millisecond() {
    let s = page();
    let trace = &s.doc.run.trace;
    // Find entries k-1 and k at the same ms: the cursor just after k-1 has no time of its own.
    let k = (1..trace.len())
        .find(|&k| trace.entries[k].t == trace.entries[k - 1].t)
        .expect("the default run has two events in one millisecond");
    let s = act(s, [Action::SeekEntry(k - 1)]);
    assert_eq!(s.play.cursor.step, k);
    let fragment = s.nav.fragment.clone().unwrap();
    assert!(fragment.contains(&format!("step={k}")), "{fragment}");
    let t = act(page(), [Action::Navigate(fragment.to_string())]);
    assert_eq!(t.play.cursor.step, k, "the link lands on that exact step");
    // Old links (time only) keep working: they land after the whole group.
    let old = fragment.split("&step=").next().unwrap().to_string();
    let u = act(page(), [Action::Navigate(old)]);
    assert!(u.play.cursor.step > k);
    // A step past the run's end is clamped to it; a step that is no number is refused.
    let v = share::decode("#s=gc-pause&step=1000000").unwrap();
    assert_eq!(v.step, Some(1_000_000));
    let w = act(
        page(),
        [Action::Navigate("#s=gc-pause&step=1000000".into())],
    );
    assert_eq!(w.play.cursor.step, w.doc.run.trace.len());
    assert!(share::decode("#s=gc-pause&step=x")
        .unwrap_err()
        .starts_with("step:"));
}

#[test]
fn a_paused_action_computes_the_fragment_once() {
    let s = act(page(), [Action::StepForward]);
    let f = s.nav.fragment.clone().unwrap();
    // The fragment is the view's encoding, not recomputed by anyone who reads it.
    assert_eq!(&*f, share::encode(&s.view_state()));
}

#[test]
fn an_autoplaying_embed_keeps_every_key_it_was_opened_with() {
    let s = page();
    assert!(
        s.nav.fragment.is_none(),
        "nothing to write before the page's link is read"
    );
    let s = act(
        s,
        [Action::Navigate("#s=gc-pause&embed=1&autoplay=1".into())],
    );
    assert!(s.play.playing && s.embed.on);
    assert!(
        s.nav.fragment.is_none(),
        "the address is left alone while it plays"
    );
    let s = play_frames(s, 1_000_000, |s| !s.play.playing);
    let f = s.nav.fragment.clone().expect("written once it stops");
    assert!(f.contains("embed=1") && f.contains("autoplay=1"), "{f}");
}

#[test]
fn a_bad_link_in_an_embed_keeps_the_frame_an_embed() {
    for bad in [
        "#s=gc-pause&embed=1&beat=9",
        "#embed=1&s=gc-pause&fence=maybe",
    ] {
        let s = act(page(), [Action::Navigate(bad.into())]);
        assert!(s.embed.on, "{bad}");
        assert!(s.doc.error.is_some(), "{bad}: the message is shown");
    }
    let s = act(page(), [Action::Navigate("#s=gc-pause&beat=9".into())]);
    assert!(!s.embed.on);
}

#[test]
fn running_the_editors_draft_is_an_edit_that_keeps_the_cursor_and_undoes() {
    let s = act(page(), [Action::Seek(40_000.0)]);
    let before = s.doc.run.digest.clone();
    let mut sc = s.doc.run.scenario.as_ref().clone();
    sc.clients[0].ttl_ms = 20_000;
    let s = act(s, [Action::RunDraft(sc.to_json_pretty())]);
    assert_ne!(s.doc.run.digest, before, "the draft runs");
    assert_eq!(s.play.cursor.t, 40_000.0, "the cursor keeps its time");
    assert_eq!(s.doc.run.scenario.clients[0].ttl_ms, 20_000);
    let f = s.nav.fragment.clone().unwrap();
    assert!(f.contains("sc="), "the link carries the edited run: {f}");
    let t = act(page(), [Action::Navigate(f.to_string())]);
    assert_eq!(t.doc.run.digest, s.doc.run.digest);
    let s = act(s, [Action::Undo]);
    assert_eq!(
        s.doc.run.digest, before,
        "undo returns to the run before the edit"
    );
    let bad = act(s, [Action::RunDraft("{".into())]);
    assert!(bad.doc.error.as_deref().unwrap().starts_with("editor:"));
    assert_eq!(bad.doc.run.digest, before);
}

#[test]
fn a_quiz_question_is_never_asked_while_the_run_plays() {
    // Every frame size, including ones that land exactly on the stop.
    for frame in [1.0, 7.0, 16.0, 33.0, 100.0] {
        let mut s = act(page(), [Action::StartQuiz(0), Action::TogglePlay]);
        let mut now = 0.0;
        for _ in 0..200_000 {
            now += frame;
            s = s.reduce(Action::Tick(now));
            assert!(
                !(s.quiz_waiting() && s.play.playing),
                "frame {frame} ms: asked while playing"
            );
            if !s.play.playing {
                break;
            }
        }
        assert!(
            s.quiz_waiting(),
            "frame {frame} ms: stopped at the question"
        );
    }
}

#[test]
fn a_page_opened_at_a_link_is_that_link_from_its_first_render() {
    // The page's first state already follows its address: an embed of another scenario
    // never draws the default run first.
    let s = Session::opened_at("#s=check-then-write&embed=1");
    assert_eq!(s.doc.name.as_deref(), Some("check-then-write"));
    assert!(s.embed.on);
    assert_ne!(s.doc.run.digest, Session::default_page().doc.run.digest);
    assert_eq!(
        Session::opened_at("").doc.run.digest,
        Session::default_page().doc.run.digest
    );
    // A bad link opens the default run with the message, as following it later does.
    let bad = Session::opened_at("#s=gc-pause&t=abc");
    assert!(bad.doc.error.as_deref().unwrap().starts_with("t:"));
}

#[test]
fn the_zoom_window_is_in_the_link_follows_playback_and_survives_the_handoff() {
    use leaseline::session::handoff::Handoff;
    use leaseline::session::zoom::{Window, Zoom};
    let s = act(page(), [Action::Navigate("#s=gc-pause&z=1000-5000".into())]);
    assert_eq!(
        s.frame.zoom,
        Some(Window {
            from: 1_000,
            to: 5_000
        })
    );
    assert!(
        s.nav.fragment.as_deref().unwrap().contains("z=1000-5000"),
        "{:?}",
        s.nav.fragment
    );
    // Zooming in around a point keeps it in place; Fit is the whole run again.
    let z = act(
        s.clone(),
        [Action::Zoom(Zoom::By {
            factor: 0.5,
            around: Some(3_000.0),
        })],
    );
    assert_eq!(
        z.frame.zoom,
        Some(Window {
            from: 2_000,
            to: 4_000
        })
    );
    assert_eq!(act(z.clone(), [Action::Zoom(Zoom::Fit)]).frame.zoom, None);
    // Playing on past the window moves it along, keeping its width.
    let played = play_frames(act(z, [Action::TogglePlay]), 2_000, |s| {
        s.play.cursor.t > 20_000.0
    });
    let w = played.frame.zoom.unwrap();
    assert_eq!(w.span(), 2_000);
    assert!(
        (w.from as f64..=w.to as f64).contains(&played.play.cursor.t),
        "{w:?} {}",
        played.play.cursor.t
    );
    // The first load hands the window over to the whole app.
    let h = Handoff::decode(&s.handoff(None, None).encode()).unwrap();
    assert_eq!(Session::resumed(&h).frame.zoom, s.frame.zoom);
    // Opening another scenario shows its whole run.
    assert_eq!(
        act(s, [Action::Open("delayed-write".into())]).frame.zoom,
        None
    );
}

#[test]
fn a_waiting_question_names_its_run_neutrally_until_it_is_answered() {
    // Question 1 plays gc-pause, whose summary tells the late write ("token 33 vs 34");
    // question 2 a lesson, whose title tells the outcome.
    for question in [0, 1] {
        let s = act(page(), [Action::StartQuiz(question), Action::SkipToStop]);
        assert!(s.quiz_waiting());
        let picker = s.picker();
        let shown: Vec<String> = picker
            .options
            .iter()
            .filter(|o| o.2)
            .map(|o| o.1.to_string())
            .chain(picker.other.clone())
            .collect();
        assert_eq!(shown, [narrate::QUESTION_RUN], "question {}", question + 1);
        assert_eq!(s.title(), narrate::QUESTION_RUN);
        let s = act(s, [Action::Pick(0), Action::TogglePlay]);
        let (s, _) = real_ms_until(s, |s| !s.play.playing);
        assert!(s.teach.quiz.unwrap().revealed);
        assert_eq!(s.title(), s.doc.run.scenario.name, "named after the answer");
        let picker = s.picker();
        assert!(picker.options.iter().all(|o| o.1 != narrate::QUESTION_RUN));
        assert_ne!(picker.other.as_deref(), Some(narrate::QUESTION_RUN));
    }
}

/// The statements a course platform records, in the order a learner makes them true: a
/// lesson's beats once each and its completion at the last; a question's answers, each
/// graded by the run it was played on (the grade is the quiz's own), then its score.
#[test]
fn progress_statements_arrive_in_order_for_a_lesson_and_a_question() {
    use leaseline::session::embed::{encode, Event};
    use leaseline::session::statements::Tracker;
    let said = |e: &Event| match e {
        Event::Statement(st) => format!(
            "{} {} {:?} {:?}",
            st.verb, st.object.1, st.result, st.success
        ),
        _ => unreachable!("only statements"),
    };
    // A lesson, beat by beat: each beat told once, however often it is passed.
    let mut tracker = Tracker::default();
    let mut s = act(page(), [Action::Open("gc-pause".into())]);
    let beats = s.teach.beats.iter().flatten().count();
    assert!(beats >= 3, "{beats}");
    let mut told = tracker.observe(&s);
    assert!(told.is_empty(), "nothing before the first beat: {told:?}");
    for _ in 0..beats {
        s = act(s, [Action::NextBeat]);
        told.extend(tracker.observe(&s));
        // Back and forth again tells nothing new.
        s = act(s, [Action::PrevBeat, Action::NextBeat]);
        told.extend(tracker.observe(&s));
    }
    let lines: Vec<String> = told.iter().map(said).collect();
    let mut want: Vec<String> = (1..=beats)
        .map(|k| format!("progressed gc-pause [(\"beat\", {k}), (\"beats\", {beats})] None"))
        .collect();
    want.push(format!("completed gc-pause [(\"beats\", {beats})] None"));
    assert_eq!(lines, want);

    // A question: each stop answered (the first choice, whatever it is), then the score,
    // which counts the stops the run says were right.
    let mut s = act(page(), [Action::StartQuiz(2)]);
    let stops = s.teach.quiz.unwrap().question().unwrap().stops.len();
    let mut told = Vec::new();
    let mut rights = 0;
    for _ in 0..stops {
        s = act(s, [Action::SkipToStop, Action::Pick(0), Action::TogglePlay]);
        let (t, _) = real_ms_until(s, |s| s.teach.quiz.is_some_and(|q| q.revealed));
        rights += usize::from(
            t.teach
                .quiz
                .unwrap()
                .right(&t.doc.run.scenario, &t.doc.run.trace)
                == Some(true),
        );
        told.extend(tracker.observe(&t));
        let (t, _) = real_ms_until(t, |s| !s.play.playing);
        told.extend(tracker.observe(&t));
        s = act(t, [Action::QuizNext]);
        told.extend(tracker.observe(&s));
    }
    let verbs: Vec<&str> = told
        .iter()
        .map(|e| match e {
            Event::Statement(st) => st.verb,
            _ => "",
        })
        .collect();
    let mut want = vec!["answered"; stops];
    want.push("completed");
    assert_eq!(verbs, want);
    let last = said(told.last().unwrap());
    assert_eq!(
        last,
        format!(
            "completed quiz=3 [(\"score\", {rights}), (\"max\", {stops})] Some({})",
            rights == stops
        )
    );
    // Question 3's first stop: the deployed code carries on, and the first choice says so.
    let first = encode(&told[0]);
    assert!(first.starts_with(r#"{"leaseline":1,"type":"statement","verb":"answered","object":{"kind":"question","id":"quiz=3","#), "{first}");
    assert!(
        first.contains(r#""result":{"stop":0,"success":"#),
        "{first}"
    );
    assert!(first.contains(r#""response":""#), "{first}");
}

/// A link's span (`from=`, `to=`): the cursor, playback, the jumps, a host's seek, the zoom
/// and the walkthrough's beats all stay inside it; the link says it back.
#[test]
fn a_span_keeps_the_reader_inside_it() {
    let s = act(
        page(),
        [Action::Navigate(
            "#s=gc-pause&from=25000&to=52000&embed=1".into(),
        )],
    );
    assert_eq!(s.doc.error, None);
    assert_eq!(s.play.cursor.t, 25_000.0, "it opens at the span's start");
    let w = s.span_window().expect("a span");
    assert_eq!((w.from, w.to), (25_000, 52_000));
    assert_eq!(s.frame.zoom, Some(w), "the diagram shows the span");
    assert!(s.at_span_start());
    // Only the beats whose events fall inside it are told: client 1's grant and pause at
    // 10 s are not, the expiry at 30 s is.
    let trace = &s.doc.run.trace;
    let told: Vec<i64> = s
        .teach
        .beats
        .iter()
        .flatten()
        .map(|&i| trace.entries[i].t.0)
        .collect();
    assert!(
        !told.is_empty() && told.iter().all(|t| (25_000..=52_000).contains(t)),
        "{told:?}"
    );
    assert!(
        s.teach.beats.iter().any(Option::is_none),
        "the beats before it are left out"
    );
    let back = act(
        s.clone(),
        [Action::NextBeat, Action::PrevBeat, Action::PrevBeat],
    );
    assert_eq!(
        back.play.cursor.t, 25_000.0,
        "Back stops at the span's start"
    );

    // Playing runs to the span's end and stops there.
    let played = play_frames(act(s.clone(), [Action::TogglePlay]), 200_000, |m| {
        !m.play.playing
    });
    assert!(!played.play.playing);
    assert!(
        played.play.cursor.t <= 52_000.0 && played.play.cursor.t >= 51_000.0,
        "{}",
        played.play.cursor.t
    );
    assert!(played.at_span_end());
    // Play again starts over from the span's start.
    let again = act(played.clone(), [Action::TogglePlay]);
    assert!(
        again.play.playing && again.play.cursor.t == 25_000.0,
        "{}",
        again.play.cursor.t
    );

    // Jumps, a scrub and a host's seek outside it land on its edges.
    for (a, t) in [
        (Action::ToEnd, 52_000.0),
        (Action::ToStart, 25_000.0),
        (Action::Seek(59_000.0), 52_000.0),
        (Action::Seek(1_000.0), 25_000.0),
        (Action::Host(Command::Seek(0)), 25_000.0),
    ] {
        let m = act(s.clone(), [a.clone()]);
        assert!(
            (m.play.cursor.t - t).abs() < 1_000.0
                && m.play.cursor.t >= 25_000.0
                && m.play.cursor.t <= 52_000.0,
            "{a:?}: {}",
            m.play.cursor.t
        );
    }
    // Fit is the span; a zoom stays inside it.
    let fit = act(
        s.clone(),
        [Action::Zoom(leaseline::session::zoom::Zoom::Fit)],
    );
    assert_eq!(fit.frame.zoom, Some(w));
    let out = act(
        s.clone(),
        [Action::Zoom(leaseline::session::zoom::Zoom::By {
            factor: 4.0,
            around: None,
        })],
    );
    assert_eq!(out.frame.zoom, Some(w));

    // The link says the span back, once (not as a zoom too), and restores it.
    let link = act(s.clone(), [Action::Seek(40_000.0)])
        .nav
        .fragment
        .clone()
        .unwrap();
    assert!(
        link.contains("from=25000&to=52000") && !link.contains("z="),
        "{link}"
    );
    let restored = act(page(), [Action::Navigate(link.to_string())]);
    assert_eq!(restored.span_window(), Some(w));
    assert_eq!(restored.play.cursor.t, 40_000.0);
}

#[test]
fn a_bad_span_names_its_key() {
    for (link, key) in [
        ("#s=gc-pause&from=abc", "from:"),
        ("#s=gc-pause&to=99999999", "to:"),
        ("#s=gc-pause&from=30000&to=20000", "to:"),
    ] {
        let t = act(page(), [Action::Navigate(link.into())]);
        assert!(
            t.doc.error.as_deref().unwrap_or("").starts_with(key),
            "{link}: {:?}",
            t.doc.error
        );
        assert_eq!(t.span_window(), None);
    }
}

/// An author's own walkthrough, written into a scenario: it travels in the JSON and the
/// `sc=` link, is placed on the run's events (each beat at the first event at or after its
/// time), is walked with Next and Back like a built-in one, and tells the host its progress
/// under the scenario's name. A bad beat is refused naming its field.
#[test]
fn an_authored_walkthrough_travels_in_the_link_and_is_walked_like_a_lesson() {
    use leaseline::model::scenario::{AuthoredBeat, Scenario};
    use leaseline::session::embed::Event;
    use leaseline::session::statements::Tracker;
    let mut sc = leaseline::teach::course::open("gc-pause").unwrap();
    sc.name = "Unit 2: the long pause".into();
    sc.walkthrough = vec![
        AuthoredBeat {
            at_ms: 10_000,
            text: "Client 1 freezes here.".into(),
            highlight: Some(leaseline::vocab::ids::NodeId::Client(0)),
        },
        AuthoredBeat {
            at_ms: 30_000,
            text: "The lease runs out; nobody tells client 1.".into(),
            highlight: None,
        },
        AuthoredBeat {
            at_ms: 50_000,
            text: "It wakes and writes.".into(),
            highlight: None,
        },
    ];
    let json = sc.to_json_pretty();
    assert!(json.contains("\"walkthrough\""), "{json}");
    assert_eq!(
        Scenario::from_json(&json).unwrap(),
        sc,
        "the JSON round-trips"
    );
    let link = format!("#sc={}&embed=1", share::pack(&sc));
    let s = act(page(), [Action::Navigate(link)]);
    assert_eq!(s.doc.error, None);
    assert_eq!(
        s.doc.run.scenario.walkthrough, sc.walkthrough,
        "the link carries it"
    );
    assert_eq!(s.teach.beats.iter().flatten().count(), 3);
    let mut tracker = Tracker::default();
    let mut times = Vec::new();
    let mut s = s;
    for _ in 0..3 {
        s = act(s, [Action::NextBeat]);
        times.push(s.play.cursor.t as i64);
        tracker.observe(&s);
    }
    assert!(times[0] >= 10_000 && times[0] < 30_000, "{times:?}");
    assert!(times[1] >= 30_000 && times[1] < 50_000, "{times:?}");
    assert!(times[2] >= 50_000, "{times:?}");
    let back = act(s.clone(), [Action::PrevBeat]);
    assert_eq!(back.play.cursor.t as i64, times[1]);
    // Written over the built-in run in the editor, the beats are this run's own: no note
    // that they tell the original; an edit after that leaves them the opened run's.
    let drafted = act(page(), [Action::RunDraft(json.clone())]);
    assert!(drafted.doc.history.edited() && !drafted.doc.history.beats_predate_edit());
    assert_eq!(drafted.teach.beats.iter().flatten().count(), 3);
    let refenced = act(s.clone(), [Action::ToggleFence]);
    assert!(refenced.doc.history.beats_predate_edit());
    // The progress statements name the lesson by the scenario's name.
    let mut fresh = Tracker::default();
    let told: Vec<String> = [
        act(s.clone(), [Action::PrevBeat, Action::PrevBeat]),
        back,
        s,
    ]
    .iter()
    .flat_map(|m| fresh.observe(m))
    .map(|e| match e {
        Event::Statement(st) => format!("{} {} {:?}", st.verb, st.object.1, st.result),
        _ => String::new(),
    })
    .collect();
    assert_eq!(
        told.last().map(String::as_str),
        Some("completed Unit 2: the long pause [(\"beats\", 3)]"),
        "{told:?}"
    );

    // Refused, naming the field.
    for (bad, path) in [
        (
            r#"{"at_ms": 40000, "text": "b"}, {"at_ms": 30000, "text": "a"}"#,
            "walkthrough[1].at_ms",
        ),
        (r#"{"at_ms": 40000, "text": "  "}"#, "walkthrough[0].text"),
        (
            r#"{"at_ms": 900000000, "text": "a"}"#,
            "walkthrough[0].at_ms",
        ),
        (
            r#"{"at_ms": 1, "text": "a", "colour": "red"}"#,
            "walkthrough[0].colour",
        ),
        (r#"{"text": "a"}"#, "walkthrough[0].at_ms"),
    ] {
        let text = json.replace("\"walkthrough\": [", &format!("\"walkthrough\": [{bad},"));
        assert_ne!(text, json);
        let e = Scenario::from_json(&text).expect_err(bad);
        assert_eq!(e.path, path, "{bad}: {e}");
    }
    let long = format!(r#"{{"at_ms": 1, "text": "{}"}}"#, "x".repeat(601));
    let text = json.replace("\"walkthrough\": [", &format!("\"walkthrough\": [{long},"));
    assert_ne!(text, json);
    assert_eq!(
        Scenario::from_json(&text).unwrap_err().path,
        "walkthrough[0].text"
    );
}

/// A link that changes a built-in run (its service, here) opens it as the page showed it
/// before the link was taken — after an edit, or on a reload of the edited run: the
/// description is marked as the original's and the picker says the run is edited, not the
/// preset; the same link without the change opens the preset as it is.
#[test]
fn a_link_to_a_changed_built_in_run_opens_it_as_edited() {
    let shown = |s: &Session| {
        let p = s.picker();
        let selected: Vec<&str> = p.options.iter().filter(|o| o.2).map(|o| o.0).collect();
        (selected, p.other.clone())
    };
    let plain = act(page(), [Action::Navigate("#s=check-then-write".into())]);
    assert!(!plain.doc.history.edited());
    assert!(!plain
        .description()
        .starts_with(leaseline::session::edit::ORIGINAL));

    let changed = act(
        page(),
        [Action::Navigate("#s=check-then-write&flavor=redis".into())],
    );
    assert!(changed.doc.history.edited());
    assert!(changed
        .description()
        .starts_with(leaseline::session::edit::ORIGINAL));
    assert!(changed.description().ends_with(&plain.description()));
    let (selected, other) = shown(&changed);
    assert!(selected.is_empty(), "{selected:?}");
    assert_eq!(
        other,
        Some(format!("Edited: {}", changed.doc.run.scenario.name))
    );

    // The same on the default page's own preset: after its fence is switched, it is no
    // longer listed as the preset.
    let fenced = act(
        page(),
        [Action::Navigate("#s=gc-pause&fence=monotone".into())],
    );
    let (selected, other) = shown(&fenced);
    assert!(selected.is_empty() && other.unwrap().starts_with("Edited: "));
    let (selected, other) = shown(&page());
    assert_eq!((selected, other), (vec![share::DEFAULT_SCENARIO], None));

    // A run edited beyond what a link's keys say travels whole (`sc=`): it keeps the
    // built-in's name and description, and is opened as that built-in edited.
    let mut sc = leaseline::teach::course::open("check-then-write").unwrap();
    sc.faults[0].at_ms += 1;
    let link = format!("#sc={}", share::pack(&sc));
    let whole = act(page(), [Action::Navigate(link)]);
    assert!(whole.doc.history.edited());
    assert_eq!(
        whole.description(),
        format!(
            "{}{}",
            leaseline::session::edit::ORIGINAL,
            plain.description()
        )
    );
    assert_eq!(shown(&whole).1, Some(format!("Edited: {}", sc.name)));
    // One of its own name is its own: "Custom", its description as written.
    sc.name = "My lock check".into();
    let own = act(
        page(),
        [Action::Navigate(format!("#sc={}", share::pack(&sc)))],
    );
    assert!(!own.doc.history.edited());
    assert_eq!(shown(&own).1, Some("Custom: My lock check".into()));
    assert_eq!(own.description(), sc.description);
}

/// A question's page keeps the plain link it was opened at (`#quiz=2`), which the links'
/// player reads: a reload or a copied address must not turn it into a link only the whole
/// app follows (`#s=…&quiz=2`). A fence switched on the way is not in it — the question
/// opens its own scenario afresh — and the link opens the same question.
#[test]
fn a_question_s_link_stays_the_question_s_plain_link() {
    use leaseline::session::link::plain;
    let s = act(page(), [Action::Navigate("#quiz=2".into())]);
    assert_eq!(s.nav.fragment.as_deref(), Some("#quiz=2"));
    assert!(plain("#quiz=2").is_some());
    let (full, embed) = s.share_fragments();
    assert_eq!(
        (full.as_str(), embed.as_str()),
        ("#quiz=2", "#quiz=2&embed=1")
    );
    assert!(plain(&embed).is_some());
    // The frame's name, for a screen reader on the course page, gives nothing away.
    let questions = leaseline::teach::quiz::QUESTIONS.len();
    let title = format!("interview question 2 of {questions}");
    assert_eq!(s.share_title(), title);
    // Skipped to the stop, picked, revealed, fence switched: the question and the cursor.
    let s = act(
        s,
        [Action::SkipToStop, Action::Pick(0), Action::StepForward],
    );
    let s = play_frames(s, 1_000_000, |s| !s.play.playing);
    let s = act(s, [Action::ToggleFence]);
    let fragment = s.nav.fragment.clone().expect("paused: a link");
    assert_eq!(
        s.share_title(),
        title,
        "answered, still the question's name"
    );
    assert!(
        fragment.starts_with("#t=") && fragment.ends_with("&quiz=2"),
        "{fragment}"
    );
    assert!(
        !fragment.contains("s=") && !fragment.contains("fence="),
        "{fragment}"
    );
    let t = act(page(), [Action::Navigate(fragment.to_string())]);
    assert_eq!(t.teach.quiz.map(|q| q.question), Some(1));
    assert_eq!(t.doc.name, Some("tail-latency".into()));
    // (The answer is not in a link: the question opens unanswered, held at its stop.)
    assert!(t.quiz_waiting() && t.play.cursor.t <= s.play.cursor.t);
    // A link of the older form, with the scenario beside the question, still opens it.
    let old = act(page(), [Action::Navigate("#s=tail-latency&quiz=2".into())]);
    assert_eq!(old.teach.quiz.map(|q| q.question), Some(1));
    assert_eq!(old.nav.fragment.as_deref(), Some("#quiz=2"));
}
