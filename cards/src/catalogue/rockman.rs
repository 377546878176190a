//! The old path of Rockman EXE's card schema and deck rules: they now live in
//! `cards/src/games/rockman/`.

pub use crate::games::rockman::card::*;
pub use crate::games::rockman::deck::*;
pub use crate::games::rockman::schema::{DEMO_TOML, demo, load};
