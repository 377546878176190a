//! The scratch copy of the state a Yomi move changes, so that later steps of one move see
//! earlier ones; and who wins combat.

use super::card::{MoveKind, Rank, Timing};
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

    pub(super) fn over(&self) -> bool {
        self.state.step == Step::Over
    }

    /// Applies an event; ends the game at once on a KO or (by default) a deck at 0.
    pub(super) fn push(&mut self, event: Event) {
        Yomi::apply(&mut self.state, &event);
        self.events.push(event);
        if !self.over() && ended(&self.state).is_some() {
            Yomi::apply(&mut self.state, &Event::StepTo(Step::Over));
            self.events.push(Event::StepTo(Step::Over));
        }
    }

    pub(super) fn enter(&mut self, step: Step) {
        if !self.over() {
            self.push(Event::StepTo(step));
        }
    }

    pub(super) fn draw(&mut self, seat: Seat, n: i32) {
        for _ in 0..n {
            if self.over() || self.state.players[seat].deck <= 0 {
                return;
            }
            self.push(Event::Drew(seat));
        }
    }

    /// 1-1 and 1-2: a turn begins.
    pub(super) fn begin_turn(&mut self, turn: u32) {
        self.push(Event::TurnBegan(turn));
        if turn > 1 {
            self.draw(0, 1);
            self.draw(1, 1);
        }
        if self.state.window(&[Timing::DrawPhase]) && turn > 1 {
            self.enter(Step::DrawAbilities);
        } else {
            self.enter(Step::Select);
        }
    }

    /// After a reveal or an extra Ace: 2-3, or straight to 2-4.
    pub(super) fn after_reveal(&mut self) {
        let done = (0..2).all(|s| {
            let p = &self.state.players[s];
            !matches!(p.play, Play::FaceDown)
                && (p.aces_pending == 0 || !can_put_ace(&self.state, s))
        });
        if !done {
            return;
        }
        if self.state.window(&[Timing::CombatReveal]) {
            self.enter(Step::RevealAbilities);
        } else {
            self.decide_combat();
        }
    }

    /// 2-4: the combat matrix; then 2-5 or the escape phase.
    pub(super) fn decide_combat(&mut self) {
        let report = combat_report(&self.state);
        let result = report.result;
        self.push(Event::CombatDecided(report));
        let hit = |b: &mut Builder, seat: Seat| {
            if let Some((card, end)) = b.state.revealed(seat).map(|(c, e)| (c.to_owned(), e))
                && let Some(e) = b.state.end(&card, end)
            {
                let damage = i32::from(e.damage.unwrap_or(0));
                let kd = e.knockdown;
                b.push(Event::CombatHit(seat, damage, kd));
            }
        };
        match result {
            CombatResult::Won { winner, by } if by.strikes() => hit(self, winner),
            CombatResult::Trade => {
                hit(self, 0);
                hit(self, 1);
            }
            CombatResult::Won {
                winner,
                by: Kind::Block,
            } if self.state.rules.apply_block_damage => {
                let attacker = other(winner);
                let chip = self
                    .state
                    .revealed(attacker)
                    .and_then(|(c, e)| self.state.end(c, e))
                    .and_then(|e| e.block_damage)
                    .map_or(0, i32::from);
                if chip > 0 {
                    self.push(Event::ChipDamage(attacker, chip));
                }
            }
            _ => {}
        }
        if self.state.window(&[Timing::DuringCombat]) {
            self.enter(Step::DuringCombat);
        } else {
            self.escape_phase();
        }
    }

    /// 3-1 and 3-2.
    pub(super) fn escape_phase(&mut self) {
        if self.over() {
            return;
        }
        if self.state.rules.normal_attack_draw {
            let result = self.state.combat.as_ref().map(|c| c.result);
            for seat in 0..2 {
                let normal_attack = self.state.revealed(seat).is_some_and(|(c, e)| {
                    matches!(self.state.rank(c), Some(Rank::Number(_)))
                        && self
                            .state
                            .end(c, e)
                            .is_some_and(|e| e.kind == MoveKind::Attack)
                });
                let hit_or_blocked = match result {
                    Some(CombatResult::Trade) => true,
                    Some(CombatResult::Won { winner, by }) => {
                        (winner == seat && by.strikes())
                            || (winner == other(seat) && by == Kind::Block)
                    }
                    _ => false,
                };
                if normal_attack && hit_or_blocked {
                    self.draw(seat, 1);
                }
            }
        }
        if self.over() {
            return;
        }
        let offered = match self.state.winner() {
            Some((w, by)) => {
                let may_combo =
                    by.strikes() || (self.state.rules.escape_after_any_win && by == Kind::Dodge);
                may_combo && self.state.players[other(w)].hand > 0
            }
            None => false,
        };
        if offered {
            self.enter(Step::Escape);
        } else {
            self.combo_phase();
        }
    }

    /// 4-1 and 4-2.
    pub(super) fn combo_phase(&mut self) {
        if self.over() {
            return;
        }
        let winner = self.state.winner();
        for seat in 0..2 {
            let blocked = self.state.kind(seat).0 == Kind::Block;
            let won = winner.is_some_and(|(w, _)| w == seat);
            let lost = winner.is_some_and(|(w, _)| w != seat);
            let returns = if self.state.rules.block_returns_unless_lost {
                !lost
            } else {
                won
            };
            if blocked && returns {
                self.push(Event::BlockReturned(seat));
            }
            if blocked && won {
                self.draw(seat, 1);
            }
        }
        match winner {
            Some((_, by)) if by.strikes() || by == Kind::Dodge => self.enter(Step::Combo),
            _ => self.blue_burst(),
        }
    }

    /// 4-3: waits for the escape card, if one was placed.
    pub(super) fn blue_burst(&mut self) {
        if self.over() {
            return;
        }
        if (0..2).any(|s| self.state.players[s].escape == Escape::FaceDown) {
            self.enter(Step::BlueBurst);
        } else {
            self.damage();
        }
    }

    /// 4-4a and 4-4b, then 5-1.
    pub(super) fn damage(&mut self) {
        if self.over() {
            return;
        }
        let dealt = |p: &PlayerState| p.combat_damage + p.combo_damage;
        let lost = [dealt(&self.state.players[1]), dealt(&self.state.players[0])];
        if lost != [0, 0] {
            self.push(Event::Damaged(lost));
        }
        if self.over() {
            return;
        }
        let mut down = [false, false];
        for seat in 0..2 {
            if self.state.players[seat].last_hit_knockdown == Some(true) {
                down[other(seat)] = true;
            }
        }
        if down == [true, true] && self.state.rules.double_knockdown_cancels {
            down = [false, false];
        }
        self.push(Event::Knockdown(down));
        // 5-1 gold burst.
        let result = self.state.combat.as_ref().map(|c| c.result);
        let mut any = false;
        for seat in 0..2 {
            let joker = self.state.kind(seat).0 == Kind::Joker;
            let won_or_drew = match result {
                Some(CombatResult::Won { winner, .. }) => winner == seat,
                Some(CombatResult::JokerDraw) => true,
                _ => false,
            };
            if joker && won_or_drew {
                self.push(Event::AcesOwed(seat, 2));
                any = true;
            }
        }
        if any {
            self.enter(Step::GoldBurst);
        } else {
            self.end_of_combat();
        }
    }

    /// 5-2, or straight to 5-3.
    pub(super) fn end_of_combat(&mut self) {
        if self.state.window(&[Timing::EndOfCombat, Timing::FullCombo]) {
            self.enter(Step::EndOfCombat);
        } else {
            self.power_up();
        }
    }

    /// 5-3 and 5-4; 5-5 waits for the players.
    pub(super) fn power_up(&mut self) {
        if self.over() {
            return;
        }
        self.push(Event::TableCleared);
        for seat in 0..2 {
            let n = aces_for_chain(self.state.players[seat].chain);
            if n > 0 {
                self.push(Event::AcesOwed(seat, n));
            }
        }
        self.enter(Step::PowerUp);
    }

    /// 5-6, or straight to 5-7.
    pub(super) fn end_of_turn(&mut self) {
        if self.state.window(&[Timing::EndOfTurn]) {
            self.enter(Step::EndOfTurn);
        } else {
            self.hand_limit();
        }
    }

    /// 5-7: waits while a hand is over its limit.
    pub(super) fn hand_limit(&mut self) {
        if self.over() {
            return;
        }
        let over =
            self.state.rules.hand_limit && self.state.players.iter().any(|p| p.hand > p.hand_limit);
        if over {
            self.enter(Step::HandLimit);
        } else {
            self.next_turn();
        }
    }

    /// 5-8.
    pub(super) fn next_turn(&mut self) {
        if self.over() {
            return;
        }
        if self.state.players.iter().any(|p| p.deck <= 0) {
            self.push(Event::StepTo(Step::Over));
            return;
        }
        self.begin_turn(self.state.turn + 1);
    }

    pub(super) fn done(self, violations: Vec<Violation>) -> Decision<Event> {
        Decision {
            events: self.events,
            violations,
        }
    }
}

/// Step 2-4: who wins combat (digest §5).
pub(super) fn combat_report(state: &State) -> CombatReport {
    let (ka, sa) = state.kind(0);
    let (kb, sb) = state.kind(1);
    let rules = &state.rules;
    let won = |winner: Seat, by: Kind| CombatResult::Won { winner, by };
    // The result from seat 0's side; `flip` reads a cell from seat 1's side.
    fn cell(
        a: Kind,
        b: Kind,
        sa: Option<i32>,
        sb: Option<i32>,
        rules: &Rules,
    ) -> Option<CombatResult> {
        use Kind::*;
        let a_wins = Some(CombatResult::Won { winner: 0, by: a });
        let b_wins = Some(CombatResult::Won { winner: 1, by: b });
        let strikes_beat_nothing = rules.no_card == NoCardRule::LosesToStrikes;
        Some(match (a, b) {
            (Attack, Attack) | (Throw, Throw) => {
                let (x, y) = (sa.unwrap_or(0), sb.unwrap_or(0));
                if x < y {
                    return a_wins;
                } else if y < x {
                    return b_wins;
                } else if a == Attack {
                    CombatResult::Trade
                } else {
                    CombatResult::Nothing
                }
            }
            (Attack, Throw) | (Throw, Block) | (Throw, Dodge) => return a_wins,
            (Attack, Block) | (Attack, Dodge) | (Attack, Joker) | (Throw, Joker) => return b_wins,
            (Block, Joker) | (Dodge, Joker) => return a_wins,
            (Joker, Joker) => match rules.joker_vs_joker {
                JokerTie::Draw => CombatResult::JokerDraw,
                JokerTie::Nothing => CombatResult::Nothing,
            },
            (Attack | Throw | Joker, NoCard) if strikes_beat_nothing => return a_wins,
            (Block | Dodge | NoCard, Block | Dodge | NoCard) => CombatResult::Nothing,
            (Attack | Throw | Joker, NoCard) => CombatResult::Nothing,
            _ => return None,
        })
    }
    let result = cell(ka, kb, sa, sb, rules)
        .or_else(|| {
            cell(kb, ka, sb, sa, rules).map(|r| match r {
                CombatResult::Won { winner, by } => won(other(winner), by),
                r => r,
            })
        })
        .unwrap_or(CombatResult::Nothing);
    let show = |k: Kind, s: Option<i32>| match s {
        Some(s) => format!("{} (speed {}.{})", k.label(), s / 10, (s % 10).abs()),
        None => k.label().to_owned(),
    };
    let text = format!(
        "{} {} against {} {}: {}",
        state.name(0),
        show(ka, sa),
        state.name(1),
        show(kb, sb),
        match result {
            CombatResult::Won { winner, by } =>
                format!("{} wins combat with the {}", state.name(winner), by.label()),
            CombatResult::Trade => "equal speed: both hit, no combos or pumps".to_owned(),
            CombatResult::JokerDraw => "Joker against Joker: a drawn combat".to_owned(),
            CombatResult::Nothing => "nothing happens".to_owned(),
        }
    );
    CombatReport {
        turn: state.turn,
        kinds: [ka, kb],
        speeds: [sa, sb],
        result,
        text,
    }
}
