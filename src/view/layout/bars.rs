//! Intervals as bars: a client's belief, a lease held on the lock service, a pause, a
//! node down, each with its hover text and the label it wants.

use super::*;

/// The bar of one of the projection's intervals, cut to the scale's axis, and the label it
/// wants (its text and short form); `ended`: the event that ended it (`None`: it runs to
/// the end of the run), which the bar's title names.
pub(super) fn interval_bar<D: Detail>(
    scale: &Scale,
    y: f64,
    iv: &Interval,
    ended: Option<&Event>,
) -> (Bar<D>, Option<(String, Option<String>)>) {
    let (t0, t1) = (iv.from, iv.to);
    let x0 = within(scale.x(t0.0 as f64), scale.x0, scale.x1);
    let x1 = within(scale.x(t1.0 as f64), scale.x0, scale.x1);
    let bar = |dy: f64, h: f64, tone, title, open| Bar {
        x0,
        x1,
        y: y + dy,
        h,
        tone,
        label: None,
        title,
        open,
        count: 1,
    };
    match iv.span {
        Span::Belief { token } => {
            let how = match ended {
                Some(Event::BeliefEnded { how, .. }) => how.to_string(),
                Some(_) => "it took another token".to_string(),
                None => "still believing at the end".to_string(),
            };
            let title = hover::<D>(|| {
                format!(
                    "believes it holds the lock ({}) from {t0} to {t1} (then {how})",
                    token_words(token)
                )
            });
            let open = D::open(|| {
                format!(
                    "believes it holds the lock ({}) from {t0}",
                    token_words(token)
                )
            });
            let text = format!("believes {}", token_words(token));
            let want = (x1 - x0 > 50.0).then(|| (text, Some(token_words(token))));
            (bar(-5.0, 10.0, Tone::Belief, title, open), want)
        }
        Span::Paused => {
            let title =
                hover::<D>(|| format!("paused from {t0} to {t1}: handlers frozen, clock running"));
            let open = D::open(|| format!("paused from {t0}: handlers frozen, clock running"));
            (bar(-14.0, 28.0, Tone::Paused, title, open), None)
        }
        Span::Down => {
            let title = hover::<D>(|| match ended {
                Some(_) => format!("{} down from {t0} to {t1}", iv.node.name()),
                None => format!("{} down from {t0}", iv.node.name()),
            });
            let open = D::open(|| format!("{} down from {t0}", iv.node.name()));
            (bar(-12.0, 24.0, Tone::Down, title, open), None)
        }
        Span::Lease { client, token } => {
            let how = match ended {
                Some(Event::LeaseGranted { .. }) => "replaced",
                Some(Event::LeaseReleased { .. }) => "released",
                Some(Event::SessionInvalidated { .. }) => "invalidated",
                Some(Event::LeaseExpired { .. }) => "expired",
                Some(Event::Crashed { .. }) => "lock service crashed",
                Some(Event::FailedOver { .. }) => "lost in failover",
                Some(_) => "ended",
                None => "still held at the end",
            };
            let who = client.name().replace("client ", "c");
            let text = format!("{who} · {}", token_words(token));
            let want = (x1 - x0 > 40.0).then(|| (text, Some(format!("{who} · {token}"))));
            let title = hover::<D>(|| {
                format!(
                    "lease ({}) held by {} from {t0} to {t1} ({how})",
                    token_words(token),
                    client.name()
                )
            });
            let open = D::open(|| {
                format!(
                    "lease ({}) held by {} from {t0}",
                    token_words(token),
                    client.name()
                )
            });
            (bar(-7.0, 14.0, Tone::Lease, title, open), want)
        }
    }
}
