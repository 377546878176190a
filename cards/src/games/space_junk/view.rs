//! What the table shows of a Space Junk match: the phase bar, the open prompts (dice included),
//! the tracked numbers, the moves worth offering and their sentences.

use super::card::Stat;
use super::query::*;
use super::scratch::*;
use super::state::*;
use crate::core::{
    Impossible, MatchCtx, Outcome, PhaseView, Prompt, PromptKind, Roll, Seat, Tracker, TrackerId,
};

pub(super) fn prompts(state: &State) -> Vec<Prompt> {
    let r = state.round;
    let choice = |id: String, player: Option<Seat>, text: String| Prompt {
        id,
        player,
        kind: PromptKind::Choice,
        text,
    };
    let die = |id: String, player: Seat, text: String| Prompt {
        id,
        player: Some(player),
        kind: PromptKind::Die { sides: 6 },
        text,
    };
    let name = |s: Seat| state.name(s).to_owned();
    let mut out = Vec::new();
    match state.step {
        Step::Setup => match state.players.iter().position(|p| p.character.is_none()) {
            Some(seat) => out.push(choice(
                format!("deal-{seat}"),
                Some(seat),
                format!("Deal {} a random character card", name(seat)),
            )),
            None => out.push(choice(
                "first-player".into(),
                None,
                "Choose the first player at random".into(),
            )),
        },
        Step::Move { seat } => out.push(choice(
            format!("r{r}-move-{seat}"),
            Some(seat),
            format!(
                "{}: choose a ring and move {} spaces (damage *-Move cards first for +3 each)",
                name(seat),
                state.boosted(seat, Stat::Move).max(0)
            ),
        )),
        Step::Ram { seat } => out.push(choice(
            format!("r{r}-ram-{seat}"),
            Some(seat),
            format!("{}: ram a ship on your space, or not", name(seat)),
        )),
        Step::RamDice => {
            if let Some(ram) = &state.ram {
                if ram.rammer_roll.is_none() {
                    out.push(die(
                        format!("r{r}-ram-rammer"),
                        ram.rammer,
                        format!(
                            "{}: ram die (+1 for ramming, +{} for R cards)",
                            name(ram.rammer),
                            state.r_cards(ram.rammer)
                        ),
                    ));
                }
                if ram.target_roll.is_none() {
                    out.push(die(
                        format!("r{r}-ram-target"),
                        ram.target,
                        format!(
                            "{}: ram die against {} (+{} for R cards)",
                            name(ram.target),
                            name(ram.rammer),
                            state.r_cards(ram.target)
                        ),
                    ));
                }
            }
        }
        Step::RamTake { winner, loser } => out.push(choice(
            format!("r{r}-take-{winner}"),
            Some(winner),
            format!(
                "{}: take one piece of junk from {}'s ship, or nothing",
                name(winner),
                name(loser)
            ),
        )),
        Step::Attack { seat } => out.push(choice(
            format!("r{r}-attack-{seat}"),
            Some(seat),
            format!(
                "{}: attack a ship (enter the range counted on the board), or pass",
                name(seat)
            ),
        )),
        Step::AttackDie => {
            if let Some(a) = &state.attack {
                out.push(die(
                    format!("r{r}-attack-die-{}", a.attacker),
                    a.attacker,
                    format!(
                        "{}: attack die against {} (Attack {}, range {})",
                        name(a.attacker),
                        name(a.target),
                        state.boosted(a.attacker, Stat::Attack),
                        a.range
                    ),
                ));
            }
        }
        Step::AttackBoost => {
            if let Some(a) = &state.attack {
                let total = i32::from(a.roll.unwrap_or(0))
                    + state.boosted(a.attacker, Stat::Attack)
                    - a.range as i32;
                out.push(choice(
                    format!("r{r}-attack-boost-{}", a.attacker),
                    Some(a.attacker),
                    format!(
                        "{}: result {total} ({} hit(s)); damage *-Attack cards for +4, or settle",
                        name(a.attacker),
                        total.max(0) / HIT_STEP
                    ),
                ));
            }
        }
        Step::HitDice => {
            if let Some(a) = &state.attack {
                let hits = a.hits.unwrap_or(0) as usize;
                for i in a.locations.len()..hits {
                    out.push(die(
                        format!("r{r}-hit-{}-{}", a.attacker, i + 1),
                        a.attacker,
                        format!(
                            "{}: hit location die {} of {hits} on {}'s ship (1–2 Move, 3–4 Attack, 5–6 Search)",
                            name(a.attacker),
                            i + 1,
                            name(a.target)
                        ),
                    ));
                }
            }
        }
        Step::Search { seat } => out.push(choice(
            format!("r{r}-search-{seat}"),
            Some(seat),
            format!(
                "{}: draw {} junk card(s) (damage *-Search cards first for +2 each)",
                name(seat),
                state.draw_count(seat)
            ),
        )),
        Step::Rebuild { seat } => out.push(choice(
            format!("r{r}-rebuild-{seat}"),
            Some(seat),
            format!(
                "{}: rebuild the ship from new and cargo cards, then finish",
                name(seat)
            ),
        )),
        Step::Cameo => out.push(choice(
            format!("r{r}-cameo"),
            None,
            format!(
                "Cameo time: a short story each, starting with {}",
                name(state.first)
            ),
        )),
        Step::Over => {}
    }
    out
}

pub(super) fn context(state: &State) -> MatchCtx {
    let phases = ["Setup", "Move", "Attack", "Search", "Cameo", "Final count"]
        .map(str::to_owned)
        .to_vec();
    let current = match state.step {
        Step::Setup => 0,
        Step::Move { .. } | Step::Ram { .. } | Step::RamDice | Step::RamTake { .. } => 1,
        Step::Attack { .. } | Step::AttackDie | Step::AttackBoost | Step::HitDice => 2,
        Step::Search { .. } | Step::Rebuild { .. } => 3,
        Step::Cameo => 4,
        Step::Over => 5,
    };
    let next = match state.step {
        Step::Setup => "round 1: the move phase, from the first player".to_owned(),
        Step::Move { .. } | Step::Ram { .. } | Step::RamDice | Step::RamTake { .. } => {
            "the next ship moves; after the last, the attack phase".to_owned()
        }
        Step::Attack { .. } | Step::AttackDie | Step::AttackBoost | Step::HitDice => {
            "the next ship may attack; after the last, the search phase".to_owned()
        }
        Step::Search { .. } => "discard damaged cards, then rebuild the ship".to_owned(),
        Step::Rebuild { .. } => "the next ship searches; after the last, cameo time".to_owned(),
        Step::Cameo if state.round >= ROUNDS => {
            "the final count: fame plus the fame of all junk".to_owned()
        }
        Step::Cameo => format!(
            "round {}: the first-player marker moves to {}",
            state.round + 1,
            state.name((state.first + 1) % state.players.len().max(1))
        ),
        Step::Over => "—".to_owned(),
    };
    MatchCtx {
        players: state.players.iter().map(|p| p.name.clone()).collect(),
        turn: state.round.max(1),
        phase: PhaseView {
            phases,
            current,
            step: step_text(state),
            next,
        },
        active: state.active(),
        leader: (state.step != Step::Setup).then_some(state.first),
        prompts: prompts(state),
    }
}

pub(super) fn outcome(state: &State) -> Option<Outcome> {
    if state.step != Step::Over {
        return None;
    }
    let n = state.players.len();
    let totals: Vec<i32> = (0..n).map(|s| state.final_fame(s)).collect();
    let top = totals.iter().copied().max()?;
    let tied: Vec<Seat> = (0..n).filter(|&s| totals[s] == top).collect();
    let describe = |s: Seat| {
        format!(
            "{} {} ({} on the track + {} on junk)",
            state.name(s),
            totals[s],
            state.players[s].fame,
            state.junk_fame(s)
        )
    };
    if let [winner] = tied[..] {
        return Some(Outcome::Win {
            winner,
            reason: format!("the most fame after round {ROUNDS}: {}", describe(winner)),
        });
    }
    let ships: Vec<(Seat, i32)> = tied.iter().map(|&s| (s, state.best_ship(s))).collect();
    let best = ships.iter().map(|(_, v)| *v).max().unwrap_or(0);
    let winners: Vec<Seat> = ships
        .iter()
        .filter(|(_, v)| *v == best)
        .map(|(s, _)| *s)
        .collect();
    let listing = ships
        .iter()
        .map(|(s, v)| format!("{} {v}", state.name(*s)))
        .collect::<Vec<_>>()
        .join(", ");
    if let [winner] = winners[..] {
        Some(Outcome::Win {
            winner,
            reason: format!(
                "tied on {top} fame; the best ship (Move + Attack + Search) breaks the tie: {listing}"
            ),
        })
    } else {
        Some(Outcome::Draw {
            reason: format!(
                "shared victory: {} tie on {top} fame and on the best ship ({listing})",
                winners
                    .iter()
                    .map(|s| state.name(*s))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
    }
}

pub(super) fn trackers(state: &State) -> Vec<Tracker> {
    let big = 9999;
    let mut out = vec![
        Tracker {
            id: TrackerId::game("round"),
            label: "Round".into(),
            value: state.round as i32,
            min: 1,
            max: ROUNDS as i32,
        },
        Tracker {
            id: TrackerId::game("first"),
            label: "First player (seat)".into(),
            value: state.first as i32,
            min: 0,
            max: state.players.len() as i32 - 1,
        },
        Tracker {
            id: TrackerId::game("deck"),
            label: "Junk deck".into(),
            value: state.deck.len() as i32,
            min: 0,
            max: big,
        },
        Tracker {
            id: TrackerId::game("discard"),
            label: "Cooler (discard)".into(),
            value: state.discard.len() as i32,
            min: 0,
            max: big,
        },
    ];
    // The numbers of the attack and the ram the rules compare (the one being resolved, else the
    // last one; 0 before the first): shown so the table can check the arithmetic.
    let (attack_total, hits) = match (&state.attack, &state.last_attack) {
        (Some(a), _) => (
            a.roll.map_or(0, |r| {
                i32::from(r) + state.boosted(a.attacker, Stat::Attack)
                    - i32::try_from(a.range).unwrap_or(i32::MAX)
            }),
            a.hits.unwrap_or(0),
        ),
        (None, Some(r)) => (r.total, r.hits),
        (None, None) => (0, 0),
    };
    let (rammer_total, target_total) = match (&state.ram, &state.last_ram) {
        (Some(r), _) => (
            r.rammer_roll
                .map_or(0, |d| i32::from(d) + 1 + state.r_cards(r.rammer)),
            r.target_roll
                .map_or(0, |d| i32::from(d) + state.r_cards(r.target)),
        ),
        (None, Some(r)) => (r.rammer_total, r.target_total),
        (None, None) => (0, 0),
    };
    for (name, label, value) in [
        (
            "attack-total",
            "Attack total (d6 + Attack − range)",
            attack_total,
        ),
        ("hits", "Hits", i32::try_from(hits).unwrap_or(i32::MAX)),
        (
            "ram-rammer-total",
            "Ram: rammer's total (d6 + 1 + R cards)",
            rammer_total,
        ),
        (
            "ram-target-total",
            "Ram: target's total (d6 + R cards)",
            target_total,
        ),
    ] {
        out.push(Tracker {
            id: TrackerId::game(name),
            label: label.into(),
            value,
            min: -big,
            max: big,
        });
    }
    let floor = if state.rules.floor_stats_at_zero {
        0
    } else {
        -MAX_CHANGE
    };
    for (seat, p) in state.players.iter().enumerate() {
        let stats = state.stats(seat);
        let mut add = |name: &'static str, label: &'static str, value: i32, min: i32, max: i32| {
            out.push(Tracker {
                id: TrackerId::player(seat, name),
                label: label.into(),
                value,
                min,
                max,
            });
        };
        add("fame", "Fame", p.fame, 0, big);
        add("move", "Move", stats.movement, floor, MAX_CHANGE);
        add("attack", "Attack", stats.attack, floor, MAX_CHANGE);
        add("search", "Search", stats.search, floor, MAX_CHANGE);
        add("ring", "Ring", i32::from(p.ring), 1, i32::from(RINGS));
        add(
            "position",
            "Position",
            p.position as i32,
            0,
            state.rules.ring_length(p.ring) as i32 - 1,
        );
        add("orbits", "Orbits", p.orbits as i32, 0, big);
        // With this turn's `*` boosts (what the move, attack and search use), shown only.
        add(
            "boosted-move",
            "Move with boosts",
            state.boosted(seat, Stat::Move),
            -big,
            big,
        );
        add(
            "boosted-attack",
            "Attack with boosts",
            state.boosted(seat, Stat::Attack),
            -big,
            big,
        );
        add(
            "boosted-search",
            "Search with boosts",
            state.boosted(seat, Stat::Search),
            -big,
            big,
        );
        add(
            "damaged",
            "Damaged cards",
            state
                .damaged
                .iter()
                .filter(|c| matches!(state.place(c), Some(Place::Ship(s, _)) if s == seat))
                .count() as i32,
            0,
            big,
        );
        add(
            "r-cards",
            "R cards (ram bonus)",
            state.r_cards(seat),
            0,
            big,
        );
        add("cargo", "Cargo hold", p.cargo.len() as i32, 0, big);
        add(
            "junk-fame",
            "Fame on junk",
            state.junk_fame(seat),
            -big,
            big,
        );
        // The score of the final count, as it stands now (fame + fame on junk).
        add("score", "Final count", state.final_fame(seat), -big, big);
        if let Some(u) = p.ability_uses_left {
            let limit = p
                .character
                .as_deref()
                .and_then(|c| state.cards.get(c))
                .and_then(|c| c.data.character())
                .and_then(|c| c.ability_uses)
                .unwrap_or(u);
            add(
                "ability-uses",
                "Ability uses left",
                i32::from(u),
                0,
                i32::from(limit),
            );
        }
    }
    out
}

pub(super) fn adjust(
    state: &State,
    tracker: &TrackerId,
    value: i32,
) -> Result<Vec<Event>, Impossible> {
    let seat = || {
        tracker
            .player
            .filter(|s| *s < state.players.len())
            .ok_or_else(|| Impossible::new(format!("`{tracker}` needs a player")))
    };
    let unsigned =
        |v: i32| u32::try_from(v).map_err(|_| Impossible::new(format!("{v} is below 0")));
    Ok(match tracker.name.as_ref() {
        "round" => vec![Event::SetRound(unsigned(value)?)],
        "first" => vec![Event::FirstIs(unsigned(value)? as usize)],
        "fame" => vec![Event::SetFame(seat()?, value)],
        name @ ("move" | "attack" | "search") => {
            let s = seat()?;
            let stat = match name {
                "move" => Stat::Move,
                "attack" => Stat::Attack,
                _ => Stat::Search,
            };
            let raw = state.raw_stats(s).get(stat);
            let mut m = state.players[s].modifiers;
            *m.get_mut(stat) += value - raw;
            vec![Event::Modifiers(s, m)]
        }
        "ring" => {
            let s = seat()?;
            let ring = u8::try_from(value).map_err(|_| Impossible::new("rings are 1..=3"))?;
            let p = &state.players[s];
            let len = state.rules.ring_length(ring);
            vec![Event::SetPlace(s, ring, p.position.min(len - 1))]
        }
        "position" => {
            let s = seat()?;
            vec![Event::SetPlace(s, state.players[s].ring, unsigned(value)?)]
        }
        "orbits" => vec![Event::SetOrbits(seat()?, unsigned(value)?)],
        "ability-uses" => vec![Event::SetAbilityUses(
            seat()?,
            u8::try_from(value).map_err(|_| Impossible::new("uses are 0..=255"))?,
        )],
        "score" => {
            return Err(Impossible::new(
                "the final count is fame plus the fame on junk: correct the fame, or move the junk cards",
            ));
        }
        "attack-total" | "hits" | "ram-rammer-total" | "ram-target-total" | "boosted-move"
        | "boosted-attack" | "boosted-search" | "r-cards" => {
            return Err(Impossible::new(format!(
                "`{}` is computed from the dice and the ship: correct the die (undo) or the ship's values instead",
                tracker.name
            ))
            .ja(format!(
                "`{}` はサイコロと船から計算される値です。サイコロ（取り消し）か船の値を直してください",
                tracker.name
            )));
        }
        "damaged" => {
            return Err(Impossible::new(
                "`damaged` counts damaged cards; damage or repair the cards themselves (effect) instead",
            )
            .ja("`damaged` は損傷したカードの枚数です。カードそのものを損傷・修理してください（effect）"));
        }
        "deck" | "discard" | "cargo" | "junk-fame" => {
            return Err(Impossible::new(format!(
                "`{}` counts cards; move the cards themselves (draw, equip, effect) instead",
                tracker.name
            )));
        }
        other => {
            return Err(Impossible::new(format!(
                "Space Junk keeps no number called `{other}`"
            )));
        }
    })
}

pub(super) fn die_prompts(state: &State) -> Vec<Prompt> {
    let mut p = prompts(state);
    p.retain(|p| matches!(p.kind, PromptKind::Die { .. }));
    p
}

pub(super) fn fulfil(
    state: &State,
    prompt: &Prompt,
    roll: &Roll,
) -> Result<Vec<Event>, Impossible> {
    if roll.sides != 6 {
        return Err(Impossible::new("Space Junk uses six-sided dice"));
    }
    let mut b = Builder::new(state);
    match state.step {
        Step::RamDice => {
            let Some(ram) = &state.ram else {
                return Err(Impossible::new("no ram is open"));
            };
            let seat = if prompt.id.ends_with("-rammer") {
                ram.rammer
            } else {
                ram.target
            };
            b.push(Event::RamRolled(seat, roll.value));
            let Some(r) = b.state.ram.clone() else {
                return Ok(b.events);
            };
            if let (Some(x), Some(y)) = (r.rammer_roll, r.target_roll) {
                let a = i32::from(x) + 1 + state.r_cards(r.rammer);
                let t = i32::from(y) + state.r_cards(r.target);
                let winner = match a.cmp(&t) {
                    std::cmp::Ordering::Greater => Some((r.rammer, r.target)),
                    std::cmp::Ordering::Less => Some((r.target, r.rammer)),
                    std::cmp::Ordering::Equal => None,
                };
                b.push(Event::RamSettled(RamReport {
                    round: state.round,
                    rammer: r.rammer,
                    target: r.target,
                    rammer_total: a,
                    target_total: t,
                    winner: winner.map(|(w, _)| w),
                }));
                match winner {
                    Some((winner, loser)) if !state.takeable(loser).is_empty() => {
                        b.push(Event::StepTo(Step::RamTake { winner, loser }));
                    }
                    _ => b.end_turn(Phase::Move, r.rammer),
                }
            }
        }
        Step::AttackDie => {
            b.push(Event::AttackRolled(roll.value));
            let attacker = state.attack.as_ref().map_or(0, |a| a.attacker);
            if state.star_cards(attacker, Stat::Attack).is_empty() {
                b.settle_hits();
            } else {
                b.push(Event::StepTo(Step::AttackBoost));
            }
        }
        Step::HitDice => {
            b.push(Event::LocationRolled(roll.value));
            let done = b
                .state
                .attack
                .as_ref()
                .is_none_or(|a| a.locations.len() as u32 >= a.hits.unwrap_or(0));
            if done {
                b.finish_attack();
            }
        }
        _ => {
            return Err(Impossible::new(format!(
                "no die is asked for at {}",
                step_text(state)
            )));
        }
    }
    Ok(b.events)
}

pub(super) fn candidate_moves(state: &State) -> Vec<Move> {
    let mut out = Vec::new();
    let boosts = |out: &mut Vec<Move>, seat: Seat, stat: Stat| {
        for card in state.star_cards(seat, stat) {
            out.push(Move::Boost { player: seat, card });
        }
    };
    match state.step {
        Step::Setup => {
            if let Some(seat) = state.players.iter().position(|p| p.character.is_none()) {
                for (id, c) in state.cards.iter() {
                    if c.data.character().is_some()
                        && !state
                            .players
                            .iter()
                            .any(|p| p.character.as_deref() == Some(id.as_str()))
                    {
                        out.push(Move::DealCharacter {
                            player: seat,
                            card: id.clone(),
                        });
                    }
                }
            } else {
                out.extend((0..state.players.len()).map(|player| Move::FirstPlayer { player }));
            }
        }
        Step::Move { seat } => {
            boosts(&mut out, seat, Stat::Move);
            for ring in 1..=RINGS {
                out.push(Move::MoveShip {
                    player: seat,
                    ring,
                    spaces: None,
                });
            }
        }
        Step::Ram { seat } => {
            for target in state.ships_here(seat) {
                out.push(Move::Ram {
                    player: seat,
                    target,
                });
            }
            out.push(Move::NoRam { player: seat });
        }
        Step::RamTake { winner, loser } => {
            for card in state.takeable(loser) {
                out.push(Move::TakeJunk {
                    player: winner,
                    card,
                });
            }
            out.push(Move::NoTake { player: winner });
        }
        Step::Attack { seat } => {
            boosts(&mut out, seat, Stat::Attack);
            // Every range the players may measure up to [`OFFERED_RANGE`]: the panel picks one
            // with a stepper.
            for target in (0..state.players.len()).filter(|t| *t != seat) {
                for range in 0..=OFFERED_RANGE {
                    out.push(Move::Attack {
                        player: seat,
                        target,
                        range,
                    });
                }
            }
            out.push(Move::NoAttack { player: seat });
        }
        Step::AttackDie | Step::AttackBoost => {
            if let Some(a) = &state.attack {
                boosts(&mut out, a.attacker, Stat::Attack);
                if state.step == Step::AttackBoost {
                    out.push(Move::ConfirmHits { player: a.attacker });
                }
            }
        }
        Step::Search { seat } => {
            boosts(&mut out, seat, Stat::Search);
            let n = state.draw_count(seat);
            let mut cards: Vec<String> = state.deck.iter().take(n).cloned().collect();
            if cards.len() < n {
                cards.extend(state.discard.iter().take(n - cards.len()).cloned());
            }
            out.push(Move::Draw {
                player: seat,
                cards,
            });
            if n <= state.deck.len() && n > 0 {
                let skip = state.deck.len() - n;
                out.push(Move::Draw {
                    player: seat,
                    cards: state.deck.iter().skip(skip).cloned().collect(),
                });
            }
        }
        Step::Rebuild { seat } => {
            for card in &state.players[seat].drawn {
                for space in Space::ALL {
                    out.push(Move::Equip {
                        player: seat,
                        card: card.clone(),
                        space,
                    });
                }
            }
            out.push(Move::FinishSearch { player: seat });
        }
        Step::Cameo => out.push(Move::EndRound {}),
        Step::RamDice | Step::HitDice | Step::Over => {}
    }
    out
}

pub(super) fn describe(state: &State, mv: &Move) -> String {
    let name = |s: &Seat| state.name(*s).to_owned();
    let card = |id: &str| state.card_label(id);
    match mv {
        Move::DealCharacter { player, card: c } => {
            format!("{} is dealt {}", name(player), card(c))
        }
        Move::FirstPlayer { player } => {
            format!("{} is the first player; round 1 begins", name(player))
        }
        Move::Boost { player, card: c } => {
            let stat = state.phase().map_or(Stat::Move, Phase::stat);
            format!(
                "{} damages {} for {} +{}",
                name(player),
                card(c),
                stat_name(stat),
                stat.star_boost()
            )
        }
        Move::MoveShip {
            player,
            ring,
            spaces,
        } => {
            let budget = state.boosted(*player, Stat::Move).max(0);
            format!(
                "{} flies in ring {ring}, {} spaces clockwise",
                name(player),
                spaces.map_or(budget, |s| s as i32)
            )
        }
        Move::Ram { player, target } => format!("{} rams {}", name(player), name(target)),
        Move::NoRam { player } => format!("{} does not ram", name(player)),
        Move::TakeJunk { player, card: c } => {
            format!("{} takes {} as ram spoils", name(player), card(c))
        }
        Move::NoTake { player } => format!("{} takes nothing", name(player)),
        Move::Attack {
            player,
            target,
            range,
        } => format!(
            "{} attacks {} at range {range} (Attack {})",
            name(player),
            name(target),
            state.boosted(*player, Stat::Attack)
        ),
        Move::NoAttack { player } => format!("{} does not attack", name(player)),
        Move::ConfirmHits { player } => format!("{} settles the hits", name(player)),
        Move::Draw { player, cards } => format!(
            "{} draws {} card(s): {}",
            name(player),
            cards.len(),
            if cards.is_empty() {
                "none".to_owned()
            } else {
                cards.iter().map(|c| card(c)).collect::<Vec<_>>().join(", ")
            }
        ),
        Move::Equip {
            player,
            card: c,
            space,
        } => format!("{} puts {} in {}", name(player), card(c), space.label()),
        Move::Unequip { player, card: c } => {
            format!("{} puts {} in the cargo hold", name(player), card(c))
        }
        Move::FinishSearch { player } => {
            format!("{} finishes the ship; the rest goes to cargo", name(player))
        }
        Move::EndRound {} => {
            if state.round >= ROUNDS {
                "Cameo time is over: the final count".to_owned()
            } else {
                format!("Cameo time is over: round {} begins", state.round + 1)
            }
        }
        Move::Effect {
            player,
            fame,
            movement,
            attack,
            search,
            spaces,
            repair,
            ability,
            note,
        } => {
            let mut parts = crate::core::signed_changes(&[
                ("fame", fame),
                ("Move", movement),
                ("Attack", attack),
                ("Search", search),
            ]);
            if *spaces > 0 {
                parts.push(format!("{spaces} more spaces"));
            }
            if let Some(c) = repair {
                parts.push(format!("{} repaired", card(c)));
            }
            if *ability {
                parts.push("one ability use".to_owned());
            }
            format!(
                "{}'s effect: {}",
                name(player),
                crate::core::effect_summary(&parts, note)
            )
        }
    }
}
