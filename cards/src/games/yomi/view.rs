//! What the table shows of a Yomi match: the phase bar, the open prompts, the tracked numbers,
//! the moves worth offering and their sentences.

use super::card::{End, MoveKind, Rank, Timing};
use super::state::*;
use crate::catalogue::YomiCard;
use crate::core::{
    Impossible, MatchCtx, Outcome, PhaseView, Prompt, PromptKind, Roll, Seat, Tracker, TrackerId,
};
use std::collections::BTreeMap;

pub(super) fn prompts(state: &State) -> Vec<Prompt> {
    let mut out = Vec::new();
    let t = state.turn;
    let choice = |id: String, player: Option<Seat>, text: String| Prompt {
        id,
        player,
        kind: PromptKind::Choice,
        text,
    };
    let abilities = |timings: &[Timing]| -> String {
        let mut lines = Vec::new();
        for p in &state.players {
            if let Some(YomiCard::Character(c)) = state.cards.get(&p.character).map(|c| &c.data) {
                for a in &c.abilities {
                    if a.timing.is_some_and(|t| timings.contains(&t)) {
                        lines.push(format!("{}: {}", p.name, a.text));
                    }
                }
            }
            for e in state.revealed_ends(p) {
                for a in &e.abilities {
                    if a.timing.is_some_and(|t| timings.contains(&t)) {
                        lines.push(format!("{} ({}): {}", p.name, e.name_en, a.text));
                    }
                }
            }
        }
        if lines.is_empty() {
            String::new()
        } else {
            format!(" — {}", lines.join(" / "))
        }
    };
    match state.step {
        Step::DrawAbilities => out.push(choice(
            format!("t{t}-draw-phase"),
            None,
            format!(
                "Use [Draw Phase] abilities, then go on{}",
                abilities(&[Timing::DrawPhase])
            ),
        )),
        Step::Select => {
            for seat in 0..2 {
                if state.players[seat].play == Play::Empty {
                    out.push(choice(
                        format!("t{t}-choose-{seat}"),
                        Some(seat),
                        format!(
                            "{}: place a combat card face down, end toward the opponent (or declare no card)",
                            state.name(seat)
                        ),
                    ));
                }
            }
        }
        Step::Reveal => {
            for seat in 0..2 {
                let p = &state.players[seat];
                if p.play == Play::FaceDown {
                    out.push(choice(
                        format!("t{t}-reveal-{seat}"),
                        Some(seat),
                        format!("{}: reveal your combat card", p.name),
                    ));
                } else if p.aces_pending > 0 {
                    out.push(choice(
                        format!("t{t}-aces-{seat}"),
                        Some(seat),
                        format!("{}: put out {} extra Ace(s)", p.name, p.aces_pending),
                    ));
                }
            }
        }
        Step::RevealAbilities => out.push(choice(
            format!("t{t}-combat-reveal"),
            None,
            format!(
                "Use [Combat Reveal] abilities (speed changes now), then go on{}",
                abilities(&[Timing::CombatReveal])
            ),
        )),
        Step::DuringCombat => out.push(choice(
            format!("t{t}-during-combat"),
            None,
            format!(
                "[During Combat] abilities take effect, then go on{}",
                abilities(&[Timing::DuringCombat])
            ),
        )),
        Step::Escape => {
            if let Some((w, _)) = state.winner() {
                out.push(choice(
                    format!("t{t}-escape"),
                    Some(other(w)),
                    format!(
                        "{}: you may put a card face down (a Joker cancels the combo's damage)",
                        state.name(other(w))
                    ),
                ));
            }
        }
        Step::Combo => {
            if let Some((w, by)) = state.winner() {
                let p = &state.players[w];
                out.push(choice(
                    format!("t{t}-combo"),
                    Some(w),
                    if by == Kind::Dodge {
                        format!("{}: retaliate with one attack or throw, or end", p.name)
                    } else {
                        format!(
                            "{}: pump or combo ({} of {} combo points used), or end the combo",
                            p.name, p.combo_points, p.combo_limit
                        )
                    },
                ));
            }
        }
        Step::BlueBurst => {
            for seat in 0..2 {
                if state.players[seat].escape == Escape::FaceDown {
                    out.push(choice(
                        format!("t{t}-blue-burst-{seat}"),
                        Some(seat),
                        format!("{}: reveal your escape card", state.name(seat)),
                    ));
                }
            }
        }
        Step::GoldBurst | Step::PowerUp => {
            for seat in 0..2 {
                let p = &state.players[seat];
                if p.aces_owed > 0 {
                    out.push(choice(
                        format!("t{t}-aces-{seat}"),
                        Some(seat),
                        format!(
                            "{}: search up to {} Ace(s) from your deck or discard pile",
                            p.name, p.aces_owed
                        ),
                    ));
                }
            }
            out.push(choice(
                format!(
                    "t{t}-{}",
                    if state.step == Step::GoldBurst {
                        "gold-burst"
                    } else {
                        "power-up"
                    }
                ),
                None,
                if state.step == Step::GoldBurst {
                    "Gold burst: search the Aces, then go on".to_owned()
                } else {
                    "Power up (discard 2–4 cards of one rank for 1–3 Aces), then go on".to_owned()
                },
            ));
        }
        Step::EndOfCombat => out.push(choice(
            format!("t{t}-end-of-combat"),
            None,
            format!(
                "Use [End of Combat] and [Full Combo] abilities, then go on{}",
                abilities(&[Timing::EndOfCombat, Timing::FullCombo])
            ),
        )),
        Step::EndOfTurn => out.push(choice(
            format!("t{t}-end-of-turn"),
            None,
            format!(
                "Use [End of Turn] abilities, then go on{}",
                abilities(&[Timing::EndOfTurn])
            ),
        )),
        Step::HandLimit => {
            for seat in 0..2 {
                let p = &state.players[seat];
                if p.hand > p.hand_limit {
                    out.push(choice(
                        format!("t{t}-hand-limit-{seat}"),
                        Some(seat),
                        format!(
                            "{}: discard {} card(s), down to {}",
                            p.name,
                            p.hand - p.hand_limit,
                            p.hand_limit
                        ),
                    ));
                }
            }
        }
        Step::Over => {}
    }
    out
}

pub(super) fn context(state: &State) -> MatchCtx {
    let phases = vec![
        "Draw ドロー".to_owned(),
        "Combat 戦闘".to_owned(),
        "Escape エスケープ".to_owned(),
        "Combo コンボ".to_owned(),
        "Power-up パワーアップ".to_owned(),
    ];
    let current = match state.step {
        Step::DrawAbilities => 0,
        Step::Select | Step::Reveal | Step::RevealAbilities | Step::DuringCombat => 1,
        Step::Escape => 2,
        Step::Combo | Step::BlueBurst => 3,
        Step::GoldBurst
        | Step::EndOfCombat
        | Step::PowerUp
        | Step::EndOfTurn
        | Step::HandLimit
        | Step::Over => 4,
    };
    let next = match state.step {
        Step::DrawAbilities => "2-1: both choose a combat card".to_owned(),
        Step::Select => "2-2: both reveal".to_owned(),
        Step::Reveal => "2-4: the combat winner is decided".to_owned(),
        Step::RevealAbilities => "2-4: the combat winner is decided".to_owned(),
        Step::DuringCombat => "3-1: the normal-attack draw, then the escape card".to_owned(),
        Step::Escape => "4-1/4-2: the block returns, the winner combos".to_owned(),
        Step::Combo => "4-3: blue burst, then damage and knockdown".to_owned(),
        Step::BlueBurst => "4-4: damage and knockdown".to_owned(),
        Step::GoldBurst => "5-2..5-5: abilities, discard the table, power-ups".to_owned(),
        Step::EndOfCombat => "5-3: the table is discarded, then power-ups".to_owned(),
        Step::PowerUp => "5-6/5-7: [End of Turn] abilities and the hand limit".to_owned(),
        Step::EndOfTurn => "5-7: the hand limit".to_owned(),
        Step::HandLimit => format!("turn {}: both draw", state.turn + 1),
        Step::Over => "—".to_owned(),
    };
    let winner = state.winner().map(|w| w.0);
    let active = match state.step {
        Step::Escape => winner.map(other),
        Step::Combo => winner,
        Step::BlueBurst => (0..2).find(|&s| state.players[s].escape == Escape::FaceDown),
        Step::Select => {
            let w: Vec<Seat> = (0..2)
                .filter(|&s| state.players[s].play == Play::Empty)
                .collect();
            (w.len() == 1).then(|| w[0])
        }
        Step::Reveal => {
            let w: Vec<Seat> = (0..2)
                .filter(|&s| {
                    state.players[s].play == Play::FaceDown || state.players[s].aces_pending > 0
                })
                .collect();
            (w.len() == 1).then(|| w[0])
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
        leader: None,
        prompts: prompts(state),
    }
}

pub(super) fn outcome(state: &State) -> Option<Outcome> {
    let ko = ended(state)?;
    let [a, b] = [state.players[0].hp, state.players[1].hp];
    let (na, nb) = (state.name(0), state.name(1));
    if ko {
        let down: Vec<Seat> = (0..2).filter(|&s| state.players[s].hp <= 0).collect();
        if let [loser] = down.as_slice() {
            return Some(Outcome::Win {
                winner: other(*loser),
                reason: format!(
                    "{}'s HP reached {} (KO)",
                    state.name(*loser),
                    state.players[*loser].hp
                ),
            });
        }
        if state.rules.double_ko == DoubleKo::HigherHpWins && a != b {
            let winner = if a > b { 0 } else { 1 };
            return Some(Outcome::Win {
                winner,
                reason: format!(
                    "both were KO'd; {} kept more HP ({a} to {b})",
                    state.name(winner)
                ),
            });
        }
        return Some(Outcome::Draw {
            reason: format!("both were KO'd at the same moment ({na} {a}, {nb} {b})"),
        });
    }
    let who = (0..2)
        .find(|&s| state.players[s].deck <= 0)
        .map_or("a", |s| state.name(s));
    let why = format!("time out: {who}'s deck ran out");
    Some(match a.cmp(&b) {
        std::cmp::Ordering::Greater => Outcome::Win {
            winner: 0,
            reason: format!("{why}; {na} has more HP ({a} to {b})"),
        },
        std::cmp::Ordering::Less => Outcome::Win {
            winner: 1,
            reason: format!("{why}; {nb} has more HP ({b} to {a})"),
        },
        std::cmp::Ordering::Equal => Outcome::Draw {
            reason: format!("{why}; equal HP ({a} each)"),
        },
    })
}

pub(super) fn trackers(state: &State) -> Vec<Tracker> {
    let mut out = vec![Tracker {
        id: TrackerId::game("turn"),
        label: "Turn".into(),
        value: state.turn as i32,
        min: 1,
        max: 999,
    }];
    for (seat, p) in state.players.iter().enumerate() {
        let size = (p.unseen.len() + p.discard.len() + p.table.len()) as i32;
        let mut add = |name: &'static str, label: &'static str, value: i32, min: i32, max: i32| {
            out.push(Tracker {
                id: TrackerId::player(seat, name),
                label: label.into(),
                value,
                min,
                max,
            });
        };
        add("hp", "HP 体力", p.hp, -MAX_CHANGE, p.max_hp.max(p.hp));
        add("hand", "Hand 手札", p.hand, 0, size.max(p.hand));
        add("deck", "Deck 山札", p.deck, 0, size.max(p.deck));
        add(
            "discard",
            "Discard pile 捨て札",
            p.discard.len() as i32,
            p.discard.len() as i32,
            p.discard.len() as i32,
        );
        add(
            "knockdown",
            "Knocked down 転倒 (0/1)",
            i32::from(p.knocked_down),
            0,
            1,
        );
        add("combo-points", "Combo points used", p.combo_points, 0, 99);
        add("chain", "Chain combo length", p.chain, 0, 13);
        add(
            "aces-owed",
            "Ace searches open",
            i32::from(p.aces_owed),
            0,
            12,
        );
        add(
            "cancelled",
            "Damage cancelled by blue burst",
            p.cancelled,
            0,
            999,
        );
        // Shown only (they follow the cards and the combat): the Aces the searches and the
        // multi-Ace supers count, and this turn's damage (the blue burst cancels only the
        // combo part).
        let aces = |cards: &[String]| {
            cards
                .iter()
                .filter(|c| state.rank(c) == Some(Rank::Ace))
                .count() as i32
        };
        let unseen = aces(&p.unseen);
        add(
            "aces-unseen",
            "Aces in deck or hand エース（山札・手札）",
            unseen,
            unseen,
            unseen,
        );
        let discarded = aces(&p.discard);
        add(
            "aces-discard",
            "Aces in the discard pile エース（捨て札）",
            discarded,
            discarded,
            discarded,
        );
        let pending = i32::from(p.aces_pending);
        add(
            "aces-pending",
            "Extra Aces still to put out",
            pending,
            pending,
            pending,
        );
        add(
            "combat-damage",
            "Combat damage this turn",
            p.combat_damage,
            p.combat_damage,
            p.combat_damage,
        );
        add(
            "combo-damage",
            "Combo damage this turn",
            p.combo_damage,
            p.combo_damage,
            p.combo_damage,
        );
    }
    out
}

pub(super) fn adjust(
    _state: &State,
    tracker: &TrackerId,
    value: i32,
) -> Result<Vec<Event>, Impossible> {
    let need_seat = || {
        tracker
            .player
            .filter(|s| *s < 2)
            .ok_or_else(|| Impossible::new(format!("`{tracker}` needs a player")))
    };
    let small =
        |v: i32| u8::try_from(v).map_err(|_| Impossible::new(format!("{v} is outside 0..=255")));
    Ok(match tracker.name.as_ref() {
        "turn" => {
            vec![Event::SetTurn(u32::try_from(value).map_err(|_| {
                Impossible::new("the turn number is positive")
            })?)]
        }
        "hp" => vec![Event::HpIs(need_seat()?, value)],
        "hand" => vec![Event::SetHand(need_seat()?, value)],
        "deck" => vec![Event::SetDeck(need_seat()?, value)],
        "discard" | "aces-unseen" | "aces-discard" | "aces-pending" | "combat-damage"
        | "combo-damage" => Vec::new(),
        "knockdown" => vec![Event::SetKnockdown(need_seat()?, value != 0)],
        "combo-points" => vec![Event::SetComboPoints(need_seat()?, value)],
        "chain" => vec![Event::ChainIs(need_seat()?, value)],
        "aces-owed" => vec![Event::SetAcesOwed(need_seat()?, small(value)?)],
        "cancelled" => vec![Event::SetCancelled(need_seat()?, value)],
        other => {
            return Err(Impossible::new(format!(
                "Yomi keeps no number called `{other}`"
            )));
        }
    })
}

pub(super) fn die_prompts(_state: &State) -> Vec<Prompt> {
    Vec::new() // Yomi uses no dice (digest §9): every die is a free roll.
}

pub(super) fn fulfil(
    _state: &State,
    prompt: &Prompt,
    _roll: &Roll,
) -> Result<Vec<Event>, Impossible> {
    Err(Impossible::new(format!(
        "Yomi asks for no dice (prompt {})",
        prompt.id
    )))
}

pub(super) fn candidate_moves(state: &State) -> Vec<Move> {
    let mut out = Vec::new();
    let distinct = |seat: Seat| -> Vec<String> {
        let mut ids = state.players[seat].unseen.clone();
        ids.dedup();
        ids
    };
    let combat_ends = |id: &str| -> Vec<End> {
        match state.cards.get(id).map(|c| &c.data) {
            Some(YomiCard::Joker(_)) => vec![End::Top],
            Some(YomiCard::Move(m)) => [End::Top, End::Bottom]
                .into_iter()
                .filter(|e| m.end(*e).kind != MoveKind::Ability)
                .collect(),
            _ => Vec::new(),
        }
    };
    let searches = |out: &mut Vec<Move>| {
        for seat in 0..2 {
            let p = &state.players[seat];
            if p.aces_owed == 0 {
                continue;
            }
            out.push(Move::ForgoAces { player: seat });
            let is_ace = |c: &&String| state.rank(c) == Some(Rank::Ace);
            if let Some(card) = p.discard.iter().find(is_ace) {
                out.push(Move::Search {
                    player: seat,
                    card: card.clone(),
                    from: Pile::Discard,
                });
            }
            if p.deck > 0
                && let Some(card) = p.unseen.iter().find(is_ace)
            {
                out.push(Move::Search {
                    player: seat,
                    card: card.clone(),
                    from: Pile::Deck,
                });
            }
        }
    };
    match state.step {
        Step::DrawAbilities
        | Step::RevealAbilities
        | Step::DuringCombat
        | Step::EndOfCombat
        | Step::EndOfTurn => out.push(Move::Proceed {}),
        Step::Select => {
            for seat in 0..2 {
                match state.players[seat].play {
                    Play::Empty => {
                        out.push(Move::FaceDown { player: seat });
                        out.push(Move::NoCard { player: seat });
                    }
                    _ if state.no_card_by == Some(other(seat)) => {
                        out.push(Move::Rechoose { player: seat })
                    }
                    _ => {}
                }
            }
        }
        Step::Reveal => {
            for seat in 0..2 {
                let p = &state.players[seat];
                if p.play == Play::FaceDown {
                    for card in distinct(seat) {
                        for end in combat_ends(&card) {
                            out.push(Move::Reveal {
                                player: seat,
                                card: card.clone(),
                                end,
                            });
                        }
                    }
                } else if p.aces_pending > 0 {
                    for card in distinct(seat) {
                        if state.rank(&card) == Some(Rank::Ace) {
                            out.push(Move::ExtraAce { player: seat, card });
                        }
                    }
                }
            }
        }
        Step::Escape => {
            if let Some((w, _)) = state.winner() {
                out.push(Move::Escape { player: other(w) });
                out.push(Move::NoEscape { player: other(w) });
            }
        }
        Step::Combo => {
            if let Some((w, _)) = state.winner() {
                let p = &state.players[w];
                if p.aces_pending > 0 && can_put_ace(state, w) {
                    for card in distinct(w) {
                        if state.rank(&card) == Some(Rank::Ace) {
                            out.push(Move::ExtraAce { player: w, card });
                        }
                    }
                    return out;
                }
                out.push(Move::EndCombo { player: w });
                if p.hand > 0 {
                    for card in distinct(w) {
                        for end in combat_ends(&card) {
                            if state.end(&card, end).is_some_and(|e| e.kind.strikes()) {
                                out.push(Move::Combo {
                                    player: w,
                                    card: card.clone(),
                                    end,
                                });
                            }
                        }
                    }
                }
                if let Some(pump) = state.latest_move(w).and_then(|e| e.pump) {
                    let cards: Vec<String> = p
                        .unseen
                        .iter()
                        .take(usize::from(pump.cost))
                        .cloned()
                        .collect();
                    out.push(Move::Pump { player: w, cards });
                }
            }
        }
        Step::BlueBurst => {
            for seat in 0..2 {
                if state.players[seat].escape == Escape::FaceDown {
                    let ids = distinct(seat);
                    if let Some(j) = ids.iter().find(|c| state.is_joker(c)) {
                        out.push(Move::RevealEscape {
                            player: seat,
                            card: j.clone(),
                        });
                    }
                    if let Some(c) = ids.iter().find(|c| !state.is_joker(c)) {
                        out.push(Move::RevealEscape {
                            player: seat,
                            card: c.clone(),
                        });
                    }
                }
            }
        }
        Step::GoldBurst => {
            out.push(Move::Proceed {});
            searches(&mut out);
        }
        Step::PowerUp => {
            out.push(Move::Proceed {});
            searches(&mut out);
            for seat in 0..2 {
                let p = &state.players[seat];
                let mut by_rank: BTreeMap<Rank, Vec<String>> = BTreeMap::new();
                for c in &p.unseen {
                    if let Some(r) = state.rank(c) {
                        by_rank.entry(r).or_default().push(c.clone());
                    }
                }
                if let Some(cards) = by_rank
                    .into_values()
                    .find(|cs| cs.len() >= 2 && p.hand >= 2)
                {
                    out.push(Move::PowerUp {
                        player: seat,
                        cards: cards.into_iter().take(2).collect(),
                    });
                }
            }
        }
        Step::HandLimit => {
            for seat in 0..2 {
                let p = &state.players[seat];
                let excess = (p.hand - p.hand_limit).max(0) as usize;
                if excess > 0 && p.unseen.len() >= excess {
                    out.push(Move::Discard {
                        player: seat,
                        cards: p.unseen.iter().take(excess).cloned().collect(),
                    });
                }
            }
        }
        Step::Over => {}
    }
    out
}

pub(super) fn describe(state: &State, mv: &Move) -> String {
    let name = |s: &Seat| state.name(*s).to_owned();
    let card = |id: &str| state.label(id);
    let list = |cs: &[String]| cs.iter().map(|c| card(c)).collect::<Vec<_>>().join(", ");
    let move_name = |id: &str, end: End| {
        state
            .end(id, end)
            .map(|e| format!("{} ({})", e.name_en, e.kind.as_str()))
            .unwrap_or_else(|| card(id))
    };
    match mv {
        Move::Proceed {} => format!("Done with {}", step_text(state)),
        Move::FaceDown { player } => format!("{} places a combat card face down", name(player)),
        Move::NoCard { player } => format!("{} declares \"no card\"", name(player)),
        Move::Rechoose { player } => {
            format!("{} takes the choice back to choose again", name(player))
        }
        Move::Reveal {
            player,
            card: c,
            end,
        } => {
            if state.is_joker(c) {
                format!("{} reveals a Joker (gold burst)", name(player))
            } else {
                format!(
                    "{} reveals {}: {}",
                    name(player),
                    card(c),
                    move_name(c, *end)
                )
            }
        }
        Move::ExtraAce { player, card: c } => {
            format!("{} puts out an extra Ace: {}", name(player), card(c))
        }
        Move::Escape { player } => format!("{} puts an escape card face down", name(player)),
        Move::NoEscape { player } => format!("{} puts no escape card", name(player)),
        Move::Combo {
            player,
            card: c,
            end,
        } => {
            format!(
                "{} combos into {}: {}",
                name(player),
                card(c),
                move_name(c, *end)
            )
        }
        Move::Pump { player, cards } => {
            format!("{} pumps, paying {}", name(player), list(cards))
        }
        Move::EndCombo { player } => format!("{} ends the combo", name(player)),
        Move::RevealEscape { player, card: c } => {
            format!("{} reveals the escape card: {}", name(player), card(c))
        }
        Move::Search {
            player,
            card: c,
            from,
        } => format!(
            "{} searches {} from the {}",
            name(player),
            card(c),
            match from {
                Pile::Deck => "deck",
                Pile::Discard => "discard pile",
            }
        ),
        Move::ForgoAces { player } => {
            format!("{} gives up the open Ace searches", name(player))
        }
        Move::PowerUp { player, cards } => {
            format!("{} powers up, discarding {}", name(player), list(cards))
        }
        Move::Discard { player, cards } => format!("{} discards {}", name(player), list(cards)),
        Move::Draw { player } => format!("{} draws a card by hand", name(player)),
        Move::Effect {
            player,
            hp,
            opp_hp,
            draw,
            speed,
            combo_damage,
            note,
        } => {
            let parts = crate::core::signed_changes(&[
                ("HP", hp),
                ("opponent HP", opp_hp),
                ("draw", draw),
                ("speed (tenths)", speed),
                ("combo damage", combo_damage),
            ]);
            format!(
                "{}'s ability: {}",
                name(player),
                crate::core::effect_summary(&parts, note)
            )
        }
    }
}
