//! What the rules ask of a Space Junk state: a ship's values, who sits where on the rings,
//! what is still in the decks.

use super::card::Stat;
use super::state::*;
use crate::core::{Impossible, Seat};

impl State {
    /// A player's name.
    pub fn name(&self, seat: Seat) -> &str {
        self.players.get(seat).map_or("?", |p| p.name.as_str())
    }

    pub(super) fn card_label(&self, id: &str) -> String {
        self.cards
            .get(id)
            .map_or_else(|| id.to_owned(), |c| format!("{} ({id})", c.name_en))
    }

    /// The card's name in a Japanese sentence: its Japanese name (the English one where the
    /// catalogue gives none) and its id.
    pub(super) fn card_label_ja(&self, id: &str) -> String {
        self.cards.get(id).map_or_else(
            || id.to_owned(),
            |c| {
                let name = if c.name_ja.is_empty() {
                    &c.name_en
                } else {
                    &c.name_ja
                };
                format!("{name}（{id}）")
            },
        )
    }

    pub(super) fn junk(&self, id: &str) -> Option<&super::card::Junk> {
        self.cards.get(id).and_then(|c| c.data.junk())
    }

    /// Whether a card is damaged.
    pub fn is_damaged(&self, card: &str) -> bool {
        self.damaged
            .binary_search_by(|c| c.as_str().cmp(card))
            .is_ok()
    }

    /// Where a junk card is, if it is in this match.
    pub fn place(&self, card: &str) -> Option<Place> {
        let has = |v: &Vec<String>| v.binary_search_by(|c| c.as_str().cmp(card)).is_ok();
        if has(&self.deck) {
            return Some(Place::Deck);
        }
        if has(&self.discard) {
            return Some(Place::Discard);
        }
        for (seat, p) in self.players.iter().enumerate() {
            if p.drawn.iter().any(|c| c == card) {
                return Some(Place::Drawn(seat));
            }
            if has(&p.cargo) {
                return Some(Place::Cargo(seat));
            }
            if let Some((s, _)) = p.equipped().find(|(_, c)| *c == card) {
                return Some(Place::Ship(seat, s));
            }
        }
        None
    }

    /// The ship's Move, Attack and Search without this turn's boosts, before the floor at 0.
    pub fn raw_stats(&self, seat: Seat) -> ShipStats {
        let Some(p) = self.players.get(seat) else {
            return ShipStats::default();
        };
        let mut s = p.modifiers;
        if let Some(c) = p
            .character
            .as_deref()
            .and_then(|id| self.cards.get(id))
            .and_then(|c| c.data.character())
        {
            s.movement += i32::from(c.stats.movement);
            s.attack += i32::from(c.stats.attack);
            s.search += i32::from(c.stats.search);
        }
        for (space, card) in p.equipped() {
            if let Some(j) = self.junk(card) {
                let add = j.adds(space.kind());
                s.movement += i32::from(add.movement);
                s.attack += i32::from(add.attack);
                s.search += i32::from(add.search);
            }
        }
        s
    }

    /// The ship's Move, Attack and Search (character + fuselage + slots + manual changes), without
    /// this turn's boosts.
    pub fn stats(&self, seat: Seat) -> ShipStats {
        let s = self.raw_stats(seat);
        if self.rules.floor_stats_at_zero {
            s.floored()
        } else {
            s
        }
    }

    /// A value with this turn's `*` boosts (boosts count only for the player whose turn it is).
    pub fn boosted(&self, seat: Seat, stat: Stat) -> i32 {
        let boost = if self.turn_seat == Some(seat) {
            self.boosts.get(stat)
        } else {
            0
        };
        self.stats(seat).get(stat) + boost
    }

    /// R cards on the ship (slots and fuselage, not cargo).
    pub fn r_cards(&self, seat: Seat) -> i32 {
        self.players.get(seat).map_or(0, |p| {
            p.equipped()
                .filter(|(_, c)| self.junk(c).is_some_and(|j| j.ram))
                .count() as i32
        })
    }

    /// Cards this player draws in the search now: min(Search with boosts, ring limit), at most
    /// what the deck and the cooler hold.
    pub fn draw_count(&self, seat: Seat) -> usize {
        let Some(p) = self.players.get(seat) else {
            return 0;
        };
        let mut n = self.boosted(seat, Stat::Search).max(0);
        if let Some(limit) = self.rules.search_limit(p.ring) {
            n = n.min(i32::from(limit));
        }
        (n as usize).min(self.deck.len() + self.discard.len())
    }

    /// Usable `*` cards of a player for a value: on the ship, marked `*` there, not damaged.
    pub fn star_cards(&self, seat: Seat, stat: Stat) -> Vec<String> {
        let Some(p) = self.players.get(seat) else {
            return Vec::new();
        };
        let mut out: Vec<String> = p
            .equipped()
            .filter(|(_, c)| self.junk(c).is_some_and(|j| j.stars.get(stat)) && !self.is_damaged(c))
            .map(|(_, c)| c.to_owned())
            .collect();
        out.sort();
        out
    }

    /// Fame of the junk on the ship, in cargo and just drawn.
    pub fn junk_fame(&self, seat: Seat) -> i32 {
        self.own_junk(seat)
            .iter()
            .filter_map(|c| self.junk(c))
            .map(|j| i32::from(j.fame))
            .sum()
    }

    /// Every junk card a player has (ship, cargo, drawn), sorted.
    pub fn own_junk(&self, seat: Seat) -> Vec<String> {
        let Some(p) = self.players.get(seat) else {
            return Vec::new();
        };
        let mut out: Vec<String> = p
            .equipped()
            .map(|(_, c)| c.to_owned())
            .chain(p.cargo.iter().cloned())
            .chain(p.drawn.iter().cloned())
            .collect();
        out.sort();
        out
    }

    /// Fame track + fame of all own junk.
    pub fn final_fame(&self, seat: Seat) -> i32 {
        self.players.get(seat).map_or(0, |p| p.fame) + self.junk_fame(seat)
    }

    /// The tie-break: Move + Attack + Search of the best ship the player can build from all their
    /// own junk (a fuselage and two cards per slot kind), with the character's values when the
    /// house rule says so, plus manual changes.
    pub fn best_ship(&self, seat: Seat) -> i32 {
        let Some(p) = self.players.get(seat) else {
            return 0;
        };
        let mut base = p.modifiers;
        if self.rules.tie_break_counts_character
            && let Some(c) = p
                .character
                .as_deref()
                .and_then(|id| self.cards.get(id))
                .and_then(|c| c.data.character())
        {
            base.movement += i32::from(c.stats.movement);
            base.attack += i32::from(c.stats.attack);
            base.search += i32::from(c.stats.search);
        }
        let junk: Vec<super::card::Stats> = self
            .own_junk(seat)
            .iter()
            .filter(|c| !self.is_damaged(c))
            .filter_map(|c| self.junk(c))
            .map(|j| j.values)
            .collect();
        let mut best = i32::MIN;
        for fus in std::iter::once(None).chain((0..junk.len()).map(Some)) {
            let mut b = base;
            if let Some(f) = fus {
                b.movement += i32::from(junk[f].movement);
                b.attack += i32::from(junk[f].attack);
                b.search += i32::from(junk[f].search);
            }
            let rest: Vec<usize> = (0..junk.len()).filter(|i| Some(*i) != fus).collect();
            // For each value, the six best positive cards: the optimum uses only these.
            let top = |stat: Stat| -> Vec<usize> {
                let mut c: Vec<usize> = rest
                    .iter()
                    .copied()
                    .filter(|i| junk[*i].get(stat) > 0)
                    .collect();
                c.sort_by_key(|i| std::cmp::Reverse(junk[*i].get(stat)));
                c.truncate(6);
                c
            };
            let picks = |c: &[usize]| -> Vec<Vec<usize>> {
                let mut out = vec![Vec::new()];
                for (x, a) in c.iter().enumerate() {
                    out.push(vec![*a]);
                    for b2 in &c[x + 1..] {
                        out.push(vec![*a, *b2]);
                    }
                }
                out
            };
            let (tm, ta, ts) = (top(Stat::Move), top(Stat::Attack), top(Stat::Search));
            for m in picks(&tm) {
                for a in picks(&ta) {
                    if a.iter().any(|x| m.contains(x)) {
                        continue;
                    }
                    for s in picks(&ts) {
                        if s.iter().any(|x| m.contains(x) || a.contains(x)) {
                            continue;
                        }
                        let sum = |set: &[usize], stat: Stat| -> i32 {
                            set.iter().map(|i| i32::from(junk[*i].get(stat))).sum()
                        };
                        let mut t = ShipStats {
                            movement: b.movement + sum(&m, Stat::Move),
                            attack: b.attack + sum(&a, Stat::Attack),
                            search: b.search + sum(&s, Stat::Search),
                        };
                        if self.rules.floor_stats_at_zero {
                            t = t.floored();
                        }
                        best = best.max(t.total());
                    }
                }
            }
        }
        best
    }

    /// Other ships on the same ring and space as this one, by seat.
    pub fn ships_here(&self, seat: Seat) -> Vec<Seat> {
        let Some(me) = self.players.get(seat) else {
            return Vec::new();
        };
        (0..self.players.len())
            .filter(|&s| {
                s != seat
                    && self.players[s].ring == me.ring
                    && self.players[s].position == me.position
            })
            .collect()
    }

    /// Cards a ram winner may take from the loser.
    pub fn takeable(&self, loser: Seat) -> Vec<String> {
        let Some(p) = self.players.get(loser) else {
            return Vec::new();
        };
        let mut out: Vec<String> = p
            .equipped()
            .filter(|(s, _)| *s != Space::Fuselage || self.rules.ram_can_take_fuselage)
            .map(|(_, c)| c.to_owned())
            .collect();
        out.sort();
        out
    }

    pub(super) fn phase(&self) -> Option<Phase> {
        match self.step {
            Step::Move { .. } | Step::Ram { .. } | Step::RamDice | Step::RamTake { .. } => {
                Some(Phase::Move)
            }
            Step::Attack { .. } | Step::AttackDie | Step::AttackBoost | Step::HitDice => {
                Some(Phase::Attack)
            }
            Step::Search { .. } | Step::Rebuild { .. } => Some(Phase::Search),
            _ => None,
        }
    }

    /// The player who acts now.
    pub fn active(&self) -> Option<Seat> {
        match self.step {
            Step::Setup | Step::Cameo | Step::Over => None,
            Step::Move { seat }
            | Step::Ram { seat }
            | Step::Attack { seat }
            | Step::Search { seat }
            | Step::Rebuild { seat } => Some(seat),
            Step::RamTake { winner, .. } => Some(winner),
            Step::RamDice => self.ram.as_ref().map(|r| r.rammer),
            Step::AttackDie | Step::AttackBoost | Step::HitDice => {
                self.attack.as_ref().map(|a| a.attacker)
            }
        }
    }
}

pub(super) fn check_seat(state: &State, seat: Seat) -> Result<(), Impossible> {
    if seat < state.players.len() {
        Ok(())
    } else {
        Err(Impossible::new(format!(
            "this match has seats 0..={}, not {seat}",
            state.players.len().saturating_sub(1)
        ))
        .ja(format!(
            "この対戦の席は0〜{}です。{seat} ではありません。",
            state.players.len().saturating_sub(1)
        )))
    }
}

pub(super) fn step_text(state: &State) -> String {
    let r = state.round;
    let who = |s: Seat| state.name(s).to_owned();
    match state.step {
        Step::Setup => "setup: deal the characters and choose the first player".into(),
        Step::Move { seat } => format!("round {r} move: {} chooses a ring and moves", who(seat)),
        Step::Ram { seat } => format!(
            "round {r} move: {} may ram a ship on the same space",
            who(seat)
        ),
        Step::RamDice => "ram: both players roll a d6".into(),
        Step::RamTake { winner, loser } => format!(
            "ram: {} may take one piece of junk from {}",
            who(winner),
            who(loser)
        ),
        Step::Attack { seat } => format!("round {r} attack: {} may attack a ship", who(seat)),
        Step::AttackDie => "attack: roll the attack die".into(),
        Step::AttackBoost => "attack: damage *-Attack cards for +4, or settle the hits".into(),
        Step::HitDice => "attack: roll one location die per hit".into(),
        Step::Search { seat } => format!("round {r} search: {} draws junk", who(seat)),
        Step::Rebuild { seat } => format!("round {r} search: {} rebuilds the ship", who(seat)),
        Step::Cameo => format!("round {r} cameo time: a short story each, from the first player"),
        Step::Over => "the game is over".into(),
    }
}

/// [`step_text`] in Japanese, in the window's words (移動, 攻撃, 探索, カメオタイム).
pub(super) fn step_text_ja(state: &State) -> String {
    let r = state.round;
    let who = |s: Seat| state.name(s).to_owned();
    match state.step {
        Step::Setup => "準備：キャラクターを配り、先手を決める".into(),
        Step::Move { seat } => format!("ラウンド{r} 移動：{}がリングを選んで移動", who(seat)),
        Step::Ram { seat } => format!(
            "ラウンド{r} 移動：{}は同じマスの船に体当たりできる",
            who(seat)
        ),
        Step::RamDice => "体当たり：両者が6面ダイスを振る".into(),
        Step::RamTake { winner, loser } => format!(
            "体当たり：{}は{}からジャンクを1つ奪える",
            who(winner),
            who(loser)
        ),
        Step::Attack { seat } => format!("ラウンド{r} 攻撃：{}は船を攻撃できる", who(seat)),
        Step::AttackDie => "攻撃：攻撃ダイスを振る".into(),
        Step::AttackBoost => "攻撃：攻撃に＊のあるカードを損傷させて＋4、または命中を確定".into(),
        Step::HitDice => "攻撃：命中1つにつき場所ダイスを1つ振る".into(),
        Step::Search { seat } => format!("ラウンド{r} 探索：{}がジャンクを引く", who(seat)),
        Step::Rebuild { seat } => format!("ラウンド{r} 探索：{}が船を組み直す", who(seat)),
        Step::Cameo => format!("ラウンド{r} カメオタイム：先手から順に短い話を1つずつ"),
        Step::Over => "ゲーム終了".into(),
    }
}
