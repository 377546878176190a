//! ロックマンエグゼカードゲーム (the Rockman EXE card game): a 2-player grid battle for HP.
//!
//! Follows `rules/rockman-exe.md` and its seed `001_8d4fd42f2dd1e88a.txt` (the seed wins where they
//! disagree). Setup: each player puts an opening navi from the deck on the centre square of their
//! area; janken decides the first turn. Each turn runs ORDER (lower HP first, then fewer cards in
//! area + chip zone, then janken) → DRAW (up to 5; an empty deck costs 30 HP and the discard pile
//! becomes the deck) → TRANSFER (first, then second player: ≤ 1 character, ≤ 1 face-down chip,
//! Lv3: ≤ 1 style) → BATTLE (alternating single actions: move, attack, chip, battler, pass; two
//! passes in a row end it) → END (end-phase effects, every character unacted with its damage
//! cleared, one discard-and-refill exchange). A player whose HP gauge reaches 0 loses.
//!
//! Coordinates: each player's area is seen from its owner's seat. A square is `col,row` with
//! `col` 0 at the owner's left and `row` 0 the **front** rank (touching the border with the
//! opponent's area); "up" is towards the opponent. Because the players face each other, column
//! `c` of one area faces column `cols − 1 − c` of the other (a lane runs straight across).
//!
//! The app cannot see hands: it tracks each player's *unplayed* cards (deck, hand and the
//! face-down chips together) with the hand, deck and chip-zone counts, as the Jaken engine does. A
//! card played must be one of the unplayed cards. Printed attack power and target patterns are
//! applied by the app; every other effect is resolved by the players and entered with the
//! `effect` move, which logs what it changed. The game uses no dice.
//!
//! ```
//! use cards::catalogue::Catalogue;
//! use cards::core::GameId;
//! use cards::games::rockman::{demo_header, Move, Rockman, Square};
//! use cards::matches::{Input, Match};
//! let cat = Catalogue::builtin(GameId::RockmanExe).unwrap();
//! let mut m = Match::<Rockman>::new(demo_header(&cat, ["Aki", "Ben"], ["aozora", "kagaribi"]).unwrap(), &cat).unwrap();
//! for mv in [
//!     Move::OpeningNavi { player: 0, card: "RX01".into() },
//!     Move::OpeningNavi { player: 1, card: "RX02".into() },
//!     Move::Janken { winner: 0 },
//! ] {
//!     let p = m.prepare(&Input::Move { mv, override_reason: None }).unwrap();
//!     m.commit(p);
//! }
//! let s = m.state();
//! assert_eq!((s.players[0].hand, s.players[0].deck), (5, 24)); // 30 − navi − 5 drawn
//! assert!(s.at(0, Square::new(1, 1)).is_some()); // the navi on the centre square
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
//! Rules document: `docs/rules-rockman.md`. Catalogue format: `docs/catalogue-rockman-exe.md`.

mod apply;
pub mod card;
#[cfg(test)]
mod catalogue_tests;
mod decide;
pub mod deck;
pub mod demo;
pub mod schema;
mod scratch;
mod setup;
mod sightings;
mod state;
mod view;

pub use state::*;

use crate::catalogue::Catalogue;
use crate::core::GameId;
use crate::game::{MatchHeader, SetupError};
use crate::games::descriptor::{GameDescriptor, ListDeck};

/// The Rockman EXE card game, as the table of games lists it.
pub static GAME: GameDescriptor = GameDescriptor {
    id: GameId::RockmanExe,
    key: "rockman-exe",
    tag_letter: 'R',
    name_en: "Rockman EXE",
    name_ja: "ロックマンエグゼ",
    players: 2..=2,
    demo: schema::DEMO,
    load: schema::load_set,
    card_shape: crate::catalogue::csv::shape_of::<schema::RawRockmanCard>,
    check_deck: deck::check_deck,
    list_deck: ListDeck::PLAIN,
    new_match: crate::matches::new_boxed::<Rockman>,
    zone_moves: sightings::zone_moves,
};

/// A header for a match with decks from a catalogue's ready-made decks.
pub fn demo_header(
    catalogue: &Catalogue,
    names: [&str; 2],
    decks: [&str; 2],
) -> Result<MatchHeader, SetupError> {
    MatchHeader::with_ready_made_decks(GameId::RockmanExe, catalogue, &names, &decks)
}

crate::game::game_from_folder!(Rockman, GameId::RockmanExe);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_and_write_as_col_row() {
        let q: Square = "1,0".parse().unwrap_or(Square::new(9, 9));
        assert_eq!(q, Square::new(1, 0));
        let s: Squares = serde_json::from_str("\"0,0 2,1\"").unwrap_or_default();
        assert_eq!(s.0, vec![Square::new(0, 0), Square::new(2, 1)]);
        assert_eq!(serde_json::to_string(&s).unwrap_or_default(), "\"0,0 2,1\"");
        let c: CardList = serde_json::from_str("\"RX01,RX02\"").unwrap_or_default();
        assert_eq!(c.0, vec!["RX01".to_owned(), "RX02".to_owned()]);
    }

    #[test]
    fn virus_hits_follow_the_seed() {
        // 30/50: 20 is blocked, 30 passes, acted → defence 0.
        assert_eq!(hit_virus(20, 30, false, 0, true), None);
        assert_eq!(hit_virus(30, 30, false, 0, true), Some(30));
        assert_eq!(hit_virus(30, 30, false, 0, false), None);
        assert_eq!(hit_virus(20, 30, true, 30, true), Some(50));
    }

    #[test]
    fn order_follows_hp_then_cards() {
        assert_eq!(order_first([150, 170], [3, 2]), Some(0));
        assert_eq!(order_first([150, 150], [3, 2]), Some(1));
        assert_eq!(order_first([150, 150], [2, 2]), None);
    }
}
