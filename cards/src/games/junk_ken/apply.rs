//! Applying a JUNK-KEN event to the state: no logic, just the change.

use super::state::*;

pub(super) fn apply(state: &mut State, event: &Event) {
    match event {
        Event::Player(seat, p) => {
            if let Some(slot) = state.players.get_mut(*seat) {
                slot.clone_from(p);
            }
        }
        Event::Table(t) => state.table.clone_from(t),
    }
}
