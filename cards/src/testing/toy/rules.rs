//! Pig's rules: state, moves, events, and the [`Game`] they make.

use crate::catalogue::Catalogue;
use crate::core::{
    Decision, GameId, Impossible, MatchCtx, Outcome, PhaseView, Prompt, PromptKind, Roll, Seat,
    Tracker, TrackerId, Violation,
};
use crate::game::{Game, PlayerConfig, SetupError};
use serde::{Deserialize, Serialize};

/// The toy game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pig;

/// Pig's house rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// The score that wins.
    pub target: i32,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { target: 20 }
    }
}

/// A match of Pig.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct State {
    /// Player names by seat.
    pub players: Vec<String>,
    /// Banked points by seat.
    pub scores: Vec<i32>,
    /// Points rolled this turn, not yet banked.
    pub pot: i32,
    /// Whose turn it is.
    pub active: Seat,
    /// Turn number, from 1.
    pub turn: u32,
    /// True while a die is asked for.
    pub rolling: bool,
    /// The winner, once there is one.
    pub winner: Option<Seat>,
    /// The score that wins.
    pub target: i32,
}

/// A move at the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Move {
    /// The player to act asks to roll the die.
    Roll {
        /// The player.
        player: Seat,
    },
    /// The player to act banks the pot.
    Hold {
        /// The player.
        player: Seat,
    },
}

/// One change of state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A die is asked for.
    Asked,
    /// A face other than 1 joins the pot.
    Added(i32),
    /// A 1: the pot is lost.
    Bust,
    /// The pot is banked by the player to act.
    Banked,
    /// The next player's turn.
    Passed,
    /// A player reached the target.
    Won(Seat),
    /// A number set by hand.
    Set(TrackerId, i32),
}

fn check_seat(state: &State, seat: Seat) -> Result<(), Impossible> {
    if seat < state.players.len() {
        Ok(())
    } else {
        Err(Impossible::new(format!("Pig has no seat {seat}")))
    }
}

impl Game for Pig {
    const ID: GameId = GameId::Toy;
    type State = State;
    type Move = Move;
    type Event = Event;
    type Rules = Rules;

    fn setup(players: &[PlayerConfig], rules: &Rules, _: &Catalogue) -> Result<State, SetupError> {
        let allowed = GameId::Toy.descriptor().players.clone();
        if !allowed.contains(&players.len()) {
            return Err(SetupError::PlayerCount {
                game: GameId::Toy,
                expected: format!("{}–{}", allowed.start(), allowed.end()),
                got: players.len(),
            });
        }
        Ok(State {
            players: players.iter().map(|p| p.name.clone()).collect(),
            scores: vec![0; players.len()],
            pot: 0,
            active: 0,
            turn: 1,
            rolling: false,
            winner: None,
            target: rules.target,
        })
    }

    fn decide(state: &State, mv: &Move) -> Result<Decision<Event>, Impossible> {
        let (player, events) = match mv {
            Move::Roll { player } => (*player, vec![Event::Asked]),
            Move::Hold { player } => {
                let mut events = vec![Event::Banked];
                if state.scores.get(*player).map_or(0, |s| s + state.pot) >= state.target {
                    events.push(Event::Won(*player));
                } else {
                    events.push(Event::Passed);
                }
                (*player, events)
            }
        };
        check_seat(state, player)?;
        let mut violations = Vec::new();
        if player != state.active {
            violations.push(Violation::new(
                "toy.turn",
                format!("It is {}'s turn.", state.players[state.active]),
                "toy rules",
            ));
        } else if state.rolling {
            violations.push(Violation::new(
                "toy.rolling",
                "Roll the die first.",
                "toy rules",
            ));
        }
        Ok(Decision { events, violations })
    }

    fn apply(state: &mut State, event: &Event) {
        match event {
            Event::Asked => state.rolling = true,
            Event::Added(n) => {
                state.rolling = false;
                state.pot += n;
            }
            Event::Bust => {
                state.rolling = false;
                state.pot = 0;
            }
            Event::Banked => {
                if let Some(s) = state.scores.get_mut(state.active) {
                    *s += state.pot;
                }
                state.pot = 0;
            }
            Event::Passed => {
                state.active = (state.active + 1) % state.players.len().max(1);
                state.turn += 1;
            }
            Event::Won(seat) => state.winner = Some(*seat),
            Event::Set(id, value) => match (id.player, id.name.as_ref()) {
                (Some(p), "score") => {
                    if let Some(s) = state.scores.get_mut(p) {
                        *s = *value;
                    }
                }
                _ => state.pot = *value,
            },
        }
    }

    fn context(state: &State) -> MatchCtx {
        let step = format!("{}: roll or hold", state.players[state.active]);
        MatchCtx {
            players: state.players.clone(),
            turn: state.turn,
            phase: PhaseView {
                phases: vec!["turn".into()],
                current: 0,
                step,
                next: "the next player's turn".into(),
            },
            active: state.winner.is_none().then_some(state.active),
            leader: None,
            prompts: if state.rolling {
                vec![Prompt {
                    id: "roll".into(),
                    player: Some(state.active),
                    kind: PromptKind::Die { sides: 6 },
                    text: format!("{}: roll 1d6", state.players[state.active]),
                }]
            } else {
                Vec::new()
            },
        }
    }

    fn outcome(state: &State) -> Option<Outcome> {
        state.winner.map(|winner| Outcome::Win {
            winner,
            reason: format!("{} reached {}", state.players[winner], state.target),
        })
    }

    fn trackers(state: &State) -> Vec<Tracker> {
        let mut out: Vec<Tracker> = state
            .scores
            .iter()
            .enumerate()
            .map(|(seat, &value)| Tracker {
                id: TrackerId::player(seat, "score"),
                label: "score".into(),
                value,
                min: 0,
                max: 999,
            })
            .collect();
        out.push(Tracker {
            id: TrackerId::game("pot"),
            label: "pot".into(),
            value: state.pot,
            min: 0,
            max: 999,
        });
        out
    }

    fn adjust(state: &State, tracker: &TrackerId, value: i32) -> Result<Vec<Event>, Impossible> {
        match (tracker.player, tracker.name.as_ref()) {
            (Some(p), "score") if p < state.players.len() => {
                Ok(vec![Event::Set(tracker.clone(), value)])
            }
            (None, "pot") => Ok(vec![Event::Set(tracker.clone(), value)]),
            _ => Err(Impossible::new(format!("Pig keeps no number `{tracker}`"))),
        }
    }

    fn fulfil(_: &State, _: &Prompt, roll: &Roll) -> Result<Vec<Event>, Impossible> {
        Ok(match roll.value {
            1 => vec![Event::Bust, Event::Passed],
            n => vec![Event::Added(i32::from(n))],
        })
    }

    fn candidate_moves(state: &State) -> Vec<Move> {
        let player = state.active;
        vec![Move::Roll { player }, Move::Hold { player }]
    }

    fn describe(state: &State, mv: &Move) -> String {
        match mv {
            Move::Roll { player } => format!("{} rolls", state.players[*player]),
            Move::Hold { player } => format!("{} holds", state.players[*player]),
        }
    }
}
