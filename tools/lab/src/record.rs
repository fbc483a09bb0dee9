//! What each lab process writes: one line per event, to its own file, in the recorded-trace
//! format (docs/trace-format.md): `t_us` is the lab's true time (the host's monotonic clock
//! since the lab's start), `node`, `event` and the event's own fields. The runner merges the
//! files under one header (`merge`).
//!
//! The lab's processes all read the one clock and apply no offset, so each node's own
//! reading equals the true time and `local_us` is left out (the format's "absent: equal").

use crate::clock::Epoch;
use serde_json::{Map, Value};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::{Arc, Mutex};

/// A node's recorder; cloned freely between its threads.
#[derive(Clone)]
pub struct Recorder {
    node: String,
    epoch: Epoch,
    out: Arc<Mutex<BufWriter<File>>>,
}

impl Recorder {
    pub fn create(path: &str, node: &str, epoch: Epoch) -> Result<Recorder, String> {
        let f = File::create(path).map_err(|e| format!("{path}: {e}"))?;
        Ok(Recorder {
            node: node.to_string(),
            epoch,
            out: Arc::new(Mutex::new(BufWriter::new(f))),
        })
    }

    /// Records `event` now, with `fields`; returns the time stamped (ns).
    pub fn note(&self, event: &str, fields: Value) -> i64 {
        self.note_for(&self.node.clone(), event, fields)
    }

    /// Records an event of another node (the runner notes pauses and cuts on the node they
    /// happen to).
    pub fn note_for(&self, node: &str, event: &str, fields: Value) -> i64 {
        let mut out = self.out.lock().unwrap();
        // The stamp is taken under the lock so one file's lines are in time order.
        let t = self.epoch.now();
        let mut m = Map::new();
        m.insert("t_us".into(), (t.max(0) / 1000).into());
        m.insert("node".into(), node.into());
        m.insert("event".into(), event.into());
        if let Value::Object(f) = fields {
            m.extend(f);
        }
        let _ = writeln!(out, "{}", Value::Object(m));
        let _ = out.flush();
        t
    }
}
