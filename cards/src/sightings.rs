//! From a card seen on the mat to a move of the match.
//!
//! Table vision reports that a tagged copy lies in a zone of the mat (named by the game's mat
//! layout, with the seat whose side it is on). [`propose`] turns such a sighting into a move
//! where the phase makes it unambiguous, and into a one-tap question otherwise:
//!
//! - the zone names the kinds of move that put a card there (a monster turned over in Jaken's
//!   battle zone is `reveal`; a card in a Rockman EXE area square is `transfer`, `evolve` or
//!   `attach-style` onto that square; a junk card in a Space Junk slot is `equip` into that slot);
//! - of the moves legal now ([`AnyMatch::actions`]), those of these kinds, for this card, by the
//!   zone's seat and (where the move names one) onto the zone's square or slot are the
//!   candidates;
//! - one candidate is applied; several are offered to the players to pick from; none means the
//!   card's arrival is not a move now (the card was straightened, or the move was already entered
//!   by hand), which is not an error.
//!
//! A copy registered to one player but seen on another player's side is never turned into a
//! move: the players are told instead.
//!
//! ```
//! use cards::catalogue::Catalogue;
//! use cards::core::GameId;
//! use cards::matches::new_match;
//! use cards::script::{Script, run_step};
//! use cards::sightings::{Proposal, Sighting, propose};
//!
//! let script = Script::parse(
//!     "game jaken\nplayer Aki deck=lantern\nplayer Ben deck=gale\n\
//!      move first-parent player=Aki\nmove pass-bg player=Aki\n\
//!      move face-down player=Aki\nmove face-down player=Ben\n",
//! ).unwrap();
//! let catalogue = Catalogue::builtin(GameId::Jaken).unwrap();
//! let mut m = new_match(script.header(&catalogue).unwrap(), &catalogue).unwrap();
//! for (line, step) in &script.steps {
//!     run_step(m.as_mut(), *line, step, &mut |_| Ok(())).unwrap();
//! }
//! // Aki's face-down monster is turned over in his battle zone: that is his reveal.
//! let seen = Sighting { card: "JD01".into(), seat: Some(0), zone: "battle".into(), owner: None };
//! match propose(m.as_ref(), &seen) {
//!     Proposal::Apply(action) => assert_eq!(action.input["move"]["type"], "reveal"),
//!     other => panic!("expected the reveal, got {other:?}"),
//! }
//! ```

use crate::core::{GameId, Seat};
use crate::matches::{Action, AnyMatch};
use serde_json::Value;

/// A tagged copy lying in a zone of the mat, as the tracker reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sighting {
    /// The card's catalogue id.
    pub card: String,
    /// The seat whose side of the mat the zone is on (`None` for a shared zone).
    pub seat: Option<Seat>,
    /// The zone's name in the game's mat layout.
    pub zone: String,
    /// The copy's owner from the registered decks, if it is registered.
    pub owner: Option<String>,
}

/// What a sighting means for the match now.
#[derive(Clone, Debug, PartialEq)]
pub enum Proposal {
    /// Exactly one move fits: apply it.
    Apply(Action),
    /// Several moves fit: the players pick one with a tap (or none).
    Confirm(Vec<Action>),
    /// No move fits now; the text says why, for the log line or a quiet note.
    NoMove(String),
}

/// The kinds of move that put a card into a zone, and the fields the zone fixes.
#[derive(Clone, Debug, PartialEq)]
pub struct ZoneMoves {
    /// Move `type`s (kebab-case, as in the match script).
    pub kinds: &'static [&'static str],
    /// Fields of the move the zone fixes (e.g. Rockman EXE's `square`, Space Junk's `space`).
    pub fixed: Vec<(&'static str, Value)>,
}

/// What putting a card into `zone` (on `seat`'s side) can mean in `game`; `None` for zones
/// whose cards are never a move when they arrive (deck, discard pile, soul count …). Each game
/// says it in its folder (`games/<game>/sightings.rs`), through its descriptor.
pub fn zone_moves(game: GameId, zone: &str, seat: Option<Seat>) -> Option<ZoneMoves> {
    (game.descriptor().zone_moves)(zone, seat)
}

impl ZoneMoves {
    /// Moves of these kinds, the zone fixing no field.
    pub fn plain(kinds: &'static [&'static str]) -> ZoneMoves {
        ZoneMoves {
            kinds,
            fixed: Vec::new(),
        }
    }
}

/// The move a sighting stands for now, if the phase makes it clear; see the module docs.
pub fn propose(m: &dyn AnyMatch, s: &Sighting) -> Proposal {
    let ctx = m.context();
    if let (Some(owner), Some(seat)) = (&s.owner, s.seat) {
        let owner_seat = ctx.players.iter().position(|p| p == owner);
        if owner_seat.is_some_and(|o| o != seat) {
            let side = ctx
                .players
                .get(seat)
                .map_or("another player", String::as_str);
            return Proposal::NoMove(format!(
                "{owner}'s card {} lies on {side}'s side ({}): not taken as a move",
                s.card, s.zone
            ));
        }
    }
    let Some(zm) = zone_moves(m.game(), &s.zone, s.seat) else {
        return Proposal::NoMove(format!(
            "{} in zone {}: a card arriving there is not a move",
            s.card, s.zone
        ));
    };
    let fits = |a: &Action| {
        let Some(mv) = a.input.get("move") else {
            return false;
        };
        let kind = mv.get("type").and_then(Value::as_str).unwrap_or_default();
        if !zm.kinds.contains(&kind) {
            return false;
        }
        let names_card = mv.get("card").and_then(Value::as_str) == Some(s.card.as_str())
            || mv
                .get("cards")
                .and_then(Value::as_array)
                .is_some_and(|cs| cs.iter().any(|c| c.as_str() == Some(s.card.as_str())));
        let by_seat = match (s.seat, mv.get("player").and_then(Value::as_u64)) {
            (Some(seat), Some(p)) => usize::try_from(p).ok() == Some(seat),
            _ => true,
        };
        let fixed = zm
            .fixed
            .iter()
            .all(|(field, want)| mv.get(*field).is_none_or(|got| got == want));
        names_card && by_seat && fixed
    };
    let mut candidates: Vec<Action> = m
        .actions()
        .into_iter()
        .filter(fits)
        .map(|mut a| {
            // A move offered without the square or slot gets the zone's.
            if let Some(mv) = a.input.get_mut("move").and_then(Value::as_object_mut) {
                for (field, value) in &zm.fixed {
                    mv.entry(*field).or_insert_with(|| value.clone());
                }
            }
            a
        })
        .collect();
    match candidates.len() {
        0 => Proposal::NoMove(format!(
            "{} in zone {}: no move puts it there now",
            s.card, s.zone
        )),
        1 => Proposal::Apply(candidates.remove(0)),
        _ => Proposal::Confirm(candidates),
    }
}
