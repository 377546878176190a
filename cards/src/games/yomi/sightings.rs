//! Yomi's mat zones as moves.

use crate::core::Seat;
use crate::sightings::ZoneMoves;

/// What putting a card into `zone` can mean.
pub(crate) fn zone_moves(zone: &str, _seat: Option<Seat>) -> Option<ZoneMoves> {
    match zone {
        "combat" => Some(ZoneMoves::plain(&["reveal", "reveal-escape"])),
        "combo" => Some(ZoneMoves::plain(&["combo"])),
        _ => None,
    }
}
