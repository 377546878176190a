//! The game panel of every game without its own panel (all but Jaken): the current step, a
//! column per player with their tracked numbers large and their legal moves as large buttons,
//! and the moves of the whole table. The moves are the game's own `actions()`, with their own
//! labels; a tap submits the move through the session like Jaken's buttons.
//!
//! Three pickers cover the moves a button alone cannot say:
//! - a number the move carries (Rockman EXE's attack bonus, Space Junk's attack range): a
//!   stepper over the values the game offers, and only the buttons with the chosen value;
//! - a hand-resolved effect: a form with the game's numbers (steppers) and a note;
//! - a move that names cards (Space Junk's search draw; Yomi's power-up, pump, and the discard
//!   and deck search of an ability resolved by hand): the cards it can name, tapped in order.
//!
//! The moves the game offers that break a rule sit under "Against the rules", folded: a tap
//! opens the refusal dialog, where the table can override with a reason.
//!
//! What a game offers the pickers and the effect form is in its entry of the table of games
//! (`ui/games/<game>.rs`, read through [`GameUi`]).

use super::spec::{
    CardPick, GameUi, Param, Start, no_card_names, no_suggestion, no_tracker_ja, nothing_to_pick,
    plain_label, plain_prompt, plain_steps, plain_turn,
};
use crate::ui::i18n::Lang;
use crate::ui::view::{
    Intent, PanelMemory, Taps, View, name_line_with, player_frame, tracker_label,
};
use crate::ui::widgets::{ACTIVE, action_button, big_number, section, touch_height};
use cards::core::Seat;
use cards::matches::Action;
use egui::{Button, CollapsingHeader, Label, RichText, Sense, TextEdit, Ui, Vec2};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

/// The generic panel with the rules core's labels, turns and steps, and no pickers, effect form
/// or card names: what the entry of a game without a panel of its own starts from.
pub(crate) const GENERIC: GameUi = GameUi {
    panel: game_panel,
    label: plain_label,
    turn: plain_turn,
    steps: plain_steps,
    params: &[],
    effect_fields: &[],
    effect_flags: &[],
    picks: &[],
    card_name: no_card_names,
    pickable: nothing_to_pick,
    start: Start::ReadyMade { switches: &[] },
    headline: "hp",
    confirm: &[],
    suggest: no_suggestion,
    prompt: plain_prompt,
    tracker_ja: no_tracker_ja,
    outcome: super::spec::plain_outcome,
    rules: super::spec::RulesCheck {
        keys: Vec::new,
        check: |_| Ok(()),
    },
};

/// What the pickers hold between frames (egui's memory, one per window).
#[derive(Clone, Debug, Default)]
struct Forms {
    /// The chosen value of a move's number, by seat and key.
    params: BTreeMap<(Seat, &'static str), i64>,
    /// Open effect forms by seat.
    effects: BTreeMap<Seat, EffectForm>,
    /// The cards picked so far, by seat and move, in the order tapped.
    picked: BTreeMap<(Seat, &'static str), Vec<String>>,
    /// The player a tap on a condensed player showed, and the log length then.
    focus: Option<(Seat, usize)>,
}

#[derive(Clone, Debug, Default)]
struct EffectForm {
    numbers: BTreeMap<&'static str, i32>,
    flags: BTreeMap<&'static str, bool>,
    note: String,
}

fn move_type(a: &Action) -> Option<&str> {
    a.input.pointer("/move/type").and_then(Value::as_str)
}

/// The value of a move's number (absent means 0: the game leaves zeros out).
fn param_value(a: &Action, key: &str) -> i64 {
    a.input
        .pointer(&format!("/move/{key}"))
        .and_then(Value::as_i64)
        .unwrap_or(0)
}

/// The step, the table's moves, then one column per player; when the players do not fit side
/// by side (Space Junk with 4 or 6 at 800 px), a focus view: the player to act in full, the
/// others condensed to their name and deciding number (a tap on one shows that player).
pub(crate) fn game_panel(
    ui: &mut Ui,
    view: &View<'_>,
    game: &GameUi,
    taps: &mut Taps,
    _: &mut PanelMemory,
) {
    let id = ui.make_persistent_id("generic-panel-forms");
    let mut forms: Forms = ui.data(|d| d.get_temp(id)).unwrap_or_default();
    // Compact: the top bar says the step.
    if !view.compact {
        ui.add(Label::new(RichText::new(&view.ctx.phase.step).size(28.0).strong()).wrap());
    }
    if view.actions.iter().any(|a| a.player.is_none()) {
        section(ui, view.lang.pick("Table", "テーブル"), |ui| {
            taps.actions(ui, view, None, |_| false);
        });
    }
    ui.add_space(4.0);
    let players = view.ctx.players.len();
    let fit = ((ui.available_width() / 300.0).floor() as usize).max(2);
    let movers = (0..players)
        .filter(|s| view.actions.iter().any(|a| a.player == Some(*s)))
        .count();
    // At 800 px a player who moves alone gets the whole width (two buttons a row).
    if players <= fit && !(view.compact && movers == 1) {
        ui.columns(players.max(1), |cols| {
            for (seat, ui) in cols.iter_mut().enumerate() {
                player_frame(ui, view, seat, |ui| {
                    player_column(ui, view, game, seat, taps, &mut forms)
                });
            }
        });
    } else {
        // The others one above the other on the left, the player in focus beside them: the
        // moves get the whole height of the screen.
        let focus = focus_seat(view, &mut forms);
        let tiles = if view.compact { 150.0 } else { 190.0 };
        ui.horizontal_top(|ui| {
            ui.allocate_ui(Vec2::new(tiles, 0.0), |ui| {
                ui.set_max_width(tiles);
                ui.vertical(|ui| condensed_players(ui, view, game, focus, taps, &mut forms));
            });
            let rest = ui.available_width();
            ui.allocate_ui(Vec2::new(rest, 0.0), |ui| {
                ui.set_max_width(rest);
                player_frame(ui, view, focus, |ui| {
                    player_column(ui, view, game, focus, taps, &mut forms)
                });
            });
        });
    }
    ui.data_mut(|d| d.insert_temp(id, forms));
}

/// The player shown in full in the focus view: the one a tap on a condensed player chose (until
/// the next entry of the log), else the player to act when they have a move, else the first
/// player with a move, else the player to act.
fn focus_seat(view: &View<'_>, forms: &mut Forms) -> Seat {
    let len = view.game.len();
    if let Some((seat, at)) = forms.focus
        && at == len
        && seat < view.ctx.players.len()
    {
        return seat;
    }
    forms.focus = None;
    let has_moves = |seat: Seat| view.actions.iter().any(|a| a.player == Some(seat));
    view.ctx
        .active
        .filter(|s| has_moves(*s))
        .or_else(|| (0..view.ctx.players.len()).find(|s| has_moves(*s)))
        .or(view.ctx.active)
        .unwrap_or(0)
}

/// The other players of the focus view, one tile each: name, deciding number, whether they
/// have a move; a tap shows that player in full.
fn condensed_players(
    ui: &mut Ui,
    view: &View<'_>,
    game: &GameUi,
    focus: Seat,
    taps: &mut Taps,
    forms: &mut Forms,
) {
    let others: Vec<Seat> = (0..view.ctx.players.len())
        .filter(|s| *s != focus)
        .collect();
    if others.is_empty() {
        return;
    }
    let width = ui.available_width();
    let number = if view.compact { 56.0 } else { 64.0 };
    ui.spacing_mut().item_spacing.y = 4.0;
    {
        for seat in others {
            let name = view.name(seat).to_owned();
            let moves = view
                .actions
                .iter()
                .filter(|a| a.player == Some(seat))
                .count();
            let value = view.tracker(Some(seat), game.headline);
            let (rect, tapped) = ui
                .allocate_ui(Vec2::new(width, 0.0), |ui| {
                    let frame = player_tile(ui, view, seat, |ui| {
                        ui.horizontal(|ui| {
                            ui.vertical(|ui| {
                                ui.add(
                                    Label::new(RichText::new(&name).size(17.0).strong()).truncate(),
                                );
                                if moves > 0 {
                                    ui.label(
                                        RichText::new(view.lang.pick("▶ moves", "▶ 手番"))
                                            .size(14.0)
                                            .color(ACTIVE),
                                    );
                                }
                            });
                            if let Some(t) = value {
                                big_number(
                                    ui,
                                    t.value,
                                    number,
                                    format!("{}{}: {}", view.who(Some(seat)), t.label, t.value),
                                );
                            }
                        });
                    });
                    let show = view
                        .lang
                        .pick(format!("Show {name}"), format!("{name}を表示"));
                    let response = ui
                        .interact(
                            frame.rect,
                            ui.scope_id().with(("tile", seat)),
                            Sense::click(),
                        )
                        .on_hover_cursor(egui::CursorIcon::PointingHand);
                    response
                        .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &show));
                    (frame.rect, response.clicked())
                })
                .inner;
            // The player's moves are a tap away: on the tile.
            for a in view.actions.iter().filter(|a| a.player == Some(seat)) {
                taps.target(a, rect);
            }
            if tapped {
                forms.focus = Some((seat, view.game.len()));
                ui.ctx().request_repaint();
            }
        }
    }
}

/// A condensed player's frame, outlined when that player is to act.
fn player_tile(
    ui: &mut Ui,
    view: &View<'_>,
    seat: Seat,
    add: impl FnOnce(&mut Ui),
) -> egui::Response {
    let active = view.ctx.active == Some(seat) && !view.over;
    let stroke = if active {
        egui::Stroke::new(3.0, ACTIVE)
    } else {
        egui::Stroke::new(3.0, ui.visuals().widgets.noninteractive.bg_stroke.color)
    };
    egui::Frame::new()
        .stroke(stroke)
        .corner_radius(8.0)
        .inner_margin(6.0)
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            add(ui);
        })
        .response
}

/// A player's column: the name line and what the rules wait for, the deciding number (the
/// biggest, first), the player's moves, the pickers, the moves that break a rule, then every
/// other number of the player (smaller, correctable).
fn player_column(
    ui: &mut Ui,
    view: &View<'_>,
    game: &GameUi,
    seat: Seat,
    taps: &mut Taps,
    forms: &mut Forms,
) {
    let number = view.tracker(Some(seat), game.headline).map(|t| {
        (
            t,
            tracker_label(view, t),
            format!("{}{}: {}", view.who(Some(seat)), t.label, t.value),
        )
    });
    name_line_with(
        ui,
        view,
        seat,
        view.lang.t().first_player,
        "",
        number,
        |ui, t| taps.edit(ui, view, t),
    );
    let own: Vec<&Action> = view
        .actions
        .iter()
        .filter(|a| a.player == Some(seat))
        .collect();
    // A stepper per number the player's moves carry; the buttons show the chosen value only.
    let mut chosen: Vec<(&Param, i64)> = Vec::new();
    for p in game.params {
        let mut values: Vec<i64> = own
            .iter()
            .filter(|a| move_type(a) == Some(p.move_type))
            .map(|a| param_value(a, p.key))
            .collect();
        values.sort_unstable();
        values.dedup();
        if values.is_empty() {
            continue;
        }
        let value = forms.params.entry((seat, p.key)).or_insert(0);
        if !values.contains(value) {
            *value = values[0];
        }
        let rect = value_picker(ui, view, seat, p, &values, value);
        // The moves with another value are reached through the stepper.
        for a in own
            .iter()
            .filter(|a| move_type(a) == Some(p.move_type) && param_value(a, p.key) != *value)
        {
            taps.target(a, rect);
        }
        chosen.push((p, *value));
    }
    let hidden = |a: &Action| {
        chosen
            .iter()
            .any(|(p, v)| move_type(a) == Some(p.move_type) && param_value(a, p.key) != *v)
    };
    let picked_types = card_pickers(ui, view, game, seat, &own, taps, forms);
    let shown = |a: &Action| !hidden(a) && !move_type(a).is_some_and(|t| picked_types.contains(&t));
    // Moves whose text does not say the card (a supporter placed face down): one folded
    // button per text, opened by the player to tap the card.
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for a in own.iter().filter(|a| shown(a)) {
        *count.entry(a.label.as_str()).or_default() += 1;
    }
    taps.actions(ui, view, Some(seat), |a| {
        !shown(a) || count.get(a.label.as_str()).is_some_and(|n| *n > 1)
    });
    for (label, _) in count.iter().filter(|(_, n)| **n > 1) {
        let folded = CollapsingHeader::new(RichText::new(*label).size(20.0))
            .id_salt(("same-text", seat, *label))
            .show(ui, |ui| {
                for a in own.iter().filter(|a| shown(a) && a.label == *label) {
                    let card = a.input.pointer("/move/card").and_then(Value::as_str);
                    let text = match card {
                        Some(id) => format!("{label}: {} ({id})", card_name(view, game, id)),
                        None => format!("{label}: {}", a.input["move"]),
                    };
                    if action_button(ui, &text, None).clicked() {
                        taps.intents.push(Intent::Submit(a.input.clone()));
                    }
                }
            });
        for a in own.iter().filter(|a| shown(a) && a.label == *label) {
            taps.target(a, folded.header_response.rect);
        }
    }
    effect_form(ui, view, game, seat, taps, forms);
    against_the_rules(ui, view, seat, taps, &hidden);
    other_trackers(ui, view, game, seat, taps);
}

/// The player's numbers other than the deciding one: in a compact window side by side and
/// smaller, otherwise one a row.
fn other_trackers(ui: &mut Ui, view: &View<'_>, game: &GameUi, seat: Seat, taps: &mut Taps) {
    let rest: Vec<_> = view
        .trackers
        .iter()
        .filter(|t| t.id.player == Some(seat) && t.id.name != game.headline)
        .collect();
    if rest.is_empty() {
        return;
    }
    if view.compact {
        ui.horizontal_wrapped(|ui| {
            for t in rest {
                taps.tracked(
                    ui,
                    view,
                    Some(seat),
                    &t.id.name,
                    &tracker_label(view, t),
                    28.0,
                );
                ui.add_space(6.0);
            }
        });
    } else {
        for t in rest {
            taps.tracked_row(
                ui,
                view,
                Some(seat),
                &t.id.name,
                &tracker_label(view, t),
                32.0,
            );
        }
    }
}

/// A card's name in the window's language, from the match's own card list.
fn card_name(view: &View<'_>, game: &GameUi, id: &str) -> String {
    match (game.card_name)(view.game, id) {
        Some((en, ja)) if ja.is_empty() || ja == en => en,
        Some((en, ja)) => match view.lang {
            Lang::Ja => ja,
            Lang::En => format!("{ja} ({en})"),
        },
        None => id.to_owned(),
    }
}

/// "Aki's attack bonus: − 10 +", stepping through the values the game offers. Returns the
/// stepper's rectangle.
fn value_picker(
    ui: &mut Ui,
    view: &View<'_>,
    seat: Seat,
    p: &Param,
    values: &[i64],
    value: &mut i64,
) -> egui::Rect {
    let name = format!("{}{}", view.who(Some(seat)), view.lang.pick(p.en, p.ja));
    let height = touch_height(ui, 40.0);
    let at = values.iter().position(|v| v == value).unwrap_or(0);
    let row = ui.horizontal(|ui| {
        ui.label(RichText::new(view.lang.pick(p.en, p.ja)).size(17.0));
        let minus = ui
            .add_enabled(
                at > 0,
                Button::new(RichText::new("−").size(22.0)).min_size(Vec2::new(48.0, height)),
            )
            .accessible_name(format!("{name} −"));
        ui.add_sized(
            Vec2::new(48.0, 34.0),
            Label::new(RichText::new(value.to_string()).size(22.0).strong()),
        )
        .accessible_name(format!("{name} = {value}"));
        let plus = ui
            .add_enabled(
                at + 1 < values.len(),
                Button::new(RichText::new("+").size(22.0)).min_size(Vec2::new(48.0, height)),
            )
            .accessible_name(format!("{name} +"));
        if minus.clicked() && at > 0 {
            *value = values[at - 1];
        }
        if plus.clicked() && at + 1 < values.len() {
            *value = values[at + 1];
        }
    });
    row.response.rect
}

/// The card pickers of a player's column. Returns the move types they enter, so that the
/// game's own button for such a move (with cards of its choosing) is not shown.
fn card_pickers(
    ui: &mut Ui,
    view: &View<'_>,
    game: &GameUi,
    seat: Seat,
    own: &[&Action],
    taps: &mut Taps,
    forms: &mut Forms,
) -> Vec<&'static str> {
    let mut shown = Vec::new();
    for pick in game.picks {
        let key = (seat, pick.move_type);
        if pick.offered {
            let Some(action) = own.iter().find(|a| move_type(a) == Some(pick.move_type)) else {
                forms.picked.remove(&key);
                continue;
            };
            let wanted = action
                .input
                .pointer("/move/cards")
                .and_then(Value::as_array)
                .map_or(1, Vec::len);
            shown.push(pick.move_type);
            let rect = card_picker(ui, view, game, seat, pick, Some(wanted), taps, forms);
            for a in own.iter().filter(|a| move_type(a) == Some(pick.move_type)) {
                taps.target(a, rect);
            }
        } else if !view.over {
            let caption = format!("{} {}", view.name(seat), view.lang.pick(pick.en, pick.ja));
            CollapsingHeader::new(RichText::new(&caption).size(16.0))
                .id_salt(("card-pick", seat, pick.move_type))
                .show(ui, |ui| {
                    let _ = card_picker(ui, view, game, seat, pick, None, taps, forms);
                });
        }
    }
    shown
}

/// One card picker: the cards picked (tap to take one back), "… these n", and the cards left.
/// `wanted`: exactly that many cards; `None`: one for a single card, else at least one.
#[allow(clippy::too_many_arguments)]
fn card_picker(
    ui: &mut Ui,
    view: &View<'_>,
    game: &GameUi,
    seat: Seat,
    pick: &CardPick,
    wanted: Option<usize>,
    taps: &mut Taps,
    forms: &mut Forms,
) -> egui::Rect {
    let cards = (game.pickable)(view.game, seat, view.lang);
    let label = |id: &str| {
        cards
            .iter()
            .find(|(c, _)| c == id)
            .map_or_else(|| id.to_owned(), |(_, l)| l.clone())
    };
    let name = view.name(seat).to_owned();
    let lang = view.lang;
    let verb = lang.pick(pick.en, pick.ja);
    let picked = forms.picked.entry((seat, pick.move_type)).or_default();
    picked.retain(|id| cards.iter().any(|(c, _)| c == id));
    let limit = wanted.unwrap_or(if pick.list { usize::MAX } else { 1 });
    let caption = match (lang, wanted) {
        (Lang::En, Some(n)) => format!("{name} {verb} {n}: tap the cards"),
        (Lang::Ja, Some(n)) => format!("{name}: {n}枚{verb}（カードをタップ）"),
        (Lang::En, None) => format!("{name} {verb}: tap the cards"),
        (Lang::Ja, None) => format!("{name}: {verb}（カードをタップ）"),
    };
    section(ui, &caption, |ui| {
        for id in picked.clone() {
            let text = match lang {
                Lang::En => format!("{name} {verb} {}: take back", label(&id)),
                Lang::Ja => format!("{name} {verb} {}: 取り消す", label(&id)),
            };
            // Ids of their own: a tap changes the rows above the other buttons.
            let back = ui.push_id(("take-back", &id), |ui| {
                ui.add(Button::new(&text).wrap())
                    .accessible_name(&text)
                    .clicked()
            });
            if back.inner {
                picked.retain(|c| *c != id);
                ui.ctx().request_repaint();
            }
        }
        let ready = match wanted {
            Some(n) => picked.len() == n,
            None => !picked.is_empty(),
        };
        let go = match lang {
            Lang::En => format!("{name} {verb} these {}", picked.len()),
            Lang::Ja => format!("{name}: この{}枚で{verb}", picked.len()),
        };
        let height = touch_height(ui, 48.0);
        let go_tapped = ui.push_id("go", |ui| {
            ui.add_enabled(
                ready,
                Button::new(RichText::new(&go).size(20.0))
                    .min_size(Vec2::new(ui.available_width(), height)),
            )
            .accessible_name(&go)
        });
        let go_rect = go_tapped.inner.rect;
        if go_tapped.inner.clicked() {
            let mut mv = Map::new();
            mv.insert("type".into(), pick.move_type.into());
            mv.insert("player".into(), seat.into());
            if pick.list {
                mv.insert("cards".into(), Value::from(picked.clone()));
            } else if let Some(c) = picked.first() {
                mv.insert("card".into(), c.clone().into());
            }
            for (k, v) in pick.extra {
                mv.insert((*k).into(), (*v).into());
            }
            taps.intents
                .push(Intent::Submit(json!({"input": "move", "move": mv})));
            picked.clear();
        }
        if picked.len() < limit {
            // One card a row, kept to the column's width (the table scrolls).
            let width = ui.available_width();
            ui.vertical(|ui| {
                let mut tapped = None;
                for (id, text) in cards.iter().filter(|(c, _)| !picked.contains(c)) {
                    let name = format!("{name} {} {text}", pick.en);
                    let tap = ui.push_id(("card", id), |ui| {
                        ui.add(
                            Button::new(RichText::new(text).size(17.0))
                                .wrap()
                                .min_size(Vec2::new(width - 16.0, 36.0)),
                        )
                        .accessible_name(name)
                        .clicked()
                    });
                    if tap.inner {
                        tapped = Some(id.clone());
                    }
                }
                if let Some(id) = tapped {
                    picked.push(id);
                    // The count and the button above were drawn before the tap.
                    ui.ctx().request_repaint();
                }
            });
        }
        go_rect
    })
}

/// "Enter an effect…": the game's numbers and a note, applied as the player's `effect` move.
fn effect_form(
    ui: &mut Ui,
    view: &View<'_>,
    game: &GameUi,
    seat: Seat,
    taps: &mut Taps,
    forms: &mut Forms,
) {
    let fields = game.effect_fields;
    if fields.is_empty() || view.over {
        return;
    }
    let lang = view.lang;
    let name = view.name(seat).to_owned();
    let open = match lang {
        Lang::En => format!("{name}: enter an effect"),
        Lang::Ja => format!("{name}: 効果を入力"),
    };
    let Some(form) = forms.effects.get_mut(&seat) else {
        if ui.add(Button::new(&open)).accessible_name(&open).clicked() {
            forms.effects.insert(seat, EffectForm::default());
        }
        return;
    };
    let who = view.who(Some(seat));
    let mut apply = false;
    let mut cancel = false;
    section(ui, &open, |ui| {
        ui.label(
            RichText::new(lang.pick(
                "The effect as resolved at the table (0 = no change)",
                "卓で解決した効果（0 = 変化なし）",
            ))
            .size(15.0)
            .weak(),
        );
        for f in fields {
            let value = form.numbers.entry(f.key).or_insert(0);
            let caption = lang.pick(f.en, f.ja);
            let name = format!("{who}effect: {}", f.en);
            let height = touch_height(ui, 36.0);
            ui.horizontal(|ui| {
                ui.add_sized(
                    Vec2::new(150.0, 34.0),
                    Label::new(RichText::new(caption).size(16.0)),
                );
                if ui
                    .add(
                        Button::new(RichText::new("−").size(22.0))
                            .min_size(Vec2::new(48.0, height)),
                    )
                    .accessible_name(format!("{name} −{}", f.step))
                    .clicked()
                {
                    *value -= f.step;
                }
                let shown = if *value > 0 {
                    format!("+{value}")
                } else {
                    value.to_string()
                };
                ui.add_sized(
                    Vec2::new(56.0, 34.0),
                    Label::new(RichText::new(shown).size(22.0).strong()),
                )
                .accessible_name(format!("{name} = {value}"));
                if ui
                    .add(
                        Button::new(RichText::new("+").size(22.0))
                            .min_size(Vec2::new(48.0, height)),
                    )
                    .accessible_name(format!("{name} +{}", f.step))
                    .clicked()
                {
                    *value += f.step;
                }
            });
        }
        for f in game.effect_flags {
            let on = form.flags.entry(f.key).or_insert(false);
            ui.checkbox(on, lang.pick(f.en, f.ja))
                .accessible_name(format!("{who}effect: {}", f.en));
        }
        ui.add(
            TextEdit::singleline(&mut form.note)
                .hint_text(lang.t().note_hint)
                .desired_width(f32::INFINITY),
        )
        .accessible_name(format!("{who}effect: note"));
        let label = match lang {
            Lang::En => format!("Apply {name}'s effect"),
            Lang::Ja => format!("{name}の効果を適用"),
        };
        apply = action_button(ui, &label, None).clicked();
        cancel = ui
            .add(Button::new(lang.t().cancel))
            .accessible_name(format!("{who}effect: {}", lang.t().cancel))
            .clicked();
    });
    if apply {
        // Only the parts that change, as a script writes them: zeros and "no" are left out.
        let mut mv = Map::new();
        mv.insert("type".into(), "effect".into());
        mv.insert("player".into(), seat.into());
        for f in fields {
            if let Some(v) = form.numbers.get(f.key).filter(|v| **v != 0) {
                mv.insert(f.key.into(), (*v).into());
            }
        }
        for f in game.effect_flags {
            if form.flags.get(f.key).copied().unwrap_or(false) {
                mv.insert(f.key.into(), true.into());
            }
        }
        let note = form.note.trim();
        if !note.is_empty() {
            mv.insert("note".into(), note.into());
        }
        taps.intents
            .push(Intent::Submit(json!({"input": "move", "move": mv})));
    }
    if apply || cancel {
        forms.effects.remove(&seat);
    }
}

/// The player's moves the game offers that break a rule, folded; a tap opens the refusal
/// dialog (the rules broken, "Undo at the table" or "Override…" with a reason).
fn against_the_rules(
    ui: &mut Ui,
    view: &View<'_>,
    seat: Seat,
    taps: &mut Taps,
    hidden: &dyn Fn(&Action) -> bool,
) {
    if view.over {
        return;
    }
    let caption = match view.lang {
        Lang::En => format!("{}: against the rules (override)", view.name(seat)),
        Lang::Ja => format!("{}: ルール外の手（合意で適用）", view.name(seat)),
    };
    CollapsingHeader::new(RichText::new(&caption).size(16.0))
        .id_salt(("against-the-rules", seat))
        .show(ui, |ui| {
            for action in view
                .game
                .refused_actions()
                .iter()
                .filter(|a| a.player == Some(seat) && !hidden(a))
            {
                let label = (view.label)(view, action);
                if action_button(ui, &label, None).clicked() {
                    taps.intents.push(Intent::Submit(action.input.clone()));
                }
            }
        });
}
