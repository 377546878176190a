//! Jaken's rules: what a move at the table causes, and which rules it breaks.

use super::state::*;
use crate::catalogue::{JakenCard, Wind};
use crate::core::{Decision, Impossible, Seat, Violation};
use crate::game::Game;

/// One strike (attacker's ATK against the defender's DEF): SB the attacker gains, negative when
/// the attacker pays (`rules/jaken.md` §5).
pub fn strike(atk: i32, def: i32) -> i32 {
    if atk > def {
        atk - def
    } else if atk == def {
        0
    } else {
        -atk
    }
}

/// Moves `gain` SB to `seat` (negative: `seat` pays), capped at the payer's SB.
pub(super) fn settle(
    sb: &mut [i32; 2],
    seat: Seat,
    gain: i32,
    events: &mut Vec<Event>,
    moved: &mut [i32; 2],
) {
    let (from, to, due) = if gain >= 0 {
        (other(seat), seat, gain)
    } else {
        (seat, other(seat), -gain)
    };
    let amount = due.min(sb[from].max(0));
    if amount > 0 {
        sb[from] -= amount;
        sb[to] += amount;
        moved[to] += amount;
        moved[from] -= amount;
        events.push(Event::SbMoved { from, to, amount });
    }
}

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
        Jaken::apply(&mut self.state, &event);
        self.events.push(event);
    }
    /// Enters a step, running its automatic begin steps (the phase hooks).
    pub(super) fn enter(&mut self, step: Step) {
        self.push(Event::StepTo(step));
        match step {
            Step::Reveal if self.all_revealed() => self.begin_effects(),
            Step::Effects if self.state.pending_effects.is_empty() => {
                self.push(Event::StepTo(Step::Compare))
            }
            _ => {}
        }
    }
    pub(super) fn all_revealed(&self) -> bool {
        self.state
            .players
            .iter()
            .all(|p| matches!(p.placement, Placement::Revealed(_) | Placement::NoMonster))
    }
    /// B2 begins: effects whose wind allows them, parent first.
    pub(super) fn begin_effects(&mut self) {
        let Some(parent) = self.state.parent else {
            return;
        };
        let order: Vec<Seat> = [parent, other(parent)]
            .into_iter()
            .filter(|&s| {
                self.state
                    .revealed(s)
                    .and_then(|(_, m)| m.wind)
                    .is_some_and(|w| self.state.wind_allows(s, w))
            })
            .collect();
        self.push(Event::EffectsPending(order));
        self.enter(Step::Effects);
    }
    /// P1–P2: a battle begins: the OB on the parent's turn count, both draw.
    pub(super) fn begin_battle(&mut self, turn: u32) {
        self.push(Event::BattleBegan(turn));
        if turn > 1 || self.state.rules.draw_in_battle_1 {
            for seat in 0..2 {
                if self.state.players[seat].deck > 0 {
                    self.push(Event::Drew(seat));
                }
            }
        }
        self.enter(Step::ParentBg);
    }
    pub(super) fn done(self, violations: Vec<Violation>) -> Decision<Event> {
        Decision {
            events: self.events,
            violations,
        }
    }
}

pub(super) fn decide(state: &State, mv: &Move) -> Result<Decision<Event>, Impossible> {
    let mut b = Builder::new(state);
    let mut v = Vec::new();
    // After the end the match layer refuses every move by rule `match.over` (overridable).
    match mv {
        Move::FirstParent { player } => {
            check_seat(*player)?;
            if state.step != Step::Janken {
                return Err(Impossible::new(
                    "the first parent was already decided by janken",
                ));
            }
            b.push(Event::ParentIs(*player));
            b.begin_battle(1);
        }
        Move::DeclareBg { player, card } => {
            check_seat(*player)?;
            let info = state.card(card)?;
            if !matches!(info.data, JakenCard::BattleGround(_)) {
                return Err(Impossible::new(format!(
                    "{} is a monster, not a BG card",
                    info.label()
                )));
            }
            let p = &state.players[*player];
            if p.unplayed.binary_search(card).is_err() {
                return Err(Impossible::new(format!(
                    "{} has no unplayed copy of {}",
                    p.name,
                    info.label()
                )));
            }
            if p.hand < 1 {
                return Err(Impossible::new(format!("{} has no card in hand", p.name)));
            }
            let is_parent = state.parent == Some(*player);
            match state.step {
                Step::ParentBg if is_parent => {}
                Step::ChildCounter if !is_parent => {}
                Step::ParentBg | Step::ChildCounter | Step::FaceDown if !is_parent => v.push(Violation::new(
                    "jaken.bg-counter",
                    "The child may place a BG card only as a counter, right after the parent declared one.",
                    "BG発動条件 ★相手が親の場合",
                ).ja("子がBGカードを置けるのは、親が宣言した直後のカウンターとしてだけです。")),
                _ => v.push(Violation::new(
                    "jaken.bg-timing",
                    "The parent declares a BG card in the plan phase (P3), before the monsters are placed.",
                    "BG発動条件 ★自分が親の場合",
                ).ja("親はバトルプランフェーズ（P3）、モンスターを出す前にBGカードを宣言します。")),
            }
            if p.bg.as_ref().is_some_and(|bg| bg.face_up) {
                v.push(Violation::new(
                    "jaken.bg-one-active",
                    format!(
                        "{} already has an active BG; a new one may be placed once it is used up.",
                        p.name
                    ),
                    "House rule: the rulebook does not settle this; the app's default, which the table may change",
                ).ja(format!("{} にはすでに有効なBGがあります。新しいBGは使い切ってから置けます。", p.name)));
            }
            b.push(Event::BgPlaced(*player, card.clone()));
            if state.step == Step::ParentBg && is_parent {
                b.push(Event::ParentDeclaredBg);
                b.enter(Step::ChildCounter);
            } else if state.step == Step::ChildCounter {
                b.enter(Step::FaceDown);
            }
        }
        Move::PassBg { player } => {
            check_seat(*player)?;
            let is_parent = state.parent == Some(*player);
            match state.step {
                Step::ParentBg if is_parent => b.enter(Step::FaceDown),
                Step::ChildCounter if !is_parent => b.enter(Step::FaceDown),
                Step::ParentBg | Step::ChildCounter => {
                    // The other player passes for the one whose turn it is: physically possible,
                    // against the order of the plan phase. Applied anyway, the declaration closes.
                    let (whose, ja_role) = if state.step == Step::ParentBg {
                        (state.parent.unwrap_or(*player), "親")
                    } else {
                        (other(state.parent.unwrap_or(*player)), "子")
                    };
                    v.push(
                        Violation::new(
                            "jaken.bg-turn",
                            format!(
                                "It is {}'s turn to declare a BG or pass, not {}'s.",
                                state.name(whose),
                                state.name(*player)
                            ),
                            "■ BG発動条件「★ 自分が親の場合：バトルプランフェーズで、手札からBGカードを宣言と共にBGゾーンに配置可能。★ 相手が親の場合：親がBGカードをBGゾーンに配置したとき、手札にBGカードがあればカウンターとしてBGゾーンに配置可能」",
                        )
                        .ja(format!(
                            "いまはBGを宣言するかパスするのは{ja_role}の {} の番です（{} の番ではありません）。",
                            state.name(whose),
                            state.name(*player)
                        )),
                    );
                    b.enter(Step::FaceDown);
                }
                _ => {
                    return Err(Impossible::new(format!(
                        "there is no BG declaration open at {}",
                        step_text(state)
                    )));
                }
            }
        }
        Move::FaceDown { player } | Move::NoMonster { player } => {
            check_seat(*player)?;
            let face_down = matches!(mv, Move::FaceDown { .. });
            let p = &state.players[*player];
            if p.placement != Placement::Empty {
                return Err(Impossible::new(format!(
                    "{} already placed this battle",
                    p.name
                )));
            }
            if face_down && p.hand < 1 {
                return Err(Impossible::new(format!("{} has no card in hand", p.name)));
            }
            match state.step {
                Step::FaceDown => {}
                Step::ParentBg | Step::ChildCounter => v.push(wrong_step(
                    state,
                    "Placing a monster",
                    "P5, after the BG declarations",
                )),
                _ => {
                    return Err(Impossible::new(format!(
                        "monsters are placed in P5, not at {}",
                        step_text(state)
                    )));
                }
            }
            b.push(Event::Placed(*player, face_down));
            if b.state
                .players
                .iter()
                .all(|p| p.placement != Placement::Empty)
            {
                b.enter(Step::Reveal);
            }
        }
        Move::Reveal { player, card } => {
            check_seat(*player)?;
            let info = state.card(card)?;
            let JakenCard::Monster(m) = &info.data else {
                return Err(Impossible::new(format!(
                    "{} is a BG card, not a monster",
                    info.label()
                )));
            };
            let p = &state.players[*player];
            if p.unplayed.binary_search(card).is_err() {
                return Err(Impossible::new(format!(
                    "{} has no unplayed copy of {}",
                    p.name,
                    info.label()
                )));
            }
            if p.placement != Placement::FaceDown {
                return Err(Impossible::new(format!(
                    "{} has no face-down monster to reveal",
                    p.name
                )));
            }
            if state.step != Step::Reveal {
                v.push(wrong_step(
                    state,
                    "Revealing",
                    "B1, once both monsters are face down",
                ));
            }
            if u32::from(m.cost) > state.turn {
                v.push(Violation::new(
                    "jaken.summon-cost",
                    format!(
                        "A monster's summon cost must be at most the battle number: {} costs {}, this is battle {}.",
                        info.label(),
                        m.cost,
                        state.turn
                    ),
                    "❷ 召喚コスト",
                ).ja(format!("召喚コストはバトル数以下でなければなりません：{} のコストは{}、いまはバトル{}です。", info.label(), m.cost, state.turn)));
            }
            b.push(Event::Revealed(*player, card.clone()));
            if b.all_revealed() && state.step == Step::Reveal {
                b.begin_effects();
            }
        }
        Move::Effect {
            player,
            atk,
            def,
            opp_atk,
            opp_def,
            sb,
            ..
        } => {
            check_seat(*player)?;
            check_change(&[*atk, *def, *opp_atk, *opp_def, *sb])?;
            let Some((id, m)) = state.revealed(*player) else {
                return Err(Impossible::new(format!(
                    "{} has no revealed monster",
                    state.name(*player)
                )));
            };
            let label = state.card(id).map(CardInfo::label).unwrap_or_default();
            if !matches!(state.step, Step::Effects | Step::Compare) {
                v.push(wrong_step(
                    state,
                    "Resolving an effect",
                    "B2, after both monsters are revealed",
                ));
            }
            match m.wind {
                None => v.push(
                    Violation::new(
                        "jaken.no-effect",
                        format!("{label} is a normal monster (NM) and has no effect."),
                        "⑥ 効果内容",
                    )
                    .ja(format!(
                        "{label} は通常モンスター（NM）で、効果はありません。"
                    )),
                ),
                Some(w) if !state.wind_allows(*player, w) => v.push(
                    Violation::new(
                        "jaken.wind",
                        format!(
                            "{label}'s effect is {}: it works only {}.",
                            w.label(),
                            match w {
                                Wind::Jicha => "while its owner is the parent",
                                Wind::Tacha => "while the opponent is the parent",
                                Wind::Ryancha => "always",
                            }
                        ),
                        "⑨ 効果条件",
                    )
                    .ja(format!(
                        "{label} の効果は{}です：{}。",
                        w.label(),
                        match w {
                            Wind::Jicha => "自分が親のときだけ有効",
                            Wind::Tacha => "相手が親のときだけ有効",
                            Wind::Ryancha => "いつでも有効",
                        }
                    )),
                ),
                Some(_) => {
                    if state
                        .pending_effects
                        .first()
                        .is_some_and(|first| first != player)
                    {
                        v.push(Violation::new(
                            "jaken.effect-order",
                            "Effects are always activated starting from the parent (OB holder).",
                            "⑥ 効果は必ず親から発動",
                        ).ja("効果は必ず親（OB所有）から発動します。"));
                    } else if !state.pending_effects.contains(player) {
                        v.push(
                            Violation::new(
                                "jaken.effect-once",
                                format!("{label}'s effect was already resolved this battle."),
                                "バトルシークエンス",
                            )
                            .ja(format!("{label} の効果はこのバトルですでに解決しました。")),
                        );
                    }
                }
            }
            b.push(Event::EffectResolved(
                *player,
                [*atk, *def, *opp_atk, *opp_def],
            ));
            if *sb != 0 {
                let mut sbs = [state.players[0].sb, state.players[1].sb];
                let mut moved = [0; 2];
                let mut evs = Vec::new();
                settle(&mut sbs, *player, *sb, &mut evs, &mut moved);
                for e in evs {
                    b.push(e);
                }
            }
            if state.step == Step::Effects && b.state.pending_effects.is_empty() {
                b.enter(Step::Compare);
            }
            if b.state.players.iter().any(|p| p.sb <= 0) {
                b.enter(Step::Over);
            }
        }
        Move::NoEffect { player } => {
            check_seat(*player)?;
            if state.step != Step::Effects || !state.pending_effects.contains(player) {
                return Err(Impossible::new(format!(
                    "{} has no effect waiting to resolve",
                    state.name(*player)
                )));
            }
            if state.pending_effects.first() != Some(player) {
                v.push(
                    Violation::new(
                        "jaken.effect-order",
                        "Effects are always activated starting from the parent (OB holder).",
                        "⑥ 効果は必ず親から発動",
                    )
                    .ja("効果は必ず親（OB所有）から発動します。"),
                );
            }
            b.push(Event::EffectResolved(*player, [0; 4]));
            if b.state.pending_effects.is_empty() {
                b.enter(Step::Compare);
            }
        }
        Move::UseBg {
            player,
            uses,
            atk,
            def,
        } => {
            check_seat(*player)?;
            check_change(&[*atk, *def])?;
            let p = &state.players[*player];
            let Some(bg) = p.bg.as_ref().filter(|bg| bg.face_up) else {
                return Err(Impossible::new(format!("{} has no active BG card", p.name)));
            };
            if *uses == 0 {
                return Err(Impossible::new("a BG use spends at least 1"));
            }
            if !state.step.is_strategy_phase() {
                v.push(wrong_step(
                    state,
                    "Using a BG",
                    "the strategy phase, from P3 until the SB comparison",
                ));
            }
            if state.rules.child_bg_after_parent_declaration
                && state.parent.is_some_and(|parent| parent != *player)
                && !state.parent_declared_bg
            {
                v.push(
                    Violation::new(
                        "jaken.bg-child-after-parent",
                        format!(
                            "{} is the child: a BG's effect is used by the child only in a battle in which the parent declared a BG, and the parent declared none this battle.",
                            p.name
                        ),
                        "■ BG発動条件「★ 相手が親の場合：親がBGカードをBGゾーンに配置したとき、手札にBGカードがあればカウンターとしてBGゾーンに配置可能」",
                    )
                    .ja(format!(
                        "{} は子です。子がBGの効果を使えるのは、親がBGを宣言したバトルだけです。このバトルで親はBGを宣言していません。",
                        p.name
                    )),
                );
            }
            if *uses > bg.uses_left {
                v.push(
                    Violation::new(
                        "jaken.bg-limit",
                        format!("This BG has {} use(s) left, not {uses}.", bg.uses_left),
                        "効果回数制限",
                    )
                    .ja(format!(
                        "このBGの残り使用回数は{}回です（{uses}回ではありません）。",
                        bg.uses_left
                    )),
                );
            }
            if !state.rules.bg_multiple_uses_per_battle && bg.uses_this_battle > 0 {
                v.push(Violation::new(
                    "jaken.bg-once-per-battle",
                    "House rule: a BG is used at most once per battle.",
                    "House rule: the rulebook does not settle this; the app's default, which the table may change",
                ).ja("ハウスルール：BGは1バトルに1回まで使えます。"));
            }
            if let (Some((_, m)), Some(JakenCard::BattleGround(g))) = (
                state.revealed(*player),
                state.cards.get(&bg.card).map(|c| &c.data),
            ) && g.target_tribe != m.tribe
            {
                v.push(
                    Violation::new(
                        "jaken.bg-tribe",
                        format!(
                            "This BG works only for {} monsters, not {}.",
                            g.target_tribe, m.tribe
                        ),
                        "③ 対象種族",
                    )
                    .ja(format!(
                        "このBGは{}のモンスターにだけ有効です（{}ではありません）。",
                        g.target_tribe, m.tribe
                    )),
                );
            }
            let spent = (*uses).min(bg.uses_left);
            b.push(Event::BgUsed(*player, spent, *atk, *def));
            if bg.uses_left <= spent {
                b.push(Event::BgFlipped(*player));
            }
        }
        Move::Compare {} => {
            if state.step != Step::Compare {
                return Err(Impossible::new(match state.step {
                    Step::Effects => "resolve the open effects first (parent first)".to_owned(),
                    _ => format!("ATK/DEF are compared at B4, not at {}", step_text(state)),
                }));
            }
            let Some(parent) = state.parent else {
                return Err(Impossible::new("no parent yet"));
            };
            let mut notes = Vec::new();
            let mut values = [(0, 0); 2];
            for (seat, value) in values.iter_mut().enumerate() {
                let (v, note) = state.effective(seat);
                *value = v;
                notes.extend(note);
            }
            let strikes = [
                strike(values[0].0, values[1].1),
                strike(values[1].0, values[0].1),
            ];
            let mut sb = [state.players[0].sb, state.players[1].sb];
            let mut moved = [0; 2];
            let mut evs = Vec::new();
            match state.rules.settlement {
                Settlement::Net => {
                    settle(&mut sb, 0, strikes[0] - strikes[1], &mut evs, &mut moved)
                }
                Settlement::ParentFirst => {
                    settle(&mut sb, parent, strikes[parent], &mut evs, &mut moved);
                    if sb.iter().all(|&s| s > 0) {
                        settle(
                            &mut sb,
                            other(parent),
                            strikes[other(parent)],
                            &mut evs,
                            &mut moved,
                        );
                    }
                }
            }
            b.push(Event::Struck(StrikeReport {
                battle: state.turn,
                values,
                strikes,
                moved,
                notes,
            }));
            for e in evs {
                b.push(e);
            }
            b.push(Event::Trashed(0));
            b.push(Event::Trashed(1));
            if sb.iter().any(|&s| s <= 0) {
                b.enter(Step::Over);
            } else {
                b.enter(Step::BattleEnd);
            }
        }
        Move::EndBattle {} => {
            if state.step != Step::BattleEnd {
                return Err(Impossible::new(format!(
                    "the battle ends after the SB comparison, not at {}",
                    step_text(state)
                )));
            }
            let Some(parent) = state.parent else {
                return Err(Impossible::new("no parent yet"));
            };
            if !state.rules.bg_stays_until_exhausted {
                for seat in 0..2 {
                    if state.players[seat].bg.is_some() {
                        b.push(Event::BgDiscarded(seat));
                    }
                }
            }
            if state.turn >= BATTLES {
                b.enter(Step::Over);
            } else {
                b.push(Event::ParentIs(other(parent)));
                b.begin_battle(state.turn + 1);
            }
        }
    }
    Ok(b.done(v))
}
