//! The old path of Space Junk's card schema and deck rules: they now live in
//! `cards/src/games/space_junk/`.

pub use crate::games::space_junk::card::*;
pub use crate::games::space_junk::deck::*;
pub use crate::games::space_junk::schema::{DEMO_TOML, demo};
