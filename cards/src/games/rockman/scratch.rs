//! The scratch copy of the state a Rockman EXE move changes, so that later steps of one move see
//! earlier ones; and where an attack lands.

use super::card::{RockmanCard, Target};
use super::state::*;
use crate::core::{Decision, Impossible, Seat, Violation};
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
        Rockman::apply(&mut self.state, &event);
        self.events.push(event);
    }
    pub(super) fn done(self, violations: Vec<Violation>) -> Decision<Event> {
        Decision {
            events: self.events,
            violations,
        }
    }
    /// Draws until the hand holds 5 (digest §5 `draw_to_five`).
    pub(super) fn draw_to_five(&mut self, seat: Seat, penalty: bool) {
        while self.state.players[seat].hand < HAND_SIZE {
            if !self.draw_one(seat, penalty) {
                return;
            }
        }
    }
    /// Draws one card; false when nothing could be drawn (or the player lost).
    pub(super) fn draw_one(&mut self, seat: Seat, penalty: bool) -> bool {
        if self.state.players[seat].deck <= 0 {
            if penalty || self.state.rules.deck_out_any_draw {
                let hp = self.state.hp_after(seat, -DECK_OUT_PENALTY);
                self.push(Event::SetHp(seat, hp));
            }
            self.push(Event::Reshuffled(seat));
            if self.state.players[seat].hp <= 0 || self.state.players[seat].deck <= 0 {
                return false;
            }
        }
        self.push(Event::Drew(seat));
        true
    }
    /// ORDER and DRAW of a new turn.
    pub(super) fn begin_turn(&mut self, turn: u32) {
        self.push(Event::TurnBegan(turn));
        let hp = [self.state.players[0].hp, self.state.players[1].hp];
        let cards = [self.state.table_cards(0), self.state.table_cards(1)];
        match (turn > 1).then(|| order_first(hp, cards)).flatten() {
            Some(first) => {
                self.push(Event::FirstIs(first));
                self.begin_draw();
            }
            None => self.push(Event::StepTo(Step::Janken)),
        }
    }
    /// DRAW, then TRANSFER for the first player.
    pub(super) fn begin_draw(&mut self) {
        let first = self.state.first.unwrap_or(0);
        for seat in [first, other(first)] {
            self.draw_to_five(seat, true);
        }
        self.push(Event::StepTo(Step::TransferFirst));
    }
    /// The battle phase ends: END (1), or straight to END (2)–(3).
    pub(super) fn end_battle(&mut self) {
        self.push(Event::ActiveIs(None));
        if self.state.end_phase_effects().is_empty() {
            self.push(Event::ClearedArea);
            self.push(Event::StepTo(Step::Exchange));
        } else {
            self.push(Event::StepTo(Step::EndEffects));
        }
    }
    /// After a battle action by `seat`: the other player acts next (unless they passed for good).
    pub(super) fn next_action(&mut self, seat: Seat, passed: bool) {
        let pass_final = self.state.rules.battle_end == BattleEnd::PassIsFinal;
        if passed {
            if pass_final {
                self.push(Event::PassedOut(seat));
                if self.state.players.iter().all(|p| p.passed_out) {
                    return self.end_battle();
                }
            } else {
                let n = self.state.passes.saturating_add(1);
                self.push(Event::SetPasses(n));
                if n >= 2 {
                    return self.end_battle();
                }
            }
        } else if self.state.passes != 0 {
            self.push(Event::SetPasses(0));
        }
        let next = if pass_final && self.state.players[other(seat)].passed_out {
            seat
        } else {
            other(seat)
        };
        self.push(Event::ActiveIs(Some(next)));
    }
    /// Deals `attack` to the card on the opponent's square; returns the hit.
    pub(super) fn hit(&mut self, owner: Seat, sq: Square, attack: u32) -> Option<Hit> {
        let card = self.state.at(owner, sq)?.clone();
        let info = self.state.cards.get(&card.card)?.clone();
        let result = match &info.data {
            RockmanCard::Virus(v) => {
                match hit_virus(
                    attack,
                    v.defence,
                    card.acted,
                    card.damage,
                    self.state.rules.equal_attack_passes,
                ) {
                    None => HitResult::Blocked {
                        defence: if card.acted { 0 } else { v.defence },
                    },
                    Some(total) if total >= v.hp => {
                        self.push(Event::Destroyed(owner, sq));
                        HitResult::Destroyed { total }
                    }
                    Some(total) => {
                        self.push(Event::SetDamage(owner, sq, total));
                        HitResult::Damaged { total }
                    }
                }
            }
            _ => {
                let now = self
                    .state
                    .hp_after(owner, -i32::try_from(attack).unwrap_or(i32::MAX));
                self.push(Event::SetHp(owner, now));
                HitResult::Hp { now }
            }
        };
        Some(Hit {
            owner,
            square: sq,
            card: card.card,
            attack,
            result,
        })
    }
}
/// The opponent's squares an attack from `from` reaches with this target pattern (for `any` and
/// `manual`: every occupied square; the attacker names them).
pub(super) fn reach(
    state: &State,
    attacker: Seat,
    from: Option<Square>,
    target: Target,
) -> Vec<Square> {
    let foe = other(attacker);
    let occupied: Vec<Square> = state
        .squares()
        .into_iter()
        .filter(|&q| state.at(foe, q).is_some())
        .collect();
    let lane = |from: Square| -> Vec<Square> {
        let col = state.facing(from.col);
        occupied.iter().copied().filter(|q| q.col == col).collect()
    };
    match (target, from) {
        (Target::Any | Target::Manual, _) => occupied,
        (_, None) => Vec::new(),
        (Target::Adjacent, Some(f)) => {
            if f.row != 0 {
                Vec::new()
            } else {
                lane(f).into_iter().filter(|q| q.row == 0).collect()
            }
        }
        (Target::Lane, Some(f)) => lane(f).into_iter().take(1).collect(),
        (Target::LaneAll, Some(f)) => lane(f),
    }
}

/// Checks an attack's targets and returns the squares hit (explicit targets win, with a
/// violation when they are out of reach).
pub(super) fn targets(
    state: &State,
    attacker: Seat,
    from: Option<Square>,
    pattern: Target,
    named: &Squares,
    (label, label_ja): (&str, &str),
    v: &mut Vec<Violation>,
) -> Result<Vec<Square>, Impossible> {
    let foe = other(attacker);
    for q in &named.0 {
        if !state.on_area(*q) {
            return Err(
                Impossible::new(format!("{q} is not a square of the opponent's area"))
                    .ja(format!("{q} は相手のエリアのマスではありません。")),
            );
        }
    }
    let reachable = reach(state, attacker, from, pattern);
    let pattern_text = match pattern {
        Target::Adjacent => {
            "the enemy card straight ahead across the border (the attacker must stand in its front rank)"
        }
        Target::Lane => "the first enemy card straight ahead in its lane",
        Target::LaneAll => "every enemy card in its lane",
        Target::Any => "any one enemy card",
        Target::Manual => "the enemy cards its text names",
    };
    let pattern_ja = match pattern {
        Target::Adjacent => "境界の向こう正面の敵カード（攻撃するカードは最前列にいること）",
        Target::Lane => "自分のレーンの正面にいる最初の敵カード",
        Target::LaneAll => "自分のレーンのすべての敵カード",
        Target::Any => "任意の敵カード1枚",
        Target::Manual => "テキストが指定する敵カード",
    };
    // A house rule: `reference` words a `§10` section as the app's default.
    let section = "§10 attack patterns";
    match pattern {
        Target::Any | Target::Manual => {
            if named.0.is_empty() {
                return Err(Impossible::new(format!(
                    "{label} hits {pattern_text}: name the target square(s) in the opponent's area"
                )).ja(format!("{label_ja} が攻撃するのは{pattern_ja}です：相手のエリアの攻撃するマスを指定してください。")));
            }
            if pattern == Target::Any && named.0.len() > 1 {
                v.push(
                    rule(
                        "attack-range",
                        format!("{label} hits {pattern_text}, not {} cards.", named.0.len()),
                        section,
                    )
                    .ja(format!(
                        "{label_ja} が攻撃するのは{pattern_ja}です。{}枚ではありません。",
                        named.0.len()
                    )),
                );
            }
            for q in &named.0 {
                if state.at(foe, *q).is_none() {
                    v.push(
                        rule(
                            "attack-range",
                            format!(
                                "{label} must hit an enemy card; {}'s square {q} is empty.",
                                state.name(foe)
                            ),
                            section,
                        )
                        .ja(format!(
                            "{label_ja} は敵のカードを攻撃します。{} の {q} は空いています。",
                            state.name(foe)
                        )),
                    );
                }
            }
            Ok(named.0.clone())
        }
        _ => {
            if reachable.is_empty() {
                v.push(
                    rule(
                        "attack-range",
                        format!(
                            "{label} hits {pattern_text}, and there is none from {}.",
                            from.map_or_else(|| "?".to_owned(), |f| f.to_string())
                        ),
                        section,
                    )
                    .ja(format!(
                        "{label_ja} が攻撃するのは{pattern_ja}ですが、{} からはありません。",
                        from.map_or_else(|| "?".to_owned(), |f| f.to_string())
                    )),
                );
                return Ok(named.0.clone());
            }
            if named.0.is_empty() {
                return Ok(reachable);
            }
            let mut a = named.0.clone();
            a.sort();
            let mut b = reachable.clone();
            b.sort();
            if a != b {
                let list: Vec<String> = reachable.iter().map(ToString::to_string).collect();
                v.push(
                    rule(
                        "attack-range",
                        format!("{label} hits {pattern_text}: {}.", list.join(" ")),
                        section,
                    )
                    .ja(format!(
                        "{label_ja} が攻撃するのは{pattern_ja}です：{}。",
                        list.join(" ")
                    )),
                );
            }
            Ok(named.0.clone())
        }
    }
}
