//! Yomi's rules: what a move at the table causes, and which rules it breaks.

use super::card::{MoveKind, Rank};
use super::scratch::*;
use super::state::*;
use crate::catalogue::YomiCard;
use crate::core::{Decision, Impossible, Violation};

pub(super) fn decide(state: &State, mv: &Move) -> Result<Decision<Event>, Impossible> {
    // After the end the match layer refuses every move by rule `match.over` (overridable).
    let mut b = Builder::new(state);
    let mut v = Vec::new();
    match mv {
        Move::Proceed {} => match state.step {
            Step::DrawAbilities => b.enter(Step::Select),
            Step::RevealAbilities => b.decide_combat(),
            Step::DuringCombat => b.escape_phase(),
            Step::GoldBurst | Step::PowerUp => {
                for p in &state.players {
                    if p.aces_owed > 0 {
                        v.push(Violation::new(
                            "yomi.ace-search-open",
                            format!(
                                "{} may still search {} Ace(s): search them, or give them up (forgo-aces) if none is left.",
                                p.name, p.aces_owed
                            ),
                            "5-1, 5-4, 5-5",
                        ).ja(format!("{} はまだエースを{}枚サーチできます。サーチするか、残っていなければ放棄（forgo-aces）してください。", p.name, p.aces_owed)));
                    }
                }
                for s in 0..2 {
                    if state.players[s].aces_owed > 0 {
                        b.push(Event::AcesForgone(s));
                    }
                }
                if state.step == Step::GoldBurst {
                    b.end_of_combat();
                } else {
                    b.end_of_turn();
                }
            }
            Step::EndOfCombat => b.power_up(),
            Step::EndOfTurn => b.hand_limit(),
            _ => return Err(not_now(state, "going on to the next step")),
        },
        Move::FaceDown { player } | Move::NoCard { player } => {
            check_seat(*player)?;
            let p = &state.players[*player];
            if state.step != Step::Select {
                return Err(not_now(state, "choosing a combat card"));
            }
            if p.play != Play::Empty {
                return Err(Impossible::new(format!(
                    "{} already chose this turn (re-choose only after the opponent's \"no card\")",
                    p.name
                )));
            }
            if matches!(mv, Move::FaceDown { .. }) {
                if p.hand < 1 {
                    return Err(Impossible::new(format!("{} has no card in hand", p.name)));
                }
                b.push(Event::FaceDown(*player));
            } else {
                b.push(Event::NoCard(*player));
            }
            if b.state.players.iter().all(|p| p.play != Play::Empty) {
                b.enter(Step::Reveal);
                b.after_reveal();
            }
        }
        Move::Rechoose { player } => {
            check_seat(*player)?;
            let p = &state.players[*player];
            if !matches!(state.step, Step::Select | Step::Reveal)
                || !matches!(p.play, Play::FaceDown | Play::NoCard)
            {
                return Err(Impossible::new(format!(
                    "{} has no unrevealed choice to take back",
                    p.name
                )));
            }
            if state.no_card_by != Some(other(*player)) {
                v.push(
                    Violation::new(
                        "yomi.rechoose",
                        format!(
                            "{} may choose again only after {} declared \"no card\".",
                            p.name,
                            state.name(other(*player))
                        ),
                        "2-1 ノーカード",
                    )
                    .ja(format!(
                        "{} が選び直せるのは、{} が「ノーカード」を宣言した後だけです。",
                        p.name,
                        state.name(other(*player))
                    )),
                );
            }
            b.push(Event::Rechose(*player));
            if state.step == Step::Reveal {
                b.push(Event::StepTo(Step::Select));
            }
        }
        Move::Reveal { player, card, end } => {
            check_seat(*player)?;
            let info = state.info(card)?;
            let p = &state.players[*player];
            if state.step != Step::Reveal || p.play != Play::FaceDown {
                return Err(Impossible::new(format!(
                    "{} has no face-down combat card to reveal",
                    p.name
                )));
            }
            if state.unseen_count(*player, card) == 0 {
                return Err(Impossible::new(format!(
                    "{} has no unplayed copy of {}",
                    p.name,
                    info.label()
                )));
            }
            let mut extra = 0;
            match &info.data {
                YomiCard::Character(_) => {
                    return Err(Impossible::new(format!(
                        "{} is a character card, set aside at setup",
                        info.label()
                    )));
                }
                YomiCard::Joker(_) => {}
                YomiCard::Move(m) => {
                    let e = m.end(*end);
                    if e.kind == MoveKind::Ability {
                        v.push(Violation::new(
                            "yomi.not-a-combat-move",
                            format!(
                                "The {} end of {} is an ability, not a combat move: reveal the other end (played anyway, it counts as \"no card\").",
                                end_name(*end),
                                info.label()
                            ),
                            "House rule: the rulebook does not settle this; the app's default, which the table may change",
                        ).ja(format!("{} の{}側は能力で、戦闘の技ではありません。反対側を表にしてください（そのまま出すと「ノーカード」扱いです）。", info.label(), if end_name(*end) == "top" { "上" } else { "下" })));
                    }
                    let need = e.extra_aces();
                    if need > 0 {
                        let aces = aces_available(state, *player, card);
                        if aces < usize::from(need) {
                            v.push(Violation::new(
                                "yomi.extra-aces",
                                format!(
                                    "{} needs {} Aces in all: {} more Ace(s) to put out, and {} has only {aces} other Ace(s) unplayed.",
                                    e.name_en, e.aces, need, p.name
                                ),
                                "2-2",
                            ).ja(format!("{} にはエースが合計{}枚必要です：あと{}枚出す必要があり、{} の未使用のほかのエースは{aces}枚だけです。", e.name_en, e.aces, need, p.name)));
                        }
                        extra = need.min(u8::try_from(aces).unwrap_or(u8::MAX));
                    }
                }
            }
            b.push(Event::Revealed(*player, card.clone(), *end, extra));
            b.after_reveal();
        }
        Move::ExtraAce { player, card } => {
            check_seat(*player)?;
            let info = state.info(card)?;
            let p = &state.players[*player];
            if p.aces_pending == 0 {
                return Err(Impossible::new(format!(
                    "{} has no super move waiting for extra Aces",
                    p.name
                )));
            }
            if info.data.rank() != Some(Rank::Ace) {
                v.push(
                    Violation::new(
                        "yomi.extra-aces",
                        format!("{} is not an Ace.", info.label()),
                        "2-2",
                    )
                    .ja(format!("{} はエースではありません。", info.label())),
                );
            }
            state.check_in_hand(*player, std::slice::from_ref(card))?;
            b.push(Event::ExtraAce(*player, card.clone()));
            if state.step == Step::Reveal {
                b.after_reveal();
            }
        }
        Move::Escape { player } | Move::NoEscape { player } => {
            check_seat(*player)?;
            let loser = state.winner().map(|(w, _)| other(w));
            if state.step != Step::Escape || loser != Some(*player) {
                return Err(not_now(
                    state,
                    &format!("an escape card for {}", state.name(*player)),
                ));
            }
            if matches!(mv, Move::Escape { .. }) {
                if state.players[*player].hand < 1 {
                    return Err(Impossible::new(format!(
                        "{} has no card in hand",
                        state.name(*player)
                    )));
                }
                b.push(Event::EscapePlaced(*player));
            } else {
                b.push(Event::EscapeDeclined(*player));
            }
            b.combo_phase();
        }
        Move::Combo { player, card, end } => {
            check_seat(*player)?;
            let Some((winner, by)) = state.winner() else {
                return Err(not_now(state, "a combo"));
            };
            if state.step != Step::Combo || winner != *player {
                return Err(not_now(
                    state,
                    &format!("a combo for {}", state.name(*player)),
                ));
            }
            let info = state.info(card)?;
            state.check_in_hand(*player, std::slice::from_ref(card))?;
            let p = &state.players[*player];
            let Some(e) = state.end(card, *end) else {
                return Err(Impossible::new(format!(
                    "{} has no move to combo with",
                    info.label()
                )));
            };
            if !e.kind.strikes() {
                v.push(Violation::new(
                    "yomi.combo-move",
                    format!(
                        "A combo is made of attacks and throws; the {} end of {} is a {}.",
                        end_name(*end),
                        info.label(),
                        e.kind.as_str()
                    ),
                    "House rule: the rulebook does not settle this; the app's default, which the table may change",
                ).ja(format!("コンボは攻撃と投げでつなぎます。{} の{}側は{}です。", info.label(), if end_name(*end) == "top" { "上" } else { "下" }, e.kind.as_str())));
            }
            let retaliations = p.hits.iter().filter(|h| h.combo).count();
            if by == Kind::Dodge && retaliations >= 1 {
                v.push(Violation::new(
                    "yomi.dodge-retaliation",
                    format!(
                        "A dodge winner retaliates with one attack or throw only; {} already did.",
                        p.name
                    ),
                    "House rule: the rulebook does not settle this; the app's default, which the table may change",
                ).ja(format!("回避で勝ったときの反撃は攻撃か投げの1回だけです。{} はすでに反撃しました。", p.name)));
            }
            let points = i32::from(e.combo_points.unwrap_or(0));
            let first = if state.rules.combat_card_counts && p.hits.len() == 1 && by != Kind::Dodge
            {
                state
                    .latest_move(*player)
                    .and_then(|e| e.combo_points)
                    .map_or(0, i32::from)
            } else {
                0
            };
            let total = p.combo_points + first + points;
            if state.rules.check_combo_limit && total > p.combo_limit {
                v.push(Violation::new(
                    "yomi.combo-limit",
                    format!(
                        "{}'s combo would cost {total} combo points; the limit is {}.",
                        p.name, p.combo_limit
                    ),
                    "House rule: the rulebook does not settle this; the app's default, which the table may change",
                ).ja(format!("{} のコンボはコンボポイント{total}になります。上限は{}です。", p.name, p.combo_limit)));
            }
            if e.extra_aces() > 0
                && aces_available(state, *player, card) < usize::from(e.extra_aces())
            {
                v.push(Violation::new(
                    "yomi.extra-aces",
                    format!(
                        "{} needs {} Aces in all, and {} has too few other Aces unplayed.",
                        e.name_en, e.aces, p.name
                    ),
                    "2-2",
                ).ja(format!("{} にはエースが合計{}枚必要ですが、{} の未使用のほかのエースが足りません。", e.name_en, e.aces, p.name)));
            }
            b.push(Event::ComboHit(
                *player,
                card.clone(),
                *end,
                i32::from(e.damage.unwrap_or(0)),
                first + points,
                e.knockdown,
            ));
            let extra = e
                .extra_aces()
                .min(u8::try_from(aces_available(state, *player, card)).unwrap_or(u8::MAX));
            if extra > 0 {
                b.push(Event::AcesPending(*player, extra));
            }
            let chain = chain_of(&b.state, *player);
            b.push(Event::ChainIs(*player, chain));
        }
        Move::Pump { player, cards } => {
            check_seat(*player)?;
            if state.step != Step::Combo || state.winner().map(|w| w.0) != Some(*player) {
                return Err(not_now(
                    state,
                    &format!("a pump for {}", state.name(*player)),
                ));
            }
            state.check_in_hand(*player, cards)?;
            let latest = state.latest_move(*player);
            let pump = latest.and_then(|e| e.pump);
            let name = latest.map(|e| e.name_en.clone()).unwrap_or_default();
            match pump {
                None => v.push(Violation::new(
                    "yomi.no-pump",
                    format!("{name} has no pump."),
                    "House rule: the rulebook does not settle this; the app's default, which the table may change",
                ).ja(format!("{name} にはパンプがありません。"))),
                Some(pm) if cards.len() != usize::from(pm.cost) => v.push(Violation::new(
                    "yomi.pump-cost",
                    format!(
                        "A pump of {name} costs {} card(s), not {}.",
                        pm.cost,
                        cards.len()
                    ),
                    "House rule: the rulebook does not settle this; the app's default, which the table may change",
                ).ja(format!("{name} のパンプのコストは{}枚です（{}枚ではありません）。", pm.cost, cards.len()))),
                Some(_) => {}
            }
            let damage = pump.map_or(0, |p| i32::from(p.damage));
            b.push(Event::Pumped(*player, cards.clone(), damage));
        }
        Move::EndCombo { player } => {
            check_seat(*player)?;
            if state.step != Step::Combo || state.winner().map(|w| w.0) != Some(*player) {
                return Err(not_now(state, "ending a combo"));
            }
            if state.players[*player].aces_pending > 0 && can_put_ace(state, *player) {
                v.push(
                    Violation::new(
                        "yomi.extra-aces",
                        format!(
                            "{} still has {} extra Ace(s) to put out for the super move.",
                            state.name(*player),
                            state.players[*player].aces_pending
                        ),
                        "2-2",
                    )
                    .ja(format!(
                        "{} は必殺技のためにまだエースを{}枚出す必要があります。",
                        state.name(*player),
                        state.players[*player].aces_pending
                    )),
                );
            }
            b.blue_burst();
        }
        Move::RevealEscape { player, card } => {
            check_seat(*player)?;
            if state.step != Step::BlueBurst || state.players[*player].escape != Escape::FaceDown {
                return Err(Impossible::new(format!(
                    "{} has no escape card face down",
                    state.name(*player)
                )));
            }
            state.info(card)?;
            if state.unseen_count(*player, card) == 0 {
                return Err(Impossible::new(format!(
                    "{} has no unplayed copy of {}",
                    state.name(*player),
                    state.label(card)
                )));
            }
            b.push(Event::EscapeRevealed(*player, card.clone()));
            let combo = state.players[other(*player)].combo_damage;
            if state.is_joker(card) && combo > 0 {
                b.push(Event::Cancelled(*player, combo));
                b.draw(*player, 2);
            }
            b.damage();
        }
        Move::Search { player, card, from } => {
            check_seat(*player)?;
            let info = state.info(card)?;
            let p = &state.players[*player];
            match from {
                Pile::Deck => {
                    if state.unseen_count(*player, card) == 0 {
                        return Err(Impossible::new(format!(
                            "{} has no copy of {} left in the deck or hand",
                            p.name,
                            info.label()
                        )));
                    }
                    if p.deck < 1 {
                        return Err(Impossible::new(format!("{}'s deck is empty", p.name)));
                    }
                }
                Pile::Discard => {
                    if !p.discard.contains(card) {
                        return Err(Impossible::new(format!(
                            "{} is not in {}'s discard pile",
                            info.label(),
                            p.name
                        )));
                    }
                }
            }
            let is_ace = info.data.rank() == Some(Rank::Ace);
            if !is_ace {
                v.push(Violation::new(
                    "yomi.search-not-ace",
                    format!(
                        "Only Aces are searched for (gold burst, chain combo, power-up); {} is not an Ace.",
                        info.label()
                    ),
                    "5-1, 5-4, 5-5",
                ).ja(format!("サーチできるのはエースだけです（ゴールドバースト、チェーンコンボ、パワーアップ）。{} はエースではありません。", info.label())));
            } else if p.aces_owed == 0 {
                v.push(
                    Violation::new(
                        "yomi.search-not-owed",
                        format!("{} has no Ace search open now.", p.name),
                        "5-1, 5-4, 5-5",
                    )
                    .ja(format!(
                        "{} にはいま開いているエースのサーチがありません。",
                        p.name
                    )),
                );
            }
            b.push(Event::Searched(
                *player,
                card.clone(),
                *from,
                is_ace && p.aces_owed > 0,
            ));
        }
        Move::ForgoAces { player } => {
            check_seat(*player)?;
            if state.players[*player].aces_owed == 0 {
                return Err(Impossible::new(format!(
                    "{} has no Ace search open",
                    state.name(*player)
                )));
            }
            b.push(Event::AcesForgone(*player));
        }
        Move::PowerUp { player, cards } => {
            check_seat(*player)?;
            state.check_in_hand(*player, cards)?;
            if state.step != Step::PowerUp {
                v.push(wrong_step(state, "A power-up", "step 5-5", "5-5"));
            }
            let ranks: Vec<Option<Rank>> = cards.iter().map(|c| state.rank(c)).collect();
            let k = cards.len();
            if !(2..=4).contains(&k) {
                v.push(Violation::new(
                    "yomi.power-up-size",
                    format!(
                        "A power-up discards 2, 3 or 4 cards of one rank (for 1, 2 or 3 Aces), not {k}."
                    ),
                    "5-5",
                ).ja(format!("パワーアップでは同じ数字のカードを2〜4枚捨てます（エース1〜3枚）。{k}枚ではありません。")));
            }
            let first = ranks.first().copied().flatten();
            if first.is_none() || ranks.iter().any(|r| *r != first) {
                let shown: Vec<String> = ranks
                    .iter()
                    .map(|r| r.map_or_else(|| "Joker".to_owned(), |r| r.to_string()))
                    .collect();
                v.push(
                    Violation::new(
                        "yomi.power-up-rank",
                        format!(
                            "A power-up discards cards of the same rank; these are {}.",
                            shown.join(", ")
                        ),
                        "5-5 同数値のカード",
                    )
                    .ja(format!(
                        "パワーアップで捨てるのは同じ数字のカードです。これらは {} です。",
                        shown.join(", ")
                    )),
                );
            }
            b.push(Event::Discarded(*player, cards.clone()));
            let n = aces_for_set(k);
            if n > 0 {
                b.push(Event::AcesOwed(*player, n));
            }
        }
        Move::Discard { player, cards } => {
            check_seat(*player)?;
            if cards.is_empty() {
                return Err(Impossible::new("name the cards to discard"));
            }
            state.check_in_hand(*player, cards)?;
            let p = &state.players[*player];
            if state.step == Step::HandLimit {
                let excess = (p.hand - p.hand_limit).max(0);
                if cards.len() as i32 > excess {
                    v.push(Violation::new(
                        "yomi.hand-limit",
                        format!(
                            "{} holds {} cards: discard down to {} ({excess} card(s)), not {}.",
                            p.name,
                            p.hand,
                            p.hand_limit,
                            cards.len()
                        ),
                        "5-7",
                    ).ja(format!("{} の手札は{}枚です：{}枚まで（{excess}枚）捨ててください。{}枚ではありません。", p.name, p.hand, p.hand_limit, cards.len())));
                }
            } else {
                v.push(wrong_step(
                    state,
                    "Discarding from hand",
                    "step 5-7 (or an ability's text)",
                    "5-7",
                ));
            }
            b.push(Event::Discarded(*player, cards.clone()));
            if state.step == Step::HandLimit
                && b.state.players.iter().all(|p| p.hand <= p.hand_limit)
            {
                b.next_turn();
            }
        }
        Move::Effect {
            player,
            hp,
            opp_hp,
            draw,
            speed,
            combo_damage,
            ..
        } => {
            check_seat(*player)?;
            if [*hp, *opp_hp, *speed, *combo_damage]
                .iter()
                .any(|x| x.abs() > MAX_CHANGE)
            {
                return Err(Impossible::new(format!(
                    "an effect changes a number by at most ±{MAX_CHANGE}"
                )));
            }
            if !(0..=MAX_EFFECT_DRAW).contains(draw) {
                return Err(Impossible::new(format!(
                    "an effect draws 0 to {MAX_EFFECT_DRAW} cards, not {draw}"
                )));
            }
            if *speed != 0 {
                let before_24 = matches!(
                    state.step,
                    Step::DrawAbilities | Step::Select | Step::Reveal | Step::RevealAbilities
                );
                if !before_24 {
                    v.push(Violation::new(
                        "yomi.effect-timing",
                        "A speed change matters only before the combat winner is decided (2-4).",
                        "2-3, 2-4",
                    ).ja("速度の変更が意味を持つのは、戦闘の勝者が決まる前（2-4）だけです。"));
                }
            }
            if *combo_damage != 0
                && !matches!(
                    state.step,
                    Step::RevealAbilities
                        | Step::DuringCombat
                        | Step::Escape
                        | Step::Combo
                        | Step::BlueBurst
                )
            {
                v.push(Violation::new(
                    "yomi.effect-timing",
                    "Combo damage is added before the blue burst and the damage step (4-3, 4-4).",
                    "4-2〜4-4",
                ).ja("コンボダメージを加えるのは、ブルーバーストとダメージの前（4-3、4-4）です。"));
            }
            let cap = |p: &PlayerState, delta: i32| {
                let v = p.hp + delta;
                if state.rules.hp_cap && delta > 0 {
                    v.min(p.max_hp.max(p.hp))
                } else {
                    v
                }
            };
            if *speed != 0 {
                b.push(Event::SpeedChanged(*player, *speed));
            }
            if *combo_damage != 0 {
                b.push(Event::ComboBonus(*player, *combo_damage));
            }
            let (me, them) = (&state.players[*player], &state.players[other(*player)]);
            let new = [
                (*player, cap(me, *hp), *hp),
                (other(*player), cap(them, *opp_hp), *opp_hp),
            ];
            let changes: Vec<Event> = new
                .iter()
                .filter(|(_, _, d)| *d != 0)
                .map(|(s, v, _)| Event::HpIs(*s, *v))
                .collect();
            if changes.len() == 2 {
                // Both at once, so that a double KO is seen as one.
                if let [Event::HpIs(s0, v0), Event::HpIs(s1, v1)] = changes.as_slice() {
                    let mut lost = [0; 2];
                    lost[*s0] = state.players[*s0].hp - v0;
                    lost[*s1] = state.players[*s1].hp - v1;
                    b.push(Event::Damaged(lost));
                }
            } else {
                for e in changes {
                    b.push(e);
                }
            }
            b.draw(*player, *draw);
        }
    }
    Ok(b.done(v))
}
