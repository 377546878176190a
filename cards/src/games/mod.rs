//! The games, one module each.

pub mod jaken;
pub mod junk_ken;
pub mod rockman;
pub mod space_junk;
pub mod yomi;
