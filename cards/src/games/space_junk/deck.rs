//! Space Junk's shared piles: the junk deck and the character pool.

use super::card::*;
use crate::catalogue::{Card, Catalogue};
use crate::core::Violation;
use crate::decks::{Deck, unknown_variant};
use std::collections::BTreeMap;

/// Which shared pile a deck file describes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pile {
    Junk,
    Characters,
}

/// Checks a Space Junk deck file against the construction rules.
///
/// Space Junk has no personal decks. A deck file describes one of the table's shared piles:
///
/// - no variant: **the junk deck**, shuffled and shared by everyone;
/// - `variant = "characters"`: **the character pool**, dealt one at random to each player.
///
/// Rules (one [`Violation`] each, when broken):
///
/// - `space-junk.deck-owner`: the owner is [`TABLE_OWNER`] (`table`), since no player owns them;
/// - `space-junk.deck-extra`: there is no extra deck;
/// - `space-junk.deck-kind`: the junk deck holds only junk cards, the pool only characters;
/// - `space-junk.deck-unique`: one copy of each card (every junk item is unique);
/// - `space-junk.deck-size`: at least [`MIN_JUNK_DECK`] different junk cards, or at least
///   [`MIN_CHARACTERS`] different characters.
///
/// Any other variant gives only the [`unknown_variant`] violation.
pub fn check_deck(deck: &Deck, catalogue: &Catalogue) -> Vec<Violation> {
    let pile = match deck.variant.as_deref() {
        None => Pile::Junk,
        Some(CHARACTERS_VARIANT) => Pile::Characters,
        Some(other) => return vec![unknown_variant(deck.game, other, &[CHARACTERS_VARIANT])],
    };
    let (what, what_ja, fits): (&str, &str, fn(&SpaceJunkCard) -> bool) = match pile {
        Pile::Junk => ("the shared junk deck", "共有のジャンク山札", |c| {
            c.junk().is_some()
        }),
        Pile::Characters => ("the character pool", "キャラクターの山", |c| {
            c.character().is_some()
        }),
    };
    let mut problems = Vec::new();
    if deck.owner != TABLE_OWNER {
        problems.push(Violation::new(
            "space-junk.deck-owner",
            format!(
                "Space Junk has no personal decks: {what} belongs to the whole table, so register \
                 it with owner \"{TABLE_OWNER}\" (not \"{}\").",
                deck.owner
            ),
            "Setup",
        )
        .ja(format!(
            "スペースジャンクに個人のデッキはありません。{what_ja}はテーブル全員のものなので、所有者 \"{TABLE_OWNER}\" で登録してください(\"{}\" ではなく)。",
            deck.owner
        )));
    }
    if !deck.extra.is_empty() {
        problems.push(Violation::new(
            "space-junk.deck-extra",
            format!(
                "Space Junk has no extra deck: list the {} card(s) under [main].",
                deck.extra.len()
            ),
            "House rule: the rulebook does not settle this; the app's default, which the table may change",
        )
        .ja(format!(
            "スペースジャンクにエクストラデッキはありません。{}枚のカードは [main] に書いてください。",
            deck.extra.len()
        )));
    }
    // Copies per card id of the main deck (sorted by id).
    let mut copies: BTreeMap<&str, usize> = BTreeMap::new();
    for c in &deck.main {
        *copies.entry(c.card.as_str()).or_default() += 1;
    }
    let mut wrong = Vec::new();
    let mut right = 0;
    for id in copies.keys() {
        match catalogue.card(id).and_then(Card::space_junk) {
            Some(card) if fits(card) => right += 1,
            _ => wrong.push(*id),
        }
    }
    if !wrong.is_empty() {
        let (sentence, ja) = match pile {
            Pile::Junk => (
                format!(
                    "The shared junk deck holds only junk cards; characters are dealt from the \
                     character pool (variant \"{CHARACTERS_VARIANT}\"): {}.",
                    wrong.join(", ")
                ),
                format!(
                    "共有のジャンク山札にはジャンクカードだけを入れます。キャラクターはキャラクターの山(種類 \"{CHARACTERS_VARIANT}\")から配ります: {}。",
                    wrong.join(", ")
                ),
            ),
            Pile::Characters => (
                format!(
                    "The character pool holds only character cards; junk cards belong in the \
                     shared junk deck: {}.",
                    wrong.join(", ")
                ),
                format!(
                    "キャラクターの山にはキャラクターカードだけを入れます。ジャンクカードは共有のジャンク山札に入れます: {}。",
                    wrong.join(", ")
                ),
            ),
        };
        problems.push(Violation::new("space-junk.deck-kind", sentence, "Setup").ja(ja));
    }
    let twice: Vec<(&str, usize)> = copies
        .iter()
        .filter(|(_, n)| **n > 1)
        .map(|(id, n)| (*id, *n))
        .collect();
    if !twice.is_empty() {
        let repeated: Vec<String> = twice
            .iter()
            .map(|(id, n)| format!("{id} ({n} copies)"))
            .collect();
        let repeated_ja: Vec<String> = twice.iter().map(|(id, n)| format!("{id}({n}枚)")).collect();
        let (sentence, ja, reference) = match pile {
            Pile::Junk => (
                "Every junk card is unique, so the junk deck holds one copy of each",
                "ジャンクはどれも1点ものなので、ジャンク山札には各カードを1枚ずつ入れます",
                "House rule: the rulebook does not settle this; the app's default (every junk item is unique), which the table may change",
            ),
            Pile::Characters => (
                "Each character is a single card, so the pool holds one copy of each",
                "キャラクターはそれぞれ1枚のカードなので、キャラクターの山には各カードを1枚ずつ入れます",
                "Setup (a random character card each)",
            ),
        };
        problems.push(
            Violation::new(
                "space-junk.deck-unique",
                format!("{sentence}: {}.", repeated.join(", ")),
                reference,
            )
            .ja(format!("{ja}: {}。", repeated_ja.join("、"))),
        );
    }
    match pile {
        Pile::Junk if right < MIN_JUNK_DECK => problems.push(Violation::new(
            "space-junk.deck-size",
            format!(
                "The shared junk deck needs at least {MIN_JUNK_DECK} different junk cards, enough \
                 to fill every space of six ships; this one has {right}."
            ),
            "Game Contents (150+ junk cards)",
        )
        .ja(format!(
            "共有のジャンク山札には、6隻の船のスペースをすべて埋められるよう、異なるジャンクカードが少なくとも{MIN_JUNK_DECK}枚必要です。このデッキは{right}枚です。"
        ))),
        Pile::Characters if right < MIN_CHARACTERS => problems.push(Violation::new(
            "space-junk.deck-size",
            format!(
                "The character pool needs at least {MIN_CHARACTERS} different characters, one for \
                 each player of a full table of six; this one has {right}."
            ),
            "Game Contents (8+ character cards, 6 ship boards)",
        )
        .ja(format!(
            "キャラクターの山には、6人の卓の全員に1枚ずつ配れるよう、異なるキャラクターが少なくとも{MIN_CHARACTERS}枚必要です。このデッキは{right}枚です。"
        ))),
        _ => {}
    }
    problems
}

/// A ready-made list is one of the table's shared piles: owner [`TABLE_OWNER`] whatever owner
/// was asked for, the character pool when it holds characters.
pub(crate) fn list_owner(cards: &[&Card], _owner: &str) -> (String, Option<String>) {
    let characters = cards
        .iter()
        .any(|c| matches!(c.space_junk(), Some(SpaceJunkCard::Character(_))));
    (
        TABLE_OWNER.to_owned(),
        characters.then(|| CHARACTERS_VARIANT.to_owned()),
    )
}
