//! Jaken's deck construction rules: 15 cards, at most 2 of a name, BG cards of one name.

use super::state::{DECK_SIZE, MAX_COPIES};
use crate::catalogue::{Catalogue, JakenCard};
use crate::core::Violation;
use crate::decks::{Deck, unknown_variant};
use std::collections::BTreeMap;

/// The construction rules of a deck file ([`Deck::check`] has checked the game, the set and
/// that every card exists): no variant, no extra deck, then [`check_deck`].
pub(crate) fn check(deck: &Deck, catalogue: &Catalogue) -> Vec<Violation> {
    let mut v = Vec::new();
    if let Some(variant) = &deck.variant {
        v.push(unknown_variant(deck.game, variant, &[]));
    }
    if !deck.extra.is_empty() {
        v.push(Violation::new(
            "jaken.deck-extra",
            "A Jaken deck has no extra deck.",
            "House rule: the rulebook does not settle this; the app's default, which the table may change",
        )
        .ja("ジャケンのデッキにエクストラデッキはありません。"));
    }
    v.extend(check_deck(&deck.main_ids(), catalogue).unwrap_or_default());
    v
}

/// Checks a deck against the construction rules (15 cards, ≤ 2 per name, one BG name).
pub fn check_deck(deck: &[String], catalogue: &Catalogue) -> Result<Vec<Violation>, String> {
    let mut v = Vec::new();
    if deck.len() != DECK_SIZE {
        v.push(
            Violation::new(
                "jaken.deck-size",
                format!(
                    "A deck has exactly {DECK_SIZE} cards; this one has {}.",
                    deck.len()
                ),
                "① ゲームに必要なもの ■ デッキ「● 1デッキ15枚編成。」",
            )
            .ja(format!(
                "1デッキ{DECK_SIZE}枚編成です。このデッキは{}枚です。",
                deck.len()
            )),
        );
    }
    let mut by_name: BTreeMap<&str, usize> = BTreeMap::new();
    let mut bg_names: Vec<&str> = Vec::new();
    for id in deck {
        let card = catalogue.card(id).ok_or_else(|| id.clone())?;
        *by_name.entry(card.name_ja.as_str()).or_default() += 1;
        if matches!(card.jaken(), Some(JakenCard::BattleGround(_)))
            && !bg_names.contains(&card.name_ja.as_str())
        {
            bg_names.push(card.name_ja.as_str());
        }
    }
    for (name, n) in by_name {
        if n > MAX_COPIES {
            v.push(Violation::new(
                "jaken.deck-copies",
                format!("At most {MAX_COPIES} cards of one name: {name} appears {n} times."),
                "① ゲームに必要なもの ■ デッキ「● 同じ名前のカードは2枚までデッキに入れられる。(イラストや異名、カードナンバーが違っても同じ名前であれば、同じカードとみなします)」",
            )
            .ja(format!(
                "同じ名前のカードは{MAX_COPIES}枚までデッキに入れられます。{name} が{n}枚あります。"
            )));
        }
    }
    if bg_names.len() > 1 {
        bg_names.sort_unstable();
        v.push(Violation::new(
            "jaken.deck-bg",
            format!(
                "A deck holds BG cards of one name only; this one has {}.",
                bg_names.join(", ")
            ),
            "① ゲームに必要なもの ■ デッキ「● フィールドカード(P09)は１つのデッキに１種類しか入れられない。」",
        )
        .ja(format!(
            "フィールドカードは1つのデッキに1種類しか入れられません。このデッキには {} があります。",
            bg_names.join("、")
        )));
    }
    Ok(v)
}
