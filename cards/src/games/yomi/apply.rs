//! Applying a Yomi event to the state: no logic, just the change.

use super::state::*;

pub(super) fn apply(state: &mut State, event: &Event) {
    match event {
        Event::TurnBegan(turn) => {
            state.turn = *turn;
            state.combat = None;
            state.no_card_by = None;
            for p in &mut state.players {
                p.play = Play::Empty;
                p.speed_mod = 0;
                p.aces_pending = 0;
                p.escape = Escape::None;
                p.hits.clear();
                p.combo_points = 0;
                p.chain = 0;
                p.combat_damage = 0;
                p.combo_damage = 0;
                p.cancelled = 0;
                p.aces_owed = 0;
                p.last_hit_knockdown = None;
            }
        }
        Event::Drew(seat) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.hand += 1;
                p.deck -= 1;
            }
        }
        Event::StepTo(step) => state.step = *step,
        Event::FaceDown(seat) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.play = Play::FaceDown;
                p.hand -= 1;
            }
        }
        Event::NoCard(seat) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.play = Play::NoCard;
            }
            if state.no_card_by.is_none() {
                state.no_card_by = Some(*seat);
            }
        }
        Event::Rechose(seat) => {
            if let Some(p) = state.players.get_mut(*seat) {
                if p.play == Play::FaceDown {
                    p.hand += 1;
                }
                p.play = Play::Empty;
            }
            if state.no_card_by == Some(*seat) {
                state.no_card_by = None;
            }
        }
        Event::Revealed(seat, card, end, extra) => {
            if let Some(p) = state.players.get_mut(*seat) {
                take(&mut p.unseen, card);
                p.table.push(card.clone());
                p.play = Play::Revealed {
                    card: card.clone(),
                    end: *end,
                };
                p.aces_pending = *extra;
            }
        }
        Event::AcesPending(seat, n) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.aces_pending = *n;
            }
        }
        Event::ExtraAce(seat, card) => {
            if let Some(p) = state.players.get_mut(*seat) {
                take(&mut p.unseen, card);
                p.table.push(card.clone());
                p.hand -= 1;
                p.aces_pending = p.aces_pending.saturating_sub(1);
            }
        }
        Event::SpeedChanged(seat, d) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.speed_mod += d;
            }
        }
        Event::CombatDecided(report) => state.combat = Some(report.clone()),
        Event::CombatHit(seat, damage, kd) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.combat_damage += damage;
                p.last_hit_knockdown = Some(*kd);
                if let Play::Revealed { card, end } = &p.play {
                    p.hits.push(Hit {
                        card: card.clone(),
                        end: *end,
                        combo: false,
                    });
                }
            }
        }
        Event::ChipDamage(seat, damage) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.combat_damage += damage;
            }
        }
        Event::EscapePlaced(seat) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.escape = Escape::FaceDown;
                p.hand -= 1;
            }
        }
        Event::EscapeDeclined(seat) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.escape = Escape::Declined;
            }
        }
        Event::EscapeRevealed(seat, card) => {
            if let Some(p) = state.players.get_mut(*seat) {
                take(&mut p.unseen, card);
                p.table.push(card.clone());
                p.escape = Escape::Revealed(card.clone());
            }
        }
        Event::BlockReturned(seat) => {
            if let Some(p) = state.players.get_mut(*seat)
                && let Play::Revealed { card, .. } = &p.play
            {
                // Only a card still on the table goes back (a block returned at 4-1 and then
                // taken back by an override is not returned twice).
                if let Some(i) = p.table.iter().position(|c| c == card) {
                    p.table.remove(i);
                    put(&mut p.unseen, card.clone());
                    p.hand += 1;
                }
            }
        }
        Event::ComboHit(seat, card, end, damage, points, kd) => {
            if let Some(p) = state.players.get_mut(*seat) {
                take(&mut p.unseen, card);
                p.table.push(card.clone());
                p.hand -= 1;
                p.combo_damage += damage;
                p.combo_points += points;
                p.last_hit_knockdown = Some(*kd);
                p.hits.push(Hit {
                    card: card.clone(),
                    end: *end,
                    combo: true,
                });
            }
        }
        Event::Pumped(seat, cards, damage) => {
            if let Some(p) = state.players.get_mut(*seat) {
                for c in cards {
                    take(&mut p.unseen, c);
                    p.table.push(c.clone());
                    p.hand -= 1;
                }
                p.combo_damage += damage;
            }
        }
        Event::ComboBonus(seat, damage) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.combo_damage += damage;
            }
        }
        Event::ChainIs(seat, n) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.chain = *n;
            }
        }
        Event::Cancelled(seat, amount) => {
            if let Some(p) = state.players.get_mut(other(*seat)) {
                p.combo_damage = 0;
            }
            if let Some(p) = state.players.get_mut(*seat) {
                p.cancelled += amount;
            }
        }
        Event::Damaged(lost) => {
            for (p, d) in state.players.iter_mut().zip(lost) {
                p.hp -= d;
            }
        }
        Event::Knockdown(down) => {
            for (p, d) in state.players.iter_mut().zip(down) {
                p.knocked_down = *d;
            }
        }
        Event::AcesOwed(seat, n) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.aces_owed = p.aces_owed.saturating_add(*n);
            }
        }
        Event::Searched(seat, card, from, counted) => {
            if let Some(p) = state.players.get_mut(*seat) {
                match from {
                    Pile::Deck => p.deck -= 1,
                    Pile::Discard => {
                        if let Some(i) = p.discard.iter().rposition(|c| c == card) {
                            p.discard.remove(i);
                        }
                        put(&mut p.unseen, card.clone());
                    }
                }
                p.hand += 1;
                if *counted {
                    p.aces_owed = p.aces_owed.saturating_sub(1);
                }
            }
        }
        Event::AcesForgone(seat) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.aces_owed = 0;
            }
        }
        Event::Discarded(seat, cards) => {
            if let Some(p) = state.players.get_mut(*seat) {
                for c in cards {
                    take(&mut p.unseen, c);
                    p.discard.push(c.clone());
                    p.hand -= 1;
                }
            }
        }
        Event::TableCleared => {
            for p in &mut state.players {
                let table = std::mem::take(&mut p.table);
                p.discard.extend(table);
            }
        }
        Event::HpIs(seat, hp) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.hp = *hp;
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
        Event::SetKnockdown(seat, v) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.knocked_down = *v;
            }
        }
        Event::SetComboPoints(seat, v) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.combo_points = *v;
            }
        }
        Event::SetAcesOwed(seat, v) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.aces_owed = *v;
            }
        }
        Event::SetCancelled(seat, v) => {
            if let Some(p) = state.players.get_mut(*seat) {
                p.cancelled = *v;
            }
        }
        Event::SetTurn(t) => state.turn = *t,
    }
}
