//! Applying a Space Junk event to the state: no logic, just the change.

use super::state::*;

pub(super) fn apply(state: &mut State, event: &Event) {
    match event {
        Event::CharacterDealt(seat, card) => {
            let uses = state
                .cards
                .get(card)
                .and_then(|c| c.data.character())
                .and_then(|c| c.ability_uses);
            if let Some(p) = state.players.get_mut(*seat) {
                p.character = Some(card.clone());
                p.ability_uses_left = uses;
            }
        }
        Event::FirstIs(seat) => state.first = *seat,
        Event::RoundBegan(r) => state.round = *r,
        Event::TurnBegan(seat) => {
            state.turn_seat = Some(*seat);
            state.boosts = ShipStats::default();
        }
        Event::StepTo(step) => {
            state.step = *step;
            if matches!(step, Step::Cameo | Step::Over) {
                state.turn_seat = None;
                state.boosts = ShipStats::default();
            }
        }
        Event::Boosted {
            seat,
            card,
            stat,
            amount,
        } => {
            insert_sorted(&mut state.damaged, card);
            if state.turn_seat == Some(*seat) {
                *state.boosts.get_mut(*stat) += amount;
            }
        }
        Event::Moved {
            seat,
            ring,
            position,
            orbits,
        } => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.ring = *ring;
                p.position = *position;
                p.orbits = p.orbits.saturating_add(*orbits);
            }
        }
        Event::Fame(seat, d) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.fame = p.fame.saturating_add(*d);
            }
        }
        Event::CardMoved { card, from, to } => {
            match from {
                Place::Deck => remove_sorted(&mut state.deck, card),
                Place::Discard => remove_sorted(&mut state.discard, card),
                Place::Drawn(s) => {
                    if let Some(p) = state.players.get_mut(*s) {
                        p.drawn.retain(|c| c != card);
                    }
                }
                Place::Cargo(s) => {
                    if let Some(p) = state.players.get_mut(*s) {
                        remove_sorted(&mut p.cargo, card);
                    }
                }
                Place::Ship(s, space) => {
                    if let Some(slot) = state
                        .players
                        .get_mut(*s)
                        .and_then(|p| p.spaces.get_mut(space.index()))
                        && slot.as_deref() == Some(card.as_str())
                    {
                        *slot = None;
                    }
                }
            }
            match to {
                Place::Deck => insert_sorted(&mut state.deck, card),
                Place::Discard => {
                    remove_sorted(&mut state.damaged, card);
                    insert_sorted(&mut state.discard, card);
                }
                Place::Drawn(s) => {
                    if let Some(p) = state.players.get_mut(*s) {
                        p.drawn.push(card.clone());
                    }
                }
                Place::Cargo(s) => {
                    if let Some(p) = state.players.get_mut(*s) {
                        insert_sorted(&mut p.cargo, card);
                    }
                }
                Place::Ship(s, space) => {
                    if let Some(slot) = state
                        .players
                        .get_mut(*s)
                        .and_then(|p| p.spaces.get_mut(space.index()))
                    {
                        *slot = Some(card.clone());
                    }
                }
            }
        }
        Event::Reshuffled => {
            let discard = std::mem::take(&mut state.discard);
            for c in discard {
                insert_sorted(&mut state.deck, &c);
            }
        }
        Event::Damaged(card) => insert_sorted(&mut state.damaged, card),
        Event::Repaired(card) => remove_sorted(&mut state.damaged, card),
        Event::RamDeclared(rammer, target) => {
            state.ram = Some(RamState {
                rammer: *rammer,
                target: *target,
                rammer_roll: None,
                target_roll: None,
            })
        }
        Event::RamRolled(seat, v) => {
            if let Some(r) = &mut state.ram {
                if r.rammer == *seat && r.rammer_roll.is_none() {
                    r.rammer_roll = Some(*v);
                } else {
                    r.target_roll = Some(*v);
                }
            }
        }
        Event::RamSettled(report) => {
            state.ram = None;
            state.last_ram = Some(report.clone());
        }
        Event::AttackDeclared(attacker, target, range) => {
            state.attack = Some(AttackState {
                attacker: *attacker,
                target: *target,
                range: *range,
                roll: None,
                hits: None,
                locations: Vec::new(),
                damaged: Vec::new(),
            })
        }
        Event::AttackRolled(v) => {
            if let Some(a) = &mut state.attack {
                a.roll = Some(*v);
            }
        }
        Event::Hits(n) => {
            if let Some(a) = &mut state.attack {
                a.hits = Some(*n);
            }
        }
        Event::LocationRolled(v) => {
            let Some(a) = &mut state.attack else { return };
            a.locations.push(*v);
            let card = state
                .players
                .get(a.target)
                .and_then(|p| p.at(Space::Slot(*v)))
                .map(str::to_owned);
            if let Some(card) = card
                && state.damaged.binary_search(&card).is_err()
            {
                a.damaged.push(card.clone());
                insert_sorted(&mut state.damaged, &card);
            }
        }
        Event::AttackSettled(report) => {
            state.attack = None;
            state.last_attack = Some(report.clone());
        }
        Event::Modifiers(seat, m) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.modifiers = *m;
            }
        }
        Event::AbilityUsed(seat) => {
            if let Some(u) = state
                .players
                .get_mut(*seat)
                .and_then(|p| p.ability_uses_left.as_mut())
            {
                *u = u.saturating_sub(1);
            }
        }
        Event::SetFame(seat, v) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.fame = *v;
            }
        }
        Event::SetPlace(seat, ring, position) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.ring = *ring;
                p.position = *position;
            }
        }
        Event::SetOrbits(seat, v) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.orbits = *v;
            }
        }
        Event::SetAbilityUses(seat, v) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.ability_uses_left = Some(*v);
            }
        }
        Event::SetRound(r) => state.round = *r,
    }
}
