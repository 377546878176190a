//! Setting a Yomi match up: each character's fixed deck checked, the hands dealt.

use super::state::*;
use crate::catalogue::{Card, CardData, Catalogue, YomiCard};
use crate::core::GameId;
use crate::decks::{CopyRef, Deck};
use crate::game::{PlayerConfig, SetupError};
use std::collections::BTreeMap;
use std::sync::Arc;

pub(super) fn setup(
    players: &[PlayerConfig],
    rules: &Rules,
    catalogue: &Catalogue,
) -> Result<State, SetupError> {
    if players.len() != 2 {
        return Err(SetupError::PlayerCount {
            game: GameId::Yomi,
            expected: "2".into(),
            got: players.len(),
        });
    }
    let mut cards = BTreeMap::new();
    let mut seats = Vec::new();
    for p in players {
        let unknown = |card: &str| SetupError::UnknownCard {
            player: p.name.clone(),
            card: card.to_owned(),
            catalogue: catalogue.set.id.clone(),
        };
        let mut copies: BTreeMap<&str, u16> = BTreeMap::new();
        let mut main = Vec::new();
        let mut jokers = 0;
        for id in &p.deck {
            let Some(Card {
                name_ja,
                name_en,
                text,
                data: CardData::Yomi(data),
                ..
            }) = catalogue.card(id)
            else {
                return Err(unknown(id));
            };
            if matches!(data, YomiCard::Joker(_)) {
                jokers += 1;
            }
            let n = copies.entry(id.as_str()).or_default();
            *n += 1;
            main.push(CopyRef {
                card: id.clone(),
                copy: *n,
            });
            cards.insert(
                id.clone(),
                CardInfo {
                    name_ja: name_ja.clone(),
                    name_en: name_en.clone(),
                    text: text.clone(),
                    data: data.clone(),
                },
            );
        }
        main.sort();
        let deck = Deck {
            game: GameId::Yomi,
            set: catalogue.set.id.clone(),
            name: p.deck_name.clone(),
            owner: p.name.clone(),
            variant: (jokers == 0).then(|| super::card::BEGINNER.to_owned()),
            main,
            extra: Vec::new(),
        };
        let violations = super::deck::check_deck(&deck, catalogue);
        if !violations.is_empty() {
            return Err(SetupError::IllegalDeck {
                player: p.name.clone(),
                violations,
            });
        }
        let character = p
            .deck
            .iter()
            .find_map(|id| match catalogue.card(id)?.yomi()? {
                YomiCard::Character(c) => Some((id.clone(), c.clone())),
                _ => None,
            });
        let Some((character_id, ch)) = character else {
            return Err(unknown("(a character card)"));
        };
        let mut unseen: Vec<String> = p
            .deck
            .iter()
            .filter(|id| **id != character_id)
            .cloned()
            .collect();
        unseen.sort();
        let size = unseen.len() as i32;
        let hand = START_HAND.min(size);
        seats.push(PlayerState {
            name: p.name.clone(),
            character: character_id,
            max_hp: i32::from(ch.hp),
            combo_limit: i32::from(ch.combo_points),
            hand_limit: i32::from(ch.hand_limit),
            hp: i32::from(ch.hp),
            hand,
            deck: size - hand,
            unseen,
            discard: Vec::new(),
            table: Vec::new(),
            knocked_down: false,
            play: Play::Empty,
            speed_mod: 0,
            aces_pending: 0,
            escape: Escape::None,
            hits: Vec::new(),
            combo_points: 0,
            chain: 0,
            combat_damage: 0,
            combo_damage: 0,
            cancelled: 0,
            aces_owed: 0,
            last_hit_knockdown: None,
        });
    }
    let [a, b]: [PlayerState; 2] = seats.try_into().map_err(|_| SetupError::PlayerCount {
        game: GameId::Yomi,
        expected: "2".into(),
        got: players.len(),
    })?;
    Ok(State {
        rules: rules.clone(),
        players: [a, b],
        cards: Arc::new(cards),
        turn: 1,
        step: Step::Select,
        combat: None,
        no_card_by: None,
    })
}
