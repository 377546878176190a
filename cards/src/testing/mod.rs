//! Test support: a stand-in game that only asks for dice, for testing the match layer's dice
//! routing before a game that rolls dice has landed. Built for this crate's tests and, with the
//! `testing` feature, for other crates' tests; never part of the app. In this crate's own tests,
//! [`toy`] is a sixth game, played through the table of games and the script runner.

#[cfg(test)]
pub mod toy;

use crate::catalogue::{Catalogue, SetInfo};
use crate::core::{
    Decision, GameId, Impossible, MatchCtx, Outcome, PhaseView, Prompt, PromptKind, Roll, Tracker,
    TrackerId,
};
use crate::game::{Game, MatchHeader, PlayerConfig, SetupError};
use crate::matches::Match;
use serde::{Deserialize, Serialize};

/// Each [`Ask`] opens a request for 1d6; a die answering it is recorded. (It borrows the Space
/// Junk id only because the match layer needs one; it is not Space Junk.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiceAsker;

/// The stand-in's state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct AskerState {
    /// Requests still open, oldest first.
    pub open: Vec<String>,
    /// Answered requests with the face that answered them.
    pub got: Vec<(String, u8)>,
}

/// Opens a request for 1d6 with this id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ask(pub String);

/// The stand-in's events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AskerEvent {
    /// A request opened.
    Asked(String),
    /// A request answered.
    Got(String, u8),
}

impl Game for DiceAsker {
    const ID: GameId = GameId::SpaceJunk;
    type State = AskerState;
    type Move = Ask;
    type Event = AskerEvent;
    type Rules = ();

    fn setup(_: &[PlayerConfig], _: &(), _: &Catalogue) -> Result<AskerState, SetupError> {
        Ok(AskerState::default())
    }
    fn decide(_: &AskerState, mv: &Ask) -> Result<Decision<AskerEvent>, Impossible> {
        Ok(Decision::legal(vec![AskerEvent::Asked(mv.0.clone())]))
    }
    fn apply(state: &mut AskerState, event: &AskerEvent) {
        match event {
            AskerEvent::Asked(id) => state.open.push(id.clone()),
            AskerEvent::Got(id, v) => {
                state.open.retain(|o| o != id);
                state.got.push((id.clone(), *v));
            }
        }
    }
    fn context(state: &AskerState) -> MatchCtx {
        MatchCtx {
            players: vec!["A".into(), "B".into()],
            turn: 1,
            phase: PhaseView {
                phases: vec!["play".into()],
                current: 0,
                step: String::new(),
                next: String::new(),
            },
            active: None,
            leader: None,
            prompts: state
                .open
                .iter()
                .map(|id| Prompt {
                    id: id.clone(),
                    player: None,
                    kind: PromptKind::Die { sides: 6 },
                    text: format!("roll 1d6 for {id}"),
                })
                .collect(),
        }
    }
    fn outcome(_: &AskerState) -> Option<Outcome> {
        None
    }
    fn trackers(_: &AskerState) -> Vec<Tracker> {
        Vec::new()
    }
    fn adjust(_: &AskerState, _: &TrackerId, _: i32) -> Result<Vec<AskerEvent>, Impossible> {
        Err(Impossible::new("nothing to adjust"))
    }
    fn fulfil(_: &AskerState, prompt: &Prompt, roll: &Roll) -> Result<Vec<AskerEvent>, Impossible> {
        Ok(vec![AskerEvent::Got(prompt.id.clone(), roll.value)])
    }
    fn candidate_moves(_: &AskerState) -> Vec<Ask> {
        Vec::new()
    }
    fn describe(_: &AskerState, mv: &Ask) -> String {
        format!("ask {}", mv.0)
    }
}

/// The empty catalogue the stand-in plays with.
pub fn empty_catalogue() -> Catalogue {
    Catalogue {
        game: GameId::SpaceJunk,
        set: SetInfo {
            id: "none".into(),
            name_en: String::new(),
            name_ja: String::new(),
            demo: true,
            note: String::new(),
            note_ja: String::new(),
        },
        cards: Vec::new(),
        decks: Vec::new(),
    }
}

/// A new match of the stand-in.
pub fn asker_match() -> Result<Match<DiceAsker>, SetupError> {
    let header = MatchHeader {
        game: GameId::SpaceJunk,
        catalogue: "none".into(),
        players: Vec::new(),
        rules: serde_json::Value::Null,
    };
    Match::new(header, &empty_catalogue())
}
