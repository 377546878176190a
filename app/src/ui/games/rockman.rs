//! The Rockman EXE card game in the window: the generic panel, with the attack bonus stepper,
//! the numbers of its hand-entered effects and its optional rules (Lv1–Lv3) on the start form.

use super::generic::GENERIC;
use super::spec::{Field, GameUi, Param, Start, field, state_of};
use cards::games::rockman::Rockman;
use cards::matches::AnyMatch;

/// Rockman EXE's entry in the table of games.
pub(crate) const UI: GameUi = GameUi {
    params: &[Param {
        move_type: "attack",
        key: "bonus",
        en: "attack bonus",
        ja: "攻撃ボーナス",
    }],
    effect_fields: EFFECT,
    card_name,
    start: Start::ReadyMade {
        switches: &SWITCHES,
    },
    tracker_ja,
    rules: super::spec::rules_check::<Rockman>(),
    ..GENERIC
};

/// The optional rules (issue 9: each switchable): the settings key, English, Japanese.
pub(crate) const SWITCHES: [(&str, &str, &str); 4] = [
    (
        "lv1_chip_limit",
        "Lv1: chip level by HP band",
        "Lv1: HP帯によるチップのレベル制限",
    ),
    (
        "lv2_virus_limit",
        "Lv2: virus level by HP band",
        "Lv2: HP帯によるウイルスのレベル制限",
    ),
    (
        "lv2_evolution",
        "Lv2: virus evolution",
        "Lv2: ウイルスの進化",
    ),
    ("lv3_styles", "Lv3: style cards", "Lv3: スタイルカード"),
];

/// The numbers of an `effect` move (docs/rules-rockman.md).
const EFFECT: &[Field] = &[
    field("hp", 10, "own HP gauge", "自分のＨＰ"),
    field("opp_hp", 10, "opponent's HP gauge", "相手のＨＰ"),
    field("draw", 1, "cards drawn", "ドロー"),
];

/// A card's names from the match's card list.
fn card_name(game: &dyn AnyMatch, id: &str) -> Option<(String, String)> {
    state_of::<Rockman>(game)?
        .cards
        .get(id)
        .map(|c| (c.name_en.clone(), c.name_ja.clone()))
}

/// The Japanese captions of Rockman EXE's numbers without a Japanese label of their own.
fn tracker_ja(name: &str) -> Option<&'static str> {
    Some(match name {
        "turn" => "ターン",
        "first" => "先攻(席)",
        "passes" => "連続パス",
        "discard" => "捨札(手で変えない)",
        "chip-level" => "Lv1: チップの最高レベル(HPから)",
        "virus-level" => "Lv2: ウイルスの最高レベル(HPから)",
        _ => return None,
    })
}
