//! Whether a fix holds: what the explorer finds when it adds one fault of any kind to a
//! fix's run, within its default bounds (`analysis::explore::Bounds::for_scenario`).
//!
//! The sources' argument is that a fence holds whatever the pause, while a timing fix only
//! narrows the window it was sized for. The page should not call a change a fix when one
//! more fault breaks it, so every variant a lesson offers stands as one of three things:
//!
//! - a **fix**: no single added fault breaks it;
//! - a change that **narrows** the window: one added fault still breaks it, and its
//!   [`Narrows`] (one constant here per such change, given to the fix's `Expect` where the
//!   fix is declared) says how in the learner's words, naming the kinds of fault that do;
//! - a **variant** that shows the failure as it is (its expected verdict is unsafe: "the
//!   same overlap with a job that is not idempotent").
//!
//! These are written by hand, but not trusted: `tests/it/library.rs` explores every fix
//! and fails when a fix with no `Narrows` breaks, when one with them holds, or when the
//! kinds of fault they name are not the ones the explorer finds. Declared with each fix,
//! a build links the texts of the fixes it carries and no others. The page never
//! shows a counterexample from here: its Explore panel computes the smallest one.

use crate::analysis::explore::fault::FaultClass::{self, *};

/// What still breaks a change that narrows the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Narrows {
    /// What it still lets through, as the learner reads it beside the fix.
    pub still: &'static str,
    /// Every kind of added fault that breaks it, the smallest counterexample's first.
    pub by: &'static [FaultClass],
}

/// How a lesson's variant stands (see the module's prose).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    Fix,
    Narrows(Narrows),
    Variant,
}

impl Standing {
    /// The word the menus put before the variant's title ("fix: Storage checks…").
    pub fn word(self) -> &'static str {
        match self {
            Standing::Fix => "fix",
            Standing::Narrows(_) => "narrows",
            Standing::Variant => "variant",
        }
    }

    /// The same word heading the variant's note ("Fix: Storage checks…").
    pub fn heading(self) -> &'static str {
        match self {
            Standing::Fix => "Fix",
            Standing::Narrows(_) => "Narrows",
            Standing::Variant => "Variant",
        }
    }
}

// What still breaks each change that narrows the window, named `LESSON_FIX` for its
// scenario (`lesson/fix`): each is that fix's `Expect::narrows` (`teach::library`).

/// `ttl-shorter-than-work/watchdog`.
pub const TTL_SHORTER_THAN_WORK_WATCHDOG: Narrows = Narrows {
    still: "renewing keeps the lease only while every renewal arrives; a restart of the lock service, a session declared dead, a held-up message, a cut, a clock jump, a pause, failed renewals or a fail-over still lets the old holder write after the lock moved on, since nothing checks the token",
    by: &[Restart, FalsePositive, Delay, Partition, Clock, Pause, FailRenewals, Failover],
};

/// `ttl-shorter-than-work/abort-on-loss`.
pub const TTL_SHORTER_THAN_WORK_ABORT_ON_LOSS: Narrows = Narrows {
    still: "the job checks its lease between steps, not at the storage: a cut or a held-up write repeats a step, and a pause or a clock jump right after the check still lets a stale write through",
    by: &[Partition, Delay, Pause, Clock],
};

/// `starved-renewal/abort-on-loss`.
pub const STARVED_RENEWAL_ABORT_ON_LOSS: Narrows = Narrows {
    still: "a check can pass just before the lease is lost: a held-up reply, a pause or a clock jump between the check and the write still lets the stale write land",
    by: &[Delay, Pause, Clock],
};

/// `partition-duplicate-effects/stop-on-loss`.
pub const PARTITION_DUPLICATE_EFFECTS_STOP_ON_LOSS: Narrows = Narrows {
    still: "stopping on loss acts only once the loss is seen: a short cut, a held-up message, a clock jump or a pause before the loss is noticed still sends the payment twice",
    by: &[Partition, Delay, Clock, Pause],
};

/// `watch-reachability/watch-silence`.
pub const WATCH_REACHABILITY_WATCH_SILENCE: Narrows = Narrows {
    still: "a client watches only while it runs: a pause of client 1 moves its watchdog's looks with it, and the job's write can come before the next look, after the lock has moved on",
    by: &[Pause],
};

/// `reacquire-after-loss/give-up`.
pub const REACQUIRE_AFTER_LOSS_GIVE_UP: Narrows = Narrows {
    still: "giving up acts only on a loss the job has seen: a short cut or a held-up reply makes client 1 retry and send the invoice twice by itself, and a pause or a clock jump moves the watchdog's looks so the stale write goes out before one of them sees the loss",
    by: &[Partition, Delay, Pause, Clock],
};

/// `session-checks-tradeoff/no-checks`.
pub const SESSION_CHECKS_TRADEOFF_NO_CHECKS: Narrows = Narrows {
    still: "with no health check the TTL is all that ends a session, and it can still end one early: a restart of the lock service that forgets the session, or its clock jumping forward, hands the lock to client 2 while client 1 works, and client 1's write lands late",
    by: &[Restart, Clock],
};

/// `session-checks-tradeoff/no-checks-no-ttl`.
pub const SESSION_CHECKS_TRADEOFF_NO_CHECKS_NO_TTL: Narrows = Narrows {
    still: "nothing on the lock service's side ends the session any more, except losing it: a restart of the lock service that forgets the session hands the lock to client 2 while client 1 works, and client 1's write lands late",
    by: &[Restart],
};

/// `coordinator-clock-jump/monotonic-expiry`.
pub const COORDINATOR_CLOCK_JUMP_MONOTONIC_EXPIRY: Narrows = Narrows {
    still: "a monotonic clock removes the jump, not the other ways a lease ends early or a write arrives late: a restart of the lock service, a session declared dead, a held-up write or a pause still breaks it",
    by: &[Restart, FalsePositive, Delay, Pause],
};

/// `silent-renewal-failure/stop-on-failed-renewal`.
pub const SILENT_RENEWAL_FAILURE_STOP_ON_FAILED_RENEWAL: Narrows = Narrows {
    still: "the client judges its lease by its own clock: a clock that jumps forward makes it trust a lease the lock service has already ended",
    by: &[Clock],
};

/// `release-lost/shorter-lease`.
pub const RELEASE_LOST_SHORTER_LEASE: Narrows = Narrows {
    still: "a shorter lease shortens the wait, and so the window: a held-up write, a pause or a clock jump longer than the lease still lands after the next holder's",
    by: &[Delay, Pause, Clock],
};

/// `redlock-restart/delayed-restart`.
pub const REDLOCK_RESTART_DELAYED_RESTART: Narrows = Narrows {
    still: "keeping a restarted master down covers restarts only: a fail-over that loses the key, a held-up write, a pause or a clock jump still gives two holders whose writes both land, with no token to tell them apart",
    by: &[Failover, Delay, Pause, Clock],
};

/// `consul-false-positive/lock-delay`.
pub const CONSUL_FALSE_POSITIVE_LOCK_DELAY: Narrows = Narrows {
    still: "lock-delay holds the next holder off for a while, not for ever (Consul's docs say it is not bulletproof): a write held up, a pause or a clock jump longer than the delay still lands late",
    by: &[Delay, Clock, Pause],
};

/// `chubby-lock-delay/lock-delay`.
pub const CHUBBY_LOCK_DELAY_LOCK_DELAY: Narrows = Narrows {
    still: "lock-delay applies when a holder's session times out; a lock service that restarts and forgets its locks hands the lock over at once, and the late write lands",
    by: &[Restart],
};

/// How a variant of a lesson stands, by what is expected of it: whether its own run is
/// safe, and what one added fault still breaks.
pub fn standing(safe: bool, narrows: Option<Narrows>) -> Standing {
    match (safe, narrows) {
        (false, _) => Standing::Variant,
        (true, Some(n)) => Standing::Narrows(n),
        (true, None) => Standing::Fix,
    }
}

/// The one line that ends a search's report: whether the run holds within the bounds
/// searched, how many ways it breaks, or how far a search that stopped early got
/// (`total`: the schedules it had found to try, 0 when unknown).
pub fn headline(ways: usize, complete: bool, tried: u64, total: u64) -> String {
    match (ways, complete) {
        (0, true) => "Holds within these bounds.".to_string(),
        (1, _) => "Breaks: 1 way.".to_string(),
        (n, _) if n > 1 => format!("Breaks: {n} ways, the smallest first."),
        _ if total > tried => {
            format!("Stopped before the end: searched {tried} of {total} schedules.")
        }
        _ => format!("Stopped before the end: searched {tried} schedules."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_headline_says_holds_breaks_or_stopped() {
        assert_eq!(headline(0, true, 1752, 1752), "Holds within these bounds.");
        assert_eq!(headline(1, true, 10, 10), "Breaks: 1 way.");
        assert_eq!(
            headline(3, false, 10, 99),
            "Breaks: 3 ways, the smallest first."
        );
        assert_eq!(
            headline(0, false, 400, 1000),
            "Stopped before the end: searched 400 of 1000 schedules."
        );
        assert_eq!(
            headline(0, false, 400, 0),
            "Stopped before the end: searched 400 schedules."
        );
    }

    #[test]
    fn a_change_that_narrows_is_never_called_a_fix() {
        let narrows = Some(TTL_SHORTER_THAN_WORK_WATCHDOG);
        assert!(matches!(standing(true, narrows), Standing::Narrows(_)));
        assert_eq!(standing(false, narrows), Standing::Variant);
        assert_eq!(standing(false, None), Standing::Variant);
        assert_eq!(standing(true, None), Standing::Fix);
        assert_eq!(standing(true, narrows).word(), "narrows");
    }
}
