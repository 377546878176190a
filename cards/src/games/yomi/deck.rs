//! Yomi's deck construction rules: one character's fixed deck.

use super::card::*;
use super::schema::{REF_CHARACTER, REF_DECK, describe};
use crate::catalogue::{Card, Catalogue};
use crate::core::{GameId, Violation};
use crate::decks::Deck;
use std::collections::BTreeMap;

/// The character a deck is for: its one character card, else the character most of its cards
/// belong to (ties: the lower id).
fn deck_character<'a>(have: &BTreeMap<&'a str, usize>, cat: &'a Catalogue) -> Option<&'a str> {
    let mut votes: BTreeMap<&str, usize> = BTreeMap::new();
    let mut character_cards = Vec::new();
    for (&id, &n) in have {
        match cat.card(id).and_then(Card::yomi) {
            Some(YomiCard::Character(_)) => {
                character_cards.push(id);
                *votes.entry(id).or_default() += n;
            }
            Some(c) => {
                if let Some(owner) = c.character() {
                    *votes.entry(owner).or_default() += n;
                }
            }
            None => {}
        }
    }
    if let [only] = character_cards.as_slice() {
        return Some(only);
    }
    let best = votes.values().copied().max()?;
    votes
        .into_iter()
        .find(|(_, n)| *n == best)
        .map(|(id, _)| id)
}

fn listing(cat: &Catalogue, counts: &BTreeMap<&str, usize>) -> String {
    counts
        .iter()
        .map(|(id, n)| {
            let name = cat.card(id).map_or_else(|| (*id).to_owned(), describe);
            if *n == 1 {
                name
            } else {
                format!("{name} ×{n}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The same listing in Japanese: `Y01「名前」×2`.
fn listing_ja(cat: &Catalogue, counts: &BTreeMap<&str, usize>) -> String {
    counts
        .iter()
        .map(|(id, n)| {
            let name = cat.card(id).map_or_else(
                || (*id).to_owned(),
                |c| format!("{}「{}」", c.id, c.name_ja),
            );
            if *n == 1 {
                name
            } else {
                format!("{name}×{n}")
            }
        })
        .collect::<Vec<_>>()
        .join("、")
}

/// Checks a deck against Yomi's construction rules: a Yomi deck is exactly one character's fixed
/// deck as listed in the catalogue's `[[decks]]` (its character card once, plus its 54 cards), with
/// nothing in the extra section. Variant `beginner`: the same without the Jokers. One violation per
/// broken rule; an empty list means the deck is legal.
pub fn check_deck(deck: &Deck, catalogue: &Catalogue) -> Vec<Violation> {
    let mut out = Vec::new();
    let beginner = match deck.variant.as_deref() {
        None => false,
        Some(BEGINNER) => true,
        Some(other) => {
            out.push(crate::decks::unknown_variant(
                GameId::Yomi,
                other,
                &[BEGINNER],
            ));
            false
        }
    };
    if !deck.extra.is_empty() {
        let mut extra: BTreeMap<&str, usize> = BTreeMap::new();
        for c in &deck.extra {
            *extra.entry(c.card.as_str()).or_default() += 1;
        }
        out.push(
            Violation::new(
                "yomi.deck-extra",
                format!(
                    "A Yomi deck has no extra section: every card goes in the main deck ({}).",
                    listing(catalogue, &extra)
                ),
                REF_DECK,
            )
            .ja(format!(
                "ヨミのデッキに別枠はありません。すべてのカードは山札に入れます({})。",
                listing_ja(catalogue, &extra)
            )),
        );
    }
    let yomi = |id: &str| catalogue.card(id).and_then(Card::yomi);
    let mut have: BTreeMap<&str, usize> = BTreeMap::new();
    for c in &deck.main {
        *have.entry(c.card.as_str()).or_default() += 1;
    }
    let Some(character) = deck_character(&have, catalogue) else {
        out.push(Violation::new(
            "yomi.deck-character-card",
            "The deck is empty: a Yomi deck is one character's fixed deck, with its character card.",
            REF_CHARACTER,
        )
        .ja("デッキが空です。ヨミのデッキは、キャラクターカードを含む1人のキャラクターの固定デッキです。"));
        return out;
    };
    let character_name = catalogue
        .card(character)
        .map_or(character, |c| c.name_en.as_str());
    let character_ja = catalogue
        .card(character)
        .map_or(character, |c| c.name_ja.as_str());
    let one = |id: &str| {
        catalogue
            .card(id)
            .map_or_else(|| id.to_owned(), |c| format!("{}「{}」", c.id, c.name_ja))
    };
    // Exactly one character card, once.
    let character_cards: BTreeMap<&str, usize> = have
        .iter()
        .filter(|(id, _)| matches!(yomi(id), Some(YomiCard::Character(_))))
        .map(|(id, n)| (*id, *n))
        .collect();
    let problem = match character_cards.len() {
        0 => Some((
            format!(
                "The deck has no character card: add {} once (it gives the starting HP and is set aside at setup).",
                catalogue
                    .card(character)
                    .map_or_else(|| character.to_owned(), describe)
            ),
            format!(
                "デッキにキャラクターカードがありません。{} を1枚入れてください(最初の体力を決め、準備のときに脇に置きます)。",
                one(character)
            ),
        )),
        1 => character_cards.values().next().filter(|n| **n > 1).map(|n| {
            (
                format!(
                    "The deck lists the character card {character} {n} times: it needs it exactly once."
                ),
                format!(
                    "キャラクターカード {character} が{n}枚あります。ちょうど1枚にしてください。"
                ),
            )
        }),
        _ => Some((
            format!(
                "The deck has {} character cards ({}): a Yomi deck is one character's deck, with exactly one character card.",
                character_cards.len(),
                listing(catalogue, &character_cards)
            ),
            format!(
                "デッキにキャラクターカードが{}枚あります({})。ヨミのデッキは1人のキャラクターのデッキで、キャラクターカードはちょうど1枚です。",
                character_cards.len(),
                listing_ja(catalogue, &character_cards)
            ),
        )),
    };
    if let Some((sentence, ja)) = problem {
        out.push(Violation::new("yomi.deck-character-card", sentence, REF_CHARACTER).ja(ja));
    }
    // No cards of another character.
    let foreign: BTreeMap<&str, usize> = have
        .iter()
        .filter(|(id, _)| {
            yomi(id)
                .and_then(YomiCard::character)
                .is_some_and(|o| o != character)
        })
        .map(|(id, n)| (*id, *n))
        .collect();
    if !foreign.is_empty() {
        out.push(Violation::new(
            "yomi.deck-other-character",
            format!(
                "A Yomi deck holds one character's cards only; these are not {character_name}'s: {}.",
                listing(catalogue, &foreign)
            ),
            REF_DECK,
        )
        .ja(format!(
            "ヨミのデッキには1人のキャラクターのカードだけを入れます。次のカードは{character_ja}のものではありません: {}。",
            listing_ja(catalogue, &foreign)
        )));
    }
    // Exactly the fixed deck's cards.
    let fixed = catalogue
        .decks
        .iter()
        .find(|d| d.cards.iter().any(|c| c == character));
    let Some(fixed) = fixed else {
        out.push(Violation::new(
            "yomi.deck-fixed-list",
            format!(
                "The catalogue lists no fixed deck for {character_name} ({character}), so this deck cannot be compared with it."
            ),
            REF_DECK,
        )
        .ja(format!(
            "カタログに{character_ja}({character})の固定デッキがないため、このデッキと比べられません。"
        )));
        return out;
    };
    let is_joker = |id: &str| matches!(yomi(id), Some(YomiCard::Joker(_)));
    let is_character = |id: &str| matches!(yomi(id), Some(YomiCard::Character(_)));
    let mut expected: BTreeMap<&str, usize> = BTreeMap::new();
    for id in &fixed.cards {
        let left_out = is_character(id) || (beginner && is_joker(id));
        if !left_out {
            *expected.entry(id.as_str()).or_default() += 1;
        }
    }
    let mut missing: BTreeMap<&str, usize> = BTreeMap::new();
    for (&id, &n) in &expected {
        let got = have.get(id).copied().unwrap_or(0);
        if got < n {
            missing.insert(id, n - got);
        }
    }
    let mut surplus: BTreeMap<&str, usize> = BTreeMap::new();
    let mut jokers: BTreeMap<&str, usize> = BTreeMap::new();
    for (&id, &n) in &have {
        if is_character(id) || foreign.contains_key(id) {
            continue;
        }
        if beginner && is_joker(id) {
            jokers.insert(id, n);
            continue;
        }
        let want = expected.get(id).copied().unwrap_or(0);
        if n > want {
            surplus.insert(id, n - want);
        }
    }
    if !missing.is_empty() {
        out.push(
            Violation::new(
                "yomi.deck-missing",
                format!(
                    "{character_name}'s deck is fixed ({}); it is missing {}.",
                    fixed.id,
                    listing(catalogue, &missing)
                ),
                REF_DECK,
            )
            .ja(format!(
                "{character_ja}のデッキは固定です({})。足りないカード: {}。",
                fixed.id,
                listing_ja(catalogue, &missing)
            )),
        );
    }
    if !surplus.is_empty() {
        out.push(
            Violation::new(
                "yomi.deck-surplus",
                format!(
                    "{character_name}'s deck is fixed ({}); it has more than the fixed deck: {}.",
                    fixed.id,
                    listing(catalogue, &surplus)
                ),
                REF_DECK,
            )
            .ja(format!(
                "{character_ja}のデッキは固定です({})。固定デッキより多いカード: {}。",
                fixed.id,
                listing_ja(catalogue, &surplus)
            )),
        );
    }
    if !jokers.is_empty() {
        out.push(Violation::new(
            "yomi.deck-beginner-jokers",
            format!(
                "The beginner game is played without Jokers: take out {}.",
                listing(catalogue, &jokers)
            ),
            "House rule: the rulebook does not settle this; the app's default, which the table may change",
        )
        .ja(format!(
            "初心者向けのゲームはジョーカーなしで遊びます。次のカードを抜いてください: {}。",
            listing_ja(catalogue, &jokers)
        )));
    }
    out
}
