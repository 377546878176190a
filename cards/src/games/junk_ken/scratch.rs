//! The scratch copy of the state a JUNK-KEN move changes: each rule's effect applied in order,
//! its events the parts that changed.

use super::card::{Action, ActionKind, Hand, JunkKenCard};
use super::state::*;
use crate::core::{Decision, Seat, Violation};
use crate::game::Game;

/// A scratch copy of the state that a move changes; its events are the parts that changed.
pub(super) struct Scratch<'a> {
    pub(super) before: &'a State,
    pub(super) s: State,
    pub(super) notes: Vec<String>,
}

impl<'a> Scratch<'a> {
    pub(super) fn new(state: &'a State) -> Self {
        Scratch {
            before: state,
            s: state.clone(),
            notes: Vec::new(),
        }
    }

    pub(super) fn done(mut self, violations: Vec<Violation>) -> Decision<Event> {
        // A bonus ends with its source: a card that left play (destroyed, removed, awakened
        // over, replaced) gives nothing any more.
        for p in &mut self.s.players {
            let kept: Vec<Bonus> = p
                .bonuses
                .iter()
                .filter(|b| p.in_play(&b.card))
                .cloned()
                .collect();
            p.bonuses = kept;
        }
        let mut events = Vec::new();
        for seat in 0..2 {
            if self.s.players[seat] != self.before.players[seat] {
                events.push(Event::Player(seat, Box::new(self.s.players[seat].clone())));
            }
        }
        if self.s.table != self.before.table {
            events.push(Event::Table(Box::new(self.s.table.clone())));
        }
        Decision { events, violations }
    }

    pub(super) fn card(&self, id: &str) -> Option<&CardInfo> {
        self.s.cards.get(id)
    }

    pub(super) fn top(&self, seat: Seat) -> Option<CardInfo> {
        let id = self.s.players[seat].character.as_ref()?.top().to_owned();
        self.card(&id).cloned()
    }

    pub(super) fn ask(&mut self, seat: Seat, sides: u8, purpose: DiePurpose) {
        self.s.table.next_die += 1;
        let id = format!("d{}", self.s.table.next_die);
        self.s.table.dice.push(DieAsk {
            id,
            seat,
            sides,
            purpose,
        });
    }

    pub(super) fn drop_asks(&mut self, seat: Seat, hp_and_skill: bool) {
        self.s.table.dice.retain(|d| {
            !(d.seat == seat
                && hp_and_skill
                && matches!(d.purpose, DiePurpose::Hp | DiePurpose::DiceSkill { .. }))
        });
    }

    pub(super) fn bury(&mut self, seat: Seat, card: String) {
        self.s.players[seat].graveyard.push(GraveCard {
            card,
            face_down: false,
        });
    }

    pub(super) fn remove_gear(&mut self, seat: Seat, why: &str) {
        if let Support::Gear { card, .. } = &self.s.players[seat].support {
            let card = card.clone();
            self.notes.push(format!(
                "{}'s gear {} is removed from the game ({why})",
                self.s.players[seat].name,
                self.label(&card)
            ));
            self.s.players[seat].support = Support::Empty;
            self.s.players[seat].removed.push(card);
        }
    }

    pub(super) fn label(&self, id: &str) -> String {
        self.card(id).map_or_else(|| id.to_owned(), CardInfo::label)
    }

    pub(super) fn is_extra(&self, id: &str) -> bool {
        self.card(id).is_some_and(|c| c.data.is_extra())
    }

    /// The character is destroyed: stack to graveyard / removed, gear removed, side to hand.
    pub(super) fn destroy(&mut self, seat: Seat) {
        let Some(ch) = self.s.players[seat].character.take() else {
            return;
        };
        self.drop_asks(seat, true);
        for card in ch.stack {
            if self.is_extra(&card) {
                self.s.players[seat].removed.push(card);
            } else {
                self.bury(seat, card);
            }
        }
        self.remove_gear(seat, "its character left the battle zone");
        let p = &mut self.s.players[seat];
        p.defeated = p.defeated.saturating_add(1);
        p.destroyed_this_turn = true;
        p.necromancy_ready = false;
        p.replacing = false;
        let mut note = format!(
            "{}'s character is destroyed (defeat {})",
            p.name, p.defeated
        );
        if p.side > 0 {
            p.side -= 1;
            p.hand += 1;
            note.push_str("; the side card goes to hand");
        }
        self.notes.push(note);
    }

    /// Damage, then healing (seed FAQ: damage first; HP ≤ 0 destroys and the heal is void).
    pub(super) fn settle(&mut self, damage: [i32; 2], heal: [i32; 2]) {
        for seat in 0..2 {
            let cap = self.s.rules.hp_cap;
            let name = self.s.players[seat].name.clone();
            let Some(ch) = self.s.players[seat].character.as_mut() else {
                continue;
            };
            if damage[seat] != 0 {
                ch.hp -= damage[seat];
                self.notes
                    .push(format!("{name}'s character takes {} damage", damage[seat]));
            }
            if ch.hp <= 0 && (damage[seat] > 0 || ch.hp_rolled) {
                self.destroy(seat);
                continue;
            }
            if heal[seat] != 0 {
                let max = if cap { i32::from(ch.hp_die) } else { MAX_HP };
                ch.hp = (ch.hp + heal[seat]).min(max.max(ch.hp)).max(1);
                self.notes.push(format!(
                    "{name}'s character gets {} HP back (HP {})",
                    heal[seat], ch.hp
                ));
            }
        }
        self.check_over();
    }

    pub(super) fn draw(&mut self, seat: Seat, n: i32) {
        let p = &mut self.s.players[seat];
        let got = n.min(p.deck).max(0);
        p.deck -= got;
        p.hand += got;
        if got > 0 {
            self.notes.push(format!("{} draws {got}", p.name));
        }
        if got < n {
            self.notes.push(format!(
                "{}'s deck is empty: {} card(s) not drawn",
                p.name,
                n - got
            ));
        }
    }

    pub(super) fn check_over(&mut self) {
        if JunkKen::outcome(&self.s).is_some() {
            self.s.table.step = Step::Over;
            self.s.table.dice.clear();
        }
    }

    /// S0: a turn's set phase begins.
    pub(super) fn begin_set(&mut self) {
        for seat in 0..2 {
            let p = &mut self.s.players[seat];
            p.set_done = false;
            p.replacing = false;
            p.declared_replacement = false;
            p.thrown = None;
            p.destroyed_this_turn = false;
            p.necromancy_ready = false;
        }
        for seat in 0..2 {
            let top = self.top(seat);
            let name = self.s.players[seat].name.clone();
            if let Some(ch) = self.s.players[seat].character.as_mut() {
                if let Some(r) = ch.rotation {
                    let r = (r + 90) % 360;
                    ch.rotation = Some(r);
                    if r == 0 {
                        self.notes.push(format!(
                            "{name}'s Clockwise character is upright: its effect may be used"
                        ));
                    }
                }
                ch.dice_active = false;
                if let Some((roll, _)) = top.as_ref().and_then(CardInfo::dice_roll)
                    && !self.s.rules.table_has_die(roll.sides)
                {
                    // Skipped, not asked: the table has no such die (the log says so, see
                    // `view::skipped_dice_skills`).
                } else if let Some((roll, _)) = top.as_ref().and_then(CardInfo::dice_roll) {
                    let (dice, sides) = (roll.dice, roll.sides);
                    self.ask(
                        seat,
                        sides,
                        DiePurpose::DiceSkill {
                            total: 0,
                            left: dice,
                        },
                    );
                }
            }
        }
        self.s.table.step = Step::SetStart;
        self.leave_set_start();
    }

    pub(super) fn leave_set_start(&mut self) {
        if self.s.table.step == Step::SetStart
            && !self
                .s
                .table
                .dice
                .iter()
                .any(|d| matches!(d.purpose, DiePurpose::DiceSkill { .. }))
        {
            self.s.table.step = Step::Set;
        }
    }

    pub(super) fn maybe_janken(&mut self) {
        if self.s.table.step == Step::Set && self.s.players.iter().all(|p| p.set_done) {
            self.s.table.step = Step::Janken;
        }
    }

    /// J1: the janken phase ends.
    pub(super) fn end_janken(&mut self) {
        for seat in 0..2 {
            let name = self.s.players[seat].name.clone();
            if let Some(f) = self.s.players[seat].field.as_mut() {
                f.die -= 1;
                if f.die < 1 {
                    let card = f.card.clone();
                    self.s.players[seat].field = None;
                    self.notes.push(format!(
                        "{name}'s field {} counts down below 1: removed from the game",
                        self.label(&card)
                    ));
                    self.s.players[seat].removed.push(card);
                }
            }
            if let Support::Supporter { card, age, .. } = &mut self.s.players[seat].support {
                *age += 1;
                if *age >= 2 {
                    let card = card.clone();
                    self.s.players[seat].support = Support::Empty;
                    self.notes.push(format!(
                        "{name}'s supporter has seen 2 janken phases end: destroyed"
                    ));
                    self.bury(seat, card);
                }
            }
        }
        if (0..2).any(|s| self.s.players[s].replacing && self.s.players[s].character.is_some()) {
            self.s.table.step = Step::Replace;
        } else {
            self.begin_turn_end();
        }
    }

    /// T0: the turn end begins: Bullet counters are gained, Necromancy is readied.
    pub(super) fn begin_turn_end(&mut self) {
        for seat in 0..2 {
            let top = self.top(seat);
            let p = &mut self.s.players[seat];
            let (Some(ch), Some(top), Some(hand)) = (p.character.as_mut(), top, p.thrown) else {
                continue;
            };
            if p.declared_replacement || p.destroyed_this_turn {
                continue;
            }
            if let Some((level, marked, _)) = top.bullet()
                && marked.contains(&hand)
            {
                let before = ch.bullet;
                ch.bullet = (ch.bullet + 1).min(level);
                let name = p.name.clone();
                self.notes.push(format!(
                    "{name}'s Bullet character threw its marked hand: counters {before} → {}",
                    self.s.players[seat]
                        .character
                        .as_ref()
                        .map_or(0, |c| c.bullet)
                ));
            }
            let p = &mut self.s.players[seat];
            if top.necromancy().is_some_and(|m| m.contains(&hand)) {
                p.necromancy_ready = true;
            }
        }
        self.s.table.step = Step::TurnEnd;
    }

    /// T0 ends: supporters that won, Haste cards and worn-out gear leave; the next turn begins.
    pub(super) fn end_turn(&mut self) {
        for seat in 0..2 {
            let name = self.s.players[seat].name.clone();
            match &self.s.players[seat].support {
                Support::Supporter {
                    card, won, face_up, ..
                } if *won || *face_up => {
                    let card = card.clone();
                    let why = if *won {
                        "won with its attribute this turn"
                    } else {
                        "was turned face up by Haste"
                    };
                    self.notes
                        .push(format!("{name}'s supporter {why}: destroyed"));
                    self.s.players[seat].support = Support::Empty;
                    self.bury(seat, card);
                }
                Support::Gear { durability, .. } if *durability < 1 => {
                    self.remove_gear(seat, "its durability fell below 1 this turn");
                }
                _ => {}
            }
            if let Some(ch) = self.s.players[seat].character.as_mut() {
                ch.turns += 1;
            }
        }
        self.s.table.turn += 1;
        self.begin_set();
    }

    pub(super) fn place_character(&mut self, seat: Seat, card: &str, info: &CardInfo) {
        let p = &mut self.s.players[seat];
        p.take_unplayed(card);
        p.hand -= 1;
        p.character = Some(Character {
            stack: vec![card.to_owned()],
            hp: 0,
            hp_die: info.data.hp_die().unwrap_or(6),
            hp_rolled: false,
            turns: 0,
            rotation: info.clockwise().then_some(90),
            bullet: 0,
            dice_active: false,
        });
        let sides = info.data.hp_die().unwrap_or(6);
        self.ask(seat, sides, DiePurpose::Hp);
    }

    /// The janken result: the winner's action and a matching supporter's, then settling.
    pub(super) fn resolve(&mut self, hands: [Hand; 2]) {
        for (seat, hand) in hands.iter().enumerate() {
            self.s.players[seat].thrown = Some(*hand);
        }
        let turn = self.s.table.turn;
        if hands[0] == hands[1] {
            if self.s.rules.rethrow_ties {
                self.notes
                    .push("あいこ (tie): thrown again (house rule)".to_owned());
                self.report(turn, hands, None);
                return;
            }
            self.notes.push("あいこ (tie)".to_owned());
            let d = i32::from(self.s.rules.tie_damage);
            self.settle([d, d], [0, 0]);
            self.report(turn, hands, None);
            if self.s.table.step != Step::Over {
                self.s.table.step = Step::Resolve;
            }
            return;
        }
        let w = if hands[0].beats(hands[1]) { 0 } else { 1 };
        let h = hands[w];
        let name = self.s.players[w].name.clone();
        self.notes.push(format!("{name} wins with {h}"));
        let replacing = self.s.players[w].replacing;
        let mut damage = [0; 2];
        let mut heal = [0; 2];
        let mut draw = 0;
        let supporter = match &self.s.players[w].support {
            Support::Supporter { card, face_up, .. } => self
                .card(card)
                .and_then(|c| match &c.data {
                    JunkKenCard::Character(ch) => ch.supporter.clone(),
                    _ => None,
                })
                .filter(|sup| sup.hand == h)
                .map(|sup| (sup, *face_up)),
            _ => None,
        };
        let mut act = |this: &mut Self, a: Action, bonus: i32, who: &str| {
            if replacing && (a.kind == ActionKind::Atk || !this.s.rules.replacement_keeps_draw_hp) {
                this.notes.push(format!(
                    "{who}'s {a} does nothing: {name} declared replacement"
                ));
                return;
            }
            let v = i32::from(a.value);
            match a.kind {
                ActionKind::Atk => {
                    if this.s.players[other(w)].character.is_some() {
                        damage[other(w)] += (v + bonus).max(0);
                    } else {
                        this.notes
                            .push(format!("{who}'s {a} has no character to hit"));
                    }
                }
                ActionKind::Draw => draw += v,
                ActionKind::Hp => heal[w] += v,
            }
        };
        let hp_rolled = self.s.players[w]
            .character
            .as_ref()
            .is_some_and(|c| c.hp_rolled);
        let char_acts = supporter.is_none() || self.s.rules.supporter_adds;
        if let Some(top) = self.top(w)
            && hp_rolled
            && char_acts
        {
            match top.data.actions().and_then(|a| a.get(h)) {
                Some(a) => {
                    let bonus = self.s.players[w].attack_bonus();
                    act(self, a, bonus, "the character");
                }
                None => self
                    .notes
                    .push(format!("{} prints no action for {h}", top.label())),
            }
        }
        if let Some((sup, face_up)) = supporter {
            let mut a = sup.action;
            if face_up {
                a.value = a.value.saturating_add(1);
            }
            act(self, a, 0, "the supporter");
            if !sup.skill.is_empty() && !sup.passive {
                if replacing {
                    self.notes
                        .push("the SUPPORT SKILL cannot be used while replacing".to_owned());
                } else {
                    self.notes
                        .push(format!("SUPPORT SKILL to resolve: {}", sup.skill));
                }
            }
            if let Support::Supporter { won, .. } = &mut self.s.players[w].support {
                *won = true;
            }
        }
        self.settle(damage, heal);
        if draw > 0 {
            self.draw(w, draw);
        }
        self.report(turn, hands, Some(w));
        if self.s.table.step != Step::Over {
            self.s.table.step = Step::Resolve;
        }
    }

    pub(super) fn report(&mut self, turn: u32, hands: [Hand; 2], winner: Option<Seat>) {
        self.s.table.last_janken = Some(JankenReport {
            turn,
            hands,
            winner,
            notes: self.notes.clone(),
        });
    }
}
