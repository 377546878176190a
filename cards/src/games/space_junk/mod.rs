//! Space Junk: 2–6 contestants of a reality-TV show fly junk-built ships for six rounds of move,
//! attack and search; the most fame wins.
//!
//! Follows `rules/space-junk.md` (the digest) and the seed `002_d5d1b6b368185ac0.txt`; how the app
//! reads each gap is written in `docs/rules-space_junk.md`. Each round runs the move phase (every
//! ship, in turn order from the first player: choose a ring, `*`-Move boosts, move exactly the Move
//! value, +5 fame per orbit, then maybe ram a ship on the same space from round 2), the attack
//! phase (one optional attack each: d6 + Attack + `*` boosts − range, one hit per full 5, +3 fame
//! per hit, one location die per hit), the search phase (draw min(Search, ring limit), discard the
//! damaged cards, rebuild the ship, the rest to cargo) and cameo time; then the first-player marker
//! moves clockwise (to the next seat). After round 6 the fame on every junk card is added; a tie is
//! settled by the best ship each tied player can build from their own junk.
//!
//! The app never rolls: every die is asked for with a prompt and arrives as an input. The junk deck
//! is physical and shuffled, so a draw names the cards drawn; the app checks their number and
//! keeps track of every card (deck, cooler, ships, cargo holds). Character abilities and card texts
//! are resolved by the players and entered with the `effect` move.
//!
//! ```
//! use cards::catalogue::Catalogue;
//! use cards::core::GameId;
//! use cards::games::space_junk::{demo_header, Move, SpaceJunk};
//! use cards::matches::{Input, Match};
//! let cat = Catalogue::builtin(GameId::SpaceJunk).unwrap();
//! let header = demo_header(&cat, &["Aki", "Ben"], &["SJ01", "SJ05"]).unwrap();
//! let mut m = Match::<SpaceJunk>::new(header, &cat).unwrap();
//! for mv in [Move::FirstPlayer { player: 0 }, Move::MoveShip { player: 0, ring: 1, spaces: None }] {
//!     let p = m.prepare(&Input::Move { mv, override_reason: None }).unwrap();
//!     m.commit(p);
//! }
//! assert_eq!(m.state().players[0].position, 3); // the Retired Astronaut has Move 3
//! ```
//!
//! This folder is the whole game. Its rules: `state` (house rules, state, moves and events),
//! `query` (what the rules ask of the state), `setup` (the match set up), `scratch` (the scratch
//! state a move's steps change), `decide` (the rules: what a move causes and breaks), `apply` (an
//! event applied), `view` (phase bar, prompts, trackers, the moves offered). Its cards: [`card`]
//! (the card types), [`schema`] (reading them from a catalogue), [`deck`] (the deck construction
//! rules); `sightings` (a card seen in a mat zone → the moves it can be); and [`GAME`], its row in
//! the table of games (`cards/src/games/mod.rs`). `game_from_folder!` wires the rules'
//! files to the [`Game`](crate::game::Game) trait.
//!
//! Rules document: `docs/rules-space_junk.md`. Catalogue format: `docs/catalogue-space-junk.md`.

mod apply;
pub mod card;
#[cfg(test)]
mod catalogue_tests;
mod decide;
pub mod deck;
pub mod demo;
mod query;
pub mod schema;
mod scratch;
mod setup;
mod sightings;
mod state;
mod view;

pub use state::*;

use crate::catalogue::Catalogue;
use crate::core::GameId;
use crate::game::{MatchHeader, PlayerConfig, SetupError};
use crate::games::descriptor::{GameDescriptor, ListDeck};

/// Space Junk, as the table of games lists it.
pub static GAME: GameDescriptor = GameDescriptor {
    id: GameId::SpaceJunk,
    key: "space-junk",
    tag_letter: 'S',
    name_en: "Space Junk",
    name_ja: "スペースジャンク",
    players: MIN_PLAYERS..=MAX_PLAYERS,
    demo: schema::DEMO,
    load: schema::load,
    card_shape: crate::catalogue::csv::shape_of::<schema::RawSpaceJunkCard>,
    check_deck: deck::check_deck,
    list_deck: ListDeck {
        is_extra: ListDeck::PLAIN.is_extra,
        owner: deck::list_owner,
    },
    new_match: crate::matches::new_boxed::<SpaceJunk>,
    zone_moves: sightings::zone_moves,
};

/// A header for a match of the demo set: players with their characters; the junk deck is every
/// junk card of the catalogue.
pub fn demo_header(
    catalogue: &Catalogue,
    names: &[&str],
    characters: &[&str],
) -> Result<MatchHeader, SetupError> {
    let players = names
        .iter()
        .enumerate()
        .map(|(i, name)| PlayerConfig {
            name: (*name).to_owned(),
            deck_name: "(character)".into(),
            deck: characters
                .get(i)
                .map(|c| vec![(*c).to_owned()])
                .unwrap_or_default(),
        })
        .collect();
    Ok(MatchHeader {
        game: GameId::SpaceJunk,
        catalogue: catalogue.set.id.clone(),
        players,
        rules: serde_json::Value::Null,
    })
}

crate::game::game_from_folder!(SpaceJunk, GameId::SpaceJunk);

#[cfg(test)]
mod tests {
    use super::card::*;
    use super::scratch::*;
    use super::*;
    use crate::game::Game;

    fn state(players: usize) -> State {
        let cat = match Catalogue::builtin(GameId::SpaceJunk) {
            Ok(c) => c,
            Err(e) => unreachable!("demo set: {e}"),
        };
        let names = ["A", "B", "C", "D", "E", "F"];
        let chars = ["SJ01", "SJ02", "SJ03", "SJ04", "SJ05", "SJ06"];
        let header = match demo_header(&cat, &names[..players], &chars[..players]) {
            Ok(h) => h,
            Err(e) => unreachable!("{e}"),
        };
        match SpaceJunk::setup(&header.players, &Rules::default(), &cat) {
            Ok(s) => s,
            Err(e) => unreachable!("{e}"),
        }
    }

    #[test]
    fn spaces_read_numbers_and_fuselage() {
        let s: Space = serde_json::from_str("3").unwrap_or(Space::Fuselage);
        assert_eq!(s, Space::Slot(3));
        assert_eq!(s.kind(), Slot::Attack);
        let f: Space = serde_json::from_str("\"fuselage\"").unwrap_or(Space::Slot(1));
        assert_eq!(f, Space::Fuselage);
        assert!(serde_json::from_str::<Space>("7").is_err());
        assert_eq!(
            serde_json::to_string(&Space::Slot(5)).ok().as_deref(),
            Some("5")
        );
    }

    #[test]
    fn a_card_list_reads_a_text_or_an_array() {
        let a: Move = serde_json::from_str(r#"{"type":"draw","player":0,"cards":"SJ10, SJ11"}"#)
            .unwrap_or(Move::EndRound {});
        let b: Move = serde_json::from_str(r#"{"type":"draw","player":0,"cards":["SJ10","SJ11"]}"#)
            .unwrap_or(Move::EndRound {});
        assert_eq!(a, b);
        assert!(matches!(a, Move::Draw { ref cards, .. } if cards.len() == 2));
    }

    #[test]
    fn orbit_fame_counts_each_pass_of_the_start_line() {
        // §11 #7: L = 16, position 12, Move 6 → position 2, one orbit.
        let mut s = state(2);
        s.players[0].position = 12;
        let mut b = Builder::new(&s);
        b.fly(0, 1, 6);
        assert_eq!(
            (b.state.players[0].position, b.state.players[0].orbits),
            (2, 1)
        );
        assert_eq!(b.state.players[0].fame, 5);
        let mut b = Builder::new(&s);
        b.fly(0, 1, 22);
        assert_eq!(
            (b.state.players[0].position, b.state.players[0].orbits),
            (2, 2)
        );
        assert_eq!(b.state.players[0].fame, 10);
    }

    #[test]
    fn going_outward_takes_the_spot_further_back() {
        // Inner ring 16, middle 24: position 5 of 16 maps to 7.5 → 7 of 24.
        let mut s = state(2);
        s.players[0].position = 5;
        let mut b = Builder::new(&s);
        b.fly(0, 2, 0);
        assert_eq!(
            (b.state.players[0].ring, b.state.players[0].position),
            (2, 7)
        );
    }
}
