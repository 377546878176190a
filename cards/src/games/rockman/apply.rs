//! Applying a Rockman EXE event to the state: no logic, just the change.

use super::state::*;

pub(super) fn apply(state: &mut State, event: &Event) {
    match event {
        Event::Put {
            seat,
            card,
            square,
            from_hand,
        } => {
            take_unplayed(state, *seat, card);
            if let Some(p) = state.players.get_mut(*seat) {
                if *from_hand {
                    p.hand -= 1;
                    p.placed_character = true;
                } else {
                    p.deck -= 1;
                }
            }
            if let Some(slot) = state.at_mut(*seat, *square) {
                *slot = Some(AreaCard {
                    card: card.clone(),
                    acted: false,
                    damage: 0,
                    style: None,
                });
            }
        }
        Event::Evolved(seat, sq, card) => {
            take_unplayed(state, *seat, card);
            let old = state.at_mut(*seat, *sq).and_then(|slot| {
                slot.replace(AreaCard {
                    card: card.clone(),
                    acted: false,
                    damage: 0,
                    style: None,
                })
            });
            if let Some(p) = state.players.get_mut(*seat) {
                p.hand -= 1;
                if let Some(old) = old {
                    p.discard.push(old.card);
                    p.discard.extend(old.style);
                }
                if state.rules.evolution_uses_character {
                    p.placed_character = true;
                }
            }
        }
        Event::ChipPlaced(seat) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.hand -= 1;
                p.chips += 1;
                p.chips_placed_this_turn += 1;
                p.placed_chip = true;
            }
        }
        Event::StyleAttached(seat, sq, card) => {
            take_unplayed(state, *seat, card);
            let old = state
                .at_mut(*seat, *sq)
                .and_then(|slot| slot.as_mut())
                .and_then(|c| c.style.replace(card.clone()));
            let uses_character = state.rules.style_uses_character;
            if let Some(p) = state.players.get_mut(*seat) {
                p.hand -= 1;
                p.attached_style = true;
                if uses_character {
                    p.placed_character = true;
                }
                p.discard.extend(old);
            }
        }
        Event::TransferDone(_) => {}
        Event::Moved(seat, from, to) => {
            let cols = state.cols();
            if let Some(p) = state.players.get_mut(*seat) {
                let len = p.area.len();
                if let (Some(a), Some(b)) = (index(*from, cols, len), index(*to, cols, len)) {
                    p.area.swap(a, b);
                }
            }
        }
        Event::Discarded(seat, card) => {
            take_unplayed(state, *seat, card);
            if let Some(p) = state.players.get_mut(*seat) {
                p.hand -= 1;
                p.discard.push(card.clone());
            }
        }
        Event::SetActed(seat, sq, acted) => {
            if let Some(Some(c)) = state.at_mut(*seat, *sq) {
                c.acted = *acted;
            }
        }
        Event::SetDamage(seat, sq, damage) => {
            if let Some(Some(c)) = state.at_mut(*seat, *sq) {
                c.damage = *damage;
            }
        }
        Event::Destroyed(seat, sq) => {
            let old = state.at_mut(*seat, *sq).and_then(Option::take);
            if let (Some(old), Some(p)) = (old, state.players.get_mut(*seat)) {
                p.discard.push(old.card);
                p.discard.extend(old.style);
            }
        }
        Event::ChipUsed(seat, card) => {
            take_unplayed(state, *seat, card);
            if let Some(p) = state.players.get_mut(*seat) {
                p.chips -= 1;
                p.chips_placed_this_turn = p.chips_placed_this_turn.min(p.chips);
                p.discard.push(card.clone());
            }
        }
        Event::BattlerPlayed(seat, card) => {
            take_unplayed(state, *seat, card);
            let stays = state.rules.battler_stays_in_play;
            if let Some(p) = state.players.get_mut(*seat) {
                p.hand -= 1;
                if stays {
                    if let Some(old) = p.battler.replace(card.clone()) {
                        p.discard.push(old);
                    }
                } else {
                    p.discard.push(card.clone());
                }
            }
        }
        Event::Attacked(report) => state.last_attack = Some(report.clone()),
        Event::Drew(seat) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.deck -= 1;
                p.hand += 1;
            }
        }
        Event::Reshuffled(seat) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.deck += p.discard.len() as i32;
                p.unplayed.append(&mut p.discard);
                p.unplayed.sort();
            }
        }
        Event::SetHp(seat, hp) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.hp = *hp;
            }
        }
        Event::TurnBegan(turn) => {
            state.turn = *turn;
            state.first = None;
            state.active = None;
            state.passes = 0;
            for p in &mut state.players {
                p.placed_character = false;
                p.placed_chip = false;
                p.attached_style = false;
                p.passed_out = false;
                p.exchanged = false;
                p.chips_placed_this_turn = 0;
            }
        }
        Event::FirstIs(seat) => state.first = Some(*seat),
        Event::StepTo(step) => state.step = *step,
        Event::ActiveIs(seat) => state.active = *seat,
        Event::SetPasses(n) => state.passes = *n,
        Event::PassedOut(seat) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.passed_out = true;
            }
        }
        Event::ClearedArea => {
            for p in &mut state.players {
                for c in p.area.iter_mut().flatten() {
                    c.acted = false;
                    c.damage = 0;
                }
            }
        }
        Event::Exchanged(seat) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.exchanged = true;
            }
        }
        Event::SetHand(seat, v) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.hand = *v;
            }
        }
        Event::SetDeck(seat, v) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.deck = *v;
            }
        }
        Event::SetChips(seat, v) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.chips = *v;
                p.chips_placed_this_turn = p.chips_placed_this_turn.min(*v);
            }
        }
        Event::SetTurn(t) => state.turn = *t,
    }
}
