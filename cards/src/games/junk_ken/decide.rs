//! JUNK-KEN's rules: what a move at the table causes, and which rules it breaks.

use super::card::{AwakenTarget, JunkKenCard};
use super::scratch::*;
use super::state::*;
use crate::core::{Decision, Impossible, Violation};

pub(super) fn awaken_target_ok(target: &AwakenTarget, base: &CardInfo) -> bool {
    match target {
        AwakenTarget::Character(name) => base.name_ja == *name || base.name_en == *name,
        AwakenTarget::Category(cat) => base.data.categories().iter().any(|c| c == cat),
    }
}

/// The house-rule note of placing characters and supporters in the set phase: the seed names
/// the set phase but gives no full turn flow.
const REF_SET_PLACING: &str = "House rule: the rulebook does not settle when a character or supporter is placed (the seed names the set phase, セットフェーズ, but gives no turn flow): the app's default, which the table may change";
const REF_AWAKEN: &str = "覚醒「・覚醒カードを使用するには、そのカードが指定する【キャラクター】または《カテゴリー》のカードが、連続して2ターン以上バトルゾーンにとどまっている必要があります。」";
const REF_HASTE_STACK: &str = "■ヘイストスキル「・この効果はギアカードには適用されず、キャラクター、サポーター同士で重複しません。」";
const REF_BULLET: &str = "■バレットスキル「・バレットスキル・キャラクターは専用マークの付いた手を出したターンの終わりにカウンターを1つ獲得し、その後、指定個数のカウンターを取り除くことで効果をできます。」";

const REF_REPLACE: &str = "交代「・交代を宣言したのちのじゃんけんフェーズ終了時にバトルゾーンにキャラクターカードが場に残っていれば、手札のカードと入れ替えることができます。」";

fn not_in_hand(name: &str, info: &CardInfo) -> Impossible {
    Impossible::new(format!("{name} has no {} in hand", info.label()))
        .ja(format!("{name} の手札に {} はありません", info.name_ja))
}

fn not_in_extra(name: &str, info: &CardInfo) -> Impossible {
    Impossible::new(format!("{} is not in {name}'s extra deck", info.label())).ja(format!(
        "{} は {name} のエクストラデッキにありません",
        info.name_ja
    ))
}

fn no_character(name: &str) -> Impossible {
    Impossible::new(format!("{name} has no character"))
        .ja(format!("{name} のバトルゾーンにキャラクターがいません"))
}

pub(super) fn decide(state: &State, mv: &Move) -> Result<Decision<Event>, Impossible> {
    // After the end the match layer refuses every move by rule `match.over` (overridable).
    let mut t = Scratch::new(state);
    let mut v = Vec::new();
    let step = state.table.step;
    match mv {
        Move::SkipDiceRoll { player } => {
            check_seat(*player)?;
            let before = t.s.table.dice.len();
            t.s.table.dice.retain(|d| {
                !(d.seat == *player && matches!(d.purpose, DiePurpose::DiceSkill { .. }))
            });
            if t.s.table.dice.len() == before {
                return Err(Impossible::new(format!(
                    "{} has no Dice-rolling skill waiting for a die",
                    state.name(*player)
                ))
                .ja(format!(
                    "{} にはサイコロを待つダイスロールスキルがありません",
                    state.name(*player)
                )));
            }
            t.leave_set_start();
        }
        Move::PlaceCharacter { player, card } => {
            check_seat(*player)?;
            let info = state.card(card)?.clone();
            let p = &state.players[*player];
            if !p.holds(card) || p.hand < 1 {
                return Err(not_in_hand(&p.name, &info));
            }
            if !matches!(info.data, JunkKenCard::Character(_)) {
                // Physically possible (a gear card put in the battle zone); applied anyway, it
                // is the character, with a d6 for its HP and no actions printed.
                v.push(
                    Violation::new(
                        "junk-ken.character-kind",
                        format!(
                            "{} puts {}, a {} card, in the battle zone: a card placed there is a character card.",
                            p.name,
                            info.label(),
                            info.data.kind_name()
                        ),
                        "(1)キャラクターカード「・戦闘をするカードです。」「・場に置いたときに振ったサイコロが体力を表します。」",
                    )
                    .ja(format!(
                        "{} がバトルゾーンに置いた {} は{}カードです。バトルゾーンで戦うのはキャラクターカードです。",
                        p.name,
                        info.name_ja,
                        info.data.kind_ja()
                    )),
                );
            }
            if !state.in_set() {
                v.push(wrong_step(
                    state,
                    ["Placing a character", "キャラクターの配置"],
                    ["the set phase (S1)", "セットフェーズ中"],
                    REF_SET_PLACING,
                ));
            }
            if p.character.is_some() {
                v.push(Violation::new(
                    "junk-ken.battle-zone-occupied",
                    format!(
                        "{}'s battle zone already holds a character; a new one is placed only when it is empty.",
                        p.name
                    ),
                    REF_BATTLE_ZONE,
                ).ja(format!(
                    "{} のバトルゾーンにはすでにキャラクターがいます。新しいキャラクターは空いているときにだけ置けます。",
                    p.name
                )));
                // Overridden: the old character goes to the graveyard.
                if let Some(old) = t.s.players[*player].character.take() {
                    t.drop_asks(*player, true);
                    for c in old.stack {
                        t.bury(*player, c);
                    }
                }
            }
            t.s.players[*player].set_done = false;
            t.place_character(*player, card, &info);
        }
        Move::PlaceSupporter { player, card } | Move::PlaceGear { player, card } => {
            check_seat(*player)?;
            let gear = matches!(mv, Move::PlaceGear { .. });
            let info = state.card(card)?.clone();
            let p = &state.players[*player];
            if !p.holds(card) || p.hand < 1 {
                return Err(not_in_hand(&p.name, &info));
            }
            if gear && !matches!(info.data, JunkKenCard::Gear(_)) {
                // Physically possible (a character card put face up in the support zone);
                // applied anyway, it is a supporter.
                v.push(
                    Violation::new(
                        "junk-ken.gear-kind",
                        format!(
                            "{} places {}, a {} card, as a gear: only a gear card is placed face up with a durability die.",
                            p.name,
                            info.label(),
                            info.data.kind_name()
                        ),
                        "ギアカード「・セットフェーズ中にサポートゾーンに空きがあれば、ギアカードを置くことができます。この時カードは表向きにし、サイコロを記載の耐久度(五角形内の数字)と同じ数字を上にしてカードの上に置きます。」",
                    )
                    .ja(format!(
                        "{} がギアとして置いた {} は{}カードです。表向きに耐久度のサイコロと置くのはギアカードだけです。",
                        p.name,
                        info.name_ja,
                        info.data.kind_ja()
                    )),
                );
            }
            if !state.in_set() {
                v.push(if gear {
                    wrong_step(
                        state,
                        ["Placing a gear", "ギアカードの配置"],
                        ["the set phase (S1)", "セットフェーズ中"],
                        "ギアカード「・セットフェーズ中にサポートゾーンに空きがあれば、ギアカードを置くことができます。」",
                    )
                } else {
                    wrong_step(
                        state,
                        ["Placing a supporter", "サポーターの配置"],
                        ["the set phase (S1)", "セットフェーズ中"],
                        REF_SET_PLACING,
                    )
                });
            }
            match &p.support {
                Support::Empty => {}
                Support::Gear { .. } => v.push(Violation::new(
                    "junk-ken.support-zone-occupied",
                    format!(
                        "{}'s support zone holds a gear; while it is there no other card may be placed in the support zone.",
                        p.name
                    ),
                    "ギアカード「・自分のサポートゾーンにギアカードがある間、新たにほかのカードをサポートゾーンに置くことはできません。」",
                ).ja(format!(
                    "{} のサポートゾーンにはギアがあります。ギアがある間、サポートゾーンにほかのカードは置けません。",
                    p.name
                ))),
                Support::Supporter { .. } => v.push(Violation::new(
                    "junk-ken.support-zone-occupied",
                    format!(
                        "{}'s support zone already holds a supporter; a card is placed only when it is empty.",
                        p.name
                    ),
                    REF_SUPPORT_ZONE,
                ).ja(format!(
                    "{} のサポートゾーンにはすでにサポーターがいます。カードは空いているときにだけ置けます。",
                    p.name
                ))),
            }
            match std::mem::take(&mut t.s.players[*player].support) {
                Support::Supporter { card, .. } => t.bury(*player, card),
                Support::Gear { card, .. } => t.s.players[*player].removed.push(card),
                Support::Empty => {}
            }
            let p = &mut t.s.players[*player];
            p.take_unplayed(card);
            p.hand -= 1;
            p.support = match &info.data {
                JunkKenCard::Gear(g) if gear => Support::Gear {
                    card: card.clone(),
                    durability: i32::from(g.durability),
                },
                _ => Support::Supporter {
                    card: card.clone(),
                    age: 0,
                    won: false,
                    face_up: false,
                },
            };
        }
        Move::PlaceField { player, card } => {
            check_seat(*player)?;
            let info = state.card(card)?.clone();
            let p = &state.players[*player];
            if !p.has_extra(card) {
                return Err(not_in_extra(&p.name, &info));
            }
            let JunkKenCard::Field(field) = &info.data else {
                return Err(Impossible::new(format!(
                    "{} is a {} card, not a field card: it has no count for the field zone",
                    info.label(),
                    info.data.kind_name()
                ))
                .ja(format!(
                    "{} は{}カードで、フィールドカードではありません。フィールドゾーンのカウントがありません",
                    info.name_ja,
                    info.data.kind_ja()
                )));
            };
            if !state.in_set() {
                v.push(wrong_step(
                    state,
                    ["Placing a field", "フィールドカードの配置"],
                    ["the set phase (S1)", "セットフェーズ中"],
                    "フィールドカード「・セットフェーズ中にフィールドゾーンに空きがあれば、フィールドカードを置くことができます。」",
                ));
            }
            if let Some(f) = &p.field {
                v.push(Violation::new(
                    "junk-ken.field-zone-occupied",
                    format!(
                        "{}'s field zone already holds {}; a field is placed only when the zone is empty.",
                        p.name,
                        state.label(&f.card)
                    ),
                    "フィールドゾーン「フィールドカードを配置する場所です。各プレイヤー1枚まで置くことができます。」",
                ).ja(format!(
                    "{} のフィールドゾーンにはすでに {} があります。フィールドは各プレイヤー1枚までです。",
                    p.name,
                    state.label_ja(&f.card)
                )));
                if let Some(old) = t.s.players[*player].field.take() {
                    t.s.players[*player].removed.push(old.card);
                }
            }
            let turn = state.table.turn;
            let p = &mut t.s.players[*player];
            if let Ok(i) = p.extra.binary_search(card) {
                p.extra.remove(i);
            }
            p.field = Some(Field {
                card: card.clone(),
                die: i32::from(field.count),
                placed_turn: turn,
            });
            // The attribute duel: an advantaged new field destroys the opposing one, unless
            // that one was placed this same turn.
            let opp = other(*player);
            if let (Some(mine), Some(theirs)) = (field.attribute, t.s.players[opp].field.clone()) {
                let their_attr = match state.cards.get(&theirs.card).map(|c| &c.data) {
                    Some(JunkKenCard::Field(f)) => f.attribute,
                    _ => None,
                };
                if let Some(a) = their_attr
                    && mine.beats(a)
                {
                    if theirs.placed_turn == turn {
                        t.notes.push(format!(
                            "{} has the advantage over {}, but both were placed this turn: no destruction",
                            info.label(),
                            state.label(&theirs.card)
                        ));
                    } else {
                        t.s.players[opp].field = None;
                        t.notes.push(format!(
                            "{} has the advantage: {}'s {} is destroyed",
                            info.label(),
                            state.name(opp),
                            state.label(&theirs.card)
                        ));
                        if state.rules.field_duel_removes {
                            t.s.players[opp].removed.push(theirs.card);
                        } else {
                            t.bury(opp, theirs.card);
                        }
                    }
                }
            }
        }
        Move::SpendField { player } => {
            check_seat(*player)?;
            let p = &state.players[*player];
            let Some(f) = &p.field else {
                return Err(Impossible::new(format!("{} has no field card", p.name))
                    .ja(format!("{} にはフィールドカードがありません", p.name)));
            };
            let spend = match state.cards.get(&f.card).map(|c| &c.data) {
                Some(JunkKenCard::Field(fd)) => fd.spend,
                _ => 1,
            };
            if !state.in_set() {
                v.push(wrong_step(
                    state,
                    [
                        "Using a field effect (lowering its die)",
                        "フィールド効果の発動（サイコロの数字を減らす）",
                    ],
                    ["the set phase (S1)", "セットフェーズ中"],
                    "フィールドカード「セットフェーズ中、サイコロの数字を減らして効果を発動することができます。」",
                ));
            }
            if spend == 0 {
                v.push(Violation::new(
                    "junk-ken.field-always-on",
                    format!(
                        "{}'s field {}: its effect is always on while it is in play; it is not used by lowering the die.",
                        p.name,
                        state.label(&f.card)
                    ),
                    HOUSE_RULE,
                ).ja(format!(
                    "{} のフィールド {} の効果は場にある間つねに有効です。サイコロを減らして使う効果ではありません。",
                    p.name,
                    state.label_ja(&f.card)
                )));
            }
            let spend = i32::from(spend.max(1));
            let die = f.die - spend;
            let card = f.card.clone();
            if die < 1 {
                t.s.players[*player].field = None;
                t.s.players[*player].removed.push(card.clone());
                t.notes.push(format!(
                    "the die falls below 1: {} is removed from the game",
                    state.label(&card)
                ));
            } else if let Some(f) = t.s.players[*player].field.as_mut() {
                f.die = die;
            }
        }
        Move::Awaken { player, card } => {
            check_seat(*player)?;
            let info = state.card(card)?.clone();
            let p = &state.players[*player];
            if !p.has_extra(card) {
                return Err(not_in_extra(&p.name, &info));
            }
            let JunkKenCard::Awakening(aw) = &info.data else {
                return Err(Impossible::new(format!(
                    "{} is a {} card, not an awakening card: it names no character to awaken",
                    info.label(),
                    info.data.kind_name()
                ))
                .ja(format!(
                    "{} は{}カードで、覚醒カードではありません。覚醒させるキャラクターの指定がありません",
                    info.name_ja,
                    info.data.kind_ja()
                )));
            };
            let Some(ch) = &p.character else {
                return Err(
                    Impossible::new(format!("{} has no character to awaken", p.name))
                        .ja(format!("{} には覚醒させるキャラクターがいません", p.name)),
                );
            };
            let base = state.card(ch.top())?.clone();
            if !state.in_set() {
                v.push(wrong_step(
                    state,
                    ["Awakening", "覚醒"],
                    ["the set phase (S1)", "セットフェーズ中"],
                    "覚醒「・セットフェーズ中に、宣言をして覚醒カードを場のキャラクターカードの上に重ねて場に出します。」",
                ));
            }
            if !awaken_target_ok(&aw.target, &base) {
                v.push(
                    Violation::new(
                        "junk-ken.awaken-target",
                        format!(
                            "{} awakens {}; the character in the battle zone is {}.",
                            info.label(),
                            aw.target,
                            base.label()
                        ),
                        REF_AWAKEN,
                    )
                    .ja(format!(
                        "{} が覚醒させるのは {} です。バトルゾーンのキャラクターは {} です。",
                        info.name_ja, aw.target, base.name_ja
                    )),
                );
            }
            let need = u32::from(state.rules.awaken_turns);
            if ch.turns < need {
                v.push(Violation::new(
                    "junk-ken.awaken-turns",
                    format!(
                        "A character awakens after {need} turns in a row in the battle zone; {}'s {} has been there {} turn(s).",
                        p.name,
                        base.label(),
                        ch.turns
                    ),
                    REF_AWAKEN,
                ).ja(format!(
                    "覚醒できるのはバトルゾーンに連続して{need}ターン以上いたキャラクターです。{} の {} は{}ターンです。",
                    p.name,
                    base.name_ja,
                    ch.turns
                )));
            }
            if state.owes_hp(*player) {
                return Err(Impossible::new(format!(
                    "{} rolls the character's HP die first",
                    p.name
                ))
                .ja(format!(
                    "{} はまずキャラクターの体力のサイコロを振ります",
                    p.name
                )));
            }
            let p = &mut t.s.players[*player];
            if let Ok(i) = p.extra.binary_search(card) {
                p.extra.remove(i);
            }
            let new_bullet = info.bullet().map(|(level, _, _)| level);
            let new_clockwise = info.clockwise();
            if let Some(ch) = p.character.as_mut() {
                ch.stack.push(card.clone());
                ch.hp_die = aw.hp_die;
                ch.hp_rolled = false;
                ch.bullet = new_bullet.map_or(0, |max| ch.bullet.min(max));
                ch.rotation = match (ch.rotation, new_clockwise) {
                    (Some(r), true) => Some(r),
                    (None, true) => Some(90),
                    (_, false) => None,
                };
                ch.dice_active = false;
            }
            t.remove_gear(*player, "its character awakened");
            t.ask(*player, aw.hp_die, DiePurpose::Hp);
        }
        Move::Haste { player } => {
            check_seat(*player)?;
            let p = &state.players[*player];
            let (card, face_up) = match &p.support {
                Support::Supporter { card, face_up, .. } => (card.clone(), *face_up),
                Support::Gear { card, .. } => {
                    v.push(
                        Violation::new(
                            "junk-ken.haste-gear",
                            format!(
                                "{}'s support zone holds the gear {}: Haste never applies to gear cards.",
                                p.name,
                                state.label(card)
                            ),
                            REF_HASTE_STACK,
                        )
                        .ja(format!(
                            "{} のサポートゾーンにあるのはギアカード {} です。ヘイストはギアカードには適用されません。",
                            p.name,
                            state.label_ja(card)
                        )),
                    );
                    return Ok(t.done(v));
                }
                Support::Empty => {
                    return Err(Impossible::new(format!("{} has no supporter", p.name))
                        .ja(format!("{} にはサポーターがいません", p.name)));
                }
            };
            if face_up {
                v.push(
                    Violation::new(
                        "junk-ken.haste-stack",
                        format!(
                            "{}'s supporter is already face up: Haste does not stack.",
                            p.name
                        ),
                        REF_HASTE_STACK,
                    )
                    .ja(format!(
                        "{} のサポーターはすでに表向きです。ヘイストは重複しません。",
                        p.name
                    )),
                );
                return Ok(t.done(v));
            }
            let char_haste = state.top(*player).is_some_and(CardInfo::haste);
            let sup_haste = state.cards.get(&card).is_some_and(CardInfo::haste);
            if !char_haste && !sup_haste {
                v.push(Violation::new(
                    "junk-ken.haste-icon",
                    // The supporter is face down: the sentence names the character only.
                    format!(
                        "Haste needs the Haste icon on {}'s character or on the face-down supporter itself; the character {} has none, nor has the supporter.",
                        p.name,
                        state.top(*player).map_or_else(|| "(none)".to_owned(), CardInfo::label)
                    ),
                    "■ヘイストスキル「・自分のサポートカードを表向きに置いて、サポーターの「ATK」「DRAW」「HP」のいずれかの数値を+1するスキルです。」「・ヘイストスキルカードがサポートゾーンに置かれる時、ヘイストスキル・キャラクターのサポーターと同様に振る舞います。」",
                ).ja(format!(
                    "ヘイストには、{} のキャラクターか裏向きのサポーター自身にヘイストのアイコンが必要です。キャラクター {} にもサポーターにもありません。",
                    p.name,
                    state.top(*player).map_or_else(|| "（なし）".to_owned(), |c| c.name_ja.clone())
                )));
            }
            if !state.in_set() && !state.rules.haste_any_time {
                v.push(wrong_step(
                    state,
                    ["Haste", "ヘイスト"],
                    [
                        "the set phase (S1) (house rule haste_any_time)",
                        "セットフェーズ中（ハウスルールでいつでも使えるようにできます）",
                    ],
                    HOUSE_RULE,
                ));
            }
            if let Support::Supporter { face_up, .. } = &mut t.s.players[*player].support {
                *face_up = true;
            }
        }
        Move::EndSet { player } => {
            check_seat(*player)?;
            let p = &state.players[*player];
            if step != Step::Set {
                return Err(Impossible::new(format!(
                    "the set phase is not open ({}): there is nothing to end",
                    step_text(state)
                ))
                .ja(format!(
                    "セットフェーズではありません（{}）。終えるものがありません",
                    step_text_ja(state)
                )));
            }
            if p.set_done {
                return Err(Impossible::new(format!(
                    "{} already declared the set phase done",
                    p.name
                ))
                .ja(format!(
                    "{} はすでにセットフェーズの終了を宣言しています",
                    p.name
                )));
            }
            if state.owes_hp(*player) {
                return Err(Impossible::new(format!("{} still owes the HP die", p.name))
                    .ja(format!("{} はまだ体力のサイコロを振っていません", p.name)));
            }
            if state.rules.must_place && p.character.is_none() && p.hand > 0 {
                v.push(Violation::new(
                    "junk-ken.must-place",
                    format!(
                        "{}'s battle zone is empty and the hand holds {} card(s): a character must be placed.",
                        p.name, p.hand
                    ),
                    HOUSE_RULE,
                ).ja(format!(
                    "{} のバトルゾーンは空で、手札が{}枚あります。キャラクターを置いてください。",
                    p.name, p.hand
                )));
            }
            t.s.players[*player].set_done = true;
            t.maybe_janken();
        }
        Move::DeclareReplacement { player } => {
            check_seat(*player)?;
            let p = &state.players[*player];
            let Some(ch) = &p.character else {
                return Err(no_character(&p.name));
            };
            if p.replacing {
                return Err(
                    Impossible::new(format!("{} already declared replacement", p.name))
                        .ja(format!("{} はすでに交代を宣言しています", p.name)),
                );
            }
            if step != Step::Janken {
                v.push(wrong_step(
                    state,
                    ["Declaring replacement", "交代の宣言"],
                    [
                        "the janken phase, before the throw",
                        "じゃんけんフェーズの、手を出す前",
                    ],
                    "交代「・交代を宣言したじゃんけんフェーズでは自分の効果を発動することや、相手にダメージを与えることはできません。」",
                ));
            }
            if ch.stack.len() > 1 {
                let top = state.top(*player);
                v.push(
                    Violation::new(
                        "junk-ken.awakened-replacement",
                        format!(
                            "{}'s character {} is awakened: an awakened character may not declare replacement.",
                            p.name,
                            top.map_or_else(String::new, CardInfo::label)
                        ),
                        "覚醒「・覚醒キャラクターは交代を選択することができません。」",
                    )
                    .ja(format!(
                        "{} のキャラクター {} は覚醒しています。覚醒キャラクターは交代を選択することができません。",
                        p.name,
                        top.map_or_else(String::new, |c| c.name_ja.clone())
                    )),
                );
            }
            t.s.players[*player].replacing = true;
            t.s.players[*player].declared_replacement = true;
        }
        Move::Janken { hand0, hand1 } => {
            match step {
                Step::Janken => {}
                Step::Set => {
                    // Physically possible (the hands are thrown before both ended the set
                    // phase); applied anyway, the set phase closes with the throw.
                    let open: Vec<&str> = state
                        .players
                        .iter()
                        .filter(|p| !p.set_done)
                        .map(|p| p.name.as_str())
                        .collect();
                    v.push(
                        Violation::new(
                            "junk-ken.janken-before-set-end",
                            format!(
                                "Janken is thrown in the janken phase, after the set phase; {} has not ended the set phase.",
                                open.join(" and ")
                            ),
                            HOUSE_RULE,
                        )
                        .ja(format!(
                            "じゃんけんはセットフェーズの後のじゃんけんフェーズで出します。{} はまだセットフェーズを終えていません。",
                            open.join("と")
                        )),
                    );
                    if let Some(seat) = (0..2).find(|&s| state.owes_hp(s)) {
                        return Err(Impossible::new(format!(
                            "{}'s character has no HP yet: its HP die is still to be rolled",
                            state.name(seat)
                        ))
                        .ja(format!(
                            "{} のキャラクターの体力はまだ決まっていません。体力のサイコロを振ってください",
                            state.name(seat)
                        )));
                    }
                    for p in &mut t.s.players {
                        p.set_done = true;
                    }
                }
                _ => {
                    return Err(Impossible::new(format!(
                        "janken is thrown once a turn, in the janken phase, not at {}",
                        step_text(state)
                    ))
                    .ja(format!(
                        "じゃんけんはターンに1回、じゃんけんフェーズで出します。いまは {} です",
                        step_text_ja(state)
                    )));
                }
            }
            t.resolve([*hand0, *hand1]);
        }
        Move::GearEvent { player } => {
            check_seat(*player)?;
            let p = &state.players[*player];
            let Support::Gear { durability, card } = &p.support else {
                return Err(Impossible::new(format!("{} has no gear", p.name))
                    .ja(format!("{} にはギアがありません", p.name)));
            };
            if *durability < 1 {
                return Err(Impossible::new(format!(
                    "{}'s durability is already below 1; it leaves at the turn end",
                    state.label(card)
                ))
                .ja(format!(
                    "{} の耐久度はすでに1を下回っています。ターンの終了時に除外されます",
                    state.label_ja(card)
                )));
            }
            if let Support::Gear { durability, .. } = &mut t.s.players[*player].support {
                *durability -= 1;
                if *durability < 1 {
                    t.notes.push(
                        "durability below 1: the gear is removed at the end of this turn"
                            .to_owned(),
                    );
                }
            }
        }
        Move::EndJanken {} => {
            if step != Step::Resolve {
                return Err(Impossible::new(format!(
                    "the janken phase ends after the throw, not at {}",
                    step_text(state)
                ))
                .ja(format!(
                    "じゃんけんフェーズが終わるのは手を出した後です。いまは {} です",
                    step_text_ja(state)
                )));
            }
            t.end_janken();
        }
        Move::Replace { player, card } => {
            check_seat(*player)?;
            let info = state.card(card)?.clone();
            let p = &state.players[*player];
            if !p.holds(card) || p.hand < 1 {
                return Err(not_in_hand(&p.name, &info));
            }
            if !matches!(info.data, JunkKenCard::Character(_)) {
                return Err(Impossible::new(format!(
                    "{} is a {} card, not a character card: it has no actions to swap in",
                    info.label(),
                    info.data.kind_name()
                ))
                .ja(format!(
                    "{} は{}カードで、キャラクターカードではありません。入れ替えるキャラクターになりません",
                    info.name_ja,
                    info.data.kind_ja()
                )));
            }
            // A swap of a character still in the battle zone without a declared replacement
            // (or before the janken phase's end) is physically possible and forbidden; applied
            // anyway, the swap is made. With the character destroyed: a violation below.
            let swap_now = step == Step::Replace && p.replacing;
            if p.character.is_some() && !swap_now {
                let why = if p.declared_replacement || p.replacing {
                    (
                        format!(
                            "{} declared replacement, and the swap is made at the end of the janken phase; the match is at {}.",
                            p.name,
                            step_text(state)
                        ),
                        format!(
                            "{} は交代を宣言しました。入れ替えはじゃんけんフェーズ終了時です。いまは {} です。",
                            p.name,
                            step_text_ja(state)
                        ),
                    )
                } else {
                    (
                        format!(
                            "{} declared no replacement this turn: a character is swapped only after a declared replacement, at the end of the janken phase.",
                            p.name
                        ),
                        format!(
                            "{} はこのターン交代を宣言していません。キャラクターを入れ替えられるのは、交代を宣言したのちのじゃんけんフェーズ終了時だけです。",
                            p.name
                        ),
                    )
                };
                v.push(Violation::new("junk-ken.replace-timing", why.0, REF_REPLACE).ja(why.1));
            }
            let rules = state.rules.clone();
            let Some(old) = t.s.players[*player].character.take() else {
                // The character was destroyed in the janken phase: nothing is left to swap.
                // Applied anyway, the card is placed as a new character (with its HP die).
                v.push(
                    Violation::new(
                        "junk-ken.replace-destroyed",
                        format!(
                            "{}'s character was destroyed: a replacement swaps only a character still in the battle zone at the end of the janken phase.",
                            p.name
                        ),
                        REF_REPLACE,
                    )
                    .ja(format!(
                        "{} のキャラクターは破壊されました。交代できるのは、じゃんけんフェーズ終了時にバトルゾーンに残っているキャラクターだけです。",
                        p.name
                    )),
                );
                t.s.players[*player].replacing = false;
                t.place_character(*player, card, &info);
                if step == Step::Replace
                    && !t
                        .s
                        .players
                        .iter()
                        .any(|p| p.replacing && p.character.is_some())
                {
                    t.begin_turn_end();
                }
                return Ok(t.done(v));
            };
            t.remove_gear(*player, "its character left the battle zone");
            let old_clockwise = state.top(*player).is_some_and(CardInfo::clockwise);
            for c in &old.stack {
                if t.is_extra(c) {
                    t.s.players[*player].removed.push(c.clone());
                } else if rules.replaced_to_hand {
                    let p = &mut t.s.players[*player];
                    p.put_unplayed(c.clone());
                    p.hand += 1;
                } else {
                    t.bury(*player, c.clone());
                }
            }
            let new_bullet = info.bullet().map(|(l, _, _)| l);
            let p = &mut t.s.players[*player];
            p.take_unplayed(card);
            p.hand -= 1;
            p.replacing = false;
            p.character = Some(Character {
                stack: vec![card.clone()],
                hp: old.hp,
                hp_die: info.data.hp_die().unwrap_or(6),
                hp_rolled: old.hp_rolled,
                turns: 0,
                rotation: match (old_clockwise, info.clockwise()) {
                    (true, true) => old.rotation,
                    (_, true) => Some(90),
                    _ => None,
                },
                bullet: match new_bullet {
                    Some(max) if rules.bullet_on_replacement => old.bullet.min(max),
                    _ => 0,
                },
                dice_active: false,
            });
            if swap_now
                && !t
                    .s
                    .players
                    .iter()
                    .any(|p| p.replacing && p.character.is_some())
            {
                t.begin_turn_end();
            }
        }
        Move::KeepCharacter { player } => {
            check_seat(*player)?;
            let p = &state.players[*player];
            if step != Step::Replace || !p.replacing {
                return Err(Impossible::new(format!(
                    "{} has no replacement to carry out now: there is nothing to keep",
                    p.name
                ))
                .ja(format!(
                    "{} にはいま行う交代がありません。キャラクターをそのままにする選択はありません",
                    p.name
                )));
            }
            t.s.players[*player].replacing = false;
            if !t
                .s
                .players
                .iter()
                .any(|p| p.replacing && p.character.is_some())
            {
                t.begin_turn_end();
            }
        }
        Move::SpendBullet { player } => {
            check_seat(*player)?;
            let p = &state.players[*player];
            let Some((top, ch)) = state.top(*player).zip(p.character.as_ref()) else {
                return Err(no_character(&p.name));
            };
            let Some((_, _, cost)) = top.bullet() else {
                return Err(Impossible::new(format!(
                    "{}'s {} has no Bullet skill: it holds no counters",
                    p.name,
                    top.label()
                ))
                .ja(format!(
                    "{} の {} はバレットスキルを持っていません。カウンターがありません",
                    p.name, top.name_ja
                )));
            };
            if step != Step::TurnEnd && !state.rules.bullet_any_time {
                v.push(wrong_step(
                    state,
                    ["Spending Bullet counters", "バレットのカウンターを取り除くこと"],
                    [
                        "the turn end, after the counter is gained (house rule bullet_any_time)",
                        "ターンの終わり、カウンターを獲得した後（ハウスルールでいつでもできるようにできます）",
                    ],
                    REF_BULLET,
                ));
            }
            if ch.bullet < cost {
                v.push(
                    Violation::new(
                        "junk-ken.bullet-counters",
                        format!(
                            "{}'s {} effect costs {cost} counter(s); it holds {}.",
                            p.name,
                            top.label(),
                            ch.bullet
                        ),
                        REF_BULLET,
                    )
                    .ja(format!(
                        "{} の {} の効果にはカウンターが{cost}個必要です。いまは{}個です。",
                        p.name, top.name_ja, ch.bullet
                    )),
                );
            }
            if let Some(ch) = t.s.players[*player].character.as_mut() {
                ch.bullet = ch.bullet.saturating_sub(cost);
            }
        }
        Move::Necromancy {
            player,
            graveyard,
            card,
        } => {
            check_seat(*player)?;
            check_seat(*graveyard)?;
            let p = &state.players[*player];
            let top = state.top(*player);
            let has_icon = top.and_then(CardInfo::necromancy).is_some();
            match top {
                None => v.push(
                    Violation::new(
                        "junk-ken.necromancy-destroyed",
                        format!(
                            "{} has no character in the battle zone: Necromancy does not work once the character is destroyed.",
                            p.name
                        ),
                        "■ネクロマンシースキル Q&A「ネクロマンシースキルの発動ターンにキャラクターが破壊されてしまいました。」「その場合、カードを裏返す効果の発動はできません」",
                    )
                    .ja(format!(
                        "{} のバトルゾーンにキャラクターがいません。キャラクターが破壊された場合、ネクロマンシーは発動できません。",
                        p.name
                    )),
                ),
                Some(info) if !has_icon => v.push(
                    Violation::new(
                        "junk-ken.necromancy-skill",
                        format!("{}'s character {} has no Necromancy skill.", p.name, info.label()),
                        "■ネクロマンシースキル「ネクロマンシースキル・キャラクターは専用マークの付いた手を出したターンの終わりに、自分か相手の墓地のカードを1枚選んで裏返すことができます」",
                    )
                    .ja(format!(
                        "{} のキャラクター {} はネクロマンシースキルを持っていません。",
                        p.name,
                        info.name_ja
                    )),
                ),
                Some(_) => {}
            }
            if state
                .table
                .dice
                .iter()
                .any(|d| matches!(d.purpose, DiePurpose::Necromancy { .. }) && d.seat == *player)
            {
                return Err(
                    Impossible::new("the Necromancy pick is waiting for its die")
                        .ja("ネクロマンシーの選択がサイコロを待っています"),
                );
            }
            if let Some(info) = top.filter(|_| has_icon)
                && (!p.necromancy_ready || step != Step::TurnEnd)
            {
                let marked = info.necromancy().unwrap_or_default();
                let marked_text: Vec<String> = marked.iter().map(ToString::to_string).collect();
                let marked_text = marked_text.join(", ");
                let marked_ja: Vec<&str> = marked.iter().map(|h| h.label_ja()).collect();
                let marked_ja = marked_ja.join("・");
                let (why, why_ja) = if step != Step::TurnEnd {
                    (
                        format!("the match is at {}", step_text(state)),
                        format!("いまは {} です", step_text_ja(state)),
                    )
                } else if p.declared_replacement {
                    (
                        format!("{} declared replacement this turn", p.name),
                        format!("{} はこのターン交代を選択しました", p.name),
                    )
                } else {
                    match p.thrown {
                        Some(h) if marked.contains(&h) => (
                            format!("{} already used it this turn", p.name),
                            format!("{} はこのターンすでに使いました", p.name),
                        ),
                        Some(h) => (
                            format!(
                                "{} threw {h} this turn, not the marked {marked_text}",
                                p.name
                            ),
                            format!(
                                "{} がこのターン出した手は{}で、専用マークの{marked_ja}ではありません",
                                p.name,
                                h.label_ja()
                            ),
                        ),
                        None => (
                            format!("{} threw no hand this turn", p.name),
                            format!("{} はこのターン手を出していません", p.name),
                        ),
                    }
                };
                v.push(Violation::new(
                    "junk-ken.necromancy-trigger",
                    format!(
                        "{}'s {} uses Necromancy once, at the end of a turn in which it threw its marked hand ({marked_text}), was not replacing and survived; {why}.",
                        p.name,
                        info.label()
                    ),
                    "■ネクロマンシースキル「・ネクロマンシースキル・キャラクターは専用マークの付いた手を出したターンの終わりに、自分か相手の墓地のカードを1枚選んで裏返すことができます。」",
                ).ja(format!(
                    "{} の {} のネクロマンシーは、専用マークの手（{marked_ja}）を出し、交代を選ばず、破壊されなかったターンの終わりに1回だけ使えます。{why_ja}。",
                    p.name,
                    info.name_ja
                )));
            }
            let g = &state.players[*graveyard].graveyard;
            match card {
                Some(id) => {
                    if let Some(i) = g.iter().position(|c| &c.card == id && !c.face_down) {
                        t.s.players[*graveyard].graveyard[i].face_down = true;
                    } else if let Some(i) = g.iter().position(|c| &c.card == id) {
                        // Physically possible (the card lies there face down), but a face-down
                        // card has no name: choosing one picks among them at random. Applied
                        // anyway, the named card is the one chosen and turns face up.
                        v.push(
                            Violation::new(
                                "junk-ken.necromancy-face-down",
                                format!(
                                    "{} in {}'s graveyard is face down: a face-down card cannot be chosen by name; choosing a face-down card picks one of them at random.",
                                    state.label(id),
                                    state.name(*graveyard)
                                ),
                                "■ネクロマンシースキル「すでに裏向きになっているカードを選択する際、そのプレイヤーの墓地の裏向きになっているカードすべての中からランダムに選びます」",
                            )
                            .ja(format!(
                                "{} の墓地の {} は裏向きです。裏向きのカードは名前で選べません。裏向きのカードを選ぶときは、その中からランダムに選びます。",
                                state.name(*graveyard),
                                state.label_ja(id)
                            )),
                        );
                        t.s.players[*graveyard].graveyard[i].face_down = false;
                    } else {
                        return Err(Impossible::new(format!(
                            "{}'s graveyard holds no {}",
                            state.name(*graveyard),
                            state.label(id)
                        ))
                        .ja(format!(
                            "{} の墓地に {} はありません",
                            state.name(*graveyard),
                            state.label_ja(id)
                        )));
                    }
                }
                None => {
                    let down: Vec<usize> = g
                        .iter()
                        .enumerate()
                        .filter(|(_, c)| c.face_down)
                        .map(|(i, _)| i)
                        .collect();
                    match down.len() {
                        0 => {
                            return Err(Impossible::new(format!(
                                "{}'s graveyard holds no face-down card",
                                state.name(*graveyard)
                            ))
                            .ja(format!(
                                "{} の墓地に裏向きのカードはありません",
                                state.name(*graveyard)
                            )));
                        }
                        1 => t.s.players[*graveyard].graveyard[down[0]].face_down = false,
                        n => t.ask(
                            *player,
                            u8::try_from(n).unwrap_or(u8::MAX),
                            DiePurpose::Necromancy {
                                graveyard: *graveyard,
                            },
                        ),
                    }
                }
            }
            t.s.players[*player].necromancy_ready = false;
        }
        Move::EndTurn {} => {
            if step != Step::TurnEnd {
                return Err(Impossible::new(format!(
                    "the turn ends after the janken phase, not at {}",
                    step_text(state)
                ))
                .ja(format!(
                    "ターンが終わるのはじゃんけんフェーズの後です。いまは {} です",
                    step_text_ja(state)
                )));
            }
            if state
                .table
                .dice
                .iter()
                .any(|d| matches!(d.purpose, DiePurpose::Necromancy { .. }))
            {
                return Err(
                    Impossible::new("the Necromancy pick is waiting for its die")
                        .ja("ネクロマンシーの選択がサイコロを待っています"),
                );
            }
            t.end_turn();
        }
        Move::Effect {
            player,
            damage,
            self_damage,
            heal,
            draw,
            ..
        } => {
            check_seat(*player)?;
            if let Some(x) = [*damage, *self_damage, *heal, *draw]
                .iter()
                .find(|x| x.unsigned_abs() > MAX_CHANGE.unsigned_abs())
            {
                return Err(
                    Impossible::new(format!("a change of {x} is outside ±{MAX_CHANGE}"))
                        .ja(format!("{x}の変化は±{MAX_CHANGE}の範囲外です")),
                );
            }
            let p = &state.players[*player];
            if p.replacing && matches!(step, Step::Janken | Step::Resolve) {
                v.push(Violation::new(
                    "junk-ken.replacement-suppresses",
                    format!(
                        "{} declared replacement: in this janken phase their effects cannot be used and they cannot damage the opponent.",
                        p.name
                    ),
                    "交代「交代を宣言したじゃんけんフェーズでは自分の効果を発動することや、相手にダメージを与えることはできません」",
                ).ja(format!(
                    "{} は交代を宣言しました。このじゃんけんフェーズでは自分の効果を発動することも、相手にダメージを与えることもできません。",
                    p.name
                )));
            }
            let mut dmg = [0; 2];
            dmg[other(*player)] = *damage;
            dmg[*player] = *self_damage;
            let mut h = [0; 2];
            h[*player] = *heal;
            t.settle(dmg, h);
            if *draw > 0 && t.s.table.step != Step::Over {
                t.draw(*player, *draw);
            }
        }
        Move::Bonus { player, card, atk } => {
            check_seat(*player)?;
            let label = state.label(card);
            let p = &state.players[*player];
            if !p.in_play(card) {
                return Err(Impossible::new(format!(
                    "{label} is not in {}'s battle, support or field zone: only a card in play gives a bonus",
                    p.name
                ))
                .ja(format!(
                    "{} は {} のバトル・サポート・フィールドゾーンにありません。ボーナスを与えるのは場のカードだけです",
                    state.label_ja(card),
                    p.name
                )));
            }
            if atk.abs() > 9 {
                return Err(Impossible::new(format!("a bonus is −9…9, not {atk}"))
                    .ja(format!("ボーナスは −9〜9 です（{atk} ではありません）")));
            }
            let bonuses = &mut t.s.players[*player].bonuses;
            bonuses.retain(|b| &b.card != card);
            if *atk != 0 {
                bonuses.push(Bonus {
                    card: card.clone(),
                    atk: *atk,
                });
            }
        }
        Move::Surrender { player } => {
            check_seat(*player)?;
            let p = &state.players[*player];
            if !state.rules.draft || p.side > 0 || p.deck > 0 || p.hand > 1 {
                v.push(Violation::new(
                    "junk-ken.surrender",
                    format!(
                        "Surrender is a draft-variant option for a player who took the last side card with no deck and hand left ({}: side {}, deck {}, hand {}).",
                        p.name, p.side, p.deck, p.hand
                    ),
                    "ドラフト「・山札、手札が0枚のときに最後の1枚(2枚目)のサイドを取ったとき「サレンダー(降参)」を選択できる」",
                ).ja(format!(
                    "サレンダーはドラフトで、最後のサイドカードを取り山札も手札もないプレイヤーが選べます（{}：サイド{}、山札{}、手札{}）。",
                    p.name, p.side, p.deck, p.hand
                )));
            }
            t.s.players[*player].surrendered = true;
            t.check_over();
        }
        Move::Pick { .. }
        | Move::ExchangeTake { .. }
        | Move::ExchangeGive { .. }
        | Move::ExchangeDone {}
        | Move::DeckAdd { .. }
        | Move::DeckRemove { .. }
        | Move::BuildDeck { .. }
        | Move::DeckDone { .. } => super::draft::decide(&mut t, mv, &mut v)?,
    }
    Ok(t.done(v))
}
