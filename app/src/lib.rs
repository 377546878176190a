//! Tableside app library: the match store, the live session, the CLI and the window.
//!
//! - [`store`]: the SQLite match store (every input durable before it changes a match) and the
//!   card library ([`store::library`]).
//! - [`card_search`]: finding a card of a set by part of its name or id (the deck editor).
//! - [`session`]: a live match bound to the store; resuming replays the stored log.
//! - [`cli`]: `tableside play | replay | log`.
//! - [`sync`]: the kiosk's club sync thread (with `[club]` in the config).
//! - [`ui`]: the eframe window.

pub mod card_search;
pub mod cli;
pub mod config;
pub mod dice;
pub mod export;
pub mod session;
pub mod sheet;
pub mod store;
pub mod sync;
pub mod ui;
pub mod vision;
