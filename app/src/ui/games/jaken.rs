//! The Jaken parts of the table screen: a player's column (SB, counts, BG zone, battle field),
//! the reveal picker, and the forms for moves that need numbers (effects, BG uses).

use super::generic::GENERIC;
use super::spec::{GameUi, Start, state_of};
use crate::ui::i18n::Lang;
use crate::ui::view::{Intent, PanelMemory, Taps, View, is_reveal, name_line, player_frame};
use crate::ui::widgets::{ACCENT, WARN, action_button, big_number, section, stepper};
use cards::catalogue::JakenCard;
use cards::core::Seat;
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
    ..GENERIC
};

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
}

impl Default for BgForm {
    fn default() -> Self {
        BgForm {
            uses: 1,
            atk: 0,
            def: 0,
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
        Move::Effect { player, .. } => format!("{}の効果を適用", name(player)),
        Move::NoEffect { player } => format!("{}の効果は発動しない", name(player)),
        Move::UseBg { player, .. } => format!("{}がBGを使う", name(player)),
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
    name_line(ui, view, seat, tr.parent, tr.child);
    if let Some(t) = view.tracker(Some(seat), "sb") {
        let size = if view.compact { 64.0 } else { 96.0 };
        ui.horizontal(|ui| {
            big_number(ui, t.value, size, format!("{}: {} SB", p.name, t.value));
            ui.vertical(|ui| {
                ui.add_space(if view.compact { 8.0 } else { 18.0 });
                ui.label(RichText::new("SB 魂玉").size(24.0));
                taps.edit(ui, view, t);
            });
        });
    }
    ui.horizontal_wrapped(|ui| {
        taps.tracked(ui, view, Some(seat), "hand", tr.hand, 28.0);
        ui.add_space(8.0);
        taps.tracked(ui, view, Some(seat), "deck", tr.deck_count, 28.0);
        ui.add_space(8.0);
        ui.label(RichText::new(format!("{} {}", tr.trash, p.trash.len())).size(17.0));
    });
    ui.add_space(4.0);
    taps.actions(ui, view, Some(seat), is_reveal);
    if !view.over {
        effect_form(ui, view, state, seat, forms, taps);
        reveal_picker(ui, state, seat, taps, lang);
    }
    battle_field(ui, view, state, seat, taps);
    bg_zone(ui, view, state, seat, &mut forms.bg[seat], taps);
}

/// Every unplayed monster of a player whose monster is face down, as one button each.
/// Too expensive cards are offered too (marked): revealing one shows the rule's refusal.
fn reveal_picker(ui: &mut Ui, state: &State, seat: Seat, taps: &mut Taps, lang: Lang) {
    let p = &state.players[seat];
    if p.placement != Placement::FaceDown {
        return;
    }
    let caption = match lang {
        Lang::En => format!("{}: reveal your monster", p.name),
        Lang::Ja => format!("{}: モンスターを公開", p.name),
    };
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
        let width = ((ui.available_width() - ui.spacing().item_spacing.x) / 2.0 - 1.0).max(150.0);
        ui.horizontal_wrapped(|ui| {
            for id in ids {
                let Some(info) = state.cards.get(id) else {
                    continue;
                };
                let JakenCard::Monster(m) = &info.data else {
                    continue;
                };
                let too_dear = u32::from(m.cost) > state.turn;
                let cost = match (lang, too_dear) {
                    (Lang::En, true) => format!("cost {} > battle {}", m.cost, state.turn),
                    (Lang::En, false) => format!("cost {}", m.cost),
                    (Lang::Ja, true) => format!("コスト {} > 第{}バトル", m.cost, state.turn),
                    (Lang::Ja, false) => format!("コスト {}", m.cost),
                };
                let text = match lang {
                    Lang::En => format!(
                        "{}\n{}\n{cost} · {}/{}",
                        info.name_ja, info.name_en, m.atk, m.def
                    ),
                    Lang::Ja => format!("{}\n{cost} · {}/{}", info.name_ja, m.atk, m.def),
                };
                let mut rich = RichText::new(text).size(17.0);
                if too_dear {
                    rich = rich.color(WARN);
                }
                let button = ui
                    .add_sized(Vec2::new(width, 84.0), Button::new(rich).wrap())
                    .accessible_name(match lang {
                        Lang::En => format!("{} reveals {}", p.name, card_label(state, id, lang)),
                        Lang::Ja => format!("{}が{}を公開", p.name, card_label(state, id, lang)),
                    });
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
    let form = match &mut forms.effect {
        Some(f) if f.battle == state.turn && f.seat == seat => f,
        slot => slot.insert(EffectForm {
            battle: state.turn,
            seat,
            ..EffectForm::default()
        }),
    };
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
        let apply = match lang {
            Lang::En => format!("Apply {name}'s effect"),
            Lang::Ja => format!("{name}の効果を適用"),
        };
        if action_button(ui, &apply, None).clicked() {
            taps.intents.push(move_input(Move::Effect {
                player: seat,
                atk: form.atk,
                def: form.def,
                opp_atk: form.opp_atk,
                opp_def: form.opp_def,
                sb: form.sb,
                note: form.note.trim().to_owned(),
            }));
        }
    });
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
    section(ui, tr.bg_zone, |ui| {
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
        if let Some(info) = info {
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
        let left = i32::from(bg.uses_left);
        form.uses = form.uses.clamp(1, left.max(1));
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
        let text = match lang {
            Lang::En => format!("{} uses the BG", p.name),
            Lang::Ja => format!("{}がBGを使う", p.name),
        };
        if action_button(ui, &text, None).clicked() {
            taps.intents.push(move_input(Move::UseBg {
                player: seat,
                uses: u8::try_from(form.uses).unwrap_or(1),
                atk: form.atk,
                def: form.def,
            }));
        }
    });
}
