//! The old path of Yomi's card schema and deck rules: they now live in `cards/src/games/yomi/`.

pub use crate::games::yomi::card::*;
pub use crate::games::yomi::deck::*;
pub use crate::games::yomi::schema::{DEMO_FILE, DEMO_TOML, demo, load};
