//! The games, one folder each, and the one table that lists them.
//!
//! A game is one folder, `cards/src/games/<game>/`: its rules (state, moves, events,
//! decide/apply, split by concern), its card schema and deck construction rules, its sightings
//! mapping, its demo set and a link to its rules document, all behind one
//! [`GameDescriptor`] (`<game>::GAME`). This file is the table: [`GameId::descriptor`] is the one
//! `match` on [`GameId`] in the crate, and every other part that must tell the games apart
//! (catalogue loading, deck checks, tags, the match constructor, sightings) asks it.
//!
//! To add a game:
//! 1. its variant in [`GameId`] (`cards/src/core.rs`), and, if its cards carry numbers of their
//!    own, its card type in [`crate::catalogue::CardData`];
//! 2. its folder `cards/src/games/<game>/` with a `mod.rs` that implements [`crate::game::Game`]
//!    and exposes `pub static GAME: GameDescriptor`;
//! 3. its row here: in [`GameId::ALL`] and in [`GameId::descriptor`].
//!
//! The app has its own table for what the window shows of each game
//! (`app/src/ui/games/mod.rs`), and `hardware` one for the mat layouts
//! (`hardware/src/vision/mat.rs`).

pub mod descriptor;
pub mod jaken;
pub mod junk_ken;
pub mod rockman;
pub mod space_junk;
pub mod yomi;

pub use descriptor::{DemoSet, GameDescriptor, ListDeck};

use crate::core::GameId;

impl GameId {
    /// Every game, in a stable order.
    pub const ALL: [GameId; 5] = [
        GameId::Jaken,
        GameId::JunkKen,
        GameId::RockmanExe,
        GameId::SpaceJunk,
        GameId::Yomi,
    ];

    /// What the game is and does.
    pub fn descriptor(self) -> &'static GameDescriptor {
        match self {
            GameId::Jaken => &jaken::GAME,
            GameId::JunkKen => &junk_ken::GAME,
            GameId::RockmanExe => &rockman::GAME,
            GameId::SpaceJunk => &space_junk::GAME,
            GameId::Yomi => &yomi::GAME,
            #[cfg(test)]
            GameId::Toy => &crate::testing::toy::GAME,
        }
    }

    /// The short id used in files, tags and on the command line (`jaken`, `junk-ken`, …).
    pub fn as_str(self) -> &'static str {
        self.descriptor().key
    }

    /// Parses the short id.
    pub fn parse(text: &str) -> Option<GameId> {
        GameId::ALL
            .into_iter()
            .chain(TEST_GAMES.iter().copied())
            .find(|g| g.as_str() == text)
    }
}

/// The games only this crate's own tests play.
#[cfg(test)]
const TEST_GAMES: &[GameId] = &[GameId::Toy];
#[cfg(not(test))]
const TEST_GAMES: &[GameId] = &[];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_its_own_descriptor_key_tag_letter_and_demo_set() {
        let games: Vec<GameId> = GameId::ALL
            .into_iter()
            .chain(TEST_GAMES.iter().copied())
            .collect();
        for (i, g) in games.iter().enumerate() {
            let d = g.descriptor();
            assert_eq!(d.id, *g);
            assert_eq!(GameId::parse(d.key), Some(*g));
            // The serialised id is the short id.
            assert_eq!(serde_json::to_value(g).unwrap(), d.key);
            if i < GameId::ALL.len() {
                assert_eq!(
                    crate::catalogue::BUILTIN[i],
                    (d.demo.file, d.demo.text),
                    "{g}"
                );
            }
            for other in &games[..i] {
                assert_ne!(other.descriptor().key, d.key);
                assert_ne!(other.descriptor().tag_letter, d.tag_letter);
            }
        }
    }
}
