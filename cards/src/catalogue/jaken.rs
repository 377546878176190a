//! The old path of Jaken's card schema: the cards now live in `cards/src/games/jaken/`.

pub use crate::games::jaken::card::*;
