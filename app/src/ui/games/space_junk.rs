//! Space Junk in the window: the generic panel, with the attack range stepper, the draw picked
//! card by card from the junk deck and the discard pile, the numbers of its hand-entered
//! effects (the character's ability a yes/no), and a character per player on the start form.

use super::generic::GENERIC;
use super::spec::{
    CardPick, Field, GameUi, Param, Start, card_ja, effect_ja, field, move_of, state_of,
};
use crate::ui::i18n::Lang;
use crate::ui::view::View;
use cards::core::{Prompt, Seat};
use cards::games::space_junk::card::{Slot, Stat};
use cards::games::space_junk::{HIT_STEP, Move, ROUNDS, Space, SpaceJunk, State, Step};
use cards::matches::{Action, AnyMatch};
use std::collections::BTreeSet;

/// Space Junk's entry in the table of games.
pub(crate) const UI: GameUi = GameUi {
    params: &[Param {
        move_type: "attack",
        key: "range",
        en: "attack range",
        ja: "射程",
    }],
    effect_fields: EFFECT,
    effect_flags: &[field(
        "ability",
        0,
        "the character's ability is used",
        "キャラクター能力を使う",
    )],
    picks: &[CardPick {
        move_type: "draw",
        list: true,
        extra: &[],
        offered: true,
        en: "draws",
        ja: "引く",
    }],
    pickable,
    start: Start::Characters,
    headline: "fame",
    confirm: &["no-take"],
    tracker_ja,
    card_name,
    phase_ja,
    turn,
    label,
    steps,
    prompt,
    outcome,
    rules: super::spec::rules_check::<SpaceJunk>(),
    ..GENERIC
};

/// The numbers of an `effect` move (docs/rules-space_junk.md).
const EFFECT: &[Field] = &[
    field("fame", 1, "fame", "名声"),
    field("move", 1, "Move", "移動"),
    field("attack", 1, "Attack", "攻撃"),
    field("search", 1, "Search", "探索"),
    field("spaces", 1, "extra spaces flown", "追加の移動マス"),
];

/// The junk deck, then the discard pile, with their labels ("Rubber Duck (SJ76)").
fn pickable(game: &dyn AnyMatch, _: Seat, lang: Lang) -> Vec<(String, String)> {
    let Some(state) = state_of::<SpaceJunk>(game) else {
        return Vec::new();
    };
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for id in state.deck.iter().chain(&state.discard) {
        if seen.insert(id.clone()) {
            let label = state.cards.get(id).map_or_else(
                || id.clone(),
                |c| match lang {
                    Lang::Ja if !c.name_ja.is_empty() => format!("{} ({id})", c.name_ja),
                    _ => format!("{} ({id})", c.name_en),
                },
            );
            out.push((id.clone(), label));
        }
    }
    out
}

/// The Japanese captions of Space Junk's numbers.
fn tracker_ja(name: &str) -> Option<&'static str> {
    Some(match name {
        "round" => "ラウンド",
        "first" => "先手(席)",
        "deck" => "ジャンク山札",
        "discard" => "クーラー(捨て札)",
        "fame" => "名声",
        "move" => "移動",
        "attack" => "攻撃",
        "search" => "探索",
        "ring" => "リング",
        "position" => "位置",
        "orbits" => "周回",
        "cargo" => "貨物室",
        "junk-fame" => "ジャンクの名声",
        "score" => "最終集計",
        "boosted-move" => "移動(ブースト込み)",
        "boosted-attack" => "攻撃(ブースト込み)",
        "boosted-search" => "探索(ブースト込み)",
        _ => return None,
    })
}

/// A card's names from the match's card list.
fn card_name(game: &dyn AnyMatch, id: &str) -> Option<(String, String)> {
    state_of::<SpaceJunk>(game)?
        .cards
        .get(id)
        .map(|c| (c.name_en.clone(), c.name_ja.clone()))
}

/// The match's state when the window is in Japanese (the rules core writes in English).
fn japanese<'a>(view: &View<'a>) -> Option<&'a State> {
    (view.lang == Lang::Ja)
        .then(|| state_of::<SpaceJunk>(view.game))
        .flatten()
}

/// A ship's stat as the game calls it.
fn stat_ja(stat: Stat) -> &'static str {
    match stat {
        Stat::Move => "移動",
        Stat::Attack => "攻撃",
        Stat::Search => "探索",
    }
}

/// A space of the ship ("スロット3(攻撃)", "胴体").
fn space_ja(space: Space) -> String {
    match space {
        Space::Slot(n) => {
            let kind = match space.kind() {
                Slot::Move => "移動",
                Slot::Attack => "攻撃",
                Slot::Search => "探索",
                Slot::Fuselage => "胴体",
            };
            format!("スロット{n}({kind})")
        }
        Space::Fuselage => "胴体".to_owned(),
    }
}

/// The step in Japanese.
fn step_ja(view: &View<'_>, state: &State) -> String {
    let r = state.round;
    let who = |s: Seat| view.name(s).to_owned();
    match state.step {
        Step::Setup => "準備: キャラクターを配り、先手を決める".into(),
        Step::Move { seat } => format!("ラウンド{r} 移動: {}がリングを選んで移動", who(seat)),
        Step::Ram { seat } => format!(
            "ラウンド{r} 移動: {}は同じマスの船に体当たりできる",
            who(seat)
        ),
        Step::RamDice => "体当たり: 両者がd6を振る".into(),
        Step::RamTake { winner, loser } => format!(
            "体当たり: {}は{}からジャンクを1つ奪える",
            who(winner),
            who(loser)
        ),
        Step::Attack { seat } => format!("ラウンド{r} 攻撃: {}は船を攻撃できる", who(seat)),
        Step::AttackDie => "攻撃: 攻撃ダイスを振る".into(),
        Step::AttackBoost => "攻撃: *-攻撃カードを損傷させて+4、または命中を確定".into(),
        Step::HitDice => "攻撃: 命中1つにつき場所ダイスを1つ振る".into(),
        Step::Search { seat } => format!("ラウンド{r} 探索: {}がジャンクを引く", who(seat)),
        Step::Rebuild { seat } => format!("ラウンド{r} 探索: {}が船を組み直す", who(seat)),
        Step::Cameo => format!("ラウンド{r} カメオタイム: 先手から順に短い話を1つずつ"),
        Step::Over => "ゲーム終了".into(),
    }
}

/// The step and the next one.
fn steps(view: &View<'_>) -> (String, String) {
    let Some(state) = japanese(view) else {
        return (view.ctx.phase.step.clone(), view.ctx.phase.next.clone());
    };
    let next = match state.step {
        Step::Setup => "ラウンド1: 先手から移動フェイズ".to_owned(),
        Step::Move { .. } | Step::Ram { .. } | Step::RamDice | Step::RamTake { .. } => {
            "次の船が移動。最後の船の後は攻撃フェイズ".to_owned()
        }
        Step::Attack { .. } | Step::AttackDie | Step::AttackBoost | Step::HitDice => {
            "次の船が攻撃できる。最後の船の後は探索フェイズ".to_owned()
        }
        Step::Search { .. } => "損傷したカードを捨て、船を組み直す".to_owned(),
        Step::Rebuild { .. } => "次の船が探索。最後の船の後はカメオタイム".to_owned(),
        Step::Cameo if state.round >= ROUNDS => "最終集計: 名声とすべてのジャンクの名声".to_owned(),
        Step::Cameo => format!(
            "ラウンド{}: 先手マーカーが{}へ",
            state.round + 1,
            view.name((state.first + 1) % state.players.len().max(1))
        ),
        Step::Over => "—".to_owned(),
    };
    (step_ja(view, state), next)
}

/// The rules' prompts in Japanese, from the step and the state.
fn prompt(view: &View<'_>, p: &Prompt) -> String {
    let Some(state) = japanese(view) else {
        return p.text.clone();
    };
    let name = |s: Seat| view.name(s).to_owned();
    let who = p.player.map(name).unwrap_or_default();
    let id = p.id.as_str();
    match state.step {
        Step::Setup if id.starts_with("deal-") => {
            format!("{who}にキャラクターカードをランダムに1枚配る")
        }
        Step::Setup => "先手をランダムに決める".to_owned(),
        Step::Move { seat } => format!(
            "{who}: リングを選んで{}マス移動(先に*-移動カードを損傷させると各+3)",
            state.boosted(seat, Stat::Move).max(0)
        ),
        Step::Ram { .. } => format!("{who}: 同じマスの船に体当たりするか、しない"),
        Step::RamDice => match &state.ram {
            Some(ram) if id.ends_with("-rammer") => format!(
                "{who}: 体当たりダイス(体当たりで+1、Rカードで+{})",
                state.r_cards(ram.rammer)
            ),
            Some(ram) => format!(
                "{who}: {}に対する体当たりダイス(Rカードで+{})",
                name(ram.rammer),
                state.r_cards(ram.target)
            ),
            None => p.text.clone(),
        },
        Step::RamTake { loser, .. } => format!(
            "{who}: {}の船からジャンクを1つ奪うか、何も取らない",
            name(loser)
        ),
        Step::Attack { .. } => {
            format!("{who}: 船を攻撃する(盤上で数えた射程を入力)か、パス")
        }
        Step::AttackDie => match &state.attack {
            Some(a) => format!(
                "{who}: {}への攻撃ダイス(攻撃 {}、射程 {})",
                name(a.target),
                state.boosted(a.attacker, Stat::Attack),
                a.range
            ),
            None => p.text.clone(),
        },
        Step::AttackBoost => match &state.attack {
            Some(a) => {
                let total = i32::from(a.roll.unwrap_or(0))
                    + state.boosted(a.attacker, Stat::Attack)
                    - i32::try_from(a.range).unwrap_or(i32::MAX);
                format!(
                    "{who}: 結果 {total}(命中 {})。*-攻撃カードを損傷させて+4、または確定",
                    total.max(0) / HIT_STEP
                )
            }
            None => p.text.clone(),
        },
        Step::HitDice => match &state.attack {
            Some(a) => {
                let i = id.rsplit('-').next().unwrap_or("");
                format!(
                    "{who}: {}の船への命中 {i}/{} の場所ダイス(1–2 移動、3–4 攻撃、5–6 探索)",
                    name(a.target),
                    a.hits.unwrap_or(0)
                )
            }
            None => p.text.clone(),
        },
        Step::Search { seat } => format!(
            "{who}: ジャンクカードを{}枚引く(先に*-探索カードを損傷させると各+2)",
            state.draw_count(seat)
        ),
        Step::Rebuild { .. } => {
            format!("{who}: 新しいカードと貨物室のカードで船を組み直し、終える")
        }
        Step::Cameo => format!("カメオタイム: {}から順に短い話を1つずつ", name(state.first)),
        Step::Over => p.text.clone(),
    }
}

/// A move's button text and log line in Japanese, from the typed move.
fn label(view: &View<'_>, action: &Action) -> String {
    let (Some(state), Some(mv)) = (japanese(view), move_of::<SpaceJunk>(action)) else {
        return action.label.clone();
    };
    let name = |s: Seat| view.name(s).to_owned();
    let card = |id: &str| card_ja(card_name(view.game, id), id);
    match mv {
        Move::DealCharacter { player, card: c } => {
            format!("{}に{}を配る", name(player), card(&c))
        }
        Move::FirstPlayer { player } => {
            format!("{}が先手。ラウンド1開始", name(player))
        }
        Move::Boost { player, card: c } => {
            let stat = match state.step {
                Step::Attack { .. } | Step::AttackDie | Step::AttackBoost | Step::HitDice => {
                    Stat::Attack
                }
                Step::Search { .. } | Step::Rebuild { .. } => Stat::Search,
                _ => Stat::Move,
            };
            let plus = match stat {
                Stat::Move => 3,
                Stat::Attack => 4,
                Stat::Search => 2,
            };
            format!(
                "{}が{}を損傷させて{} +{plus}",
                name(player),
                card(&c),
                stat_ja(stat)
            )
        }
        Move::MoveShip {
            player,
            ring,
            spaces,
        } => {
            let budget = state.boosted(player, Stat::Move).max(0);
            let n = spaces.map_or(i64::from(budget), i64::from);
            // Short enough for one line of a tile at 800×480 (a Japanese line breaks anywhere).
            format!("{}がリング{ring}で{n}マス進む", name(player))
        }
        Move::Ram { player, target } => format!("{}が{}に体当たり", name(player), name(target)),
        Move::NoRam { player } => format!("{}は体当たりしない", name(player)),
        Move::TakeJunk { player, card: c } => {
            format!("{}が体当たりの戦利品に{}を奪う", name(player), card(&c))
        }
        Move::NoTake { player } => format!("{}は何も取らない", name(player)),
        Move::Attack {
            player,
            target,
            range,
        } => format!(
            "{}が射程{range}で{}を攻撃(攻撃 {})",
            name(player),
            name(target),
            state.boosted(player, Stat::Attack)
        ),
        Move::NoAttack { player } => format!("{}は攻撃しない", name(player)),
        Move::ConfirmHits { player } => format!("{}が命中を確定", name(player)),
        Move::Draw { player, cards } if cards.is_empty() => {
            format!("{}は何も引かない", name(player))
        }
        Move::Draw { player, cards } => format!(
            "{}が{}枚引く: {}",
            name(player),
            cards.len(),
            cards.iter().map(|c| card(c)).collect::<Vec<_>>().join("、")
        ),
        Move::Equip {
            player,
            card: c,
            space,
        } => format!(
            "{}が{}を{}に付ける",
            name(player),
            card(&c),
            space_ja(space)
        ),
        Move::Unequip { player, card: c } => {
            format!("{}が{}を貨物室に入れる", name(player), card(&c))
        }
        Move::FinishSearch { player } => {
            format!("{}が船を組み終える。残りは貨物室へ", name(player))
        }
        Move::EndRound {} if state.round >= ROUNDS => "カメオタイム終了: 最終集計".to_owned(),
        Move::EndRound {} => format!("カメオタイム終了: ラウンド{}開始", state.round + 1),
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
            let mut text = effect_ja(
                &[
                    ("名声", fame),
                    ("移動", movement),
                    ("攻撃", attack),
                    ("探索", search),
                    ("追加の移動マス", i32::try_from(spaces).unwrap_or(0)),
                ],
                &note,
            );
            if let Some(c) = repair {
                text.push_str(&format!("、{}を修理", card(&c)));
            }
            if ability {
                text.push_str("、能力を1回使う");
            }
            format!("{}の効果: {text}", name(player))
        }
    }
}

/// Why the match ended, in Japanese (naming the players), from the final count.
fn outcome(view: &View<'_>, reason: &str) -> String {
    let Some(state) = japanese(view) else {
        return reason.to_owned();
    };
    let n = state.players.len();
    let totals: Vec<i32> = (0..n).map(|s| state.final_fame(s)).collect();
    let Some(top) = totals.iter().copied().max() else {
        return reason.to_owned();
    };
    let tied: Vec<Seat> = (0..n).filter(|&s| totals[s] == top).collect();
    if let [w] = tied[..] {
        return format!(
            "ラウンド{ROUNDS}終了時に名声が最も多い: {} {}(トラック {} + ジャンク {})",
            view.name(w),
            top,
            state.players[w].fame,
            state.junk_fame(w)
        );
    }
    let ships: Vec<(Seat, i32)> = tied.iter().map(|&s| (s, state.best_ship(s))).collect();
    let best = ships.iter().map(|(_, v)| *v).max().unwrap_or(0);
    let listing = ships
        .iter()
        .map(|(s, v)| format!("{} {v}", view.name(*s)))
        .collect::<Vec<_>>()
        .join("、");
    let winners: Vec<&str> = ships
        .iter()
        .filter(|(_, v)| *v == best)
        .map(|(s, _)| view.name(*s))
        .collect();
    if winners.len() == 1 {
        format!("名声{top}で同点。最も強い船(移動+攻撃+探索)で決着: {listing}")
    } else {
        format!(
            "共同優勝: {}が名声{top}でも最も強い船でも同点({listing})",
            winners.join("、")
        )
    }
}

/// The phase bar in Japanese.
fn phase_ja(phase: &str) -> Option<&'static str> {
    Some(match phase {
        "Setup" => "準備",
        "Move" => "移動",
        "Attack" => "攻撃",
        "Search" => "探索",
        "Cameo" => "カメオタイム",
        "Final count" => "最終集計",
        _ => return None,
    })
}

/// "Round 4" in Japanese: ラウンド (Space Junk counts rounds).
fn turn(view: &View<'_>, of: &str) -> String {
    match view.lang {
        Lang::Ja => format!("ラウンド {}{of}", view.ctx.turn),
        Lang::En => super::spec::plain_turn(view, of),
    }
}
