//! The Jaken parts of the table screen: a player's column (SB, counts, BG zone, battle field),
//! the reveal picker, and the forms for moves that need numbers (effects, BG uses).

use super::generic::GENERIC;
use super::spec::{GameUi, Start, state_of};
use crate::ui::i18n::Lang;
use crate::ui::view::{
    Intent, PanelMemory, Taps, View, is_reveal, name_line, name_line_with, player_frame,
};
use crate::ui::widgets::{ACCENT, WARN, action_button, big_number, section, stepper};
use cards::catalogue::JakenCard;
use cards::core::{Prompt, Seat};
use cards::games::jaken::{Jaken, Move, Placement, State, Step};
use cards::matches::{Action, Input};
use egui::{Button, Label, RichText, TextEdit, Ui, Vec2};

/// Jaken's entry in the table of games: its own panel.
pub(crate) const UI: GameUi = GameUi {
    panel,
    label: action_label,
    turn,
    steps,
    start: Start::JakenForm,
    headline: "sb",
    confirm: &["no-monster", "no-effect"],
    suggest,
    prompt,
    tracker_ja,
    outcome,
    rules: super::spec::rules_check::<Jaken>(),
    ..GENERIC
};

/// Why the match ended, in Japanese when the window is (the core writes it in English).
fn outcome(view: &View<'_>, reason: &str) -> String {
    if view.lang == Lang::En {
        return reason.to_owned();
    }
    let numbers =
        |r: &str| -> Option<String> { Some(r.split_once('(')?.1.trim_end_matches(')').to_owned()) };
    if let Some(name) = reason.strip_suffix("'s SB reached 0") {
        return format!("{name}のSBが0になった");
    }
    if reason.starts_with("more SB after battle") {
        let n = numbers(reason).unwrap_or_default().replace(" to ", " 対 ");
        return format!("第10バトル終了時にSBが多い({n})");
    }
    if reason.starts_with("equal SB after battle") {
        let n = numbers(reason).unwrap_or_default().replace(" each", "");
        return format!("第10バトル終了時にSBが同じ(各{n})");
    }
    reason.to_owned()
}

/// The Japanese captions of Jaken's numbers.
fn tracker_ja(name: &str) -> Option<&'static str> {
    match name {
        "turn" => Some("バトル"),
        "bg-uses" => Some("BG残り使用回数"),
        _ => None,
    }
}

/// The rules' prompts, in Japanese when the window is (the core writes them in English).
fn prompt(view: &View<'_>, p: &Prompt) -> String {
    let (Lang::Ja, Some(state)) = (view.lang, state_of::<Jaken>(view.game)) else {
        return p.text.clone();
    };
    let name = |seat: Option<Seat>| seat.map(|s| view.name(s).to_owned()).unwrap_or_default();
    let id = p.id.as_str();
    let has = |part: &str| id.contains(part);
    if id == "janken" {
        "じゃんけんをする: 勝った人が最初の親".to_owned()
    } else if has("-bg") {
        format!("{}(親): BGを宣言するか、しない", name(p.player))
    } else if has("-counter") {
        format!("{}(子): BGで対抗するか、しない", name(p.player))
    } else if has("-place-") {
        format!(
            "{}: モンスターを裏向きに置く(コスト ≤ {})",
            name(p.player),
            state.turn
        )
    } else if has("-reveal-") {
        format!("{}: モンスターを公開する", name(p.player))
    } else if has("-effect-") {
        let card = p
            .player
            .and_then(|s| match &state.players.get(s)?.placement {
                Placement::Revealed(id) => Some(card_label(state, id, Lang::Ja)),
                _ => None,
            })
            .unwrap_or_default();
        format!("{}: {card}の効果を解決する", name(p.player))
    } else if has("-compare") {
        "攻撃力・守備力を比べてSBを移す".to_owned()
    } else if has("-end") && state.turn >= 10 {
        "最後のバトルを終えてSBを数える".to_owned()
    } else if has("-end") {
        let parent = state.parent.unwrap_or(0);
        format!(
            "{}(親): OBを{}に渡す",
            view.name(parent),
            view.name(1 - parent.min(1))
        )
    } else {
        p.text.clone()
    }
}

/// The numbers a card's text prints, as an effect or a BG use gives them: own ATK/DEF,
/// opponent ATK/DEF, SB taken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Printed {
    atk: i32,
    def: i32,
    opp_atk: i32,
    opp_def: i32,
    sb: i32,
}

/// What a card's text says its effect does, when the text is one the app can read ("this
/// monster gets +2 ATK", "your opponent's monster gets -1 DEF", "both monsters get -1 ATK",
/// "steal 1 SB", "add this monster's DEF to its ATK"); `None` for a choice ("+1 ATK or +1
/// DEF") or a text it cannot read. `own` is the card's monster (its printed numbers).
fn printed(text: &str, own: Option<&cards::catalogue::JakenMonster>) -> Option<Printed> {
    let effect = text.rsplit_once(':').map_or(text, |(_, e)| e);
    let e = effect.trim().trim_end_matches('.').to_lowercase();
    if e.contains(" or ") {
        return None;
    }
    let number = |after: &str| -> Option<i32> {
        let rest = e.split_once(after)?.1.trim_start();
        let token: String = rest
            .chars()
            .take_while(|c| matches!(c, '+' | '-' | '−') || c.is_ascii_digit())
            .collect();
        token.replace('−', "-").parse().ok()
    };
    let stat = |after: &str| -> Option<(i32, &'static str)> {
        let n = number(after)?;
        let rest = e.split_once(after)?.1;
        let word = rest.split_whitespace().nth(1)?;
        let which = match word.trim_matches(|c: char| !c.is_alphabetic()) {
            "atk" => "atk",
            "def" => "def",
            _ => return None,
        };
        Some((n, which))
    };
    let mut out = Printed::default();
    if let Some((n, which)) = stat("this monster gets") {
        match which {
            "atk" => out.atk = n,
            _ => out.def = n,
        }
    } else if let Some((n, which)) =
        stat("opponent's monster gets").or_else(|| stat("opponent's monster get"))
    {
        match which {
            "atk" => out.opp_atk = n,
            _ => out.opp_def = n,
        }
    } else if let Some((n, which)) = stat("both monsters get") {
        match which {
            "atk" => (out.atk, out.opp_atk) = (n, n),
            _ => (out.def, out.opp_def) = (n, n),
        }
    } else if let Some(n) = number("steal") {
        out.sb = n;
    } else if e == "add this monster's def to its atk" {
        out.atk = own?.def;
    } else if e == "add this monster's cost to its atk and def" {
        let cost = i32::from(own?.cost);
        (out.atk, out.def) = (cost, cost);
    } else {
        return None;
    }
    Some(out)
}

/// Whether a card's printed condition ("If …:") holds now: `Some(true)` / `Some(false)` where
/// the app can tell (who is the parent, the opponent's monster's cost or tribe, who has fewer
/// SB), `None` where it cannot. A text without a condition holds.
fn condition_holds(state: &State, seat: Seat, text: &str) -> Option<bool> {
    let Some((condition, _)) = text.rsplit_once(':') else {
        return Some(true);
    };
    let c = condition.trim().to_lowercase();
    let Some(c) = c.strip_prefix("if ") else {
        return Some(true);
    };
    let other = 1 - seat.min(1);
    let parent = state.parent;
    let opponent_monster = || match &state.players.get(other)?.placement {
        Placement::Revealed(id) => match &state.cards.get(id)?.data {
            JakenCard::Monster(m) => Some(m.clone()),
            JakenCard::BattleGround(_) => None,
        },
        _ => None,
    };
    if c == "you are the parent" {
        return Some(parent == Some(seat));
    }
    if c == "your opponent is the parent" {
        return Some(parent == Some(other));
    }
    if let Some(rest) = c.strip_prefix("the opponent's monster has a cost of ") {
        let n: u8 = rest.split_whitespace().next()?.parse().ok()?;
        if rest.ends_with("or more") {
            return Some(opponent_monster()?.cost >= n);
        }
        return None;
    }
    if let Some(rest) = c.strip_prefix("your opponent's monster is of the ") {
        let tribe = rest.strip_suffix(" tribe")?;
        return Some(opponent_monster()?.tribe.to_lowercase() == tribe);
    }
    if c == "your sb are fewer than your opponent's" {
        let sb = |s: Seat| state.players.get(s).map(|p| p.sb);
        return Some(sb(seat)? < sb(other)?);
    }
    None
}

/// The effect being resolved now (B2): its seat, card and the numbers its text prints.
fn resolving(state: &State) -> Option<(Seat, &cards::games::jaken::CardInfo)> {
    if state.step != Step::Effects {
        return None;
    }
    let seat = *state.pending_effects.first()?;
    let Placement::Revealed(id) = &state.players.get(seat)?.placement else {
        return None;
    };
    Some((seat, state.cards.get(id)?))
}

/// The likely move at B2: the effect filled in with the card's printed numbers when its
/// condition holds (never "condition not met" then), "no effect" when the app knows the
/// condition fails, nothing to press when it cannot tell.
fn suggest(game: &dyn cards::matches::AnyMatch, memory: &mut PanelMemory) -> Option<Action> {
    let state = state_of::<Jaken>(game)?;
    let (seat, info) = resolving(state)?;
    let form = effect_form_of(memory.forms::<Forms>()?, state, seat, info);
    let own = match &info.data {
        JakenCard::Monster(m) => Some(m),
        JakenCard::BattleGround(_) => None,
    };
    let name = state
        .players
        .get(seat)
        .map(|p| p.name.clone())
        .unwrap_or_default();
    match condition_holds(state, seat, &info.text)? {
        false => {
            let input = serde_json::to_value(Input::Move {
                mv: Move::NoEffect { player: seat },
                override_reason: None,
            })
            .ok()?;
            Some(Action {
                player: Some(seat),
                label: format!("{name}'s effect: condition not met, no effect"),
                input,
            })
        }
        true => {
            // The card's printed numbers, or what the players changed them to.
            printed(&info.text, own)?;
            let p = Printed {
                atk: form.atk,
                def: form.def,
                opp_atk: form.opp_atk,
                opp_def: form.opp_def,
                sb: form.sb,
            };
            let input = serde_json::to_value(Input::Move {
                mv: effect_move(seat, p, form.note.trim()),
                override_reason: None,
            })
            .ok()?;
            Some(Action {
                player: Some(seat),
                label: format!("Apply {name}'s effect"),
                input,
            })
        }
    }
}

/// The effect form of the battle's resolving effect, made (filled in with the card's printed
/// numbers) when there is none yet.
fn effect_form_of<'f>(
    forms: &'f mut Forms,
    state: &State,
    seat: Seat,
    info: &cards::games::jaken::CardInfo,
) -> &'f mut EffectForm {
    let current = forms
        .effect
        .as_ref()
        .is_some_and(|f| f.battle == state.turn && f.seat == seat);
    if !current {
        let own = match &info.data {
            JakenCard::Monster(m) => Some(m),
            JakenCard::BattleGround(_) => None,
        };
        let p = printed(&info.text, own).unwrap_or_default();
        forms.effect = Some(EffectForm {
            battle: state.turn,
            seat,
            atk: p.atk,
            def: p.def,
            opp_atk: p.opp_atk,
            opp_def: p.opp_def,
            sb: p.sb,
            note: String::new(),
        });
    }
    forms.effect.get_or_insert_with(EffectForm::default)
}

/// The effect move of `seat` with the numbers `p` and a note.
fn effect_move(seat: Seat, p: Printed, note: &str) -> Move {
    Move::Effect {
        player: seat,
        atk: p.atk,
        def: p.def,
        opp_atk: p.opp_atk,
        opp_def: p.opp_def,
        sb: p.sb,
        note: note.to_owned(),
    }
}

/// The moves of the table, the last battle's result, then one column per player.
fn panel(ui: &mut Ui, view: &View<'_>, _: &GameUi, taps: &mut Taps, memory: &mut PanelMemory) {
    let (Some(state), Some(forms)) = (state_of::<Jaken>(view.game), memory.forms::<Forms>()) else {
        return;
    };
    taps.actions(ui, view, None, |_| false);
    // Compact: the last battle's summary is in the log.
    if !view.compact {
        last_battle(ui, state, view.lang);
    }
    ui.add_space(6.0);
    let players = view.ctx.players.len();
    ui.columns(players.max(1), |cols| {
        for (seat, ui) in cols.iter_mut().enumerate() {
            player_frame(ui, view, seat, |ui| {
                player_column(ui, view, state, seat, forms, taps)
            });
        }
    });
}

/// "Battle 3 / 10" / "第3バトル / 10".
fn turn(view: &View<'_>, of: &str) -> String {
    view.lang.battle(view.ctx.turn, of)
}

/// The step and the next one: written in Japanese here, the rules core's in English.
fn steps(view: &View<'_>) -> (String, String) {
    match (view.lang, state_of::<Jaken>(view.game)) {
        (Lang::Ja, Some(state)) => (step_ja(state), next_ja(state)),
        _ => (view.ctx.phase.step.clone(), view.ctx.phase.next.clone()),
    }
}

/// What the players are typing into the Jaken forms; cleared after every accepted input.
#[derive(Debug, Default)]
struct Forms {
    effect: Option<EffectForm>,
    bg: [BgForm; 2],
}

/// The effect being entered, for one battle and one player.
#[derive(Debug, Default)]
struct EffectForm {
    battle: u32,
    seat: Seat,
    atk: i32,
    def: i32,
    opp_atk: i32,
    opp_def: i32,
    sb: i32,
    note: String,
}

/// A BG use being entered.
#[derive(Debug)]
struct BgForm {
    uses: i32,
    atk: i32,
    def: i32,
    /// The BG card the numbers were filled in for (its printed bonus).
    card: Option<String>,
    /// 800×480: the numbers are entered in a dialog over the screen, open while true.
    open: bool,
}

impl Default for BgForm {
    fn default() -> Self {
        BgForm {
            uses: 1,
            atk: 0,
            def: 0,
            card: None,
            open: false,
        }
    }
}

/// The input of a Jaken move, as JSON.
fn move_input(mv: Move) -> Intent {
    match serde_json::to_value(Input::Move {
        mv,
        override_reason: None,
    }) {
        Ok(v) => Intent::Submit(v),
        Err(e) => Intent::Notice(format!("the move could not be written: {e}")),
    }
}

/// "灯り小僧 (Lantern Imp)", as the rules core names cards; "灯り小僧" in Japanese.
fn card_label(state: &State, id: &str, lang: Lang) -> String {
    state.cards.get(id).map_or_else(
        || id.to_owned(),
        |c| match lang {
            Lang::En => format!("{} ({})", c.name_ja, c.name_en),
            Lang::Ja => c.name_ja.clone(),
        },
    )
}

/// A move's button text: the rules core's label in English, the Japanese one built from the
/// move in Japanese.
fn action_label(view: &View<'_>, action: &Action) -> String {
    let (Lang::Ja, Some(state)) = (view.lang, state_of::<Jaken>(view.game)) else {
        return action.label.clone();
    };
    let Some(mv) = action
        .input
        .get("move")
        .and_then(|m| serde_json::from_value::<Move>(m.clone()).ok())
    else {
        return action.label.clone();
    };
    let name = |seat: Seat| view.name(seat).to_owned();
    let card = |id: &str| card_label(state, id, Lang::Ja);
    match mv {
        Move::FirstParent { player } => format!("{}がじゃんけんに勝って親になる", name(player)),
        Move::DeclareBg { player, card: id } => format!("{}がBG {}を宣言", name(player), card(&id)),
        Move::PassBg { player } => format!("{}はBGを宣言しない", name(player)),
        Move::FaceDown { player } => format!("{}がモンスターを裏向きに置く", name(player)),
        Move::NoMonster { player } => format!("{}は召喚できない(モンスターなし)", name(player)),
        Move::Reveal { player, card: id } => format!("{}が{}を公開", name(player), card(&id)),
        Move::Effect {
            player,
            atk,
            def,
            opp_atk,
            opp_def,
            sb,
            note,
        } => {
            let parts = cards::core::signed_changes(&[
                ("攻撃力", &atk),
                ("守備力", &def),
                ("相手の攻撃力", &opp_atk),
                ("相手の守備力", &opp_def),
                ("奪うSB", &sb),
            ]);
            let mut text = format!("{}の効果を適用", name(player));
            if !parts.is_empty() {
                text.push_str(&format!(": {}", parts.join("、")));
            }
            if !note.is_empty() {
                text.push_str(&format!("({note})"));
            }
            text
        }
        Move::NoEffect { player } => format!("{}の効果は発動しない", name(player)),
        Move::UseBg {
            player,
            uses,
            atk,
            def,
        } => format!(
            "{}がBGを使う({uses}回): 攻撃力 {atk:+}、守備力 {def:+}",
            name(player)
        ),
        Move::Compare {} => "攻撃力・守備力を比べてSBを移す".to_owned(),
        Move::EndBattle {} if state.turn >= 10 => "第10バトルを終えてSBを数える".to_owned(),
        Move::EndBattle {} => match state.parent {
            Some(p) => format!("{}がOBを{}に渡す", name(p), name(1 - p.min(1))),
            None => action.label.clone(),
        },
    }
}

/// The current step in Japanese (the core writes it in English).
fn step_ja(state: &State) -> String {
    let n = state.turn;
    match state.step {
        Step::Janken => "準備: じゃんけんで最初の親を決める".to_owned(),
        Step::ParentBg => format!("第{n}バトル P3: 親はBGを宣言できる"),
        Step::ChildCounter => format!("第{n}バトル P4: 子はBGで対抗できる"),
        Step::FaceDown => format!("第{n}バトル P5: 両者モンスターを裏向きに置く"),
        Step::Reveal => format!("第{n}バトル B1: 両者公開"),
        Step::Effects => format!("第{n}バトル B2: 効果解決(親から)"),
        Step::Compare => format!("第{n}バトル B4: 攻撃力・守備力を比べてSBを移す"),
        Step::BattleEnd => format!("第{n}バトル 終決: 親がOBを渡す"),
        Step::Over => "対戦終了".to_owned(),
    }
}

/// The next step in Japanese, as the core's `PhaseView::next`.
fn next_ja(state: &State) -> String {
    match state.step {
        Step::Janken => "第1バトル: 両者ドロー、親はBGを宣言できる".to_owned(),
        Step::ParentBg => "子の対抗(親がBGを宣言したときのみ)、両者モンスターを裏向きに".to_owned(),
        Step::ChildCounter => "両者モンスターを裏向きに置く".to_owned(),
        Step::FaceDown => "両者同時に公開".to_owned(),
        Step::Reveal => "効果解決(親から)".to_owned(),
        Step::Effects => "攻撃力・守備力を比べてSBを移す".to_owned(),
        Step::Compare => "親がOBを渡す".to_owned(),
        Step::BattleEnd if state.turn >= 10 => "最終集計: SBの多い方の勝ち".to_owned(),
        Step::BattleEnd => format!("第{}バトル: 両者ドロー", state.turn + 1),
        Step::Over => "—".to_owned(),
    }
}

/// The last battle's result, under the phase bar.
fn last_battle(ui: &mut Ui, state: &State, lang: Lang) {
    let Some(report) = &state.last_strike else {
        return;
    };
    let name = |s: usize| state.players[s].name.as_str();
    let moved = |s: usize| {
        let m = report.moved[s];
        match m {
            0 => "±0".to_owned(),
            m if m > 0 => format!("+{m}"),
            m => m.to_string(),
        }
    };
    let (a, b) = (name(0), name(1));
    let ([a_atk, a_def], [b_atk, b_def]) = (
        [report.values[0].0, report.values[0].1],
        [report.values[1].0, report.values[1].1],
    );
    let (a_moved, b_moved) = (moved(0), moved(1));
    let n = report.battle;
    let text = match lang {
        Lang::En => format!(
            "Battle {n}: {a} ATK {a_atk} / DEF {a_def} against {b} ATK {b_atk} / DEF {b_def} → {a} {a_moved} SB, {b} {b_moved} SB"
        ),
        Lang::Ja => format!(
            "第{n}バトル: {a} 攻撃力 {a_atk} / 守備力 {a_def} 対 {b} 攻撃力 {b_atk} / 守備力 {b_def} → {a} {a_moved} SB、{b} {b_moved} SB"
        ),
    };
    ui.add(Label::new(RichText::new(text).size(18.0)).wrap());
    for note in &report.notes {
        ui.add(Label::new(RichText::new(note).size(16.0).color(WARN)).wrap());
    }
}

/// One player's column.
fn player_column(
    ui: &mut Ui,
    view: &View<'_>,
    state: &State,
    seat: Seat,
    forms: &mut Forms,
    taps: &mut Taps,
) {
    let Some(p) = state.players.get(seat) else {
        return;
    };
    let lang = view.lang;
    let tr = lang.t();
    let sb = view.tracker(Some(seat), "sb");
    if view.compact {
        // SB first and biggest, on the name's row.
        let number = sb.map(|t| (t, "SB".to_owned(), format!("{}: {} SB", p.name, t.value)));
        name_line_with(ui, view, seat, tr.parent, tr.child, number, |ui, t| {
            taps.edit(ui, view, t)
        });
    } else {
        name_line(ui, view, seat, tr.parent, tr.child);
    }
    if let Some(t) = sb.filter(|_| !view.compact) {
        let size = 96.0;
        ui.horizontal(|ui| {
            big_number(ui, t.value, size, format!("{}: {} SB", p.name, t.value));
            ui.vertical(|ui| {
                ui.add_space(18.0);
                ui.label(RichText::new("SB 魂玉").size(24.0));
                taps.edit(ui, view, t);
            });
        });
    }
    // 800 px: the moves right under the name, the counts after them.
    if view.compact {
        ui.add_space(2.0);
        taps.actions(ui, view, Some(seat), is_reveal);
        if !view.over {
            effect_form(ui, view, state, seat, forms, taps);
            reveal_picker(ui, view, state, seat, taps);
        }
        bg_zone(ui, view, state, seat, &mut forms.bg[seat], taps);
    }
    ui.horizontal_wrapped(|ui| {
        taps.tracked(ui, view, Some(seat), "hand", tr.hand, 28.0);
        ui.add_space(8.0);
        taps.tracked(ui, view, Some(seat), "deck", tr.deck_count, 28.0);
        ui.add_space(8.0);
        // Whole, never split across rows (トラッシュ is one word).
        ui.add(
            Label::new(RichText::new(format!("{} {}", tr.trash, p.trash.len())).size(17.0))
                .extend(),
        );
    });
    ui.add_space(4.0);
    if !view.compact {
        taps.actions(ui, view, Some(seat), is_reveal);
        if !view.over {
            effect_form(ui, view, state, seat, forms, taps);
            reveal_picker(ui, view, state, seat, taps);
        }
    }
    battle_field(ui, view, state, seat, taps);
    if !view.compact {
        bg_zone(ui, view, state, seat, &mut forms.bg[seat], taps);
    }
}

/// "Aki uses the BG" with the form's numbers.
fn use_bg_button(ui: &mut Ui, lang: Lang, name: &str, seat: Seat, form: &BgForm, taps: &mut Taps) {
    let text = match lang {
        Lang::En => format!("{name} uses the BG"),
        Lang::Ja => format!("{name}がBGを使う"),
    };
    if action_button(ui, &text, None).clicked() {
        taps.intents.push(move_input(Move::UseBg {
            player: seat,
            uses: u8::try_from(form.uses).unwrap_or(1),
            atk: form.atk,
            def: form.def,
        }));
    }
}

/// Every unplayed monster of a player whose monster is face down, as one button each.
/// Too expensive cards are offered too (marked): revealing one shows the rule's refusal.
fn reveal_picker(ui: &mut Ui, view: &View<'_>, state: &State, seat: Seat, taps: &mut Taps) {
    let lang = view.lang;
    let p = &state.players[seat];
    if p.placement != Placement::FaceDown {
        return;
    }
    let caption = match lang {
        Lang::En => format!("{}: reveal your monster", p.name),
        Lang::Ja => format!("{}: モンスターを公開", p.name),
    };
    // 800 px: no caption (the prompt says it), every card in view.
    let caption = if view.compact { String::new() } else { caption };
    section(ui, &caption, |ui| {
        let mut ids: Vec<&String> = p
            .unplayed
            .iter()
            .filter(|id| {
                matches!(
                    state.cards.get(*id).map(|c| &c.data),
                    Some(JakenCard::Monster(_))
                )
            })
            .collect();
        ids.dedup();
        if view.compact {
            ui.spacing_mut().item_spacing.y = 4.0;
        }
        // Three a row at 800 px (every card of a deck in view), two otherwise.
        let per_row = if view.compact { 3.0 } else { 2.0 };
        let gap = ui.spacing().item_spacing.x;
        let width = ((ui.available_width() - gap * (per_row - 1.0)) / per_row - 1.0).max(100.0);
        ui.horizontal_wrapped(|ui| {
            for id in ids {
                let Some(info) = state.cards.get(id) else {
                    continue;
                };
                let JakenCard::Monster(m) = &info.data else {
                    continue;
                };
                let too_dear = u32::from(m.cost) > state.turn;
                let cost = match (lang, too_dear && !view.compact) {
                    (Lang::En, true) => format!("cost {} > battle {}", m.cost, state.turn),
                    (Lang::En, false) => format!("cost {}", m.cost),
                    (Lang::Ja, true) => format!("コスト {} > 第{}バトル", m.cost, state.turn),
                    (Lang::Ja, false) => format!("コスト {}", m.cost),
                };
                let text = match (lang, view.compact) {
                    // 800 px: one line a card, so every card of the deck fits the screen.
                    (_, true) => format!("{}\n{cost} · {}/{}", info.name_ja, m.atk, m.def),
                    (Lang::En, false) => format!(
                        "{}\n{}\n{cost} · {}/{}",
                        info.name_ja, info.name_en, m.atk, m.def
                    ),
                    (Lang::Ja, false) => {
                        format!("{}\n{cost} · {}/{}", info.name_ja, m.atk, m.def)
                    }
                };
                let mut rich = RichText::new(text).size(17.0);
                if too_dear {
                    rich = rich.color(WARN);
                }
                let height = if view.compact { 48.0 } else { 84.0 };
                let button = ui
                    .add_sized(
                        Vec2::new(width, height),
                        Button::new(rich.size(if view.compact { 14.0 } else { 17.0 })).wrap(),
                    )
                    .accessible_name(match lang {
                        Lang::En => format!("{} reveals {}", p.name, card_label(state, id, lang)),
                        Lang::Ja => format!("{}が{}を公開", p.name, card_label(state, id, lang)),
                    });
                for a in taps_reveals(view, seat, id) {
                    taps.target(a, button.rect);
                }
                if button.clicked() {
                    taps.intents.push(move_input(Move::Reveal {
                        player: seat,
                        card: id.clone(),
                    }));
                }
            }
        });
    });
}

/// The offered reveal moves of a seat naming card `id` (reached through its picker button).
fn taps_reveals<'a>(view: &View<'a>, seat: Seat, id: &str) -> Vec<&'a Action> {
    view.actions
        .iter()
        .filter(|a| {
            a.player == Some(seat)
                && is_reveal(a)
                && a.input
                    .pointer("/move/card")
                    .and_then(serde_json::Value::as_str)
                    == Some(id)
        })
        .collect()
}

/// The effect form, for the player whose effect resolves now (B2).
fn effect_form(
    ui: &mut Ui,
    view: &View<'_>,
    state: &State,
    seat: Seat,
    forms: &mut Forms,
    taps: &mut Taps,
) {
    let lang = view.lang;
    let tr = lang.t();
    if state.step != Step::Effects || state.pending_effects.first() != Some(&seat) {
        return;
    }
    let Placement::Revealed(id) = &state.players[seat].placement else {
        return;
    };
    let Some(info) = state.cards.get(id) else {
        return;
    };
    let name = state.players[seat].name.clone();
    let form = effect_form_of(forms, state, seat, info);
    let caption = match lang {
        Lang::En => format!("{name}'s effect resolves now"),
        Lang::Ja => format!("{name}の効果を解決"),
    };
    section(ui, &caption, |ui| {
        ui.label(
            RichText::new(card_label(state, id, lang))
                .size(22.0)
                .strong()
                .color(ACCENT),
        );
        // 800 px: the move first, the numbers under it.
        if view.compact {
            apply_effect(ui, view, seat, &name, form, taps);
        }
        if let JakenCard::Monster(m) = &info.data
            && let Some(wind) = m.wind
        {
            let text = lang.pick("Wind", "風");
            ui.label(RichText::new(format!("{text} {}", wind.label())).size(17.0));
        }
        ui.add(Label::new(RichText::new(&info.text).size(20.0)).wrap());
        ui.label(RichText::new(tr.enter_effect).size(16.0).weak());
        let prefix = match lang {
            Lang::En => format!("{name}'s effect:"),
            Lang::Ja => format!("{name}の効果:"),
        };
        stepper(
            ui,
            tr.own_atk,
            &format!("{prefix} {}", lang.pick("own ATK", tr.own_atk)),
            &mut form.atk,
            -20,
            20,
        );
        stepper(
            ui,
            tr.own_def,
            &format!("{prefix} {}", lang.pick("own DEF", tr.own_def)),
            &mut form.def,
            -20,
            20,
        );
        stepper(
            ui,
            tr.opp_atk,
            &format!("{prefix} {}", lang.pick("opponent ATK", tr.opp_atk)),
            &mut form.opp_atk,
            -20,
            20,
        );
        stepper(
            ui,
            tr.opp_def,
            &format!("{prefix} {}", lang.pick("opponent DEF", tr.opp_def)),
            &mut form.opp_def,
            -20,
            20,
        );
        stepper(
            ui,
            tr.sb_taken,
            &format!("{prefix} {}", lang.pick("SB taken", tr.sb_taken)),
            &mut form.sb,
            -20,
            20,
        );
        ui.add(
            TextEdit::singleline(&mut form.note)
                .hint_text(tr.note_hint)
                .desired_width(f32::INFINITY),
        )
        .accessible_name(format!("{prefix} {}", lang.pick("note", "メモ")));
        if !view.compact {
            apply_effect(ui, view, seat, &name, form, taps);
        }
    });
}

/// "Apply Aki's effect" with the form's numbers (the primary move when the app suggests it).
fn apply_effect(
    ui: &mut Ui,
    view: &View<'_>,
    seat: Seat,
    name: &str,
    form: &EffectForm,
    taps: &mut Taps,
) {
    let lang = view.lang;
    let apply = match lang {
        Lang::En => format!("Apply {name}'s effect"),
        Lang::Ja => format!("{name}の効果を適用"),
    };
    let mv = effect_move(
        seat,
        Printed {
            atk: form.atk,
            def: form.def,
            opp_atk: form.opp_atk,
            opp_def: form.opp_def,
            sb: form.sb,
        },
        form.note.trim(),
    );
    let primary = view.primary.is_some_and(|p| {
        serde_json::to_value(Input::Move {
            mv: mv.clone(),
            override_reason: None,
        })
        .is_ok_and(|v| v == p.input)
    });
    let key = (view.kiosk && primary).then_some("Space");
    if action_button(ui, &apply, key).clicked() {
        taps.intents.push(move_input(mv));
    }
}

/// The battle field: the monster, face down or revealed with its effective ATK/DEF.
fn battle_field(ui: &mut Ui, view: &View<'_>, state: &State, seat: Seat, taps: &mut Taps) {
    let lang = view.lang;
    let tr = lang.t();
    section(ui, tr.battle_field, |ui| {
        match &state.players[seat].placement {
            Placement::Empty => {
                ui.label(RichText::new(tr.empty).size(20.0));
            }
            Placement::FaceDown => {
                ui.label(RichText::new(tr.face_down_monster).size(22.0).strong());
            }
            Placement::NoMonster => {
                ui.label(RichText::new(tr.no_monster).size(22.0));
            }
            Placement::Revealed(id) => {
                let Some(info) = state.cards.get(id) else {
                    ui.label(id.as_str());
                    return;
                };
                let size = if view.compact { 26.0 } else { 32.0 };
                ui.label(RichText::new(&info.name_ja).size(size).strong());
                if let JakenCard::Monster(m) = &info.data {
                    let kind = match m.wind {
                        Some(w) => format!("EM, {} {}", lang.pick("wind", "風"), w.label()),
                        None => "NM".to_owned(),
                    };
                    ui.add(
                        Label::new(
                            RichText::new(match lang {
                                Lang::En => format!(
                                    "{} · {} · cost {} · printed {}/{} · {kind}",
                                    info.name_en, m.tribe, m.cost, m.atk, m.def
                                ),
                                Lang::Ja => format!(
                                    "{} · コスト {} · 印刷 {}/{} · {kind}",
                                    m.tribe, m.cost, m.atk, m.def
                                ),
                            })
                            .size(16.0),
                        )
                        .wrap(),
                    );
                }
                ui.horizontal_wrapped(|ui| {
                    taps.tracked(ui, view, Some(seat), "atk", "ATK", 48.0);
                    ui.add_space(12.0);
                    taps.tracked(ui, view, Some(seat), "def", "DEF", 48.0);
                });
                ui.add(Label::new(RichText::new(&info.text).size(16.0)).wrap());
            }
        }
    });
}

/// The BG zone, and the form to declare BG uses while the BG is active.
fn bg_zone(
    ui: &mut Ui,
    view: &View<'_>,
    state: &State,
    seat: Seat,
    form: &mut BgForm,
    taps: &mut Taps,
) {
    let p = &state.players[seat];
    let lang = view.lang;
    let tr = lang.t();
    // 800 px: no caption, the card's name says it.
    let caption = if view.compact { "" } else { tr.bg_zone };
    section(ui, caption, |ui| {
        let Some(bg) = &p.bg else {
            ui.label(RichText::new(tr.empty).size(20.0));
            return;
        };
        let info = state.cards.get(&bg.card);
        let (tribe, limit) = match info.map(|c| &c.data) {
            Some(JakenCard::BattleGround(g)) => (g.target_tribe.as_str(), g.use_limit),
            _ => ("?", 0),
        };
        ui.label(
            RichText::new(card_label(state, &bg.card, lang))
                .size(20.0)
                .strong(),
        );
        ui.horizontal_wrapped(|ui| {
            let (target, of) = match lang {
                Lang::En => (format!("for {tribe}"), format!("of {limit}")),
                Lang::Ja => (format!("対象 {tribe}"), format!("/ {limit}")),
            };
            ui.label(RichText::new(target).size(17.0));
            taps.tracked(ui, view, Some(seat), "bg-uses", tr.uses_left, 26.0);
            ui.label(RichText::new(of).size(17.0));
            let side = if bg.face_up {
                tr.face_up
            } else {
                tr.face_down_used
            };
            ui.label(RichText::new(side).size(17.0).strong());
        });
        // 800 px: the card lies on the table; its text would push its use off the screen.
        if let Some(info) = info.filter(|_| !view.compact) {
            ui.add(Label::new(RichText::new(&info.text).size(16.0)).wrap());
        }
        // Offered whenever the BG is active; a use outside the strategy phase (P3 … B4) is
        // refused by the rules with their sentence, and can be overridden.
        if !bg.face_up || view.over {
            return;
        }
        if !state.step.is_strategy_phase() {
            ui.label(RichText::new(tr.bg_strategy_only).size(15.0).weak());
        }
        if form.card.as_deref() != Some(bg.card.as_str()) {
            // The BG's printed bonus ("this monster gets +2 ATK"); a choice stays at 0.
            let p = info
                .and_then(|i| printed(&i.text, None))
                .unwrap_or_default();
            *form = BgForm {
                uses: 1,
                atk: p.atk,
                def: p.def,
                card: Some(bg.card.clone()),
                open: false,
            };
        }
        let left = i32::from(bg.uses_left);
        form.uses = form.uses.clamp(1, left.max(1));
        // 800 px: one button, the numbers in a dialog over the screen (they would be pushed
        // off it below the BG).
        if view.compact {
            let open = match lang {
                Lang::En => format!("{}: BG use…", p.name),
                Lang::Ja => format!("{}: BGを使う…", p.name),
            };
            if action_button(ui, &open, None).clicked() {
                form.open = true;
            }
            if form.open {
                bg_use_dialog(ui, view, &p.name, seat, left, form, taps);
            }
            return;
        }
        let prefix = match lang {
            Lang::En => format!("{}'s BG use:", p.name),
            Lang::Ja => format!("{}のBG使用:", p.name),
        };
        stepper(
            ui,
            tr.uses,
            &format!("{prefix} {}", lang.pick("uses", tr.uses)),
            &mut form.uses,
            1,
            left.max(1),
        );
        stepper(ui, "ATK", &format!("{prefix} ATK"), &mut form.atk, -20, 20);
        stepper(ui, "DEF", &format!("{prefix} DEF"), &mut form.def, -20, 20);
        use_bg_button(ui, lang, &p.name, seat, form, taps);
    });
}

/// The BG use's numbers at 800×480: uses, ATK and DEF, the use, and a way back.
fn bg_use_dialog(
    ui: &mut Ui,
    view: &View<'_>,
    name: &str,
    seat: Seat,
    left: i32,
    form: &mut BgForm,
    taps: &mut Taps,
) {
    let lang = view.lang;
    let tr = lang.t();
    let prefix = match lang {
        Lang::En => format!("{name}'s BG use:"),
        Lang::Ja => format!("{name}のBG使用:"),
    };
    let mut close = false;
    let modal = egui::Modal::new(egui::Id::unique(("bg-use", seat))).show(ui.ctx(), |ui| {
        ui.set_max_width(ui.ctx().content_rect().width().min(760.0) - 40.0);
        ui.label(
            RichText::new(prefix.trim_end_matches(':'))
                .size(22.0)
                .strong(),
        );
        stepper(
            ui,
            tr.uses,
            &format!("{prefix} {}", lang.pick("uses", tr.uses)),
            &mut form.uses,
            1,
            left.max(1),
        );
        stepper(ui, "ATK", &format!("{prefix} ATK"), &mut form.atk, -20, 20);
        stepper(ui, "DEF", &format!("{prefix} DEF"), &mut form.def, -20, 20);
        let before = taps.intents.len();
        use_bg_button(ui, lang, name, seat, form, taps);
        let cancel = tr.cancel;
        if ui
            .add(Button::new(RichText::new(cancel).size(18.0)))
            .accessible_name(format!("{prefix} {cancel}"))
            .clicked()
        {
            close = true;
        }
        if taps.intents.len() > before {
            close = true;
        }
    });
    if close || modal.should_close() {
        form.open = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printed_numbers_are_read_from_the_demo_texts() {
        let p = |text: &str| printed(text, None);
        assert_eq!(
            p("If you are the parent: this monster gets +2 ATK."),
            Some(Printed {
                atk: 2,
                ..Printed::default()
            })
        );
        assert_eq!(
            p("If you are the parent: your opponent's monster gets -1 DEF."),
            Some(Printed {
                opp_def: -1,
                ..Printed::default()
            })
        );
        assert_eq!(
            p("If you are the parent: both monsters get -1 ATK."),
            Some(Printed {
                atk: -1,
                opp_atk: -1,
                ..Printed::default()
            })
        );
        assert_eq!(
            p("If you are the parent: steal 1 SB from your opponent."),
            Some(Printed {
                sb: 1,
                ..Printed::default()
            })
        );
        assert_eq!(
            p("BG effect (1 use): this monster gets +2 ATK this battle."),
            Some(Printed {
                atk: 2,
                ..Printed::default()
            })
        );
        assert_eq!(
            p("BG effect (1 use): this monster gets +1 ATK or +1 DEF."),
            None
        );
        assert_eq!(
            p("A small imp that carries a lantern through the night."),
            None
        );
    }
}
