//! Yomi in the window: the generic panel, with the power-up, pump, discard and deck search
//! picked card by card from the player's unseen cards, and the numbers of its hand-entered
//! effects.

use super::generic::GENERIC;
use super::spec::{CardPick, Field, GameUi, card_ja, effect_ja, field, move_of, state_of};
use crate::ui::i18n::Lang;
use crate::ui::view::View;
use cards::core::{Prompt, Seat};
use cards::games::yomi::card::{End, Timing, YomiCard};
use cards::games::yomi::{DoubleKo, Kind, Move, Pile, State, Step, Yomi};
use cards::matches::{Action, AnyMatch};
use std::collections::BTreeSet;

/// Yomi's entry in the table of games.
pub(crate) const UI: GameUi = GameUi {
    effect_fields: EFFECT,
    picks: PICKS,
    card_name,
    family,
    pickable,
    confirm: &["no-card"],
    tracker_ja,
    label,
    steps,
    prompt,
    outcome,
    rules: super::spec::rules_check::<Yomi>(),
    ..GENERIC
};

/// The numbers of an `effect` move (docs/rules-yomi.md).
const EFFECT: &[Field] = &[
    field("hp", 1, "own HP", "自分の体力"),
    field("opp_hp", 1, "opponent's HP", "相手の体力"),
    field("draw", 1, "cards drawn", "ドロー"),
    field("speed", 1, "speed", "速度"),
    field("combo_damage", 1, "combo damage", "コンボダメージ"),
];

/// The moves that name cards.
const PICKS: &[CardPick] = &[
    CardPick {
        move_type: "power-up",
        list: true,
        extra: &[],
        offered: true,
        en: "powers up with",
        ja: "パワーアップに捨てる",
    },
    CardPick {
        move_type: "pump",
        list: true,
        extra: &[],
        offered: true,
        en: "pumps with",
        ja: "パンプに払う",
    },
    CardPick {
        move_type: "discard",
        list: true,
        extra: &[],
        offered: false,
        en: "discards from hand",
        ja: "手札から捨てる",
    },
    CardPick {
        move_type: "search",
        list: false,
        extra: &[("from", "deck")],
        offered: false,
        en: "searches the deck for",
        ja: "山札から探す",
    },
];

/// A card's names from the match's card list.
fn card_name(game: &dyn AnyMatch, id: &str) -> Option<(String, String)> {
    state_of::<Yomi>(game)?
        .cards
        .get(id)
        .map(|c| (c.name_en.clone(), c.name_ja.clone()))
}

/// A move card is offered under its top move's name (the copies differ by rank and suit), a
/// Joker as one.
fn family(game: &dyn AnyMatch, id: &str) -> Option<(String, String)> {
    let card = state_of::<Yomi>(game)?.cards.get(id)?;
    match &card.data {
        YomiCard::Move(m) if !m.top.name_en.is_empty() => {
            Some((m.top.name_en.clone(), m.top.name_ja.clone()))
        }
        YomiCard::Joker(_) => Some(("Joker".to_owned(), "ジョーカー".to_owned())),
        _ => None,
    }
}

/// A player's cards not seen yet (hand and deck), with their labels.
fn pickable(game: &dyn AnyMatch, seat: Seat, lang: Lang) -> Vec<(String, String)> {
    let name = |en: &str, ja: &str, id: &str| match lang {
        Lang::Ja if !ja.is_empty() => format!("{ja} ({id})"),
        _ if !ja.is_empty() && ja != en => format!("{en} ({ja}) ({id})"),
        _ => format!("{en} ({id})"),
    };
    let Some(state) = state_of::<Yomi>(game) else {
        return Vec::new();
    };
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    if let Some(p) = state.players.get(seat) {
        for id in &p.unseen {
            if seen.insert(id.clone()) {
                let label = state
                    .cards
                    .get(id)
                    .map_or_else(|| id.clone(), |c| name(&c.name_en, &c.name_ja, id));
                out.push((id.clone(), label));
            }
        }
    }
    out
}

/// The Japanese captions of Yomi's numbers without a Japanese label of their own.
fn tracker_ja(name: &str) -> Option<&'static str> {
    Some(match name {
        "turn" => "ターン",
        "discard" => "捨て札",
        "knockdown" => "転倒 (0/1)",
        "combo-points" => "使ったコンボポイント",
        "chain" => "チェインコンボの長さ",
        "aces-owed" => "未解決のエース探索",
        "cancelled" => "ブルーバーストで防いだダメージ",
        _ => return None,
    })
}

/// The match's state when the window is in Japanese (the rules core writes in English).
fn japanese<'a>(view: &View<'a>) -> Option<&'a State> {
    (view.lang == Lang::Ja)
        .then(|| state_of::<Yomi>(view.game))
        .flatten()
}

/// The step in Japanese, with the rulebook's step number.
fn step_ja(state: &State) -> String {
    let t = state.turn;
    match state.step {
        Step::DrawAbilities => format!("ターン{t} 1-2: ドローフェイズ能力"),
        Step::Select => format!("ターン{t} 2-1: 戦闘札選択(両者が伏せる、またはノーカード)"),
        Step::Reveal => format!("ターン{t} 2-2: 戦闘札公開"),
        Step::RevealAbilities => format!("ターン{t} 2-3: 戦闘公開能力"),
        Step::DuringCombat => format!("ターン{t} 2-5: 戦闘中能力"),
        Step::Escape => format!("ターン{t} 3-2: カードを伏せる(負けた側)"),
        Step::Combo => format!("ターン{t} 4-2: コンボ実行(勝った側がパンプアップとコンボ)"),
        Step::BlueBurst => format!("ターン{t} 4-3: 青バースト(伏せたカードを表に)"),
        Step::GoldBurst => format!("ターン{t} 5-1: 金バーストによるA(2枚まで探す)"),
        Step::EndOfCombat => format!("ターン{t} 5-2: 戦闘終了能力(フルコンボ能力も)"),
        Step::PowerUp => format!("ターン{t} 5-4/5-5: チェーンコンボによるAとパワーアップ"),
        Step::EndOfTurn => format!("ターン{t} 5-6: ターン終了時能力"),
        Step::HandLimit => format!("ターン{t} 5-7: 手札制限まで捨てる"),
        Step::Over => "ゲーム終了".to_owned(),
    }
}

/// The step and the next one.
fn steps(view: &View<'_>) -> (String, String) {
    let Some(state) = japanese(view) else {
        return (view.ctx.phase.step.clone(), view.ctx.phase.next.clone());
    };
    let next = match state.step {
        Step::DrawAbilities => "2-1: 戦闘札選択".to_owned(),
        Step::Select => "2-2: 戦闘札公開".to_owned(),
        Step::Reveal | Step::RevealAbilities => "2-4: 勝敗決定".to_owned(),
        Step::DuringCombat => "3-1: 打撃通常技によるドロー、次にカードを伏せる".to_owned(),
        Step::Escape => "4-1/4-2: 防御処理、コンボ実行".to_owned(),
        Step::Combo => "4-3: 青バースト、次にダメージ処理と転倒処理".to_owned(),
        Step::BlueBurst => "4-4: ダメージ処理と転倒処理".to_owned(),
        Step::GoldBurst => "5-2〜5-5: 能力、場のカードを捨てる、パワーアップ".to_owned(),
        Step::EndOfCombat => "5-3: 場のカードを捨て、パワーアップ".to_owned(),
        Step::PowerUp => "5-6/5-7: ターン終了時能力と手札制限".to_owned(),
        Step::EndOfTurn => "5-7: 手札制限".to_owned(),
        Step::HandLimit => format!("ターン{}: 両者がドロー", state.turn + 1),
        Step::Over => "—".to_owned(),
    };
    (step_ja(state), next)
}

/// The abilities of a timing in play, as printed (the catalogue's language), after " — ".
fn abilities(view: &View<'_>, state: &State, timings: &[Timing]) -> String {
    let mut lines = Vec::new();
    for (seat, p) in state.players.iter().enumerate() {
        if let Some(YomiCard::Character(c)) = state.cards.get(&p.character).map(|c| &c.data) {
            for a in &c.abilities {
                if a.timing.is_some_and(|t| timings.contains(&t)) {
                    lines.push(format!("{}: {}", view.name(seat), a.text));
                }
            }
        }
        for e in state.revealed_ends(p) {
            for a in &e.abilities {
                if a.timing.is_some_and(|t| timings.contains(&t)) {
                    let end = if e.name_ja.is_empty() {
                        &e.name_en
                    } else {
                        &e.name_ja
                    };
                    lines.push(format!("{}({end}): {}", view.name(seat), a.text));
                }
            }
        }
    }
    if lines.is_empty() {
        String::new()
    } else {
        format!(" — {}", lines.join(" / "))
    }
}

/// The rules' prompts in Japanese, from the prompt's id and the state.
fn prompt(view: &View<'_>, p: &Prompt) -> String {
    let Some(state) = japanese(view) else {
        return p.text.clone();
    };
    let seat = p.player.unwrap_or(0);
    let who = view.name(seat).to_owned();
    let Some(pl) = state.players.get(seat) else {
        return p.text.clone();
    };
    let id = p.id.as_str();
    let then =
        |what: &str, timings: &[Timing]| format!("{what}{}", abilities(view, state, timings));
    if id.ends_with("-draw-phase") {
        then("ドローフェイズ能力を使い、先へ", &[Timing::DrawPhase])
    } else if id.contains("-choose-") {
        format!("{who}: 戦闘札を1枚、上下どちらかを相手に向けて伏せる(または「ノーカード」を宣言)")
    } else if id.contains("-reveal-") {
        format!("{who}: 伏せた戦闘札を表に返す")
    } else if id.contains("-aces-") && state.step == Step::Reveal {
        format!("{who}: 追加のA札を{}枚出す", pl.aces_pending)
    } else if id.contains("-aces-") {
        format!("{who}: 山札か捨て札からAを{}枚まで探す", pl.aces_owed)
    } else if id.ends_with("-combat-reveal") {
        then(
            "戦闘公開能力を使い(速度はここで変わる)、先へ",
            &[Timing::CombatReveal],
        )
    } else if id.ends_with("-during-combat") {
        then("戦闘中能力が効果を発動し、先へ", &[Timing::DuringCombat])
    } else if id.ends_with("-escape") {
        format!("{who}: 手札からカードを1枚伏せられる(ジョーカーならコンボのダメージを無効化)")
    } else if id.ends_with("-combo") {
        match state.winner() {
            Some((_, Kind::Dodge)) => format!("{who}: 打撃か投げで1回反撃するか、終える"),
            _ => format!(
                "{who}: パンプアップかコンボ(コンボポイント {}/{} 使用)、またはコンボを終える",
                pl.combo_points, pl.combo_limit
            ),
        }
    } else if id.contains("-blue-burst-") {
        format!("{who}: 伏せたカードを表に返す")
    } else if id.ends_with("-gold-burst") {
        "金バースト: Aを探し、先へ".to_owned()
    } else if id.ends_with("-power-up") {
        "パワーアップ(同数値のカード2〜4枚を捨ててA1〜3枚)、先へ".to_owned()
    } else if id.ends_with("-end-of-combat") {
        then(
            "戦闘終了能力とフルコンボ能力を使い、先へ",
            &[Timing::EndOfCombat, Timing::FullCombo],
        )
    } else if id.ends_with("-end-of-turn") {
        then("ターン終了時能力を使い、先へ", &[Timing::EndOfTurn])
    } else if id.contains("-hand-limit-") {
        format!(
            "{who}: {}枚捨てて{}枚にする",
            pl.hand - pl.hand_limit,
            pl.hand_limit
        )
    } else {
        p.text.clone()
    }
}

/// A move's kind as the game calls it.
fn kind_ja(kind: cards::games::yomi::card::MoveKind) -> &'static str {
    use cards::games::yomi::card::MoveKind;
    match kind {
        MoveKind::Attack => "打撃",
        MoveKind::Throw => "投げ",
        MoveKind::Block => "防御",
        MoveKind::Dodge => "回避",
        MoveKind::Ability => "能力",
    }
}

/// A move's button text and log line in Japanese, from the typed move.
fn label(view: &View<'_>, action: &Action) -> String {
    let (Some(state), Some(mv)) = (japanese(view), move_of::<Yomi>(action)) else {
        return action.label.clone();
    };
    let name = |s: Seat| view.name(s).to_owned();
    let card = |id: &str| card_ja(card_name(view.game, id), id);
    let list = |cs: &[String]| cs.iter().map(|c| card(c)).collect::<Vec<_>>().join("、");
    let end_of = |id: &str, end: End| {
        state.end(id, end).map_or_else(
            || card(id),
            |e| {
                let n = if e.name_ja.is_empty() {
                    &e.name_en
                } else {
                    &e.name_ja
                };
                format!("{n}({})", kind_ja(e.kind))
            },
        )
    };
    match mv {
        Move::Proceed {} => format!("完了: {}", step_ja(state)),
        Move::FaceDown { player } => format!("{}が戦闘札を伏せる", name(player)),
        Move::NoCard { player } => format!("{}が「ノーカード」を宣言", name(player)),
        Move::Rechoose { player } => format!("{}が選び直す", name(player)),
        Move::Reveal {
            player, card: c, ..
        } if matches!(
            state.cards.get(&c).map(|i| &i.data),
            Some(YomiCard::Joker(_))
        ) =>
        {
            format!("{}がジョーカーを公開(金バースト)", name(player))
        }
        Move::Reveal {
            player,
            card: c,
            end,
        } => format!("{}が{}を公開: {}", name(player), card(&c), end_of(&c, end)),
        Move::ExtraAce { player, card: c } => {
            format!("{}が追加のA札を出す: {}", name(player), card(&c))
        }
        Move::Escape { player } => format!("{}がカードを伏せる", name(player)),
        Move::NoEscape { player } => format!("{}はカードを伏せない", name(player)),
        Move::Combo {
            player,
            card: c,
            end,
        } => format!(
            "{}が{}でコンボ: {}",
            name(player),
            card(&c),
            end_of(&c, end)
        ),
        Move::Pump { player, cards } => {
            format!("{}がパンプアップ: {}を払う", name(player), list(&cards))
        }
        Move::EndCombo { player } => format!("{}がコンボを終える", name(player)),
        Move::RevealEscape { player, card: c } => {
            format!("{}が伏せたカードを公開: {}", name(player), card(&c))
        }
        Move::Search {
            player,
            card: c,
            from,
        } => format!(
            "{}が{}から{}を探す",
            name(player),
            match from {
                Pile::Deck => "山札",
                Pile::Discard => "捨て札",
            },
            card(&c)
        ),
        Move::ForgoAces { player } => format!("{}は残りのAの探索をやめる", name(player)),
        Move::PowerUp { player, cards } => {
            format!("{}がパワーアップ: {}を捨てる", name(player), list(&cards))
        }
        Move::Discard { player, cards } => {
            format!("{}が{}を捨てる", name(player), list(&cards))
        }
        Move::Draw { player } => format!("{}が手でカードを1枚引く", name(player)),
        Move::Effect {
            player,
            hp,
            opp_hp,
            draw,
            speed,
            combo_damage,
            note,
        } => format!(
            "{}の能力: {}",
            name(player),
            effect_ja(
                &[
                    ("体力", hp),
                    ("相手の体力", opp_hp),
                    ("ドロー", draw),
                    ("速度(0.1単位)", speed),
                    ("コンボダメージ", combo_damage),
                ],
                &note
            )
        ),
    }
}

/// Why the match ended, in Japanese (naming the players).
fn outcome(view: &View<'_>, reason: &str) -> String {
    let Some(state) = japanese(view) else {
        return reason.to_owned();
    };
    let [a, b] = [state.players[0].hp, state.players[1].hp];
    let (na, nb) = (view.name(0), view.name(1));
    let down: Vec<Seat> = (0..2).filter(|&s| state.players[s].hp <= 0).collect();
    if let (true, [loser]) = (reason.contains("(KO)"), down.as_slice()) {
        return format!(
            "{}の体力が{}になった(KO)",
            view.name(*loser),
            state.players[*loser].hp
        );
    }
    if reason.starts_with("both were KO'd;") && state.rules.double_ko == DoubleKo::HigherHpWins {
        let w = if a > b { na } else { nb };
        return format!("両者KO。{w}の体力が多い({a} 対 {b})");
    }
    if reason.starts_with("both were KO'd") {
        return format!("両者が同時にKO({na} {a}、{nb} {b})");
    }
    let who = (0..2)
        .find(|&s| state.players[s].deck <= 0)
        .map_or("", |s| view.name(s));
    let why = format!("時間切れ: {who}の山札が尽きた");
    match a.cmp(&b) {
        std::cmp::Ordering::Greater => format!("{why}。{na}の体力が多い({a} 対 {b})"),
        std::cmp::Ordering::Less => format!("{why}。{nb}の体力が多い({b} 対 {a})"),
        std::cmp::Ordering::Equal => format!("{why}。体力が同じ(各{a})"),
    }
}
