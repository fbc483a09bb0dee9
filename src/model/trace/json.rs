//! The trace as JSON, written by hand: the canonical form the digest is computed over, and
//! the shape a trace export will have.
//!
//! Owning this form (rather than deriving it) keeps a digest meaning the same run forever —
//! no dependency's formatting choices can move it — and keeps a JSON serializer out of the
//! browser bundle. Field names are snake_case; every variant carries a `kind` tag (events),
//! `msg` tag (messages) or `why` tag (rejection reasons); absent values are `null`.

use crate::model::msg::{Msg, RejectReason};
use crate::model::trace::{AbortWhy, DropWhy, Entry, Event, Forgot, LossHow};
use crate::vocab::ids::NodeId;
use crate::vocab::json::Json;
use crate::vocab::names::PauseCause;

/// Builds one JSON object field by field.
struct Obj(Vec<(String, Json)>);

impl Obj {
    fn tag(key: &str, name: &str) -> Obj {
        Obj(vec![(key.to_string(), Json::Str(name.to_string()))])
    }
    fn int(mut self, k: &str, v: impl Into<i128>) -> Obj {
        self.0.push((k.to_string(), Json::Int(v.into())));
        self
    }
    fn opt(mut self, k: &str, v: Option<impl Into<i128>>) -> Obj {
        self.0
            .push((k.to_string(), v.map_or(Json::Null, |v| Json::Int(v.into()))));
        self
    }
    fn text(mut self, k: &str, v: &str) -> Obj {
        self.0.push((k.to_string(), Json::Str(v.to_string())));
        self
    }
    fn node(self, k: &str, n: NodeId) -> Obj {
        let s = n.to_string();
        self.text(k, &s)
    }
    fn val(mut self, k: &str, v: Json) -> Obj {
        self.0.push((k.to_string(), v));
        self
    }
    fn done(self) -> Json {
        Json::Obj(self.0)
    }
}

fn reason(r: &RejectReason) -> Json {
    match r {
        RejectReason::Lower { token, mark } => Obj::tag("why", "lower")
            .int("token", *token)
            .int("mark", *mark),
        RejectReason::NotAbove { token, mark } => Obj::tag("why", "not_above")
            .int("token", *token)
            .int("mark", *mark),
        RejectReason::NotCurrent { token, current } => Obj::tag("why", "not_current")
            .int("token", *token)
            .opt("current", *current),
        RejectReason::NoToken => Obj::tag("why", "no_token"),
        RejectReason::VersionChanged { read, now } => Obj::tag("why", "version_changed")
            .int("read", *read)
            .int("now", *now),
    }
    .done()
}

/// A message as JSON.
pub fn msg(m: &Msg) -> Json {
    match m {
        Msg::Acquire { req, owner, ttl_ms } => Obj::tag("msg", "acquire")
            .int("req", *req)
            .int("owner", *owner)
            .int("ttl_ms", *ttl_ms),
        Msg::Granted {
            req,
            token,
            ttl_ms,
            epoch,
        } => Obj::tag("msg", "granted")
            .int("req", *req)
            .int("token", *token)
            .int("ttl_ms", *ttl_ms)
            .int("epoch", *epoch),
        Msg::Queued { req } => Obj::tag("msg", "queued").int("req", *req),
        Msg::Busy { req } => Obj::tag("msg", "busy").int("req", *req),
        Msg::Renew {
            req,
            owner,
            token,
            ttl_ms,
        } => Obj::tag("msg", "renew")
            .int("req", *req)
            .int("owner", *owner)
            .int("token", *token)
            .int("ttl_ms", *ttl_ms),
        Msg::Renewed { req, token, ttl_ms } => Obj::tag("msg", "renewed")
            .int("req", *req)
            .int("token", *token)
            .int("ttl_ms", *ttl_ms),
        Msg::RenewRefused { req, token } => Obj::tag("msg", "renew_refused")
            .int("req", *req)
            .int("token", *token),
        Msg::Release { owner } => Obj::tag("msg", "release").int("owner", *owner),
        Msg::Released { ok } => Obj::tag("msg", "released").val("ok", Json::Bool(*ok)),
        Msg::Write {
            req,
            key,
            value,
            token,
            epoch,
        } => Obj::tag("msg", "write")
            .int("req", *req)
            .text("key", key)
            .text("value", value)
            .opt("token", *token)
            .opt("epoch", *epoch),
        Msg::WriteAck { req } => Obj::tag("msg", "write_ack").int("req", *req),
        Msg::Read { req, key } => Obj::tag("msg", "read").int("req", *req).text("key", key),
        Msg::ReadReply {
            req,
            value,
            version,
        } => Obj::tag("msg", "read_reply")
            .int("req", *req)
            .text("value", value)
            .int("version", *version),
        Msg::WriteIf {
            req,
            key,
            value,
            token,
            epoch,
            version,
        } => Obj::tag("msg", "write_if")
            .int("req", *req)
            .text("key", key)
            .text("value", value)
            .opt("token", *token)
            .opt("epoch", *epoch)
            .int("version", *version),
        Msg::WriteRejected { req, reason: r } => Obj::tag("msg", "write_rejected")
            .int("req", *req)
            .val("reason", reason(r)),
        Msg::Effect {
            req,
            name,
            idempotency_key,
            token,
        } => Obj::tag("msg", "effect")
            .int("req", *req)
            .text("name", name)
            .val(
                "idempotency_key",
                idempotency_key
                    .as_ref()
                    .map_or(Json::Null, |k| Json::Str(k.to_string())),
            )
            .opt("token", *token),
        Msg::EffectDone { req, duplicate } => Obj::tag("msg", "effect_done")
            .int("req", *req)
            .val("duplicate", Json::Bool(*duplicate)),
    }
    .done()
}

fn word(w: &str) -> Json {
    Json::Str(w.to_string())
}

fn how(h: LossHow) -> Json {
    word(match h {
        LossHow::DeadlinePassed => "deadline_passed",
        LossHow::RenewRefused => "renew_refused",
        LossHow::WatchdogExpired => "watchdog_expired",
        LossHow::Fenced => "fenced",
        LossHow::Released => "released",
        LossHow::JobEnded => "job_ended",
        LossHow::SessionExpired => "session_expired",
        LossHow::Suspended => "suspended",
        LossHow::Lost => "lost",
    })
}

/// An event as JSON, tagged by `kind`.
pub fn event(e: &Event) -> Json {
    use Event::*;
    let o = |k: &str| Obj::tag("kind", k);
    match e {
        JobStarted => o("job_started"),
        StepStarted { step } => o("step_started").int("step", *step),
        JobFinished => o("job_finished"),
        JobAborted {
            why: AbortWhy::Refused { times },
        } => o("job_aborted")
            .val("why", word("refused"))
            .int("refusals", *times),
        JobAborted {
            why: AbortWhy::VersionConflicts { times },
        } => o("job_aborted")
            .val("why", word("version_conflicts"))
            .int("refusals", *times),
        JobAborted { why } => o("job_aborted").val(
            "why",
            word(match why {
                AbortWhy::LostLease => "lost_lease",
                AbortWhy::CoordinatorUnreachable => "coordinator_unreachable",
                AbortWhy::Refused { .. } => "refused",
                AbortWhy::StorageUnreachable => "storage_unreachable",
                AbortWhy::VersionConflicts { .. } => "version_conflicts",
            }),
        ),
        Sent {
            id,
            to,
            msg: m,
            arrives,
        } => o("sent")
            .int("id", *id)
            .node("to", *to)
            .val("msg", msg(m))
            .opt("arrives", arrives.map(|t| t.0)),
        Received { id, from } => o("received").int("id", *id).node("from", *from),
        Dropped { id, to, why } => o("dropped").int("id", *id).node("to", *to).val(
            "why",
            word(match why {
                DropWhy::Partitioned => "partitioned",
                DropWhy::Lost => "lost",
                DropWhy::NodeDown => "node_down",
            }),
        ),
        BeliefStarted {
            token,
            epoch,
            deadline_local,
        } => o("belief_started")
            .int("token", *token)
            .int("epoch", *epoch)
            .int("deadline_local", *deadline_local),
        DeadlineExtended {
            token,
            deadline_local,
        } => o("deadline_extended")
            .int("token", *token)
            .int("deadline_local", *deadline_local),
        BeliefEnded { token, how: h } => o("belief_ended").int("token", *token).val("how", how(*h)),
        CheckPassed { deadline_local } => o("check_passed").int("deadline_local", *deadline_local),
        LossIgnored => o("loss_ignored"),
        FailedOpen => o("failed_open"),
        GaveUp => o("gave_up"),
        LeaseGranted {
            client,
            token,
            epoch,
            expires_local,
        } => o("lease_granted")
            .node("client", *client)
            .int("token", *token)
            .int("epoch", *epoch)
            .int("expires_local", *expires_local),
        LeaseRenewed {
            client,
            token,
            expires_local,
        } => o("lease_renewed")
            .node("client", *client)
            .int("token", *token)
            .int("expires_local", *expires_local),
        LeaseReleased { client, token } => o("lease_released")
            .node("client", *client)
            .int("token", *token),
        ReleaseRefused { client } => o("release_refused").node("client", *client),
        LeaseExpired {
            client,
            token,
            epoch,
        } => o("lease_expired")
            .node("client", *client)
            .int("token", *token)
            .int("epoch", *epoch),
        RequestQueued { client } => o("request_queued").node("client", *client),
        RenewalRefused { client, token } => o("renewal_refused")
            .node("client", *client)
            .int("token", *token),
        RenewalDropped { client } => o("renewal_dropped").node("client", *client),
        ResourceDeclared {
            resource,
            keys,
            one_mark,
        } => o("resource_declared")
            .text("resource", resource)
            .val(
                "keys",
                Json::Arr(keys.iter().map(|k| Json::Str(k.to_string())).collect()),
            )
            .val("one_mark", one_mark.map_or(Json::Null, Json::Bool)),
        WriteAccepted {
            client,
            key,
            value,
            token,
            epoch,
            replaced_epoch,
            mark,
        } => o("write_accepted")
            .node("client", *client)
            .text("key", key)
            .text("value", value)
            .opt("token", *token)
            .opt("epoch", *epoch)
            .opt("replaced_epoch", *replaced_epoch)
            .opt("mark", *mark),
        WriteRejected {
            client,
            key,
            token,
            reason: r,
        } => o("write_rejected")
            .node("client", *client)
            .text("key", key)
            .opt("token", *token)
            .val("reason", reason(r)),
        ReadServed {
            client,
            key,
            version,
        } => o("read_served")
            .node("client", *client)
            .text("key", key)
            .int("version", *version),
        FenceChecked {
            client,
            key,
            token,
            mark,
        } => o("fence_checked")
            .node("client", *client)
            .text("key", key)
            .opt("token", *token)
            .opt("mark", *mark),
        EffectPerformed { client, name } => o("effect_performed")
            .node("client", *client)
            .text("name", name),
        EffectDeduplicated { client, name } => o("effect_deduplicated")
            .node("client", *client)
            .text("name", name),
        // A GC pause, the default, writes no cause: traces (and their digests) from
        // before causes existed read the same.
        Paused {
            for_ms,
            cause: PauseCause::Gc,
        } => o("paused").int("for_ms", *for_ms),
        Paused { for_ms, cause } => o("paused")
            .int("for_ms", *for_ms)
            .val("cause", word(cause.name())),
        Resumed => o("resumed"),
        LinkCut { peer } => o("link_cut").node("peer", *peer),
        LinkHealed { peer } => o("link_healed").node("peer", *peer),
        MessageHeld { to, extra_ms } => {
            o("message_held").node("to", *to).int("extra_ms", *extra_ms)
        }
        ClockJumped { by_ms } => o("clock_jumped").int("by_ms", *by_ms),
        Crashed { down_ms } => o("crashed").int("down_ms", *down_ms),
        Restarted { forgot } => o("restarted").val(
            "forgot",
            word(match forgot {
                Forgot::Leases => "leases",
                Forgot::LeasesAndCounter => "leases_and_counter",
                Forgot::Nothing => "nothing",
                Forgot::Mark => "mark",
            }),
        ),
        RenewalsFailing { for_ms } => o("renewals_failing").int("for_ms", *for_ms),
        RenewalsRestored => o("renewals_restored"),
        Disconnected => o("disconnected"),
        Reconnected => o("reconnected"),
        Jeopardy {
            grace_ms,
            deadline_local,
        } => o("jeopardy")
            .int("grace_ms", *grace_ms)
            .int("deadline_local", *deadline_local),
        Safe => o("safe"),
        QuorumAcquired {
            granted,
            validity_ms,
        } => o("quorum_acquired")
            .int("granted", *granted)
            .int("validity_ms", *validity_ms),
        QuorumFailed {
            granted,
            validity_ms,
        } => o("quorum_failed")
            .int("granted", *granted)
            .int("validity_ms", *validity_ms),
        FailingOver { down_ms } => o("failing_over").int("down_ms", *down_ms),
        FailedOver { lost } => o("failed_over").val(
            "lost",
            lost.map_or(Json::Null, |c| Json::Str(c.to_string())),
        ),
        LeaseExtended {
            client,
            token,
            expires_local,
        } => o("lease_extended")
            .node("client", *client)
            .int("token", *token)
            .int("expires_local", *expires_local),
        SessionInvalidated { client, token } => o("session_invalidated")
            .node("client", *client)
            .opt("token", *token),
        LockDelayed { until_local } => o("lock_delayed").int("until_local", *until_local),
    }
    .done()
}

/// The `kind` tag of an event, as written in the canonical JSON.
pub fn kind(e: &Event) -> &'static str {
    use Event::*;
    match e {
        JobStarted => "job_started",
        StepStarted { .. } => "step_started",
        JobFinished => "job_finished",
        JobAborted { .. } => "job_aborted",
        Sent { .. } => "sent",
        Received { .. } => "received",
        Dropped { .. } => "dropped",
        BeliefStarted { .. } => "belief_started",
        DeadlineExtended { .. } => "deadline_extended",
        BeliefEnded { .. } => "belief_ended",
        CheckPassed { .. } => "check_passed",
        LossIgnored => "loss_ignored",
        FailedOpen => "failed_open",
        GaveUp => "gave_up",
        LeaseGranted { .. } => "lease_granted",
        LeaseRenewed { .. } => "lease_renewed",
        LeaseReleased { .. } => "lease_released",
        ReleaseRefused { .. } => "release_refused",
        LeaseExpired { .. } => "lease_expired",
        RequestQueued { .. } => "request_queued",
        RenewalRefused { .. } => "renewal_refused",
        RenewalDropped { .. } => "renewal_dropped",
        ResourceDeclared { .. } => "resource_declared",
        WriteAccepted { .. } => "write_accepted",
        WriteRejected { .. } => "write_rejected",
        FenceChecked { .. } => "fence_checked",
        ReadServed { .. } => "read_served",
        EffectPerformed { .. } => "effect_performed",
        EffectDeduplicated { .. } => "effect_deduplicated",
        Paused { .. } => "paused",
        Resumed => "resumed",
        LinkCut { .. } => "link_cut",
        LinkHealed { .. } => "link_healed",
        MessageHeld { .. } => "message_held",
        ClockJumped { .. } => "clock_jumped",
        Crashed { .. } => "crashed",
        Restarted { .. } => "restarted",
        RenewalsFailing { .. } => "renewals_failing",
        RenewalsRestored => "renewals_restored",
        Disconnected => "disconnected",
        Reconnected => "reconnected",
        Jeopardy { .. } => "jeopardy",
        Safe => "safe",
        QuorumAcquired { .. } => "quorum_acquired",
        QuorumFailed { .. } => "quorum_failed",
        FailingOver { .. } => "failing_over",
        FailedOver { .. } => "failed_over",
        LeaseExtended { .. } => "lease_extended",
        SessionInvalidated { .. } => "session_invalidated",
        LockDelayed { .. } => "lock_delayed",
    }
}

/// The client an event is about, if it names one (`client` fields).
pub fn about(e: &Event) -> Option<NodeId> {
    use Event::*;
    match e {
        LeaseGranted { client, .. }
        | LeaseRenewed { client, .. }
        | LeaseReleased { client, .. }
        | ReleaseRefused { client }
        | LeaseExpired { client, .. }
        | RequestQueued { client }
        | RenewalRefused { client, .. }
        | RenewalDropped { client }
        | WriteAccepted { client, .. }
        | WriteRejected { client, .. }
        | FenceChecked { client, .. }
        | ReadServed { client, .. }
        | EffectPerformed { client, .. }
        | EffectDeduplicated { client, .. }
        | LeaseExtended { client, .. }
        | SessionInvalidated { client, .. } => Some(*client),
        FailedOver { lost } => *lost,
        _ => None,
    }
}

/// One trace entry: `{"t", "node", "local", "event"}`.
pub fn entry(e: &Entry) -> Json {
    Obj(Vec::new())
        .int("t", e.t.0)
        .node("node", e.node)
        .int("local", e.local)
        .val("event", event(&e.event))
        .done()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::sim::simulate;
    use crate::teach::presets::preset;
    use crate::vocab::json::{compact, parse};

    #[test]
    fn every_entry_is_valid_json_with_its_kind() {
        for p in crate::teach::presets::PRESETS {
            let t = simulate(&p.scenario()).unwrap();
            for e in &t.entries {
                let text = compact(&entry(e));
                let back = parse(&text).unwrap();
                assert!(
                    matches!(
                        back.get("event").and_then(|v| v.get("kind")),
                        Some(Json::Str(_))
                    ),
                    "{text}"
                );
            }
        }
        let t = simulate(&preset("gc-pause-fenced").unwrap().scenario()).unwrap();
        let rejected = t
            .entries
            .iter()
            .find(|e| matches!(e.event, Event::WriteRejected { .. }))
            .unwrap();
        assert_eq!(
            compact(&entry(rejected)),
            r#"{"t":50005,"node":"storage","local":50005,"event":{"kind":"write_rejected","client":"c1","key":"account:42","token":33,"reason":{"why":"lower","token":33,"mark":34}}}"#
        );
    }
}
