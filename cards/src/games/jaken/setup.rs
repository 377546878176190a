//! Setting a Jaken match up: the decks checked, the hands dealt, battle 1 ready.

use super::deck::check_deck;
use super::state::*;
use crate::catalogue::{Card, Catalogue};
use crate::core::GameId;
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
            game: GameId::Jaken,
            expected: "2".into(),
            got: players.len(),
        });
    }
    let mut cards = BTreeMap::new();
    let mut seats = Vec::new();
    for p in players {
        let violations =
            check_deck(&p.deck, catalogue).map_err(|card| SetupError::UnknownCard {
                player: p.name.clone(),
                card,
                catalogue: catalogue.set.id.clone(),
            })?;
        if !violations.is_empty() {
            return Err(SetupError::IllegalDeck {
                player: p.name.clone(),
                violations,
            });
        }
        for id in &p.deck {
            if let Some(Card {
                name_ja,
                name_en,
                text,
                data: crate::catalogue::CardData::Jaken(data),
                ..
            }) = catalogue.card(id)
            {
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
        }
        let mut unplayed = p.deck.clone();
        unplayed.sort();
        seats.push(PlayerState {
            name: p.name.clone(),
            sb: START_SB,
            hand: START_HAND,
            deck: DECK_SIZE as i32 - START_HAND,
            unplayed,
            trash: Vec::new(),
            bg: None,
            placement: Placement::Empty,
            atk_mod: 0,
            def_mod: 0,
            bg_atk: 0,
            bg_def: 0,
        });
    }
    let [a, b]: [PlayerState; 2] = seats.try_into().map_err(|_| SetupError::PlayerCount {
        game: GameId::Jaken,
        expected: "2".into(),
        got: players.len(),
    })?;
    Ok(State {
        rules: rules.clone(),
        players: [a, b],
        cards: Arc::new(cards),
        turn: 0,
        parent: None,
        step: Step::Janken,
        parent_declared_bg: false,
        pending_effects: Vec::new(),
        last_strike: None,
    })
}
