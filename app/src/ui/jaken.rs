//! The Jaken parts of the table screen: a player's column (SB, counts, BG zone, battle field),
//! the reveal picker, and the forms for moves that need numbers (effects, BG uses).

use super::table::{Intent, Taps, View, name_line};
use super::widgets::{ACCENT, WARN, action_button, big_number, section, stepper};
use cards::catalogue::JakenCard;
use cards::core::Seat;
use cards::games::jaken::{Move, Placement, State, Step};
use cards::matches::{Action, Input};
use egui::{Button, Label, RichText, TextEdit, Ui, Vec2};

/// What the players are typing into the Jaken forms; cleared after every accepted input.
#[derive(Debug, Default)]
pub(crate) struct Forms {
    effect: Option<EffectForm>,
    bg: [BgForm; 2],
}

impl Forms {
    /// Empties every form.
    pub(crate) fn clear(&mut self) {
        *self = Forms::default();
    }
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

fn is_reveal(action: &Action) -> bool {
    action
        .input
        .pointer("/move/type")
        .and_then(serde_json::Value::as_str)
        == Some("reveal")
}

/// "灯り小僧 (Lantern Imp)", as the rules core names cards.
fn card_label(state: &State, id: &str) -> String {
    state.cards.get(id).map_or_else(
        || id.to_owned(),
        |c| format!("{} ({})", c.name_ja, c.name_en),
    )
}

/// The last battle's result, under the phase bar.
pub(crate) fn last_battle(ui: &mut Ui, state: &State) {
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
    let text = format!(
        "Battle {}: {} ATK {} / DEF {} against {} ATK {} / DEF {} → {} {} SB, {} {} SB",
        report.battle,
        name(0),
        report.values[0].0,
        report.values[0].1,
        name(1),
        report.values[1].0,
        report.values[1].1,
        name(0),
        moved(0),
        name(1),
        moved(1),
    );
    ui.add(Label::new(RichText::new(text).size(18.0)).wrap());
    for note in &report.notes {
        ui.add(Label::new(RichText::new(note).size(16.0).color(WARN)).wrap());
    }
}

/// One player's column.
pub(crate) fn player_column(
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
    name_line(ui, view, seat, "親 Parent · OB", "子 Child");
    if let Some(t) = view.tracker(Some(seat), "sb") {
        ui.horizontal(|ui| {
            big_number(ui, t.value, 96.0, format!("{}: {} SB", p.name, t.value));
            ui.vertical(|ui| {
                ui.add_space(18.0);
                ui.label(RichText::new("SB 魂玉").size(24.0));
                taps.edit(ui, view, t);
            });
        });
    }
    ui.horizontal_wrapped(|ui| {
        taps.tracked(ui, view, Some(seat), "hand", "Hand 手札", 28.0);
        ui.add_space(8.0);
        taps.tracked(ui, view, Some(seat), "deck", "Deck デッキ", 28.0);
        ui.add_space(8.0);
        ui.label(RichText::new(format!("Trash {}", p.trash.len())).size(17.0));
    });
    ui.add_space(4.0);
    taps.actions(ui, view, Some(seat), is_reveal);
    if !view.over {
        effect_form(ui, state, seat, forms, taps);
        reveal_picker(ui, state, seat, taps);
    }
    battle_field(ui, view, state, seat, taps);
    bg_zone(ui, view, state, seat, &mut forms.bg[seat], taps);
}

/// Every unplayed monster of a player whose monster is face down, as one button each.
/// Too expensive cards are offered too (marked): revealing one shows the rule's refusal.
fn reveal_picker(ui: &mut Ui, state: &State, seat: Seat, taps: &mut Taps) {
    let p = &state.players[seat];
    if p.placement != Placement::FaceDown {
        return;
    }
    section(ui, &format!("{}: reveal your monster", p.name), |ui| {
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
                let cost = if too_dear {
                    format!("cost {} > battle {}", m.cost, state.turn)
                } else {
                    format!("cost {}", m.cost)
                };
                let text = format!(
                    "{}\n{}\n{cost} · {}/{}",
                    info.name_ja, info.name_en, m.atk, m.def
                );
                let mut rich = RichText::new(text).size(17.0);
                if too_dear {
                    rich = rich.color(WARN);
                }
                let button = ui
                    .add_sized(Vec2::new(width, 84.0), Button::new(rich).wrap())
                    .accessible_name(format!("{} reveals {}", p.name, card_label(state, id)));
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
fn effect_form(ui: &mut Ui, state: &State, seat: Seat, forms: &mut Forms, taps: &mut Taps) {
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
    section(ui, &format!("{name}'s effect resolves now"), |ui| {
        ui.label(
            RichText::new(card_label(state, id))
                .size(22.0)
                .strong()
                .color(ACCENT),
        );
        if let JakenCard::Monster(m) = &info.data
            && let Some(wind) = m.wind
        {
            ui.label(RichText::new(format!("Wind {}", wind.label())).size(17.0));
        }
        ui.add(Label::new(RichText::new(&info.text).size(20.0)).wrap());
        ui.label(
            RichText::new("Enter what the effect does:")
                .size(16.0)
                .weak(),
        );
        let prefix = format!("{name}'s effect:");
        stepper(
            ui,
            "Own ATK",
            &format!("{prefix} own ATK"),
            &mut form.atk,
            -20,
            20,
        );
        stepper(
            ui,
            "Own DEF",
            &format!("{prefix} own DEF"),
            &mut form.def,
            -20,
            20,
        );
        stepper(
            ui,
            "Opponent ATK",
            &format!("{prefix} opponent ATK"),
            &mut form.opp_atk,
            -20,
            20,
        );
        stepper(
            ui,
            "Opponent DEF",
            &format!("{prefix} opponent DEF"),
            &mut form.opp_def,
            -20,
            20,
        );
        stepper(
            ui,
            "SB taken",
            &format!("{prefix} SB taken"),
            &mut form.sb,
            -20,
            20,
        );
        ui.add(
            TextEdit::singleline(&mut form.note)
                .hint_text("note (optional)")
                .desired_width(f32::INFINITY),
        )
        .accessible_name(format!("{prefix} note"));
        if action_button(ui, &format!("Apply {name}'s effect")).clicked() {
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
    section(ui, "Battle field", |ui| {
        match &state.players[seat].placement {
            Placement::Empty => {
                ui.label(RichText::new("empty").size(20.0));
            }
            Placement::FaceDown => {
                ui.label(RichText::new("a monster, face down").size(22.0).strong());
            }
            Placement::NoMonster => {
                ui.label(RichText::new("no monster: ATK 0 / DEF 0").size(22.0));
            }
            Placement::Revealed(id) => {
                let Some(info) = state.cards.get(id) else {
                    ui.label(id.as_str());
                    return;
                };
                ui.label(RichText::new(&info.name_ja).size(32.0).strong());
                if let JakenCard::Monster(m) = &info.data {
                    let kind = match m.wind {
                        Some(w) => format!("EM, wind {}", w.label()),
                        None => "NM".to_owned(),
                    };
                    ui.add(
                        Label::new(
                            RichText::new(format!(
                                "{} · {} · cost {} · printed {}/{} · {kind}",
                                info.name_en, m.tribe, m.cost, m.atk, m.def
                            ))
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
    section(ui, "BG zone", |ui| {
        let Some(bg) = &p.bg else {
            ui.label(RichText::new("empty").size(20.0));
            return;
        };
        let info = state.cards.get(&bg.card);
        let (tribe, limit) = match info.map(|c| &c.data) {
            Some(JakenCard::BattleGround(g)) => (g.target_tribe.as_str(), g.use_limit),
            _ => ("?", 0),
        };
        ui.label(
            RichText::new(card_label(state, &bg.card))
                .size(20.0)
                .strong(),
        );
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(format!("for {tribe}")).size(17.0));
            taps.tracked(ui, view, Some(seat), "bg-uses", "uses left", 26.0);
            ui.label(RichText::new(format!("of {limit}")).size(17.0));
            let side = if bg.face_up {
                "face up"
            } else {
                "face down (used up)"
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
            ui.label(
                RichText::new("BG uses belong to P3 … B4 (the strategy phase).")
                    .size(15.0)
                    .weak(),
            );
        }
        let left = i32::from(bg.uses_left);
        form.uses = form.uses.clamp(1, left.max(1));
        let prefix = format!("{}'s BG use:", p.name);
        stepper(
            ui,
            "Uses",
            &format!("{prefix} uses"),
            &mut form.uses,
            1,
            left.max(1),
        );
        stepper(ui, "ATK", &format!("{prefix} ATK"), &mut form.atk, -20, 20);
        stepper(ui, "DEF", &format!("{prefix} DEF"), &mut form.def, -20, 20);
        if action_button(ui, &format!("{} uses the BG", p.name)).clicked() {
            taps.intents.push(move_input(Move::UseBg {
                player: seat,
                uses: u8::try_from(form.uses).unwrap_or(1),
                atk: form.atk,
                def: form.def,
            }));
        }
    });
}
