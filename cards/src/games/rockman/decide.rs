//! Rockman EXE's rules: what a move at the table causes, and which rules it breaks.

use super::card::{RockmanCard, Target};
use super::scratch::*;
use super::state::*;
use crate::core::{Decision, Impossible, Seat, Violation};

pub(super) fn check_change(values: &[i32]) -> Result<(), Impossible> {
    match values
        .iter()
        .find(|v| v.unsigned_abs() > MAX_CHANGE.unsigned_abs())
    {
        Some(v) => Err(
            Impossible::new(format!("a change of {v} is outside ±{MAX_CHANGE}"))
                .ja(format!("{v} の変更は ±{MAX_CHANGE} の範囲外です。")),
        ),
        None => Ok(()),
    }
}

pub(super) fn power(attack: u32, bonus: i32) -> u32 {
    u32::try_from((i64::from(attack) + i64::from(bonus)).max(0)).unwrap_or(0)
}

/// Deals `power` to each target square of the opponent and records the report.
pub(super) fn attack_with(
    b: &mut Builder,
    attacker: Seat,
    card: &str,
    squares: &[Square],
    power: u32,
) {
    let foe = other(attacker);
    let mut hits = Vec::new();
    for sq in squares {
        if let Some(h) = b.hit(foe, *sq, power) {
            hits.push(h);
        }
    }
    let turn = b.state.turn;
    b.push(Event::Attacked(AttackReport {
        turn,
        attacker,
        card: card.to_owned(),
        hits,
    }));
}

/// A card the player plays from hand: one of the unplayed cards, with a card in hand.
pub(super) fn hand_card(state: &State, seat: Seat, card: &str) -> Result<(), Impossible> {
    let p = &state.players[seat];
    if p.hand < 1 {
        return Err(Impossible::new(format!("{} has no card in hand", p.name))
            .ja(format!("{} の手札がありません。", p.name)));
    }
    if !state.has_unplayed(seat, card) {
        return Err(Impossible::new(format!(
            "{} has no unplayed copy of {}",
            p.name,
            state.label(card)
        ))
        .ja(format!(
            "{} には未使用の {} がありません。",
            p.name,
            state.label_ja(card)
        )));
    }
    Ok(())
}

pub(super) fn discard_cards(
    state: &State,
    b: &mut Builder,
    seat: Seat,
    cards: &[String],
) -> Result<(), Impossible> {
    if cards.len() as i32 > state.players[seat].hand {
        return Err(Impossible::new(format!(
            "{} holds {} cards, not {}",
            state.name(seat),
            state.players[seat].hand,
            cards.len()
        ))
        .ja(format!(
            "{} の手札は{}枚で、{}枚ではありません。",
            state.name(seat),
            state.players[seat].hand,
            cards.len()
        )));
    }
    for c in cards {
        state.card(c)?;
        if !b.state.has_unplayed(seat, c) {
            return Err(Impossible::new(format!(
                "{} has no unplayed copy of {}",
                state.name(seat),
                state.label(c)
            ))
            .ja(format!(
                "{} には未使用の {} がありません。",
                state.name(seat),
                state.label_ja(c)
            )));
        }
        b.push(Event::Discarded(seat, c.clone()));
    }
    Ok(())
}

/// The transfer phase and its order: first player, then second player.
pub(super) fn transfer_turn(state: &State, seat: Seat, v: &mut Vec<Violation>) {
    let expected = match state.step {
        Step::TransferFirst => state.first,
        Step::TransferSecond => state.second(),
        _ => {
            v.push(wrong_phase(state, "Placing cards", "the transfer phase"));
            return;
        }
    };
    if expected != Some(seat) {
        let whose = expected.map(|s| state.name(s)).unwrap_or("?");
        v.push(rule(
            "transfer-order",
            format!(
                "{} places out of turn: the first player places cards first, then the second player; it is {whose}'s transfer now.",
                state.name(seat)
            ),
            "§3 TRANSFER",
        ).ja(format!("{} の転送の番ではありません：転送は先攻、後攻の順です。いまは {whose} の転送です。", state.name(seat))));
    }
}

pub(super) fn transfer_checks(
    state: &State,
    seat: Seat,
    card: &str,
    v: &mut Vec<Violation>,
) -> Result<(), Impossible> {
    hand_card(state, seat, card)?;
    transfer_turn(state, seat, v);
    Ok(())
}

/// The battle phase and its alternation.
pub(super) fn battle_turn(state: &State, seat: Seat, what: &str, v: &mut Vec<Violation>) {
    if state.step != Step::Battle {
        v.push(wrong_phase(state, what, "the battle phase"));
        return;
    }
    if state.active != Some(seat) {
        let (why, why_ja) = if state.players[seat].passed_out {
            (
                format!(
                    "{} passed and takes no more actions this battle phase (house rule).",
                    state.name(seat)
                ),
                format!(
                    "{} はパスしたので、このバトルフェイズではもう行動しません（ハウスルール）。",
                    state.name(seat)
                ),
            )
        } else {
            let active = state.active.map(|s| state.name(s)).unwrap_or("?");
            (
                format!(
                    "{} acts out of turn: the players act in turn, one action each; it is {active}'s action.",
                    state.name(seat)
                ),
                format!(
                    "{} の行動の番ではありません：行動は交互に1回ずつです。いまは {active} の行動です。",
                    state.name(seat)
                ),
            )
        };
        v.push(rule("turn-order", why, "§3 BATTLE").ja(why_ja));
    }
}

pub(super) fn decide(state: &State, mv: &Move) -> Result<Decision<Event>, Impossible> {
    let mut b = Builder::new(state);
    let mut v = Vec::new();
    match mv {
        Move::OpeningNavi { player, card } => {
            check_seat(*player)?;
            let info = state.card(card)?;
            if !matches!(info.data, RockmanCard::Navi(_)) {
                // Overridden: the card stands on the centre square as the opening card.
                v.push(
                    rule(
                        "opening-navi",
                        format!(
                            "{} puts {}, a {} card, on the centre square as the opening navi: each player starts with 1 navi card there.",
                            state.name(*player),
                            info.label(),
                            info.data.kind()
                        ),
                        "§10 setup",
                    )
                    .ja(format!(
                        "{} が最初のナビとして中央のマスに置いた {} は{}カードです：最初に中央のマスに置くのはナビカード1枚です。",
                        state.name(*player),
                        info.label_ja(),
                        info.data.kind_ja()
                    )),
                );
            }
            if !state.has_unplayed(*player, card) {
                return Err(Impossible::new(format!(
                    "{}'s deck holds no {}",
                    state.name(*player),
                    info.label()
                ))
                .ja(format!(
                    "{} の山札に {} はありません。",
                    state.name(*player),
                    info.label_ja()
                )));
            }
            let centre = state.centre();
            if state.step != Step::OpeningNavi {
                v.push(wrong_phase(
                    state,
                    "Placing the opening navi",
                    "setup, before turn 1",
                ));
            }
            if let Some(old) = state.at(*player, centre) {
                // Overridden: the new navi replaces the card there (it goes to the discard pile).
                v.push(occupied(state, *player, centre, &old.card));
                b.push(Event::Destroyed(*player, centre));
            }
            b.push(Event::Put {
                seat: *player,
                card: card.clone(),
                square: centre,
                from_hand: false,
            });
            if state.step == Step::OpeningNavi && (0..2).all(|s| b.state.at(s, centre).is_some()) {
                for seat in 0..2 {
                    for _ in 0..state.rules.starting_hand {
                        b.draw_one(seat, false);
                    }
                }
                b.push(Event::StepTo(Step::Janken));
            }
        }
        Move::Janken { winner } => {
            check_seat(*winner)?;
            if state.step != Step::Janken {
                v.push(
                    rule(
                        "phase-order",
                        format!(
                            "Janken decides the first player only on turn 1 or after a tie on HP and card count; the match is at {}.",
                            step_text(state)
                        ),
                        "§3 ORDER",
                    )
                    .ja(format!(
                        "じゃんけんで先攻を決めるのは、最初のターンか、ＨＰゲージとカードの枚数が同じときだけです（じゃんけんで勝ったほうが先攻）。いまは {} です。",
                        step_text_ja(state)
                    )),
                );
                // Overridden: the janken's winner becomes the first player; the turn goes on.
                b.push(Event::FirstIs(*winner));
            } else {
                b.push(Event::FirstIs(*winner));
                b.begin_draw();
            }
        }
        Move::Transfer {
            player,
            card,
            square,
        } => {
            check_seat(*player)?;
            let info = state.card(card)?;
            let p = &state.players[*player];
            transfer_checks(state, *player, card, &mut v)?;
            if !info.data.is_character() {
                // Overridden: the card stands on the square (it has no attack of its own).
                v.push(
                    rule(
                        "transfer-kind",
                        format!(
                            "{} puts {}, a {} card, on the area: only a character (navi or virus) goes on the area; a chip goes face down in the chip zone.",
                            p.name,
                            info.label(),
                            info.data.kind()
                        ),
                        "§3 TRANSFER places",
                    )
                    .ja(format!(
                        "{} がエリアに置いた {} は{}カードです：エリアに置くのはキャラ（ナビかウイルス）で、チップはチップ置き場にウラ向きで置きます。",
                        p.name,
                        info.label_ja(),
                        info.data.kind_ja()
                    )),
                );
            }
            if !state.on_area(*square) {
                return Err(Impossible::new(format!(
                    "{square} is not a square of {}'s area",
                    p.name
                ))
                .ja(format!(
                    "{square} は {} のエリアのマスではありません。",
                    p.name
                )));
            }
            if let Some(c) = state.at(*player, *square) {
                // Overridden: the new character replaces the card there (to the discard pile).
                v.push(occupied(state, *player, *square, &c.card));
                b.push(Event::Destroyed(*player, *square));
            }
            if p.placed_character {
                v.push(rule(
                    "transfer-character",
                    format!(
                        "{} already placed a character this transfer phase: at most 1 character (navi or virus) per transfer phase.",
                        p.name
                    ),
                    "§3 TRANSFER",
                ).ja(format!("{} はこの転送フェイズですでにキャラを置きました。キャラ（ナビかウイルス）は1回の転送フェイズに1枚までです。", p.name)));
            }
            if let RockmanCard::Virus(virus) = &info.data
                && state.rules.lv2_virus_limit
                && virus.level > state.max_level(*player)
            {
                v.push(rule(
                    "lv2-virus-level",
                    format!(
                        "Lv2 rule: with HP {} {} may transfer viruses up to level {}; {} is level {}.",
                        p.hp,
                        p.name,
                        state.max_level(*player),
                        info.label(),
                        virus.level
                    ),
                    "§8 Lv2 virus",
                ).ja(format!("Lv２ルール：ＨＰ{}の {} が転送できるウイルスはレベル{}までです。{} はレベル{}です。", p.hp, p.name, state.max_level(*player), info.label_ja(), virus.level)));
            }
            b.push(Event::Put {
                seat: *player,
                card: card.clone(),
                square: *square,
                from_hand: true,
            });
        }
        Move::Evolve {
            player,
            square,
            card,
        } => {
            check_seat(*player)?;
            let info = state.card(card)?;
            let Some(base) = state.at(*player, *square) else {
                return Err(Impossible::new(format!(
                    "{} has no card on {square} to evolve",
                    state.name(*player)
                ))
                .ja(format!(
                    "{} の {square} には進化させるカードがありません。",
                    state.name(*player)
                )));
            };
            let base_info = state.card(&base.card)?;
            transfer_checks(state, *player, card, &mut v)?;
            if !matches!(base_info.data, RockmanCard::Virus(_)) {
                v.push(
                    rule(
                        "evolution-virus",
                        format!(
                            "{} evolves {} on {square}, a {} card: only a virus evolves.",
                            state.name(*player),
                            base_info.label(),
                            base_info.data.kind()
                        ),
                        "§8 Lv2",
                    )
                    .ja(format!(
                        "{} が {square} の {} を進化させようとしています。これは{}カードです：進化するのはウイルスだけです。",
                        state.name(*player),
                        base_info.label_ja(),
                        base_info.data.kind_ja()
                    )),
                );
            }
            if !matches!(info.data, RockmanCard::Virus(_)) {
                v.push(
                    rule(
                        "evolution-virus",
                        format!(
                            "{} evolves {} into {}, a {} card: a virus evolves into the virus its card names.",
                            state.name(*player),
                            base_info.label(),
                            info.label(),
                            info.data.kind()
                        ),
                        "§8 Lv2",
                    )
                    .ja(format!(
                        "{} が {} を{}カードの {} に進化させようとしています：進化した後もウイルスです（カードに書いてあるウイルス）。",
                        state.name(*player),
                        base_info.label_ja(),
                        info.data.kind_ja(),
                        info.label_ja()
                    )),
                );
            }
            if !state.rules.lv2_evolution {
                v.push(rule(
                    "lv2-evolution",
                    format!(
                        "{} evolves {} into {}: virus evolution is the optional Lv2 rule, which is not in play in this match.",
                        state.name(*player),
                        base_info.label(),
                        info.label()
                    ),
                    "§8 Lv2",
                ).ja(format!(
                    "{} が {} を {} に進化させようとしています：ウイルスの進化はLv２の追加ルールで、この対戦では使っていません。",
                    state.name(*player),
                    base_info.label_ja(),
                    info.label_ja()
                )));
            }
            let evolves_to: &[String] = match &base_info.data {
                RockmanCard::Virus(base_virus) => &base_virus.evolves_to,
                _ => &[],
            };
            if matches!(base_info.data, RockmanCard::Virus(_)) && !evolves_to.contains(card) {
                let to = if evolves_to.is_empty() {
                    "nothing".to_owned()
                } else {
                    evolves_to
                        .iter()
                        .map(|id| state.label(id))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let to_ja = if evolves_to.is_empty() {
                    "（進化先なし）".to_owned()
                } else {
                    evolves_to
                        .iter()
                        .map(|id| state.label_ja(id))
                        .collect::<Vec<_>>()
                        .join("、")
                };
                v.push(
                    rule(
                        "evolution-link",
                        format!(
                            "{} evolves into {to} (as its card says), not into {}.",
                            state.label(&base.card),
                            info.label()
                        ),
                        "§8 Lv2",
                    )
                    .ja(format!(
                        "{} が進化するのは（カードのとおり）{to_ja} で、{} ではありません。",
                        base_info.label_ja(),
                        info.label_ja()
                    )),
                );
            }
            if state.rules.evolution_uses_character && state.players[*player].placed_character {
                v.push(rule(
                    "transfer-character",
                    format!(
                        "{} already placed a character this transfer phase; an evolution counts as that 1 placement.",
                        state.name(*player)
                    ),
                    "§8 Lv2, §10 gap 14",
                ).ja(format!("{} はこの転送フェイズですでにキャラを置きました。進化はその1枚に数えます。", state.name(*player))));
            }
            b.push(Event::Evolved(*player, *square, card.clone()));
        }
        Move::PlaceChip { player } => {
            check_seat(*player)?;
            let p = &state.players[*player];
            if p.hand < 1 {
                return Err(Impossible::new(format!("{} has no card in hand", p.name))
                    .ja(format!("{} の手札がありません。", p.name)));
            }
            transfer_turn(state, *player, &mut v);
            if p.placed_chip {
                v.push(rule(
                    "transfer-chip",
                    format!(
                        "{} already placed a chip this transfer phase: at most 1 chip per transfer phase.",
                        p.name
                    ),
                    "§3 TRANSFER",
                ).ja(format!("{} はこの転送フェイズですでにチップを置きました。チップは1回の転送フェイズに1枚までです。", p.name)));
            }
            if let Some(cap) = state.rules.chip_zone_cap
                && p.chips >= i32::from(cap)
            {
                v.push(
                    rule(
                        "chip-zone-cap",
                        format!(
                            "House rule: a chip zone holds at most {cap} chips; {} has {}.",
                            p.name, p.chips
                        ),
                        "§10 gap 9",
                    )
                    .ja(format!(
                        "ハウスルール：チップ置き場は{cap}枚までです。{} は{}枚です。",
                        p.name, p.chips
                    )),
                );
            }
            b.push(Event::ChipPlaced(*player));
        }
        Move::AttachStyle {
            player,
            card,
            square,
        } => {
            check_seat(*player)?;
            let info = state.card(card)?;
            let Some(navi) = state.at(*player, *square) else {
                return Err(Impossible::new(format!(
                    "{} has no card on {square}",
                    state.name(*player)
                ))
                .ja(format!(
                    "{} の {square} にカードがありません。",
                    state.name(*player)
                )));
            };
            let navi_info = state.card(&navi.card)?;
            transfer_checks(state, *player, card, &mut v)?;
            if !matches!(info.data, RockmanCard::Style(_)) {
                v.push(
                    rule(
                        "style-kind",
                        format!(
                            "{} attaches {}, a {} card, to {} as a style card: only a style card is attached to a navi.",
                            state.name(*player),
                            info.label(),
                            info.data.kind(),
                            navi_info.label()
                        ),
                        "§8 Lv3",
                    )
                    .ja(format!(
                        "{} が {} にスタイルカードとしてつけた {} は{}カードです：ナビにつけるのはスタイルカードです。",
                        state.name(*player),
                        navi_info.label_ja(),
                        info.label_ja(),
                        info.data.kind_ja()
                    )),
                );
            }
            if !matches!(navi_info.data, RockmanCard::Navi(_)) {
                v.push(
                    rule(
                        "style-navi",
                        format!(
                            "{} attaches a style card to {} on {square}, a {} card: a style card is attached to a navi.",
                            state.name(*player),
                            navi_info.label(),
                            navi_info.data.kind()
                        ),
                        "§8 Lv3",
                    )
                    .ja(format!(
                        "{} が {square} の {} にスタイルカードをつけようとしています。これは{}カードです：スタイルカードはナビにつけます。",
                        state.name(*player),
                        navi_info.label_ja(),
                        navi_info.data.kind_ja()
                    )),
                );
            }
            let p = &state.players[*player];
            if !state.rules.lv3_styles {
                v.push(rule(
                    "lv3-style",
                    format!(
                        "{} attaches {} to {}: style cards are the optional Lv3 rule, which is not in play in this match.",
                        p.name,
                        info.label(),
                        navi_info.label()
                    ),
                    "§8 Lv3",
                ).ja(format!(
                    "{} が {} に {} をつけようとしています：スタイルカードはLv３の追加ルールで、この対戦では使っていません。",
                    p.name,
                    navi_info.label_ja(),
                    info.label_ja()
                )));
            }
            if p.attached_style {
                v.push(rule(
                    "transfer-style",
                    format!(
                        "{} already attached a style card this transfer phase: only 1 per transfer phase.",
                        p.name
                    ),
                    "§8 Lv3",
                ).ja(format!("{} はこの転送フェイズですでにスタイルカードを付けました。1回の転送フェイズに1枚だけです。", p.name)));
            }
            if state.rules.style_uses_character && p.placed_character {
                v.push(rule(
                    "transfer-character",
                    format!(
                        "House rule: a style uses the 1 character placement, which {} already used.",
                        p.name
                    ),
                    "§10 gap 14",
                ).ja(format!("ハウスルール：スタイルはキャラ1枚の配置に数えます。{} はすでに使いました。", p.name)));
            }
            b.push(Event::StyleAttached(*player, *square, card.clone()));
        }
        Move::EndTransfer { player } => {
            check_seat(*player)?;
            let expected = match state.step {
                Step::TransferFirst => state.first,
                Step::TransferSecond => state.second(),
                _ => None,
            };
            let Some(seat) = expected else {
                v.push(wrong_phase(
                    state,
                    "Ending a transfer",
                    "the transfer phase",
                ));
                return Ok(b.done(v));
            };
            // Overridden by the other player, the table ends the transfer of the one whose it is.
            transfer_turn(state, *player, &mut v);
            b.push(Event::TransferDone(seat));
            if state.step == Step::TransferFirst {
                b.push(Event::StepTo(Step::TransferSecond));
            } else {
                b.push(Event::StepTo(Step::Battle));
                b.push(Event::SetPasses(0));
                b.push(Event::ActiveIs(state.first));
            }
        }
        Move::MoveCard {
            player,
            from,
            to,
            discard,
        } => {
            check_seat(*player)?;
            let p = &state.players[*player];
            if state.at(*player, *from).is_none() {
                return Err(Impossible::new(format!("{} has no card on {from}", p.name))
                    .ja(format!("{} の {from} にカードがありません。", p.name)));
            }
            // The opponent's area lies in front of row 0; the app tracks a card only in its
            // owner's area, so overridden the move's cost is paid, the action is spent and the
            // card stays where it is (correct it at the table).
            let into_opponent = !state.on_area(*to) && to.row < 0;
            if !state.on_area(*to) && !into_opponent {
                return Err(Impossible::new(format!(
                    "{to} is off the edge of {}'s area: there is no square there",
                    p.name
                ))
                .ja(format!(
                    "{to} は {} のエリアの外です：そこにマスはありません。",
                    p.name
                )));
            }
            if into_opponent {
                v.push(
                    rule(
                        "move-own-area",
                        format!(
                            "{} moves a card from {from} to {to}, into the opponent's area: a card moves only within its owner's area (相手のエリアには移動できない).",
                            p.name
                        ),
                        "§3 BATTLE A",
                    )
                    .ja(format!(
                        "{} が {from} のカードを {to}（相手のエリア）へ移動しました：相手のエリアには移動できません。",
                        p.name
                    )),
                );
            }
            battle_turn(state, *player, "A move (action A)", &mut v);
            let dc = (i32::from(to.col) - i32::from(from.col)).abs();
            let dr = (i32::from(to.row) - i32::from(from.row)).abs();
            if dc + dr != 1 && !into_opponent {
                v.push(rule(
                    "move-orthogonal",
                    format!(
                        "{} moves a card from {from} to {to}: a card moves exactly 1 square up, down, left or right (ナナメには移動できない).",
                        p.name
                    ),
                    "§3 BATTLE A",
                ).ja(format!("{} が {from} から {to} へカードを移動しました：カードの移動は上下左右に1マスです（ナナメには移動できない）。", p.name)));
            }
            if let Some(c) = state.at(*player, *to)
                && state.rules.move_needs_empty_square
            {
                v.push(
                    rule(
                        "move-empty",
                        format!(
                            "A card moves onto an empty square; {to} holds {}.",
                            state.label(&c.card)
                        ),
                        "§10 gap 10",
                    )
                    .ja(format!(
                        "カードは空いているマスに移動します。{to} には {} があります。",
                        state.label_ja(&c.card)
                    )),
                );
            }
            match discard {
                Some(card) => {
                    hand_card(state, *player, card)?;
                    b.push(Event::Discarded(*player, card.clone()));
                }
                None => v.push(rule(
                    "move-cost",
                    format!(
                        "Moving a card costs 1 hand card, discarded (手札を１枚すて); name it with `discard`. {} holds {}.",
                        p.name, p.hand
                    ),
                    "§3 BATTLE A",
                ).ja(format!("カードの移動には手札を１枚すてます（すてるカードを指定してください）。{} の手札は{}枚です。", p.name, p.hand))),
            }
            if !into_opponent {
                b.push(Event::Moved(*player, *from, *to));
            }
            b.next_action(*player, false);
        }
        Move::Attack {
            player,
            from,
            target,
            bonus,
        } => {
            check_seat(*player)?;
            check_change(&[*bonus])?;
            let Some(attacker) = state.at(*player, *from) else {
                return Err(Impossible::new(format!(
                    "{} has no card on {from}",
                    state.name(*player)
                ))
                .ja(format!(
                    "{} の {from} にカードがありません。",
                    state.name(*player)
                )));
            };
            let info = state.card(&attacker.card)?;
            let (attack, pattern) = match &info.data {
                RockmanCard::Navi(n) => (n.attack, n.target),
                RockmanCard::Virus(x) => (x.attack, x.target),
                _ => {
                    return Err(
                        Impossible::new(format!("{} is not a character", info.label())).ja(
                            format!(
                                "{} はキャラではありません（攻撃力がありません）。",
                                info.label_ja()
                            ),
                        ),
                    );
                }
            };
            battle_turn(state, *player, "An attack (action B)", &mut v);
            if attacker.acted {
                v.push(rule(
                    "attack-acted",
                    format!(
                        "{} on {from} is acted (行動済み): it cannot attack again until the end phase.",
                        info.label()
                    ),
                    "§3 BATTLE B",
                ).ja(format!("{from} の {} は行動済みです。エンドフェイズまで再び攻撃できません。", info.label_ja())));
            }
            let (label, label_ja) = (info.label(), info.label_ja());
            let hits = targets(
                state,
                *player,
                Some(*from),
                pattern,
                target,
                (&label, &label_ja),
                &mut v,
            )?;
            let power = power(attack, *bonus);
            b.push(Event::SetActed(*player, *from, true));
            attack_with(&mut b, *player, &attacker.card, &hits, power);
            b.next_action(*player, false);
        }
        Move::UseChip {
            player,
            card,
            from,
            target,
            bonus,
        } => {
            check_seat(*player)?;
            check_change(&[*bonus])?;
            let info = state.card(card)?;
            let p = &state.players[*player];
            let chip = match &info.data {
                RockmanCard::Chip(chip) => Some(chip),
                other => {
                    // Overridden: the face-down card is turned up and discarded, with no effect
                    // (a chip zone card is face down, so any card may have been put there).
                    v.push(
                        rule(
                            "chip-kind",
                            format!(
                                "{} uses {} from the chip zone, a {} card: only a chip card is used from the chip zone (action C).",
                                p.name,
                                info.label(),
                                other.kind()
                            ),
                            "§3 BATTLE C",
                        )
                        .ja(format!(
                            "{} がチップ置き場から使った {} は{}カードです：チップ置き場から使うのはチップカードです（アクションＣ）。",
                            p.name,
                            info.label_ja(),
                            other.kind_ja()
                        )),
                    );
                    None
                }
            };
            if p.chips < 1 {
                return Err(Impossible::new(format!("{}'s chip zone is empty", p.name))
                    .ja(format!("{} のチップ置き場は空です。", p.name)));
            }
            if !state.has_unplayed(*player, card) {
                return Err(Impossible::new(format!(
                    "{} has no unplayed copy of {}",
                    p.name,
                    info.label()
                ))
                .ja(format!(
                    "{} には未使用の {} がありません。",
                    p.name,
                    info.label_ja()
                )));
            }
            if let Some(f) = from {
                let ok = state
                    .at(*player, *f)
                    .and_then(|c| state.cards.get(&c.card))
                    .is_some_and(|c| c.data.is_character());
                if !ok {
                    return Err(Impossible::new(format!(
                        "{} has no character on {f} to aim the chip from",
                        p.name
                    ))
                    .ja(format!(
                        "{} の {f} には、チップを向けるキャラがいません。",
                        p.name
                    )));
                }
            }
            battle_turn(state, *player, "Using a chip (action C)", &mut v);
            let level = chip.map_or(0, |c| c.level);
            if state.rules.lv1_chip_limit && level > state.max_level(*player) {
                v.push(rule(
                    "lv1-chip-level",
                    format!(
                        "Lv1 rule: with HP {} {} may use chips up to level {}; {} is level {}.",
                        p.hp,
                        p.name,
                        state.max_level(*player),
                        info.label(),
                        level
                    ),
                    "§8 Lv1",
                ).ja(format!("Lv１ルール：ＨＰ{}の {} が使えるチップはレベル{}までです。{} はレベル{}です。", p.hp, p.name, state.max_level(*player), info.label_ja(), level)));
            }
            if !state.rules.chip_same_turn && p.chips <= p.chips_placed_this_turn {
                v.push(
                    rule(
                        "chip-same-turn",
                        format!(
                            "House rule: a chip cannot be used in the turn it was placed; {}'s chip zone holds {} chip(s), all placed this turn (turn {}).",
                            p.name, p.chips, state.turn
                        ),
                        "§10 gap 9",
                    )
                    .ja(format!(
                        "ハウスルール：チップは置いたターンには使えません。{} のチップ置き場の{}枚はどれもこのターン（ターン{}）に置いたものです。",
                        p.name, p.chips, state.turn
                    )),
                );
            }
            let (label, label_ja) = (info.label(), info.label_ja());
            let hits = match (chip.and_then(|c| c.attack), chip.and_then(|c| c.target)) {
                (Some(attack), Some(pattern)) => {
                    if from.is_none() && !matches!(pattern, Target::Any | Target::Manual) {
                        return Err(Impossible::new(format!(
                            "{label} attacks along the lane of one of your characters: name it with `from`"
                        )).ja(format!("{label_ja} は自分のキャラのレーンに沿って攻撃します：そのキャラのマスを指定してください。")));
                    }
                    Some((
                        targets(
                            state,
                            *player,
                            *from,
                            pattern,
                            target,
                            (&label, &label_ja),
                            &mut v,
                        )?,
                        power(attack, *bonus),
                    ))
                }
                _ => None,
            };
            b.push(Event::ChipUsed(*player, card.clone()));
            if let Some((hits, power)) = hits {
                attack_with(&mut b, *player, card, &hits, power);
            }
            b.next_action(*player, false);
        }
        Move::Battler { player, card } => {
            check_seat(*player)?;
            let info = state.card(card)?;
            hand_card(state, *player, card)?;
            if !matches!(info.data, RockmanCard::Battler) {
                // Overridden: the card is played from hand and discarded, with no effect.
                v.push(
                    rule(
                        "battler-kind",
                        format!(
                            "{} plays {}, a {} card, as a battler card: action D uses a battler card from hand.",
                            state.name(*player),
                            info.label(),
                            info.data.kind()
                        ),
                        "§3 BATTLE D",
                    )
                    .ja(format!(
                        "{} がバトラーカードとして使った {} は{}カードです：アクションＤで使うのは手札のバトラーカードです。",
                        state.name(*player),
                        info.label_ja(),
                        info.data.kind_ja()
                    )),
                );
            }
            battle_turn(state, *player, "Playing a battler (action D)", &mut v);
            b.push(Event::BattlerPlayed(*player, card.clone()));
            b.next_action(*player, false);
        }
        Move::Pass { player } => {
            check_seat(*player)?;
            battle_turn(state, *player, "A pass", &mut v);
            // Overridden outside the battle phase, a pass changes nothing.
            if state.step == Step::Battle {
                b.next_action(*player, true);
            }
        }
        Move::EndEffects {} => {
            if state.step != Step::EndEffects {
                // Overridden: nothing is left to finish; the match stays where it is.
                v.push(wrong_phase(
                    state,
                    "Finishing the end-phase effects",
                    "end (1)",
                ));
            } else {
                b.push(Event::ClearedArea);
                b.push(Event::StepTo(Step::Exchange));
            }
        }
        Move::Exchange { player, discard } => {
            check_seat(*player)?;
            if state.step != Step::Exchange {
                v.push(wrong_phase(
                    state,
                    "The exchange",
                    "end (3), after the end-phase effects",
                ));
            }
            let p = &state.players[*player];
            if p.exchanged {
                v.push(rule(
                    "exchange-once",
                    format!("{} already made the end-phase exchange: it is made once only (交換は１回のみ).", p.name),
                    "§3 END (3)",
                ).ja(format!("{} はすでにエンドフェイズの交換をしました（交換は１回のみ）。", p.name)));
            }
            discard_cards(state, &mut b, *player, &discard.0)?;
            b.draw_to_five(*player, false);
            b.push(Event::Exchanged(*player));
            if state.step == Step::Exchange && b.state.players.iter().all(|p| p.exchanged) {
                b.begin_turn(state.turn + 1);
            }
        }
        Move::Effect {
            player,
            hp,
            opp_hp,
            draw,
            discard,
            square,
            opp,
            damage,
            acted,
            to,
            destroy,
            ..
        } => {
            check_seat(*player)?;
            check_change(&[*hp, *opp_hp, *draw, *damage])?;
            if *draw < 0 || *damage < 0 {
                return Err(Impossible::new("draw and damage are not negative")
                    .ja("引く枚数とダメージは負の数にできません。"));
            }
            if *hp != 0 {
                let now = state.hp_after(*player, *hp);
                b.push(Event::SetHp(*player, now));
            }
            if *opp_hp != 0 {
                let now = b.state.hp_after(other(*player), *opp_hp);
                b.push(Event::SetHp(other(*player), now));
            }
            discard_cards(state, &mut b, *player, &discard.0)?;
            for _ in 0..*draw {
                if !b.draw_one(*player, false) {
                    break;
                }
            }
            let owner = if *opp { other(*player) } else { *player };
            let needs_square = *damage != 0 || acted.is_some() || to.is_some() || *destroy;
            match square {
                Some(sq) => {
                    if state.at(owner, *sq).is_none() {
                        return Err(Impossible::new(format!(
                            "{} has no card on {sq}",
                            state.name(owner)
                        ))
                        .ja(format!(
                            "{} の {sq} にカードがありません。",
                            state.name(owner)
                        )));
                    }
                    if let Some(a) = acted {
                        b.push(Event::SetActed(owner, *sq, *a));
                    }
                    let mut at = *sq;
                    if let Some(t) = to {
                        if !state.on_area(*t) || b.state.at(owner, *t).is_some() {
                            return Err(Impossible::new(format!(
                                "{t} is not an empty square of {}'s area",
                                state.name(owner)
                            ))
                            .ja(format!(
                                "{t} は {} のエリアの空いているマスではありません。",
                                state.name(owner)
                            )));
                        }
                        b.push(Event::Moved(owner, *sq, *t));
                        at = *t;
                    }
                    if *damage != 0 {
                        let card = b.state.at(owner, at).map(|c| c.card.clone());
                        if let Some(hit) = b.hit(owner, at, u32::try_from(*damage).unwrap_or(0)) {
                            b.push(Event::Attacked(AttackReport {
                                turn: state.turn,
                                attacker: *player,
                                card: card.unwrap_or_default(),
                                hits: vec![hit],
                            }));
                        }
                    }
                    if *destroy && b.state.at(owner, at).is_some() {
                        b.push(Event::Destroyed(owner, at));
                    }
                }
                None if needs_square => {
                    return Err(Impossible::new(
                        "name the card's square (`square`) for damage, acted, to or destroy",
                    )
                    .ja("ダメージ・行動済み・移動・破壊には、カードのマスを指定してください。"));
                }
                None => {}
            }
        }
    }
    Ok(b.done(v))
}

/// A card put on a square another card holds (`rockman-exe.transfer-empty`).
fn occupied(state: &State, seat: Seat, square: Square, there: &str) -> Violation {
    rule(
        "transfer-empty",
        format!(
            "{} puts a card on {square}, which holds {}: a character goes on an empty square (エリアの空いてるマスに、オモテ向きで置く).",
            state.name(seat),
            state.label(there)
        ),
        "§3 TRANSFER",
    )
    .ja(format!(
        "{} が {square} にカードを置きました。そこには {} があります：キャラはエリアの空いてるマスに置きます。",
        state.name(seat),
        state.label_ja(there)
    ))
}
