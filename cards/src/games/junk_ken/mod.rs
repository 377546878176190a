//! JUNK-拳 (JUNK-KEN): a 2-player card game built on janken, with dice for HP.
//!
//! Follows `rules/junk-ken.md` (the rules digest) and its seed; `docs/rules-junk_ken.md` says how
//! the app implements every rule and every §10 gap. A turn runs:
//!
//! - **S0 set phase begins** (automatic): Clockwise characters turn 90°; every Dice-rolling skill
//!   asks for its die (the players may skip it when no suitable die is at hand).
//! - **S1 set phase**: each player may place a character (HP die), a supporter face down or a gear
//!   (durability die set to the printed number), a field from the extra deck (countdown die), spend
//!   the field die, awaken (HP re-roll), use Haste; then declares the set phase done.
//! - **J0 janken phase**: replacement may be declared, then both hands are entered; the winner's
//!   hand action (ATK/DRAW/HP) and a matching supporter's action resolve from the card data, damage
//!   before healing. Effects the players resolve by hand are entered as `effect` moves.
//! - **J1 janken phase end** (automatic): field dice −1, supporter ages +1; a declared replacement
//!   swaps the character with a hand card (the HP carries over).
//! - **T0 turn end**: Bullet counters are gained (and may be spent), Necromancy may flip a graveyard
//!   card; then supporters that won with their hand, Haste cards and worn-out gear leave.
//!
//! A player loses when the character to be destroyed has no side card left behind it (the 2nd
//! defeat; the 3rd in the draft); both at once is a draw.
//!
//! The app cannot see hands, so it tracks each player's *unplayed* main-deck cards (deck, hand and
//! side together) and the hand, deck and side sizes; a card played must be one of the unplayed
//! cards. Dice never roll inside the engine: they answer the open die prompts.
//!
//! ```
//! use cards::catalogue::Catalogue;
//! use cards::core::GameId;
//! use cards::games::junk_ken::{demo_header, JunkKen, Move};
//! use cards::matches::{Input, Match};
//! let cat = Catalogue::builtin(GameId::JunkKen).unwrap();
//! let header = demo_header(&cat, ["Aki", "Ben"], ["junk-rush", "clockwork"]).unwrap();
//! let mut m = Match::<JunkKen>::new(header, &cat).unwrap();
//! let mv = Move::PlaceCharacter { player: 0, card: "JK01".into() };
//! let p = m.prepare(&Input::Move { mv, override_reason: None }).unwrap();
//! m.commit(p);
//! assert_eq!(m.state().players[0].hand, 3);
//! assert_eq!(m.context().prompts.iter().filter(|p| p.id.starts_with('d')).count(), 1); // the HP die
//! ```
//!
//! This folder is the whole game. Its rules: `state` (house rules, state, moves and events),
//! `setup` (the match set up), `scratch` (the scratch state a move's steps change), `decide` (the
//! rules: what a move causes and breaks), `apply` (an event applied), `view` (phase bar, prompts,
//! trackers, the moves offered). Its cards: [`card`] (the card types), [`schema`] (reading them
//! from a catalogue), [`deck`] (the deck construction rules); `sightings` (a card seen in a mat
//! zone → the moves it can be); and [`GAME`], its row in the table of games
//! (`cards/src/games/mod.rs`).
//!
//! Rules document: `docs/rules-junk_ken.md`. Catalogue format: `docs/catalogue-junk-ken.md`.

mod apply;
pub mod card;
#[cfg(test)]
mod catalogue_tests;
mod decide;
pub mod deck;
pub mod demo;
pub mod draft;
pub mod schema;
mod scratch;
mod setup;
mod sightings;
mod state;
mod view;

pub use state::*;
pub use view::deck_counts;

use crate::catalogue::Catalogue;
use crate::core::GameId;
use crate::game::{MatchHeader, SetupError};
use crate::games::descriptor::{GameDescriptor, ListDeck};

/// JUNK-KEN, as the table of games lists it.
pub static GAME: GameDescriptor = GameDescriptor {
    id: GameId::JunkKen,
    key: "junk-ken",
    tag_letter: 'K',
    name_en: "JUNK-KEN",
    name_ja: "JUNK-拳",
    players: 2..=2,
    demo: schema::DEMO,
    load: schema::load,
    card_shape: crate::catalogue::csv::shape_of::<schema::RawJunkKenCard>,
    check_deck: deck::check_deck,
    list_deck: ListDeck {
        is_extra: deck::is_extra,
        owner: ListDeck::PLAIN.owner,
    },
    new_match: crate::matches::new_boxed::<JunkKen>,
    zone_moves: sightings::zone_moves,
};

/// A header for a match with decks from a catalogue's ready-made decks.
pub fn demo_header(
    catalogue: &Catalogue,
    names: [&str; 2],
    decks: [&str; 2],
) -> Result<MatchHeader, SetupError> {
    MatchHeader::with_ready_made_decks(GameId::JunkKen, catalogue, &names, &decks)
}

crate::game::game_from_folder!(JunkKen, GameId::JunkKen);
