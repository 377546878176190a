//! Setting a Space Junk match up: the characters dealt, the junk deck shuffled in by the table.

use super::card::SpaceJunkCard;
use super::state::*;
use crate::catalogue::{CardData, Catalogue};
use crate::core::{GameId, Violation};
use crate::game::{PlayerConfig, SetupError};
use std::collections::BTreeMap;
use std::sync::Arc;

pub(super) fn setup(
    players: &[PlayerConfig],
    rules: &Rules,
    catalogue: &Catalogue,
) -> Result<State, SetupError> {
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players.len()) {
        return Err(SetupError::PlayerCount {
            game: GameId::SpaceJunk,
            expected: format!("{MIN_PLAYERS}–{MAX_PLAYERS}"),
            got: players.len(),
        });
    }
    rules.check().map_err(SetupError::Rules)?;
    let mut cards = BTreeMap::new();
    let info = |c: &crate::catalogue::Card, data: &SpaceJunkCard| CardInfo {
        name_en: c.name_en.clone(),
        name_ja: c.name_ja.clone(),
        text: c.text.clone(),
        data: data.clone(),
    };
    // Every character of the catalogue can be dealt.
    for c in &catalogue.cards {
        if let CardData::SpaceJunk(data @ SpaceJunkCard::Character(_)) = &c.data {
            cards.insert(c.id.clone(), info(c, data));
        }
    }
    let mut junk: Vec<String> = Vec::new();
    let mut seats = Vec::new();
    let mut dealt: BTreeMap<String, String> = BTreeMap::new();
    for p in players {
        let mut character = None;
        let mut characters = Vec::new();
        for id in &p.deck {
            let card = catalogue.card(id).ok_or_else(|| SetupError::UnknownCard {
                player: p.name.clone(),
                card: id.clone(),
                catalogue: catalogue.set.id.clone(),
            })?;
            match &card.data {
                CardData::SpaceJunk(SpaceJunkCard::Character(c)) => {
                    characters.push(id.clone());
                    character = Some((id.clone(), c.ability_uses));
                }
                CardData::SpaceJunk(data @ SpaceJunkCard::Junk(_)) => {
                    cards.insert(id.clone(), info(card, data));
                    junk.push(id.clone());
                }
                _ => {
                    return Err(SetupError::UnknownCard {
                        player: p.name.clone(),
                        card: id.clone(),
                        catalogue: catalogue.set.id.clone(),
                    });
                }
            }
        }
        if characters.len() > 1 {
            return Err(SetupError::IllegalDeck {
                player: p.name.clone(),
                violations: vec![
                    Violation::new(
                        "space-junk.setup-character",
                        format!(
                            "Each player plays one character; {} lists {}: {}.",
                            p.name,
                            characters.len(),
                            characters.join(", ")
                        ),
                        super::decide::SETUP,
                    )
                    .ja(format!(
                        "キャラクターは1人1枚です。{} には{}枚あります：{}。",
                        p.name,
                        characters.len(),
                        characters.join("、")
                    )),
                ],
            });
        }
        if let Some((id, _)) = &character
            && let Some(other) = dealt.insert(id.clone(), p.name.clone())
        {
            return Err(SetupError::IllegalDeck {
                player: p.name.clone(),
                violations: vec![Violation::new(
                    "space-junk.character-unique",
                    format!(
                        "Character {id} is a single card and already goes to {other}, not also to {}.",
                        p.name
                    ),
                    super::decide::SETUP,
                )
                .ja(format!(
                    "キャラクター {id} は1枚だけで、すでに {other} に配られています（{} には配れません）。",
                    p.name
                ))],
            });
        }
        seats.push(PlayerState {
            name: p.name.clone(),
            ability_uses_left: character.as_ref().and_then(|(_, u)| *u),
            character: character.map(|(id, _)| id),
            fame: 0,
            ring: rules.start_ring,
            position: 0,
            orbits: 0,
            spaces: Default::default(),
            cargo: Vec::new(),
            drawn: Vec::new(),
            modifiers: ShipStats::default(),
        });
    }
    if junk.is_empty() {
        for c in &catalogue.cards {
            if let CardData::SpaceJunk(data @ SpaceJunkCard::Junk(_)) = &c.data {
                cards.insert(c.id.clone(), info(c, data));
                junk.push(c.id.clone());
            }
        }
    }
    junk.sort();
    junk.dedup();
    Ok(State {
        rules: rules.clone(),
        players: seats,
        cards: Arc::new(cards),
        round: 0,
        first: 0,
        step: Step::Setup,
        deck: junk,
        discard: Vec::new(),
        damaged: Vec::new(),
        turn_seat: None,
        boosts: ShipStats::default(),
        attack: None,
        ram: None,
        last_attack: None,
        last_ram: None,
    })
}
