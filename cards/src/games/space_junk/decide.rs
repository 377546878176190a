//! Space Junk's rules: what a move at the table causes, and which rules it breaks.

use super::card::{Slot, Stat};
use super::query::*;
use super::scratch::*;
use super::state::*;
use crate::core::{Decision, Impossible, Violation};

pub(super) fn decide(state: &State, mv: &Move) -> Result<Decision<Event>, Impossible> {
    let mut b = Builder::new(state);
    let mut v = Vec::new();
    // After the end the match layer refuses every move by rule `match.over` (overridable).
    match mv {
        Move::DealCharacter { player, card } => {
            check_seat(state, *player)?;
            if state.step != Step::Setup {
                return Err(wrong_time(state, "characters are dealt at setup"));
            }
            if state
                .cards
                .get(card)
                .and_then(|c| c.data.character())
                .is_none()
            {
                return Err(Impossible::new(format!(
                    "{card} is not a character card of this set"
                )));
            }
            if let Some(other) = state
                .players
                .iter()
                .position(|p| p.character.as_deref() == Some(card.as_str()))
                .filter(|s| s != player)
            {
                return Err(Impossible::new(format!(
                    "{} already has {}; each character is a single card",
                    state.name(other),
                    state.card_label(card)
                )));
            }
            b.push(Event::CharacterDealt(*player, card.clone()));
        }
        Move::FirstPlayer { player } => {
            check_seat(state, *player)?;
            if state.step != Step::Setup {
                return Err(wrong_time(state, "the first player is chosen at setup"));
            }
            if let Some(p) = state.players.iter().find(|p| p.character.is_none()) {
                return Err(Impossible::new(format!(
                    "deal a character to {} first",
                    p.name
                )));
            }
            b.push(Event::RoundBegan(1));
            b.push(Event::FirstIs(*player));
            b.begin_turn(Phase::Move, *player);
        }
        Move::Boost { player, card } => {
            check_seat(state, *player)?;
            let Some(phase) = state.phase() else {
                return Err(wrong_time(
                    state,
                    "a * boost is used in the move, attack or search phase",
                ));
            };
            let stat = phase.stat();
            let label = state.card_label(card);
            let place = state.place(card);
            match place {
                Some(Place::Ship(s, _)) if s == *player => {}
                Some(Place::Cargo(s)) | Some(Place::Drawn(s)) if s == *player => {
                    v.push(Violation::new(
                        "space-junk.boost-cargo",
                        format!(
                            "Only a card on your ship (a slot or the fuselage) can be damaged for its * boost; {label} is not on the ship."
                        ),
                        "Special Symbols",
                    ).ja(format!("＊ブーストで損傷させられるのは船（スロットか胴体）のカードだけです。{label} は船にありません。")));
                }
                _ => {
                    return Err(Impossible::new(format!(
                        "{label} is not {}'s card",
                        state.name(*player)
                    )));
                }
            }
            let star = state.junk(card).is_some_and(|j| j.stars.get(stat));
            if !star {
                v.push(Violation::new(
                    "space-junk.boost-star",
                    format!(
                        "Only a card with a * in {} gives a {} boost now; {label} has none there.",
                        stat_name(stat),
                        stat_name(stat)
                    ),
                    "Special Symbols",
                ).ja(format!("いま{}のブーストになるのは、{}に＊があるカードだけです。{label} にはありません。", stat_name(stat), stat_name(stat))));
            }
            if state.turn_seat != Some(*player) {
                v.push(
                    Violation::new(
                        "space-junk.boost-turn",
                        format!(
                            "A * boost is used only on your own turn; it is {}'s turn.",
                            state.turn_seat.map_or("nobody", |s| state.name(s))
                        ),
                        "Special Symbols",
                    )
                    .ja(format!(
                        "＊ブーストは自分の番にだけ使えます。いまは {} の番です。",
                        state.turn_seat.map_or("だれでもない", |s| state.name(s))
                    )),
                );
            } else {
                let ok = matches!(
                    state.step,
                    Step::Move { .. }
                        | Step::Attack { .. }
                        | Step::AttackDie
                        | Step::AttackBoost
                        | Step::Search { .. }
                );
                if !ok {
                    let when = match phase {
                        Phase::Move => "before the ship moves",
                        Phase::Attack => "before the hits are settled",
                        Phase::Search => "before the draw",
                    };
                    v.push(
                        Violation::new(
                            "space-junk.boost-phase",
                            format!(
                                "A {} boost is used {when}; the match is at {}.",
                                stat_name(stat),
                                step_text(state)
                            ),
                            "Special Symbols",
                        )
                        .ja(format!(
                            "{}のブーストは{}に使います。いまは {} です。",
                            stat_name(stat),
                            match phase {
                                Phase::Move => "船が動く前",
                                Phase::Attack => "ヒットを確定する前",
                                Phase::Search => "ドローの前",
                            },
                            step_text(state)
                        )),
                    );
                }
            }
            if state.is_damaged(card) {
                v.push(
                    Violation::new(
                        "space-junk.boost-damaged",
                        format!("{label} is already damaged, so its * cannot be used."),
                        "Special Symbols (Note)",
                    )
                    .ja(format!(
                        "{label} はすでに損傷しているので、その＊は使えません。"
                    )),
                );
            }
            b.push(Event::Boosted {
                seat: *player,
                card: card.clone(),
                stat,
                amount: i32::from(stat.star_boost()),
            });
        }
        Move::MoveShip {
            player,
            ring,
            spaces,
        } => {
            check_seat(state, *player)?;
            if !(1..=RINGS).contains(ring) {
                return Err(Impossible::new(format!(
                    "the rings are 1 (inner), 2 and 3 (outer), not {ring}"
                )));
            }
            match state.step {
                Step::Move { seat } if seat == *player => {}
                Step::Move { seat } => {
                    return Err(Impossible::new(format!(
                        "it is {}'s turn to move",
                        state.name(seat)
                    )));
                }
                _ => return Err(wrong_time(state, "ships move in the move phase")),
            }
            let budget = u32::try_from(state.boosted(*player, Stat::Move).max(0)).unwrap_or(0);
            let go = spaces.unwrap_or(budget);
            if go > MAX_CHANGE as u32 * 10 {
                return Err(Impossible::new(format!("{go} spaces is not a move")));
            }
            if state.rules.exact_movement && go != budget {
                v.push(
                    Violation::new(
                        "space-junk.move-exact",
                        format!("A ship moves exactly its Move value: {budget} spaces, not {go}."),
                        "Movement Phase",
                    )
                    .ja(format!(
                        "船は移動値ちょうど進みます：{budget}マスです（{go}マスではありません）。"
                    )),
                );
            } else if go > budget {
                v.push(
                    Violation::new(
                        "space-junk.move-exact",
                        format!("A ship moves at most its Move value: {budget} spaces, not {go}."),
                        "Movement Phase",
                    )
                    .ja(format!(
                        "船は移動値まで進みます：最大{budget}マスです（{go}マスではありません）。"
                    )),
                );
            }
            b.fly(*player, *ring, go);
            if b.state.ships_here(*player).is_empty() {
                b.end_turn(Phase::Move, *player);
            } else {
                b.push(Event::StepTo(Step::Ram { seat: *player }));
            }
        }
        Move::Ram { player, target } => {
            check_seat(state, *player)?;
            check_seat(state, *target)?;
            if player == target {
                return Err(Impossible::new("a ship cannot ram itself")
                    .ja("自分の船に体当たりすることはできません"));
            }
            let here = state.ships_here(*player).contains(target);
            let right_time = matches!(state.step, Step::Ram { seat } if seat == *player);
            // The actual cause first: a ship on another space is never a ram target (ram-space
            // below); the timing is the cause only when the target does share the space.
            if !right_time && here {
                v.push(
                    Violation::new(
                        "space-junk.ram-timing",
                        format!(
                            "A ship rams right after its own move; the match is at {}.",
                            step_text(state)
                        ),
                        "Ramming: \"If a player ends their movement in the same space as another player, they may attempt to ram them.\"",
                    )
                    .ja(format!(
                        "体当たりは自分の移動の直後にだけできます（いまは {}）。",
                        step_text(state)
                    )),
                );
            }
            if state.round < state.rules.ram_from_round {
                v.push(
                    Violation::new(
                        "space-junk.ram-first-round",
                        format!(
                            "There is no ramming in round {}: ramming starts in round {}.",
                            state.round, state.rules.ram_from_round
                        ),
                        "Ramming (Note)",
                    )
                    .ja(format!(
                        "ラウンド{}に体当たりはありません。体当たりはラウンド{}からです。",
                        state.round, state.rules.ram_from_round
                    )),
                );
            }
            if !here {
                v.push(
                    Violation::new(
                        "space-junk.ram-space",
                        format!(
                            "A ship rams only a ship on the space where it ended its move; {} is not on {}'s space.",
                            state.name(*target),
                            state.name(*player)
                        ),
                        "Ramming: \"If a player ends their movement in the same space as another player, they may attempt to ram them.\"",
                    )
                    .ja(format!(
                        "体当たりできるのは、移動を終えたマスにいる船だけです。{} は {} と同じマスにいません。",
                        state.name(*target),
                        state.name(*player)
                    )),
                );
            }
            b.push(Event::RamDeclared(*player, *target));
            b.push(Event::StepTo(Step::RamDice));
        }
        Move::NoRam { player } => {
            check_seat(state, *player)?;
            match state.step {
                Step::Ram { seat } if seat == *player => b.end_turn(Phase::Move, *player),
                _ => return Err(wrong_time(state, "there is no ram to decline")),
            }
        }
        Move::TakeJunk { player, card } => {
            check_seat(state, *player)?;
            let Step::RamTake { winner, loser } = state.step else {
                return Err(wrong_time(state, "junk is taken after a won ram"));
            };
            if winner != *player {
                return Err(Impossible::new(format!(
                    "{} won the ram, not {}",
                    state.name(winner),
                    state.name(*player)
                )));
            }
            let label = state.card_label(card);
            let from = match state.place(card) {
                Some(p @ (Place::Ship(s, _) | Place::Cargo(s) | Place::Drawn(s))) if s == loser => {
                    p
                }
                _ => {
                    return Err(Impossible::new(format!(
                        "{label} is not {}'s card",
                        state.name(loser)
                    )));
                }
            };
            let kind = match from {
                Place::Ship(_, Space::Fuselage) => {
                    if !state.rules.ram_can_take_fuselage {
                        v.push(Violation::new(
                            "space-junk.ram-take",
                            format!("The ram winner takes a card from a Move, Attack or Search slot, not the fuselage ({label})."),
                            "House rule: the rulebook does not settle this; the app's default, which the table may change",
                        ).ja(format!("体当たりの勝者が取るのは移動・攻撃・サーチのスロットのカードで、胴体（{label}）ではありません。")));
                    }
                    Some(Slot::Fuselage)
                }
                Place::Ship(_, s) => Some(s.kind()),
                _ => {
                    v.push(Violation::new(
                        "space-junk.ram-take",
                        format!("The cargo hold is safe: the ram winner takes a card equipped on the ship, not {label}."),
                        "Search Phase (cargo)",
                    ).ja(format!("カーゴは安全です。体当たりの勝者が取るのは船に装備されたカードで、{label} ではありません。")));
                    None
                }
            };
            let to = kind
                .and_then(|k| {
                    Space::ALL
                        .into_iter()
                        .find(|s| s.kind() == k && state.players[winner].at(*s).is_none())
                })
                .map_or(Place::Cargo(winner), |s| Place::Ship(winner, s));
            b.push(Event::CardMoved {
                card: card.clone(),
                from,
                to,
            });
            let rammer = state.turn_seat.unwrap_or(winner);
            b.end_turn(Phase::Move, rammer);
        }
        Move::NoTake { player } => {
            check_seat(state, *player)?;
            let Step::RamTake { winner, .. } = state.step else {
                return Err(wrong_time(state, "junk is taken after a won ram"));
            };
            if winner != *player {
                return Err(Impossible::new(format!(
                    "{} won the ram, not {}",
                    state.name(winner),
                    state.name(*player)
                )));
            }
            let rammer = state.turn_seat.unwrap_or(winner);
            b.end_turn(Phase::Move, rammer);
        }
        Move::Attack {
            player,
            target,
            range,
        } => {
            check_seat(state, *player)?;
            check_seat(state, *target)?;
            if player == target {
                v.push(
                    Violation::new(
                        "space-junk.attack-own-ship",
                        format!(
                            "{} targets their own ship: an attack targets another player.",
                            state.name(*player)
                        ),
                        "Combat Phase: \"When a player attacks, they choose another player to target\"",
                    )
                    .ja(format!(
                        "{} が自分の船を狙っています。攻撃の対象はほかのプレイヤーです。",
                        state.name(*player)
                    )),
                );
            }
            if *range > 999 {
                return Err(Impossible::new(format!(
                    "a range of {range} is not on the board"
                )));
            }
            match state.step {
                Step::Attack { seat } if seat == *player => {}
                Step::Attack { seat } => {
                    v.push(
                        Violation::new(
                            "space-junk.turn-order",
                            format!(
                                "It is {}'s turn to attack, not {}'s.",
                                state.name(seat),
                                state.name(*player)
                            ),
                            "Combat Phase: \"During the combat phase each player in turn order has the chance to fire their ship's weapon systems\"",
                        )
                        .ja(format!(
                            "いまは {} の攻撃の番です（{} の番ではありません）。",
                            state.name(seat),
                            state.name(*player)
                        )),
                    );
                }
                _ => {
                    return Err(wrong_time(
                        state,
                        "attacks are made once per attack phase, in turn order",
                    ));
                }
            }
            b.push(Event::AttackDeclared(*player, *target, *range));
            b.push(Event::StepTo(Step::AttackDie));
        }
        Move::NoAttack { player } => {
            check_seat(state, *player)?;
            match state.step {
                Step::Attack { seat } if seat == *player => b.end_turn(Phase::Attack, *player),
                _ => return Err(wrong_time(state, "there is no attack to pass")),
            }
        }
        Move::ConfirmHits { player } => {
            check_seat(state, *player)?;
            if state.step != Step::AttackBoost || state.active() != Some(*player) {
                return Err(wrong_time(state, "hits are settled after the attack die"));
            }
            b.settle_hits();
        }
        Move::Draw { player, cards } => {
            check_seat(state, *player)?;
            match state.step {
                Step::Search { seat } if seat == *player => {}
                Step::Search { seat } => {
                    return Err(Impossible::new(format!(
                        "it is {}'s turn to search",
                        state.name(seat)
                    )));
                }
                _ => return Err(wrong_time(state, "junk is drawn in the search phase")),
            }
            let mut seen: Vec<&str> = Vec::new();
            let mut from_deck = Vec::new();
            let mut from_discard = Vec::new();
            for c in cards {
                if seen.contains(&c.as_str()) {
                    return Err(Impossible::new(format!("{c} is named twice")));
                }
                seen.push(c);
                match state.place(c) {
                    Some(Place::Deck) => from_deck.push(c.clone()),
                    Some(Place::Discard) => from_discard.push(c.clone()),
                    Some(_) => {
                        return Err(Impossible::new(format!(
                            "{} is not in the junk deck or the cooler",
                            state.card_label(c)
                        )));
                    }
                    None => {
                        return Err(Impossible::new(format!(
                            "{c} is not a junk card of this match"
                        )));
                    }
                }
            }
            let allowed = state.draw_count(*player);
            if cards.len() != allowed {
                let p = &state.players[*player];
                let search = state.boosted(*player, Stat::Search).max(0);
                let why = match state.rules.search_limit(p.ring) {
                    Some(l) => format!("Search {search}, ring {} limit {l}", p.ring),
                    None => format!("Search {search}, no limit entered for ring {}", p.ring),
                };
                v.push(Violation::new(
                    "space-junk.search-count",
                    format!(
                        "{} draws {allowed} card(s) ({why}; {} in the deck and the cooler), not {}.",
                        p.name,
                        state.deck.len() + state.discard.len(),
                        cards.len()
                    ),
                    "Search Phase",
                ).ja(format!("{} が引くのは{allowed}枚です（{why}。山札とクーラーに{}枚）。{}枚ではありません。", p.name, state.deck.len() + state.discard.len(), cards.len())));
            }
            if !from_discard.is_empty() && from_deck.len() < state.deck.len() {
                v.push(Violation::new(
                    "space-junk.search-reshuffle",
                    format!(
                        "The cooler is shuffled into a new deck only when the deck runs out; the deck still holds {} card(s).",
                        state.deck.len() - from_deck.len()
                    ),
                    "Search Phase",
                ).ja(format!("クーラーを混ぜて新しい山札にするのは山札が尽きたときだけです。山札はまだ{}枚あります。", state.deck.len() - from_deck.len())));
            }
            for c in from_deck {
                b.push(Event::CardMoved {
                    card: c,
                    from: Place::Deck,
                    to: Place::Drawn(*player),
                });
            }
            if !from_discard.is_empty() {
                b.push(Event::Reshuffled);
                for c in from_discard {
                    b.push(Event::CardMoved {
                        card: c,
                        from: Place::Deck,
                        to: Place::Drawn(*player),
                    });
                }
            }
            if b.state.deck.is_empty() && !b.state.discard.is_empty() {
                b.push(Event::Reshuffled);
            }
            // After the draw: every damaged card of this player goes to the cooler.
            let p = &b.state.players[*player];
            let mut gone: Vec<(String, Place)> = p
                .equipped()
                .filter(|(_, c)| b.state.is_damaged(c))
                .map(|(s, c)| (c.to_owned(), Place::Ship(*player, s)))
                .collect();
            gone.extend(
                p.cargo
                    .iter()
                    .filter(|c| b.state.is_damaged(c))
                    .map(|c| (c.clone(), Place::Cargo(*player))),
            );
            for (card, from) in gone {
                b.push(Event::CardMoved {
                    card,
                    from,
                    to: Place::Discard,
                });
            }
            b.push(Event::StepTo(Step::Rebuild { seat: *player }));
        }
        Move::Equip {
            player,
            card,
            space,
        } => {
            check_seat(state, *player)?;
            let label = state.card_label(card);
            let from = match state.place(card) {
                Some(p @ (Place::Ship(s, _) | Place::Cargo(s) | Place::Drawn(s)))
                    if s == *player =>
                {
                    p
                }
                _ => {
                    return Err(Impossible::new(format!(
                        "{label} is not {}'s card",
                        state.name(*player)
                    )));
                }
            };
            if from == Place::Ship(*player, *space) {
                return Err(Impossible::new(format!(
                    "{label} is already in {}",
                    space.label()
                )));
            }
            if state.step != (Step::Rebuild { seat: *player }) {
                v.push(Violation::new(
                    "space-junk.rebuild-timing",
                    format!(
                        "A ship is rebuilt in its own search phase, after the draw; the match is at {}.",
                        step_text(state)
                    ),
                    "Search Phase",
                ).ja(format!("船の組み替えは自分のサーチフェイズ、ドローの後に行います。いまは {} です。", step_text(state))));
            }
            if let Some(old) = state.players[*player].at(*space) {
                let to = match from {
                    Place::Ship(_, s) => Place::Ship(*player, s),
                    _ => Place::Cargo(*player),
                };
                // The card there first goes where the new one comes from (a swap between
                // spaces) or to cargo; a card is taken out of a space only if it is there.
                b.push(Event::CardMoved {
                    card: old.to_owned(),
                    from: Place::Ship(*player, *space),
                    to,
                });
                b.push(Event::CardMoved {
                    card: card.clone(),
                    from,
                    to: Place::Ship(*player, *space),
                });
            } else {
                b.push(Event::CardMoved {
                    card: card.clone(),
                    from,
                    to: Place::Ship(*player, *space),
                });
            }
        }
        Move::Unequip { player, card } => {
            check_seat(state, *player)?;
            let label = state.card_label(card);
            let Some(from @ Place::Ship(s, _)) = state.place(card) else {
                return Err(Impossible::new(format!("{label} is not on a ship")));
            };
            if s != *player {
                return Err(Impossible::new(format!(
                    "{label} is not on {}'s ship",
                    state.name(*player)
                )));
            }
            if state.step != (Step::Rebuild { seat: *player }) {
                v.push(Violation::new(
                    "space-junk.rebuild-timing",
                    format!(
                        "A ship is rebuilt in its own search phase, after the draw; the match is at {}.",
                        step_text(state)
                    ),
                    "Search Phase",
                ).ja(format!("船の組み替えは自分のサーチフェイズ、ドローの後に行います。いまは {} です。", step_text(state))));
            }
            b.push(Event::CardMoved {
                card: card.clone(),
                from,
                to: Place::Cargo(*player),
            });
        }
        Move::FinishSearch { player } => {
            check_seat(state, *player)?;
            if state.step != (Step::Rebuild { seat: *player }) {
                return Err(wrong_time(
                    state,
                    "a search is finished after the draw and the rebuild",
                ));
            }
            for c in state.players[*player].drawn.clone() {
                b.push(Event::CardMoved {
                    card: c,
                    from: Place::Drawn(*player),
                    to: Place::Cargo(*player),
                });
            }
            b.end_turn(Phase::Search, *player);
        }
        Move::EndRound {} => {
            if state.step != Step::Cameo {
                return Err(wrong_time(state, "a round ends after cameo time"));
            }
            b.end_round();
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
            note: _,
        } => {
            check_seat(state, *player)?;
            for x in [*fame, *movement, *attack, *search] {
                if x.unsigned_abs() > MAX_CHANGE.unsigned_abs() {
                    return Err(Impossible::new(format!(
                        "a change of {x} is outside ±{MAX_CHANGE}"
                    )));
                }
            }
            if *spaces > MAX_CHANGE as u32 {
                return Err(Impossible::new(format!(
                    "{spaces} extra spaces is outside 0..={MAX_CHANGE}"
                )));
            }
            if state.step == Step::Setup {
                return Err(wrong_time(state, "effects happen during the rounds"));
            }
            let p = &state.players[*player];
            if *ability {
                if p.character.is_none() {
                    return Err(Impossible::new(format!("{} has no character", p.name)));
                }
                if p.ability_uses_left == Some(0) {
                    v.push(Violation::new(
                        "space-junk.ability-uses",
                        format!(
                            "{}'s ability has no use left.",
                            p.character
                                .as_deref()
                                .map_or_else(String::new, |c| state.card_label(c))
                        ),
                        "House rule: the rulebook does not settle this; the app's default, which the table may change",
                    ).ja(format!("{} の能力は使用回数が残っていません。", p.character.as_deref().map_or_else(String::new, |c| state.card_label(c)))));
                }
                if p.ability_uses_left.is_some_and(|u| u > 0) {
                    b.push(Event::AbilityUsed(*player));
                }
            }
            if let Some(card) = repair {
                match state.place(card) {
                    Some(Place::Ship(s, _) | Place::Cargo(s) | Place::Drawn(s)) if s == *player => {
                    }
                    _ => {
                        return Err(Impossible::new(format!(
                            "{} is not {}'s card",
                            state.card_label(card),
                            p.name
                        )));
                    }
                }
                if !state.is_damaged(card) {
                    return Err(Impossible::new(format!(
                        "{} is not damaged",
                        state.card_label(card)
                    )));
                }
                b.push(Event::Repaired(card.clone()));
            }
            if *fame != 0 {
                b.push(Event::Fame(*player, *fame));
            }
            if *movement != 0 || *attack != 0 || *search != 0 {
                let m = p.modifiers;
                b.push(Event::Modifiers(
                    *player,
                    ShipStats {
                        movement: m.movement + movement,
                        attack: m.attack + attack,
                        search: m.search + search,
                    },
                ));
            }
            if *spaces > 0 {
                let ring = p.ring;
                b.fly(*player, ring, *spaces);
            }
        }
    }
    Ok(b.done(v))
}
