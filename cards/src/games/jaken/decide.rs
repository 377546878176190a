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
                    "the first parent was already decided by janken; the OB passes at each battle end",
                )
                .ja("最初の親はすでにジャンケンで決まっています。OBはバトルエンドごとに渡します"));
            }
            b.push(Event::ParentIs(*player));
            b.begin_battle(1);
        }
        Move::DeclareBg { player, card } => {
            check_seat(*player)?;
            let info = state.card(card)?;
            let p = &state.players[*player];
            if p.unplayed.binary_search(card).is_err() {
                return Err(no_copy(&p.name, info));
            }
            if p.hand < 1 {
                return Err(no_hand(&p.name));
            }
            if !matches!(info.data, JakenCard::BattleGround(_)) {
                // Physically possible (any card can be put in the BG zone); applied anyway, it
                // lies there with no uses, face down.
                v.push(
                    Violation::new(
                        "jaken.bg-kind",
                        format!(
                            "{} declares {}, a monster card, as a BG: only a BG card is placed in the BG zone.",
                            p.name,
                            info.label()
                        ),
                        "■ BG発動条件「● BGカードが手札にある時にのみ、発動することができる。」",
                    )
                    .ja(format!(
                        "{} がBGとして宣言した {} はモンスターカードです。BGゾーンに置けるのはBGカードだけです。",
                        p.name,
                        info.label_ja()
                    )),
                );
            }
            let is_parent = state.parent == Some(*player);
            let (now, now_ja) = (step_text(state), step_text_ja(state));
            match (state.step, state.parent) {
                (Step::ParentBg, _) if is_parent => {}
                (Step::ChildCounter, _) if !is_parent => {}
                (_, Some(parent)) if !is_parent => {
                    let parent = state.name(parent);
                    let (en, ja) = if state.parent_declared_bg {
                        (
                            format!(
                                "{} is the child: a counter BG is placed right when the parent {parent} places one, not at {now}.",
                                p.name
                            ),
                            format!(
                                "{} は子です。カウンターのBGは、親の {parent} がBGを置いたときに置きます。いまは {now_ja} です。",
                                p.name
                            ),
                        )
                    } else {
                        (
                            format!(
                                "{} is the child: the child places a BG card only as a counter when the parent places one, and the parent {parent} has placed no BG this battle.",
                                p.name
                            ),
                            format!(
                                "{} は子です。子がBGカードを置けるのは、親がBGカードを置いたときのカウンターとしてだけです。このバトルで親の {parent} はBGを置いていません。",
                                p.name
                            ),
                        )
                    };
                    v.push(Violation::new("jaken.bg-counter", en, REF_BG_CHILD).ja(ja));
                }
                _ => v.push(
                    Violation::new(
                        "jaken.bg-timing",
                        format!(
                            "{} declares a BG at {now}: the parent declares a BG card in the battle plan phase (P3), before the monsters are placed.",
                            p.name
                        ),
                        REF_BG_PARENT,
                    )
                    .ja(format!(
                        "{} がBGを宣言したのは {now_ja} です。親がBGカードを宣言するのはバトルプランフェイズ(作戦)、モンスターを出す前です。",
                        p.name
                    )),
                ),
            }
            if let Some(bg) = p.bg.as_ref().filter(|bg| bg.face_up) {
                let old = state.cards.get(&bg.card);
                v.push(Violation::new(
                    "jaken.bg-one-active",
                    format!(
                        "{} already has an active BG, {}, with {} use(s) left; a new one may be placed once it is used up.",
                        p.name,
                        old.map_or_else(|| bg.card.clone(), CardInfo::label),
                        bg.uses_left
                    ),
                    HOUSE_RULE,
                ).ja(format!(
                    "{} にはすでに有効なBG {}（残り{}回）があります。新しいBGは使い切ってから置けます。",
                    p.name,
                    old.map_or_else(|| bg.card.clone(), CardInfo::label_ja),
                    bg.uses_left
                )));
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
                    let (whose, role, ja_role) = if state.step == Step::ParentBg {
                        (state.parent.unwrap_or(*player), "parent", "親")
                    } else {
                        (other(state.parent.unwrap_or(*player)), "child", "子")
                    };
                    v.push(
                        Violation::new(
                            "jaken.bg-turn",
                            format!(
                                "It is the {role} {}'s turn to declare a BG or pass, not {}'s.",
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
                        "there is no BG declaration open at {}: nothing to pass",
                        step_text(state)
                    ))
                    .ja(format!(
                        "いまは {} で、BGの宣言を受け付けていません。パスするものはありません",
                        step_text_ja(state)
                    )));
                }
            }
        }
        Move::FaceDown { player } | Move::NoMonster { player } => {
            check_seat(*player)?;
            let face_down = matches!(mv, Move::FaceDown { .. });
            let p = &state.players[*player];
            if face_down && p.hand < 1 {
                return Err(no_hand(&p.name));
            }
            match &p.placement {
                Placement::Empty => {}
                Placement::FaceDown | Placement::NoMonster => {
                    // Physically possible (a second card put out); applied anyway, the new
                    // choice replaces the first (a face-down card goes back to the hand).
                    let (en, ja) = if p.placement == Placement::FaceDown {
                        ("a monster face down", "モンスターを裏向きに配置")
                    } else {
                        (
                            "no monster (ATK 0 / DEF 0)",
                            "モンスターなし（攻撃力0・守備力0）",
                        )
                    };
                    v.push(
                        Violation::new(
                            "jaken.one-card",
                            format!(
                                "{} already put out {en} in battle {}: each player puts out one card per battle.",
                                p.name, state.turn
                            ),
                            "④ ゲームの進行「1バトルごとに、両プレイヤーは手札から1枚バトルフィールドに出します。」",
                        )
                        .ja(format!(
                            "{} はバトル{}ですでに{ja}しています。1バトルごとに、両プレイヤーは手札から1枚バトルフィールドに出します。",
                            p.name, state.turn
                        )),
                    );
                    if p.placement == Placement::FaceDown {
                        b.push(Event::SetHand(*player, p.hand + 1));
                    }
                }
                Placement::Revealed(card) => {
                    return Err(Impossible::new(format!(
                        "{}'s {} is already face up on the battle field in battle {}",
                        p.name,
                        state.label(card),
                        state.turn
                    ))
                    .ja(format!(
                        "{} の {} はバトル{}ですでにバトルフィールドに表向きです",
                        p.name,
                        state.label_ja(card),
                        state.turn
                    )));
                }
            }
            match state.step {
                Step::FaceDown | Step::Reveal => {}
                Step::ParentBg | Step::ChildCounter => v.push(wrong_step(
                    state,
                    ["Placing a monster", "モンスターの配置"],
                    [
                        "P5, after the BG declarations",
                        "BGの宣言の後のバトルプランフェイズ(作戦)",
                    ],
                    REF_FACE_DOWN,
                )),
                _ => {
                    return Err(Impossible::new(format!(
                        "monsters are placed in P5, not at {}: no battle is open for a card",
                        step_text(state)
                    ))
                    .ja(format!(
                        "モンスターを出すのはバトルプランフェイズ(作戦)です。いまは {} で、カードを出すバトルがありません",
                        step_text_ja(state)
                    )));
                }
            }
            b.push(Event::Placed(*player, face_down));
            if state.step != Step::Reveal
                && b.state
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
            let p = &state.players[*player];
            if p.unplayed.binary_search(card).is_err() {
                return Err(no_copy(&p.name, info));
            }
            if p.placement != Placement::FaceDown {
                return Err(
                    Impossible::new(format!("{} has no face-down card to reveal", p.name)).ja(
                        format!("{} には表向きにする裏向きのカードがありません", p.name),
                    ),
                );
            }
            if state.step != Step::Reveal {
                v.push(wrong_step(
                    state,
                    ["Revealing", "表向きにすること"],
                    [
                        "B1, once both monsters are face down",
                        "両者がカードを裏向きに配置した後のバトルフェイズ(決戦)",
                    ],
                    REF_REVEAL,
                ));
            }
            match &info.data {
                JakenCard::Monster(m) if u32::from(m.cost) > state.turn => v.push(Violation::new(
                    "jaken.summon-cost",
                    format!(
                        "A monster's summon cost must be at most the battle number: {} costs {}, this is battle {} ({}'s monster).",
                        info.label(),
                        m.cost,
                        state.turn,
                        p.name
                    ),
                    "❷ 召喚コスト「召喚したい時のターン数とコストの数字が同じか、ターン数よりコストの数字が小さい場合に召喚可能。」",
                ).ja(format!(
                    "{} の {} のコストは{}です。召喚できるのはコストがバトル数以下のときで、いまはバトル{}です。",
                    p.name,
                    info.label_ja(),
                    m.cost,
                    state.turn
                ))),
                JakenCard::Monster(_) => {}
                JakenCard::BattleGround(_) => {
                    // Physically possible (the face-down card was a BG); applied anyway, it
                    // fights as no monster: ATK 0 / DEF 0, no effect.
                    v.push(
                        Violation::new(
                            "jaken.reveal-kind",
                            format!(
                                "{} reveals {}, a BG card, on the battle field: a battle is fought with a monster card (a BG card goes in the BG zone).",
                                p.name,
                                info.label()
                            ),
                            "② カードの種類「ノーマルモンスター(NM)カード 相手と戦うモンスターカードです。」「バトルグラウンド(BG)カード 自分のグラウンド全体に特定の効果を及ぼすカードです。」",
                        )
                        .ja(format!(
                            "{} がバトルフィールドで表向きにした {} はBGカードです。戦うのはモンスターカードです（BGカードはBGゾーンに置きます）。",
                            p.name,
                            info.label_ja()
                        )),
                    );
                }
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
            let name = state.name(*player);
            let Some((id, m)) = state.revealed(*player) else {
                return Err(Impossible::new(format!(
                    "{name} has no revealed monster: there is no effect to enter"
                ))
                .ja(format!(
                    "{name} には表向きのモンスターがありません。入力する効果がありません"
                )));
            };
            let (label, label_ja) = state
                .card(id)
                .map(|c| (c.label(), c.label_ja()))
                .unwrap_or_default();
            let effects_open = matches!(state.step, Step::Effects | Step::Compare);
            if !effects_open {
                v.push(wrong_step(
                    state,
                    ["Resolving an effect", "効果の発動"],
                    [
                        "B2, after both monsters are revealed",
                        "両者が表向きにした後のバトルフェイズ(決戦)",
                    ],
                    REF_EFFECTS,
                ));
            }
            match m.wind {
                None => v.push(
                    Violation::new(
                        "jaken.no-effect",
                        format!("{name}'s {label} is a normal monster (NM) and has no effect."),
                        "② カードの種類「ノーマルモンスター(NM)カード 相手と戦うモンスターカードです。」「エフェクトモンスター(EM)カード 効果を発動して戦況を大きく変えるモンスターカードです。」",
                    )
                    .ja(format!(
                        "{name} の {label_ja} はノーマルモンスター(NM)で、効果はありません。"
                    )),
                ),
                Some(w) if !state.wind_allows(*player, w) => {
                    let role = if state.parent == Some(*player) {
                        ("the parent", "親")
                    } else {
                        ("the child", "子")
                    };
                    let (when, when_ja, words) = match w {
                        Wind::Jicha => (
                            "only while its owner is the parent",
                            "自分が親(OB所有)のターンの場合のみ有効",
                            "● 自家 ： 自分が親(OB所有)のターンの場合のみ有効",
                        ),
                        Wind::Tacha => (
                            "only while the opponent is the parent",
                            "相手が親(OB所有)のターンの場合のみ有効",
                            "● 他家 ： 相手が親(OB所有)のターンの場合のみ有効",
                        ),
                        Wind::Ryancha => (
                            "always",
                            "親(OB所有者)のターンがどちらの場合でも有効",
                            "● 両家 ： 親(OB所有者)のターンがどちらの場合でも有効",
                        ),
                    };
                    v.push(
                        Violation::new(
                            "jaken.wind",
                            format!(
                                "{name}'s {label} has a {} effect: it works {when}, and {name} is {} in battle {}.",
                                w.label(),
                                role.0,
                                state.turn
                            ),
                            &format!("⑨ 効果条件「{words}」"),
                        )
                        .ja(format!(
                            "{name} の {label_ja} の効果は{}です（{when_ja}）。バトル{}の {name} は{}です。",
                            w.label_ja(),
                            state.turn,
                            role.1
                        )),
                    );
                }
                Some(_) if effects_open => {
                    if !state.pending_effects.contains(player) {
                        v.push(
                            Violation::new(
                                "jaken.effect-once",
                                format!(
                                    "{name}'s {label}: its effect was already resolved in battle {}.",
                                    state.turn
                                ),
                                REF_EFFECTS,
                            )
                            .ja(format!(
                                "{name} の {label_ja} の効果は、バトル{}ですでに発動しました。",
                                state.turn
                            )),
                        );
                    } else if let Some(&first) =
                        state.pending_effects.first().filter(|&f| f != player)
                    {
                        v.push(effect_order(state, first, *player));
                    }
                }
                Some(_) => {}
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
                ))
                .ja(format!(
                    "{} には発動を待つ効果がありません",
                    state.name(*player)
                )));
            }
            if let Some(&first) = state.pending_effects.first().filter(|&f| f != player) {
                v.push(effect_order(state, first, *player));
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
            let Some(bg) = p.bg.as_ref() else {
                return Err(
                    Impossible::new(format!("{} has no BG card in the BG zone", p.name))
                        .ja(format!("{} のBGゾーンにBGカードがありません", p.name)),
                );
            };
            if *uses == 0 {
                return Err(Impossible::new("a BG use spends at least 1")
                    .ja("BGの使用は1回以上を消費します"));
            }
            let bg_card = state.cards.get(&bg.card);
            let bg_label = bg_card.map_or_else(|| bg.card.clone(), CardInfo::label);
            let bg_label_ja = bg_card.map_or_else(|| bg.card.clone(), CardInfo::label_ja);
            if !state.step.is_strategy_phase() {
                v.push(wrong_step(
                    state,
                    ["Using a BG", "BGの使用"],
                    [
                        "the strategy phase, from P3 until the SB comparison",
                        "戦略フェーズ（バトルプランフェイズ(作戦)からSBの移動まで）",
                    ],
                    REF_BG_LIMIT,
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
                            "{} is the child: a BG's effect is used by the child only in a battle in which the parent declared a BG, and the parent {} declared none this battle (battle {}).",
                            p.name,
                            state.parent.map_or("?", |s| state.name(s)),
                            state.turn
                        ),
                        "■ BG発動条件「★ 相手が親の場合：親がBGカードをBGゾーンに配置したとき、手札にBGカードがあればカウンターとしてBGゾーンに配置可能」",
                    )
                    .ja(format!(
                        "{} は子です。子がBGの効果を使えるのは、親がBGを宣言したバトルだけです。このバトル（バトル{}）で親の {} はBGを宣言していません。",
                        p.name,
                        state.turn,
                        state.parent.map_or("?", |s| state.name(s))
                    )),
                );
            }
            if *uses > bg.uses_left {
                let (en, ja) = if bg.uses_left == 0 {
                    (
                        format!(
                            "{}'s BG {bg_label} is used up (0 uses left, turned face down); {uses} use(s) were declared.",
                            p.name
                        ),
                        format!(
                            "{} のBG {bg_label_ja} は使い切られています（残り0回、裏返して伏せてあります）。{uses}回の使用が宣言されました。",
                            p.name
                        ),
                    )
                } else {
                    (
                        format!(
                            "{}'s BG {bg_label} has {} use(s) left; {uses} were declared.",
                            p.name, bg.uses_left
                        ),
                        format!(
                            "{} のBG {bg_label_ja} の残り使用回数は{}回です。{uses}回の使用が宣言されました。",
                            p.name, bg.uses_left
                        ),
                    )
                };
                v.push(
                    Violation::new(
                        "jaken.bg-limit",
                        en,
                        &format!("{REF_BG_LIMIT}「★ 効果使用回数が上限に達した場合、カードを裏返して伏せる。」"),
                    )
                    .ja(ja),
                );
            }
            if !state.rules.bg_multiple_uses_per_battle && bg.uses_this_battle > 0 {
                v.push(Violation::new(
                    "jaken.bg-once-per-battle",
                    format!(
                        "House rule: a BG is used at most once per battle; {} already used {bg_label} in battle {}.",
                        p.name, state.turn
                    ),
                    HOUSE_RULE,
                ).ja(format!(
                    "ハウスルール：BGは1バトルに1回まで使えます。{} はバトル{}ですでに {bg_label_ja} を使いました。",
                    p.name, state.turn
                )));
            }
            if let (Some((id, m)), Some(JakenCard::BattleGround(g))) =
                (state.revealed(*player), bg_card.map(|c| &c.data))
                && g.target_tribe != m.tribe
            {
                let monster = state.cards.get(id);
                v.push(
                    Violation::new(
                        "jaken.bg-tribe",
                        format!(
                            "{}'s BG {bg_label} works only for {} monsters; {} is {}.",
                            p.name,
                            g.target_tribe,
                            monster.map_or_else(|| id.to_owned(), CardInfo::label),
                            m.tribe
                        ),
                        "③ 対象種族「表示されている種族のモンスターカードにのみ有効。」",
                    )
                    .ja(format!(
                        "{} のBG {bg_label_ja} は{}のモンスターにだけ有効です。{} は{}です。",
                        p.name,
                        g.target_tribe,
                        monster.map_or_else(|| id.to_owned(), CardInfo::label_ja),
                        m.tribe
                    )),
                );
            }
            let spent = (*uses).min(bg.uses_left);
            b.push(Event::BgUsed(*player, spent, *atk, *def));
            if bg.face_up && bg.uses_left <= spent {
                b.push(Event::BgFlipped(*player));
            }
        }
        Move::Compare {} => {
            match state.step {
                Step::Compare => {}
                Step::Effects => {
                    // Physically possible (the table compares before an open effect is
                    // entered); applied anyway, the open effects are skipped.
                    let open: Vec<&str> = state
                        .pending_effects
                        .iter()
                        .map(|&s| state.name(s))
                        .collect();
                    v.push(
                        Violation::new(
                            "jaken.effect-before-compare",
                            format!(
                                "ATK and DEF are compared once the effects are resolved, parent first; {} still has an effect open.",
                                open.join(" and ")
                            ),
                            REF_EFFECTS,
                        )
                        .ja(format!(
                            "攻撃力と守備力を比べるのは、効果を親から発動した後です。{} の効果がまだ発動していません。",
                            open.join("と")
                        )),
                    );
                }
                _ => {
                    return Err(Impossible::new(format!(
                        "ATK/DEF are compared at B4, once both monsters are revealed, not at {}",
                        step_text(state)
                    ))
                    .ja(format!(
                        "攻撃力・守備力を比べるのは両者が表向きにした後のバトルフェイズ(決戦)です。いまは {} です",
                        step_text_ja(state)
                    )));
                }
            }
            let Some(parent) = state.parent else {
                return Err(Impossible::new("no parent yet").ja("まだ親が決まっていません"));
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
            match state.step {
                Step::BattleEnd => {}
                Step::Effects | Step::Compare => {
                    // Physically possible (the OB handed over with both monsters face up and
                    // no comparison); applied anyway, both go to the trash and no SB moves.
                    v.push(wrong_step(
                        state,
                        ["Ending the battle", "バトルエンド(終決)"],
                        [
                            "the battle end, after the SB comparison",
                            "攻撃力・守備力を比べてSBを移動した後",
                        ],
                        "バトルシークエンス ❸ バトルエンド(終決)「■ 親交代の宣言 親はOBを相手プレイヤーに渡す。」（❷ バトルフェイズ(決戦)「■ どちらかの攻撃が成功した場合、SBを移動させる。」「■ 決戦で使用したカードは「トラッシュ」へ送る。」の後）",
                    ));
                    b.push(Event::Trashed(0));
                    b.push(Event::Trashed(1));
                }
                _ => {
                    return Err(Impossible::new(format!(
                        "the battle ends after the SB comparison, once both monsters are revealed, not at {}",
                        step_text(state)
                    ))
                    .ja(format!(
                        "バトルエンド(終決)は両者が表向きにしてSBを移動した後です。いまは {} です",
                        step_text_ja(state)
                    )));
                }
            }
            let Some(parent) = state.parent else {
                return Err(Impossible::new("no parent yet").ja("まだ親が決まっていません"));
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

/// The card is not in the player's deck or hand (already played, or the other player's).
fn no_copy(name: &str, info: &CardInfo) -> Impossible {
    Impossible::new(format!("{name} has no unplayed copy of {}", info.label())).ja(format!(
        "{name} の山札と手札に {} はありません",
        info.label_ja()
    ))
}

fn no_hand(name: &str) -> Impossible {
    Impossible::new(format!("{name} has no card in hand"))
        .ja(format!("{name} の手札にカードがありません"))
}

/// `jaken.effect-order`: `player` enters an effect while `first` (the parent) is still to
/// activate theirs.
fn effect_order(state: &State, first: Seat, player: Seat) -> Violation {
    let card = state
        .revealed(first)
        .and_then(|(id, _)| state.cards.get(id));
    let (label, label_ja) = card.map(|c| (c.label(), c.label_ja())).unwrap_or_default();
    Violation::new(
        "jaken.effect-order",
        format!(
            "Effects are activated starting from the parent (OB holder): {}'s {label} comes before {}'s effect.",
            state.name(first),
            state.name(player)
        ),
        REF_PARENT_FIRST,
    )
    .ja(format!(
        "効果は必ず親(OB所有)から発動します。{} の {label_ja} の効果が {} の効果より先です。",
        state.name(first),
        state.name(player)
    ))
}
