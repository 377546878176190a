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
use std::collections::{BTreeMap, BTreeSet};

/// The generic panel with the rules core's labels, turns and steps, and no pickers, effect form
/// or card names: what the entry of a game without a panel of its own starts from.
pub(crate) const GENERIC: GameUi = GameUi {
    panel: game_panel,
    label: plain_label,
    turn: plain_turn,
    turn_counted: super::spec::always_counted,
    steps: plain_steps,
    params: &[],
    effect_fields: &[],
    effect_flags: &[],
    picks: &[],
    card_name: no_card_names,
    family: no_card_names,
    pickable: nothing_to_pick,
    start: Start::ReadyMade { switches: &[] },
    headline: "hp",
    confirm: &[],
    suggest: no_suggestion,
    prompt: plain_prompt,
    tracker_ja: no_tracker_ja,
    phase_ja: no_tracker_ja,
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
    /// The chooser's group whose moves are open (800×480), by seat (`None`: the table's), and
    /// the log length then.
    choosing: Option<(Option<Seat>, String, usize)>,
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
        // The step in the window's language (the rules core's `phase.step` is English).
        let (step, _) = (game.steps)(view);
        ui.add(Label::new(RichText::new(step).size(28.0).strong()).wrap());
    }
    if view.actions.iter().any(|a| a.player.is_none()) {
        let table: Vec<&Action> = view.actions.iter().filter(|a| a.player.is_none()).collect();
        section(ui, view.lang.pick("Table", "テーブル"), |ui| {
            moves_block(ui, view, game, None, &table, 0.0, taps, &mut forms);
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
    // 800×480: the tiles share the room left (Space Junk's five others), the number as big as
    // that leaves.
    let per = (room_left(ui) + 4.0) / others.len() as f32 - 4.0;
    let number = if view.compact {
        (per - 24.0).clamp(26.0, 56.0)
    } else {
        64.0
    };
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
    // The moves that name cards through a picker (drawn below the other moves).
    let picked_types: Vec<&str> = game
        .picks
        .iter()
        .filter(|p| p.offered && own.iter().any(|a| move_type(a) == Some(p.move_type)))
        .map(|p| p.move_type)
        .collect();
    let shown = |a: &Action| !hidden(a) && !move_type(a).is_some_and(|t| picked_types.contains(&t));
    let listed: Vec<&Action> = own.iter().copied().filter(|a| shown(a)).collect();
    // 800×480: more moves than the room left on the screen are offered card by card (a tile
    // per card, its moves a tap away), so every move is reachable without scrolling.
    // The offered pickers below need their caption and "… these n" button on the screen too.
    let reserve = 100.0 * picked_types.len() as f32;
    moves_block(ui, view, game, Some(seat), &listed, reserve, taps, forms);
    card_pickers(ui, view, game, seat, &own, true, taps, forms);
    card_pickers(ui, view, game, seat, &own, false, taps, forms);
    effect_form(ui, view, game, seat, taps, forms);
    against_the_rules(ui, view, seat, taps, &hidden);
    other_trackers(ui, view, game, seat, taps);
}

/// The player's moves one button each; moves whose text does not say the card (a supporter
/// placed face down): one folded button per text, opened by the player to tap the card.
fn flat_moves(
    ui: &mut Ui,
    view: &View<'_>,
    game: &GameUi,
    seat: Option<Seat>,
    listed: &[&Action],
    taps: &mut Taps,
) {
    let own = listed;
    let shown = |a: &Action| listed.iter().any(|l| std::ptr::eq(*l, a));
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for a in own.iter().filter(|a| shown(a)) {
        *count.entry(a.label.as_str()).or_default() += 1;
    }
    taps.actions(ui, view, seat, |a| {
        !shown(a) || count.get(a.label.as_str()).is_some_and(|n| *n > 1)
    });
    for (label, _) in count.iter().filter(|(_, n)| **n > 1) {
        // The rules core's text is the key; the window's language is shown.
        let text = own
            .iter()
            .find(|a| a.label == *label)
            .map_or_else(|| (*label).to_owned(), |a| (view.label)(view, a));
        let folded = CollapsingHeader::new(RichText::new(&text).size(20.0))
            .id_salt(("same-text", seat, *label))
            .show(ui, |ui| {
                for a in own.iter().filter(|a| shown(a) && a.label == *label) {
                    let card = a.input.pointer("/move/card").and_then(Value::as_str);
                    let text = match card {
                        Some(id) => format!("{text}: {} ({id})", card_name(view, game, id)),
                        None => format!("{text}: {}", a.input["move"]),
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

/// The card pickers of a player's column: those of the moves offered now (`offered`), or the
/// folded ones of moves the table may make any time (a discard, a deck search), drawn below the
/// moves. Returns the move types they enter, so that the game's own button for such a move
/// (with cards of its choosing) is not shown.
#[allow(clippy::too_many_arguments)]
fn card_pickers(
    ui: &mut Ui,
    view: &View<'_>,
    game: &GameUi,
    seat: Seat,
    own: &[&Action],
    offered: bool,
    taps: &mut Taps,
    forms: &mut Forms,
) -> Vec<&'static str> {
    let mut shown = Vec::new();
    for pick in game.picks.iter().filter(|p| p.offered == offered) {
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
            // One card a row, kept to the column's width (the table scrolls); at 800×480 the
            // cards as tiles, several a row, so that more of them show at once.
            let width = ui.available_width();
            let cols = if view.compact {
                ((width / 110.0).floor() as usize).clamp(1, 3)
            } else {
                1
            };
            let tile = (width - 16.0 - TILE_GAP * (cols as f32 - 1.0)) / cols as f32;
            let left: Vec<&(String, String)> =
                cards.iter().filter(|(c, _)| !picked.contains(c)).collect();
            ui.vertical(|ui| {
                let mut tapped = None;
                ui.spacing_mut().item_spacing = Vec2::new(TILE_GAP, TILE_GAP);
                for row in left.chunks(cols) {
                    ui.horizontal(|ui| {
                        for (id, text) in row {
                            let name = format!("{name} {} {text}", pick.en);
                            let tap = ui.push_id(("card", id), |ui| {
                                ui.allocate_ui(Vec2::new(tile, 36.0), |ui| {
                                    ui.set_max_width(tile);
                                    let button = Button::new(RichText::new(text).size(17.0));
                                    let button = if cols > 1 {
                                        button.truncate()
                                    } else {
                                        button.wrap()
                                    };
                                    ui.add(button.min_size(Vec2::new(tile, 36.0)))
                                        .accessible_name(name)
                                        .clicked()
                                })
                                .inner
                            });
                            if tap.inner {
                                tapped = Some(id.clone());
                            }
                        }
                    });
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

/// The vertical room a row of buttons takes in the flat layout beyond the button itself.
const ROW_GAP: f32 = 25.0;
/// A tile of the dense grid and the chooser: its least height and the gap around it.
const TILE: f32 = 40.0;
const TILE_GAP: f32 = 4.0;
/// The text size of a tile, and the room around its text.
const TILE_TEXT: f32 = 14.0;
const TILE_PAD: Vec2 = Vec2::new(5.0, 4.0);

/// The room from here to the bottom of the screen, less a margin.
fn room_left(ui: &Ui) -> f32 {
    ui.ctx().content_rect().bottom() - ui.cursor().top() - 8.0
}

/// The moves of a player (or of the table, `seat` `None`). Where there is room, one button
/// each; at 800×480, when those do not fit in the room left on the screen, a grid of smaller
/// tiles; and when even those do not fit, a tile per card (or kind of move), its moves a tap
/// away. Every move is reachable without scrolling.
#[allow(clippy::too_many_arguments)]
fn moves_block(
    ui: &mut Ui,
    view: &View<'_>,
    game: &GameUi,
    seat: Option<Seat>,
    listed: &[&Action],
    reserve: f32,
    taps: &mut Taps,
    forms: &mut Forms,
) {
    let room = room_left(ui) - reserve;
    if !view.compact || flat_fits(ui, view, listed, room) {
        flat_moves(ui, view, game, seat, listed, taps);
        return;
    }
    // A tile per move where they fit, each readable (two lines at most) and none reading like
    // another (six "places a supporter face down" need their cards: the chooser).
    let tiles: Vec<Tile<'_>> = listed.iter().map(|a| Tile::Move(a)).collect();
    let texts: BTreeSet<String> = tiles.iter().map(|t| tile_text(view, t)).collect();
    if texts.len() == tiles.len()
        && let Some(fewest) = grid_fits(ui, view, &tiles, room)
        // The table's moves leave the players their room: as low a grid as can be.
        && let cols = if seat.is_none() { lowest_grid(ui, view, &tiles) } else { fewest }
        && row_heights(ui, view, &tiles, cols)
            .iter()
            .all(|h| *h <= 2.0 * TILE_TEXT * 1.3 + TILE_PAD.y * 2.0 + 1.0)
    {
        tile_grid(ui, view, seat, &tiles, cols, taps, forms);
        return;
    }
    let mut tiles = grouped(view, game, listed, true);
    // More cards than tiles fit (a 30-card draft deck at 800×480): a tile per kind of move,
    // its cards in the chooser.
    if grid_fits(ui, view, &tiles, room).is_none() {
        let by_kind = grouped(view, game, listed, false);
        if by_kind.len() < tiles.len() {
            tiles = by_kind;
        }
    }
    let cols = grid_fits(ui, view, &tiles, room).unwrap_or_else(|| lowest_grid(ui, view, &tiles));
    tile_grid(ui, view, seat, &tiles, cols, taps, forms);
    chooser_dialog(ui, view, game, seat, &tiles, taps, forms);
}

/// True when the moves, one button each (the folded texts one row each), fit in the room left
/// on the screen.
fn flat_fits(ui: &Ui, view: &View<'_>, listed: &[&Action], room: f32) -> bool {
    let width = (ui.available_width() - 16.0).max(60.0);
    let mut texts: Vec<String> = Vec::new();
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for a in listed {
        *count.entry(a.label.as_str()).or_default() += 1;
    }
    let mut height = 0.0;
    for a in listed {
        if count.get(a.label.as_str()).is_some_and(|n| *n > 1) {
            if !texts.contains(&a.label) {
                texts.push(a.label.clone());
                height += 37.0 + 8.0;
            }
            continue;
        }
        let text = tile_text(view, &Tile::Move(a));
        let size = text_height(ui, text, 17.0, width);
        height += (size + 14.0).max(44.0) + ROW_GAP;
    }
    height <= room
}

/// The height of `text` at `size` wrapped at `width`.
fn text_height(ui: &Ui, text: String, size: f32, width: f32) -> f32 {
    ui.painter()
        .layout(
            text,
            egui::FontId::proportional(size),
            egui::Color32::WHITE,
            width,
        )
        .size()
        .y
}

/// One control of the grid: a move, or a card (or kind of move) whose moves open in a dialog.
enum Tile<'a> {
    Move(&'a Action),
    Group {
        /// What the moves share (the card family's English name, or the move type).
        key: String,
        /// What the tile says.
        text: String,
        moves: Vec<&'a Action>,
    },
}

/// The most tiles a row of the room's width holds.
fn most_columns(ui: &Ui) -> usize {
    ((ui.available_width() / 85.0).floor() as usize).clamp(1, 4)
}

/// A move's text without its player's name in front (the player's area says who).
fn without_player(view: &View<'_>, a: &Action, text: String) -> String {
    let Some(seat) = a.player else {
        return text;
    };
    let name = view.name(seat);
    match text.strip_prefix(name) {
        Some(rest) if rest.starts_with([' ', ':', 'は', 'が', 'の']) => {
            let rest = rest.trim_start_matches([' ', ':', 'は', 'が', 'の']);
            if rest.is_empty() {
                text
            } else {
                rest.to_owned()
            }
        }
        _ => text,
    }
}

fn tile_text(view: &View<'_>, tile: &Tile<'_>) -> String {
    match tile {
        Tile::Move(a) => {
            let label = without_player(view, a, (view.label)(view, a));
            match view.key_of(a) {
                Some(k) => format!("[{k}] {label}"),
                None => label,
            }
        }
        Tile::Group { text, moves, .. } if moves.len() == 1 => format!("{text} ›"),
        Tile::Group { text, moves, .. } => format!("{text} › {}", moves.len()),
    }
}

/// The height of each row of `tiles` laid out `cols` a row.
fn row_heights(ui: &Ui, view: &View<'_>, tiles: &[Tile<'_>], cols: usize) -> Vec<f32> {
    let width = tile_width(ui, cols);
    tiles
        .chunks(cols)
        .map(|row| {
            row.iter()
                .map(|t| {
                    text_height(
                        ui,
                        tile_text(view, t),
                        TILE_TEXT,
                        width - 2.0 * TILE_PAD.x - 8.0,
                    ) + 2.0 * TILE_PAD.y
                })
                .fold(TILE, f32::max)
        })
        .collect()
}

fn tile_width(ui: &Ui, cols: usize) -> f32 {
    (ui.available_width() - TILE_GAP * (cols as f32 - 1.0)) / cols as f32 - 0.5
}

/// The fewest columns (2 or more) at which the tiles fit in the room left, if any.
fn grid_fits(ui: &Ui, view: &View<'_>, tiles: &[Tile<'_>], room: f32) -> Option<usize> {
    (2..=most_columns(ui).max(2)).find(|cols| {
        let rows = row_heights(ui, view, tiles, *cols);
        rows.iter().sum::<f32>() + TILE_GAP * rows.len() as f32 <= room
    })
}

/// The columns (2 or more) at which the tiles take the least height.
fn lowest_grid(ui: &Ui, view: &View<'_>, tiles: &[Tile<'_>]) -> usize {
    (2..=most_columns(ui).max(2))
        .map(|cols| {
            let rows = row_heights(ui, view, tiles, cols);
            (
                rows.iter().sum::<f32>() + TILE_GAP * rows.len() as f32,
                cols,
            )
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map_or(2, |(_, cols)| cols)
}

/// The moves grouped for the chooser: by the card they name (its family, e.g. Yomi's copies
/// of one move) when `by_card`, else by the kind of move when there are several of it; a move
/// alone stays a tile of its own.
fn grouped<'a>(
    view: &View<'_>,
    game: &GameUi,
    listed: &[&'a Action],
    by_card: bool,
) -> Vec<Tile<'a>> {
    let key_of = |a: &Action| -> Option<(String, Option<String>)> {
        if by_card && let Some((key, shown)) = family_of(view, game, a) {
            return Some((format!("card:{key}"), Some(shown)));
        }
        let kind = move_type(a)?;
        let same = listed.iter().filter(|b| move_type(b) == Some(kind)).count();
        (same > 1).then(|| (format!("type:{kind}"), None))
    };
    let mut tiles: Vec<Tile<'a>> = Vec::new();
    for a in listed {
        let Some((key, shown)) = key_of(a) else {
            tiles.push(Tile::Move(a));
            continue;
        };
        match tiles
            .iter_mut()
            .find(|t| matches!(t, Tile::Group { key: k, .. } if *k == key))
        {
            Some(Tile::Group { moves, .. }) => moves.push(a),
            _ => tiles.push(Tile::Group {
                key,
                text: shown.unwrap_or_default(),
                moves: vec![a],
            }),
        }
    }
    // A kind of move with one move left is the move itself (a card keeps its tile: its move
    // may not say the card, "places a supporter face down"); a kind of move reads as what its
    // texts share.
    tiles
        .into_iter()
        .map(|t| match t {
            Tile::Group { key, moves, .. } if moves.len() == 1 && key.starts_with("type:") => {
                Tile::Move(moves[0])
            }
            Tile::Group { key, text, moves } if text.is_empty() => {
                let labels: Vec<String> = moves
                    .iter()
                    .map(|a| without_player(view, a, (view.label)(view, a)))
                    .collect();
                Tile::Group {
                    key,
                    text: shared_words(&labels),
                    moves,
                }
            }
            t => t,
        })
        .collect()
}

/// The words every text starts with ("Aki attacks with"), or the first text's start.
fn shared_words(texts: &[String]) -> String {
    let Some(first) = texts.first() else {
        return String::new();
    };
    let mut end = first.len();
    for t in &texts[1..] {
        end = first
            .char_indices()
            .zip(t.chars())
            .find(|((_, a), b)| a != b)
            .map_or(end.min(t.len()), |((i, _), _)| i)
            .min(end);
    }
    let shared = &first[..end];
    // Whole words only (a space before the first difference), else all of the shared part.
    let shared = match shared.rfind(' ') {
        Some(i) if end < first.len() && i > 0 => &shared[..i],
        _ => shared,
    };
    let shared = shared.trim_end_matches([' ', ':', ',', '(']);
    if shared.is_empty() {
        first.chars().take(24).collect()
    } else {
        shared.to_owned()
    }
}

/// What the chooser groups a move under when it names a card: its card's family (or name).
fn family_of(view: &View<'_>, game: &GameUi, a: &Action) -> Option<(String, String)> {
    let id = a.input.pointer("/move/card").and_then(Value::as_str)?;
    let (en, ja) = (game.family)(view.game, id)
        .or_else(|| (game.card_name)(view.game, id))
        .unwrap_or_else(|| (id.to_owned(), String::new()));
    // A tile says the card in the window's language (the dialog's moves say both).
    let shown = match view.lang {
        Lang::Ja if !ja.is_empty() => ja,
        _ => en.clone(),
    };
    Some((en, shown))
}

/// The chooser's group whose moves are open, if it is one of `seat`'s (or the table's).
fn open_group(view: &View<'_>, seat: Option<Seat>, forms: &Forms) -> Option<String> {
    forms
        .choosing
        .as_ref()
        .filter(|(s, _, at)| *s == seat && *at == view.game.len())
        .map(|(_, key, _)| key.clone())
}

/// The tiles, `cols` a row: a move's tile applies it, a group's opens its moves.
fn tile_grid(
    ui: &mut Ui,
    view: &View<'_>,
    seat: Option<Seat>,
    tiles: &[Tile<'_>],
    cols: usize,
    taps: &mut Taps,
    forms: &mut Forms,
) {
    let width = tile_width(ui, cols);
    let heights = row_heights(ui, view, tiles, cols);
    let open = open_group(view, seat, forms);
    let who = seat.map_or_else(
        || view.lang.pick("Table", "テーブル").to_owned(),
        |s| view.name(s).to_owned(),
    );
    ui.scope(|ui| {
        ui.spacing_mut().item_spacing = Vec2::new(TILE_GAP, TILE_GAP);
        ui.spacing_mut().button_padding = TILE_PAD;
        for (row, height) in tiles.chunks(cols).zip(heights) {
            ui.horizontal_top(|ui| {
                for tile in row {
                    let text = tile_text(view, tile);
                    let (name, id) = match tile {
                        Tile::Move(a) => ((view.label)(view, a), a.input.to_string()),
                        Tile::Group { key, text, moves } => (
                            match view.lang {
                                Lang::En => format!("{who}: {text} ({} moves)", moves.len()),
                                Lang::Ja => format!("{who}: {text}（{}手）", moves.len()),
                            },
                            key.clone(),
                        ),
                    };
                    let selected = matches!(tile, Tile::Group { key, .. } if open.as_deref() == Some(key.as_str()));
                    let button = ui
                        .push_id(("tile", id), |ui| {
                            ui.allocate_ui(Vec2::new(width, height), |ui| {
                                ui.set_max_width(width);
                                ui.add(
                                    Button::new(RichText::new(&text).size(TILE_TEXT))
                                        .wrap()
                                        .selected(selected)
                                        .min_size(Vec2::new(width, height)),
                                )
                                .accessible_name(&name)
                            })
                            .inner
                        })
                        .inner;
                    match tile {
                        Tile::Move(a) => {
                            taps.target(a, button.rect);
                            if button.clicked() {
                                taps.intents.push(Intent::Submit(a.input.clone()));
                            }
                        }
                        Tile::Group { key, moves, .. } => {
                            for a in moves {
                                taps.target(a, button.rect);
                            }
                            if button.clicked() {
                                forms.choosing = Some((seat, key.clone(), view.game.len()));
                                ui.ctx().request_repaint();
                            }
                        }
                    }
                }
            });
        }
    });
}

/// The open group's moves, in a dialog over the screen (nothing under the finger moves), with
/// a way back.
#[allow(clippy::too_many_arguments)]
fn chooser_dialog(
    ui: &mut Ui,
    view: &View<'_>,
    game: &GameUi,
    seat: Option<Seat>,
    tiles: &[Tile<'_>],
    taps: &mut Taps,
    forms: &mut Forms,
) {
    let Some(open) = open_group(view, seat, forms) else {
        return;
    };
    let Some((text, moves)) = tiles.iter().find_map(|t| match t {
        Tile::Group { key, text, moves } if *key == open => Some((text, moves)),
        _ => None,
    }) else {
        forms.choosing = None;
        return;
    };
    let who = seat.map_or_else(
        || view.lang.pick("Table", "テーブル").to_owned(),
        |s| view.name(s).to_owned(),
    );
    let mut close = false;
    let modal = egui::Modal::new(egui::Id::unique(("chooser", seat))).show(ui.ctx(), |ui| {
        let screen = ui.ctx().content_rect();
        ui.set_max_width(screen.width().min(760.0) - 40.0);
        ui.spacing_mut().item_spacing = Vec2::new(TILE_GAP, TILE_GAP);
        ui.add(Label::new(RichText::new(format!("{who}: {text}")).size(20.0).strong()).truncate());
        let width = ui.available_width();
        let cols = if moves.len() > 4 && width >= 500.0 {
            2
        } else {
            1
        };
        let button_width = (width - TILE_GAP * (cols as f32 - 1.0)) / cols as f32 - 0.5;
        // A card with more moves than fit scrolls inside the dialog; the way back stays.
        egui::ScrollArea::vertical()
            .max_height(screen.height() - 150.0)
            .show(ui, |ui| {
                for row in moves.chunks(cols) {
                    ui.horizontal_top(|ui| {
                        for a in row {
                            let mut label = (view.label)(view, a);
                            // Moves that read alike ("places a supporter face down") say
                            // their card.
                            let alike = moves.iter().filter(|b| b.label == a.label).count();
                            if alike > 1
                                && let Some(id) =
                                    a.input.pointer("/move/card").and_then(Value::as_str)
                            {
                                label = format!("{label}: {} ({id})", card_name(view, game, id));
                            }
                            let button = ui
                                .add(
                                    Button::new(RichText::new(&label).size(17.0))
                                        .wrap()
                                        .min_size(Vec2::new(button_width, TILE)),
                                )
                                .accessible_name(&label);
                            if button.clicked() {
                                taps.intents.push(Intent::Submit(a.input.clone()));
                                close = true;
                            }
                        }
                    });
                }
            });
        let cancel = view.lang.t().cancel;
        if ui
            .add(Button::new(RichText::new(cancel).size(18.0)).min_size(Vec2::new(width, TILE)))
            .accessible_name(format!("{who}: {text}: {cancel}"))
            .clicked()
        {
            close = true;
        }
    });
    if close || modal.should_close() {
        forms.choosing = None;
    }
}
