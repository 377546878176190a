//! JUNK-KEN in the window: the generic panel, with the numbers of its hand-entered effects.

use super::generic::GENERIC;
use super::spec::{Field, GameUi, card_ja, effect_ja, field, move_of, numbers_in, state_of};
use crate::ui::i18n::Lang;
use crate::ui::view::View;
use cards::core::{Prompt, Seat};
use cards::games::junk_ken::card::Hand;
use cards::games::junk_ken::{JunkKen, Move, State, Step, step_text_ja};
use cards::matches::{Action, AnyMatch};

/// JUNK-KEN's entry in the table of games.
pub(crate) const UI: GameUi = GameUi {
    effect_fields: EFFECT,
    card_name,
    tracker_ja,
    phase_ja,
    label,
    steps,
    turn,
    turn_counted,
    prompt,
    outcome,
    rules: super::spec::rules_check::<JunkKen>(),
    start: super::spec::Start::ReadyMade { switches: SWITCHES },
    ..GENERIC
};

/// The start screen's optional rules: the draft, dealt by the app.
const SWITCHES: &[(&str, &str, &str)] = &[(
    DRAFT_SWITCH,
    "Draft (pack purchase): the app deals every card of the set in piles, the players pick piles and build their decks from their holdings",
    "ドラフト(パック購入ルール): アプリがセットの全カードを山に配り、山を選んで持ち札からデッキを作る",
)];

/// The key of the draft's switch on the start screen.
pub(crate) const DRAFT_SWITCH: &str = "draft-deal";

/// A new draft's house rules: the draft variant, the pool (`copies` of every card of the set)
/// and the shuffle's seed.
pub(crate) fn draft_rules(copies: u8, seed: u64) -> serde_json::Value {
    serde_json::json!({
        "draft": true,
        "draft_pool": [format!("all*{copies}")],
        "draft_seed": seed,
    })
}

/// The next battle of a JUNK-KEN draft whose battle is over: the same players and house rules,
/// the holdings and leftover piles carried over (the winner's exchange comes first). `None` for
/// another game, a match without a draft, or one still going.
pub(crate) fn next_battle_header(game: &dyn AnyMatch) -> Option<cards::game::MatchHeader> {
    cards::games::junk_ken::draft::next_battle_header(state_of::<JunkKen>(game)?, game.header())
}

/// The numbers of an `effect` move (docs/rules-junk_ken.md).
const EFFECT: &[Field] = &[
    field("damage", 1, "damage to the opponent", "相手へのダメージ"),
    field(
        "self_damage",
        1,
        "damage to own character",
        "自分へのダメージ",
    ),
    field("heal", 1, "HP back", "体力回復"),
    field("draw", 1, "cards drawn", "ドロー"),
];

/// A card's names from the match's card list.
fn card_name(game: &dyn AnyMatch, id: &str) -> Option<(String, String)> {
    state_of::<JunkKen>(game)?
        .cards
        .get(id)
        .map(|c| (c.name_en.clone(), c.name_ja.clone()))
}

/// The Japanese captions of JUNK-KEN's numbers without a Japanese label of their own.
fn tracker_ja(name: &str) -> Option<&'static str> {
    Some(match name {
        "turn" => "ターン",
        "rotation" => "時計回りの回転(°)",
        "gear" => "ギア耐久ダイス",
        "field" => "フィールドのカウントダウンダイス",
        "defeated" => "倒されたキャラクター",
        "atk-bonus" => "攻撃ボーナス(+1攻撃効果)",
        "turns-in-zone" => "バトルゾーンにいるターン数",
        "bullet" => "バレットカウンター",
        "dice-skill" => "ダイススキル オン(1)/オフ(0)",
        "supporter-age" => "サポーター: 終えたじゃんけんフェイズ",
        _ => return None,
    })
}

/// The match's state when the window is in Japanese (the rules core writes in English).
fn japanese<'a>(view: &View<'a>) -> Option<&'a State> {
    (view.lang == Lang::Ja)
        .then(|| state_of::<JunkKen>(view.game))
        .flatten()
}

/// A hand as the rulebook calls it.
fn hand(h: Hand) -> &'static str {
    match h {
        Hand::Rock => "グー",
        Hand::Scissors => "チョキ",
        Hand::Paper => "パー",
    }
}

/// "Turn 3" in the battle; before it, in a draft's pack purchase, exchange and deck building,
/// "Draft" (the turns begin with the battle).
fn turn(view: &View<'_>, of: &str) -> String {
    if drafting(view) {
        view.lang.pick("Draft".to_owned(), "ドラフト".to_owned())
    } else {
        super::spec::plain_turn(view, of)
    }
}

/// The turn counter (and its "± edit") only once the battle has begun.
fn turn_counted(view: &View<'_>) -> bool {
    !drafting(view)
}

/// In a draft's pack purchase, exchange or deck building: before the battle.
fn drafting(view: &View<'_>) -> bool {
    state_of::<JunkKen>(view.game).is_some_and(|s| s.table.step.before_battle())
}

/// The step and the next one (セットフェーズ, ジャンケンフェーズ, ターン終了).
fn steps(view: &View<'_>) -> (String, String) {
    let Some(state) = japanese(view) else {
        return (view.ctx.phase.step.clone(), view.ctx.phase.next.clone());
    };
    let next = match state.table.step {
        Step::Exchange => "パック購入フェーズ2: 敗者から山を選ぶ".to_owned(),
        Step::Purchase => "山を選び終えたらデッキ構築フェーズ".to_owned(),
        Step::Build => "両者のデッキができたら対戦フェーズ".to_owned(),
        Step::SetStart => "セットフェーズ: カードを置く".to_owned(),
        Step::Set => "両者が終えたらジャンケンフェーズ".to_owned(),
        Step::Janken => "手を出し、勝った方のアクションを処理".to_owned(),
        Step::Resolve => {
            "ジャンケンフェーズ終了: フィールドのダイス −1、サポーターの経過".to_owned()
        }
        Step::Replace => "ターン終了: バレット、ネクロマンシー".to_owned(),
        Step::TurnEnd => format!("ターン{}: セットフェーズ開始", state.table.turn + 1),
        Step::Over => "—".to_owned(),
    };
    (step_text_ja(state), next)
}

/// The draft's deck building time (②デッキ構築フェーズ「※5分間」), in minutes.
const BUILD_MINUTES: i64 = 5;

/// The rules' prompts in the window's language; a deck still to build says until when (the
/// seed's 5 minutes from the step's start, as a clock time: nothing ticks on screen).
fn prompt(view: &View<'_>, p: &Prompt) -> String {
    let text = prompt_text(view, p);
    match view.step_began_ms {
        Some(at) if p.id.contains("-build-") => {
            let until = crate::sync::local_hh_mm(at + BUILD_MINUTES * 60_000);
            format!(
                "{text} {}",
                view.lang.pick(
                    format!("— {BUILD_MINUTES} minutes: until {until}"),
                    format!("— {BUILD_MINUTES}分間: {until}まで"),
                )
            )
        }
        _ => text,
    }
}

/// The rules' prompts in Japanese, from the prompt's id and the state.
fn prompt_text(view: &View<'_>, p: &Prompt) -> String {
    let Some(state) = japanese(view) else {
        return p.text.clone();
    };
    let who = p
        .player
        .map(|s| view.name(s).to_owned())
        .unwrap_or_default();
    let id = p.id.as_str();
    if let Some(die) = state.table.dice.iter().find(|d| d.id == p.id) {
        let top = state
            .top(die.seat)
            .map(|c| card_ja(Some((c.name_en.clone(), c.name_ja.clone())), ""))
            .unwrap_or_default();
        return match &die.purpose {
            cards::games::junk_ken::DiePurpose::Hp => {
                format!("{who}: {top}のHPダイス(d{})を振る", die.sides)
            }
            cards::games::junk_ken::DiePurpose::DiceSkill { left, .. } => format!(
                "{who}: {top}のダイスロールスキル — d{}を振る(残り{left})",
                die.sides
            ),
            cards::games::junk_ken::DiePurpose::Necromancy { graveyard } => format!(
                "{who}: ネクロマンシー — d{}で{}の墓地の裏向きのカードから表にする1枚を決める",
                die.sides,
                view.name(*graveyard)
            ),
        };
    }
    if id.contains("-set-") {
        let seat = p.player.unwrap_or(0);
        let needs = state
            .players
            .get(seat)
            .is_some_and(|pl| pl.character.is_none() && pl.hand > 0);
        if needs {
            format!(
                "{who}: キャラクターを置く(必須)。サポート・フィールド・覚醒・ヘイストは任意。終えたら完了"
            )
        } else {
            format!("{who}: サポート・フィールドを置く、覚醒・ヘイストは任意。終えたら完了")
        }
    } else if id.contains("-clockwise-") {
        format!("{who}: クロックワイズのキャラクターが正位置: 効果を使える")
    } else if id.contains("-dice-on-") {
        format!("{who}: ダイスロールスキルは次のセットフェーズまで有効")
    } else if id.ends_with("-janken") {
        "交代を宣言するなら先に。ジャンケンをして両者の手を入力".to_owned()
    } else if id.ends_with("-resolve") {
        "手動で処理したスキルの結果を入力し、ジャンケンフェーズを終える".to_owned()
    } else if id.contains("-replace-") {
        format!("{who}: キャラクターを手札のカードと交代する(HPは引き継ぐ)")
    } else if id.contains("-necromancy-") {
        format!("{who}: ネクロマンシーで墓地のカードを1枚裏返せる")
    } else if let Some(d) = state.table.draft.as_ref().filter(|_| id.starts_with('b')) {
        let left = d.piles.iter().filter(|p| p.taken.is_none()).count();
        let seat = p.player.unwrap_or(0).min(1);
        if id.ends_with("-exchange") {
            format!(
                "{who}: {}の持ち札から2枚受け取り、代わりに2枚渡す(受け取り{}、渡し{})",
                view.name(1 - seat),
                d.took.len(),
                d.gave.len()
            )
        } else if id.ends_with("-pick-first") {
            format!("ジャンケンの勝者が最初の山を選ぶ(山{left}つ)")
        } else if id.contains("-pick-") {
            format!(
                "{who}: 山を選ぶ(持ち札{}枚、残りの山{left}つ)",
                d.holdings[seat].len()
            )
        } else if id.contains("-build-") {
            let (main, extra) = cards::games::junk_ken::deck_counts(state, &d.decks[seat]);
            format!(
                "{who}: 持ち札からデッキを作る: 山札{main}/30枚、EXカード{extra}/3枚。できたら完成"
            )
        } else {
            p.text.clone()
        }
    } else if id.ends_with("-end") {
        "バレットカウンターを使うなら使い、ターンを終える".to_owned()
    } else {
        p.text.clone()
    }
}

/// A move's button text and log line in Japanese, from the typed move.
fn label(view: &View<'_>, action: &Action) -> String {
    let (Some(state), Some(mv)) = (japanese(view), move_of::<JunkKen>(action)) else {
        return action.label.clone();
    };
    let name = |s: Seat| view.name(s).to_owned();
    let card = |id: &str| card_ja(card_name(view.game, id), id);
    match mv {
        Move::SkipDiceRoll { player } => format!(
            "{}: 合うダイスがない。このターンはダイスロールスキルを使わない",
            name(player)
        ),
        Move::PlaceCharacter { player, card: c } => {
            format!("{}が{}をバトルゾーンに置く", name(player), card(&c))
        }
        Move::PlaceSupporter { player, .. } => {
            format!("{}がサポーターを裏向きに置く", name(player))
        }
        Move::PlaceGear { player, card: c } => {
            format!("{}がギア{}を置く", name(player), card(&c))
        }
        Move::PlaceField { player, card: c } => {
            format!("{}がフィールド{}を置く", name(player), card(&c))
        }
        Move::SpendField { player } => {
            format!("{}がフィールドのダイスを減らして効果を使う", name(player))
        }
        Move::Awaken { player, card: c } => {
            format!("{}がキャラクターを{}に覚醒させる", name(player), card(&c))
        }
        Move::Haste { player } => {
            format!("{}がヘイスト: サポーターを表向きにする(+1)", name(player))
        }
        Move::EndSet { player } => format!("{}のセット完了", name(player)),
        Move::DeclareReplacement { player } => format!("{}が交代を宣言", name(player)),
        Move::Janken { hand0, hand1 } => format!(
            "ジャンケン: {} {} — {} {}",
            name(0),
            hand(hand0),
            name(1),
            hand(hand1)
        ),
        Move::GearEvent { player } => {
            format!("{}のギア: 耐久イベント(−1)", name(player))
        }
        Move::EndJanken {} => "ジャンケンフェーズ終了".to_owned(),
        Move::Replace { player, card: c } => {
            format!("{}がキャラクターを{}と交代", name(player), card(&c))
        }
        Move::KeepCharacter { player } => {
            format!("{}はキャラクターを交代しない", name(player))
        }
        Move::SpendBullet { player } => {
            format!("{}がバレットカウンターを取り除いて効果を使う", name(player))
        }
        Move::Necromancy {
            player,
            graveyard,
            card: c,
        } => match c {
            Some(c) => format!(
                "{}のネクロマンシー: {}の墓地の{}を裏向きにする",
                name(player),
                name(graveyard),
                card(&c)
            ),
            None => format!(
                "{}のネクロマンシー: {}の墓地の裏向きのカードを1枚ランダムに表にする",
                name(player),
                name(graveyard)
            ),
        },
        Move::EndTurn {} => format!("ターン{}終了", state.table.turn),
        Move::Effect {
            player,
            damage,
            self_damage,
            heal,
            draw,
            note,
        } => format!(
            "{}の効果: {}",
            name(player),
            effect_ja(
                &[
                    ("相手へのダメージ", damage),
                    ("自分へのダメージ", self_damage),
                    ("体力回復", heal),
                    ("ドロー", draw),
                ],
                &note
            )
        ),
        Move::Surrender { player } => format!("{}がサレンダー", name(player)),
        Move::Bonus {
            player,
            card: c,
            atk: 0,
        } => format!("{}: {}の攻撃ボーナス終了", name(player), card(&c)),
        Move::Bonus {
            player,
            card: c,
            atk,
        } => format!("{}: {}が場にある間、攻撃 {atk:+}", name(player), card(&c)),
        Move::Pick { player, pile } => {
            format!(
                "{}が山{pile}({}枚)を選ぶ",
                name(player),
                state.pile_size(pile)
            )
        }
        Move::ExchangeTake { card: c } => {
            let w = state.draft_winner();
            format!("{}が{}から{}を受け取る", name(w), name(1 - w), card(&c))
        }
        Move::ExchangeGive { card: c } => {
            let w = state.draft_winner();
            format!("{}が{}に{}を渡す", name(w), name(1 - w), card(&c))
        }
        Move::ExchangeDone {} => "交換を終える".to_owned(),
        Move::DeckAdd { player, card: c } => {
            format!("{}が{}をデッキに入れる", name(player), card(&c))
        }
        Move::DeckRemove { player, card: c } => {
            format!("{}が{}をデッキから抜く", name(player), card(&c))
        }
        Move::BuildDeck { player, cards } => {
            format!("{}が{}枚のデッキを作る", name(player), cards.0.len())
        }
        Move::DeckDone { player } => format!("{}のデッキ完成", name(player)),
    }
}

/// Why the match ended, in Japanese (naming the players).
fn outcome(view: &View<'_>, reason: &str) -> String {
    let Some(state) = japanese(view) else {
        return reason.to_owned();
    };
    if let Some(s) = (0..2).find(|&s| state.players[s].surrendered) {
        return format!("{}がサレンダーした", view.name(s));
    }
    let n = numbers_in(reason).last().copied().unwrap_or(0);
    if reason.starts_with("both players") {
        return format!("両者が同時にキャラクターを{n}体失った");
    }
    match (0..2).find(|&s| reason.starts_with(&format!("{} lost", state.players[s].name))) {
        Some(s) => format!("{}がキャラクターを{n}体失った", view.name(s)),
        None => reason.to_owned(),
    }
}

/// The phases without Japanese of their own on the phase bar.
fn phase_ja(phase: &str) -> Option<&'static str> {
    Some(match phase {
        "Janken end" => "ジャンケンフェーズ終了",
        "Pack purchase パック購入" => "パック購入フェーズ",
        "Deck building デッキ構築" => "デッキ構築フェーズ",
        "Turn end" => "ターン終了",
        _ => return None,
    })
}
