//! Rockman EXE's mat zones as moves: a card in a square of a player's 3×3 area is transferred,
//! evolved or a style attached onto that square.

use crate::core::Seat;
use crate::sightings::ZoneMoves;
use serde_json::Value;

/// What putting a card into `zone` can mean.
pub(crate) fn zone_moves(zone: &str, seat: Option<Seat>) -> Option<ZoneMoves> {
    let square = rockman_square(zone, seat?)?;
    Some(ZoneMoves {
        kinds: &["transfer", "evolve", "attach-style"],
        fixed: vec![("square", Value::String(square))],
    })
}

/// A Rockman EXE area square from its mat zone `area-r<row>c<col>` (rows 1–3 from the top of the
/// mat; columns 1–3 from the seat's back edge towards the opponent; seat 0 sits at the left
/// edge, seat 1 at the right) as the engine writes it: `lane,rank`, lane 0 at the owner's left,
/// rank 0 at the front.
fn rockman_square(zone: &str, seat: Seat) -> Option<String> {
    let rest = zone.strip_prefix("area-r")?;
    let (r, c) = rest.split_once('c')?;
    let (r, c): (u8, u8) = (r.parse().ok()?, c.parse().ok()?);
    if !(1..=3).contains(&r) || !(1..=3).contains(&c) {
        return None;
    }
    let rank = 3 - c;
    let lane = match seat {
        0 => r - 1,
        1 => 3 - r,
        _ => return None,
    };
    Some(format!("{lane},{rank}"))
}
