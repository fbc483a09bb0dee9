//! The scenario picker: every preset of the course (`presets::PICKER`, in every build),
//! the one on screen selected, or what to call a run
//! that is none of them (a lesson, an edited run, a scenario of its own).

use super::*;
use crate::teach::presets::PICKER;

impl Session {
    /// What the scenario picker lists and which entry it shows.
    /// The scenario picker. While a question waits for its answer, the run on screen is
    /// listed under neutral words: its summary or lesson title would give the answer away
    /// ("…writes late (token 33 vs 34)", "The TTL does not cover the work").
    pub fn picker(&self) -> Picker {
        let name = self.doc.name.as_deref();
        let hides = self.hides_answer();
        // An edited preset is no longer the preset: picking it again opens the original.
        let edited = self.doc.history.edited();
        let options: Vec<_> = PICKER
            .iter()
            .map(|&(p, summary)| {
                let selected = Some(p) == name && !edited;
                let summary = if selected && hides {
                    narrate::QUESTION_RUN
                } else {
                    summary
                };
                (p, summary, selected)
            })
            .collect();
        let other = (!options.iter().any(|o| o.2)).then(|| {
            if hides {
                return narrate::QUESTION_RUN.to_string();
            }
            let kind = match (edited, name) {
                (true, _) => "Edited",
                (false, Some(_)) => "Lesson",
                (false, None) => "Custom",
            };
            format!("{kind}: {}", self.doc.run.scenario.name)
        });
        Picker { options, other }
    }
}
