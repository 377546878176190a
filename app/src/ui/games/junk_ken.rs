//! JUNK-KEN in the window: the generic panel, with the numbers of its hand-entered effects.

use super::generic::GENERIC;
use super::spec::{Field, GameUi, field, state_of};
use cards::games::junk_ken::JunkKen;
use cards::matches::AnyMatch;

/// JUNK-KEN's entry in the table of games.
pub(crate) const UI: GameUi = GameUi {
    effect_fields: EFFECT,
    card_name,
    tracker_ja,
    rules: super::spec::rules_check::<JunkKen>(),
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

/// The Japanese captions of JUNK-KEN's numbers without a Japanese label of their own.
fn tracker_ja(name: &str) -> Option<&'static str> {
    Some(match name {
        "turn" => "ターン",
        "rotation" => "時計回りの回転(°)",
        "gear" => "ギア耐久ダイス",
        "field" => "フィールドのカウントダウンダイス",
        "defeated" => "倒されたキャラクター",
        "atk-bonus" => "攻撃ボーナス(+1攻撃効果)",
        "turns-in-zone" => "バトルゾーンにいるターン数",
        "bullet" => "バレットカウンター",
        "dice-skill" => "ダイススキル オン(1)/オフ(0)",
        "supporter-age" => "サポーター: 終えたじゃんけんフェイズ",
        _ => return None,
    })
}
