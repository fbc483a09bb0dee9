//! Validation: every limit and every cross-reference, with the field path in the error.
//!
//! Limits exist so that no input — a URL fragment, an imported file, a fuzzer's garbage —
//! can make a run unbounded: each one is documented in `docs/scenario-format.md`.

use super::{ClientSpec, ClockSpec, Fault, FaultKind, LinkSpec, Scenario, Step, FORMAT_VERSION};
use crate::vocab::ids::{NodeId, MAX_CLIENTS};
use std::fmt;

/// The documented bounds on a scenario.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_json_bytes: usize,
    pub max_clients: u8,
    pub max_steps: usize,
    pub max_faults: usize,
    pub max_links: usize,
    pub max_horizon_ms: i64,
    pub max_events: u32,
    pub max_drift_ppm: i64,
    pub max_offset_ms: i64,
    pub max_text: usize,
    pub max_token: u64,
    /// An authored walkthrough's beats, and the bytes of one beat's text.
    pub max_beats: usize,
    pub max_beat_text: usize,
    /// An author's questions, the choices one question offers (at least two), and the bytes
    /// of a choice's words (a prompt or an explanation may be as long as a beat).
    pub max_questions: usize,
    pub max_choices: usize,
    pub max_choice_text: usize,
}

pub const LIMITS: Limits = Limits {
    max_json_bytes: 256 * 1024,
    max_clients: MAX_CLIENTS,
    max_steps: 64,
    max_faults: 256,
    max_links: 64,
    max_horizon_ms: 86_400_000,
    max_events: 1_000_000,
    max_drift_ppm: 500_000,
    max_offset_ms: 86_400_000,
    max_text: 64,
    // Tokens stay exact in JavaScript numbers.
    max_token: 1 << 53,
    max_beats: 32,
    max_beat_text: 600,
    max_questions: 8,
    max_choices: 4,
    max_choice_text: 200,
};

/// A refused scenario: the field path and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    pub path: String,
    pub message: String,
}

impl ScenarioError {
    pub fn new(path: &str, message: impl Into<String>) -> ScenarioError {
        ScenarioError {
            path: path.to_string(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

type R = Result<(), ScenarioError>;

fn range(path: &str, v: i64, lo: i64, hi: i64) -> R {
    if v < lo || v > hi {
        Err(ScenarioError::new(
            path,
            format!("{v} is outside {lo}..={hi}"),
        ))
    } else {
        Ok(())
    }
}

fn text(path: &str, s: &str) -> R {
    if s.len() > LIMITS.max_text {
        Err(ScenarioError::new(
            path,
            format!("longer than {} bytes", LIMITS.max_text),
        ))
    } else {
        Ok(())
    }
}

/// An author's words at `path`: something to say (unless `may_be_empty`), at most `limit`
/// bytes.
fn words(path: &str, text: &str, limit: usize, may_be_empty: bool) -> R {
    if !may_be_empty && text.trim().is_empty() {
        return Err(ScenarioError::new(path, "empty: write what it says"));
    }
    if text.len() > limit {
        return Err(ScenarioError::new(
            path,
            format!("longer than {limit} bytes"),
        ));
    }
    Ok(())
}

impl Scenario {
    /// `storage.resources`: each named, each with at least one key, no name twice and no
    /// key in two resources (a write must be judged against one resource).
    fn validate_resources(&self) -> R {
        let rs = &self.storage.resources;
        for (i, r) in rs.iter().enumerate() {
            let p = format!("storage.resources[{i}]");
            if r.name.trim().is_empty() {
                return Err(ScenarioError::new(
                    &format!("{p}.name"),
                    "empty: name the resource",
                ));
            }
            text(&format!("{p}.name"), &r.name)?;
            if rs[..i].iter().any(|o| o.name == r.name) {
                return Err(ScenarioError::new(
                    &format!("{p}.name"),
                    format!("\"{}\" is already the name of another resource", r.name),
                ));
            }
            if r.keys.is_empty() {
                return Err(ScenarioError::new(
                    &format!("{p}.keys"),
                    "empty: list the resource's keys",
                ));
            }
            for (j, k) in r.keys.iter().enumerate() {
                let kp = format!("{p}.keys[{j}]");
                text(&kp, k)?;
                let twice = r.keys[..j].contains(k) || rs[..i].iter().any(|o| o.keys.contains(k));
                if twice {
                    return Err(ScenarioError::new(
                        &kp,
                        format!("\"{k}\" is already a key of a resource"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Checks every field against the limits and every node reference against the nodes
    /// that exist. The first problem found is returned.
    /// An authored walkthrough: its beats in order of time, each inside the run and with
    /// something to say, none longer than a caption can hold.
    fn validate_walkthrough(&self) -> R {
        if self.walkthrough.len() > LIMITS.max_beats {
            return Err(ScenarioError::new(
                "walkthrough",
                format!(
                    "{} beats; the limit is {}",
                    self.walkthrough.len(),
                    LIMITS.max_beats
                ),
            ));
        }
        let mut last = 0;
        for (i, b) in self.walkthrough.iter().enumerate() {
            let at = |field: &str| format!("walkthrough[{i}].{field}");
            if b.at_ms > self.horizon_ms {
                return Err(ScenarioError::new(&at("at_ms"), "later than the horizon"));
            }
            range(&at("at_ms"), b.at_ms, 0, self.horizon_ms)?;
            if b.at_ms < last {
                return Err(ScenarioError::new(
                    &at("at_ms"),
                    format!("earlier than the beat before it ({last} ms): beats are told in order"),
                ));
            }
            last = b.at_ms;
            if let Some(n) = b.highlight {
                self.node(&at("highlight"), n)?;
            }
            if b.text.trim().is_empty() {
                return Err(ScenarioError::new(
                    &at("text"),
                    "empty: a beat says something",
                ));
            }
            if b.text.len() > LIMITS.max_beat_text {
                return Err(ScenarioError::new(
                    &at("text"),
                    format!("longer than {} bytes", LIMITS.max_beat_text),
                ));
            }
        }
        Ok(())
    }

    /// An author's questions: each inside the run, in order of time, with words to ask and
    /// two to four choices, no two meaning the same outcome (one of them would always be
    /// right with the other).
    fn validate_questions(&self) -> R {
        if self.questions.len() > LIMITS.max_questions {
            return Err(ScenarioError::new(
                "questions",
                format!(
                    "{} questions; the limit is {}",
                    self.questions.len(),
                    LIMITS.max_questions
                ),
            ));
        }
        let mut last = 0;
        for (i, q) in self.questions.iter().enumerate() {
            let at = |field: &str| format!("questions[{i}].{field}");
            if q.at_ms > self.horizon_ms {
                return Err(ScenarioError::new(&at("at_ms"), "later than the horizon"));
            }
            range(&at("at_ms"), q.at_ms, 0, self.horizon_ms)?;
            if q.at_ms < last {
                return Err(ScenarioError::new(
                    &at("at_ms"),
                    format!(
                        "earlier than the question before it ({last} ms): questions are asked in order"
                    ),
                ));
            }
            last = q.at_ms;
            words(&at("prompt"), &q.prompt, LIMITS.max_beat_text, false)?;
            words(&at("explain"), &q.explain, LIMITS.max_beat_text, true)?;
            if q.choices.len() < 2 || q.choices.len() > LIMITS.max_choices {
                return Err(ScenarioError::new(
                    &at("choices"),
                    format!(
                        "{} choices; a question offers 2 to {}",
                        q.choices.len(),
                        LIMITS.max_choices
                    ),
                ));
            }
            for (j, c) in q.choices.iter().enumerate() {
                words(
                    &at(&format!("choices[{j}].text")),
                    &c.text,
                    LIMITS.max_choice_text,
                    false,
                )?;
                if q.choices[..j].iter().any(|o| o.outcome == c.outcome) {
                    return Err(ScenarioError::new(
                        &at(&format!("choices[{j}].outcome")),
                        format!(
                            "\"{}\" is an earlier choice's outcome too: each choice names its own",
                            c.outcome.name()
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    pub fn validate(&self) -> R {
        if self.version != FORMAT_VERSION {
            return Err(ScenarioError::new(
                "version",
                format!(
                    "{} is not supported (this build reads version {FORMAT_VERSION})",
                    self.version
                ),
            ));
        }
        if self.name.len() > 120 {
            return Err(ScenarioError::new("name", "longer than 120 bytes"));
        }
        if self.description.len() > 4_000 {
            return Err(ScenarioError::new("description", "longer than 4000 bytes"));
        }
        range("horizon_ms", self.horizon_ms, 1, LIMITS.max_horizon_ms)?;
        self.validate_walkthrough()?;
        self.validate_questions()?;
        range(
            "max_events",
            i64::from(self.max_events),
            1,
            i64::from(LIMITS.max_events),
        )?;
        if self.clients.is_empty() {
            return Err(ScenarioError::new(
                "clients",
                "at least one client is needed",
            ));
        }
        if self.clients.len() > usize::from(LIMITS.max_clients) {
            return Err(ScenarioError::new(
                "clients",
                format!(
                    "{} clients; the limit is {}",
                    self.clients.len(),
                    LIMITS.max_clients
                ),
            ));
        }
        let c = &self.coordinator;
        if c.first_token == 0 || c.first_token > LIMITS.max_token {
            return Err(ScenarioError::new(
                "coordinator.first_token",
                format!("must be in 1..={}", LIMITS.max_token),
            ));
        }
        clock("coordinator.clock", &c.clock)?;
        if c.clocks.len() > usize::from(c.flavor.nodes()) {
            return Err(ScenarioError::new(
                "coordinator.clocks",
                format!(
                    "{} clocks for {} coordinator node(s) of flavor {}",
                    c.clocks.len(),
                    c.flavor.nodes(),
                    c.flavor.name()
                ),
            ));
        }
        for (i, k) in c.clocks.iter().enumerate() {
            clock(&format!("coordinator.clocks[{i}]"), k)?;
        }
        if let Some(d) = c.lock_delay_ms {
            range("coordinator.lock_delay_ms", d, 0, 60_000)?;
        }
        range("coordinator.grace_ms", c.grace_ms, 0, LIMITS.max_horizon_ms)?;
        range("coordinator.tick_ms", c.tick_ms, 0, 60_000)?;
        range(
            "coordinator.replica_lag_ms",
            c.replica_lag_ms,
            0,
            LIMITS.max_horizon_ms,
        )?;
        range(
            "coordinator.restart_delay_ms",
            c.restart_delay_ms,
            0,
            LIMITS.max_horizon_ms,
        )?;
        clock("storage.clock", &self.storage.clock)?;
        range(
            "storage.check_gap_ms",
            self.storage.check_gap_ms,
            0,
            self.horizon_ms,
        )?;
        for (i, k) in self.storage.unfenced_keys.iter().enumerate() {
            text(&format!("storage.unfenced_keys[{i}]"), k)?;
        }
        self.validate_resources()?;
        link("network.default", &self.network.default)?;
        if self.network.links.len() > LIMITS.max_links {
            return Err(ScenarioError::new("network.links", "too many links"));
        }
        for (i, l) in self.network.links.iter().enumerate() {
            let p = format!("network.links[{i}]");
            self.node(&format!("{p}.from"), l.from)?;
            self.node(&format!("{p}.to"), l.to)?;
            if l.from == l.to {
                return Err(ScenarioError::new(
                    &format!("{p}.to"),
                    "a link joins two different nodes",
                ));
            }
            link(
                &p,
                &LinkSpec {
                    min_delay_ms: l.min_delay_ms,
                    max_delay_ms: l.max_delay_ms,
                    loss_pct: l.loss_pct,
                },
            )?;
        }
        for (i, cl) in self.clients.iter().enumerate() {
            self.client(&format!("clients[{i}]"), cl)?;
        }
        if self.faults.len() > LIMITS.max_faults {
            return Err(ScenarioError::new(
                "faults",
                format!(
                    "{} faults; the limit is {}",
                    self.faults.len(),
                    LIMITS.max_faults
                ),
            ));
        }
        for (i, f) in self.faults.iter().enumerate() {
            self.fault(&format!("faults[{i}]"), f)?;
        }
        Ok(())
    }

    fn node(&self, path: &str, n: NodeId) -> R {
        let ok = match n {
            NodeId::Client(i) => usize::from(i) < self.clients.len(),
            NodeId::Coord(i) => i < self.coordinator.flavor.nodes(),
            NodeId::Storage => true,
        };
        if ok {
            Ok(())
        } else {
            Err(ScenarioError::new(
                path,
                format!("no node `{n}` in this scenario"),
            ))
        }
    }

    fn client(&self, p: &str, c: &ClientSpec) -> R {
        let h = self.horizon_ms;
        range(&format!("{p}.start_ms"), c.start_ms, 0, h)?;
        clock(&format!("{p}.clock"), &c.clock)?;
        range(&format!("{p}.ttl_ms"), c.ttl_ms, 1, LIMITS.max_horizon_ms)?;
        range(&format!("{p}.margin_ms"), c.margin_ms, 0, c.ttl_ms - 1)?;
        let flavor = self.coordinator.flavor;
        if c.ttl_ms < flavor.model().min_ttl_ms {
            return Err(ScenarioError::new(
                &format!("{p}.ttl_ms"),
                format!(
                    "{} runs no lease shorter than {} ms",
                    flavor.name(),
                    flavor.model().min_ttl_ms
                ),
            ));
        }
        if let Some(r) = c.renew_every_ms {
            if flavor.nodes() > 1 {
                return Err(ScenarioError::new(
                    &format!("{p}.renew_every_ms"),
                    "Redlock extension is not modelled: leave the watchdog off",
                ));
            }
            range(&format!("{p}.renew_every_ms"), r, 1, LIMITS.max_horizon_ms)?;
        }
        range(
            &format!("{p}.retry.interval_ms"),
            c.retry.interval_ms,
            1,
            LIMITS.max_horizon_ms,
        )?;
        range(
            &format!("{p}.retry.jitter_ms"),
            c.retry.jitter_ms,
            0,
            LIMITS.max_horizon_ms,
        )?;
        range(
            &format!("{p}.retry.max_attempts"),
            i64::from(c.retry.max_attempts),
            0,
            1_000,
        )?;
        range(
            &format!("{p}.timeout_ms"),
            c.timeout_ms,
            1,
            LIMITS.max_horizon_ms,
        )?;
        if c.job.is_empty() {
            return Err(ScenarioError::new(
                &format!("{p}.job"),
                "a job needs at least one step",
            ));
        }
        if c.job.len() > LIMITS.max_steps {
            return Err(ScenarioError::new(
                &format!("{p}.job"),
                format!("{} steps; the limit is {}", c.job.len(), LIMITS.max_steps),
            ));
        }
        for (j, s) in c.job.iter().enumerate() {
            let sp = format!("{p}.job[{j}]");
            match s {
                Step::Work { ms } => range(&format!("{sp}.ms"), *ms, 0, LIMITS.max_horizon_ms)?,
                Step::Write { key, value } => {
                    text(&format!("{sp}.key"), key)?;
                    text(&format!("{sp}.value"), value)?;
                }
                Step::Effect {
                    name,
                    idempotency_key,
                } => {
                    text(&format!("{sp}.name"), name)?;
                    if let Some(k) = idempotency_key {
                        text(&format!("{sp}.idempotency_key"), k)?;
                    }
                }
                // As with the watchdog (`renew_every_ms`): the model does not extend a
                // Redlock lease, so a job may not ask it to.
                Step::Renew if self.coordinator.flavor.nodes() > 1 => {
                    return Err(ScenarioError::new(
                        &format!("{sp}.op"),
                        "Redlock extension is not modelled: a job cannot renew its lease",
                    ));
                }
                Step::Read { key } => text(&format!("{sp}.key"), key)?,
                Step::Update { key, value, .. } => {
                    text(&format!("{sp}.key"), key)?;
                    text(&format!("{sp}.value"), value)?;
                    // An update writes back what a read returned: without one there is
                    // nothing to add to, and no version to compare.
                    let read = c.job[..j]
                        .iter()
                        .any(|s| matches!(s, Step::Read { key: k } if k == key));
                    if !read {
                        return Err(ScenarioError::new(
                            &format!("{sp}.key"),
                            format!("no earlier read step of \"{key}\" in this job"),
                        ));
                    }
                }
                Step::Acquire | Step::Check | Step::Release | Step::Renew => {}
            }
        }
        Ok(())
    }

    fn fault(&self, p: &str, f: &Fault) -> R {
        let h = self.horizon_ms;
        if f.at_ms < 0 {
            return Err(ScenarioError::new(
                &format!("{p}.at_ms"),
                "before the start of the run",
            ));
        }
        if f.at_ms > h {
            return Err(ScenarioError::new(
                &format!("{p}.at_ms"),
                "later than the horizon",
            ));
        }
        if let Some(a) = f.after {
            match a.client {
                NodeId::Client(_) => self.node(&format!("{p}.client"), a.client)?,
                _ => {
                    return Err(ScenarioError::new(
                        &format!("{p}.client"),
                        "a fault follows what a client does: name a client",
                    ))
                }
            }
            range(&format!("{p}.nth"), i64::from(a.nth), 1, 1_000)?;
        }
        match &f.kind {
            FaultKind::Pause { node, for_ms, .. } => {
                self.node(&format!("{p}.node"), *node)?;
                range(&format!("{p}.for_ms"), *for_ms, 1, LIMITS.max_horizon_ms)
            }
            FaultKind::Partition { a, b } | FaultKind::Heal { a, b } => {
                self.node(&format!("{p}.a"), *a)?;
                self.node(&format!("{p}.b"), *b)?;
                if a == b {
                    return Err(ScenarioError::new(
                        &format!("{p}.b"),
                        "a link joins two different nodes",
                    ));
                }
                Ok(())
            }
            FaultKind::Delay { from, to, extra_ms } => {
                self.node(&format!("{p}.from"), *from)?;
                self.node(&format!("{p}.to"), *to)?;
                range(
                    &format!("{p}.extra_ms"),
                    *extra_ms,
                    0,
                    LIMITS.max_horizon_ms,
                )
            }
            FaultKind::ClockJump { node, by_ms } => {
                self.node(&format!("{p}.node"), *node)?;
                range(
                    &format!("{p}.by_ms"),
                    *by_ms,
                    -LIMITS.max_offset_ms,
                    LIMITS.max_offset_ms,
                )
            }
            FaultKind::Restart { node, down_ms } => {
                if node.is_client() {
                    return Err(ScenarioError::new(
                        &format!("{p}.node"),
                        "only coord or storage can be restarted (pause a client instead)",
                    ));
                }
                self.node(&format!("{p}.node"), *node)?;
                range(&format!("{p}.down_ms"), *down_ms, 0, LIMITS.max_horizon_ms)
            }
            FaultKind::FailRenewals { for_ms } => {
                range(&format!("{p}.for_ms"), *for_ms, 1, LIMITS.max_horizon_ms)
            }
            FaultKind::Failover { node, down_ms } => {
                if !matches!(node, NodeId::Coord(_)) {
                    return Err(ScenarioError::new(
                        &format!("{p}.node"),
                        "only a coordinator node fails over",
                    ));
                }
                self.node(&format!("{p}.node"), *node)?;
                range(&format!("{p}.down_ms"), *down_ms, 0, LIMITS.max_horizon_ms)
            }
            FaultKind::FalsePositive { node } => {
                if !node.is_client() {
                    return Err(ScenarioError::new(
                        &format!("{p}.node"),
                        "a false positive declares a client's session dead",
                    ));
                }
                self.node(&format!("{p}.node"), *node)
            }
        }
    }
}

fn clock(p: &str, c: &ClockSpec) -> R {
    range(
        &format!("{p}.offset_ms"),
        c.offset_ms,
        -LIMITS.max_offset_ms,
        LIMITS.max_offset_ms,
    )?;
    range(
        &format!("{p}.drift_ppm"),
        c.drift_ppm,
        -LIMITS.max_drift_ppm,
        LIMITS.max_drift_ppm,
    )
}

fn link(p: &str, l: &LinkSpec) -> R {
    range(&format!("{p}.min_delay_ms"), l.min_delay_ms, 0, 3_600_000)?;
    range(
        &format!("{p}.max_delay_ms"),
        l.max_delay_ms,
        l.min_delay_ms,
        3_600_000,
    )?;
    range(&format!("{p}.loss_pct"), i64::from(l.loss_pct), 0, 100)
}
