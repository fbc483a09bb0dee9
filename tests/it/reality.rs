//! Model vs reality, natively: each built-in recording of a real run opens as
//! the run on screen, judged by the same checker, beside the model's run of the scenario it
//! ran, whose key moments it matches in order; the link names it; a bad recording is refused
//! with its line and field while the run on screen stays; an edit leaves the recording for
//! the model's own run, and is refused over a recording that names no scenario.

use leaseline::analysis::compare::agreement;
use leaseline::model::recorded;
use leaseline::model::scenario::Scenario;
use leaseline::session::edit::Edit;
use leaseline::session::recorded::{BUILT_IN, MODEL};
use leaseline::session::{Action, Session};
use std::rc::Rc;

fn files(name: &str) -> (String, String) {
    let root = env!("CARGO_MANIFEST_DIR");
    let text = std::fs::read_to_string(format!("{root}/tests/recorded/lab/{name}.ndjson")).unwrap();
    let sc = std::fs::read_to_string(format!("{root}/tools/lab/scenarios/{name}.json")).unwrap();
    (text, sc)
}

fn open(name: &str) -> Rc<Session> {
    let (text, sc) = files(name);
    Rc::new(Session::default_page()).reduce(Action::OpenRecorded {
        text,
        scenario: Some(sc),
        name: Some(name.to_string()),
    })
}

#[test]
fn every_built_in_recording_opens_beside_the_model_and_agrees_on_its_key_moments() {
    for (name, title) in BUILT_IN {
        let s = open(name);
        assert_eq!(s.doc.error, None, "{name}");
        let r = s.doc.recorded.as_ref().expect(name);
        assert_eq!(&*r.title, title);
        // What the page says of it names no file of ours.
        for path in ["tools/", ".json", "scenarios/"] {
            assert!(!r.about.contains(path), "{name}: {}", r.about);
        }
        // The run on screen is the recording, checked as any run is.
        let (text, sc) = files(name);
        let real = recorded::to_trace(&recorded::parse(&text).unwrap());
        assert_eq!(s.doc.run.trace, real, "{name}");
        // Beside it, the model's run of the same scenario file.
        let vs = s.doc.versus.as_ref().expect("the model beside it");
        assert_eq!(&*vs.with, MODEL);
        let model = leaseline::model::sim::simulate(&Scenario::from_json(&sc).unwrap()).unwrap();
        assert_eq!(vs.run.trace, model);
        let a = agreement(&model, &real);
        assert_eq!(a.parts, None, "{name}: model and reality part");
        assert!(a.matched.len() >= 3, "{name}: {} moments", a.matched.len());
        // The same verdict classes.
        let kinds = |v: &leaseline::analysis::check::Verdict| {
            let mut k: Vec<_> = v
                .violations
                .iter()
                .map(|x| format!("{:?}", x.kind))
                .collect();
            k.sort();
            k.dedup();
            k
        };
        assert_eq!(kinds(&s.doc.run.verdict), kinds(&vs.run.verdict), "{name}");
        // Their times: each matched moment within the lab's ±50 ms target, or the page
        // names the first that is not, jumps to it, and says why where the service is known
        // to work so (the lab's etcd waiter polls every 20 ms where the model's is told at
        // once; ZooKeeper expires sessions on its tick). Only those services depart.
        let note = vs.note.as_deref().unwrap();
        match a.departs {
            None => assert!(
                note.starts_with("Model and reality agree on all")
                    && note.contains("within ±50 ms"),
                "{note}"
            ),
            Some((_, _, real)) => {
                assert!(
                    note.contains("the first moment to depart is")
                        && note.contains("beyond the ±50 ms target"),
                    "{note}"
                );
                assert_eq!(vs.divergence, Some(real), "{name}: the jump goes to it");
                let service = name.split('-').find(|w| ["etcd", "zookeeper"].contains(w));
                let why = match service {
                    Some("etcd") => "every 20 ms",
                    Some(_) => "tickTime",
                    None => panic!("{name}: departs with no reason the page can give: {note}"),
                };
                assert!(note.contains(why), "{note}");
            }
        }
        // The link names it, and following it asks the page to fetch it.
        let link = s.nav.fragment.as_deref().unwrap();
        assert_eq!(link, format!("#rec={name}"));
        let asked = Rc::new(Session::default_page()).reduce(Action::Navigate(link.to_string()));
        assert_eq!(asked.doc.wants_recording.as_deref(), Some(name));
        assert_eq!(asked.doc.error, None);
    }
}

#[test]
fn a_bad_recording_is_refused_with_its_line_and_field_and_the_run_stays() {
    let page = Rc::new(Session::default_page());
    let digest = page.doc.run.digest.clone();
    let (text, _) = files("gc-pause-redis");
    let bad = text.replacen("\"t_us\":", "\"t_us\":\"x\",\"u\":", 2);
    let s = page.reduce(Action::OpenRecorded {
        text: bad,
        scenario: None,
        name: None,
    });
    let e = s.doc.error.as_deref().unwrap();
    assert!(e.starts_with("recorded trace: line 2"), "{e}");
    assert_eq!(s.doc.run.digest, digest);
    assert!(s.doc.recorded.is_none());
    let s = Rc::new(Session::default_page()).reduce(Action::Navigate("#rec=nope".into()));
    assert!(s
        .doc
        .error
        .as_deref()
        .unwrap()
        .starts_with("rec: no recording named"));
}

#[test]
fn an_imported_recording_without_its_scenario_draws_alone_and_an_edit_returns_to_the_model() {
    let (text, _) = files("gc-pause-redis");
    let s = Rc::new(Session::default_page()).reduce(Action::OpenRecorded {
        text,
        scenario: None,
        name: None,
    });
    assert_eq!(s.doc.error, None);
    assert!(s.doc.recorded.is_some() && s.doc.versus.is_none());
    assert_eq!(
        s.nav.fragment, None,
        "an imported recording leaves the address alone"
    );
    assert_eq!(s.doc.run.scenario.clients.len(), 2);
    assert!(
        !s.doc.run.verdict.violations.is_empty(),
        "the unfenced Redis run is unsafe"
    );
    // The scenario under it stands in for one the recording does not name: the page says
    // the recording's service, never the stand-in's (generic, unfenced).
    let r = s.doc.recorded.as_ref().unwrap();
    assert_eq!(r.unmodelled.as_deref(), Some("redis"));
    assert!(
        r.about.contains("real redis (recorded by the lab)"),
        "{}",
        r.about
    );
    // The fence switch has no model run of this recording to switch: it is drawn disabled,
    // and its key, like any edit of the scenario under it, is refused with a word on
    // where a scenario comes from; the recording stays.
    assert_eq!(s.recording_unmodelled().as_deref(), Some("redis"));
    for edit in [Action::ToggleFence, Action::Edit(Edit::SetTtl(5_000))] {
        let refused = s.clone().reduce(edit);
        assert!(refused.doc.recorded.is_some());
        assert_eq!(refused.doc.run.digest, s.doc.run.digest);
        let e = refused.doc.error.as_deref().unwrap_or_default();
        assert!(
            e.starts_with("recording: it names no scenario of the model"),
            "{e}"
        );
    }
    // A scenario of the reader's own, from the editor, is the model's run of it.
    let own = leaseline::teach::presets::preset("gc-pause")
        .unwrap()
        .scenario();
    let edited = s.reduce(Action::RunDraft(own.to_json_pretty()));
    assert!(edited.doc.recorded.is_none());
    assert_eq!(edited.doc.error, None);
}

/// Who wrote a file is free text (`source`): a recording written by hand is not said to be
/// "recorded by the hand", nor the model's own run, written out, "a real" one; one naming no service is a
/// "system", and with a built-in scenario behind it the model describes the service.
#[test]
fn a_recording_says_who_wrote_it_and_names_its_own_service() {
    let (text, _) = files("gc-pause-redis");
    let open_as = |header: (&str, &str)| {
        let text = text.replacen(header.0, header.1, 1);
        Rc::new(Session::default_page()).reduce(Action::OpenRecorded {
            text,
            scenario: None,
            name: None,
        })
    };
    let hand = open_as(("\"source\":\"lab\"", "\"source\":\"hand\""));
    let r = hand.doc.recorded.as_ref().unwrap();
    assert!(
        r.about
            .starts_with("What happened on a real redis (written by hand),"),
        "{}",
        r.about
    );
    let exported = open_as(("\"source\":\"lab\"", "\"source\":\"model\""));
    let about = &exported.doc.recorded.as_ref().unwrap().about;
    assert!(
        about.starts_with("The model's own run, written out as a recorded trace"),
        "{about}"
    );
    assert!(!about.starts_with("What happened on a real"), "{about}");
    let unnamed = open_as(("\"service\":\"redis\",", ""));
    let r = unnamed.doc.recorded.as_ref().unwrap();
    assert_eq!(r.unmodelled.as_deref(), Some("system"));
    // A built-in recording opens over the lab's own scenario: the model describes it.
    assert_eq!(
        open("gc-pause-redis")
            .doc
            .recorded
            .as_ref()
            .unwrap()
            .unmodelled,
        None
    );
}

/// An engineer's own trace names its nodes in its own words; the page names them "client 1",
/// "the lock service", "storage" on every lane and in every verdict. The description says
/// which is which, for the names that differ and only for those (the lab's "c1" and
/// "redis" are the page's own or the service's).
#[test]
fn a_recording_with_names_of_its_own_says_which_node_each_is() {
    let own = [
        r#"{"leaseline_trace":1,"service":"etcd","source":"hand","nodes":[{"name":"worker-a","role":"client"},{"name":"Client 2","role":"client"},{"name":"etcd-0","role":"lock service"},{"name":"pg","role":"storage"}]}"#,
        r#"{"t_us":0,"node":"worker-a","event":"acquire_sent"}"#,
        r#"{"t_us":5000,"node":"worker-a","event":"granted","ttl_ms":10000,"token":7}"#,
        r#"{"t_us":6000,"node":"worker-a","event":"write_sent","key":"x","value":"a","token":7}"#,
        r#"{"t_us":7000,"node":"pg","event":"write_accepted","client":"worker-a","key":"x","value":"a","token":7}"#,
    ]
    .join("\n");
    let about = |text: String| {
        let s = Rc::new(Session::default_page()).reduce(Action::OpenRecorded {
            text,
            scenario: None,
            name: None,
        });
        assert_eq!(s.doc.error, None);
        s.doc.recorded.as_ref().unwrap().about.clone()
    };
    let said = about(own);
    assert!(
        said.ends_with(
            "Its nodes: “worker-a” is client 1, “etcd-0” is the lock service, “pg” is storage."
        ),
        "{said}"
    );
    // The lab's files use the page's short names and the service's own.
    for (name, _) in BUILT_IN {
        let said = open(name).doc.recorded.as_ref().unwrap().about.clone();
        assert!(!said.contains("Its nodes"), "{name}: {said}");
    }
    // A Jepsen history's processes are the clients, in the order the history names them.
    let history = "{:type :invoke, :f :acquire, :process 3, :time 0}\n\
                   {:type :ok, :f :acquire, :process 3, :time 1000000, :value 1}\n\
                   {:type :invoke, :f :acquire, :process 5, :time 2000000}\n\
                   {:type :fail, :f :acquire, :process 5, :time 3000000}\n";
    let said = about(history.to_string());
    assert!(
        said.contains("Its nodes: “process 3” is client 1, “process 5” is client 2."),
        "{said}"
    );
}
