//! The Rockman EXE card game in the window: the generic panel, with the attack bonus stepper,
//! the numbers of its hand-entered effects and its optional rules (Lv1–Lv3) on the start form.

use super::generic::GENERIC;
use super::spec::{Field, GameUi, Param, Start, card_ja, field, move_of, state_of};
use crate::ui::i18n::Lang;
use crate::ui::view::View;
use cards::core::{Prompt, Seat};
use cards::games::rockman::{HAND_SIZE, Move, Rockman, State, Step, step_text_ja};
use cards::matches::{Action, AnyMatch};

/// Rockman EXE's entry in the table of games.
pub(crate) const UI: GameUi = GameUi {
    params: &[Param {
        move_type: "attack",
        key: "bonus",
        en: "attack bonus",
        ja: "攻撃ボーナス",
    }],
    effect_fields: EFFECT,
    card_name,
    start: Start::ReadyMade {
        switches: &SWITCHES,
    },
    tracker_ja,
    label,
    steps,
    prompt,
    outcome,
    rules: super::spec::rules_check::<Rockman>(),
    ..GENERIC
};

/// The optional rules (issue 9: each switchable): the settings key, English, Japanese.
pub(crate) const SWITCHES: [(&str, &str, &str); 4] = [
    (
        "lv1_chip_limit",
        "Lv1: chip level by HP band",
        "Lv1: HP帯によるチップのレベル制限",
    ),
    (
        "lv2_virus_limit",
        "Lv2: virus level by HP band",
        "Lv2: HP帯によるウイルスのレベル制限",
    ),
    (
        "lv2_evolution",
        "Lv2: virus evolution",
        "Lv2: ウイルスの進化",
    ),
    ("lv3_styles", "Lv3: style cards", "Lv3: スタイルカード"),
];

/// The numbers of an `effect` move (docs/rules-rockman.md).
const EFFECT: &[Field] = &[
    field("hp", 10, "own HP gauge", "自分のＨＰ"),
    field("opp_hp", 10, "opponent's HP gauge", "相手のＨＰ"),
    field("draw", 1, "cards drawn", "ドロー"),
];

/// A card's names from the match's card list.
fn card_name(game: &dyn AnyMatch, id: &str) -> Option<(String, String)> {
    state_of::<Rockman>(game)?
        .cards
        .get(id)
        .map(|c| (c.name_en.clone(), c.name_ja.clone()))
}

/// The Japanese captions of Rockman EXE's numbers without a Japanese label of their own.
fn tracker_ja(name: &str) -> Option<&'static str> {
    Some(match name {
        "turn" => "ターン",
        "first" => "先攻(席)",
        "passes" => "連続パス",
        "discard" => "捨札(手で変えない)",
        "chip-level" => "Lv1: チップの最高レベル(HPから)",
        "virus-level" => "Lv2: ウイルスの最高レベル(HPから)",
        _ => return None,
    })
}

/// The match's state when the window is in Japanese (the rules core writes in English).
fn japanese<'a>(view: &View<'a>) -> Option<&'a State> {
    (view.lang == Lang::Ja)
        .then(|| state_of::<Rockman>(view.game))
        .flatten()
}

/// The step and the next one (転送フェイズ, バトルフェイズ, エンドフェイズ).
fn steps(view: &View<'_>) -> (String, String) {
    let Some(state) = japanese(view) else {
        return (view.ctx.phase.step.clone(), view.ctx.phase.next.clone());
    };
    let next = match state.step {
        Step::OpeningNavi => format!("ジャンケンで先攻を決め、両者{HAND_SIZE}枚まで引く"),
        Step::Janken => format!("両者{HAND_SIZE}枚まで引き、先攻が転送する"),
        Step::TransferFirst => "後攻の転送フェイズ".to_owned(),
        Step::TransferSecond => "バトルフェイズ: 先攻から行動".to_owned(),
        Step::Battle => "連続で2回パスするとバトル終了、エンドフェイズへ".to_owned(),
        Step::EndEffects => "全キャラクターを未行動に戻しダメージを消す。次に入れ替え".to_owned(),
        Step::Exchange => format!(
            "ターン{}: 順番決め(HPの少ない方が先攻)、ドロー",
            state.turn + 1
        ),
    };
    (step_text_ja(state), next)
}

/// The rules' prompts in Japanese, from the prompt's id and the state.
fn prompt(view: &View<'_>, p: &Prompt) -> String {
    let Some(state) = japanese(view) else {
        return p.text.clone();
    };
    let seat = p.player.unwrap_or(0);
    let who = view.name(seat).to_owned();
    let id = p.id.as_str();
    if id.starts_with("navi-") {
        format!(
            "{who}: デッキからナビを1体、中央のマス{}に置く",
            state.centre()
        )
    } else if id.ends_with("-janken") && state.turn <= 1 {
        "ジャンケンをする: 勝った方が1ターン目の先攻".to_owned()
    } else if id.ends_with("-janken") {
        "HPもエリアとチップゾーンのカード枚数も同じ: ジャンケンで勝った方が先攻".to_owned()
    } else if id.contains("-transfer-") {
        let Some(pl) = state.players.get(seat) else {
            return p.text.clone();
        };
        let mut can = Vec::new();
        if !pl.placed_character {
            can.push("空いたマスにキャラクター(ナビかウイルス)1枚".to_owned());
        }
        if !pl.placed_chip {
            can.push("チップ1枚を裏向きに".to_owned());
        }
        if state.rules.lv3_styles && !pl.attached_style {
            can.push("ナビにスタイルカード1枚".to_owned());
        }
        if state.rules.lv2_virus_limit {
            can.push(format!("ウイルスはレベル{}まで", state.max_level(seat)));
        }
        let what = if can.is_empty() {
            "もう置けるものはない".to_owned()
        } else {
            can.join("、")
        };
        format!("{who}: {what}を置き、転送を終える")
    } else if id.contains("-battle-") {
        let lv = if state.rules.lv1_chip_limit {
            format!("(チップはレベル{}まで)", state.max_level(seat))
        } else {
            String::new()
        };
        format!("{who}: 行動を1つ — 移動(1枚捨てる)、攻撃、チップ{lv}、バトラー、パス")
    } else if let Some(i) = id.split("-end-effect-").nth(1) {
        let effects = state.end_phase_effects();
        match i.parse::<usize>().ok().and_then(|i| effects.get(i)) {
            Some((s, card, text)) => format!(
                "{}: {}を処理する — {text}",
                view.name(*s),
                card_ja(card_name(view.game, card), card)
            ),
            None => p.text.clone(),
        }
    } else if id.contains("-exchange-") {
        format!("{who}: 要らないカードを捨て(なしでも可)、{HAND_SIZE}枚まで引く")
    } else {
        p.text.clone()
    }
}

/// A move's button text and log line in Japanese, from the typed move.
fn label(view: &View<'_>, action: &Action) -> String {
    let (Some(state), Some(mv)) = (japanese(view), move_of::<Rockman>(action)) else {
        return action.label.clone();
    };
    let name = |s: Seat| view.name(s).to_owned();
    let card = |id: &str| card_ja(card_name(view.game, id), id);
    let on = |seat: Seat, sq| {
        state
            .at(seat, sq)
            .map(|a| card(&a.card))
            .unwrap_or_default()
    };
    let bonus = |b: i32| match b {
        0 => String::new(),
        b => format!("(攻撃 {b:+})"),
    };
    let squares = |s: &cards::games::rockman::Squares| {
        s.0.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    match mv {
        Move::OpeningNavi { player, card: c } => {
            format!("{}が{}を中央のマスに置く", name(player), card(&c))
        }
        Move::Janken { winner } => {
            format!("{}がジャンケンに勝ち、このターンの先攻", name(winner))
        }
        Move::Transfer {
            player,
            card: c,
            square,
        } => format!("{}が{}を{square}に転送", name(player), card(&c)),
        Move::Evolve {
            player,
            square,
            card: c,
        } => format!(
            "{}が{square}の{}を{}に進化",
            name(player),
            on(player, square),
            card(&c)
        ),
        Move::PlaceChip { player } => format!("{}がチップを裏向きに置く", name(player)),
        Move::AttachStyle {
            player,
            card: c,
            square,
        } => format!("{}が{square}のナビに{}を付ける", name(player), card(&c)),
        Move::EndTransfer { player } => format!("{}の転送終了", name(player)),
        Move::MoveCard {
            player,
            from,
            to,
            discard,
        } => {
            // The cost on a line of its own: a Japanese line breaks anywhere, even in a name.
            let cost = discard
                .map(|d| format!("\n({}を捨てる)", card(&d)))
                .unwrap_or_default();
            format!(
                "{}が{}を{from}→{to}へ移動{cost}",
                name(player),
                on(player, from)
            )
        }
        Move::Attack {
            player,
            from,
            target,
            bonus: b,
        } => {
            let at = match target.0.is_empty() {
                true => String::new(),
                false => format!("→ {}", squares(&target)),
            };
            format!(
                "{}が{from}の{}で攻撃{at}{}",
                name(player),
                on(player, from),
                bonus(b)
            )
        }
        Move::UseChip {
            player,
            card: c,
            from,
            target,
            bonus: b,
        } => {
            let via = from.map(|f| format!("({f}から)")).unwrap_or_default();
            let at = match target.0.is_empty() {
                true => String::new(),
                false => format!("→ {}", squares(&target)),
            };
            format!(
                "{}がチップ{}を使う{via}{at}{}",
                name(player),
                card(&c),
                bonus(b)
            )
        }
        Move::Battler { player, card: c } => {
            format!("{}がバトラー{}を出す", name(player), card(&c))
        }
        Move::Pass { player } => format!("{}はパス", name(player)),
        Move::EndEffects {} => {
            "エンドフェイズの効果の処理終了: 全キャラクター未行動、ダメージを消す".to_owned()
        }
        Move::Exchange { player, discard } if discard.0.is_empty() => {
            format!("{}は手札をそのままに{HAND_SIZE}枚まで引く", name(player))
        }
        Move::Exchange { player, discard } => {
            let cards: Vec<String> = discard.0.iter().map(|c| card(c)).collect();
            format!(
                "{}が{}を捨てて{HAND_SIZE}枚まで引く",
                name(player),
                cards.join("、")
            )
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
            if hp != 0 {
                parts.push(format!("自分のHP {hp:+}"));
            }
            if opp_hp != 0 {
                parts.push(format!("相手のHP {opp_hp:+}"));
            }
            if draw != 0 {
                parts.push(format!("ドロー {draw}"));
            }
            if !discard.0.is_empty() {
                let cards: Vec<String> = discard.0.iter().map(|c| card(c)).collect();
                parts.push(format!("{}を捨てる", cards.join("、")));
            }
            if let Some(sq) = square {
                let owner = if opp { 1 - player.min(1) } else { player };
                let whose = if opp { "相手の" } else { "自分の" };
                let what = state
                    .at(owner, sq)
                    .map(|a| card(&a.card))
                    .unwrap_or_else(|| "?".into());
                if let Some(a) = acted {
                    let done = if a { "行動済み" } else { "未行動" };
                    parts.push(format!("{sq}の{whose}{what}を{done}に"));
                }
                if let Some(t) = to {
                    parts.push(format!("{whose}{what}が{sq} → {t}"));
                }
                if damage != 0 {
                    parts.push(format!("{sq}の{whose}{what}に{damage}ダメージ"));
                }
                if destroy {
                    parts.push(format!("{sq}の{whose}{what}を捨札に"));
                }
            }
            if !note.is_empty() {
                parts.push(format!("「{note}」"));
            }
            if parts.is_empty() {
                parts.push("変化なし".to_owned());
            }
            format!("{}の効果: {}", name(player), parts.join("、"))
        }
    }
}

/// Why the match ended, in Japanese (naming the players).
fn outcome(view: &View<'_>, reason: &str) -> String {
    let Some(state) = japanese(view) else {
        return reason.to_owned();
    };
    let down: Vec<Seat> = (0..2).filter(|&s| state.players[s].hp <= 0).collect();
    match down.as_slice() {
        [loser] => format!("{}のHPゲージが0になった", view.name(*loser)),
        [_, _] => "両者のHPゲージが同時に0になった".to_owned(),
        _ => reason.to_owned(),
    }
}
