//! Space Junk's mat zones as moves: a junk card in a slot of a ship is equipped there.

use crate::core::Seat;
use crate::sightings::ZoneMoves;
use serde_json::Value;

/// What putting a card into `zone` can mean.
pub(crate) fn zone_moves(zone: &str, _seat: Option<Seat>) -> Option<ZoneMoves> {
    let space = match zone {
        "fuselage" => Value::String("fuselage".into()),
        "move-1" => Value::from(1),
        "move-2" => Value::from(2),
        "attack-1" => Value::from(3),
        "attack-2" => Value::from(4),
        "search-1" => Value::from(5),
        "search-2" => Value::from(6),
        "cargo" => return Some(ZoneMoves::plain(&["unequip"])),
        _ => return None,
    };
    Some(ZoneMoves {
        kinds: &["equip"],
        fixed: vec![("space", space)],
    })
}
