//! The old path of JUNK-KEN's card schema and deck rules: they now live in
//! `cards/src/games/junk_ken/`.

pub use crate::games::junk_ken::card::*;
pub use crate::games::junk_ken::deck::*;
pub use crate::games::junk_ken::schema::{DEMO_TOML, demo};
