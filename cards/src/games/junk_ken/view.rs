//! What the table shows of a JUNK-KEN match: the phase bar, the open prompts (dice included),
//! the tracked numbers, the moves worth offering and their sentences.

use super::card::{Hand, JunkKenCard};
use super::scratch::*;
use super::state::*;
use crate::core::{
    Impossible, MatchCtx, Outcome, PhaseView, Prompt, PromptKind, Roll, Seat, Tracker, TrackerId,
};
use crate::game::Game;

pub(super) fn die_prompt(state: &State, d: &DieAsk) -> Prompt {
    let who = state.name(d.seat);
    let text = match &d.purpose {
        DiePurpose::Hp => {
            let c = state.top(d.seat).map(CardInfo::label).unwrap_or_default();
            format!("{who}: roll the HP die (d{}) of {c}", d.sides)
        }
        DiePurpose::DiceSkill { left, .. } => {
            let skill = state
                .top(d.seat)
                .and_then(|c| c.dice_roll().map(|(r, e)| format!("{r}⇒ {e}")))
                .unwrap_or_default();
            format!(
                "{who}: Dice-rolling skill {skill} — roll a d{} ({left} left)",
                d.sides
            )
        }
        DiePurpose::Necromancy { graveyard } => format!(
            "{who}: Necromancy — a d{} picks which face-down card of {}'s graveyard turns face up",
            d.sides,
            state.name(*graveyard)
        ),
    };
    Prompt {
        id: d.id.clone(),
        player: Some(d.seat),
        kind: PromptKind::Die { sides: d.sides },
        text,
    }
}

pub(super) fn prompts(state: &State) -> Vec<Prompt> {
    let mut out: Vec<Prompt> = JunkKen::die_prompts(state);
    let t = state.table.turn;
    let choice = |id: String, player: Option<Seat>, text: String| Prompt {
        id,
        player,
        kind: PromptKind::Choice,
        text,
    };
    match state.table.step {
        Step::Set => {
            for seat in 0..2 {
                let p = &state.players[seat];
                if p.set_done {
                    continue;
                }
                let what = if p.character.is_none() && p.hand > 0 {
                    "place a character (required), then any support, field, awakening or Haste; then done"
                } else {
                    "place support / field cards, awaken or use Haste if you wish; then done"
                };
                out.push(choice(
                    format!("t{t}-set-{seat}"),
                    Some(seat),
                    format!("{}: {what}", p.name),
                ));
                if p.character.as_ref().is_some_and(|c| c.rotation == Some(0)) {
                    out.push(choice(
                        format!("t{t}-clockwise-{seat}"),
                        Some(seat),
                        format!(
                            "{}: the Clockwise character is upright: its effect may be used",
                            p.name
                        ),
                    ));
                }
                if p.character.as_ref().is_some_and(|c| c.dice_active) {
                    let e = state
                        .top(seat)
                        .and_then(|c| c.dice_roll().map(|(_, e)| e.to_owned()))
                        .unwrap_or_default();
                    out.push(choice(
                        format!("t{t}-dice-on-{seat}"),
                        Some(seat),
                        format!(
                            "{}: the Dice-rolling skill is on until the next set phase: {e}",
                            p.name
                        ),
                    ));
                }
            }
        }
        Step::Janken => out.push(choice(
            format!("t{t}-janken"),
            None,
            "Declare replacement if you wish, then throw janken and enter both hands".into(),
        )),
        Step::Resolve => out.push(choice(
            format!("t{t}-resolve"),
            None,
            "Enter the results of skills resolved by hand, then end the janken phase".into(),
        )),
        Step::Replace => {
            for seat in 0..2 {
                if state.players[seat].replacing {
                    out.push(choice(
                        format!("t{t}-replace-{seat}"),
                        Some(seat),
                        format!(
                            "{}: swap the character with a hand card (the HP carries over)",
                            state.name(seat)
                        ),
                    ));
                }
            }
        }
        Step::TurnEnd => {
            for seat in 0..2 {
                let p = &state.players[seat];
                if p.necromancy_ready {
                    out.push(choice(
                        format!("t{t}-necromancy-{seat}"),
                        Some(seat),
                        format!("{}: Necromancy may turn 1 graveyard card over", p.name),
                    ));
                }
            }
            out.push(choice(
                format!("t{t}-end"),
                None,
                "Spend Bullet counters if you wish, then end the turn".into(),
            ));
        }
        Step::SetStart | Step::Over => {}
        Step::Exchange | Step::Purchase | Step::Build => {
            if let Some(d) = &state.table.draft {
                out.extend(draft_prompts(state, d));
            }
        }
    }
    out
}

/// The draft's prompts: whose pick, the winner's exchange, each deck still to build.
fn draft_prompts(state: &State, d: &Draft) -> Vec<Prompt> {
    let choice = |id: String, player: Option<Seat>, text: String| Prompt {
        id,
        player,
        kind: PromptKind::Choice,
        text,
    };
    let b = d.battle;
    let left = d.piles.iter().filter(|p| p.taken.is_none()).count();
    match state.table.step {
        Step::Exchange => {
            let w = d.winner.unwrap_or(0);
            vec![choice(
                format!("b{b}-exchange"),
                Some(w),
                format!(
                    "{}: take 2 cards from {}'s holdings and give 2 back (taken {}, given {})",
                    state.name(w),
                    state.name(other(w)),
                    d.took.len(),
                    d.gave.len()
                ),
            )]
        }
        Step::Purchase => match d.picker {
            Some(p) => vec![choice(
                format!("b{b}-pick-{p}"),
                Some(p),
                format!(
                    "{}: pick a pile ({} cards held, {left} piles left)",
                    state.name(p),
                    d.holdings[p].len()
                ),
            )],
            None => vec![choice(
                format!("b{b}-pick-first"),
                None,
                format!("The janken winner picks the first pile ({left} piles)"),
            )],
        },
        _ => (0..2)
            .filter(|&s| !d.built[s])
            .map(|s| {
                let (main, extra) = deck_counts(state, &d.decks[s]);
                choice(
                    format!("b{b}-build-{s}"),
                    Some(s),
                    format!(
                        "{}: build a deck from your holdings: main deck {main}/30, EX cards {extra}/3; then done",
                        state.name(s)
                    ),
                )
            })
            .collect(),
    }
}

/// A deck being built: its main-deck and EX (extra-deck) card counts.
pub fn deck_counts(state: &State, deck: &[String]) -> (usize, usize) {
    let extra = deck
        .iter()
        .filter(|id| state.cards.get(*id).is_some_and(|c| c.data.is_extra()))
        .count();
    (deck.len() - extra, extra)
}

pub(super) fn context(state: &State) -> MatchCtx {
    let mut phases = vec![
        "Set セット".to_owned(),
        "Janken じゃんけん".to_owned(),
        "Janken end".to_owned(),
        "Turn end".to_owned(),
    ];
    // A draft match walks its pack purchase and deck building first.
    let drafting = state.table.draft.is_some();
    if drafting {
        phases.splice(
            0..0,
            [
                "Pack purchase パック購入".to_owned(),
                "Deck building デッキ構築".to_owned(),
            ],
        );
    }
    let offset = if drafting { 2 } else { 0 };
    let current = match state.table.step {
        Step::Exchange | Step::Purchase => 0,
        Step::Build => 1,
        Step::SetStart | Step::Set => offset,
        Step::Janken | Step::Resolve => offset + 1,
        Step::Replace => offset + 2,
        Step::TurnEnd | Step::Over => offset + 3,
    };
    let next = match state.table.step {
        Step::Exchange => "pack purchase 2: the loser picks first".to_owned(),
        Step::Purchase => "deck building, once the piles are picked".to_owned(),
        Step::Build => "the battle, once both decks are built".to_owned(),
        Step::SetStart => "the set phase: place cards".to_owned(),
        Step::Set => "the janken phase, once both are done".to_owned(),
        Step::Janken => "the throw resolves the winner's action".to_owned(),
        Step::Resolve => "the janken phase ends: field dice −1, supporters age".to_owned(),
        Step::Replace => "the turn end: Bullet and Necromancy".to_owned(),
        Step::TurnEnd => format!("turn {}: the set phase begins", state.table.turn + 1),
        Step::Over => "—".to_owned(),
    };
    let active = match state.table.step {
        Step::Set => {
            let waiting: Vec<Seat> = (0..2).filter(|&s| !state.players[s].set_done).collect();
            (waiting.len() == 1).then(|| waiting[0])
        }
        Step::Replace => (0..2).find(|&s| state.players[s].replacing),
        Step::Purchase => state.table.draft.as_ref().and_then(|d| d.picker),
        Step::Exchange => state.table.draft.as_ref().and_then(|d| d.winner),
        _ => None,
    };
    MatchCtx {
        players: state.players.iter().map(|p| p.name.clone()).collect(),
        turn: state.table.turn,
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
    if let Some(s) = (0..2).find(|&s| state.players[s].surrendered) {
        return Some(Outcome::Win {
            winner: other(s),
            reason: format!("{} surrendered", state.players[s].name),
        });
    }
    let threshold = state.rules.loss_threshold();
    let lost: Vec<Seat> = (0..2)
        .filter(|&s| state.players[s].defeated >= threshold)
        .collect();
    match lost.as_slice() {
        [s] => Some(Outcome::Win {
            winner: other(*s),
            reason: format!("{} lost {threshold} characters", state.players[*s].name),
        }),
        [_, _] => Some(Outcome::Draw {
            reason: format!("both players lost {threshold} characters at once"),
        }),
        _ => None,
    }
}

pub(super) fn trackers(state: &State) -> Vec<Tracker> {
    let mut out = vec![Tracker {
        id: TrackerId::game("turn"),
        label: "Turn".into(),
        value: i32::try_from(state.table.turn).unwrap_or(i32::MAX),
        min: 1,
        max: 9999,
    }];
    // Dice the table owes (HP, Dice-rolling skills, Necromancy picks): shown only, they close
    // when the die is rolled or skipped.
    let owed = i32::try_from(state.table.dice.len()).unwrap_or(i32::MAX);
    out.push(Tracker {
        id: TrackerId::game("dice-owed"),
        label: "Dice the table owes".into(),
        value: owed,
        min: owed,
        max: owed,
    });
    // Before the draft's battle the players have no cards in play: the battle's numbers wait,
    // and the draft's are shown (only: picks and the deck building change them). Once the
    // battle begins they are gone from the table (the holdings go on in the next battle's
    // `draft_carry`).
    let drafting = state.table.step.before_battle();
    if let Some(d) = state.table.draft.as_ref().filter(|_| drafting) {
        let shown = |v: usize| i32::try_from(v).unwrap_or(i32::MAX);
        let left = shown(d.piles.iter().filter(|p| p.taken.is_none()).count());
        out.push(Tracker {
            id: TrackerId::game("piles-left"),
            label: "Piles left 残りの山".into(),
            value: left,
            min: left,
            max: left,
        });
        for seat in 0..2 {
            let (main, extra) = deck_counts(state, &d.decks[seat]);
            for (name, label, v) in [
                ("holdings", "Holdings 持ち札", d.holdings[seat].len()),
                ("deck-main", "Main deck being built 作成中の山札", main),
                ("deck-ex", "EX cards being built 作成中のEXカード", extra),
            ] {
                out.push(Tracker {
                    id: TrackerId::player(seat, name),
                    label: label.into(),
                    value: shown(v),
                    min: shown(v),
                    max: shown(v),
                });
            }
        }
    }
    if drafting {
        return out;
    }
    let main = i32::try_from(state.rules.deck_rules().main_size).unwrap_or(30);
    let threshold = i32::from(state.rules.loss_threshold());
    for (seat, p) in state.players.iter().enumerate() {
        let mut push = |name: &'static str, label: &'static str, value: i32, min, max| {
            out.push(Tracker {
                id: TrackerId::player(seat, name),
                label: label.into(),
                value,
                min,
                max,
            })
        };
        push("hand", "Hand 手札", p.hand, 0, main);
        push("deck", "Deck 山札", p.deck, 0, main);
        push("side", "Side サイド", p.side, 0, 2);
        push(
            "defeated",
            "Defeated characters",
            i32::from(p.defeated),
            0,
            threshold,
        );
        // The graveyard (shown only: cards go there by the rules, Necromancy turns them).
        let g = i32::try_from(p.graveyard.len()).unwrap_or(i32::MAX);
        push("graveyard", "Graveyard 墓地", g, g, g);
        let down =
            i32::try_from(p.graveyard.iter().filter(|c| c.face_down).count()).unwrap_or(i32::MAX);
        push(
            "graveyard-face-down",
            "Graveyard: face down 墓地（裏向き）",
            down,
            down,
            down,
        );
        push(
            "atk-bonus",
            "ATK bonus (+1 attack effects; those of cards end with them)",
            p.attack_bonus(),
            -9,
            9,
        );
        if let Some(ch) = &p.character {
            push("hp", "HP 体力", ch.hp, 1, MAX_HP);
            push(
                "turns-in-zone",
                "Turns in the battle zone",
                i32::try_from(ch.turns).unwrap_or(0),
                0,
                999,
            );
            let top = state.cards.get(ch.top());
            if let Some((level, _, _)) = top.and_then(CardInfo::bullet) {
                push(
                    "bullet",
                    "Bullet counters",
                    i32::from(ch.bullet),
                    0,
                    i32::from(level),
                );
            }
            if let Some(r) = ch.rotation {
                push("rotation", "Clockwise rotation (°)", i32::from(r), 0, 270);
            }
            if top.and_then(CardInfo::dice_roll).is_some() {
                push(
                    "dice-skill",
                    "Dice-rolling skill on (1) / off (0)",
                    i32::from(ch.dice_active),
                    0,
                    1,
                );
            }
        }
        match &p.support {
            Support::Supporter { age, .. } => push(
                "supporter-age",
                "Supporter: janken phases ended",
                i32::from(*age),
                0,
                1,
            ),
            Support::Gear { card, durability } => {
                let max = match state.cards.get(card).map(|c| &c.data) {
                    Some(JunkKenCard::Gear(g)) => i32::from(g.durability),
                    _ => 9,
                };
                push("gear", "Gear durability die", *durability, 0, max)
            }
            Support::Empty => {}
        }
        if let Some(f) = &p.field {
            let max = match state.cards.get(&f.card).map(|c| &c.data) {
                Some(JunkKenCard::Field(fd)) => i32::from(fd.count),
                _ => 9,
            };
            push("field", "Field countdown die", f.die, 0, max);
        }
    }
    out
}

pub(super) fn adjust(
    state: &State,
    tracker: &TrackerId,
    value: i32,
) -> Result<Vec<Event>, Impossible> {
    let mut t = Scratch::new(state);
    if matches!(
        tracker.name.as_ref(),
        "dice-owed" | "piles-left" | "holdings" | "deck-main" | "deck-ex"
    ) {
        return Ok(Vec::new());
    }
    if tracker.name == "turn" {
        t.s.table.turn = u32::try_from(value)
            .map_err(|_| Impossible::new("the turn is positive").ja("ターンは正の数です"))?;
        return Ok(t.done(Vec::new()).events);
    }
    let seat = tracker.player.filter(|s| *s < 2).ok_or_else(|| {
        Impossible::new(format!("`{tracker}` needs a player"))
            .ja(format!("`{tracker}` にはプレイヤーが必要です"))
    })?;
    let small = |v: i32| {
        u8::try_from(v).map_err(|_| {
            Impossible::new(format!("{v} is out of range")).ja(format!("{v} は範囲外です"))
        })
    };
    let p = &mut t.s.players[seat];
    let missing = || {
        Impossible::new(format!(
            "{} has no `{}` now",
            state.name(seat),
            tracker.name
        ))
        .ja(format!(
            "{} にはいま `{}` がありません",
            state.name(seat),
            tracker.name
        ))
    };
    match tracker.name.as_ref() {
        // Shown only: the match layer allows only their own value, which changes nothing.
        "graveyard" | "graveyard-face-down" | "dice-owed" => {}
        "hand" => p.hand = value,
        "deck" => p.deck = value,
        "side" => p.side = value,
        "defeated" => {
            p.defeated = small(value)?;
            t.check_over();
        }
        // The hand-set part: the cards' bonuses stay theirs.
        "atk-bonus" => p.atk_bonus = value - p.bonuses.iter().map(|b| b.atk).sum::<i32>(),
        "hp" => p.character.as_mut().ok_or_else(missing)?.hp = value,
        "turns-in-zone" => {
            p.character.as_mut().ok_or_else(missing)?.turns =
                u32::try_from(value).map_err(|_| missing())?
        }
        "bullet" => p.character.as_mut().ok_or_else(missing)?.bullet = small(value)?,
        "rotation" => {
            if value % 90 != 0 {
                return Err(Impossible::new("a Clockwise card turns in steps of 90°")
                    .ja("クロックワイズのカードは90度ずつ回転します"));
            }
            p.character.as_mut().ok_or_else(missing)?.rotation =
                Some(u16::try_from(value).map_err(|_| missing())?)
        }
        "dice-skill" => p.character.as_mut().ok_or_else(missing)?.dice_active = value == 1,
        "supporter-age" => match &mut p.support {
            Support::Supporter { age, .. } => *age = small(value)?,
            _ => return Err(missing()),
        },
        "gear" => match &mut p.support {
            Support::Gear { durability, .. } => *durability = value,
            _ => return Err(missing()),
        },
        "field" => {
            let f = p.field.as_mut().ok_or_else(missing)?;
            f.die = value;
            if value < 1 {
                let card = f.card.clone();
                p.field = None;
                p.removed.push(card);
            }
        }
        other => {
            return Err(
                Impossible::new(format!("JUNK-KEN keeps no number called `{other}`"))
                    .ja(format!("JUNK-拳に `{other}` という数はありません")),
            );
        }
    }
    Ok(t.done(Vec::new()).events)
}

pub(super) fn die_prompts(state: &State) -> Vec<Prompt> {
    state
        .table
        .dice
        .iter()
        .map(|d| die_prompt(state, d))
        .collect()
}

pub(super) fn fulfil(
    state: &State,
    prompt: &Prompt,
    roll: &Roll,
) -> Result<Vec<Event>, Impossible> {
    let Some(ask) = state.table.dice.iter().find(|d| d.id == prompt.id) else {
        return Err(Impossible::new(format!("no open die prompt {}", prompt.id))
            .ja(format!("サイコロの要求 {} は開いていません", prompt.id)));
    };
    if roll.sides != ask.sides || roll.value == 0 || roll.value > roll.sides {
        return Err(Impossible::new(format!(
            "prompt {} needs a d{}, not d{} = {}",
            ask.id, ask.sides, roll.sides, roll.value
        ))
        .ja(format!(
            "要求 {} に必要なのは{}面のサイコロです（{}面 = {} ではありません）",
            ask.id, ask.sides, roll.sides, roll.value
        )));
    }
    let mut t = Scratch::new(state);
    let seat = ask.seat;
    let value = roll.value;
    let id = ask.id.clone();
    t.s.table.dice.retain(|d| d.id != id);
    match &ask.purpose {
        DiePurpose::Hp => {
            if let Some(ch) = t.s.players[seat].character.as_mut() {
                ch.hp = i32::from(value);
                ch.hp_rolled = true;
            }
        }
        DiePurpose::DiceSkill { total, left } => {
            let total = total + u32::from(value);
            let left = left.saturating_sub(1);
            if left > 0 {
                let mut next = ask.clone();
                next.purpose = DiePurpose::DiceSkill { total, left };
                t.s.table.dice.insert(0, next);
            } else {
                let holds = state
                    .top(seat)
                    .and_then(CardInfo::dice_roll)
                    .is_some_and(|(r, _)| r.holds(total));
                if let Some(ch) = t.s.players[seat].character.as_mut() {
                    ch.dice_active = holds;
                }
                t.leave_set_start();
            }
        }
        DiePurpose::Necromancy { graveyard } => {
            let g = &mut t.s.players[*graveyard].graveyard;
            if let Some(c) = g
                .iter_mut()
                .filter(|c| c.face_down)
                .nth(usize::from(value) - 1)
            {
                c.face_down = false;
            }
        }
    }
    Ok(t.done(Vec::new()).events)
}

pub(super) fn candidate_moves(state: &State) -> Vec<Move> {
    let mut out = Vec::new();
    let distinct = |ids: &[String]| {
        let mut v = ids.to_vec();
        v.dedup();
        v
    };
    let kind = |id: &str| state.cards.get(id).map(|c| c.data.kind_name());
    for d in &state.table.dice {
        if matches!(d.purpose, DiePurpose::DiceSkill { .. }) {
            out.push(Move::SkipDiceRoll { player: d.seat });
        }
    }
    match state.table.step {
        Step::SetStart | Step::Over => {}
        Step::Exchange | Step::Purchase | Step::Build => {
            if let Some(d) = &state.table.draft {
                draft_moves(state, d, &mut out);
            }
        }
        Step::Set => {
            for player in 0..2 {
                let p = &state.players[player];
                if p.set_done {
                    continue;
                }
                for card in distinct(&p.unplayed) {
                    if p.character.is_none() && kind(&card) == Some("character") {
                        out.push(Move::PlaceCharacter {
                            player,
                            card: card.clone(),
                        });
                    }
                    if p.support == Support::Empty {
                        if kind(&card) == Some("gear") {
                            out.push(Move::PlaceGear { player, card });
                        } else {
                            out.push(Move::PlaceSupporter { player, card });
                        }
                    }
                }
                for card in distinct(&p.extra) {
                    match kind(&card) {
                        Some("field") if p.field.is_none() => {
                            out.push(Move::PlaceField { player, card })
                        }
                        Some("awakening") if p.character.is_some() => {
                            out.push(Move::Awaken { player, card })
                        }
                        _ => {}
                    }
                }
                if p.field.is_some() {
                    out.push(Move::SpendField { player });
                }
                if matches!(p.support, Support::Supporter { face_up: false, .. }) {
                    out.push(Move::Haste { player });
                }
                out.push(Move::EndSet { player });
            }
        }
        Step::Janken => {
            for player in 0..2 {
                if !state.players[player].replacing {
                    out.push(Move::DeclareReplacement { player });
                }
            }
            for hand0 in Hand::ALL {
                for hand1 in Hand::ALL {
                    out.push(Move::Janken { hand0, hand1 });
                }
            }
        }
        Step::Resolve => {
            out.push(Move::EndJanken {});
            for player in 0..2 {
                if matches!(state.players[player].support, Support::Gear { durability, .. } if durability >= 1)
                {
                    out.push(Move::GearEvent { player });
                }
            }
        }
        Step::Replace => {
            for player in 0..2 {
                let p = &state.players[player];
                if p.replacing && p.character.is_some() {
                    out.push(Move::KeepCharacter { player });
                    for card in distinct(&p.unplayed) {
                        if kind(&card) == Some("character") {
                            out.push(Move::Replace { player, card });
                        }
                    }
                }
            }
        }
        Step::TurnEnd => {
            if !state
                .table
                .dice
                .iter()
                .any(|d| matches!(d.purpose, DiePurpose::Necromancy { .. }))
            {
                out.push(Move::EndTurn {});
            }
            for player in 0..2 {
                let p = &state.players[player];
                if p.character.is_some() {
                    out.push(Move::SpendBullet { player });
                }
                if p.necromancy_ready {
                    for graveyard in 0..2 {
                        let g = &state.players[graveyard].graveyard;
                        if g.iter().any(|c| c.face_down) {
                            out.push(Move::Necromancy {
                                player,
                                graveyard,
                                card: None,
                            });
                        }
                        if let Some(c) = g.iter().find(|c| !c.face_down) {
                            out.push(Move::Necromancy {
                                player,
                                graveyard,
                                card: Some(c.card.clone()),
                            });
                        }
                    }
                }
            }
        }
    }
    out
}

/// The draft's moves worth offering: the piles the picker may take, the cards of the exchange,
/// the holdings a deck may still take and the deck's cards to take out.
fn draft_moves(state: &State, d: &Draft, out: &mut Vec<Move>) {
    let distinct = |ids: &[String]| {
        let mut v = ids.to_vec();
        v.dedup();
        v
    };
    match state.table.step {
        Step::Purchase => {
            for player in 0..2 {
                if d.picker.is_some_and(|p| p != player) || !d.may_pick(player) {
                    continue;
                }
                for (i, pile) in d.piles.iter().enumerate() {
                    if pile.taken.is_none() {
                        let pile = u32::try_from(i + 1).unwrap_or(u32::MAX);
                        out.push(Move::Pick { player, pile });
                    }
                }
            }
        }
        Step::Exchange => {
            if let Some(w) = d.winner {
                if d.took.len() < 2 {
                    for card in distinct(&d.holdings[other(w)]) {
                        out.push(Move::ExchangeTake { card });
                    }
                }
                if d.gave.len() < 2 {
                    for card in distinct(&d.holdings[w]) {
                        out.push(Move::ExchangeGive { card });
                    }
                }
                out.push(Move::ExchangeDone {});
            }
        }
        _ => {
            for player in 0..2 {
                if d.built[player] {
                    continue;
                }
                out.push(Move::DeckDone { player });
                for card in distinct(&d.holdings[player]) {
                    let held = d.holdings[player].iter().filter(|c| **c == card).count();
                    let used = d.decks[player].iter().filter(|c| **c == card).count();
                    if used < held {
                        out.push(Move::DeckAdd {
                            player,
                            card: card.clone(),
                        });
                    }
                }
                for card in distinct(&d.decks[player]) {
                    out.push(Move::DeckRemove { player, card });
                }
            }
        }
    }
}

/// The Dice-rolling skills the next set phase skips because the table lacks their die, as a
/// sentence for the log ("" when none): "; Aki's 賽振り人形: no d8 at the table, the
/// Dice-rolling skill is skipped".
pub(super) fn skipped_dice_skills(state: &State) -> String {
    let mut out = String::new();
    for seat in 0..state.players.len() {
        if let Some(top) = state.top(seat)
            && let Some((roll, _)) = top.dice_roll()
            && !state.rules.table_has_die(roll.sides)
        {
            out.push_str(&format!(
                "; {}'s {}: no d{} at the table, the Dice-rolling skill is skipped (使用できるサイコロがない場合、そのスキルは発動できません)",
                state.name(seat),
                top.label(),
                roll.sides
            ));
        }
    }
    out
}

pub(super) fn describe(state: &State, mv: &Move) -> String {
    let name = |s: &Seat| state.name(*s).to_owned();
    let card = |id: &str| state.label(id);
    match mv {
        Move::SkipDiceRoll { player } => format!(
            "{}: no suitable die, the Dice-rolling skill does not fire this turn",
            name(player)
        ),
        Move::PlaceCharacter { player, card: c } => {
            format!("{} places {} in the battle zone", name(player), card(c))
        }
        Move::PlaceSupporter { player, .. } => {
            format!("{} places a supporter face down", name(player))
        }
        Move::PlaceGear { player, card: c } => {
            format!("{} places the gear {}", name(player), card(c))
        }
        Move::PlaceField { player, card: c } => {
            format!("{} places the field {}", name(player), card(c))
        }
        Move::SpendField { player } => {
            format!("{} lowers the field die to use its effect", name(player))
        }
        Move::Awaken { player, card: c } => {
            format!("{} awakens the character into {}", name(player), card(c))
        }
        Move::Haste { player } => {
            format!(
                "{} uses Haste: the supporter turns face up (+1)",
                name(player)
            )
        }
        Move::EndSet { player } => format!("{} is done setting", name(player)),
        Move::DeclareReplacement { player } => {
            format!("{} declares replacement (交代)", name(player))
        }
        Move::Janken { hand0, hand1 } => format!(
            "janken: {} {} — {} {}",
            name(&0),
            hand0.label(),
            name(&1),
            hand1.label()
        ),
        Move::GearEvent { player } => {
            format!("{}'s gear: a durability event (−1)", name(player))
        }
        Move::EndJanken {} => "the janken phase ends".to_owned(),
        Move::Replace { player, card: c } => {
            format!("{} swaps the character for {}", name(player), card(c))
        }
        Move::KeepCharacter { player } => {
            format!("{} keeps the character (no swap)", name(player))
        }
        Move::SpendBullet { player } => {
            let text = state
                .top(*player)
                .map(|c| c.text.clone())
                .unwrap_or_default();
            format!("{} removes Bullet counters: {text}", name(player))
        }
        Move::Necromancy {
            player,
            graveyard,
            card: c,
        } => match c {
            Some(c) => format!(
                "{}'s Necromancy turns {} in {}'s graveyard face down",
                name(player),
                card(c),
                name(graveyard)
            ),
            None => format!(
                "{}'s Necromancy turns a random face-down card of {}'s graveyard face up",
                name(player),
                name(graveyard)
            ),
        },
        Move::EndTurn {} => format!(
            "turn {} ends{}",
            state.table.turn,
            skipped_dice_skills(state)
        ),
        Move::Effect {
            player,
            damage,
            self_damage,
            heal,
            draw,
            note,
        } => {
            let mut parts = Vec::new();
            for (label, v) in [
                ("damage to the opponent", damage),
                ("damage to own character", self_damage),
                ("HP back", heal),
                ("draw", draw),
            ] {
                if *v != 0 {
                    parts.push(format!("{label} {v}"));
                }
            }
            format!(
                "{}'s effect: {}",
                name(player),
                crate::core::effect_summary(&parts, note)
            )
        }
        Move::Surrender { player } => format!("{} surrenders", name(player)),
        Move::Pick { player, pile } => format!(
            "{} picks pile {pile} ({} cards)",
            name(player),
            state.pile_size(*pile)
        ),
        Move::ExchangeTake { card: c } => {
            let w = state.draft_winner();
            format!("{} takes {} from {}", name(&w), card(c), name(&other(w)))
        }
        Move::ExchangeGive { card: c } => {
            let w = state.draft_winner();
            format!("{} gives {} to {}", name(&w), card(c), name(&other(w)))
        }
        Move::ExchangeDone {} => "the exchange is done".to_owned(),
        Move::DeckAdd { player, card: c } => {
            format!("{} puts {} in the deck", name(player), card(c))
        }
        Move::DeckRemove { player, card: c } => {
            format!("{} takes {} out of the deck", name(player), card(c))
        }
        Move::BuildDeck { player, cards } => {
            format!("{} builds a deck of {} cards", name(player), cards.0.len())
        }
        Move::DeckDone { player } => format!("{}'s deck is built", name(player)),
        Move::Bonus {
            player,
            card: c,
            atk,
        } if *atk == 0 => {
            format!("{}: the bonus of {} ends", name(player), card(c))
        }
        Move::Bonus {
            player,
            card: c,
            atk,
        } => format!(
            "{}: {} gives {atk:+} attack while it stays in play",
            name(player),
            card(c)
        ),
    }
}
