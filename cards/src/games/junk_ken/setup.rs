//! Setting a JUNK-KEN match up: the decks built and checked, the side cards set aside.

use super::card::JunkKenCard;
use super::state::*;
use crate::catalogue::{Card, CardData, Catalogue};
use crate::core::GameId;
use crate::decks::{CopyRef, Deck};
use crate::game::{PlayerConfig, SetupError};
use std::collections::BTreeMap;
use std::sync::Arc;

pub(super) fn build_deck(p: &PlayerConfig, rules: &Rules, catalogue: &Catalogue) -> Deck {
    let mut main = Vec::new();
    let mut extra = Vec::new();
    let mut count: BTreeMap<&str, u16> = BTreeMap::new();
    for id in &p.deck {
        let n = count.entry(id.as_str()).or_default();
        *n = n.saturating_add(1);
        let copy = CopyRef {
            card: id.clone(),
            copy: *n,
        };
        if catalogue
            .card(id)
            .and_then(Card::junk_ken)
            .is_some_and(JunkKenCard::is_extra)
        {
            extra.push(copy);
        } else {
            main.push(copy);
        }
    }
    main.sort();
    extra.sort();
    Deck {
        game: GameId::JunkKen,
        set: catalogue.set.id.clone(),
        name: p.deck_name.clone(),
        owner: p.name.clone(),
        variant: rules.draft.then(|| super::deck::DRAFT.to_owned()),
        main,
        extra,
    }
}

pub(super) fn setup(
    players: &[PlayerConfig],
    rules: &Rules,
    catalogue: &Catalogue,
) -> Result<State, SetupError> {
    if players.len() != 2 {
        return Err(SetupError::PlayerCount {
            game: GameId::JunkKen,
            expected: "2".into(),
            got: players.len(),
        });
    }
    let mut cards = BTreeMap::new();
    let mut seats = Vec::new();
    let side = i32::try_from(rules.deck_rules().side_cards).unwrap_or(1);
    for p in players {
        for id in &p.deck {
            let Some(Card {
                name_ja,
                name_en,
                text,
                data: CardData::JunkKen(data),
                ..
            }) = catalogue.card(id)
            else {
                return Err(SetupError::UnknownCard {
                    player: p.name.clone(),
                    card: id.clone(),
                    catalogue: catalogue.set.id.clone(),
                });
            };
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
        let deck = build_deck(p, rules, catalogue);
        if rules.check_decks {
            let violations = super::deck::check_deck(&deck, catalogue);
            if !violations.is_empty() {
                return Err(SetupError::IllegalDeck {
                    player: p.name.clone(),
                    violations,
                });
            }
        }
        let main = i32::try_from(deck.main.len()).unwrap_or(0);
        let hand = START_HAND.min(main);
        let side = side.min(main - hand);
        seats.push(PlayerState {
            name: p.name.clone(),
            hand,
            deck: main - hand - side,
            side,
            unplayed: deck.main_ids(),
            extra: deck.extra_ids(),
            graveyard: Vec::new(),
            removed: Vec::new(),
            character: None,
            support: Support::Empty,
            field: None,
            defeated: 0,
            atk_bonus: 0,
            bonuses: Vec::new(),
            set_done: false,
            replacing: false,
            declared_replacement: false,
            thrown: None,
            destroyed_this_turn: false,
            necromancy_ready: false,
            surrendered: false,
        });
    }
    let [a, b]: [PlayerState; 2] = seats.try_into().map_err(|_| SetupError::PlayerCount {
        game: GameId::JunkKen,
        expected: "2".into(),
        got: players.len(),
    })?;
    Ok(State {
        rules: rules.clone(),
        cards: Arc::new(cards),
        players: [a, b],
        table: Table {
            turn: 1,
            step: Step::Set,
            dice: Vec::new(),
            next_die: 0,
            last_janken: None,
        },
    })
}
