//! What the table shows of a Rockman EXE match: the phase bar, the open prompts, the tracked
//! numbers, the moves worth offering and their sentences.

use super::card::{RockmanCard, Target, max_level};
use super::state::*;
use crate::core::{
    Impossible, MatchCtx, Outcome, PhaseView, Prompt, PromptKind, Roll, Seat, Tracker, TrackerId,
};

pub(super) fn prompts(state: &State) -> Vec<Prompt> {
    let mut out = Vec::new();
    let choice = |id: String, player: Option<Seat>, text: String| Prompt {
        id,
        player,
        kind: PromptKind::Choice,
        text,
    };
    let t = state.turn;
    match state.step {
        Step::OpeningNavi => {
            let c = state.centre();
            for seat in 0..2 {
                if state.at(seat, c).is_none() {
                    out.push(choice(
                        format!("navi-{seat}"),
                        Some(seat),
                        format!(
                            "{}: put a navi from your deck on the centre square {c}",
                            state.name(seat)
                        ),
                    ));
                }
            }
        }
        Step::Janken => out.push(choice(
            format!("t{t}-janken"),
            None,
            if t == 1 {
                "Play janken: the winner goes first on turn 1".to_owned()
            } else {
                "Equal HP and equal cards in area + chip zone: play janken; the winner goes first"
                    .to_owned()
            },
        )),
        Step::TransferFirst | Step::TransferSecond => {
            let seat = if state.step == Step::TransferFirst {
                state.first
            } else {
                state.second()
            }
            .unwrap_or(0);
            let p = &state.players[seat];
            let mut can = Vec::new();
            if !p.placed_character {
                can.push("1 character (navi or virus) on an empty square".to_owned());
            }
            if !p.placed_chip {
                can.push("1 chip face down".to_owned());
            }
            if state.rules.lv3_styles && !p.attached_style {
                can.push("1 style card on a navi".to_owned());
            }
            if state.rules.lv2_virus_limit {
                can.push(format!("viruses up to level {}", state.max_level(seat)));
            }
            out.push(choice(
                format!("t{t}-transfer-{seat}"),
                Some(seat),
                format!(
                    "{}: place {}; then end the transfer",
                    p.name,
                    if can.is_empty() {
                        "nothing more".to_owned()
                    } else {
                        can.join(", ")
                    }
                ),
            ));
        }
        Step::Battle => {
            if let Some(seat) = state.active {
                let lv = if state.rules.lv1_chip_limit {
                    format!(" (chips up to level {})", state.max_level(seat))
                } else {
                    String::new()
                };
                out.push(choice(
                    format!("t{t}-battle-{seat}"),
                    Some(seat),
                    format!(
                        "{}: one action — move (discard 1), attack, chip{lv}, battler, or pass",
                        state.name(seat)
                    ),
                ));
            }
        }
        Step::EndEffects => {
            for (i, (seat, id, text)) in state.end_phase_effects().into_iter().enumerate() {
                out.push(choice(
                    format!("t{t}-end-effect-{i}"),
                    Some(seat),
                    format!(
                        "{}: resolve {} — {text}",
                        state.name(seat),
                        state.label(&id)
                    ),
                ));
            }
        }
        Step::Exchange => {
            for seat in 0..2 {
                if !state.players[seat].exchanged {
                    out.push(choice(
                        format!("t{t}-exchange-{seat}"),
                        Some(seat),
                        format!(
                            "{}: discard unwanted cards (or none) and draw back to {HAND_SIZE}",
                            state.name(seat)
                        ),
                    ));
                }
            }
        }
    }
    out
}

pub(super) fn context(state: &State) -> MatchCtx {
    let phases = [
        "Setup 準備",
        "Order 順番決め",
        "Draw ドロー",
        "Transfer 転送",
        "Battle バトル",
        "End エンド",
    ]
    .map(str::to_owned)
    .to_vec();
    let current = match state.step {
        Step::OpeningNavi => 0,
        Step::Janken => 1,
        Step::TransferFirst | Step::TransferSecond => 3,
        Step::Battle => 4,
        Step::EndEffects | Step::Exchange => 5,
    };
    let next = match state.step {
        Step::OpeningNavi => "janken for the first turn, then both draw to 5".to_owned(),
        Step::Janken => "both draw to 5, then the first player transfers".to_owned(),
        Step::TransferFirst => "the second player transfers".to_owned(),
        Step::TransferSecond => "the battle: first player acts first".to_owned(),
        Step::Battle => "two passes in a row end the battle; then the end phase".to_owned(),
        Step::EndEffects => {
            "every character unacted and its damage cleared; then the exchange".to_owned()
        }
        Step::Exchange => format!("turn {}: order (lower HP first), then draw", state.turn + 1),
    };
    let active = match state.step {
        Step::TransferFirst => state.first,
        Step::TransferSecond => state.second(),
        Step::Battle => state.active,
        Step::Exchange => {
            let waiting: Vec<Seat> = (0..2).filter(|&s| !state.players[s].exchanged).collect();
            (waiting.len() == 1).then(|| waiting[0])
        }
        Step::OpeningNavi => {
            let c = state.centre();
            let waiting: Vec<Seat> = (0..2).filter(|&s| state.at(s, c).is_none()).collect();
            (waiting.len() == 1).then(|| waiting[0])
        }
        _ => None,
    };
    MatchCtx {
        players: state.players.iter().map(|p| p.name.clone()).collect(),
        turn: state.turn,
        phase: PhaseView {
            phases,
            current,
            step: step_text(state),
            next,
        },
        active,
        leader: state.first,
        prompts: prompts(state),
    }
}

pub(super) fn outcome(state: &State) -> Option<Outcome> {
    let down: Vec<Seat> = (0..2).filter(|&s| state.players[s].hp <= 0).collect();
    match down.as_slice() {
        [] => None,
        [loser] => Some(Outcome::Win {
            winner: other(*loser),
            reason: format!("{}'s HP gauge reached 0", state.players[*loser].name),
        }),
        _ => Some(Outcome::Draw {
            reason: "both HP gauges reached 0 at the same time".into(),
        }),
    }
}

pub(super) fn trackers(state: &State) -> Vec<Tracker> {
    let mut out = vec![Tracker {
        id: TrackerId::game("turn"),
        label: "Turn".into(),
        value: state.turn as i32,
        min: 1,
        max: 999,
    }];
    if let Some(first) = state.first {
        out.push(Tracker {
            id: TrackerId::game("first"),
            label: "First player 先攻 (seat)".into(),
            value: first as i32,
            min: 0,
            max: 1,
        });
    }
    // The phase as a number (shown only; the label names it): 1 opening navi, 2 ORDER janken,
    // 3 first TRANSFER, 4 second TRANSFER, 5 BATTLE, 6 END effects, 7 END exchange.
    let (phase, phase_label) = match state.step {
        Step::OpeningNavi => (1, "Phase: opening navi"),
        Step::Janken => (2, "Phase: ORDER (janken)"),
        Step::TransferFirst => (3, "Phase: TRANSFER (first player)"),
        Step::TransferSecond => (4, "Phase: TRANSFER (second player)"),
        Step::Battle => (5, "Phase: BATTLE"),
        Step::EndEffects => (6, "Phase: END (effects)"),
        Step::Exchange => (7, "Phase: END (exchange)"),
    };
    out.push(Tracker {
        id: TrackerId::game("phase"),
        label: phase_label.into(),
        value: phase,
        min: phase,
        max: phase,
    });
    if state.step == Step::Battle && state.rules.battle_end == BattleEnd::TwoPasses {
        out.push(Tracker {
            id: TrackerId::game("passes"),
            label: "Passes in a row".into(),
            value: i32::from(state.passes),
            min: 0,
            max: 1,
        });
    }
    let total = DECK_SIZE as i32;
    for (seat, p) in state.players.iter().enumerate() {
        let mut add = |name: &'static str, label: &'static str, value: i32, min: i32, max: i32| {
            out.push(Tracker {
                id: TrackerId::player(seat, name),
                label: label.into(),
                value,
                min,
                max,
            });
        };
        add(
            "hp",
            "HP gauge ＨＰゲージ",
            p.hp,
            0,
            state.rules.hp_cap.unwrap_or(990).max(p.hp),
        );
        add("hand", "Hand 手札", p.hand, 0, total);
        add("deck", "Deck 山札", p.deck, 0, total);
        add("chips", "Chip zone チップ置き場", p.chips, 0, total);
        let d = p.discard.len() as i32;
        add("discard", "Discard pile 捨札 (changed by moves)", d, d, d);
        // ORDER (2): the cards of the area and the chip zone decide the first player on equal
        // HP; shown only (it follows the cards).
        let n = p.table_cards(state.rules.order_counts_styles);
        add(
            "table-cards",
            "Area + chip zone エリアとチップ置き場の枚数 (ORDER)",
            n,
            n,
            n,
        );
        let styles = p
            .area
            .iter()
            .flatten()
            .filter(|c| c.style.is_some())
            .count() as i32;
        add(
            "styles",
            "Style cards on navis スタイル",
            styles,
            styles,
            styles,
        );
        if state.rules.lv1_chip_limit {
            let l = i32::from(max_level(p.hp));
            add("chip-level", "Lv1: highest chip level (from HP)", l, l, l);
        }
        if state.rules.lv2_virus_limit {
            let l = i32::from(max_level(p.hp));
            add("virus-level", "Lv2: highest virus level (from HP)", l, l, l);
        }
        for sq in state.squares() {
            let Some(c) = state.at(seat, sq) else {
                continue;
            };
            let label = state.label(&c.card);
            out.push(Tracker {
                id: TrackerId::named(Some(seat), format!("acted-{}-{}", sq.col, sq.row)),
                label: format!("{label} {sq} acted 行動済み (0/1)").into(),
                value: i32::from(c.acted),
                min: 0,
                max: 1,
            });
            if let Some(RockmanCard::Virus(v)) = state.cards.get(&c.card).map(|i| &i.data) {
                out.push(Tracker {
                    id: TrackerId::named(Some(seat), format!("damage-{}-{}", sq.col, sq.row)),
                    label: format!("{label} {sq} damage ダメージ").into(),
                    value: c.damage as i32,
                    min: 0,
                    max: (v.hp as i32 - 1).max(0),
                });
            }
        }
    }
    out
}

pub(super) fn adjust(
    state: &State,
    tracker: &TrackerId,
    value: i32,
) -> Result<Vec<Event>, Impossible> {
    let need_seat = || {
        tracker
            .player
            .filter(|s| *s < 2)
            .ok_or_else(|| Impossible::new(format!("`{tracker}` needs a player")))
    };
    let name = tracker.name.as_ref();
    let square = |prefix: &str| -> Option<Square> {
        name.strip_prefix(prefix)?
            .replacen('-', ",", 1)
            .parse()
            .ok()
    };
    Ok(match name {
        "phase" => Vec::new(),
        "turn" => vec![Event::SetTurn(
            u32::try_from(value).map_err(|_| Impossible::new("the turn is positive"))?,
        )],
        "first" => vec![Event::FirstIs(usize::try_from(value).unwrap_or(0).min(1))],
        "passes" => vec![Event::SetPasses(u8::try_from(value).unwrap_or(0))],
        "hp" => vec![Event::SetHp(need_seat()?, value)],
        "hand" => vec![Event::SetHand(need_seat()?, value)],
        "deck" => vec![Event::SetDeck(need_seat()?, value)],
        "chips" => vec![Event::SetChips(need_seat()?, value)],
        "discard" | "chip-level" | "virus-level" | "table-cards" | "styles" => Vec::new(),
        _ => {
            let seat = need_seat()?;
            if let Some(sq) = square("acted-") {
                vec![Event::SetActed(seat, sq, value != 0)]
            } else if let Some(sq) = square("damage-") {
                vec![Event::SetDamage(
                    seat,
                    sq,
                    u32::try_from(value).unwrap_or(0),
                )]
            } else {
                let _ = state;
                return Err(Impossible::new(format!(
                    "Rockman EXE keeps no number called `{name}`"
                )));
            }
        }
    })
}

pub(super) fn die_prompts(_state: &State) -> Vec<Prompt> {
    Vec::new() // The game uses no dice (janken decides the order): every die is a free roll.
}

pub(super) fn fulfil(
    _state: &State,
    prompt: &Prompt,
    _roll: &Roll,
) -> Result<Vec<Event>, Impossible> {
    Err(Impossible::new(format!(
        "Rockman EXE asks for no dice (prompt {})",
        prompt.id
    )))
}

pub(super) fn candidate_moves(state: &State) -> Vec<Move> {
    let mut out = Vec::new();
    let distinct = |seat: Seat, kind: &str| -> Vec<String> {
        let mut ids: Vec<String> = state.players[seat]
            .unplayed
            .iter()
            .filter(|id| state.cards.get(*id).is_some_and(|c| c.data.kind() == kind))
            .cloned()
            .collect();
        ids.dedup();
        ids
    };
    let first_unplayed = |seat: Seat| state.players[seat].unplayed.first().cloned();
    let distinct_unplayed = |seat: Seat| -> Vec<String> {
        let mut ids = state.players[seat].unplayed.clone();
        ids.sort();
        ids.dedup();
        ids
    };
    let squares = state.squares();
    match state.step {
        Step::OpeningNavi => {
            for seat in 0..2 {
                if state.at(seat, state.centre()).is_none() {
                    out.extend(
                        distinct(seat, "navi")
                            .into_iter()
                            .map(|card| Move::OpeningNavi { player: seat, card }),
                    );
                }
            }
        }
        Step::Janken => out.extend((0..2).map(|winner| Move::Janken { winner })),
        Step::TransferFirst | Step::TransferSecond => {
            let seat = if state.step == Step::TransferFirst {
                state.first.unwrap_or(0)
            } else {
                state.second().unwrap_or(1)
            };
            out.push(Move::EndTransfer { player: seat });
            out.push(Move::PlaceChip { player: seat });
            let empty: Vec<Square> = squares
                .iter()
                .copied()
                .filter(|q| state.at(seat, *q).is_none())
                .collect();
            // Every empty square: the player puts the card where it stands on the mat.
            for kind in ["virus", "navi"] {
                for card in distinct(seat, kind) {
                    for sq in &empty {
                        out.push(Move::Transfer {
                            player: seat,
                            card: card.clone(),
                            square: *sq,
                        });
                    }
                }
            }
            for sq in &squares {
                let Some(c) = state.at(seat, *sq) else {
                    continue;
                };
                match state.cards.get(&c.card).map(|i| &i.data) {
                    Some(RockmanCard::Virus(v)) => {
                        for to in &v.evolves_to {
                            out.push(Move::Evolve {
                                player: seat,
                                square: *sq,
                                card: to.clone(),
                            });
                        }
                    }
                    Some(RockmanCard::Navi(_)) => {
                        for card in distinct(seat, "style") {
                            out.push(Move::AttachStyle {
                                player: seat,
                                card,
                                square: *sq,
                            });
                        }
                    }
                    _ => {}
                }
            }
        }
        Step::Battle => {
            let Some(seat) = state.active else {
                return out;
            };
            out.push(Move::Pass { player: seat });
            let foe_cards: Vec<Square> = squares
                .iter()
                .copied()
                .filter(|q| state.at(other(seat), *q).is_some())
                .collect();
            let own: Vec<Square> = squares
                .iter()
                .copied()
                .filter(|q| state.at(seat, *q).is_some())
                .collect();
            for from in &own {
                let Some(c) = state.at(seat, *from) else {
                    continue;
                };
                let pattern = match state.cards.get(&c.card).map(|i| &i.data) {
                    Some(RockmanCard::Navi(n)) => n.target,
                    Some(RockmanCard::Virus(v)) => v.target,
                    _ => continue,
                };
                // Each bonus the players may add by hand (a style card, an effect): the
                // panel picks one with a stepper.
                for bonus in ATTACK_BONUSES {
                    if matches!(pattern, Target::Any | Target::Manual) {
                        for t in &foe_cards {
                            out.push(Move::Attack {
                                player: seat,
                                from: *from,
                                target: Squares(vec![*t]),
                                bonus,
                            });
                        }
                    } else {
                        out.push(Move::Attack {
                            player: seat,
                            from: *from,
                            target: Squares::default(),
                            bonus,
                        });
                    }
                }
                for (dc, dr) in [(0, -1), (0, 1), (-1, 0), (1, 0)] {
                    let to = Square::new(from.col + dc, from.row + dr);
                    if state.on_area(to) && state.at(seat, to).is_none() {
                        if let Some(discard) = first_unplayed(seat) {
                            out.push(Move::MoveCard {
                                player: seat,
                                from: *from,
                                to,
                                discard: Some(discard),
                            });
                        }
                        // Without a discard: refused, offered for an agreed override.
                        out.push(Move::MoveCard {
                            player: seat,
                            from: *from,
                            to,
                            discard: None,
                        });
                    }
                }
            }
            if state.players[seat].chips > 0 {
                for card in distinct(seat, "chip") {
                    let pattern = match state.cards.get(&card).map(|i| &i.data) {
                        Some(RockmanCard::Chip(c)) => c.target,
                        _ => None,
                    };
                    match pattern {
                        None => out.push(Move::UseChip {
                            player: seat,
                            card,
                            from: None,
                            target: Squares::default(),
                            bonus: 0,
                        }),
                        Some(Target::Any | Target::Manual) => {
                            if let Some(t) = foe_cards.first() {
                                out.push(Move::UseChip {
                                    player: seat,
                                    card,
                                    from: None,
                                    target: Squares(vec![*t]),
                                    bonus: 0,
                                });
                            }
                        }
                        Some(_) => {
                            for from in &own {
                                out.push(Move::UseChip {
                                    player: seat,
                                    card: card.clone(),
                                    from: Some(*from),
                                    target: Squares::default(),
                                    bonus: 0,
                                });
                            }
                        }
                    }
                }
            }
            out.extend(
                distinct(seat, "battler")
                    .into_iter()
                    .map(|card| Move::Battler { player: seat, card }),
            );
        }
        Step::EndEffects => out.push(Move::EndEffects {}),
        Step::Exchange => {
            for seat in 0..2 {
                if !state.players[seat].exchanged {
                    out.push(Move::Exchange {
                        player: seat,
                        discard: CardList::default(),
                    });
                    // One unwanted card, whichever the player puts down.
                    for c in distinct_unplayed(seat) {
                        out.push(Move::Exchange {
                            player: seat,
                            discard: CardList(vec![c]),
                        });
                    }
                }
            }
        }
    }
    out
}

pub(super) fn describe(state: &State, mv: &Move) -> String {
    let name = |s: &Seat| state.name(*s).to_owned();
    let card = |id: &str| state.label(id);
    let list = |s: &Squares| {
        s.0.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let with_bonus = |b: &i32| {
        if *b == 0 {
            String::new()
        } else {
            format!(" (attack {b:+})")
        }
    };
    match mv {
        Move::OpeningNavi { player, card: c } => {
            format!("{} puts {} on the centre square", name(player), card(c))
        }
        Move::Janken { winner } => {
            format!("{} wins the janken and goes first this turn", name(winner))
        }
        Move::Transfer {
            player,
            card: c,
            square,
        } => format!("{} transfers {} to {square}", name(player), card(c)),
        Move::Evolve {
            player,
            square,
            card: c,
        } => {
            let from = state
                .at(*player, *square)
                .map(|a| card(&a.card))
                .unwrap_or_default();
            format!(
                "{} evolves {from} on {square} into {}",
                name(player),
                card(c)
            )
        }
        Move::PlaceChip { player } => format!("{} places a chip face down", name(player)),
        Move::AttachStyle {
            player,
            card: c,
            square,
        } => format!(
            "{} attaches {} to the navi on {square}",
            name(player),
            card(c)
        ),
        Move::EndTransfer { player } => format!("{} ends the transfer", name(player)),
        Move::MoveCard {
            player,
            from,
            to,
            discard,
        } => {
            let what = state
                .at(*player, *from)
                .map(|a| card(&a.card))
                .unwrap_or_default();
            let cost = discard
                .as_deref()
                .map(|d| format!(", discarding {}", card(d)))
                .unwrap_or_default();
            format!("{} moves {what} from {from} to {to}{cost}", name(player))
        }
        Move::Attack {
            player,
            from,
            target,
            bonus,
        } => {
            let what = state
                .at(*player, *from)
                .map(|a| card(&a.card))
                .unwrap_or_default();
            let at = if target.0.is_empty() {
                String::new()
            } else {
                format!(" at {}", list(target))
            };
            format!(
                "{} attacks with {what} on {from}{at}{}",
                name(player),
                with_bonus(bonus)
            )
        }
        Move::UseChip {
            player,
            card: c,
            from,
            target,
            bonus,
        } => {
            let via = from.map(|f| format!(" from {f}")).unwrap_or_default();
            let at = if target.0.is_empty() {
                String::new()
            } else {
                format!(" at {}", list(target))
            };
            format!(
                "{} uses chip {}{via}{at}{}",
                name(player),
                card(c),
                with_bonus(bonus)
            )
        }
        Move::Battler { player, card: c } => {
            format!("{} plays battler {}", name(player), card(c))
        }
        Move::Pass { player } => format!("{} passes", name(player)),
        Move::EndEffects {} => {
            "End-phase effects done; every character unacted, damage cleared".into()
        }
        Move::Exchange { player, discard } => {
            if discard.0.is_empty() {
                format!("{} keeps the hand and draws to {HAND_SIZE}", name(player))
            } else {
                let cards: Vec<String> = discard.0.iter().map(|c| card(c)).collect();
                format!(
                    "{} discards {} and draws to {HAND_SIZE}",
                    name(player),
                    cards.join(", ")
                )
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
            note,
        } => {
            let mut parts = Vec::new();
            if *hp != 0 {
                parts.push(format!("own HP {hp:+}"));
            }
            if *opp_hp != 0 {
                parts.push(format!("opponent HP {opp_hp:+}"));
            }
            if *draw != 0 {
                parts.push(format!("draws {draw}"));
            }
            if !discard.0.is_empty() {
                parts.push(format!("discards {}", discard.0.join(", ")));
            }
            if let Some(sq) = square {
                let owner = if *opp { other(*player) } else { *player };
                let what = state
                    .at(owner, *sq)
                    .map(|a| card(&a.card))
                    .unwrap_or_else(|| "?".into());
                let whose = if *opp { "opponent's " } else { "own " };
                if let Some(a) = acted {
                    parts.push(format!(
                        "{whose}{what} on {sq} {}",
                        if *a { "acted" } else { "unacted" }
                    ));
                }
                if let Some(t) = to {
                    parts.push(format!("{whose}{what} moves {sq} → {t}"));
                }
                if *damage != 0 {
                    parts.push(format!("{damage} damage to {whose}{what} on {sq}"));
                }
                if *destroy {
                    parts.push(format!("{whose}{what} on {sq} to the discard pile"));
                }
            }
            format!(
                "{}'s effect: {}",
                name(player),
                crate::core::effect_summary(&parts, note)
            )
        }
    }
}
