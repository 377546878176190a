//! Yomi's rules: what a move at the table causes, and which rules it breaks.

use super::card::{MoveKind, Rank};
use super::scratch::*;
use super::state::*;
use crate::catalogue::YomiCard;
use crate::core::{Decision, Impossible, Seat, Violation};

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
                            REF_ACE_SEARCH,
                        ).ja(format!("{} はまだAを{}枚探して手札に加えられます。探すか、残っていなければ探すのをやめてください。", p.name, p.aces_owed)));
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
            waiting => {
                v.extend(step_not_done(state, waiting));
                skip_step(&mut b, state, waiting);
            }
        },
        Move::FaceDown { player } | Move::NoCard { player } => {
            check_seat(*player)?;
            let p = &state.players[*player];
            let face_down = matches!(mv, Move::FaceDown { .. });
            if face_down && p.hand < 1 {
                return Err(Impossible::new(format!("{} has no card in hand", p.name))
                    .ja(format!("{} の手札がありません。", p.name)));
            }
            if state.step != Step::Select {
                v.push(out_of_step(
                    state,
                    "Choosing a combat card",
                    "戦闘札の選択",
                    Step::Select,
                ));
            } else if p.play != Play::Empty {
                v.push(one_combat_card(state, *player));
            }
            // Overridden: a new choice replaces an unrevealed one (the face-down card goes
            // back to hand); a revealed card stays on the table.
            if matches!(p.play, Play::FaceDown | Play::NoCard) {
                b.push(Event::Rechose(*player));
            }
            if face_down {
                b.push(Event::FaceDown(*player));
            } else {
                b.push(Event::NoCard(*player));
            }
            if state.step == Step::Select && b.state.players.iter().all(|p| p.play != Play::Empty) {
                b.enter(Step::Reveal);
                b.after_reveal();
            }
        }
        Move::Rechoose { player } => {
            check_seat(*player)?;
            let p = &state.players[*player];
            match &p.play {
                Play::Empty => {
                    return Err(Impossible::new(format!(
                        "{} has chosen no combat card this turn: there is nothing to take back",
                        p.name
                    ))
                    .ja(format!(
                        "{} はこのターンまだ戦闘札を選んでいません：取り消すものがありません。",
                        p.name
                    )));
                }
                Play::Revealed { card, .. } => {
                    return take_back_revealed(state, *player, card);
                }
                Play::FaceDown | Play::NoCard => {}
            }
            if !matches!(state.step, Step::Select | Step::Reveal) {
                v.push(out_of_step(
                    state,
                    "Choosing the combat card again",
                    "戦闘札の選び直し",
                    Step::Select,
                ));
            } else if state.no_card_by != Some(other(*player)) {
                v.push(
                    Violation::new(
                        "yomi.rechoose",
                        format!(
                            "{} may choose again only after {} declared \"no card\".",
                            p.name,
                            state.name(other(*player))
                        ),
                        REF_RECHOOSE,
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
            if let YomiCard::Character(_) = &info.data {
                return Err(Impossible::new(format!(
                    "{} is a character card, set aside at setup: it is never in a hand",
                    info.label()
                ))
                .ja(format!(
                    "{} はキャラクターカードで、準備のときに脇に置かれます：手札にはありません。",
                    info.label()
                )));
            }
            if state.unseen_count(*player, card) == 0 {
                return Err(Impossible::new(format!(
                    "{} has no unplayed copy of {}",
                    p.name,
                    info.label()
                ))
                .ja(format!(
                    "{} には未使用の {} がありません。",
                    p.name,
                    info.label()
                )));
            }
            if p.play != Play::FaceDown {
                // Turned up from the hand: the card is placed and revealed at once.
                if p.hand < 1 {
                    return Err(Impossible::new(format!("{} has no card in hand", p.name))
                        .ja(format!("{} の手札がありません。", p.name)));
                }
                if matches!(p.play, Play::Revealed { .. }) {
                    v.push(one_combat_card(state, *player));
                } else if state.step != Step::Select {
                    v.push(out_of_step(
                        state,
                        "Revealing a combat card",
                        "戦闘札の公開",
                        Step::Reveal,
                    ));
                } else {
                    v.push(Violation::new(
                        "yomi.reveal-face-down",
                        format!(
                            "{} reveals a combat card that was not placed face down first: both choose face down (2-1), then both reveal (2-2).",
                            p.name
                        ),
                        seed_words(Step::Select),
                    ).ja(format!(
                        "{} は伏せていない戦闘札を表にしました：両者とも伏せて置き（2-1）、それから表に返します（2-2）。",
                        p.name
                    )));
                }
                if p.play == Play::NoCard {
                    b.push(Event::Rechose(*player));
                }
                b.push(Event::FaceDown(*player));
            } else if state.step != Step::Reveal {
                v.push(out_of_step(
                    state,
                    "Revealing the combat card",
                    "戦闘札の公開",
                    Step::Reveal,
                ));
            }
            let mut extra = 0;
            match &info.data {
                YomiCard::Character(_) => {}
                YomiCard::Joker(_) => {}
                YomiCard::Move(m) => {
                    let e = m.end(*end);
                    if e.kind == MoveKind::Ability {
                        v.push(Violation::new(
                            "yomi.not-a-combat-move",
                            format!(
                                "{} reveals the {} end of {}, an ability, not a combat move: reveal the other end (played anyway, it counts as \"no card\").",
                                p.name,
                                end_name(*end),
                                info.label()
                            ),
                            REF_HOUSE,
                        ).ja(format!("{} が表にした {} の{}側は能力で、戦闘の技ではありません。反対側を表にしてください（そのまま出すと「ノーカード」扱いです）。", p.name, info.label_ja(), end_name_ja(*end))));
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
                                REF_EXTRA_ACES,
                            ).ja(format!("{} にはA札が合計{}枚必要です：あと{}枚出す必要があり、{} の未使用のほかのA札は{aces}枚だけです。", move_name_ja(e), e.aces, need, p.name)));
                        }
                        extra = need.min(u8::try_from(aces).unwrap_or(u8::MAX));
                    }
                }
            }
            b.push(Event::Revealed(*player, card.clone(), *end, extra));
            if state.step == Step::Reveal {
                b.after_reveal();
            } else if state.step == Step::Select
                && b.state.players.iter().all(|p| p.play != Play::Empty)
            {
                b.enter(Step::Reveal);
                b.after_reveal();
            }
        }
        Move::ExtraAce { player, card } => {
            check_seat(*player)?;
            let info = state.info(card)?;
            let p = &state.players[*player];
            if p.aces_pending == 0 {
                v.push(
                    Violation::new(
                        "yomi.extra-aces",
                        format!(
                            "{} has no super move waiting for extra Aces: an extra Ace is put out only for a move that needs several.",
                            p.name
                        ),
                        REF_EXTRA_ACES,
                    )
                    .ja(format!(
                        "{} には追加のA札を待つ技がありません：追加のA札を出すのは、A札が複数枚必要な技のときだけです。",
                        p.name
                    )),
                );
            } else if info.data.rank() != Some(Rank::Ace) {
                v.push(
                    Violation::new(
                        "yomi.extra-aces",
                        format!(
                            "{} puts out {} as an extra Ace: it is not an Ace.",
                            p.name,
                            info.label()
                        ),
                        REF_EXTRA_ACES,
                    )
                    .ja(format!(
                        "{} が追加のA札として出した {} はA札ではありません。",
                        p.name,
                        info.label_ja()
                    )),
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
            let placing = matches!(mv, Move::Escape { .. });
            if placing && state.players[*player].hand < 1 {
                return Err(Impossible::new(format!(
                    "{} has no card in hand",
                    state.name(*player)
                ))
                .ja(format!("{} の手札がありません。", state.name(*player))));
            }
            let (what, what_ja) = if placing {
                ("Placing an escape card", "エスケープのカードを伏せること")
            } else {
                (
                    "Declining the escape card",
                    "エスケープのカードを伏せないこと",
                )
            };
            let in_step = state.step == Step::Escape && loser == Some(*player);
            if state.step != Step::Escape {
                v.push(out_of_step(state, what, what_ja, Step::Escape));
            } else if !in_step {
                v.push(not_the_loser(state, *player));
            }
            if placing {
                b.push(Event::EscapePlaced(*player));
            } else {
                b.push(Event::EscapeDeclined(*player));
            }
            if in_step {
                b.combo_phase();
            }
        }
        Move::Combo { player, card, end } => {
            check_seat(*player)?;
            let info = state.info(card)?;
            state.check_in_hand(*player, std::slice::from_ref(card))?;
            let p = &state.players[*player];
            if matches!(info.data, YomiCard::Character(_)) {
                return Err(Impossible::new(format!(
                    "{} has no move printed on it to combo with",
                    info.label()
                ))
                .ja(format!(
                    "{} には、コンボにつなぐ技が書かれていません。",
                    info.label_ja()
                )));
            }
            let won = state.winner();
            if state.step != Step::Combo {
                v.push(out_of_step(state, "A combo", "コンボ", Step::Combo));
            } else if won.map(|w| w.0) != Some(*player) {
                v.push(not_the_winner(state, *player, "combos", "コンボをつなげる"));
            }
            let Some(e) = state.end(card, *end) else {
                // A Joker played as a combo card: overridden, it is on the table and hits for
                // nothing (its damage, if an ability gives any, is entered as an effect).
                v.push(
                    Violation::new(
                        "yomi.combo-move",
                        format!(
                            "A combo is made of attacks and throws; {} that {} plays is a Joker.",
                            info.label(),
                            p.name
                        ),
                        REF_HOUSE,
                    )
                    .ja(format!(
                        "コンボは打撃と投げでつなぎます。{} が出した {} はジョーカーです。",
                        p.name,
                        info.label_ja()
                    )),
                );
                b.push(Event::ComboHit(*player, card.clone(), *end, 0, 0, false));
                let chain = chain_of(&b.state, *player);
                b.push(Event::ChainIs(*player, chain));
                return Ok(b.done(v));
            };
            // Overridden outside the winner's 4-2, the combo counts as after an attack win.
            let by = won.map_or(Kind::Attack, |w| w.1);
            if !e.kind.strikes() {
                v.push(Violation::new(
                    "yomi.combo-move",
                    format!(
                        "A combo is made of attacks and throws; the {} end of {} that {} plays is a {}.",
                        end_name(*end),
                        info.label(),
                        p.name,
                        e.kind.as_str()
                    ),
                    REF_HOUSE,
                ).ja(format!("コンボは打撃と投げでつなぎます。{} が出した {} の{}側は{}です。", p.name, info.label_ja(), end_name_ja(*end), e.kind.name_ja())));
            }
            let retaliations = p.hits.iter().filter(|h| h.combo).count();
            if by == Kind::Dodge && retaliations >= 1 {
                v.push(Violation::new(
                    "yomi.dodge-retaliation",
                    format!(
                        "A dodge winner retaliates with one attack or throw only; {} already did.",
                        p.name
                    ),
                    REF_HOUSE,
                ).ja(format!("回避で勝ったときの反撃は打撃か投げの1回だけです。{} はすでに反撃しました。", p.name)));
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
                v.push(
                    Violation::new(
                        "yomi.combo-limit",
                        format!(
                            "{}'s combo would cost {total} combo points; the limit is {}.",
                            p.name, p.combo_limit
                        ),
                        REF_HOUSE,
                    )
                    .ja(format!(
                        "{} のコンボはコンボポイント{total}になります。上限は{}です。",
                        p.name, p.combo_limit
                    )),
                );
            }
            if e.extra_aces() > 0
                && aces_available(state, *player, card) < usize::from(e.extra_aces())
            {
                v.push(
                    Violation::new(
                        "yomi.extra-aces",
                        format!(
                            "{} needs {} Aces in all, and {} has only {} other Ace(s) unplayed.",
                            e.name_en,
                            e.aces,
                            p.name,
                            aces_available(state, *player, card)
                        ),
                        REF_EXTRA_ACES,
                    )
                    .ja(format!(
                        "{} にはA札が合計{}枚必要ですが、{} の未使用のほかのA札は{}枚だけです。",
                        move_name_ja(e),
                        e.aces,
                        p.name,
                        aces_available(state, *player, card)
                    )),
                );
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
            state.check_in_hand(*player, cards)?;
            if state.step != Step::Combo {
                v.push(out_of_step(state, "A pump", "パンプアップ", Step::Combo));
            } else if state.winner().map(|w| w.0) != Some(*player) {
                v.push(not_the_winner(state, *player, "pumps", "パンプアップする"));
            }
            let latest = state.latest_move(*player);
            let pump = latest.and_then(|e| e.pump);
            match (latest, pump) {
                (None, _) => v.push(
                    Violation::new(
                        "yomi.no-pump",
                        format!(
                            "{} has no move in play this turn to pump.",
                            state.name(*player)
                        ),
                        seed_words(Step::Combo),
                    )
                    .ja(format!(
                        "{} にはこのターン、パンプアップできる技が場にありません。",
                        state.name(*player)
                    )),
                ),
                (Some(e), None) => v.push(
                    Violation::new(
                        "yomi.no-pump",
                        format!("{} has no pump.", e.name_en),
                        REF_HOUSE,
                    )
                    .ja(format!(
                        "{} にはパンプアップがありません。",
                        move_name_ja(e)
                    )),
                ),
                (Some(e), Some(pm)) if cards.len() != usize::from(pm.cost) => v.push(
                    Violation::new(
                        "yomi.pump-cost",
                        format!(
                            "A pump of {} costs {} card(s), not {}.",
                            e.name_en,
                            pm.cost,
                            cards.len()
                        ),
                        REF_HOUSE,
                    )
                    .ja(format!(
                        "{} のパンプアップのコストは{}枚です（{}枚ではありません）。",
                        move_name_ja(e),
                        pm.cost,
                        cards.len()
                    )),
                ),
                (Some(_), Some(_)) => {}
            }
            let damage = pump.map_or(0, |p| i32::from(p.damage));
            b.push(Event::Pumped(*player, cards.clone(), damage));
        }
        Move::EndCombo { player } => {
            check_seat(*player)?;
            let in_step = state.step == Step::Combo && state.winner().map(|w| w.0) == Some(*player);
            if state.step != Step::Combo {
                v.push(out_of_step(
                    state,
                    "Ending a combo",
                    "コンボの終了",
                    Step::Combo,
                ));
            } else if !in_step {
                v.push(not_the_winner(
                    state,
                    *player,
                    "ends the combo",
                    "コンボを終える",
                ));
            }
            if in_step && state.players[*player].aces_pending > 0 && can_put_ace(state, *player) {
                v.push(
                    Violation::new(
                        "yomi.extra-aces",
                        format!(
                            "{} still has {} extra Ace(s) to put out for the super move.",
                            state.name(*player),
                            state.players[*player].aces_pending
                        ),
                        REF_EXTRA_ACES,
                    )
                    .ja(format!(
                        "{} は必殺技のためにまだ追加のA札を{}枚出す必要があります。",
                        state.name(*player),
                        state.players[*player].aces_pending
                    )),
                );
            }
            // Overridden by anyone at 4-2 the combo ends; elsewhere nothing is left to end.
            if state.step == Step::Combo {
                b.blue_burst();
            }
        }
        Move::RevealEscape { player, card } => {
            check_seat(*player)?;
            if state.players[*player].escape != Escape::FaceDown {
                return Err(Impossible::new(format!(
                    "{} has no escape card face down",
                    state.name(*player)
                ))
                .ja(format!(
                    "{} はエスケープのカードを伏せていません。",
                    state.name(*player)
                )));
            }
            state.info(card)?;
            if state.unseen_count(*player, card) == 0 {
                return Err(Impossible::new(format!(
                    "{} has no unplayed copy of {}",
                    state.name(*player),
                    state.label(card)
                ))
                .ja(format!(
                    "{} には未使用の {} がありません。",
                    state.name(*player),
                    state.label(card)
                )));
            }
            if state.step != Step::BlueBurst {
                v.push(out_of_step(
                    state,
                    "Revealing the escape card",
                    "伏せたカードを表に返すこと",
                    Step::BlueBurst,
                ));
            }
            b.push(Event::EscapeRevealed(*player, card.clone()));
            let combo = state.players[other(*player)].combo_damage;
            if state.is_joker(card) && combo > 0 {
                b.push(Event::Cancelled(*player, combo));
                b.draw(*player, 2);
            }
            if state.step == Step::BlueBurst {
                b.damage();
            }
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
                        ))
                        .ja(format!(
                            "{} の山札にも手札にも {} は残っていません。",
                            p.name,
                            info.label_ja()
                        )));
                    }
                    if p.deck < 1 {
                        return Err(Impossible::new(format!("{}'s deck is empty", p.name))
                            .ja(format!("{} の山札はありません。", p.name)));
                    }
                }
                Pile::Discard => {
                    if !p.discard.contains(card) {
                        return Err(Impossible::new(format!(
                            "{} is not in {}'s discard pile",
                            info.label(),
                            p.name
                        ))
                        .ja(format!(
                            "{} は {} の捨て札にありません。",
                            info.label_ja(),
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
                        "{} searches for {}: only Aces are searched for (gold burst, chain combo, power-up), and it is not an Ace.",
                        p.name,
                        info.label()
                    ),
                    REF_ACE_SEARCH,
                ).ja(format!("{} が探した {} はAではありません。探して手札に加えるのはAだけです（金バースト、チェーンコンボ、パワーアップ）。", p.name, info.label_ja())));
            } else if p.aces_owed == 0 {
                v.push(
                    Violation::new(
                        "yomi.search-not-owed",
                        format!(
                            "{} searches for {}, but has no Ace search open now (no gold burst, chain combo or power-up gave one).",
                            p.name,
                            info.label()
                        ),
                        REF_ACE_SEARCH,
                    )
                    .ja(format!(
                        "{} が {} を探しましたが、いまAを探す権利はありません（金バースト、チェーンコンボ、パワーアップで得たものがありません）。",
                        p.name,
                        info.label_ja()
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
                ))
                .ja(format!(
                    "{} にはAを探す権利がありません。",
                    state.name(*player)
                )));
            }
            b.push(Event::AcesForgone(*player));
        }
        Move::PowerUp { player, cards } => {
            check_seat(*player)?;
            state.check_in_hand(*player, cards)?;
            if state.step != Step::PowerUp {
                v.push(out_of_step(
                    state,
                    "A power-up",
                    "パワーアップ",
                    Step::PowerUp,
                ));
            }
            let ranks: Vec<Option<Rank>> = cards.iter().map(|c| state.rank(c)).collect();
            let k = cards.len();
            if !(2..=4).contains(&k) {
                v.push(Violation::new(
                    "yomi.power-up-size",
                    format!(
                        "{} powers up with {k} card(s): a power-up discards 2, 3 or 4 cards of one rank (for 1, 2 or 3 Aces).",
                        state.name(*player)
                    ),
                    seed_words(Step::PowerUp),
                ).ja(format!("{} のパワーアップは{k}枚です：パワーアップでは同数値のカードを2〜4枚捨てます（Aは1〜3枚）。", state.name(*player))));
            }
            let first = ranks.first().copied().flatten();
            if first.is_none() || ranks.iter().any(|r| *r != first) {
                let shown: Vec<String> = ranks
                    .iter()
                    .map(|r| r.map_or_else(|| "Joker".to_owned(), |r| r.to_string()))
                    .collect();
                let shown_ja: Vec<String> = ranks
                    .iter()
                    .map(|r| r.map_or_else(|| "ジョーカー".to_owned(), rank_ja))
                    .collect();
                v.push(
                    Violation::new(
                        "yomi.power-up-rank",
                        format!(
                            "{} powers up with cards of different ranks: a power-up discards cards of the same rank; these are {}.",
                            state.name(*player),
                            shown.join(", ")
                        ),
                        seed_words(Step::PowerUp),
                    )
                    .ja(format!(
                        "{} のパワーアップのカードは数値がそろっていません：パワーアップで捨てるのは同数値のカードです。これらは {} です。",
                        state.name(*player),
                        shown_ja.join("、")
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
                return Err(Impossible::new("name the cards to discard")
                    .ja("捨てるカードを指定してください。"));
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
                        seed_words(Step::HandLimit),
                    ).ja(format!("{} の手札は{}枚です：{}枚まで（{excess}枚）捨ててください。{}枚ではありません。", p.name, p.hand, p.hand_limit, cards.len())));
                }
            } else {
                v.push(out_of_step(
                    state,
                    "Discarding from hand (other than by an ability's text)",
                    "（能力のテキストによらず）手札を捨てること",
                    Step::HandLimit,
                ));
            }
            b.push(Event::Discarded(*player, cards.clone()));
            if state.step == Step::HandLimit
                && b.state.players.iter().all(|p| p.hand <= p.hand_limit)
            {
                b.next_turn();
            }
        }
        Move::Draw { player } => {
            check_seat(*player)?;
            let p = &state.players[*player];
            if p.deck < 1 {
                return Err(Impossible::new(format!("{}'s deck is empty", p.name))
                    .ja(format!("{} の山札はありません。", p.name)));
            }
            if state.turn <= 1 {
                v.push(
                    Violation::new(
                        "yomi.first-turn-draw",
                        format!(
                            "{} draws on turn 1: turn 1 has no draw phase and starts with the combat phase.",
                            p.name
                        ),
                        "0-1. ゲーム開始「1ターン目はドローフェイズはなく、戦闘フェイズから始める。」",
                    )
                    .ja(format!(
                        "{} が1ターン目にドローしました：1ターン目はドローフェイズがなく、戦闘フェイズから始めます。",
                        p.name
                    )),
                );
            } else {
                v.push(Violation::new(
                    "yomi.extra-draw",
                    format!(
                        "{} draws a card no rule gives: the app already made this turn's draws (1-1, 3-1, 4-1, 4-3); an ability's draw is entered as its effect.",
                        p.name
                    ),
                    "1-1. ドロー「両者とも、山札から1枚ドローする。」",
                ).ja(format!(
                    "{} がルールにないドローをしました：このターンのドロー（1-1、3-1、4-1、4-3）はアプリが済ませています。能力によるドローはその効果として入力します。",
                    p.name
                )));
            }
            b.draw(*player, 1);
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
                ))
                .ja(format!("効果で変えられる数は ±{MAX_CHANGE} までです。")));
            }
            if !(0..=MAX_EFFECT_DRAW).contains(draw) {
                return Err(Impossible::new(format!(
                    "an effect draws 0 to {MAX_EFFECT_DRAW} cards, not {draw}"
                ))
                .ja(format!(
                    "効果で引く枚数は0〜{MAX_EFFECT_DRAW}枚です（{draw}枚ではありません）。"
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
                        format!(
                            "{}'s speed change of {speed} comes after the combat winner was decided: a speed change matters only before 2-4 (the match is at turn {} {}).",
                            state.name(*player),
                            state.turn,
                            step_number(state.step)
                        ),
                        REF_SPEED,
                    ).ja(format!(
                        "{} の速度の変更（{speed}）は戦闘の勝敗が決まった後です：速度の変更が意味を持つのは勝敗決定（2-4）の前だけです（いまはターン{} {}）。",
                        state.name(*player),
                        state.turn,
                        step_number(state.step)
                    )));
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
                    format!(
                        "{}'s combo damage of {combo_damage} is added at turn {} {}: combo damage is added from the combat reveal to the blue burst, before the damage step (4-3, 4-4).",
                        state.name(*player),
                        state.turn,
                        step_number(state.step)
                    ),
                    REF_COMBO_DAMAGE,
                ).ja(format!(
                    "{} のコンボダメージ（{combo_damage}）はターン{} {}です：コンボダメージを加えるのは戦闘公開から青バーストまで、ダメージ処理（4-3、4-4）の前です。",
                    state.name(*player),
                    state.turn,
                    step_number(state.step)
                )));
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

/// Taking back a combat card already revealed (`yomi.revealed-stays`): the seed reveals both
/// cards at 2-2 and decides the combat by the cards played at 2-4; only a card placed face down
/// is chosen again (after the opponent's "no card", 2-1). Overridden before the combat is
/// decided, the card goes back to hand and its owner chooses again (the match returns to 2-1;
/// extra Aces already put out stay on the table); after the decision the card goes back to hand
/// and the combat stands as decided.
fn take_back_revealed(
    state: &State,
    seat: Seat,
    card: &str,
) -> Result<Decision<Event>, Impossible> {
    let p = &state.players[seat];
    if !p.table.iter().any(|c| c == card) {
        return Err(Impossible::new(format!(
            "{}'s combat card {} is no longer on the table: there is nothing to take back",
            p.name,
            state.label(card)
        ))
        .ja(format!(
            "{} の戦闘札 {} はもう場にありません：取り消すものがありません。",
            p.name,
            state.label_ja(card)
        )));
    }
    let mut b = Builder::new(state);
    let v = if state.combat.is_none() {
        b.push(Event::BlockReturned(seat));
        b.push(Event::Rechose(seat));
        if p.aces_pending > 0 {
            b.push(Event::AcesPending(seat, 0));
        }
        if state.step != Step::Select {
            b.push(Event::StepTo(Step::Select));
        }
        Violation::new(
            "yomi.revealed-stays",
            format!(
                "{} takes back {}, already revealed as the combat card: a revealed card stays on the table and the combat is decided by it (2-4); only a card placed face down is chosen again, after the opponent's \"no card\".",
                p.name,
                state.label(card)
            ),
            REF_REVEALED_STAYS,
        )
        .ja(format!(
            "{} が表にした戦闘札 {} を手札に戻そうとしています：表に返した札は場に残り、出した札で戦闘の勝敗を決めます（2-4）。選び直せるのは、相手の「ノーカード」の後の伏せたカードだけです。",
            p.name,
            state.label_ja(card)
        ))
    } else {
        b.push(Event::BlockReturned(seat));
        Violation::new(
            "yomi.revealed-stays",
            format!(
                "{} takes back {}, the combat card the combat of turn {} was decided by: it stays on the table until the cards on the table are discarded (5-3).",
                p.name,
                state.label(card),
                state.turn
            ),
            REF_REVEALED_STAYS,
        )
        .ja(format!(
            "{} がターン{}の戦闘の勝敗を決めた戦闘札 {} を手札に戻そうとしています：場の札を捨てる（5-3）まで場に残ります。",
            p.name,
            state.turn,
            state.label_ja(card)
        ))
    };
    Ok(b.done(vec![v]))
}

/// Who a waiting step still waits for, as a refusal of going on (`yomi.step-not-done`, or
/// `yomi.hand-limit` at 5-7); none at the end of the game (the match layer's `match.over`).
fn step_not_done(state: &State, step: Step) -> Option<Violation> {
    let names = |f: &dyn Fn(&PlayerState) -> bool| -> String {
        let n: Vec<&str> = state
            .players
            .iter()
            .filter(|p| f(p))
            .map(|p| p.name.as_str())
            .collect();
        n.join(" / ")
    };
    let at = format!("ターン{} {}", state.turn, seed_words(step));
    let (en, ja) = match step {
        Step::Select => {
            let who = names(&|p| p.play == Play::Empty);
            (
                format!(
                    "{who} must still choose a combat card (turn {} 2-1); going on counts it as \"no card\".",
                    state.turn
                ),
                format!(
                    "{who} はまだ戦闘札を選んでいません（{at}）。進むと「ノーカード」扱いになります。"
                ),
            )
        }
        Step::Reveal => {
            let who = names(&|p| p.play == Play::FaceDown || p.aces_pending > 0);
            (
                format!(
                    "{who} must still reveal the combat card or put out the extra Aces (turn {} 2-2); going on counts a face-down card as \"no card\" and the extra Aces as not put out.",
                    state.turn
                ),
                format!(
                    "{who} はまだ戦闘札を表に返すか追加のA札を出していません（{at}）。進むと伏せたカードは「ノーカード」扱い、追加のA札は出さなかったことになります。"
                ),
            )
        }
        Step::Escape => {
            let who = state.winner().map_or("?", |(w, _)| state.name(other(w)));
            (
                format!(
                    "{who} may still put an escape card face down (turn {} 3-2); going on counts it as none.",
                    state.turn
                ),
                format!(
                    "{who} はまだエスケープのカードを伏せることができます（{at}）。進むと伏せなかったことになります。"
                ),
            )
        }
        Step::Combo => {
            let who = state.winner().map_or("?", |(w, _)| state.name(w));
            (
                format!(
                    "{who} has not ended the combo (turn {} 4-2); going on ends it.",
                    state.turn
                ),
                format!("{who} はまだコンボを終えていません（{at}）。進むとコンボは終わります。"),
            )
        }
        Step::BlueBurst => {
            let who = names(&|p| p.escape == Escape::FaceDown);
            (
                format!(
                    "{who} must still reveal the escape card (turn {} 4-3); going on leaves it face down: it cancels nothing.",
                    state.turn
                ),
                format!(
                    "{who} はまだ伏せたカードを表に返していません（{at}）。進むと伏せたままで、何も無効化しません。"
                ),
            )
        }
        Step::HandLimit => {
            let who = names(&|p| p.hand > p.hand_limit);
            return Some(
                Violation::new(
                    "yomi.hand-limit",
                    format!("{who} still holds more cards than the hand limit (turn {} 5-7); going on keeps them.", state.turn),
                    seed_words(Step::HandLimit),
                )
                .ja(format!("{who} の手札はまだ手札制限を超えています（{at}）。進むとそのまま持ち続けます。")),
            );
        }
        _ => return None,
    };
    Some(Violation::new("yomi.step-not-done", en, seed_words(step)).ja(ja))
}

/// Going on past a waiting step anyway (an override): what the step waits for is counted as
/// not done.
fn skip_step(b: &mut Builder, state: &State, step: Step) {
    match step {
        Step::Select => {
            for s in 0..2 {
                if state.players[s].play == Play::Empty {
                    b.push(Event::NoCard(s));
                }
            }
            b.enter(Step::Reveal);
            b.after_reveal();
        }
        Step::Reveal => {
            for s in 0..2 {
                if state.players[s].play == Play::FaceDown {
                    b.push(Event::Rechose(s));
                    b.push(Event::NoCard(s));
                }
                if state.players[s].aces_pending > 0 {
                    b.push(Event::AcesPending(s, 0));
                }
            }
            b.after_reveal();
        }
        Step::Escape => {
            if let Some((w, _)) = state.winner() {
                b.push(Event::EscapeDeclined(other(w)));
            }
            b.combo_phase();
        }
        Step::Combo => b.blue_burst(),
        Step::BlueBurst => {
            for s in 0..2 {
                if state.players[s].escape == Escape::FaceDown {
                    b.push(Event::EscapeDeclined(s));
                }
            }
            b.damage();
        }
        Step::HandLimit => b.next_turn(),
        _ => {}
    }
}

/// A second combat card this turn (`yomi.one-combat-card`).
fn one_combat_card(state: &State, seat: Seat) -> Violation {
    let p = &state.players[seat];
    let (en, ja) = match &p.play {
        Play::Revealed { card, .. } => (
            format!(
                "{} already revealed {} as this turn's combat card: each player chooses 1 combat card.",
                p.name,
                state.label(card)
            ),
            format!(
                "{} はこのターンの戦闘札として {} をすでに公開しています：戦闘札は各自1枚です。",
                p.name,
                state.label(card)
            ),
        ),
        Play::FaceDown => (
            format!(
                "{} already placed a combat card face down this turn: each player chooses 1 combat card (to choose again, take it back after the opponent's \"no card\").",
                p.name
            ),
            format!(
                "{} はこのターンすでに戦闘札を伏せています：戦闘札は各自1枚です（選び直せるのは相手の「ノーカード」の後です）。",
                p.name
            ),
        ),
        _ => (
            format!(
                "{} already declared \"no card\" this turn: each player chooses once (to choose again, take it back after the opponent's \"no card\").",
                p.name
            ),
            format!(
                "{} はこのターンすでに「ノーカード」を宣言しています：選ぶのは各自1回です（選び直せるのは相手の「ノーカード」の後です）。",
                p.name
            ),
        ),
    };
    Violation::new("yomi.one-combat-card", en, seed_words(Step::Select)).ja(ja)
}

/// An escape card by someone other than the loser of combat (`yomi.escape-loser`).
fn not_the_loser(state: &State, seat: Seat) -> Violation {
    let name = state.name(seat);
    let (en, ja) = match state.winner() {
        Some((w, _)) if w == seat => (
            format!("{name} won combat: only the loser puts an escape card face down."),
            format!("{name} は戦闘に勝ちました：エスケープのカードを伏せるのは負けた側だけです。"),
        ),
        _ => (
            "Nobody won combat this turn: an escape card is put only by the loser.".to_owned(),
            "このターンの戦闘には勝者がいません：エスケープのカードを伏せるのは負けた側だけです。"
                .to_owned(),
        ),
    };
    Violation::new("yomi.escape-loser", en, seed_words(Step::Escape)).ja(ja)
}

/// A combo, pump or combo end by someone other than the combat winner (`yomi.combo-winner`).
fn not_the_winner(state: &State, seat: Seat, what: &str, what_ja: &str) -> Violation {
    let name = state.name(seat);
    let (en, ja) = match state.winner() {
        Some((w, _)) => (
            format!(
                "{name} {what}, but {} won combat: only the winner combos and pumps.",
                state.name(w)
            ),
            format!(
                "{name} が{what_ja}ことはできません。戦闘に勝ったのは {} です：コンボとパンプアップは勝った側だけです。",
                state.name(w)
            ),
        ),
        None => (
            format!(
                "{name} {what}, but nobody won combat this turn: only the winner combos and pumps."
            ),
            format!(
                "{name} が{what_ja}ことはできません。このターンの戦闘には勝者がいません：コンボとパンプアップは勝った側だけです。"
            ),
        ),
    };
    Violation::new("yomi.combo-winner", en, seed_words(Step::Combo)).ja(ja)
}
