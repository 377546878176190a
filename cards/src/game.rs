//! The contract every game module fulfils, and the match configuration they share.

use crate::catalogue::Catalogue;
use crate::core::{
    Decision, GameId, Impossible, MatchCtx, Outcome, Prompt, Roll, Tracker, TrackerId, Violation,
};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt::Debug;

/// One player of a match as entered at the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerConfig {
    /// The name shown at the table.
    pub name: String,
    /// Where the deck came from, e.g. `jaken-demo/lantern`.
    pub deck_name: String,
    /// Card ids of the deck, one per physical copy.
    pub deck: Vec<String>,
}

/// Everything needed to set a match up; stored as the match's header. Read strictly (an unknown
/// field is refused with its name) through [`HeaderRecord`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(from = "HeaderRecord")]
pub struct MatchHeader {
    /// The game.
    pub game: GameId,
    /// The catalogue (set id) the decks' card ids refer to.
    pub catalogue: String,
    /// Players by seat.
    pub players: Vec<PlayerConfig>,
    /// The game's house rules as JSON; missing keys take the rules digest's defaults.
    #[serde(default)]
    pub rules: serde_json::Value,
}

/// The stored form of a [`MatchHeader`]: its fields, and the card library's version of the set
/// (`catalogue_version`), which the app's store writes beside them and reads itself; nothing
/// else is taken.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaderRecord {
    game: GameId,
    catalogue: String,
    players: Vec<PlayerConfig>,
    #[serde(default)]
    rules: serde_json::Value,
    #[serde(default, rename = "catalogue_version")]
    _catalogue_version: Option<String>,
}

impl From<HeaderRecord> for MatchHeader {
    fn from(r: HeaderRecord) -> Self {
        MatchHeader {
            game: r.game,
            catalogue: r.catalogue,
            players: r.players,
            rules: r.rules,
        }
    }
}

impl MatchHeader {
    /// A header for `game` with the house rules' defaults, each player (by name) bringing one of
    /// the catalogue's ready-made decks (by id).
    pub fn with_ready_made_decks(
        game: GameId,
        catalogue: &Catalogue,
        names: &[&str],
        decks: &[&str],
    ) -> Result<MatchHeader, SetupError> {
        let mut players = Vec::new();
        for (name, deck) in names.iter().zip(decks) {
            let list = catalogue
                .deck(deck)
                .ok_or_else(|| SetupError::UnknownCard {
                    player: (*name).to_owned(),
                    card: format!("deck {deck}"),
                    catalogue: catalogue.set.id.clone(),
                })?;
            players.push(PlayerConfig {
                name: (*name).to_owned(),
                deck_name: format!("{}/{}", catalogue.set.id, list.id),
                deck: list.cards.clone(),
            });
        }
        Ok(MatchHeader {
            game,
            catalogue: catalogue.set.id.clone(),
            players,
            rules: serde_json::Value::Null,
        })
    }
}

/// Why a match could not be set up.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SetupError {
    /// The game needs another number of players.
    #[error("{game} is played by {expected} players, not {got}")]
    PlayerCount {
        /// The game.
        game: GameId,
        /// What the game allows, e.g. "2".
        expected: String,
        /// How many were entered.
        got: usize,
    },
    /// A deck names a card the catalogue does not have.
    #[error("{player}'s deck names card `{card}`, which is not in catalogue {catalogue}")]
    UnknownCard {
        /// The player.
        player: String,
        /// The card id.
        card: String,
        /// The catalogue's set id.
        catalogue: String,
    },
    /// A deck breaks the game's construction rules.
    #[error("{player}'s deck breaks the deck rules: {}", .violations.iter().map(|v| v.sentence.clone()).collect::<Vec<_>>().join(" "))]
    IllegalDeck {
        /// The player.
        player: String,
        /// Each broken rule.
        violations: Vec<Violation>,
    },
    /// The house rules could not be read.
    #[error("house rules: {0}")]
    Rules(String),
    /// The catalogue is for another game.
    #[error("catalogue {catalogue} is for {found}, not {expected}")]
    WrongCatalogue {
        /// The catalogue's set id.
        catalogue: String,
        /// The game the match is for.
        expected: GameId,
        /// The catalogue's game.
        found: GameId,
    },
}

/// A game's rules, shaped after shakmaty: pure functions of the state.
///
/// `decide` holds all rule logic and never changes anything; `apply` changes the state by one
/// event and holds no logic, so a match is exactly the fold of its events.
pub trait Game: 'static {
    /// Which game this is.
    const ID: GameId;
    /// The game's own state (beside the game-agnostic [`MatchCtx`] it can produce).
    type State: Clone + Debug + PartialEq + Serialize + Send;
    /// A move at the table.
    type Move: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send;
    /// One change of state.
    type Event: Clone + Debug + PartialEq + Send;
    /// House rules: each gap of the rules digest that players could settle differently.
    type Rules: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned + Send;

    /// The state at the start of a match.
    fn setup(
        players: &[PlayerConfig],
        rules: &Self::Rules,
        catalogue: &Catalogue,
    ) -> Result<Self::State, SetupError>;
    /// The events a move causes and the rules it breaks.
    fn decide(state: &Self::State, mv: &Self::Move) -> Result<Decision<Self::Event>, Impossible>;
    /// Applies one event. No logic.
    fn apply(state: &mut Self::State, event: &Self::Event);
    /// Players, turn, phase, active player and open prompts.
    fn context(state: &Self::State) -> MatchCtx;
    /// The result, once the match is over.
    fn outcome(state: &Self::State) -> Option<Outcome>;
    /// Every number the table keeps, each adjustable by hand.
    fn trackers(state: &Self::State) -> Vec<Tracker>;
    /// The events that set a tracker to a value (a manual correction).
    fn adjust(
        state: &Self::State,
        tracker: &TrackerId,
        value: i32,
    ) -> Result<Vec<Self::Event>, Impossible>;
    /// The open prompts for dice, oldest first (a die answers the first one it fits).
    fn die_prompts(state: &Self::State) -> Vec<Prompt> {
        let mut prompts = Self::context(state).prompts;
        prompts.retain(|p| matches!(p.kind, crate::core::PromptKind::Die { .. }));
        prompts
    }
    /// The events a die causes when it answers an open die prompt.
    fn fulfil(
        state: &Self::State,
        prompt: &Prompt,
        roll: &Roll,
    ) -> Result<Vec<Self::Event>, Impossible>;
    /// Moves worth offering now (the UI's buttons); the match layer keeps those that break no rule.
    fn candidate_moves(state: &Self::State) -> Vec<Self::Move>;
    /// A short sentence for a move, for buttons and the log.
    fn describe(state: &Self::State, mv: &Self::Move) -> String;
}

/// Implements [`Game`] for a game whose folder is laid out the usual way: `State`, `Move`,
/// `Event` and `Rules` in scope, and `setup::setup`, `decide::decide`, `apply::apply` and in
/// `view` the rest of the trait's functions (`context`, `outcome`, `trackers`, `adjust`,
/// `die_prompts`, `fulfil`, `candidate_moves`, `describe`). Used in a game's `mod.rs`:
/// `game_from_folder!(Jaken, GameId::Jaken);`.
macro_rules! game_from_folder {
    ($game:ty, $id:expr) => {
        impl $crate::game::Game for $game {
            const ID: $crate::core::GameId = $id;
            type State = State;
            type Move = Move;
            type Event = Event;
            type Rules = Rules;

            fn setup(
                players: &[$crate::game::PlayerConfig],
                rules: &Rules,
                catalogue: &$crate::catalogue::Catalogue,
            ) -> Result<State, $crate::game::SetupError> {
                setup::setup(players, rules, catalogue)
            }
            fn decide(
                state: &State,
                mv: &Move,
            ) -> Result<$crate::core::Decision<Event>, $crate::core::Impossible> {
                decide::decide(state, mv)
            }
            fn apply(state: &mut State, event: &Event) {
                apply::apply(state, event)
            }
            fn context(state: &State) -> $crate::core::MatchCtx {
                view::context(state)
            }
            fn outcome(state: &State) -> Option<$crate::core::Outcome> {
                view::outcome(state)
            }
            fn trackers(state: &State) -> Vec<$crate::core::Tracker> {
                view::trackers(state)
            }
            fn adjust(
                state: &State,
                tracker: &$crate::core::TrackerId,
                value: i32,
            ) -> Result<Vec<Event>, $crate::core::Impossible> {
                view::adjust(state, tracker, value)
            }
            fn die_prompts(state: &State) -> Vec<$crate::core::Prompt> {
                view::die_prompts(state)
            }
            fn fulfil(
                state: &State,
                prompt: &$crate::core::Prompt,
                roll: &$crate::core::Roll,
            ) -> Result<Vec<Event>, $crate::core::Impossible> {
                view::fulfil(state, prompt, roll)
            }
            fn candidate_moves(state: &State) -> Vec<Move> {
                view::candidate_moves(state)
            }
            fn describe(state: &State, mv: &Move) -> String {
                view::describe(state, mv)
            }
        }
    };
}
pub(crate) use game_from_folder;

#[cfg(test)]
mod header_tests {
    use super::*;

    #[test]
    fn a_stored_header_with_its_catalogue_version_reads_and_a_misspelt_field_is_refused() {
        let stored =
            r#"{"game":"jaken","catalogue":"jaken-demo","players":[],"catalogue_version":"ab12"}"#;
        let h: MatchHeader = serde_json::from_str(stored).expect("the store's own header reads");
        assert_eq!(h.catalogue, "jaken-demo");
        let typo = r#"{"game":"jaken","catalogue":"jaken-demo","players":[],"rulez":{}}"#;
        let e = serde_json::from_str::<MatchHeader>(typo)
            .unwrap_err()
            .to_string();
        assert!(e.contains("rulez"), "{e}");
    }
}
