//! The game panel of every game without its own panel (all but Jaken): the current step, a
//! column per player with their tracked numbers large and their legal moves as large buttons,
//! and the moves of the whole table. The moves are the game's own `actions()`, with their own
//! labels; a tap submits the move through the session like Jaken's buttons.

use super::table::{Taps, View, name_line};
use super::widgets::section;
use cards::core::Seat;
use egui::{RichText, Ui};

/// The step, the table's moves, then one column per player.
pub(crate) fn game_panel(ui: &mut Ui, view: &View<'_>, taps: &mut Taps) {
    let size = if view.compact { 22.0 } else { 28.0 };
    ui.add(egui::Label::new(RichText::new(&view.ctx.phase.step).size(size).strong()).wrap());
    if view.actions.iter().any(|a| a.player.is_none()) {
        section(ui, view.lang.pick("Table", "テーブル"), |ui| {
            taps.actions(ui, view, None, |_| false);
        });
    }
    ui.add_space(6.0);
    let players = view.ctx.players.len();
    ui.columns(players.max(1), |cols| {
        for (seat, ui) in cols.iter_mut().enumerate() {
            super::table::player_frame(ui, view, seat, |ui| player_column(ui, view, seat, taps));
        }
    });
}

/// A player's column: the name line, every number of the player (large, correctable), then
/// the player's moves.
fn player_column(ui: &mut Ui, view: &View<'_>, seat: Seat, taps: &mut Taps) {
    name_line(ui, view, seat, view.lang.t().first_player, "");
    for t in view.trackers.iter().filter(|t| t.id.player == Some(seat)) {
        ui.horizontal(|ui| taps.tracked(ui, view, Some(seat), &t.id.name, &t.label, 36.0));
    }
    taps.actions(ui, view, Some(seat), |_| false);
}
