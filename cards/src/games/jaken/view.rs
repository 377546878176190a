//! What the table shows of a Jaken match: the phase bar, the open prompts, the tracked
//! numbers, the moves worth offering and their sentences.

use super::state::*;
use crate::catalogue::JakenCard;
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
    let parent = state.parent.unwrap_or(0);
    match state.step {
        Step::Janken => out.push(choice(
            "janken".into(),
            None,
            "Play janken: the winner becomes the first parent".into(),
        )),
        Step::ParentBg => out.push(choice(
            format!("b{}-bg", state.turn),
            Some(parent),
            format!(
                "{} (parent): declare a BG card, or pass",
                state.name(parent)
            ),
        )),
        Step::ChildCounter => out.push(choice(
            format!("b{}-counter", state.turn),
            Some(other(parent)),
            format!(
                "{} (child): counter with a BG card, or pass",
                state.name(other(parent))
            ),
        )),
        Step::FaceDown => {
            for seat in 0..2 {
                if state.players[seat].placement == Placement::Empty {
                    out.push(choice(
                        format!("b{}-place-{seat}", state.turn),
                        Some(seat),
                        format!(
                            "{}: place a monster face down (cost ≤ {})",
                            state.name(seat),
                            state.turn
                        ),
                    ));
                }
            }
        }
        Step::Reveal => {
            for seat in 0..2 {
                if state.players[seat].placement == Placement::FaceDown {
                    out.push(choice(
                        format!("b{}-reveal-{seat}", state.turn),
                        Some(seat),
                        format!("{}: reveal your monster", state.name(seat)),
                    ));
                }
            }
        }
        Step::Effects => {
            for &seat in &state.pending_effects {
                let label = state
                    .revealed(seat)
                    .and_then(|(id, _)| state.cards.get(id))
                    .map(|c| format!("{} — {}", c.label(), c.text))
                    .unwrap_or_default();
                out.push(choice(
                    format!("b{}-effect-{seat}", state.turn),
                    Some(seat),
                    format!("{}: resolve the effect of {label}", state.name(seat)),
                ));
            }
        }
        Step::Compare => out.push(choice(
            format!("b{}-compare", state.turn),
            None,
            "Compare ATK/DEF and move SB".into(),
        )),
        Step::BattleEnd => out.push(choice(
            format!("b{}-end", state.turn),
            Some(parent),
            if state.turn >= BATTLES {
                "End the last battle and count the SB".into()
            } else {
                format!(
                    "{} (parent): hand the OB to {}",
                    state.name(parent),
                    state.name(other(parent))
                )
            },
        )),
        Step::Over => {}
    }
    out
}

pub(super) fn context(state: &State) -> MatchCtx {
    let phases = vec![
        "Setup 準備".to_owned(),
        "Plan 作戦".to_owned(),
        "Battle 決戦".to_owned(),
        "Battle end 終決".to_owned(),
    ];
    let current = match state.step {
        Step::Janken => 0,
        Step::ParentBg | Step::ChildCounter | Step::FaceDown => 1,
        Step::Reveal | Step::Effects | Step::Compare => 2,
        Step::BattleEnd | Step::Over => 3,
    };
    let next = match state.step {
        Step::Janken => "battle 1: both draw, then the parent may declare a BG".to_owned(),
        Step::ParentBg => "the child may counter (only if the parent declared a BG), then both place a monster face down".to_owned(),
        Step::ChildCounter => "both place a monster face down".to_owned(),
        Step::FaceDown => "both reveal at the same time".to_owned(),
        Step::Reveal => "effects resolve, parent first".to_owned(),
        Step::Effects => "compare ATK/DEF and move SB".to_owned(),
        Step::Compare => "the parent hands over the OB".to_owned(),
        Step::BattleEnd if state.turn >= BATTLES => "the final count: more SB wins".to_owned(),
        Step::BattleEnd => format!("battle {}: both draw", state.turn + 1),
        Step::Over => "—".to_owned(),
    };
    let active = match state.step {
        Step::ParentBg | Step::BattleEnd => state.parent,
        Step::ChildCounter => state.parent.map(other),
        Step::Effects => state.pending_effects.first().copied(),
        Step::FaceDown => {
            let waiting: Vec<Seat> = (0..2)
                .filter(|&s| state.players[s].placement == Placement::Empty)
                .collect();
            (waiting.len() == 1).then(|| waiting[0])
        }
        Step::Reveal => {
            let waiting: Vec<Seat> = (0..2)
                .filter(|&s| state.players[s].placement == Placement::FaceDown)
                .collect();
            (waiting.len() == 1).then(|| waiting[0])
        }
        _ => None,
    };
    MatchCtx {
        players: state.players.iter().map(|p| p.name.clone()).collect(),
        turn: state.turn.max(1),
        phase: PhaseView {
            phases,
            current,
            step: step_text(state),
            next,
        },
        active,
        leader: state.parent,
        prompts: prompts(state),
    }
}

pub(super) fn outcome(state: &State) -> Option<Outcome> {
    if let Some(loser) = (0..2).find(|&s| state.players[s].sb <= 0) {
        return Some(Outcome::Win {
            winner: other(loser),
            reason: format!("{}'s SB reached 0", state.players[loser].name),
        });
    }
    if state.step == Step::Over {
        let [a, b] = [state.players[0].sb, state.players[1].sb];
        return Some(match a.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::Win {
                winner: 0,
                reason: format!("more SB after battle {BATTLES} ({a} to {b})"),
            },
            std::cmp::Ordering::Less => Outcome::Win {
                winner: 1,
                reason: format!("more SB after battle {BATTLES} ({b} to {a})"),
            },
            std::cmp::Ordering::Equal => Outcome::Draw {
                reason: format!("equal SB after battle {BATTLES} ({a} each)"),
            },
        });
    }
    None
}

pub(super) fn trackers(state: &State) -> Vec<Tracker> {
    let mut out = vec![Tracker {
        id: TrackerId::game("turn"),
        label: "Battle".into(),
        value: state.turn as i32,
        min: 1,
        max: BATTLES as i32,
    }];
    let floor = if state.rules.clamp_negative { 0 } else { -99 };
    for (seat, p) in state.players.iter().enumerate() {
        out.push(Tracker {
            id: TrackerId::player(seat, "sb"),
            label: "SB 魂玉".into(),
            value: p.sb,
            min: 0,
            max: 2 * START_SB,
        });
        out.push(Tracker {
            id: TrackerId::player(seat, "hand"),
            label: "Hand 手札".into(),
            value: p.hand,
            min: 0,
            max: DECK_SIZE as i32,
        });
        out.push(Tracker {
            id: TrackerId::player(seat, "deck"),
            label: "Deck デッキ".into(),
            value: p.deck,
            min: 0,
            max: DECK_SIZE as i32,
        });
        if state.revealed(seat).is_some() {
            let ((atk, def), _) = state.effective(seat);
            out.push(Tracker {
                id: TrackerId::player(seat, "atk"),
                label: "ATK 攻撃力".into(),
                value: atk,
                min: floor,
                max: 99,
            });
            out.push(Tracker {
                id: TrackerId::player(seat, "def"),
                label: "DEF 守備力".into(),
                value: def,
                min: floor,
                max: 99,
            });
        }
        if let Some(bg) = &p.bg {
            let limit = match state.cards.get(&bg.card).map(|c| &c.data) {
                Some(JakenCard::BattleGround(g)) => i32::from(g.use_limit),
                _ => 0,
            };
            out.push(Tracker {
                id: TrackerId::player(seat, "bg-uses"),
                label: "BG uses left".into(),
                value: i32::from(bg.uses_left),
                min: 0,
                max: limit,
            });
        }
    }
    out
}

pub(super) fn adjust(
    state: &State,
    tracker: &TrackerId,
    value: i32,
) -> Result<Vec<Event>, Impossible> {
    let seat = tracker.player;
    let need_seat = || {
        seat.filter(|s| *s < 2).ok_or_else(|| {
            Impossible::new(format!("`{tracker}` needs a player"))
                .ja(format!("`{tracker}` にはプレイヤーが必要です"))
        })
    };
    Ok(match tracker.name.as_ref() {
        "turn" => {
            vec![Event::SetTurn(u32::try_from(value).map_err(|_| {
                Impossible::new("the battle number is positive").ja("バトル数は正の数です")
            })?)]
        }
        "sb" => vec![Event::SetSb(need_seat()?, value)],
        "hand" => vec![Event::SetHand(need_seat()?, value)],
        "deck" => vec![Event::SetDeck(need_seat()?, value)],
        "atk" | "def" => {
            let s = need_seat()?;
            let ((atk, def), _) = state.effective(s);
            let p = &state.players[s];
            let (da, dd) = if tracker.name == "atk" {
                (value - atk, 0)
            } else {
                (0, value - def)
            };
            vec![Event::SetMods(s, p.atk_mod + da, p.def_mod + dd)]
        }
        "bg-uses" => vec![Event::SetBgUses(
            need_seat()?,
            u8::try_from(value).map_err(|_| {
                Impossible::new("BG uses are 0..=255").ja("BGの使用回数は0〜255です")
            })?,
        )],
        other => {
            return Err(
                Impossible::new(format!("Jaken keeps no number called `{other}`"))
                    .ja(format!("ジャケンに `{other}` という数はありません")),
            );
        }
    })
}

pub(super) fn die_prompts(_state: &State) -> Vec<Prompt> {
    Vec::new() // Jaken uses no dice: every die is a free roll.
}

pub(super) fn fulfil(
    _state: &State,
    prompt: &Prompt,
    _roll: &Roll,
) -> Result<Vec<Event>, Impossible> {
    Err(
        Impossible::new(format!("Jaken asks for no dice (prompt {})", prompt.id)).ja(format!(
            "ジャケンはサイコロを使いません（要求 {}）",
            prompt.id
        )),
    )
}

pub(super) fn candidate_moves(state: &State) -> Vec<Move> {
    let mut out = Vec::new();
    let parent = state.parent.unwrap_or(0);
    let distinct = |seat: Seat, bg: bool| -> Vec<String> {
        let mut ids: Vec<String> = state.players[seat]
            .unplayed
            .iter()
            .filter(|id| {
                matches!(
                    state.cards.get(*id).map(|c| &c.data),
                    Some(JakenCard::BattleGround(_))
                ) == bg
            })
            .cloned()
            .collect();
        ids.dedup();
        ids
    };
    match state.step {
        Step::Janken => out.extend((0..2).map(|player| Move::FirstParent { player })),
        Step::ParentBg | Step::ChildCounter => {
            let seat = if state.step == Step::ParentBg {
                parent
            } else {
                other(parent)
            };
            out.push(Move::PassBg { player: seat });
            out.extend(
                distinct(seat, true)
                    .into_iter()
                    .map(|card| Move::DeclareBg { player: seat, card }),
            );
        }
        Step::FaceDown => {
            for seat in 0..2 {
                if state.players[seat].placement == Placement::Empty {
                    out.push(Move::FaceDown { player: seat });
                    out.push(Move::NoMonster { player: seat });
                }
            }
        }
        Step::Reveal => {
            for seat in 0..2 {
                if state.players[seat].placement == Placement::FaceDown {
                    out.extend(
                        distinct(seat, false)
                            .into_iter()
                            .map(|card| Move::Reveal { player: seat, card }),
                    );
                }
            }
        }
        Step::Effects => {
            if let Some(&seat) = state.pending_effects.first() {
                out.push(Move::NoEffect { player: seat });
            }
        }
        Step::Compare => out.push(Move::Compare {}),
        Step::BattleEnd => out.push(Move::EndBattle {}),
        Step::Over => {}
    }
    out
}

pub(super) fn describe(state: &State, mv: &Move) -> String {
    let name = |s: &Seat| state.name(*s).to_owned();
    let card = |id: &str| {
        state
            .cards
            .get(id)
            .map_or_else(|| id.to_owned(), CardInfo::label)
    };
    match mv {
        Move::FirstParent { player } => {
            format!("{} wins the janken and becomes the parent", name(player))
        }
        Move::DeclareBg { player, card: c } => {
            format!("{} declares BG {}", name(player), card(c))
        }
        Move::PassBg { player } => format!("{} declares no BG", name(player)),
        Move::FaceDown { player } => format!("{} places a monster face down", name(player)),
        Move::NoMonster { player } => {
            format!("{} has no card to summon and plays nothing", name(player))
        }
        Move::Reveal { player, card: c } => format!("{} reveals {}", name(player), card(c)),
        Move::Effect {
            player,
            atk,
            def,
            opp_atk,
            opp_def,
            sb,
            note,
        } => {
            let parts = crate::core::signed_changes(&[
                ("ATK", atk),
                ("DEF", def),
                ("opponent ATK", opp_atk),
                ("opponent DEF", opp_def),
                ("SB taken", sb),
            ]);
            format!(
                "{}'s effect: {}",
                name(player),
                crate::core::effect_summary(&parts, note)
            )
        }
        Move::NoEffect { player } => {
            format!("{}'s effect: condition not met, no effect", name(player))
        }
        Move::UseBg {
            player,
            uses,
            atk,
            def,
        } => {
            format!(
                "{} uses the BG ({uses} use): ATK {atk:+}, DEF {def:+}",
                name(player)
            )
        }
        Move::Compare {} => "Compare ATK/DEF and move SB".to_owned(),
        Move::EndBattle {} => {
            if state.turn >= BATTLES {
                "End battle 10 and count the SB".to_owned()
            } else {
                format!(
                    "{} hands the OB to {}",
                    state.parent.map(|p| name(&p)).unwrap_or_default(),
                    state.parent.map(|p| name(&other(p))).unwrap_or_default()
                )
            }
        }
    }
}
