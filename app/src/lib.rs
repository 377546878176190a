//! Tableside app library: the match store, the live session, the CLI and the window.
//!
//! - [`store`]: the SQLite match store (every input durable before it changes a match).
//! - [`session`]: a live match bound to the store; resuming replays the stored log.
//! - [`cli`]: `tableside play | replay | log`.
//! - [`sync`]: the kiosk's club sync thread (with `[club]` in the config).
//! - [`ui`]: the eframe window.

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
