//! Yomi in the window: the generic panel, with the power-up, pump, discard and deck search
//! picked card by card from the player's unseen cards, and the numbers of its hand-entered
//! effects.

use super::generic::GENERIC;
use super::spec::{CardPick, Field, GameUi, field, state_of};
use crate::ui::i18n::Lang;
use cards::core::Seat;
use cards::games::yomi::Yomi;
use cards::games::yomi::card::YomiCard;
use cards::matches::AnyMatch;
use std::collections::BTreeSet;

/// Yomi's entry in the table of games.
pub(crate) const UI: GameUi = GameUi {
    effect_fields: EFFECT,
    picks: PICKS,
    card_name,
    family,
    pickable,
    confirm: &["no-card"],
    tracker_ja,
    rules: super::spec::rules_check::<Yomi>(),
    ..GENERIC
};

/// The numbers of an `effect` move (docs/rules-yomi.md).
const EFFECT: &[Field] = &[
    field("hp", 1, "own HP", "自分の体力"),
    field("opp_hp", 1, "opponent's HP", "相手の体力"),
    field("draw", 1, "cards drawn", "ドロー"),
    field("speed", 1, "speed", "速度"),
    field("combo_damage", 1, "combo damage", "コンボダメージ"),
];

/// The moves that name cards.
const PICKS: &[CardPick] = &[
    CardPick {
        move_type: "power-up",
        list: true,
        extra: &[],
        offered: true,
        en: "powers up with",
        ja: "パワーアップに捨てる",
    },
    CardPick {
        move_type: "pump",
        list: true,
        extra: &[],
        offered: true,
        en: "pumps with",
        ja: "パンプに払う",
    },
    CardPick {
        move_type: "discard",
        list: true,
        extra: &[],
        offered: false,
        en: "discards from hand",
        ja: "手札から捨てる",
    },
    CardPick {
        move_type: "search",
        list: false,
        extra: &[("from", "deck")],
        offered: false,
        en: "searches the deck for",
        ja: "山札から探す",
    },
];

/// A card's names from the match's card list.
fn card_name(game: &dyn AnyMatch, id: &str) -> Option<(String, String)> {
    state_of::<Yomi>(game)?
        .cards
        .get(id)
        .map(|c| (c.name_en.clone(), c.name_ja.clone()))
}

/// A move card is offered under its top move's name (the copies differ by rank and suit), a
/// Joker as one.
fn family(game: &dyn AnyMatch, id: &str) -> Option<(String, String)> {
    let card = state_of::<Yomi>(game)?.cards.get(id)?;
    match &card.data {
        YomiCard::Move(m) if !m.top.name_en.is_empty() => {
            Some((m.top.name_en.clone(), m.top.name_ja.clone()))
        }
        YomiCard::Joker(_) => Some(("Joker".to_owned(), "ジョーカー".to_owned())),
        _ => None,
    }
}

/// A player's cards not seen yet (hand and deck), with their labels.
fn pickable(game: &dyn AnyMatch, seat: Seat, lang: Lang) -> Vec<(String, String)> {
    let name = |en: &str, ja: &str, id: &str| match lang {
        Lang::Ja if !ja.is_empty() && ja != en => format!("{ja}（{en}） ({id})"),
        _ if !ja.is_empty() && ja != en => format!("{en} ({ja}) ({id})"),
        _ => format!("{en} ({id})"),
    };
    let Some(state) = state_of::<Yomi>(game) else {
        return Vec::new();
    };
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    if let Some(p) = state.players.get(seat) {
        for id in &p.unseen {
            if seen.insert(id.clone()) {
                let label = state
                    .cards
                    .get(id)
                    .map_or_else(|| id.clone(), |c| name(&c.name_en, &c.name_ja, id));
                out.push((id.clone(), label));
            }
        }
    }
    out
}

/// The Japanese captions of Yomi's numbers without a Japanese label of their own.
fn tracker_ja(name: &str) -> Option<&'static str> {
    Some(match name {
        "turn" => "ターン",
        "discard" => "捨て札",
        "knockdown" => "転倒 (0/1)",
        "combo-points" => "使ったコンボポイント",
        "chain" => "チェインコンボの長さ",
        "aces-owed" => "未解決のエース探索",
        "cancelled" => "ブルーバーストで防いだダメージ",
        _ => return None,
    })
}
