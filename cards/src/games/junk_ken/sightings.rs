//! JUNK-KEN's mat zones as moves.

use crate::core::Seat;
use crate::sightings::ZoneMoves;

/// What putting a card into `zone` can mean.
pub(crate) fn zone_moves(zone: &str, _seat: Option<Seat>) -> Option<ZoneMoves> {
    match zone {
        "battle" => Some(ZoneMoves::plain(&["place-character", "awaken", "replace"])),
        // The supporter goes down face down (its tag unseen); a face-up card there is gear.
        "support" => Some(ZoneMoves::plain(&["place-gear"])),
        "field" => Some(ZoneMoves::plain(&["place-field"])),
        _ => None,
    }
}
