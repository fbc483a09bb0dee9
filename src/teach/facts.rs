//! The numbers a walkthrough beat quotes, read from the run it annotates.
//!
//! A beat's text is a template: `"…gets the lock with token {token}."`. Each `{name}` is
//! a fact of the run, read at the entry the beat landed on — the token a grant carries,
//! the length of a pause, what a lease check found left, the coordinator's clock at that
//! moment. So when the reader edits the scenario (another first token, a longer pause, a
//! slower clock) the beat quotes the edited run, not the stock one.
//!
//! Some facts are claims that can stop being true: "the same number client 1 holds", "the
//! counter starts again", "ends 20 s early", "runs 20% slow". Their placeholders resolve
//! only while the claim holds; a template with any placeholder that does not resolve gives
//! `None`, and the walkthrough hides that beat (as it hides a beat whose event never comes).
//!
//! The names, and what each reads at entry `i`:
//!
//! | name | entry | value |
//! |---|---|---|
//! | `token` | a grant, an expiry, a write, a belief | the token it carries |
//! | `tied_token` | a grant | its token, only if another client still believes it holds the same one |
//! | `reset_token` | a coordinator restart that forgot its counter | the token of the next grant |
//! | `mark_before` | a write | storage's mark for the key just before it |
//! | `mark_down` | an accepted write | the mark after it, only if the write lowered it |
//! | `gap_ms` | an accepted write | ms since another client's write to the same key landed |
//! | `left_s`, `left_words` | a lease check | what the client's clock says is left |
//! | `gone_s` | a lease check | how much of its lease the client's clock says has passed |
//! | `drift` | a client's entry | "20% slow" / "5% fast" (none: a true clock) |
//! | `coord_clock_s` | any | the coordinator's clock reading at that moment |
//! | `pause_s` | a pause | its length |
//! | `if_cause_<word>` | a pause | nothing — it resolves only while the pause's cause is `<word>` (`if_cause_vm_migration`) |
//! | `jump` | a clock jump | "25 s forward" / "3 s back" |
//! | `early_s` | a lease expiry | how much sooner than its term it ended (none: on time) |
//! | `held_words` | an accepted write | how long the network held the writer's last held message |
//! | `retry_words` | a held message | how long before the client sent the same request again |
//! | `ttl_min` | a grant | the lease's term, in minutes |
//! | `work_min` | a grant | the granted client's total work, in minutes |
//! | `t_min`, `t_s` | any | the entry's true time, in minutes / seconds |
//! | `write_flight_s` | a client sending a write | how long until it arrives (none: it is lost) |
//! | `if_unfenced` | any | nothing — it resolves only while storage has no fence, for text that says "turn fencing on" |
//! | `if_no_idempotency` | any | nothing — it resolves only while the idempotency key is off |
//! | `if_health_checks` | any | nothing — it resolves only while sessions are tied to health checks (`coordinator.health_checks`) |
//! | `if_mark_per_key` | any | nothing — it resolves only while storage keeps a declared resource's fence mark per key |
//! | `c1_token`, `c2_token`, `c1_next` | any | client 1's / client 2's first token; client 1's plus one |
//! | `tail_runs`, `tail_unsafe`, `tail_pct`, `tail_p99_s` | any | the scenario under many seeds with drawn pauses ([`crate::teach::tail`]): runs, unsafe runs, their share in %, the pauses' p99 (run when a text is asked for: [`Facts::fits`] only checks there is a pause) |
//! | `c1_left_at_pause_s` | any | what was left of client 1's lease on the lock service when its first pause began |
//!
//! Seconds and minutes are rounded to a tenth and written without a trailing ".0"
//! ("25", "2.5"); `*_words` spell whole seconds ("a second", "fifteen seconds"), and a
//! placeholder that opens a sentence is capitalised.

use crate::analysis::projection::{Projection, State};
use crate::model::msg::Msg;
use crate::model::scenario::{ClientSpec, FenceMode, MarkScope, Scenario, Step};
use crate::model::trace::{Entry, Event, Forgot, Trace};
use crate::teach::tail;
use crate::vocab::ids::NodeId;
use crate::vocab::numbers::decimal;

/// The run a template is filled from.
#[derive(Clone, Copy)]
pub struct Facts<'a> {
    pub trace: &'a Trace,
    pub scenario: &'a Scenario,
    pub projection: &'a Projection,
    /// How the page simulates a scenario (`sim::run_with` of its kit), for facts that
    /// run variants of this one (the tail's share).
    pub runs: fn(&Scenario) -> Trace,
}

impl<'a> Facts<'a> {
    pub fn new(
        trace: &'a Trace,
        scenario: &'a Scenario,
        projection: &'a Projection,
        runs: fn(&Scenario) -> Trace,
    ) -> Self {
        Facts {
            trace,
            scenario,
            projection,
            runs,
        }
    }

    /// `template` with every `{name}` read at entry `i`; `None` if any one of them is not
    /// a fact of this run there (the beat's claim no longer holds).
    pub fn fill(&self, template: &str, i: usize) -> Option<String> {
        self.read(template, i, Reading::Text)
    }

    /// Whether [`fill`](Self::fill) would give a text, decided without what is slow to
    /// read: the tail's share (a thousand runs) is there whenever the scenario has a pause
    /// to draw, and is run only when the beat's text is asked for. So placing a lesson's
    /// beats, which the page does before its first drawing, costs no runs.
    pub fn fits(&self, template: &str, i: usize) -> bool {
        self.read(template, i, Reading::Fits).is_some()
    }

    fn read(&self, template: &str, i: usize, reading: Reading) -> Option<String> {
        let mut out = String::with_capacity(template.len() + 8);
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let close = rest[open..].find('}')? + open;
            let name = &rest[open + 1..close];
            let value = match (tail_fact(name), reading) {
                (Some(_), Reading::Fits) => tail::applies(self.scenario).then(String::new)?,
                (Some(read), Reading::Text) => read(tail::share(self.scenario, self.runs)?),
                (None, _) => self.value(name, i)?,
            };
            // A placeholder that opens a sentence starts with a capital.
            let opens = out.is_empty() || out.ends_with(". ");
            let mut chars = value.chars();
            if let (true, Some(first)) = (opens, chars.next()) {
                // ASCII only, on purpose: the values are ASCII words, and Unicode case tables
                // would add about ten kilobytes to the wasm, even compressed.
                out.push(first.to_ascii_uppercase());
                out.push_str(chars.as_str());
            } else {
                out.push_str(&value);
            }
            rest = &rest[close + 1..];
        }
        out.push_str(rest);
        Some(out)
    }

    fn entries(&self) -> &'a [Entry] {
        &self.trace.entries
    }

    /// The state just before entry `i` (`i + 1`: just after it).
    fn state(&self, k: usize) -> State {
        self.projection.state_at(self.trace, k)
    }

    fn client(&self, n: NodeId) -> Option<&'a ClientSpec> {
        match n {
            NodeId::Client(c) => self.scenario.clients.get(usize::from(c)),
            _ => None,
        }
    }

    /// The token of `client`'s first grant.
    fn first_token(&self, client: NodeId) -> Option<u64> {
        self.entries().iter().find_map(|e| match e.event {
            Event::LeaseGranted {
                client: c, token, ..
            } if c == client => Some(token),
            _ => None,
        })
    }

    /// How much of `client`'s lease the lock service had left (true time) when the
    /// client's first pause began: from the last grant or renewal before it, the term it
    /// gave. `None` if the client never pauses, or pauses holding no lease.
    fn left_at_pause(&self, client: NodeId) -> Option<i64> {
        let p = self
            .entries()
            .iter()
            .position(|e| e.node == client && matches!(e.event, Event::Paused { .. }))?;
        let at = self.entries()[p].t.0;
        let ends = self.entries()[..p]
            .iter()
            .rev()
            .find_map(|q| match q.event {
                Event::LeaseGranted {
                    client: c,
                    expires_local,
                    ..
                }
                | Event::LeaseRenewed {
                    client: c,
                    expires_local,
                    ..
                }
                | Event::LeaseExtended {
                    client: c,
                    expires_local,
                    ..
                } if q.node == NodeId::COORD && c == client => {
                    Some(q.t.0 + expires_local - q.local)
                }
                _ => None,
            })?;
        (ends > at).then_some(ends - at)
    }

    fn value(&self, name: &str, i: usize) -> Option<String> {
        use Event::*;
        let e = self.entries().get(i)?;
        let before = || self.entries()[..i].iter().rev();
        Some(match (name, &e.event) {
            ("token", ev) => token_of(ev)?.to_string(),
            ("tied_token", LeaseGranted { client, token, .. }) => {
                let tied = self
                    .state(i + 1)
                    .believers()
                    .any(|(c, t)| c != *client && t == *token);
                tied.then(|| token.to_string())?
            }
            (
                "reset_token",
                Restarted {
                    forgot: Forgot::LeasesAndCounter,
                },
            ) => self.entries()[i + 1..]
                .iter()
                .find_map(|n| match n.event {
                    LeaseGranted { token, .. } if n.node == e.node => Some(token),
                    _ => None,
                })?
                .to_string(),
            ("mark_before", WriteAccepted { key, .. } | WriteRejected { key, .. }) => {
                self.state(i).marks.get(key)?.to_string()
            }
            ("mark_down", WriteAccepted { key, mark, .. }) => {
                let (after, was) = (mark.as_ref()?, self.state(i).marks.get(key).copied()?);
                (*after < was).then(|| after.to_string())?
            }
            ("gap_ms", WriteAccepted { key, client, .. }) => {
                let other = before().find(|p| {
                    matches!(&p.event, WriteAccepted { key: k, client: c, .. } if k == key && c != client)
                })?;
                (e.t.0 - other.t.0).to_string()
            }
            ("left_s", CheckPassed { deadline_local }) => secs(deadline_local - e.local),
            ("left_words", CheckPassed { deadline_local }) => spelled(deadline_local - e.local),
            ("gone_s", CheckPassed { deadline_local }) => {
                let c = self.client(e.node)?;
                let start = deadline_local - (c.ttl_ms - c.margin_ms);
                secs(e.local - start)
            }
            ("drift", _) => {
                let ppm = self.client(e.node)?.clock.drift_ppm;
                let way = match ppm.signum() {
                    -1 => "slow",
                    1 => "fast",
                    _ => return None,
                };
                format!("{}% {way}", decimal(ppm.abs(), 4))
            }
            ("coord_clock_s", _) => secs(self.state(i + 1).local(NodeId::COORD, e.t)),
            ("pause_s", Paused { for_ms, .. }) => secs(*for_ms),
            // A beat that names what froze the node ("the hypervisor stops the VM") is hidden
            // once the reader changes the pause's cause, rather than telling the old story.
            (n, Paused { cause, .. }) if n.strip_prefix("if_cause_") == Some(cause.name()) => {
                String::new()
            }
            ("jump", ClockJumped { by_ms }) => {
                let way = match by_ms.signum() {
                    1 => "forward",
                    -1 => "back",
                    _ => return None,
                };
                format!("{} s {way}", secs(by_ms.abs()))
            }
            ("early_s", LeaseExpired { client, token, .. }) => {
                // When the lease would have ended on its own term: from its last grant or
                // renewal, the term it was given, in true time.
                let (at, term) = before().find_map(|p| match p.event {
                    LeaseGranted {
                        client: c,
                        token: t,
                        expires_local,
                        ..
                    }
                    | LeaseRenewed {
                        client: c,
                        token: t,
                        expires_local,
                    }
                    | LeaseExtended {
                        client: c,
                        token: t,
                        expires_local,
                    } if p.node == e.node && c == *client && t == *token => {
                        Some((p.t.0, expires_local - p.local))
                    }
                    _ => None,
                })?;
                let early = at + term - e.t.0;
                (round_div(early, 100) > 0).then(|| secs(early))?
            }
            ("held_words", WriteAccepted { client, .. }) => {
                let held = before().find_map(|p| match p.event {
                    MessageHeld { to, extra_ms } if p.node == *client && to == e.node => {
                        Some(extra_ms)
                    }
                    _ => None,
                })?;
                spelled(held)
            }
            ("retry_words", MessageHeld { to, .. }) => {
                // The held message is the next one the client sends there; the retry is
                // the one after it.
                let mut sends = self.entries()[i + 1..].iter().filter(|n| {
                    n.node == e.node && matches!(n.event, Sent { to: d, .. } if d == *to)
                });
                let (first, again) = (sends.next()?, sends.next()?);
                spelled(again.t.0 - first.t.0)
            }
            ("ttl_min", LeaseGranted { expires_local, .. }) => minutes(expires_local - e.local),
            ("work_min", LeaseGranted { client, .. }) => {
                let work = self.client(*client)?.job.iter().map(|s| match s {
                    Step::Work { ms } => *ms,
                    _ => 0,
                });
                minutes(work.sum())
            }
            ("t_min", _) => minutes(e.t.0),
            ("t_s", _) => secs(e.t.0),
            (
                "write_flight_s",
                Sent {
                    msg: Msg::Write { .. },
                    arrives: Some(a),
                    ..
                },
            ) => secs(a.0 - e.t.0),
            ("if_unfenced", _) => {
                (self.scenario.storage.fence == FenceMode::None).then(String::new)?
            }
            ("if_no_idempotency", _) => (!self.scenario.storage.idempotency).then(String::new)?,
            ("if_health_checks", _) => self.scenario.coordinator.health_checks.then(String::new)?,
            ("if_mark_per_key", _) => {
                let st = &self.scenario.storage;
                (!st.resources.is_empty() && st.mark_per == MarkScope::Key).then(String::new)?
            }
            ("c1_token", _) => self.first_token(NodeId::Client(0))?.to_string(),
            ("c2_token", _) => self.first_token(NodeId::Client(1))?.to_string(),
            ("c1_next", _) => (self.first_token(NodeId::Client(0))? + 1).to_string(),
            ("c1_left_at_pause_s", _) => secs(self.left_at_pause(NodeId::Client(0))?),
            _ => return None,
        })
    }
}

/// The token an event carries, if it names one.
fn token_of(e: &Event) -> Option<u64> {
    use Event::*;
    match e {
        LeaseGranted { token, .. }
        | LeaseRenewed { token, .. }
        | LeaseReleased { token, .. }
        | LeaseExpired { token, .. }
        | LeaseExtended { token, .. }
        | BeliefStarted { token, .. }
        | BeliefEnded { token, .. } => Some(*token),
        WriteAccepted { token, .. } | WriteRejected { token, .. } | FenceChecked { token, .. } => {
            *token
        }
        _ => None,
    }
}

/// `n / d`, rounded half away from zero.
fn round_div(n: i64, d: i64) -> i64 {
    let r = (n.abs() + d / 2) / d;
    if n < 0 {
        -r
    } else {
        r
    }
}

/// What a fill reads: the text itself, or only whether there is one.
#[derive(Clone, Copy)]
enum Reading {
    Text,
    Fits,
}

/// How a tail fact is read from the share of many seeded runs ([`tail::share`]); `None`
/// for a fact of the run itself.
fn tail_fact(name: &str) -> Option<fn(tail::Share) -> String> {
    Some(match name {
        "tail_runs" => |s| s.runs.to_string(),
        "tail_unsafe" => |s| s.unsafe_runs.to_string(),
        "tail_pct" => |s| decimal((s.unsafe_runs * 1_000 / s.runs) as i64, 1),
        "tail_p99_s" => |s| secs(s.p99_ms),
        _ => return None,
    })
}

/// Seconds to a tenth, without a trailing ".0": "25", "2.5".
fn secs(ms: i64) -> String {
    decimal(round_div(ms, 100), 1)
}

/// Minutes to a tenth, without a trailing ".0": "10", "12.5".
fn minutes(ms: i64) -> String {
    decimal(round_div(ms, 6_000), 1)
}

/// Whole seconds spelled out ("a second", "forty seconds"); anything else in figures
/// ("2.5 s", "120 s").
fn spelled(ms: i64) -> String {
    const ONES: [&str; 20] = [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
        "eleven",
        "twelve",
        "thirteen",
        "fourteen",
        "fifteen",
        "sixteen",
        "seventeen",
        "eighteen",
        "nineteen",
    ];
    const TENS: [&str; 10] = [
        "", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    ];
    let n = ms / 1000;
    if ms % 1000 != 0 || !(1..100).contains(&n) {
        return format!("{} s", secs(ms));
    }
    let n = n as usize;
    match n {
        1 => "a second".to_string(),
        2..=19 => format!("{} seconds", ONES[n]),
        _ if n.is_multiple_of(10) => format!("{} seconds", TENS[n / 10]),
        _ => format!("{}-{} seconds", TENS[n / 10], ONES[n % 10]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_the_beats_write_them() {
        assert_eq!(secs(25_000), "25");
        assert_eq!(secs(20_005), "20");
        assert_eq!(secs(2_450), "2.5");
        assert_eq!(secs(-3_000), "-3");
        assert_eq!(minutes(600_005), "10");
        assert_eq!(minutes(90_000), "1.5");
        assert_eq!(spelled(1_000), "a second");
        assert_eq!(spelled(15_000), "fifteen seconds");
        assert_eq!(spelled(40_000), "forty seconds");
        assert_eq!(spelled(25_000), "twenty-five seconds");
        assert_eq!(spelled(2_500), "2.5 s");
        assert_eq!(spelled(120_000), "120 s");
    }

    #[test]
    fn a_claim_resolves_only_while_it_holds() {
        let mut sc = crate::teach::course::open("gc-pause").unwrap();
        let told = |sc: &Scenario| {
            let trace = crate::model::sim::simulate(sc).unwrap();
            let p = Projection::new(&trace);
            let i = trace
                .entries
                .iter()
                .position(|e| e.node == NodeId::Client(0))
                .unwrap();
            Facts::new(&trace, sc, &p, crate::model::sim::run).fill("its clock runs {drift}", i)
        };
        assert_eq!(told(&sc), None);
        sc.clients[0].clock.drift_ppm = -125_000;
        assert_eq!(told(&sc).as_deref(), Some("its clock runs 12.5% slow"));
        sc.clients[0].clock.drift_ppm = 50_000;
        assert_eq!(told(&sc).as_deref(), Some("its clock runs 5% fast"));
    }

    #[test]
    fn an_unknown_or_unclosed_placeholder_tells_nothing() {
        let sc = crate::teach::course::open("gc-pause").unwrap();
        let trace = crate::model::sim::simulate(&sc).unwrap();
        let p = Projection::new(&trace);
        let f = Facts::new(&trace, &sc, &p, crate::model::sim::run);
        assert_eq!(f.fill("{nonsense}", 0), None);
        assert_eq!(f.fill("token {token", 4), None);
        assert_eq!(
            f.fill("{t_min} minutes in", 0).as_deref(),
            Some("0 minutes in")
        );
    }
}
