//! Rockman EXE's deck construction rules.

use super::card::*;
use crate::catalogue::Catalogue;
use crate::core::Violation;
use crate::decks::{Deck, unknown_variant};
use std::collections::BTreeMap;

const REF_SIZE: &str =
    "House rule: the rulebook does not settle this; the app's default, which the table may change";
const REF_NAVI: &str = "転送フェイズ キャラ（ナビかウイルス）";
const REF_EXTRA: &str =
    "House rule: the rulebook does not settle this; the app's default, which the table may change";

/// Checks a deck against the Rockman EXE construction rules (`Deck::check` has already checked
/// the game, the set and that every card exists). One violation per broken rule:
///
/// - `rockman-exe.deck-size`: exactly 30 cards, the opening navi included.
/// - `rockman-exe.deck-navi`: at least one navi, for the centre square at the start.
/// - `rockman-exe.deck-extra`: no extra deck.
/// - `deck.variant`: the game has no construction variants (the optional rules Lv1–Lv3 are
///   chosen for the match, not the deck).
///
/// There is no copy limit and no other composition rule (rules digest §10 gap 3), and no fixed
/// per-navi deck lists: the seed and the digest describe only free 30-card decks.
pub fn check_deck(deck: &Deck, catalogue: &Catalogue) -> Vec<Violation> {
    let mut v = Vec::new();
    if let Some(variant) = &deck.variant {
        v.push(unknown_variant(deck.game, variant, &[]));
    }
    let n = deck.main.len();
    if n != DECK_SIZE {
        let (fix, fix_ja) = if n < DECK_SIZE {
            (
                format!("add {}", DECK_SIZE - n),
                format!("あと{}枚入れてください", DECK_SIZE - n),
            )
        } else {
            (
                format!("remove {}", n - DECK_SIZE),
                format!("{}枚抜いてください", n - DECK_SIZE),
            )
        };
        v.push(Violation::new(
            "rockman-exe.deck-size",
            format!(
                "A Rockman EXE deck has exactly {DECK_SIZE} cards, the opening navi included; this one has {n} ({fix})."
            ),
            REF_SIZE,
        )
        .ja(format!(
            "ロックマンエグゼのデッキは最初のナビを含めてちょうど{DECK_SIZE}枚です。このデッキは{n}枚です({fix_ja})。"
        )));
    }
    let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
    let mut kinds_ja: BTreeMap<&str, usize> = BTreeMap::new();
    for c in &deck.main {
        let card = catalogue.card(&c.card).and_then(|card| card.rockman());
        *kinds
            .entry(card.map_or("unknown", RockmanCard::kind))
            .or_default() += 1;
        *kinds_ja
            .entry(card.map_or("不明", RockmanCard::kind_ja))
            .or_default() += 1;
    }
    if !kinds.contains_key("navi") {
        let has: Vec<String> = kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let has = if has.is_empty() {
            "no cards".to_owned()
        } else {
            has.join(", ")
        };
        let has_ja: Vec<String> = kinds_ja.iter().map(|(k, n)| format!("{k}{n}枚")).collect();
        let has_ja = if has_ja.is_empty() {
            "カードなし".to_owned()
        } else {
            has_ja.join("、")
        };
        v.push(Violation::new(
            "rockman-exe.deck-navi",
            format!(
                "A deck needs at least one navi (ナビ) to stand on the centre square of its area at the start; this one has none ({has})."
            ),
            REF_NAVI,
        )
        .ja(format!(
            "最初にエリアの中央のマスに立つナビが、デッキに少なくとも1枚必要です。このデッキにはありません({has_ja})。"
        )));
    }
    if !deck.extra.is_empty() {
        let copies: Vec<String> = deck.extra.iter().map(ToString::to_string).collect();
        v.push(Violation::new(
            "rockman-exe.deck-extra",
            format!(
                "A Rockman EXE deck has no extra deck; move these {} into the main deck or leave them out: {}.",
                if copies.len() == 1 { "card" } else { "cards" },
                copies.join(", ")
            ),
            REF_EXTRA,
        )
        .ja(format!(
            "ロックマンエグゼのデッキにエクストラデッキはありません。次のカードは山札に入れるか外してください: {}。",
            copies.join(", ")
        )));
    }
    v
}
