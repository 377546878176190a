//! Jaken's mat zones as moves: a monster turned over in the battle zone is its reveal; a card
//! put into the BG zone is a BG declaration.

use crate::core::Seat;
use crate::sightings::ZoneMoves;

/// What putting a card into `zone` can mean.
pub(crate) fn zone_moves(zone: &str, _seat: Option<Seat>) -> Option<ZoneMoves> {
    match zone {
        "battle" => Some(ZoneMoves::plain(&["reveal"])),
        "bg" => Some(ZoneMoves::plain(&["declare-bg"])),
        _ => None,
    }
}
