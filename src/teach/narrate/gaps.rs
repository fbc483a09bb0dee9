//! The words of a believed-against-actual gap on a client's lane: where its clock put the
//! end of its lease against where the lock service ended it, and whether it went on
//! believing past both. The drawing (`view::layout`) places the gap; this says it.

use crate::vocab::ids::NodeId;
use crate::vocab::names::token_words;
use crate::vocab::time::Time;

/// One lease's gap: `client`'s clock ended its lease (`token`) at `believed`, the lock
/// service at `expired`, and the client stopped believing at `stopped`.
pub fn gap_title(
    client: NodeId,
    token: u64,
    believed: Time,
    expired: Time,
    stopped: Time,
) -> String {
    let (who, tok) = (client.name(), token_words(token));
    let mut title = if believed > expired {
        format!(
            "{who}'s clock puts the end of its lease ({tok}) at {believed}, {} after the lock service let it expire at {expired}",
            Time(believed.0 - expired.0)
        )
    } else {
        format!(
            "{who}'s clock puts the end of its lease ({tok}) at {believed}, {} before the lock service lets it expire at {expired}",
            Time(expired.0 - believed.0)
        )
    };
    if stopped > believed.max(expired) {
        title += &format!("; it went on believing until {stopped}, past both");
    }
    title
}

/// `n` safe margins of `client`'s drawn as one, at a level of detail.
pub fn gaps_merged_title(n: usize, client: NodeId) -> String {
    format!(
        "{n} leases of {}, each a safe margin: the client's clock ends them before the lock service lets them expire",
        client.name()
    )
}

/// What a gap's popover says it shows.
pub fn gap_legend(client: NodeId) -> String {
    format!(
        "{}'s lease: where its clock ends it (dashed) and where the lock service lets it expire (solid)",
        client.name()
    )
}
