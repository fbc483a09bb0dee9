//! Walkthrough beats on the page quote the run on screen: after an edit, the numbers are
//! the edited run's, and a beat whose claim the edit broke is not placed at all.

use leaseline::session::edit::Edit;
use leaseline::session::{Action, Session};
use leaseline::teach::course;
use std::rc::Rc;

/// The text of every beat placed on the page's run (`None`: hidden).
fn beats(m: &Session) -> Vec<Option<String>> {
    let w = course::walkthrough(m.doc.name.as_deref().unwrap()).unwrap();
    let facts = m.doc.run.facts();
    m.teach
        .beats
        .iter()
        .enumerate()
        .map(|(b, at)| at.and_then(|i| w.text(b, i, &facts)))
        .collect()
}

#[test]
fn an_edited_ttl_changes_what_the_check_beat_says() {
    let m = Rc::new(Session::default_page()).reduce(Action::Open("check-then-write".into()));
    assert_eq!(
        beats(&m)[1].as_deref(),
        Some("Before writing, client 1 does the careful thing: it checks its lease. Fifteen seconds left. The check passes.")
    );
    let m = m.reduce(Action::Edit(Edit::SetTtl(40_000)));
    assert_eq!(
        beats(&m)[1].as_deref(),
        Some("Before writing, client 1 does the careful thing: it checks its lease. Twenty-five seconds left. The check passes.")
    );
    // Undo brings the stock numbers back.
    let m = m.reduce(Action::Undo);
    assert!(beats(&m)[1]
        .as_deref()
        .unwrap()
        .contains("Fifteen seconds left."));
}

#[test]
fn a_beat_an_edit_removes_is_skipped_by_next() {
    // Make client 1's clock true: its late check (the beat that says "runs 20% slow")
    // now passes before client 2 is granted, so the beat has no place in this run.
    let m = Rc::new(Session::default_page()).reduce(Action::Open("slow-client-clock".into()));
    assert!(beats(&m)[3].as_deref().unwrap().contains("runs 20% slow"));
    let m = m.reduce(Action::Edit(Edit::SetDrift {
        node: leaseline::vocab::ids::NodeId::Client(0),
        ppm: 0,
    }));
    assert_eq!(beats(&m)[3], None);
    // Next walks only the beats this run tells.
    let mut m = m.reduce(Action::ToStart);
    let mut seen = 0;
    loop {
        let before = m.play.cursor.step;
        m = m.reduce(Action::NextBeat);
        if m.play.cursor.step == before {
            break;
        }
        seen += 1;
    }
    assert_eq!(seen, m.teach.beats.iter().flatten().count());
}
