//! Space Junk's rules: what a move at the table causes, and which rules it breaks.

use super::card::{Slot, Stat};
use super::query::*;
use super::scratch::*;
use super::state::*;
use crate::core::{Decision, Impossible, Seat, Violation};

pub(super) fn decide(state: &State, mv: &Move) -> Result<Decision<Event>, Impossible> {
    let mut b = Builder::new(state);
    let mut v = Vec::new();
    // After the end the match layer refuses every move by rule `match.over` (overridable).
    match mv {
        Move::DealCharacter { player, card } => {
            check_seat(state, *player)?;
            if state
                .cards
                .get(card)
                .and_then(|c| c.data.character())
                .is_none()
            {
                return Err(
                    Impossible::new(format!("{card} is not a character card of this set")).ja(
                        format!("{card} はこのセットのキャラクターカードではありません。"),
                    ),
                );
            }
            if state.step != Step::Setup {
                v.push(not_now(
                    state,
                    ["Dealing a character", "setup"],
                    ["キャラクターを配ること", "準備"],
                    SETUP,
                ));
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
                ))
                .ja(format!(
                    "{} がすでに {} を持っています。キャラクターはそれぞれ1枚だけです。",
                    state.name(other),
                    state.card_label(card)
                )));
            }
            b.push(Event::CharacterDealt(*player, card.clone()));
        }
        Move::FirstPlayer { player } => {
            check_seat(state, *player)?;
            if state.step != Step::Setup {
                v.push(not_now(
                    state,
                    ["Choosing the first player", "setup"],
                    ["先手を決めること", "準備"],
                    SETUP,
                ));
                // Overridden during the rounds: the first player marker goes to this player.
                b.push(Event::FirstIs(*player));
            } else {
                let missing: Vec<&str> = state
                    .players
                    .iter()
                    .filter(|p| p.character.is_none())
                    .map(|p| p.name.as_str())
                    .collect();
                if !missing.is_empty() {
                    let who = missing.join(", ");
                    v.push(
                        Violation::new(
                            "space-junk.setup-order",
                            format!("{who} has no character card yet: at setup each player is given a character card before play begins."),
                            SETUP,
                        )
                        .ja(format!("{who} にはまだキャラクターカードがありません。準備では、始める前に各プレイヤーにキャラクターカードを配ります。")),
                    );
                }
                b.push(Event::RoundBegan(1));
                b.push(Event::FirstIs(*player));
                b.begin_turn(Phase::Move, *player);
            }
        }
        Move::Boost { player, card } => {
            check_seat(state, *player)?;
            let phase = state.phase();
            // Overridden outside the three phases, the card is damaged for no boost.
            let stat = phase.map_or(Stat::Move, Phase::stat);
            let label = state.card_label(card);
            let label_ja = state.card_label_ja(card);
            let place = state.place(card);
            match place {
                Some(Place::Ship(s, _)) if s == *player => {}
                Some(Place::Cargo(s)) | Some(Place::Drawn(s)) if s == *player => {
                    v.push(Violation::new(
                        "space-junk.boost-cargo",
                        format!(
                            "Only a card on your ship (a slot or the fuselage) can be damaged for its * boost; {label} is not on {}'s ship.",
                            state.name(*player)
                        ),
                        SPECIAL,
                    ).ja(format!("＊ブーストで損傷させられるのは船（スロットか胴体）のカードだけです。{label_ja} は {} の船にありません。", state.name(*player))));
                }
                Some(Place::Ship(s, _)) => {
                    // Another player's card on their ship: a card at the table a player could
                    // turn; overridden, it is damaged and boosts the player who turned it.
                    v.push(
                        Violation::new(
                            "space-junk.boost-own-ship",
                            format!(
                                "{} damages {label} on {}'s ship for a * boost: only the junk cards on your own ship give you a boost.",
                                state.name(*player),
                                state.name(s)
                            ),
                            SPECIAL,
                        )
                        .ja(format!(
                            "{} が {} の船の {label_ja} を＊ブーストのために損傷させました：ブーストになるのは自分の船のジャンクカードだけです。",
                            state.name(*player),
                            state.name(s)
                        )),
                    );
                }
                _ => {
                    return Err(Impossible::new(format!(
                        "{label} is not {}'s card",
                        state.name(*player)
                    ))
                    .ja(format!(
                        "{label_ja} は {} のカードではありません。",
                        state.name(*player)
                    )));
                }
            }
            let star = state.junk(card).is_some_and(|j| j.stars.get(stat));
            let Some(phase) = phase else {
                v.push(
                    Violation::new(
                        "space-junk.boost-phase",
                        format!(
                            "A * boost adds to the stat of the move, attack or search phase; the match is at {}.",
                            step_text(state)
                        ),
                        SPECIAL,
                    )
                    .ja(format!(
                        "＊ブーストが加わるのは移動・攻撃・サーチのフェイズの値です。いまは {} です。",
                        step_text_ja(state)
                    )),
                );
                b.push(Event::Boosted {
                    seat: *player,
                    card: card.clone(),
                    stat,
                    amount: 0,
                });
                return Ok(b.done(v));
            };
            if !star {
                v.push(Violation::new(
                    "space-junk.boost-star",
                    format!(
                        "Only a card with a * in {} gives a {} boost now; {}'s {label} has none there.",
                        stat_name(stat),
                        stat_name(stat),
                        state.name(*player)
                    ),
                    SPECIAL,
                ).ja(format!("いま{}のブーストになるのは、{}に＊があるカードだけです。{} の {label_ja} にはありません。", stat_name_ja(stat), stat_name_ja(stat), state.name(*player))));
            }
            if state.turn_seat != Some(*player) {
                v.push(
                    Violation::new(
                        "space-junk.boost-turn",
                        format!(
                            "{} boosts on another player's turn: a * boost is used only on your own turn; it is {}'s turn.",
                            state.name(*player),
                            state.turn_seat.map_or("nobody", |s| state.name(s))
                        ),
                        SPECIAL,
                    )
                    .ja(format!(
                        "{} の番ではありません：＊ブーストは自分の番にだけ使えます。いまは {} の番です。",
                        state.name(*player),
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
                                "{}'s {} boost comes too late: a {} boost is used {when}; the match is at {}.",
                                state.name(*player),
                                stat_name(stat),
                                stat_name(stat),
                                step_text(state)
                            ),
                            SPECIAL,
                        )
                        .ja(format!(
                            "{} の{}のブーストは遅すぎます：{}のブーストは{}に使います。いまは {} です。",
                            state.name(*player),
                            stat_name_ja(stat),
                            stat_name_ja(stat),
                            match phase {
                                Phase::Move => "船が動く前",
                                Phase::Attack => "ヒットを確定する前",
                                Phase::Search => "ドローの前",
                            },
                            step_text_ja(state)
                        )),
                    );
                }
            }
            if state.is_damaged(card) {
                v.push(
                    Violation::new(
                        "space-junk.boost-damaged",
                        format!("{label} is already damaged, so its * cannot be used."),
                        SPECIAL_NOTE,
                    )
                    .ja(format!(
                        "{label_ja} はすでに損傷しているので、その＊は使えません。"
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
                ))
                .ja(format!(
                    "リングは1（内側）、2、3（外側）です。{ring} ではありません。"
                )));
            }
            let in_turn = state.step == (Step::Move { seat: *player });
            match state.step {
                Step::Move { seat } if seat == *player => {}
                Step::Move { seat } => {
                    v.push(not_your_turn(state, *player, seat, "move", "移動"));
                }
                _ => v.push(not_now(
                    state,
                    ["Moving a ship", "the movement phase"],
                    ["船の移動", "移動フェイズ"],
                    MOVEMENT,
                )),
            }
            let budget = u32::try_from(state.boosted(*player, Stat::Move).max(0)).unwrap_or(0);
            let go = spaces.unwrap_or(budget);
            if go > MAX_CHANGE as u32 * 10 {
                return Err(Impossible::new(format!("{go} spaces is not a move"))
                    .ja(format!("{go}マスは移動ではありません。")));
            }
            if state.rules.exact_movement && go != budget {
                v.push(
                    Violation::new(
                        "space-junk.move-exact",
                        format!(
                            "{}'s ship moves exactly its Move value: {budget} spaces, not {go}.",
                            state.name(*player)
                        ),
                        MOVE_VALUE,
                    )
                    .ja(format!(
                        "{} の船は移動値ちょうど進みます：{budget}マスです（{go}マスではありません）。",
                        state.name(*player)
                    )),
                );
            } else if go > budget {
                v.push(
                    Violation::new(
                        "space-junk.move-exact",
                        format!(
                            "{}'s ship moves at most its Move value: {budget} spaces, not {go}.",
                            state.name(*player)
                        ),
                        MOVE_VALUE,
                    )
                    .ja(format!(
                        "{} の船は移動値まで進みます：最大{budget}マスです（{go}マスではありません）。",
                        state.name(*player)
                    )),
                );
            }
            b.fly(*player, *ring, go);
            // Overridden out of turn, the ship moves and the match stays where it is.
            if !in_turn {
            } else if b.state.ships_here(*player).is_empty() {
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
                            "{} rams {}, but a ship rams right after its own move; the match is at {}.",
                            state.name(*player),
                            state.name(*target),
                            step_text(state)
                        ),
                        "Ramming: \"If a player ends their movement in the same space as another player, they may attempt to ram them.\"",
                    )
                    .ja(format!(
                        "{} が {} に体当たりしましたが、体当たりは自分の移動の直後にだけできます（いまは {}）。",
                        state.name(*player),
                        state.name(*target),
                        step_text_ja(state)
                    )),
                );
            }
            if state.round < state.rules.ram_from_round {
                v.push(
                    Violation::new(
                        "space-junk.ram-first-round",
                        format!(
                            "{} rams {} in round {}: there is no ramming before round {}.",
                            state.name(*player),
                            state.name(*target),
                            state.round,
                            state.rules.ram_from_round
                        ),
                        RAM_NOTE,
                    )
                    .ja(format!(
                        "{} が {} にラウンド{}で体当たりしました：体当たりはラウンド{}からです。",
                        state.name(*player),
                        state.name(*target),
                        state.round,
                        state.rules.ram_from_round
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
                Step::Ram { seat } => {
                    // Overridden: the table declines the ram for the player whose it is.
                    v.push(not_your_turn(
                        state,
                        *player,
                        seat,
                        "decline a ram",
                        "体当たりを見送る",
                    ));
                    b.end_turn(Phase::Move, seat);
                }
                _ => v.push(not_now(
                    state,
                    [
                        "Declining a ram",
                        "the end of your own move, on another ship's space",
                    ],
                    [
                        "体当たりを見送ること",
                        "ほかの船と同じマスで自分の移動を終えたとき",
                    ],
                    RAMMING,
                )),
            }
        }
        Move::TakeJunk { player, card } => {
            check_seat(state, *player)?;
            let label = state.card_label(card);
            let label_ja = state.card_label_ja(card);
            let owner = match state.place(card) {
                Some(Place::Ship(s, _) | Place::Cargo(s) | Place::Drawn(s)) => Some(s),
                _ => None,
            };
            let ram = match state.step {
                Step::RamTake { winner, loser } => Some((winner, loser)),
                _ => None,
            };
            // Whose junk is taken: the ram loser's, or (overridden outside a ram) its owner's.
            let loser = match ram {
                Some((_, loser)) => loser,
                None => match owner {
                    Some(s) if s != *player => s,
                    _ => {
                        return Err(Impossible::new(format!(
                            "{label} is not another player's card"
                        ))
                        .ja(format!(
                            "{label_ja} はほかのプレイヤーのカードではありません。"
                        )));
                    }
                },
            };
            let winner = *player;
            match ram {
                None => v.push(not_now(
                    state,
                    ["Taking junk from another ship", "a won ram"],
                    ["ほかの船からジャンクを取ること", "体当たりに勝ったとき"],
                    RAMMING,
                )),
                Some((w, _)) if w != *player => v.push(not_the_ram_winner(state, *player, w)),
                Some(_) => {}
            }
            let from = match state.place(card) {
                Some(p @ (Place::Ship(s, _) | Place::Cargo(s) | Place::Drawn(s))) if s == loser => {
                    p
                }
                _ => {
                    return Err(Impossible::new(format!(
                        "{label} is not {}'s card",
                        state.name(loser)
                    ))
                    .ja(format!(
                        "{label_ja} は {} のカードではありません。",
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
                        ).ja(format!("体当たりの勝者が取るのは移動・攻撃・サーチのスロットのカードで、胴体（{label_ja}）ではありません。")));
                    }
                    Some(Slot::Fuselage)
                }
                Place::Ship(_, s) => Some(s.kind()),
                _ => {
                    v.push(Violation::new(
                        "space-junk.ram-take",
                        format!("The cargo hold is safe: the ram winner takes a card equipped on the ship, not {label}."),
                        RAM_TAKE,
                    ).ja(format!("カーゴは安全です。体当たりの勝者が取るのは船に装備されたカードで、{label_ja} ではありません。")));
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
            if ram.is_some() {
                let rammer = state.turn_seat.unwrap_or(winner);
                b.end_turn(Phase::Move, rammer);
            }
        }
        Move::NoTake { player } => {
            check_seat(state, *player)?;
            match state.step {
                Step::RamTake { winner, .. } => {
                    if winner != *player {
                        v.push(not_the_ram_winner(state, *player, winner));
                    }
                    // Overridden by another player, the table declines the take for the winner.
                    let rammer = state.turn_seat.unwrap_or(winner);
                    b.end_turn(Phase::Move, rammer);
                }
                _ => v.push(not_now(
                    state,
                    ["Declining to take junk", "a won ram"],
                    ["ジャンクを取らないこと", "体当たりに勝ったとき"],
                    RAMMING,
                )),
            }
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
                return Err(
                    Impossible::new(format!("a range of {range} is not on the board"))
                        .ja(format!("射程{range}は盤上にありません。")),
                );
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
                _ => v.push(not_now(
                    state,
                    [
                        "An attack",
                        "the combat phase, once per player in turn order",
                    ],
                    ["攻撃", "戦闘フェイズ（各プレイヤーが順番に1回）"],
                    COMBAT,
                )),
            }
            b.push(Event::AttackDeclared(*player, *target, *range));
            b.push(Event::StepTo(Step::AttackDie));
        }
        Move::NoAttack { player } => {
            check_seat(state, *player)?;
            match state.step {
                Step::Attack { seat } if seat == *player => b.end_turn(Phase::Attack, *player),
                Step::Attack { seat } => {
                    // Overridden: the table passes the attack for the player whose turn it is.
                    v.push(not_your_turn(state, *player, seat, "attack", "攻撃"));
                    b.end_turn(Phase::Attack, seat);
                }
                _ => v.push(not_now(
                    state,
                    ["Passing an attack", "the combat phase, in turn order"],
                    ["攻撃を見送ること", "戦闘フェイズ（順番に）"],
                    COMBAT,
                )),
            }
        }
        Move::ConfirmHits { player } => {
            check_seat(state, *player)?;
            match (state.step, state.active()) {
                (Step::AttackBoost, Some(a)) if a == *player => b.settle_hits(),
                (Step::AttackBoost, a) => {
                    v.push(not_your_turn(
                        state,
                        *player,
                        a.unwrap_or(*player),
                        "settle the hits of",
                        "ヒットを確定する",
                    ));
                    b.settle_hits();
                }
                _ => v.push(not_now(
                    state,
                    ["Settling the hits", "the roll of the attack die"],
                    ["ヒットの確定", "攻撃のダイスを振った後"],
                    COMBAT,
                )),
            }
        }
        Move::Draw { player, cards } => {
            check_seat(state, *player)?;
            let in_turn = state.step == (Step::Search { seat: *player });
            match state.step {
                Step::Search { seat } if seat == *player => {}
                Step::Search { seat } => {
                    v.push(not_your_turn(state, *player, seat, "search", "サーチ"));
                }
                _ => v.push(not_now(
                    state,
                    ["Drawing junk", "the search phase, in turn order"],
                    ["ジャンクを引くこと", "サーチフェイズ（順番に）"],
                    SEARCH,
                )),
            }
            let mut seen: Vec<&str> = Vec::new();
            let mut from_deck = Vec::new();
            let mut from_discard = Vec::new();
            for c in cards {
                if seen.contains(&c.as_str()) {
                    return Err(Impossible::new(format!("{c} is named twice"))
                        .ja(format!("{c} が2回書かれています。")));
                }
                seen.push(c);
                match state.place(c) {
                    Some(Place::Deck) => from_deck.push(c.clone()),
                    Some(Place::Discard) => from_discard.push(c.clone()),
                    Some(_) => {
                        return Err(Impossible::new(format!(
                            "{} is not in the junk deck or the cooler",
                            state.card_label(c)
                        ))
                        .ja(format!(
                            "{} はジャンク山札にもクーラーにもありません。",
                            state.card_label_ja(c)
                        )));
                    }
                    None => {
                        return Err(Impossible::new(format!(
                            "{c} is not a junk card of this match"
                        ))
                        .ja(format!("{c} はこの対戦のジャンクカードではありません。")));
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
                let why_ja = match state.rules.search_limit(p.ring) {
                    Some(l) => format!("探索{search}、リング{}の上限{l}", p.ring),
                    None => format!("探索{search}、リング{}の上限は未入力", p.ring),
                };
                v.push(Violation::new(
                    "space-junk.search-count",
                    format!(
                        "{} draws {allowed} card(s) ({why}; {} in the deck and the cooler), not {}.",
                        p.name,
                        state.deck.len() + state.discard.len(),
                        cards.len()
                    ),
                    SEARCH_COUNT,
                ).ja(format!("{} が引くのは{allowed}枚です（{why_ja}。山札とクーラーに{}枚）。{}枚ではありません。", p.name, state.deck.len() + state.discard.len(), cards.len())));
            }
            if !from_discard.is_empty() && from_deck.len() < state.deck.len() {
                v.push(Violation::new(
                    "space-junk.search-reshuffle",
                    format!(
                        "{} draws {} card(s) from the cooler: the cooler is shuffled into a new deck only when the deck runs out; the deck still holds {} card(s).",
                        state.name(*player),
                        from_discard.len(),
                        state.deck.len() - from_deck.len()
                    ),
                    SEARCH_RESHUFFLE,
                ).ja(format!("{} がクーラーから{}枚引きました：クーラーを混ぜて新しい山札にするのは山札が尽きたときだけです。山札はまだ{}枚あります。", state.name(*player), from_discard.len(), state.deck.len() - from_deck.len())));
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
            // Overridden out of turn, the cards are drawn and the match stays where it is.
            if in_turn {
                b.push(Event::StepTo(Step::Rebuild { seat: *player }));
            }
        }
        Move::Equip {
            player,
            card,
            space,
        } => {
            check_seat(state, *player)?;
            let label = state.card_label(card);
            let label_ja = state.card_label_ja(card);
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
                    ))
                    .ja(format!(
                        "{label_ja} は {} のカードではありません。",
                        state.name(*player)
                    )));
                }
            };
            if from == Place::Ship(*player, *space) {
                return Err(
                    Impossible::new(format!("{label} is already in {}", space.label())).ja(
                        format!("{label_ja} はすでに{}にあります。", space.label_ja()),
                    ),
                );
            }
            if state.step != (Step::Rebuild { seat: *player }) {
                v.push(Violation::new(
                    "space-junk.rebuild-timing",
                    format!(
                        "{} moves {label} on the ship: a ship is rebuilt in its own search phase, after the draw; the match is at {}.",
                        state.name(*player),
                        step_text(state)
                    ),
                    REBUILD,
                ).ja(format!("{} が船の {label_ja} を動かしました：船の組み替えは自分のサーチフェイズ、ドローの後に行います。いまは {} です。", state.name(*player), step_text_ja(state))));
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
            let label_ja = state.card_label_ja(card);
            let Some(from @ Place::Ship(s, _)) = state.place(card) else {
                return Err(Impossible::new(format!("{label} is not on a ship"))
                    .ja(format!("{label_ja} は船にありません。")));
            };
            if s != *player {
                return Err(Impossible::new(format!(
                    "{label} is not on {}'s ship",
                    state.name(*player)
                ))
                .ja(format!(
                    "{label_ja} は {} の船にありません。",
                    state.name(*player)
                )));
            }
            if state.step != (Step::Rebuild { seat: *player }) {
                v.push(Violation::new(
                    "space-junk.rebuild-timing",
                    format!(
                        "{} moves {label} on the ship: a ship is rebuilt in its own search phase, after the draw; the match is at {}.",
                        state.name(*player),
                        step_text(state)
                    ),
                    REBUILD,
                ).ja(format!("{} が船の {label_ja} を動かしました：船の組み替えは自分のサーチフェイズ、ドローの後に行います。いまは {} です。", state.name(*player), step_text_ja(state))));
            }
            b.push(Event::CardMoved {
                card: card.clone(),
                from,
                to: Place::Cargo(*player),
            });
        }
        Move::FinishSearch { player } => {
            check_seat(state, *player)?;
            let seat = match state.step {
                Step::Rebuild { seat } => {
                    if seat != *player {
                        v.push(not_your_turn(
                            state,
                            *player,
                            seat,
                            "finish the search of",
                            "サーチを終える",
                        ));
                    }
                    Some(seat)
                }
                _ => {
                    v.push(not_now(
                        state,
                        [
                            "Finishing a search",
                            "the draw and the rebuild of your own search",
                        ],
                        ["サーチの終了", "自分のサーチのドローと組み替えの後"],
                        SEARCH,
                    ));
                    None
                }
            };
            // Overridden by another player, the table finishes the search for the searcher.
            if let Some(seat) = seat {
                for c in state.players[seat].drawn.clone() {
                    b.push(Event::CardMoved {
                        card: c,
                        from: Place::Drawn(seat),
                        to: Place::Cargo(seat),
                    });
                }
                b.end_turn(Phase::Search, seat);
            }
        }
        Move::EndRound {} => {
            if state.step != Step::Cameo {
                v.push(not_now(
                    state,
                    ["Ending the round", "cameo time, after every phase"],
                    ["ラウンドの終了", "すべてのフェイズの後のカメオタイム"],
                    ORDER,
                ));
            }
            // Overridden before cameo time, the round ends early.
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
                    ))
                    .ja(format!("{x} の変更は ±{MAX_CHANGE} の範囲外です。")));
                }
            }
            if *spaces > MAX_CHANGE as u32 {
                return Err(Impossible::new(format!(
                    "{spaces} extra spaces is outside 0..={MAX_CHANGE}"
                ))
                .ja(format!(
                    "追加の{spaces}マスは 0〜{MAX_CHANGE} の範囲外です。"
                )));
            }
            if state.step == Step::Setup {
                v.push(not_now(
                    state,
                    ["An effect", "the rounds"],
                    ["効果", "ラウンド中"],
                    ORDER,
                ));
            }
            let p = &state.players[*player];
            if *ability {
                if p.character.is_none() {
                    return Err(Impossible::new(format!("{} has no character", p.name))
                        .ja(format!("{} にはキャラクターがいません。", p.name)));
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
                    ).ja(format!("{} の能力は使用回数が残っていません。", p.character.as_deref().map_or_else(String::new, |c| state.card_label_ja(c)))));
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
                        ))
                        .ja(format!(
                            "{} は {} のカードではありません。",
                            state.card_label_ja(card),
                            p.name
                        )));
                    }
                }
                if !state.is_damaged(card) {
                    return Err(Impossible::new(format!(
                        "{} is not damaged",
                        state.card_label(card)
                    ))
                    .ja(format!(
                        "{} は損傷していません。",
                        state.card_label_ja(card)
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

/// The rulebook's words the boost, movement, ram and search refusals quote.
const SPECIAL: &str = "Special Symbols on Junk Cards: \"This can only be done when it is your turn during the relevant phase, and can be done by junk cards anywhere on your ship\"";
const SPECIAL_NOTE: &str = "Special Symbols on Junk Cards (Note): \"a card damaged at the start of your turn during a phase can not be used for its * ability, as it is already damaged.\"";
const MOVE_VALUE: &str = "Movement Phase: \"move your ship clockwise around the track a number of spaces equal to your ship's movement value\"";
const RAM_NOTE: &str = "Ramming (Note): \"There is no ramming on the first turn.\"";
const RAM_TAKE: &str = "Ramming: \"may take 1 piece of junk from the player that rolled lower and equip it on their ship under the same function\"";
const SEARCH_COUNT: &str = "Search Phase: \"each player draws a number of cards from the junk deck equal to either their ship's total search value, or the search limit for the movement ring that their ship is in, whichever is lower\"";
const SEARCH_RESHUFFLE: &str = "Search Phase: \"If the junk deck runs out, shuffle the discard pile to create a new junk deck.\"";
const REBUILD: &str = "Search Phase: \"Once a player has drawn their junk cards, they may add them, or any cards they have previously stored in their cargo, to any empty space on their ship\"";

/// The rulebook's words the phase refusals quote.
const ORDER: &str = "Sequence of Play: \"All players complete each phase in turn order before the game moves on to the next phase.\"";
pub(super) const SETUP: &str =
    "Setup: \"give each player a ship board and a random character card\"";
const MOVEMENT: &str = "Movement Phase: \"beginning with the first player and going around the table, each player in turn order moves their ship\"";
const RAMMING: &str = "Ramming: \"If a player ends their movement in the same space as another player, they may attempt to ram them.\"";
const COMBAT: &str = "Combat Phase: \"During the combat phase each player in turn order has the chance to fire their ship's weapon systems\"";
const SEARCH: &str =
    "Search Phase: \"In turn order each player draws a number of cards from the junk deck\"";

/// A move at a step it does not belong to (`space-junk.phase-order`): `[what, when]` in English
/// and Japanese.
fn not_now(state: &State, en: [&str; 2], ja: [&str; 2], reference: &str) -> Violation {
    Violation::wrong_phase(
        "space-junk.phase-order",
        reference,
        [en[0], en[1], &step_text(state)],
        [ja[0], ja[1], &step_text_ja(state)],
    )
}

/// A move on another player's turn (`space-junk.turn-order`).
fn not_your_turn(state: &State, player: Seat, whose: Seat, what: &str, what_ja: &str) -> Violation {
    Violation::new(
        "space-junk.turn-order",
        format!(
            "It is {}'s turn to {what}, not {}'s.",
            state.name(whose),
            state.name(player)
        ),
        ORDER,
    )
    .ja(format!(
        "いまは {} の{what_ja}の番です（{} の番ではありません）。",
        state.name(whose),
        state.name(player)
    ))
}

/// Taking (or declining) the ram winner's junk by another player (`space-junk.ram-winner`).
fn not_the_ram_winner(state: &State, player: Seat, winner: Seat) -> Violation {
    Violation::new(
        "space-junk.ram-winner",
        format!(
            "{} won the ram, not {}: the winner takes the junk.",
            state.name(winner),
            state.name(player)
        ),
        "Ramming: \"The player who scored the highest may take 1 piece of junk from the player that rolled lower\"",
    )
    .ja(format!(
        "体当たりに勝ったのは {} です（{} ではありません）。ジャンクを取るのは勝った側です。",
        state.name(winner),
        state.name(player)
    ))
}
