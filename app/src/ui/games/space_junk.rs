//! Space Junk in the window: the generic panel, with the attack range stepper, the draw picked
//! card by card from the junk deck and the discard pile, the numbers of its hand-entered
//! effects (the character's ability a yes/no), and a character per player on the start form.

use super::generic::GENERIC;
use super::spec::{CardPick, Field, GameUi, Param, Start, field, state_of};
use crate::ui::i18n::Lang;
use cards::core::Seat;
use cards::games::space_junk::SpaceJunk;
use cards::matches::AnyMatch;
use std::collections::BTreeSet;

/// Space Junk's entry in the table of games.
pub(crate) const UI: GameUi = GameUi {
    params: &[Param {
        move_type: "attack",
        key: "range",
        en: "attack range",
        ja: "射程",
    }],
    effect_fields: EFFECT,
    effect_flags: &[field(
        "ability",
        0,
        "the character's ability is used",
        "キャラクター能力を使う",
    )],
    picks: &[CardPick {
        move_type: "draw",
        list: true,
        extra: &[],
        offered: true,
        en: "draws",
        ja: "引く",
    }],
    pickable,
    start: Start::Characters,
    headline: "fame",
    confirm: &["no-take"],
    tracker_ja,
    rules: super::spec::rules_check::<SpaceJunk>(),
    ..GENERIC
};

/// The numbers of an `effect` move (docs/rules-space_junk.md).
const EFFECT: &[Field] = &[
    field("fame", 1, "fame", "名声"),
    field("move", 1, "Move", "移動"),
    field("attack", 1, "Attack", "攻撃"),
    field("search", 1, "Search", "探索"),
    field("spaces", 1, "extra spaces flown", "追加の移動マス"),
];

/// The junk deck, then the discard pile, with their labels ("Rubber Duck (SJ76)").
fn pickable(game: &dyn AnyMatch, _: Seat, lang: Lang) -> Vec<(String, String)> {
    let Some(state) = state_of::<SpaceJunk>(game) else {
        return Vec::new();
    };
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for id in state.deck.iter().chain(&state.discard) {
        if seen.insert(id.clone()) {
            let label = state.cards.get(id).map_or_else(
                || id.clone(),
                |c| match lang {
                    Lang::Ja if !c.name_ja.is_empty() => {
                        format!("{}（{}） ({id})", c.name_ja, c.name_en)
                    }
                    _ => format!("{} ({id})", c.name_en),
                },
            );
            out.push((id.clone(), label));
        }
    }
    out
}

/// The Japanese captions of Space Junk's numbers.
fn tracker_ja(name: &str) -> Option<&'static str> {
    Some(match name {
        "round" => "ラウンド",
        "first" => "先手(席)",
        "deck" => "ジャンク山札",
        "discard" => "クーラー(捨て札)",
        "fame" => "名声",
        "move" => "移動",
        "attack" => "攻撃",
        "search" => "探索",
        "ring" => "リング",
        "position" => "位置",
        "orbits" => "周回",
        "cargo" => "貨物室",
        "junk-fame" => "ジャンクの名声",
        "score" => "最終集計",
        _ => return None,
    })
}
