//! ジャケン (Jaken): a 2-player, 10-battle duel for soul balls (SB, 魂玉).
//!
//! Follows `rules/jaken.md`. Each battle runs the plan phase (バトルプランフェイズ: the OB is
//! placed, both draw, the parent may declare a BG, the child may counter only then, both place a
//! monster face down), the battle phase (バトルフェイズ: both reveal, effects resolve parent first
//! under their wind conditions 自家/他家/両家, ATK/DEF are compared in both directions and SB move)
//! and the battle end (バトルエンド: the OB passes to the other player). A player at 0 SB loses at
//! once; after battle 10 the player with more SB wins.
//!
//! The app cannot see the players' hands, so it tracks each player's *unplayed* cards (deck and
//! hand together) and the hand and deck sizes; a card revealed must be one of the unplayed cards.
//! Free-text effects are resolved by the players and entered as ATK/DEF (or SB) changes.
//!
//! ```
//! use cards::catalogue::Catalogue;
//! use cards::games::jaken::{demo_header, Jaken, Move};
//! use cards::matches::{Input, Match};
//! let cat = Catalogue::jaken_demo().unwrap();
//! let mut m = Match::<Jaken>::new(demo_header(&cat, ["Aki", "Ben"], ["lantern", "gale"]).unwrap(), &cat).unwrap();
//! for mv in [Move::FirstParent { player: 0 }, Move::PassBg { player: 0 }] {
//!     let p = m.prepare(&Input::Move { mv, override_reason: None }).unwrap();
//!     m.commit(p);
//! }
//! assert_eq!(m.state().players[0].hand, 6); // 5 at setup + the battle-1 draw
//! ```
//!
//! This folder is the whole game. Its rules: `state` (house rules, state, moves and events),
//! `setup` (the match set up), `decide` (the rules: what a move causes and breaks), `apply` (an
//! event applied), `view` (phase bar, prompts, trackers, the moves offered). Its cards: [`card`]
//! (the card types), [`schema`] (reading them from a catalogue), [`deck`] (the deck construction
//! rules); `sightings` (a card seen in a mat zone → the moves it can be); and [`GAME`], its row in
//! the table of games (`cards/src/games/mod.rs`). `game_from_folder!` wires the rules'
//! files to the [`Game`](crate::game::Game) trait.
//!
//! Rules document: the digest `rules/jaken.md`; the app's moves and house rules are in
//! `docs/match-script.md` (Jaken), its refusal rules (rule ids) in `docs/rules-jaken.md`.
//! Catalogue format: `docs/catalogue.md`.

mod apply;
pub mod card;
mod decide;
pub mod deck;
pub mod demo;
pub mod schema;
mod setup;
mod sightings;
mod state;
mod view;

pub use decide::strike;
pub use deck::check_deck;
pub use state::*;

use crate::catalogue::Catalogue;
use crate::core::GameId;
use crate::game::{MatchHeader, SetupError};
use crate::games::descriptor::{DemoSet, GameDescriptor, ListDeck};

/// Jaken, as the table of games lists it.
pub static GAME: GameDescriptor = GameDescriptor {
    id: GameId::Jaken,
    key: "jaken",
    tag_letter: 'J',
    name_en: "Jaken",
    name_ja: "ジャケン",
    players: 2..=2,
    demo: DemoSet {
        file: demo::FILE,
        text: demo::TOML,
    },
    load: schema::load,
    card_shape: crate::catalogue::csv::shape_of::<schema::RawJakenCard>,
    check_deck: deck::check,
    list_deck: ListDeck::PLAIN,
    new_match: crate::matches::new_boxed::<Jaken>,
    zone_moves: sightings::zone_moves,
};

/// A header for a match with decks from a catalogue's ready-made decks.
pub fn demo_header(
    catalogue: &Catalogue,
    names: [&str; 2],
    decks: [&str; 2],
) -> Result<MatchHeader, SetupError> {
    MatchHeader::with_ready_made_decks(GameId::Jaken, catalogue, &names, &decks)
}

crate::game::game_from_folder!(Jaken, GameId::Jaken);
