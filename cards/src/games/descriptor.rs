//! What one game is, in one value: the [`GameDescriptor`] that each game folder exposes as its
//! `GAME`, and that the table of games ([`crate::games`]) lists.
//!
//! The generic parts of the crate (the catalogue loader, decks, tags, the match layer,
//! sightings) know no game: where they need one game's answer they ask the id for its
//! descriptor ([`GameId::descriptor`]) and call what it holds.

pub use crate::catalogue::DemoSet;

use crate::catalogue::csv::Shape;
use crate::catalogue::{Card, Catalogue, CatalogueError, Ctx};
use crate::core::{GameId, Seat, Violation};
use crate::decks::Deck;
use crate::game::{MatchHeader, SetupError};
use crate::matches::AnyMatch;
use crate::sightings::ZoneMoves;
use std::ops::RangeInclusive;

/// Everything the generic parts of the crate need to know of one game.
#[derive(Clone, Debug)]
pub struct GameDescriptor {
    /// Which game.
    pub id: GameId,
    /// The short id used in files, tags and on the command line (`jaken`, `junk-ken`, …).
    pub key: &'static str,
    /// The one-letter code of the game in card tags (`TS1:J:…`).
    pub tag_letter: char,
    /// The game's name in English, as its players know it.
    pub name_en: &'static str,
    /// The game's name in Japanese, as its players know it.
    pub name_ja: &'static str,
    /// How many players a match takes.
    pub players: RangeInclusive<usize>,
    /// The embedded demo catalogue (made for Tableside, not official cards).
    pub demo: DemoSet,
    /// Reads the cards of a catalogue whose head (format, game) names this game; errors name
    /// the file, line, column and field.
    pub(crate) load: fn(&Ctx<'_>) -> Result<Catalogue, CatalogueError>,
    /// The fields of the game's card as a catalogue names them, for the CSV header
    /// ([`crate::catalogue::csv`]).
    pub(crate) card_shape: fn() -> Shape,
    /// The game's deck construction rules, one violation per broken rule (`Deck::check` has
    /// already checked the game, the set and that every card exists).
    pub check_deck: fn(&Deck, &Catalogue) -> Vec<Violation>,
    /// How a ready-made list of the catalogue becomes a deck ([`Deck::from_list`]).
    pub list_deck: ListDeck,
    /// Sets up a match of this game from its header.
    pub new_match: NewMatch,
    /// What putting a card into a zone of the game's mat (on a seat's side) can mean; `None`
    /// for zones whose cards are never a move when they arrive.
    pub zone_moves: fn(&str, Option<Seat>) -> Option<ZoneMoves>,
}

/// A game's match constructor: the match behind the object-safe [`AnyMatch`].
pub type NewMatch = fn(MatchHeader, &Catalogue) -> Result<Box<dyn AnyMatch>, SetupError>;

/// How a ready-made list of a catalogue becomes a deck of physical copies.
#[derive(Clone, Copy, Debug)]
pub struct ListDeck {
    /// True for a card that goes to the extra deck rather than the main deck.
    pub is_extra: fn(&Card) -> bool,
    /// The deck's owner and construction variant, from the list's cards and the owner asked for.
    pub owner: fn(&[&Card], &str) -> (String, Option<String>),
}

impl ListDeck {
    /// Every card in the main deck, the deck the asked owner's, no variant.
    pub const PLAIN: ListDeck = ListDeck {
        is_extra: no_extra,
        owner: owner_as_asked,
    };
}

/// No card goes to an extra deck.
fn no_extra(_: &Card) -> bool {
    false
}

/// The deck is the asked owner's, with no construction variant.
fn owner_as_asked(_: &[&Card], owner: &str) -> (String, Option<String>) {
    (owner.to_owned(), None)
}

/// No zone of the mat makes a move (a game played without the camera's help).
pub fn no_zone_moves(_: &str, _: Option<Seat>) -> Option<ZoneMoves> {
    None
}
