//! JUNK-KEN in the window: the generic panel, with the numbers of its hand-entered effects.

use super::generic::game_panel;
use super::spec::{
    Field, GameUi, Start, field, nothing_to_pick, plain_label, plain_steps, plain_turn,
};
use cards::games::junk_ken::JunkKen;
use cards::matches::{AnyMatch, Match};

/// JUNK-KEN's entry in the table of games.
pub(crate) const UI: GameUi = GameUi {
    panel: game_panel,
    label: plain_label,
    turn: plain_turn,
    steps: plain_steps,
    params: &[],
    effect_fields: EFFECT,
    effect_flags: &[],
    picks: &[],
    card_name,
    pickable: nothing_to_pick,
    start: Start::ReadyMade { switches: &[] },
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
    let m = game.as_any().downcast_ref::<Match<JunkKen>>()?;
    m.state()
        .cards
        .get(id)
        .map(|c| (c.name_en.clone(), c.name_ja.clone()))
}
