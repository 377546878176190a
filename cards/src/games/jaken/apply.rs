//! Applying a Jaken event to the state: no logic, just the change.

use super::state::*;
use crate::catalogue::JakenCard;

pub(super) fn apply(state: &mut State, event: &Event) {
    match event {
        Event::ParentIs(seat) => state.parent = Some(*seat),
        Event::BattleBegan(turn) => {
            state.turn = *turn;
            state.parent_declared_bg = false;
            state.pending_effects.clear();
            for p in &mut state.players {
                p.placement = Placement::Empty;
                p.atk_mod = 0;
                p.def_mod = 0;
                p.bg_atk = 0;
                p.bg_def = 0;
                if let Some(bg) = &mut p.bg {
                    bg.uses_this_battle = 0;
                }
            }
        }
        Event::Drew(seat) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.hand += 1;
                p.deck -= 1;
            }
        }
        Event::StepTo(step) => state.step = *step,
        Event::BgPlaced(seat, card) => {
            let limit = match state.cards.get(card).map(|c| &c.data) {
                Some(JakenCard::BattleGround(g)) => g.use_limit,
                _ => 0,
            };
            if let Some(p) = state.players.get_mut(*seat) {
                if let Some(old) = p.bg.take() {
                    p.trash.push(old.card);
                }
                if let Ok(i) = p.unplayed.binary_search(card) {
                    p.unplayed.remove(i);
                }
                p.hand -= 1;
                p.bg = Some(BgZone {
                    card: card.clone(),
                    uses_left: limit,
                    face_up: limit > 0,
                    uses_this_battle: 0,
                });
            }
        }
        Event::ParentDeclaredBg => state.parent_declared_bg = true,
        Event::Placed(seat, face_down) => {
            if let Some(p) = state.players.get_mut(*seat) {
                if *face_down {
                    p.placement = Placement::FaceDown;
                    p.hand -= 1;
                } else {
                    p.placement = Placement::NoMonster;
                }
            }
        }
        Event::Revealed(seat, card) => {
            if let Some(p) = state.players.get_mut(*seat) {
                if let Ok(i) = p.unplayed.binary_search(card) {
                    p.unplayed.remove(i);
                }
                p.placement = Placement::Revealed(card.clone());
            }
        }
        Event::EffectsPending(order) => state.pending_effects = order.clone(),
        Event::EffectResolved(seat, [atk, def, opp_atk, opp_def]) => {
            state.pending_effects.retain(|s| s != seat);
            if let Some(p) = state.players.get_mut(*seat) {
                p.atk_mod += atk;
                p.def_mod += def;
            }
            if let Some(p) = state.players.get_mut(other(*seat)) {
                p.atk_mod += opp_atk;
                p.def_mod += opp_def;
            }
        }
        Event::SbMoved { from, to, amount } => {
            if let Some(p) = state.players.get_mut(*from) {
                p.sb -= amount;
            }
            if let Some(p) = state.players.get_mut(*to) {
                p.sb += amount;
            }
        }
        Event::BgUsed(seat, uses, atk, def) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.bg_atk += atk;
                p.bg_def += def;
                if let Some(bg) = &mut p.bg {
                    bg.uses_left = bg.uses_left.saturating_sub(*uses);
                    bg.uses_this_battle = bg.uses_this_battle.saturating_add(*uses);
                }
            }
        }
        Event::BgFlipped(seat) => {
            if let Some(bg) = state.players.get_mut(*seat).and_then(|p| p.bg.as_mut()) {
                bg.face_up = false;
            }
        }
        Event::BgDiscarded(seat) => {
            if let Some(p) = state.players.get_mut(*seat)
                && let Some(bg) = p.bg.take()
            {
                p.trash.push(bg.card);
            }
        }
        Event::Struck(report) => state.last_strike = Some(report.clone()),
        Event::Trashed(seat) => {
            if let Some(p) = state.players.get_mut(*seat) {
                if let Placement::Revealed(card) = std::mem::take(&mut p.placement) {
                    p.trash.push(card);
                }
                p.placement = Placement::Empty;
            }
        }
        Event::SetSb(seat, v) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.sb = *v;
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
        Event::SetMods(seat, atk, def) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.atk_mod = *atk;
                p.def_mod = *def;
            }
        }
        Event::SetBgUses(seat, uses) => {
            if let Some(bg) = state.players.get_mut(*seat).and_then(|p| p.bg.as_mut()) {
                bg.uses_left = *uses;
                bg.face_up = *uses > 0;
            }
        }
        Event::SetTurn(turn) => state.turn = *turn,
    }
}
