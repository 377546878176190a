//! Yomi (second edition): a 2-player fighting card game played with poker-deck character decks.
//!
//! Follows `rules/yomi.md` (the digest of seed `004_00642bcc7b1b67a6.txt`). Every turn runs the
//! draw phase (1-1 both draw, skipped on turn 1; 1-2 `[Draw Phase]` abilities), the combat phase
//! (2-1 both place a card face down or declare "no card"; 2-2 reveal, extra Aces for multi-Ace
//! supers; 2-3 `[Combat Reveal]`; 2-4 the winner by the combat matrix, lower speed faster; 2-5
//! `[During Combat]`), the escape phase (3-1 the normal-attack draw; 3-2 the loser may put an escape
//! card face down), the combo phase (4-1 the block returns and draws; 4-2 the winner pumps and
//! combos; 4-3 the blue burst; 4-4a damage; 4-4b knockdown) and the power-up phase (5-1 gold burst;
//! 5-2 `[End of Combat]`/`[Full Combo]`; 5-3 the table is discarded; 5-4 chain-combo Aces; 5-5
//! power-ups; 5-6 `[End of Turn]`; 5-7 the hand limit; 5-8 the next turn). A player at 0 HP loses
//! at once; when a deck reaches 0 the lower HP loses (equal: a draw).
//!
//! The app cannot see the hands, so it tracks each player's *unseen* cards (deck and hand
//! together), the hand and deck sizes and the discard pile; a card played must be one of the unseen
//! cards. Ability windows open only when a character or a card on the table has an ability of
//! that timing (house rule `ability_windows`). Written abilities are resolved by the players and
//! entered as `effect` moves (HP, draws, speed, extra combo damage) or `search` moves.
//!
//! ```
//! use cards::catalogue::Catalogue;
//! use cards::core::GameId;
//! use cards::games::yomi::{demo_header, Move, Yomi};
//! use cards::matches::{Input, Match};
//! let cat = Catalogue::builtin(GameId::Yomi).unwrap();
//! let mut m = Match::<Yomi>::new(demo_header(&cat, ["Aki", "Ben"], ["akane", "gou"]).unwrap(), &cat).unwrap();
//! assert_eq!(m.state().players[0].hand, 7);
//! for mv in [Move::FaceDown { player: 0 }, Move::FaceDown { player: 1 }] {
//!     let p = m.prepare(&Input::Move { mv, override_reason: None }).unwrap();
//!     m.commit(p);
//! }
//! assert_eq!(m.state().players[1].hand, 6);
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
//! Rules document: `docs/rules-yomi.md`. Catalogue format: `docs/catalogue-yomi.md`.

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

/// Yomi, as the table of games lists it.
pub static GAME: GameDescriptor = GameDescriptor {
    id: GameId::Yomi,
    key: "yomi",
    tag_letter: 'Y',
    name_en: "Yomi",
    // Yomi has no Japanese edition: its players call it Yomi.
    name_ja: "ヨミ",
    players: 2..=2,
    demo: schema::DEMO,
    load: schema::load_set,
    card_shape: crate::catalogue::csv::shape_of::<schema::RawYomiCard>,
    check_deck: deck::check_deck,
    list_deck: ListDeck::PLAIN,
    new_match: crate::matches::new_boxed::<Yomi>,
    zone_moves: sightings::zone_moves,
};

/// A header for a match with the catalogue's fixed decks.
pub fn demo_header(
    catalogue: &Catalogue,
    names: [&str; 2],
    decks: [&str; 2],
) -> Result<MatchHeader, SetupError> {
    MatchHeader::with_ready_made_decks(GameId::Yomi, catalogue, &names, &decks)
}
crate::game::game_from_folder!(Yomi, GameId::Yomi);

#[cfg(test)]
mod tests {
    use super::card::*;
    use super::scratch::*;
    use super::*;
    use crate::game::Game;

    #[test]
    fn chains_count_normal_attacks_rising_by_one() {
        assert_eq!(chain_length(&[Some(3), Some(4), Some(5)]), 3);
        assert_eq!(chain_length(&[Some(6), Some(4), Some(5)]), 2);
        assert_eq!(chain_length(&[Some(3), None, Some(4)]), 1);
        assert_eq!(chain_length(&[]), 0);
        assert_eq!(
            (1..=7).map(aces_for_chain).collect::<Vec<_>>(),
            vec![0, 0, 1, 2, 3, 4, 4]
        );
        assert_eq!(
            (1..=5).map(aces_for_set).collect::<Vec<_>>(),
            vec![0, 1, 2, 3, 0]
        );
    }

    #[test]
    fn the_combat_matrix_is_symmetric() {
        let cat = match Catalogue::builtin(GameId::Yomi) {
            Ok(c) => c,
            Err(e) => panic!("{e}"),
        };
        let header = match demo_header(&cat, ["A", "B"], ["akane", "gou"]) {
            Ok(h) => h,
            Err(e) => panic!("{e}"),
        };
        let base = match Yomi::setup(&header.players, &Rules::default(), &cat) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        };
        // Akane: 2♠ attack / block, 2♥ dodge, 6♦ throw, Joker; Gou likewise.
        let plays = |x: char| {
            vec![
                None,
                Some((format!("YO-{x}01"), End::Top)),
                Some((format!("YO-{x}01"), End::Bottom)),
                Some((format!("YO-{x}14"), End::Bottom)),
                Some((format!("YO-{x}31"), End::Bottom)),
                Some((format!("YO-{x}53"), End::Top)),
            ]
        };
        for pa in plays('A') {
            for pb in plays('B') {
                let mut s = base.clone();
                for (seat, p) in [(0, &pa), (1, &pb)] {
                    s.players[seat].play = match p {
                        Some((card, end)) => Play::Revealed {
                            card: card.clone(),
                            end: *end,
                        },
                        None => Play::NoCard,
                    };
                }
                let r = combat_report(&s).result;
                s.players.swap(0, 1);
                let flipped = match combat_report(&s).result {
                    CombatResult::Won { winner, by } => CombatResult::Won {
                        winner: other(winner),
                        by,
                    },
                    r => r,
                };
                assert_eq!(r, flipped, "{pa:?} against {pb:?}");
            }
        }
    }
}
