//! The scratch copy of the state a Space Junk move changes, so that later steps of one move see
//! earlier ones.

use super::card::Stat;
use super::state::*;
use crate::core::{Decision, Seat, Violation};
use crate::game::Game;

/// Runs events on a scratch copy so that later steps of one move see earlier ones.
pub(super) struct Builder {
    pub(super) state: State,
    pub(super) events: Vec<Event>,
}

impl Builder {
    pub(super) fn new(state: &State) -> Self {
        Builder {
            state: state.clone(),
            events: Vec::new(),
        }
    }

    pub(super) fn push(&mut self, event: Event) {
        SpaceJunk::apply(&mut self.state, &event);
        self.events.push(event);
    }

    pub(super) fn n(&self) -> usize {
        self.state.players.len().max(1)
    }

    pub(super) fn begin_turn(&mut self, phase: Phase, seat: Seat) {
        self.push(Event::TurnBegan(seat));
        self.push(Event::StepTo(match phase {
            Phase::Move => Step::Move { seat },
            Phase::Attack => Step::Attack { seat },
            Phase::Search => Step::Search { seat },
        }));
    }

    /// The turn of `seat` in `phase` is over: the next player, the next phase, or the round end.
    pub(super) fn end_turn(&mut self, phase: Phase, seat: Seat) {
        let next = (seat + 1) % self.n();
        if next != self.state.first {
            self.begin_turn(phase, next);
            return;
        }
        let first = self.state.first;
        match phase {
            Phase::Move => self.begin_turn(Phase::Attack, first),
            Phase::Attack => self.begin_turn(Phase::Search, first),
            Phase::Search => {
                if self.state.rules.cameo {
                    self.push(Event::StepTo(Step::Cameo));
                } else {
                    self.end_round();
                }
            }
        }
    }

    pub(super) fn end_round(&mut self) {
        if self.state.round >= ROUNDS {
            self.push(Event::StepTo(Step::Over));
            return;
        }
        let next_first = (self.state.first + 1) % self.n();
        self.push(Event::RoundBegan(self.state.round + 1));
        self.push(Event::FirstIs(next_first));
        self.begin_turn(Phase::Move, next_first);
    }

    /// Moves `seat` clockwise by `spaces` in `ring`, with the orbit fame.
    pub(super) fn fly(&mut self, seat: Seat, ring: u8, spaces: u32) {
        let Some(p) = self.state.players.get(seat) else {
            return;
        };
        let old_len = u64::from(self.state.rules.ring_length(p.ring));
        let new_len = u64::from(self.state.rules.ring_length(ring));
        // Ring change: the same fraction of the orbit, rounded back (§10 #2).
        let start = if ring == p.ring {
            u64::from(p.position)
        } else {
            u64::from(p.position) * new_len / old_len
        };
        let end = start + u64::from(spaces);
        let orbits = u32::try_from(end / new_len).unwrap_or(u32::MAX);
        let position = u32::try_from(end % new_len).unwrap_or(0);
        self.push(Event::Moved {
            seat,
            ring,
            position,
            orbits,
        });
        if orbits > 0 {
            self.push(Event::Fame(
                seat,
                ORBIT_FAME.saturating_mul(i32::try_from(orbits).unwrap_or(i32::MAX)),
            ));
        }
    }

    /// Settles the attack die into hits (after the last boost).
    pub(super) fn settle_hits(&mut self) {
        let Some(a) = self.state.attack.clone() else {
            return;
        };
        let total = self.attack_total();
        let hits = u32::try_from(total.max(0) / HIT_STEP).unwrap_or(0);
        self.push(Event::Hits(hits));
        if hits > 0 {
            self.push(Event::Fame(
                a.attacker,
                HIT_FAME.saturating_mul(i32::try_from(hits).unwrap_or(i32::MAX)),
            ));
            self.push(Event::StepTo(Step::HitDice));
        } else {
            self.finish_attack();
        }
    }

    pub(super) fn attack_total(&self) -> i32 {
        let Some(a) = &self.state.attack else {
            return 0;
        };
        i32::from(a.roll.unwrap_or(0)) + self.state.boosted(a.attacker, Stat::Attack)
            - i32::try_from(a.range).unwrap_or(i32::MAX)
    }

    pub(super) fn finish_attack(&mut self) {
        let Some(a) = self.state.attack.clone() else {
            return;
        };
        let report = AttackReport {
            round: self.state.round,
            attacker: a.attacker,
            target: a.target,
            roll: a.roll.unwrap_or(0),
            attack: self.state.boosted(a.attacker, Stat::Attack),
            range: a.range,
            total: self.attack_total(),
            hits: a.hits.unwrap_or(0),
            locations: a.locations.clone(),
            damaged: a.damaged.clone(),
        };
        self.push(Event::AttackSettled(report));
        self.end_turn(Phase::Attack, a.attacker);
    }

    pub(super) fn done(self, violations: Vec<Violation>) -> Decision<Event> {
        Decision {
            events: self.events,
            violations,
        }
    }
}
