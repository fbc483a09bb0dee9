//! The editor's fields as a person reads them: a plain label and a unit for every field
//! path of docs/scenario-format.md, the words a choice field takes, and an error from the
//! validator (`clients[0].ttl_ms: 0 is outside 1..=86400000`) said at its field, in that
//! field's unit, in plain words ("TTL must be between 0.001 s and 86,400 s").
//!
//! One unit convention for the editor and the settings panel: **times in seconds**, with up
//! to three decimals (a millisecond), since the lessons speak of leases and pauses of
//! seconds; drift in ppm, loss in percent. The document itself stays in integer
//! milliseconds; [`parse_secs`] and [`secs_text`] cross between the two without floats.

use crate::model::scenario::{
    AnchorEvent, FenceMode, Flavor, Kind, Outcome, PauseCause, ScenarioError,
};
use crate::vocab::numbers::decimal;

/// What a field's number (or text) means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Milliseconds in the document, seconds on screen.
    Seconds,
    Ppm,
    Percent,
    /// A plain whole number (a seed, a token, a count).
    Count,
    /// Text, a choice or a switch: no unit.
    None,
}

impl Unit {
    /// The unit as a label's suffix: "TTL (s)".
    pub fn suffix(self) -> &'static str {
        match self {
            Unit::Seconds => " (s)",
            Unit::Ppm => " (ppm)",
            Unit::Percent => " (%)",
            Unit::Count | Unit::None => "",
        }
    }

    /// A value of this unit as a reader reads it: 86400000 ms → "86,400 s".
    pub fn show(self, v: i64) -> String {
        match self {
            Unit::Seconds => secs_text(v),
            Unit::Ppm => format!("{} ppm", group(&v.to_string())),
            Unit::Percent => format!("{v} %"),
            Unit::Count | Unit::None => group(&v.to_string()),
        }
    }
}

/// The last key of a field path: `clients[0].retry.interval_ms` → `interval_ms`.
pub fn key(path: &str) -> &str {
    let last = path.rsplit('.').next().unwrap_or(path);
    last.split('[').next().unwrap_or(last)
}

/// The label of a key the table below does not name: a field no form shows, or a whole
/// list ("clients").
const UNNAMED: &str = "This field";

/// A field's plain label and unit, by its key.
pub fn field(path: &str) -> (&'static str, Unit) {
    use Unit::*;
    match key(path) {
        "seed" => ("Seed", Count),
        "horizon_ms" => ("Run length", Seconds),
        "first_token" => ("First token", Count),
        "counter" => ("Token counter", None),
        "flavor" => ("Lock service", None),
        "fence" => ("Fence at storage", None),
        "mark" => ("Fence mark", None),
        "idempotency" => ("Honour idempotency keys", None),
        "check_gap_ms" => ("Gap between check and write", Seconds),
        "min_delay_ms" => ("Shortest delay", Seconds),
        "max_delay_ms" => ("Longest delay", Seconds),
        "loss_pct" => ("Messages lost", Percent),
        "offset_ms" => ("Clock offset", Seconds),
        "drift_ppm" => ("Clock drift", Ppm),
        "start_ms" => ("Starts at", Seconds),
        "ttl_ms" => ("TTL", Seconds),
        "margin_ms" => ("Safety margin", Seconds),
        "renew_every_ms" => ("Renew every", Seconds),
        "count_from" => ("Count the lease from", None),
        "on_loss" => ("On losing the lease", None),
        "check_before_write" => ("Check the lease before each write", None),
        "fence_with" => ("Writes carry", None),
        "interval_ms" => ("Retry every", Seconds),
        "jitter_ms" => ("Random extra wait", Seconds),
        "max_attempts" => ("Attempts before giving up", Count),
        "timeout_ms" => ("Reply timeout", Seconds),
        "unreachable" => ("If the lock service is unreachable", None),
        "at_ms" => ("At", Seconds),
        "after" => ("When", None),
        "client" => ("Whose", None),
        "nth" => ("Which time", Count),
        "for_ms" => ("Lasting", Seconds),
        "cause" => ("What froze it", None),
        "by_ms" => ("Jump by", Seconds),
        "down_ms" => ("Down for", Seconds),
        "extra_ms" => ("Extra delay", Seconds),
        "ms" => ("Work for", Seconds),
        "node" => ("Node", None),
        "a" => ("One end", None),
        "b" => ("Other end", None),
        "from" => ("From", None),
        "to" => ("To", None),
        "key" => ("Key", None),
        "value" => ("Value", None),
        "idempotency_key" => ("Idempotency key", None),
        "name" => ("Name", None),
        "fault" => ("Fault", None),
        "op" => ("Step", None),
        "job" => ("Job steps", None),
        "faults" => ("Faults", None),
        "walkthrough" => ("Walkthrough", None),
        // A question's choice is the answer as the learner reads it.
        "text" if path.contains(".choices[") => ("Choice", None),
        "text" => ("What it says", None),
        "highlight" => ("Highlight the lane of", None),
        "questions" => ("Questions", None),
        "prompt" => ("The question", None),
        "choices" => ("Choices", None),
        "outcome" => ("Right if the run next shows", None),
        "explain" => ("Told after the answer", None),
        "links" => ("Links", None),
        _ => (UNNAMED, None),
    }
}

/// The label a form shows: the plain words and the unit, "TTL (s)"; a server's clock
/// says whose it is ("Storage clock offset (s)").
pub fn label(path: &str) -> String {
    let (l, u) = field(path);
    let whose = if path.starts_with("coordinator.clock.") {
        "Lock service "
    } else if path.starts_with("storage.clock.") {
        "Storage "
    } else {
        return format!("{l}{}", u.suffix());
    };
    format!("{whose}{}{}", l.to_ascii_lowercase(), u.suffix())
}

/// The words a choice field takes and their labels; the first is the field's default (what
/// an absent word means). Node fields are the draft's (they depend on the scenario).
pub fn words(path: &str) -> Vec<(&'static str, &'static str)> {
    match key(path) {
        "fence" => FenceMode::ALL
            .iter()
            .map(|f| (f.name(), f.label()))
            .collect(),
        "flavor" => Flavor::ALL.iter().map(|f| (f.name(), f.name())).collect(),
        "count_from" => vec![
            ("request", "when it asked (safe)"),
            ("grant", "when the grant arrived"),
        ],
        "on_loss" => vec![
            ("abort", "stop the job"),
            ("continue", "log it and carry on"),
            ("reacquire", "take the lock again"),
        ],
        "fence_with" => vec![
            ("token", "the grant's token"),
            ("owner_id", "its random owner id"),
        ],
        "unreachable" => vec![
            ("closed", "stop (fail closed)"),
            ("open", "go on without it (fail open)"),
        ],
        "mark" => vec![
            ("durable", "survives a restart"),
            ("memory", "lost on a restart"),
        ],
        "counter" => vec![
            ("durable", "survives a restart"),
            ("memory", "resets on a restart"),
        ],
        "cause" => PauseCause::ALL
            .iter()
            .map(|c| (c.name(), c.label()))
            .collect(),
        "fault" => FAULTS.iter().map(|f| (f.word, f.label)).collect(),
        "after" => std::iter::once(("", "at a time in the run"))
            .chain(AnchorEvent::WORDS.iter().map(|&(w, e)| (w, e.label())))
            .collect(),
        "op" => STEPS.iter().map(|s| (s.word, s.label)).collect(),
        "outcome" => Outcome::ALL.iter().map(|o| (o.name(), o.label())).collect(),
        _ => Vec::new(),
    }
}

/// Which nodes a fault's node field may name, and a new field's starting value: declared
/// with the fault kinds (`model::scenario::kind`), used by the steps' forms too.
pub use crate::model::scenario::{KindSpec, Nodes, Start};

/// Every fault kind the form offers, in the select's order: each kind's row of the one
/// table (its word, its label, its nodes and its fields with their starting values).
pub const FAULTS: [&KindSpec; Kind::ALL.len()] = {
    let mut all = [Kind::ALL[0].spec(); Kind::ALL.len()];
    let mut i = 0;
    while i < all.len() {
        all[i] = Kind::ALL[i].spec();
        i += 1;
    }
    all
};

/// One kind of job step, as a fault kind's [`KindSpec`] is for faults.
pub struct StepForm {
    pub word: &'static str,
    pub label: &'static str,
    pub fields: &'static [(&'static str, Start)],
}

pub const STEPS: &[StepForm] = &[
    StepForm {
        word: "acquire",
        label: "Acquire the lock",
        fields: &[],
    },
    StepForm {
        word: "work",
        label: "Work",
        fields: &[("ms", Start::Ms(1_000))],
    },
    StepForm {
        word: "check",
        label: "Check the lease",
        fields: &[],
    },
    StepForm {
        word: "write",
        label: "Write to storage",
        fields: &[("key", Start::Text("k")), ("value", Start::Text("v"))],
    },
    StepForm {
        word: "effect",
        label: "Side effect (email, API call)",
        fields: &[("name", Start::Text("send email"))],
    },
    StepForm {
        word: "release",
        label: "Release the lock",
        fields: &[],
    },
    StepForm {
        word: "renew",
        label: "Renew the lease (from the job)",
        fields: &[],
    },
];

pub fn fault_form(word: &str) -> Option<&'static KindSpec> {
    Kind::parse(word).map(Kind::spec)
}

pub fn step_form(word: &str) -> Option<&'static StepForm> {
    STEPS.iter().find(|s| s.word == word)
}

/// The fields a step row shows: the kind's own, and an effect's optional idempotency key.
pub fn step_fields(word: &str) -> Vec<&'static str> {
    let mut v: Vec<&str> =
        step_form(word).map_or_else(Vec::new, |s| s.fields.iter().map(|f| f.0).collect());
    if word == "effect" {
        v.push("idempotency_key");
    }
    v
}

/// Groups an integer's digits by thousands: "86400" → "86,400" (a sign and a fraction are
/// kept as they are).
pub fn group(s: &str) -> String {
    let (sign, rest) = s.strip_prefix('-').map_or(("", s), |r| ("-", r));
    let (int, frac) = rest
        .split_once('.')
        .map_or((rest, None), |(i, f)| (i, Some(f)));
    let mut out = String::new();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    match frac {
        Some(f) => format!("{sign}{out}.{f}"),
        None => format!("{sign}{out}"),
    }
}

/// Milliseconds as a reader's seconds: 1 → "0.001 s", 86400000 → "86,400 s".
pub fn secs_text(ms: i64) -> String {
    format!("{} s", group(&decimal(ms, 3)))
}

/// Milliseconds as a box shows them in seconds: 30000 → "30", 2500 → "2.5".
pub fn secs_box(ms: i64) -> String {
    decimal(ms, 3)
}

/// Seconds as typed ("30", "2.5", "-0.25", ".5") into milliseconds; `None` if it is not
/// such a number or is finer than a millisecond.
pub fn parse_secs(typed: &str) -> Option<i64> {
    crate::vocab::numbers::parse_units(typed.trim(), 3)
}

/// Why typed text is not a value of `path`'s field, in plain words.
pub fn unreadable(path: &str, typed: &str) -> String {
    let (l, unit) = field(path);
    if typed.trim().is_empty() {
        return format!("{l} is needed");
    }
    match unit {
        Unit::Seconds
            if typed
                .split_once('.')
                .is_some_and(|(_, f)| f.trim().len() > 3) =>
        {
            format!("{l} can be given to the millisecond (three decimals) at most")
        }
        Unit::Seconds => format!("{l} must be a number of seconds, such as 30 or 2.5"),
        _ => format!("{l} must be a whole number"),
    }
}

/// Where a field is, for a message that is not shown next to it: "Client 1", "Fault 2",
/// "Client 1, step 3", "Link 1", "Storage".
pub fn place(path: &str) -> String {
    let idx = |after: &str| -> Option<usize> {
        let rest = path.split(after).nth(1)?;
        rest.split(']').next()?.parse().ok()
    };
    let top = path.split(['.', '[']).next().unwrap_or("");
    match top {
        "clients" => match (idx("clients["), idx("job[")) {
            (Some(c), Some(s)) => format!("Client {}, step {}", c + 1, s + 1),
            (Some(c), None) => format!("Client {}", c + 1),
            _ => "Clients".into(),
        },
        "faults" => idx("faults[").map_or("Faults".into(), |f| format!("Fault {}", f + 1)),
        "network" => idx("links[").map_or("Network".into(), |l| format!("Link {}", l + 1)),
        "storage" => "Storage".into(),
        "coordinator" => "Lock service".into(),
        _ => String::new(),
    }
}

/// A validator's message about `path`, said in plain words and the field's unit.
pub fn plain(path: &str, message: &str) -> String {
    let (l, unit) = field(path);
    // "0 is outside 1..=86400000", "must be in 1..=9007199254740992"
    let bounds = message
        .split_once(" is outside ")
        .map(|(_, r)| r)
        .or_else(|| message.strip_prefix("must be in "));
    if let Some((lo, hi)) = bounds.and_then(|r| r.split_once("..=")) {
        if let (Ok(lo), Ok(hi)) = (lo.parse::<i64>(), hi.parse::<i64>()) {
            if key(path) == "margin_ms" {
                return format!(
                    "{l} must be at least {} and less than the TTL ({})",
                    unit.show(lo),
                    unit.show(hi + 1)
                );
            }
            return format!(
                "{l} must be between {} and {}",
                unit.show(lo),
                unit.show(hi)
            );
        }
    }
    match message {
        "later than the horizon" => format!("{l} is after the run ends (its run length)"),
        "before the start of the run" => format!("{l} is before the run starts"),
        m if m.starts_with("longer than ") => {
            format!("{l} is too long ({})", m.trim_start_matches("longer than "))
        }
        // A message about a whole list ("at least one client is needed") names no field:
        // the place it is said with ("Clients: …") is its subject.
        m if l == UNNAMED => ms_to_secs(m),
        m => format!("{l}: {}", ms_to_secs(m)),
    }
}

/// Rewrites every "N ms" in a message as seconds ("at least 2000 ms" → "at least 2 s").
fn ms_to_secs(m: &str) -> String {
    let words: Vec<&str> = m.split(' ').collect();
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        match (words[i].parse::<i64>(), words.get(i + 1)) {
            (Ok(n), Some(&"ms")) => {
                out.push(secs_text(n));
                i += 2;
            }
            _ => {
                out.push(words[i].to_string());
                i += 1;
            }
        }
    }
    out.join(" ")
}

/// An error as the form shows it: at the field `path`, and with its place for the status
/// line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    /// Shown next to the field: "TTL must be between 0.001 s and 86,400 s".
    pub message: String,
}

impl Problem {
    /// A validator's error, in plain words at its field.
    pub fn of(e: &ScenarioError) -> Problem {
        Problem {
            path: e.path.clone(),
            message: if e.path.is_empty() {
                e.message.clone()
            } else {
                plain(&e.path, &e.message)
            },
        }
    }

    /// The message with where the field is, for the status line: "Client 1: TTL must …".
    pub fn whole(&self) -> String {
        match place(&self.path) {
            p if p.is_empty() => self.message.clone(),
            p => format!("{p}: {}", self.message),
        }
    }
}

/// An id for the element holding `path`'s message (for `aria-describedby`).
pub fn error_id(path: &str) -> String {
    let mut id = String::from("err-");
    for c in path.chars() {
        id.push(if c.is_ascii_alphanumeric() || c == '_' {
            c
        } else {
            '-'
        });
    }
    id
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The validator's internal message becomes plain words in the field's own unit.
    #[test]
    fn a_range_error_reads_in_the_fields_unit() {
        let e = ScenarioError::new("clients[0].ttl_ms", "0 is outside 1..=86400000");
        let p = Problem::of(&e);
        assert_eq!(p.message, "TTL must be between 0.001 s and 86,400 s");
        assert_eq!(
            p.whole(),
            "Client 1: TTL must be between 0.001 s and 86,400 s"
        );
        assert_eq!(
            plain(
                "clients[1].clock.drift_ppm",
                "600000 is outside -500000..=500000"
            ),
            "Clock drift must be between -500,000 ppm and 500,000 ppm"
        );
        assert_eq!(
            plain("network.links[0].loss_pct", "120 is outside 0..=100"),
            "Messages lost must be between 0 % and 100 %"
        );
        assert_eq!(
            plain("clients[0].margin_ms", "40000 is outside 0..=29999"),
            "Safety margin must be at least 0 s and less than the TTL (30 s)"
        );
        assert_eq!(
            plain("coordinator.first_token", "must be in 1..=9007199254740992"),
            "First token must be between 1 and 9,007,199,254,740,992"
        );
        assert_eq!(
            plain(
                "clients[0].ttl_ms",
                "etcd runs no lease shorter than 2000 ms"
            ),
            "TTL: etcd runs no lease shorter than 2 s"
        );
        assert_eq!(
            plain("faults[1].at_ms", "later than the horizon"),
            "At is after the run ends (its run length)"
        );
        // A whole list's message is said by its place alone, not "This field: …".
        assert_eq!(
            plain("clients", "at least one client is needed"),
            "at least one client is needed"
        );
        assert_eq!(place("clients"), "Clients");
        assert_eq!(place("clients[2].job[3].ms"), "Client 3, step 4");
        assert_eq!(place("faults[0].for_ms"), "Fault 1");
        assert_eq!(place("network.links[1].to"), "Link 2");
        assert_eq!(error_id("clients[0].ttl_ms"), "err-clients-0--ttl_ms");
    }

    #[test]
    fn seconds_cross_to_milliseconds_without_floats() {
        assert_eq!(parse_secs("30"), Some(30_000));
        assert_eq!(parse_secs("2.5"), Some(2_500));
        assert_eq!(parse_secs(".5"), Some(500));
        assert_eq!(parse_secs("2."), Some(2_000));
        assert_eq!(parse_secs("-0.25"), Some(-250));
        assert_eq!(parse_secs("0.001"), Some(1));
        assert_eq!(parse_secs("0.0001"), None);
        assert_eq!(parse_secs(""), None);
        assert_eq!(parse_secs("."), None);
        assert_eq!(parse_secs("1e3"), None);
        assert_eq!(parse_secs("99999999999999999999"), None);
        assert_eq!(secs_box(30_000), "30");
        assert_eq!(secs_text(86_400_000), "86,400 s");
        assert_eq!(secs_text(1), "0.001 s");
        assert_eq!(group("-1234567.5"), "-1,234,567.5");
        assert_eq!(label("clients[0].ttl_ms"), "TTL (s)");
        assert_eq!(label("network.default.loss_pct"), "Messages lost (%)");
        assert_eq!(label("storage.clock.offset_ms"), "Storage clock offset (s)");
        assert_eq!(
            unreadable("clients[0].ttl_ms", "abc"),
            "TTL must be a number of seconds, such as 30 or 2.5"
        );
        assert_eq!(unreadable("clients[0].ttl_ms", ""), "TTL is needed");
        assert_eq!(unreadable("seed", "x"), "Seed must be a whole number");
    }

    /// Every fault and step kind the form offers is one the format reads, with the fields
    /// the format expects (checked end to end in `draft`'s tests).
    #[test]
    fn every_offered_kind_has_a_label_and_known_fields() {
        for f in FAULTS {
            assert_eq!(fault_form(f.word).map(|x| x.word), Some(f.word));
            for (k, _) in f.fields {
                assert_ne!(field(k).0, UNNAMED, "{}.{k}", f.word);
            }
        }
        for s in STEPS {
            for k in step_fields(s.word) {
                assert_ne!(field(k).0, UNNAMED, "{}.{k}", s.word);
            }
        }
        assert_eq!(
            words("clients[0].on_loss")[0].0,
            "abort",
            "the default first"
        );
        assert_eq!(words("clients[0].unreachable")[0].0, "closed");
        // A pause without a cause is a GC pause: the select shows it first.
        let causes = words("faults[0].cause");
        assert_eq!(causes[0], ("gc", "GC pause"));
        assert_eq!(causes.len(), PauseCause::ALL.len());
        assert_eq!(label("faults[0].cause"), "What froze it");
    }
}
