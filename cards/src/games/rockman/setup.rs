//! Setting a Rockman EXE match up: the decks checked, the opening navis placed, the hands dealt.

use super::state::*;
use crate::catalogue::{CardData, Catalogue};
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
            game: GameId::RockmanExe,
            expected: "2".into(),
            got: players.len(),
        });
    }
    for (name, v, lo) in [
        ("area_cols", rules.area_cols, 1),
        ("area_rows", rules.area_rows, 1),
        ("starting_hand", rules.starting_hand, 0),
    ] {
        let hi = if name == "starting_hand" {
            HAND_SIZE as u8
        } else {
            MAX_SIDE
        };
        if v < lo || v > hi {
            return Err(SetupError::Rules(format!(
                "{name} must be within {lo}..={hi}, not {v}"
            )));
        }
    }
    let mut cards = BTreeMap::new();
    let mut seats = Vec::new();
    for p in players {
        let mut count: BTreeMap<&str, u16> = BTreeMap::new();
        let mut main = Vec::new();
        for id in &p.deck {
            let Some(card) = catalogue.card(id) else {
                return Err(SetupError::UnknownCard {
                    player: p.name.clone(),
                    card: id.clone(),
                    catalogue: catalogue.set.id.clone(),
                });
            };
            let n = count.entry(id.as_str()).or_default();
            *n = n.saturating_add(1);
            main.push(CopyRef {
                card: id.clone(),
                copy: *n,
            });
            if let CardData::RockmanExe(data) = &card.data {
                cards.insert(
                    id.clone(),
                    CardInfo {
                        name_ja: card.name_ja.clone(),
                        name_en: card.name_en.clone(),
                        text: card.text.clone(),
                        data: data.clone(),
                    },
                );
            }
        }
        main.sort();
        let deck = Deck {
            game: GameId::RockmanExe,
            set: catalogue.set.id.clone(),
            name: p.deck_name.clone(),
            owner: p.name.clone(),
            variant: None,
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
        let mut unplayed = p.deck.clone();
        unplayed.sort();
        seats.push(PlayerState {
            name: p.name.clone(),
            hp: START_HP,
            hand: 0,
            deck: p.deck.len() as i32,
            chips: 0,
            chips_placed_this_turn: 0,
            unplayed,
            discard: Vec::new(),
            area: vec![None; usize::from(rules.area_cols) * usize::from(rules.area_rows)],
            battler: None,
            placed_character: false,
            placed_chip: false,
            attached_style: false,
            passed_out: false,
            exchanged: false,
        });
    }
    let [a, b]: [PlayerState; 2] = seats.try_into().map_err(|_| SetupError::PlayerCount {
        game: GameId::RockmanExe,
        expected: "2".into(),
        got: players.len(),
    })?;
    Ok(State {
        rules: rules.clone(),
        players: [a, b],
        cards: Arc::new(cards),
        turn: 1,
        step: Step::OpeningNavi,
        first: None,
        active: None,
        passes: 0,
        last_attack: None,
    })
}
