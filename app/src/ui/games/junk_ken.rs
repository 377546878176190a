//! JUNK-KEN in the window: the generic panel, with the numbers of its hand-entered effects.

use super::generic::GENERIC;
use super::spec::{Field, GameUi, field, state_of};
use cards::games::junk_ken::JunkKen;
use cards::matches::AnyMatch;

/// JUNK-KEN's entry in the table of games.
pub(crate) const UI: GameUi = GameUi {
    effect_fields: EFFECT,
    card_name,
    ..GENERIC
};

/// The numbers of an `effect` move (docs/rules-junk_ken.md).
const EFFECT: &[Field] = &[
    field("damage", 1, "damage to the opponent", "相手へのダメージ"),
    field(
        "self_damage",
        1,
        "damage to own character",
        "自分へのダメージ",
    ),
    field("heal", 1, "HP back", "体力回復"),
    field("draw", 1, "cards drawn", "ドロー"),
];

/// A card's names from the match's card list.
fn card_name(game: &dyn AnyMatch, id: &str) -> Option<(String, String)> {
    state_of::<JunkKen>(game)?
        .cards
        .get(id)
        .map(|c| (c.name_en.clone(), c.name_ja.clone()))
}
