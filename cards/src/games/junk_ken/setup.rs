//! Setting a JUNK-KEN match up: the decks built and checked, the side cards set aside.

use super::card::JunkKenCard;
use super::state::*;
use crate::catalogue::{Card, Catalogue};
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
    let drafting = !rules.draft_pool.0.is_empty() || rules.draft_carry.is_some();
    for p in players {
        for id in &p.deck {
            let Some(info) = card_info(catalogue, id) else {
                return Err(SetupError::UnknownCard {
                    player: p.name.clone(),
                    card: id.clone(),
                    catalogue: catalogue.set.id.clone(),
                });
            };
            cards.insert(id.clone(), info);
        }
        let deck = build_deck(p, rules, catalogue);
        if rules.check_decks && !drafting {
            let violations = super::deck::check_deck(&deck, catalogue);
            if !violations.is_empty() {
                return Err(SetupError::IllegalDeck {
                    player: p.name.clone(),
                    violations,
                });
            }
        }
        seats.push(seat_state(
            p.name.clone(),
            deck.main_ids(),
            deck.extra_ids(),
            rules,
        ));
    }
    // A draft's players bring no decks (refused otherwise): their seats above are empty until
    // the decks are built from the holdings.
    let draft = super::draft::setup(players, rules, catalogue, &mut cards)?;
    let [a, b]: [PlayerState; 2] = seats.try_into().map_err(|_| SetupError::PlayerCount {
        game: GameId::JunkKen,
        expected: "2".into(),
        got: players.len(),
    })?;
    let step = draft.as_ref().map_or(Step::Set, |d| {
        if d.winner.is_some() {
            Step::Exchange
        } else {
            Step::Purchase
        }
    });
    // The pool and the carried holdings live on in the table's draft; the rules keep the rest.
    let mut rules = rules.clone();
    rules.draft_pool = Default::default();
    rules.draft_carry = None;
    Ok(State {
        rules,
        cards: Arc::new(cards),
        players: [a, b],
        table: Table {
            turn: 1,
            step,
            dice: Vec::new(),
            next_die: 0,
            last_janken: None,
            draft,
        },
    })
}
